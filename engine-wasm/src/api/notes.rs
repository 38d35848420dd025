//! Notes in the `LexicalIndex` class, the way the native server indexes them: a note is cut
//! into chunks (engine-core's extraction and chunking, default options), each chunk indexed
//! under its [`chunk_key`] with the note's title, aliases and tags ([`note_fields`]), its
//! heading breadcrumb and its text; a search ranks notes with engine-core's note ranking
//! ([`rank_notes`]). Same code, same documents, same ids: the same ranking and scores.

use engine_core::markdown::{
    ChunkOptions, NoteMetadata, extract, index_chunks, note_fields, note_text,
};
use std::rc::Rc;

use engine_core::rank::{Document, NoteRanking, Visible, chunk_key};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use super::rank::{LexicalIndexHandle, index_error};
use crate::js;

/// One chunk of a note as indexed (read back from the host without its document).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoteChunk {
    /// Its id in the index ([`chunk_key`]).
    pub key: String,
    /// Its heading breadcrumb, outermost first.
    pub headings: Vec<String>,
    /// The document indexed for it.
    #[serde(skip)]
    pub document: Document,
}

/// The chunks of the note at `path` whose text is `text`, with frontmatter `properties`
/// (`{}` when it has none or it does not parse), as the index holds them.
pub fn note_chunks(path: &str, text: &str, properties: &Map<String, Value>) -> Vec<NoteChunk> {
    chunks_of(path, text, &extract(text), properties)
}

/// [`note_chunks`] with the note's metadata already extracted.
fn chunks_of(
    path: &str,
    text: &str,
    meta: &NoteMetadata,
    properties: &Map<String, Value>,
) -> Vec<NoteChunk> {
    let fields = note_fields(path, meta, properties);
    index_chunks(text, meta, &ChunkOptions::default())
        .into_iter()
        .map(|chunk| NoteChunk {
            key: chunk_key(path, u32::try_from(chunk.index).unwrap_or(u32::MAX)),
            document: Document {
                title: fields.title.clone(),
                aliases: fields.aliases.clone(),
                headings: chunk.headings.clone(),
                tags: fields.tags.clone(),
                body: chunk.text,
            },
            headings: chunk.headings,
        })
        .collect()
}

/// One ranked note.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NoteHit {
    /// The note's path.
    pub path: String,
    /// Its best chunk's key.
    pub key: String,
    /// The note's score (its best chunk's BM25F raised by its title and other chunks, see
    /// `NoteRanking`), widened from `f32`.
    pub score: f64,
}

#[wasm_bindgen(js_class = LexicalIndex)]
impl LexicalIndexHandle {
    /// Indexes the note at `path` from its full text (as the file holds it: a BOM and CRLF
    /// line breaks are read away as the server reads them); `parse_yaml(yaml)` turns the text of
    /// its frontmatter (found by engine-core, as the server finds it) into its properties,
    /// a plain object (a throw or any other value counts as no properties, as a frontmatter
    /// the server cannot parse does). Earlier chunks of the note are not replaced: remove
    /// them first by their keys. Returns its chunks, `[{key, headings}]`, in order.
    pub fn upsert_note(
        &mut self,
        path: &str,
        text: &str,
        parse_yaml: &js_sys::Function,
    ) -> Result<JsValue, JsError> {
        // The server reads files the same way: no BOM, CRLF as LF (engine-core's note_text).
        let read = note_text(text);
        let text: &str = &read.text;
        let meta = extract(text);
        let properties = meta
            .frontmatter
            .as_ref()
            .and_then(|span| {
                let parsed = parse_yaml.call1(&JsValue::NULL, &JsValue::from_str(&span.yaml));
                js::from_js::<Map<String, Value>>(parsed.ok()?).ok()
            })
            .unwrap_or_default();
        let chunks = chunks_of(path, text, &meta, &properties);
        for chunk in &chunks {
            self.inner
                .upsert(&chunk.key, &chunk.document)
                .map_err(|e| js::error(index_error(e)))?;
        }
        js::to_js(&chunks)
    }

    /// The first `wanted` notes for `query` that `allowed(path)` admits, each by its best
    /// chunk, best first: `[{path, key, score}]`. Scores use the statistics of the notes
    /// `readable(path)` admits (the caller's folder access), as the server's do, so notes it
    /// may not read change no score; `allowed` narrows further (a folder). A throw or a falsy
    /// answer of either leaves the note out. `readable` null: every note is readable, and the
    /// search uses the whole index's statistics without building a view (no call per note).
    /// `view_key` names everything `readable` depends on (the folder access): the view built
    /// for it is kept and reused, without asking `readable` again, until the index changes or
    /// another key is given.
    pub fn search_notes(
        &self,
        query: &str,
        wanted: usize,
        readable: Option<js_sys::Function>,
        allowed: &js_sys::Function,
        view_key: Option<String>,
    ) -> Result<JsValue, JsError> {
        let visible = readable
            .as_ref()
            .map(|readable| self.visible(readable, view_key.as_deref()));
        let mut admits = |path: &str| asks(allowed, path);
        js::to_js(&rank_notes(
            self,
            query,
            wanted,
            visible.as_deref(),
            &mut admits,
        ))
    }

    /// How many chunks the notes `readable(path)` admits have (a throw or a falsy answer
    /// leaves the note out): the `coverage` a caller restricted to them is told; every chunk
    /// when `readable` is null. `view_key` as for `search_notes`.
    pub fn readable_chunks(
        &self,
        readable: Option<js_sys::Function>,
        view_key: Option<String>,
    ) -> usize {
        match readable {
            Some(readable) => self.visible(&readable, view_key.as_deref()).len(),
            None => self.inner.len(),
        }
    }
}

