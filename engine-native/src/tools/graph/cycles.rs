//! `find_link_cycles`: circular chains of links (a → b → … → a) over the links as written.
//!
//! Each cycle is reported once, starting at its note that sorts first by path, and cycles
//! come out in the order of that note then of the chain, so the answer is the same on
//! every run. The search is bounded by the cycle length, the number of cycles and a step
//! budget; `complete` says whether every cycle within the length was found.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::FindCycles;
use super::view::GraphView;
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// The most DFS steps one search takes (a dense vault cannot make it run away).
const STEP_BUDGET: usize = 2_000_000;

/// The result of `find_link_cycles`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CycleList {
    /// The cycles found: each the notes in link order; the last links back to the first.
    pub cycles: Vec<Vec<String>>,
    /// Whether the search finished: `false` when `limit` or the step budget stopped it
    /// (more cycles may exist).
    pub complete: bool,
}

/// Cycles found by [`cycles`]: note ids in link order, and whether the search finished.
pub(super) struct Found {
    /// The cycles.
    pub cycles: Vec<Vec<usize>>,
    /// Whether the search finished within its bounds.
    pub complete: bool,
}

/// Every cycle of `lengths.0` to `lengths.1` notes, at most `limit` of them (module docs).
pub(super) fn cycles(view: &GraphView, lengths: (usize, usize), limit: usize) -> Found {
    let (min_length, max_length) = lengths;
    let mut search = Search {
        view,
        min_length,
        max_length,
        limit,
        budget: STEP_BUDGET,
        found: Vec::new(),
        stack: Vec::new(),
        on_stack: vec![false; view.len()],
    };
    let mut complete = true;
    for start in 0..view.len() {
        search.stack.push(start);
        search.on_stack[start] = true;
        let finished = search.extend(start);
        search.on_stack[start] = false;
        search.stack.pop();
        if !finished {
            complete = false;
            break;
        }
    }
    Found {
        cycles: search.found,
        complete,
    }
}

/// One bounded depth-first search for cycles through notes sorting after their start.
struct Search<'v> {
    view: &'v GraphView,
    min_length: usize,
    max_length: usize,
    limit: usize,
    budget: usize,
    found: Vec<Vec<usize>>,
    stack: Vec<usize>,
    on_stack: Vec<bool>,
}

impl Search<'_> {
    /// Extends the chain on the stack; `false` when a bound stopped the search.
    fn extend(&mut self, start: usize) -> bool {
        let Some(&at) = self.stack.last() else {
            return true;
        };
        for (next, _) in self.view.outgoing(at) {
            let next = *next;
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            if next == start {
                if self.stack.len() < self.min_length {
                    continue;
                }
                if self.found.len() == self.limit {
                    return false;
                }
                self.found.push(self.stack.clone());
                continue;
            }
            if next < start || self.on_stack[next] || self.stack.len() == self.max_length {
                continue;
            }
            self.stack.push(next);
            self.on_stack[next] = true;
            let finished = self.extend(start);
            self.on_stack[next] = false;
            self.stack.pop();
            if !finished {
                return false;
            }
        }
        true
    }
}

/// The link cycles of the readable notes (see the module docs).
pub(super) fn find_link_cycles(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: FindCycles = parse(args)?;
    let view = GraphView::load(ctx)?;
    let found = cycles(&view, (args.min_length, args.max_length), args.limit);
    structured(&CycleList {
        cycles: found
            .cycles
            .iter()
            .map(|cycle| cycle.iter().map(|id| view.path(*id).to_owned()).collect())
            .collect(),
        complete: found.complete,
    })
}
