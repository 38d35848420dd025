//! Loading BEIR SciFact (corpus, queries, qrels of one split), shared by the examples.

use std::collections::HashMap;

use serde_json::Value;

/// The SciFact data of one split.
pub struct Data {
    /// (id, title, text)
    pub corpus: Vec<(String, String, String)>,
    /// (query id, text) for every query with qrels in the split, in qrels order.
    pub queries: Vec<(String, String)>,
    /// query id -> (doc id -> grade)
    pub qrels: HashMap<String, HashMap<String, u32>>,
}

fn read_jsonl(path: &str) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{path}: {e}")))
        .collect()
}

fn field(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// Reads the corpus, the queries of `split` (those with qrels, in qrels order) and its qrels.
pub fn load(dir: &str, split: &str) -> Result<Data, String> {
    let corpus = read_jsonl(&format!("{dir}/corpus.jsonl"))?
        .iter()
        .map(|v| (field(v, "_id"), field(v, "title"), field(v, "text")))
        .collect();
    let texts: HashMap<String, String> = read_jsonl(&format!("{dir}/queries.jsonl"))?
        .iter()
        .map(|v| (field(v, "_id"), field(v, "text")))
        .collect();
    let path = format!("{dir}/qrels/{split}.tsv");
    let tsv = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let mut qrels: HashMap<String, HashMap<String, u32>> = HashMap::new();
    let mut order = Vec::new();
    for line in tsv.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [q, d, grade] = cols[..] else {
            return Err(format!("{path}: bad line {line:?}"));
        };
        let grade: u32 = grade
            .trim()
            .parse()
            .map_err(|_| format!("{path}: bad grade in {line:?}"))?;
        if !qrels.contains_key(q) {
            order.push(q.to_string());
        }
        qrels
            .entry(q.to_string())
            .or_default()
            .insert(d.to_string(), grade);
    }
    let queries = order
        .into_iter()
        .map(|q| {
            texts
                .get(&q)
                .map(|t| (q.clone(), t.clone()))
                .ok_or(format!("query {q} has no text"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Data {
        corpus,
        queries,
        qrels,
    })
}
