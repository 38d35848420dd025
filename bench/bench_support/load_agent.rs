//! One agent of the load test (`bench_load`): an HTTP MCP client that makes a fixed mix of
//! calls (reads, searches, listings, appends to its own note and to the shared one), times
//! each, and remembers which appends succeeded so the notes can be checked afterwards.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::http_client::HttpSession;
use crate::rpc::{Session, discover, expect_success, handshake};

/// What a call does, for the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// `read_note` of a note of the vault.
    Read,
    /// `search_vault` (lexical: embeddings are off).
    Search,
    /// `list_notes` of a folder, or `list_tags`.
    List,
    /// `append_note` to the agent's own note.
    AppendOwn,
    /// `append_note` to the note every agent appends to.
    AppendShared,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 5] = [
        Class::Read,
        Class::Search,
        Class::List,
        Class::AppendOwn,
        Class::AppendShared,
    ];

    /// The class's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Class::Read => "read (read_note)",
            Class::Search => "search (search_vault)",
            Class::List => "list (list_notes, list_tags)",
            Class::AppendOwn => "append, own note",
            Class::AppendShared => "append, shared note",
        }
    }
}

/// The mix, cycled: 40 % reads, 20 % searches, 20 % listings, 10 % appends to the agent's
/// own note, 10 % to the shared one.
const MIX: [Class; 10] = [
    Class::Read,
    Class::Search,
    Class::Read,
    Class::List,
    Class::AppendOwn,
    Class::Read,
    Class::Search,
    Class::List,
    Class::Read,
    Class::AppendShared,
];

/// What the agents read and search.
pub struct Corpus {
    /// Vault-relative paths of notes to read.
    pub notes: Vec<String>,
    /// Folders to list.
    pub folders: Vec<String>,
    /// Search queries.
    pub queries: Vec<&'static str>,
}

/// The folder of the notes the agents append to.
pub const LOAD_FOLDER: &str = "Load";

/// The shared note of generation `generation`.
pub fn shared_note(generation: u64) -> String {
    format!("{LOAD_FOLDER}/shared-{generation:04}.md")
}

/// Agent `agent`'s own note of generation `generation`.
pub fn own_note(agent: usize, generation: u64) -> String {
    format!("{LOAD_FOLDER}/agent-{agent:03}-{generation:04}.md")
}

/// The line agent `agent` appends as its `n`-th append to `class`'s note.
pub fn append_line(class: Class, agent: usize, n: usize) -> String {
    let kind = if class == Class::AppendShared {
        "shared"
    } else {
        "own"
    };
    format!("agent {agent:03} {kind} {n:07}")
}

/// How long an agent runs.
#[derive(Debug, Clone, Copy)]
pub enum Span {
    /// This many calls, back to back; every append goes to generation 0.
    Calls(usize),
    /// Until `until`, at `per_second` calls a second; the notes appended to change every
    /// `generation` (a new daily note, as it were), counted from `start`.
    Paced {
        start: Instant,
        until: Instant,
        per_second: f64,
        generation: Duration,
    },
}

/// What one agent did.
#[derive(Debug, Default)]
pub struct AgentReport {
    /// Client-side durations by class.
    pub samples: HashMap<Class, Vec<Duration>>,
    /// Calls that failed (error, tool error or transport), with the first messages.
    pub failed: usize,
    /// The first few failure messages.
    pub messages: Vec<String>,
    /// The appends that succeeded, by class: (sequence number, generation).
    pub appended: HashMap<Class, Vec<(usize, u64)>>,
}

/// One agent on `port`: `stateless` speaks 2026-07-28, else a 2025-11-25 session.
pub struct Agent<'c> {
    /// The agent's number (its notes and lines carry it).
    pub index: usize,
    /// Protocol 2026-07-28 (stateless) instead of a 2025-11-25 session.
    pub stateless: bool,
    /// What it reads and searches.
    pub corpus: &'c Corpus,
    /// Whether it appends; without, each append of the mix is a `read_note` instead (the
    /// same call rate on a vault that does not grow).
    pub appends: bool,
}

