//! A unified-diff-like preview of an edit, for `dry_run`: `@@ -a,b +c,d @@` hunks with three
//! lines of context, `-` for removed lines, `+` for added ones, and
//! `\ No newline at end of file` after a last line without a line break. Identical texts
//! give the empty string.

use std::fmt::Write;

use super::diff::{Op, diff};

/// Lines of unchanged context around each change.
const CONTEXT: usize = 3;

/// The lines of `text`, each with its `\n` (the last one may lack it).
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// A preview of the change from `before` to `after` that lists every changed line.
pub fn preview(before: &str, after: &str) -> String {
    let (old, new) = (lines(before), lines(after));
    let ops = diff(&old, &new);
    let mut out = String::new();
    let is_change = |op: &Op| !matches!(op, Op::Keep(..));
    let mut at = 0;
    while let Some(first) = ops[at..].iter().position(is_change).map(|p| p + at) {
        let mut changes_end = first + 1;
        while let Some(gap) = ops[changes_end..].iter().position(is_change) {
            if gap > 2 * CONTEXT {
                break;
            }
            changes_end += gap + 1;
        }
        let start = first.saturating_sub(CONTEXT).max(at);
        let stop = (changes_end + CONTEXT).min(ops.len());
        write_hunk(&mut out, &ops[start..stop], &old, &new);
        at = stop;
    }
    out
}

/// Writes one hunk: its header, then its lines.
fn write_hunk(out: &mut String, ops: &[Op], old: &[&str], new: &[&str]) {
    let old_start = ops.iter().find_map(|op| match op {
        Op::Keep(i, _) | Op::Remove(i) => Some(*i),
        Op::Add(_) => None,
    });
    let new_start = ops.iter().find_map(|op| match op {
        Op::Keep(_, j) | Op::Add(j) => Some(*j),
        Op::Remove(_) => None,
    });
    let old_len = ops.iter().filter(|op| !matches!(op, Op::Add(_))).count();
    let new_len = ops.iter().filter(|op| !matches!(op, Op::Remove(_))).count();
    let _ = writeln!(
        out,
        "@@ -{} +{} @@",
        header_range(old_start, old_len),
        header_range(new_start, new_len)
    );
    for op in ops {
        let (mark, line) = match *op {
            Op::Keep(i, _) => (' ', old[i]),
            Op::Remove(i) => ('-', old[i]),
            Op::Add(j) => ('+', new[j]),
        };
        out.push(mark);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

/// `start,len` of one side, 1-based; `0,0` for an empty side (a hunk without context has
/// one only when that whole text is empty).
fn header_range(start: Option<usize>, len: usize) -> String {
    match start {
        Some(i) => format!("{},{len}", i + 1),
        None => "0,0".to_owned(),
    }
}
