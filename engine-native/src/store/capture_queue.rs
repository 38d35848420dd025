//! The capture queue: text staged for filing later, per vault, kept until a commit writes it
//! to a note (and after, marked committed). The queue is not in the vault: nothing here
//! touches a vault file.
//!
//! Natural keys: a pending capture is unique per vault and content (a second enqueue of the
//! same text returns the first capture), and a capture is committed at most once (marking a
//! committed capture again returns its first commit unchanged).

use rusqlite::{OptionalExtension, Row, Transaction, params};

use super::{Store, StoreError, check_limit, random};

/// The largest content the queue keeps, bytes (1 MiB).
pub const MAX_CAPTURE_BYTES: usize = 1 << 20;

/// A capture to queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewCapture<'a> {
    /// The vault it is for.
    pub vault_id: &'a str,
    /// Who queued it.
    pub caller: &'a str,
    /// The text (at most [`MAX_CAPTURE_BYTES`]).
    pub content: &'a str,
    /// A short title.
    pub title: Option<&'a str>,
    /// Where the caller suggests filing it (vault-relative).
    pub suggested_path: Option<&'a str>,
    /// Tags to give the note.
    pub tags: &'a [String],
    /// When, Unix seconds.
    pub now: i64,
}

/// A queued capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// Its id (32 random hex characters).
    pub id: String,
    /// Who queued it.
    pub caller: String,
    /// The text.
    pub content: String,
    /// The SHA-256 of the text.
    pub content_sha256: String,
    /// Its title, if given.
    pub title: Option<String>,
    /// The suggested vault path, if given.
    pub suggested_path: Option<String>,
    /// Its tags.
    pub tags: Vec<String>,
    /// When it was queued, Unix seconds.
    pub created_at: i64,
    /// Its commit, once committed.
    pub committed: Option<Commit>,
}

/// Where and when a capture was filed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// When, Unix seconds.
    pub at: i64,
    /// The canonical vault path of the note written.
    pub path: String,
    /// The SHA-256 of the note right after the commit.
    pub sha256: String,
}

/// What [`CaptureQueue::enqueue`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enqueued {
    /// The queued capture: the new one, or the pending one with the same content.
    pub capture: Capture,
    /// Whether a new capture was queued (false: the same content was already pending).
    pub created: bool,
}

/// One page of [`CaptureQueue::list`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapturePage {
    /// The captures, newest first.
    pub items: Vec<Capture>,
    /// Pass back to get the next (older) page; `None` on the last page. Opaque to callers.
    pub cursor: Option<String>,
}

/// The capture-queue repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct CaptureQueue<'s> {
    store: &'s Store,
}

const COLUMNS: &str = "capture_id, caller, content, content_sha256, title, suggested_path, \
     tags_json, created_at, committed_at, committed_path, committed_sha256, seq";