impl Agent<'_> {
    /// Connects and runs the mix for `span`.
    pub fn run(&self, port: u16, span: Span) -> Result<AgentReport, String> {
        let mut session = HttpSession::connect(port, "/mcp", Duration::from_secs(10))?;
        if self.stateless {
            session = session.stateless();
            discover(&mut session)?;
        } else {
            handshake(&mut session)?;
        }
        let mut report = AgentReport::default();
        let mut counters: HashMap<Class, usize> = HashMap::new();
        let mut call = 0usize;
        loop {
            let generation = match span {
                Span::Calls(calls) if call >= calls => break,
                Span::Calls(_) => 0,
                Span::Paced {
                    start,
                    until,
                    per_second,
                    generation,
                } => {
                    let due = start + Duration::from_secs_f64(call as f64 / per_second);
                    if due >= until {
                        break;
                    }
                    std::thread::sleep(due.saturating_duration_since(Instant::now()));
                    (start.elapsed().as_secs_f64() / generation.as_secs_f64()) as u64
                }
            };
            let class = match MIX[(call + self.index) % MIX.len()] {
                Class::AppendOwn | Class::AppendShared if !self.appends => Class::Read,
                class => class,
            };
            let n = *counters.entry(class).or_default();
            let (name, arguments) = self.arguments(class, call, n, generation);
            let id = call as u64 + 1;
            let params = json!({"name": name, "arguments": arguments});
            let outcome = session
                .request(id, "tools/call", params)
                .and_then(|(took, response)| {
                    expect_success(&response, &format!("{name} {arguments}")).map(|()| took)
                });
            match outcome {
                Ok(took) => {
                    report.samples.entry(class).or_default().push(took);
                    if matches!(class, Class::AppendOwn | Class::AppendShared) {
                        report
                            .appended
                            .entry(class)
                            .or_default()
                            .push((n, generation));
                    }
                }
                Err(message) => {
                    report.failed += 1;
                    if report.messages.len() < 3 {
                        report.messages.push(message);
                    }
                }
            }
            *counters.entry(class).or_default() += 1;
            call += 1;
        }
        Ok(report)
    }

    /// The tool and arguments of call number `call` (the `n`-th of its class).
    fn arguments(&self, class: Class, call: usize, n: usize, generation: u64) -> (&str, Value) {
        let corpus = self.corpus;
        let pick = call.wrapping_mul(7919).wrapping_add(self.index * 104_729);
        match class {
            Class::Read => (
                "read_note",
                json!({"path": corpus.notes[pick % corpus.notes.len()]}),
            ),
            Class::Search => (
                "search_vault",
                json!({"query": corpus.queries[pick % corpus.queries.len()], "limit": 10}),
            ),
            Class::List if n.is_multiple_of(2) => (
                "list_notes",
                json!({"folder": corpus.folders[pick % corpus.folders.len()]}),
            ),
            Class::List => ("list_tags", json!({})),
            Class::AppendOwn => (
                "append_note",
                json!({"path": own_note(self.index, generation), "content": append_line(class, self.index, n)}),
            ),
            Class::AppendShared => (
                "append_note",
                json!({"path": shared_note(generation), "content": append_line(class, self.index, n)}),
            ),
        }
    }
}

/// What the notes hold against the appends that succeeded.
#[derive(Debug, Default, Clone, Copy)]
pub struct LineCheck {
    /// Lines checked.
    pub expected: usize,
    /// Succeeded appends whose line is absent.
    pub lost: usize,
    /// Lines present more than once.
    pub duplicated: usize,
    /// Lines out of the agent's order.
    pub out_of_order: usize,
}

impl LineCheck {
    /// Whether every line is there once, in order.
    pub fn clean(&self) -> bool {
        self.lost == 0 && self.duplicated == 0 && self.out_of_order == 0
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: LineCheck) {
        self.expected += other.expected;
        self.lost += other.lost;
        self.duplicated += other.duplicated;
        self.out_of_order += other.out_of_order;
    }
}

/// Checks that each of `lines` occurs in `text` exactly once, as a whole line, in the given
/// order.
pub fn check_lines(text: &str, lines: &[String]) -> LineCheck {
    let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
    for (number, line) in text.lines().enumerate() {
        at.entry(line).or_default().push(number);
    }
    let mut check = LineCheck {
        expected: lines.len(),
        ..LineCheck::default()
    };
    let mut last = None;
    for line in lines {
        match at.get(line.as_str()).map(Vec::as_slice) {
            None | Some([]) => check.lost += 1,
            Some(found) => {
                if found.len() > 1 {
                    check.duplicated += 1;
                }
                if last.is_some_and(|previous| found[0] < previous) {
                    check.out_of_order += 1;
                }
                last = Some(found[0]);
            }
        }
    }
    check
}