impl LexicalIndexHandle {
    /// The view of the chunks of the notes `readable` admits: the one kept under `key` when
    /// the index has not changed since, else built (and kept under `key` when there is one).
    fn visible(&self, readable: &js_sys::Function, key: Option<&str>) -> Rc<Visible> {
        if let Some(key) = key
            && let Some((kept, view)) = &*self.view.borrow()
            && kept == key
            && self.inner.is_current(view)
        {
            return Rc::clone(view);
        }
        let view = Rc::new(self.inner.visible_notes(&mut |path| asks(readable, path)));
        if let Some(key) = key {
            *self.view.borrow_mut() = Some((key.to_owned(), Rc::clone(&view)));
        }
        view
    }
}

/// Whether `predicate(path)` answers truthy (a throw counts as no).
fn asks(predicate: &js_sys::Function, path: &str) -> bool {
    predicate
        .call1(&JsValue::NULL, &JsValue::from_str(path))
        .is_ok_and(|answer| answer.is_truthy())
}

/// The note ranking behind [`LexicalIndexHandle::search_notes`]: engine-core's
/// [`LexicalIndex::rank_notes`](engine_core::rank::LexicalIndex::rank_notes) with the default
/// [`NoteRanking`] (the server's default `search` settings) over the chunks of `visible` with
/// their statistics (the whole index when `None`: every note readable), then the notes
/// `allowed` admits.
pub fn rank_notes(
    index: &LexicalIndexHandle,
    query: &str,
    wanted: usize,
    visible: Option<&Visible>,
    allowed: &mut dyn FnMut(&str) -> bool,
) -> Vec<NoteHit> {
    index
        .inner
        .rank_notes(visible, query, wanted, &NoteRanking::default(), allowed)
        // A kept view is checked against the index before use; a stale one ranks nothing
        // rather than scoring with another corpus's statistics.
        .unwrap_or_default()
        .into_iter()
        .map(|note| NoteHit {
            path: note.path,
            key: note.chunk,
            score: f64::from(note.score),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::rank::{Bm25Params, LexicalIndex};
    use engine_core::text::AnalyzerSettings;

    fn index_of(notes: &[(&str, &str)]) -> LexicalIndexHandle {
        let mut inner = LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default())
            .expect("default parameters");
        for (path, text) in notes {
            for chunk in note_chunks(path, text, &Map::new()) {
                inner.upsert(&chunk.key, &chunk.document).expect("indexed");
            }
        }
        LexicalIndexHandle::from(inner)
    }

    #[test]
    fn equal_scores_rank_by_path_and_each_note_shows_once() {
        let same = "# Bread\nflour and water\n";
        let index = index_of(&[
            ("z.md", same),
            ("a b.md", same),
            (
                "a.md",
                "# Bread\nflour and water and salt\n\n# More bread\nflour\n",
            ),
            ("a/b.md", same),
        ]);
        let hits = rank_notes(&index, "water", 10, None, &mut |_| true);
        let paths: Vec<&str> = hits.iter().map(|hit| hit.path.as_str()).collect();
        assert_eq!(paths, ["a b.md", "a/b.md", "z.md", "a.md"]);
        assert_eq!(hits[0].score, hits[1].score);
        let hits = rank_notes(&index, "flour", 10, None, &mut |path| path != "a b.md");
        assert_eq!(hits.len(), 3);
        assert!(hits.iter().all(|hit| hit.path != "a b.md"));
    }

    #[test]
    fn notes_a_caller_may_not_read_change_no_score() {
        let public = [("Public/merger.md", "# Merger\nthe merger of two clubs\n")];
        let alone = index_of(&public);
        let mut notes = public.to_vec();
        let hidden: Vec<(String, String)> = (0..60)
            .map(|i| (format!("Secret/{i}.md"), format!("merger plans {i}\n")))
            .collect();
        notes.extend(hidden.iter().map(|(p, t)| (p.as_str(), t.as_str())));
        let crowded = index_of(&notes);
        let public_only = |path: &str| path.starts_with("Public/");
        let want = rank_notes(&alone, "merger", 10, None, &mut |_| true);
        let view = crowded.inner.visible_notes(&mut |p| public_only(p));
        let got = rank_notes(&crowded, "merger", 10, Some(&view), &mut |_| true);
        assert_eq!(got, want);
        // A view admitting every note scores as the whole index does.
        let every = alone.inner.visible_notes(&mut |_| true);
        let all = rank_notes(&alone, "merger", 10, Some(&every), &mut |_| true);
        assert_eq!(all[0].score.to_bits(), want[0].score.to_bits());
        assert_eq!(got[0].score.to_bits(), want[0].score.to_bits());
    }

    #[test]
    fn chunks_carry_the_note_fields() {
        let mut properties = Map::new();
        properties.insert("aliases".into(), Value::from(vec!["Loaf"]));
        let chunks = note_chunks(
            "Food/Bread.md",
            "---\naliases: [Loaf]\n---\n# A\ntext #Tag\n",
            &properties,
        );
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].key, chunk_key("Food/Bread.md", 0));
        assert_eq!(chunks[0].headings, ["A"]);
        assert_eq!(chunks[0].document.title, "Bread");
        assert_eq!(chunks[0].document.aliases, ["Loaf"]);
        assert_eq!(chunks[0].document.tags, ["tag"]);
    }
}