impl<'s> CaptureQueue<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Queues `capture`, or returns the pending capture of its vault with the same content
    /// (`created: false`, nothing changed). Content over [`MAX_CAPTURE_BYTES`] is refused
    /// with [`StoreError::CaptureTooLarge`].
    pub fn enqueue(&self, capture: &NewCapture<'_>) -> Result<Enqueued, StoreError> {
        if capture.content.len() > MAX_CAPTURE_BYTES {
            return Err(StoreError::CaptureTooLarge {
                size: capture.content.len(),
                max: MAX_CAPTURE_BYTES,
            });
        }
        let sha256 = engine_core::hash::sha256_hex(capture.content.as_bytes());
        let tags = serde_json::to_string(capture.tags)?;
        let id = random::token_hex()?;
        self.store.write(|tx| {
            if let Some(pending) = pending_with(tx, capture.vault_id, &sha256)? {
                return Ok(Enqueued {
                    capture: pending,
                    created: false,
                });
            }
            tx.execute(
                "INSERT INTO capture_queue (capture_id, vault_id, caller, content, content_sha256,
                     title, suggested_path, tags_json, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    id,
                    capture.vault_id,
                    capture.caller,
                    capture.content,
                    sha256,
                    capture.title,
                    capture.suggested_path,
                    tags,
                    capture.now,
                ],
            )?;
            let created =
                by_id(tx, capture.vault_id, &id)?.ok_or(rusqlite::Error::QueryReturnedNoRows)?;
            Ok(Enqueued {
                capture: created,
                created: true,
            })
        })
    }

    /// Capture `id` of `vault`, if there is one.
    pub fn get(&self, vault_id: &str, id: &str) -> Result<Option<Capture>, StoreError> {
        self.store.read(|conn| by_id(conn, vault_id, id))
    }

    /// Up to `limit` (1..=1000) captures of `vault`, newest first: the pending ones, and the
    /// committed ones too when `include_committed`; after `cursor` (the previous page's).
    pub fn list(
        &self,
        vault_id: &str,
        include_committed: bool,
        cursor: Option<&str>,
        limit: u32,
    ) -> Result<CapturePage, StoreError> {
        check_limit(limit)?;
        let before: Option<i64> = cursor.and_then(|c| c.parse().ok());
        self.store.read(|conn| {
            let mut stmt = conn.prepare(&format!(
                "SELECT {COLUMNS} FROM capture_queue
                 WHERE vault_id = ?1 AND (?2 OR committed_at IS NULL)
                   AND (?3 IS NULL OR seq < ?3)
                 ORDER BY seq DESC LIMIT ?4"
            ))?;
            // One row more than the page tells whether another page follows.
            let rows = stmt.query_map(
                params![vault_id, include_committed, before, limit + 1],
                |row| Ok((capture(row)?, row.get::<_, i64>(11)?)),
            )?;
            let mut rows = rows.collect::<Result<Vec<_>, _>>()?;
            let more = rows.len() > limit as usize;
            rows.truncate(limit as usize);
            let cursor = more
                .then(|| rows.last().map(|(_, seq)| seq.to_string()))
                .flatten();
            let items = rows
                .into_iter()
                .map(|(capture, _)| capture.decoded())
                .collect::<Result<_, _>>()?;
            Ok(CapturePage { items, cursor })
        })
    }

    /// Whether `cursor` is one [`CaptureQueue::list`] can have returned.
    pub fn is_cursor(cursor: &str) -> bool {
        cursor.parse::<i64>().is_ok_and(|seq| seq > 0)
    }

    /// Marks capture `id` of `vault` committed to `commit`, unless it already is: then its
    /// first commit is kept. Returns the capture as stored afterwards (`None`: no such
    /// capture).
    pub fn mark_committed(
        &self,
        vault_id: &str,
        id: &str,
        commit: &Commit,
    ) -> Result<Option<Capture>, StoreError> {
        self.store.write(|tx| {
            tx.execute(
                "UPDATE capture_queue
                 SET committed_at = ?3, committed_path = ?4, committed_sha256 = ?5
                 WHERE vault_id = ?1 AND capture_id = ?2 AND committed_at IS NULL",
                params![vault_id, id, commit.at, commit.path, commit.sha256],
            )?;
            by_id(tx, vault_id, id)
        })
    }
}

/// The pending capture of `vault` whose content has this SHA-256.
fn pending_with(
    tx: &Transaction<'_>,
    vault_id: &str,
    sha256: &str,
) -> Result<Option<Capture>, StoreError> {
    tx.query_row(
        &format!(
            "SELECT {COLUMNS} FROM capture_queue
             WHERE vault_id = ?1 AND content_sha256 = ?2 AND committed_at IS NULL"
        ),
        params![vault_id, sha256],
        capture,
    )
    .optional()?
    .map(RawCapture::decoded)
    .transpose()
}

