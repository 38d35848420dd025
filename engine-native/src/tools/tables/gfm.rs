//! GFM pipe tables in a note's text: found line by line outside fenced code, cells split on
//! unescaped `|` outside inline code (so `\|` and `` `a|b` `` stay in their cell), the
//! delimiter row's alignment read and written back. Pure: text in, text out.

/// A column's alignment, from the delimiter row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Align {
    /// `---`
    None,
    /// `:---`
    Left,
    /// `---:`
    Right,
    /// `:---:`
    Center,
}

/// One table: where it sits (0-based lines, end exclusive) and its cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Table {
    /// The first line (the header row).
    pub(super) start: usize,
    /// One past the last row.
    pub(super) end: usize,
    /// The header cells.
    pub(super) header: Vec<String>,
    /// One alignment per column.
    pub(super) align: Vec<Align>,
    /// The data rows, each with as many cells as the header.
    pub(super) rows: Vec<Vec<String>>,
}

/// The cells of a table row (outer pipes optional), trimmed.
pub(super) fn split_row(line: &str) -> Vec<String> {
    let line = line.trim();
    let line = line.strip_prefix('|').unwrap_or(line);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = line.chars().peekable();
    let mut code_ticks = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('\\');
                cell.push('|');
                chars.next();
            }
            '`' => {
                let mut run = 1;
                while chars.peek() == Some(&'`') {
                    chars.next();
                    run += 1;
                }
                cell.push_str(&"`".repeat(run));
                code_ticks = match code_ticks {
                    0 => run,
                    open if open == run => 0,
                    open => open,
                };
            }
            '|' if code_ticks == 0 => cells.push(std::mem::take(&mut cell)),
            c => cell.push(c),
        }
    }
    if !cell.trim().is_empty() || !line.trim_end().ends_with('|') {
        cells.push(cell);
    }
    cells.into_iter().map(|c| c.trim().to_owned()).collect()
}

/// The alignments of a delimiter row, or `None` when `line` is not one.
fn delimiter(line: &str) -> Option<Vec<Align>> {
    if !line.contains('-') {
        return None;
    }
    split_row(line)
        .iter()
        .map(|cell| {
            let left = cell.starts_with(':');
            let right = cell.ends_with(':');
            let dashes = cell.trim_start_matches(':').trim_end_matches(':');
            if dashes.is_empty() || !dashes.chars().all(|c| c == '-') {
                return None;
            }
            Some(match (left, right) {
                (true, true) => Align::Center,
                (true, false) => Align::Left,
                (false, true) => Align::Right,
                (false, false) => Align::None,
            })
        })
        .collect()
}

/// Every table of `lines`, in order.
pub(super) fn find_tables(lines: &[&str]) -> Vec<Table> {
    let mut tables = Vec::new();
    let mut fence: Option<&str> = None;
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if let Some(open) = fence {
            if trimmed.starts_with(open) {
                fence = None;
            }
            i += 1;
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            i += 1;
            continue;
        }
        let header = lines[i].contains('|').then(|| split_row(lines[i]));
        let align = lines.get(i + 1).and_then(|line| delimiter(line));
        match (header, align) {
            (Some(header), Some(align)) if header.len() == align.len() => {
                let mut end = i + 2;
                let mut rows = Vec::new();
                while end < lines.len() && lines[end].contains('|') && !lines[end].trim().is_empty()
                {
                    let mut row = split_row(lines[end]);
                    row.resize(header.len(), String::new());
                    rows.push(row);
                    end += 1;
                }
                tables.push(Table {
                    start: i,
                    end,
                    header,
                    align,
                    rows,
                });
                i = end;
            }
            _ => i += 1,
        }
    }
    tables
}

/// The table's lines, every column padded to its widest cell (at least 3), aligned as its
/// delimiter row says.
pub(super) fn render(table: &Table) -> Vec<String> {
    let columns = table.header.len();
    let width = |c: usize| {
        std::iter::once(&table.header[c])
            .chain(table.rows.iter().map(|row| &row[c]))
            .map(|cell| cell.chars().count())
            .max()
            .unwrap_or(0)
            .max(3)
    };
    let widths: Vec<usize> = (0..columns).map(width).collect();
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .zip(&table.align)
            .map(|((cell, &w), align)| pad(cell, w, *align))
            .collect();
        format!("| {} |", padded.join(" | "))
    };
    let rule: Vec<String> = widths
        .iter()
        .zip(&table.align)
        .map(|(&w, align)| match align {
            Align::None => "-".repeat(w),
            Align::Left => format!(":{}", "-".repeat(w - 1)),
            Align::Right => format!("{}:", "-".repeat(w - 1)),
            Align::Center => format!(":{}:", "-".repeat(w - 2)),
        })
        .collect();
    let mut out = vec![line(&table.header), format!("| {} |", rule.join(" | "))];
    out.extend(table.rows.iter().map(|row| line(row)));
    out
}

/// `cell` padded to `width` characters as `align` says.
fn pad(cell: &str, width: usize, align: Align) -> String {
    let gap = width.saturating_sub(cell.chars().count());
    match align {
        Align::Right => format!("{}{cell}", " ".repeat(gap)),
        Align::Center => format!("{}{cell}{}", " ".repeat(gap / 2), " ".repeat(gap - gap / 2)),
        Align::None | Align::Left => format!("{cell}{}", " ".repeat(gap)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_pipes_and_inline_code_stay_in_their_cell() {
        assert_eq!(
            split_row(r"| a \| b | `x|y` | c |"),
            [r"a \| b", "`x|y`", "c"]
        );
        assert_eq!(split_row("a | b"), ["a", "b"]);
        assert_eq!(split_row("| a | |"), ["a", ""]);
    }

    #[test]
    fn tables_in_fenced_code_are_not_tables() {
        let lines = [
            "```",
            "| a |",
            "| - |",
            "```",
            "| b | c |",
            "|:-|-:|",
            "| 1 | 2 |",
            "",
        ];
        let tables = find_tables(&lines);
        assert_eq!(tables.len(), 1);
        assert_eq!((tables[0].start, tables[0].end), (4, 7));
        assert_eq!(tables[0].align, [Align::Left, Align::Right]);
        assert_eq!(
            render(&tables[0]),
            ["| b   |   c |", "| :-- | --: |", "| 1   |   2 |"]
        );
    }
}