/// Capture `id` of `vault` on `conn`.
fn by_id(
    conn: &rusqlite::Connection,
    vault_id: &str,
    id: &str,
) -> Result<Option<Capture>, StoreError> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM capture_queue WHERE vault_id = ?1 AND capture_id = ?2"),
        params![vault_id, id],
        capture,
    )
    .optional()?
    .map(RawCapture::decoded)
    .transpose()
}

/// A row before its tags are decoded.
struct RawCapture {
    capture: Capture,
    tags_json: String,
}

impl RawCapture {
    fn decoded(self) -> Result<Capture, StoreError> {
        Ok(Capture {
            tags: serde_json::from_str(&self.tags_json)?,
            ..self.capture
        })
    }
}

fn capture(row: &Row<'_>) -> rusqlite::Result<RawCapture> {
    let committed = match (row.get(8)?, row.get(9)?, row.get(10)?) {
        (Some(at), Some(path), Some(sha256)) => Some(Commit { at, path, sha256 }),
        _ => None,
    };
    Ok(RawCapture {
        capture: Capture {
            id: row.get(0)?,
            caller: row.get(1)?,
            content: row.get(2)?,
            content_sha256: row.get(3)?,
            title: row.get(4)?,
            suggested_path: row.get(5)?,
            tags: Vec::new(),
            created_at: row.get(7)?,
            committed,
        },
        tags_json: row.get(6)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::IdempotencyPolicy;

    fn open(dir: &tempfile::TempDir) -> Store {
        Store::open(&dir.path().join("cache.db"), IdempotencyPolicy::default()).expect("open")
    }

    fn new<'a>(vault_id: &'a str, content: &'a str, now: i64) -> NewCapture<'a> {
        NewCapture {
            vault_id,
            caller: "agent",
            content,
            title: Some("Idea"),
            suggested_path: Some("Inbox/idea.md"),
            tags: &[],
            now,
        }
    }

    #[test]
    fn enqueue_keeps_every_field_and_a_pending_duplicate_is_the_first_capture() {
        let dir = tempfile::TempDir::new().expect("dir");
        let store = open(&dir);
        let tags = vec!["later".to_owned()];
        let first = store
            .capture_queue()
            .enqueue(&NewCapture {
                tags: &tags,
                ..new("main", "buy milk\n", 10)
            })
            .expect("enqueue");
        assert!(first.created);
        let capture = &first.capture;
        assert_eq!(capture.id.len(), 32);
        assert_eq!(capture.caller, "agent");
        assert_eq!(capture.content, "buy milk\n");
        assert_eq!(
            capture.content_sha256,
            engine_core::hash::sha256_hex(b"buy milk\n")
        );
        assert_eq!(capture.title.as_deref(), Some("Idea"));
        assert_eq!(capture.suggested_path.as_deref(), Some("Inbox/idea.md"));
        assert_eq!(capture.tags, tags);
        assert_eq!(capture.created_at, 10);
        assert_eq!(capture.committed, None);

        let again = store
            .capture_queue()
            .enqueue(&new("main", "buy milk\n", 20))
            .expect("again");
        assert!(!again.created);
        assert_eq!(again.capture, first.capture);
        // Another vault has its own queue.
        let elsewhere = store
            .capture_queue()
            .enqueue(&new("other", "buy milk\n", 20))
            .expect("other vault");
        assert!(elsewhere.created);
        assert_ne!(elsewhere.capture.id, first.capture.id);
        assert_eq!(
            store
                .capture_queue()
                .get("other", &first.capture.id)
                .expect("get"),
            None
        );
    }

    #[test]
    fn content_over_the_cap_is_refused_and_nothing_is_queued() {
        let dir = tempfile::TempDir::new().expect("dir");
        let store = open(&dir);
        let big = "x".repeat(MAX_CAPTURE_BYTES + 1);
        let error = store
            .capture_queue()
            .enqueue(&new("main", &big, 1))
            .expect_err("too large");
        assert!(matches!(
            error,
            StoreError::CaptureTooLarge { size, max } if size == MAX_CAPTURE_BYTES + 1 && max == MAX_CAPTURE_BYTES
        ));
        let page = store
            .capture_queue()
            .list("main", true, None, 10)
            .expect("list");
        assert!(page.items.is_empty());
        let exact = "y".repeat(MAX_CAPTURE_BYTES);
        assert!(
            store
                .capture_queue()
                .enqueue(&new("main", &exact, 1))
                .expect("at the cap")
                .created
        );
    }

    #[test]
    fn a_commit_is_kept_once_and_frees_the_content_for_a_new_capture() {
        let dir = tempfile::TempDir::new().expect("dir");
        let store = open(&dir);
        let queue = store.capture_queue();
        let id = queue
            .enqueue(&new("main", "note", 1))
            .expect("enqueue")
            .capture
            .id;
        let first = Commit {
            at: 5,
            path: "Inbox/a.md".to_owned(),
            sha256: "a".repeat(64),
        };
        let marked = queue.mark_committed("main", &id, &first).expect("mark");
        assert_eq!(marked.expect("found").committed, Some(first.clone()));
        let second = Commit {
            at: 9,
            path: "Elsewhere/b.md".to_owned(),
            sha256: "b".repeat(64),
        };
        let again = queue.mark_committed("main", &id, &second).expect("again");
        assert_eq!(again.expect("found").committed, Some(first));
        assert_eq!(
            queue.mark_committed("other", &id, &second).expect("other"),
            None
        );
        // Committed, the same text may be queued again as a new capture.
        let requeued = queue.enqueue(&new("main", "note", 10)).expect("requeue");
        assert!(requeued.created);
        assert_ne!(requeued.capture.id, id);
    }

    #[test]
    fn lists_page_newest_first_and_hide_committed_unless_asked() {
        let dir = tempfile::TempDir::new().expect("dir");
        let store = open(&dir);
        let queue = store.capture_queue();
        let ids: Vec<String> = (0..5)
            .map(|n| {
                let text = format!("capture {n}");
                queue
                    .enqueue(&new("main", &text, 100))
                    .expect("enqueue")
                    .capture
                    .id
            })
            .collect();
        let commit = Commit {
            at: 200,
            path: "x.md".to_owned(),
            sha256: "c".repeat(64),
        };
        queue
            .mark_committed("main", &ids[3], &commit)
            .expect("mark");

        let first = queue.list("main", false, None, 2).expect("page 1");
        let names =
            |page: &CapturePage| page.items.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(names(&first), vec![ids[4].clone(), ids[2].clone()]);
        let cursor = first.cursor.clone().expect("more");
        assert!(CaptureQueue::is_cursor(&cursor));
        let second = queue.list("main", false, Some(&cursor), 2).expect("page 2");
        assert_eq!(names(&second), vec![ids[1].clone(), ids[0].clone()]);
        assert_eq!(second.cursor, None);

        let all = queue.list("main", true, None, 10).expect("all");
        assert_eq!(all.items.len(), 5);
        assert_eq!(all.items[1].committed, Some(commit));
        assert!(
            queue
                .list("other", true, None, 10)
                .expect("other")
                .items
                .is_empty()
        );
        assert!(!CaptureQueue::is_cursor("abc"));
    }

    #[test]
    fn the_queue_survives_reopening_the_file_and_is_shared_by_two_stores() {
        let dir = tempfile::TempDir::new().expect("dir");
        let id = {
            let store = open(&dir);
            store
                .capture_queue()
                .enqueue(&new("main", "kept", 1))
                .expect("enqueue")
                .capture
                .id
        };
        let a = open(&dir);
        let b = open(&dir);
        assert_eq!(
            a.capture_queue()
                .get("main", &id)
                .expect("get")
                .expect("kept")
                .content,
            "kept"
        );
        // The natural key holds across stores on one file.
        let dup = b
            .capture_queue()
            .enqueue(&new("main", "kept", 2))
            .expect("dup");
        assert!(!dup.created);
        assert_eq!(dup.capture.id, id);
    }
}
