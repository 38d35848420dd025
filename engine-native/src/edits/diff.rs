//! A line diff: Myers' O((n+m)·d) shortest edit script after trimming the common prefix and
//! suffix. Past [`MAX_EDIT_DISTANCE`] differences the middle is reported as all removed and
//! all added, which still lists every changed line (and more).

/// Past this many differing lines the diff stops searching for a shortest script; its
/// memory grows with the square of the differences.
pub(crate) const MAX_EDIT_DISTANCE: usize = 1024;

/// One step of an edit script, by index into the old (`a`) and new (`b`) sequences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    /// `a[i] == b[j]`, kept.
    Keep(usize, usize),
    /// `a[i]` removed.
    Remove(usize),
    /// `b[j]` added.
    Add(usize),
}

/// An edit script turning `a` into `b`, in order.
pub(crate) fn diff<T: PartialEq>(a: &[T], b: &[T]) -> Vec<Op> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mid_a, mid_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut ops: Vec<Op> = (0..prefix).map(|i| Op::Keep(i, i)).collect();
    let middle = myers(mid_a, mid_b).unwrap_or_else(|| {
        (0..mid_a.len())
            .map(Op::Remove)
            .chain((0..mid_b.len()).map(Op::Add))
            .collect()
    });
    ops.extend(middle.into_iter().map(|op| match op {
        Op::Keep(i, j) => Op::Keep(i + prefix, j + prefix),
        Op::Remove(i) => Op::Remove(i + prefix),
        Op::Add(j) => Op::Add(j + prefix),
    }));
    let (tail_a, tail_b) = (a.len() - suffix, b.len() - suffix);
    ops.extend((0..suffix).map(|s| Op::Keep(tail_a + s, tail_b + s)));
    ops
}

/// How many elements of `a` the script removes and how many of `b` it adds.
pub(crate) fn counts(ops: &[Op]) -> (usize, usize) {
    ops.iter().fold((0, 0), |(removed, added), op| match op {
        Op::Keep(..) => (removed, added),
        Op::Remove(_) => (removed + 1, added),
        Op::Add(_) => (removed, added + 1),
    })
}

/// Myers' greedy forward search with the frontier of every round kept for the walk back;
/// `None` past [`MAX_EDIT_DISTANCE`].
fn myers<T: PartialEq>(a: &[T], b: &[T]) -> Option<Vec<Op>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let limit = (a.len() + b.len()).min(MAX_EDIT_DISTANCE) as isize;
    let offset = limit + 1;
    let mut v = vec![0isize; 2 * limit as usize + 3];
    // rounds[d]: v[-d-1..=d+1] before round d.
    let mut rounds: Vec<Vec<isize>> = Vec::new();
    for d in 0..=limit {
        rounds.push(v[(offset - d - 1) as usize..=(offset + d + 1) as usize].to_vec());
        for k in (-d..=d).step_by(2) {
            let at = (offset + k) as usize;
            let mut x = if k == -d || (k != d && v[at - 1] < v[at + 1]) {
                v[at + 1]
            } else {
                v[at - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at] = x;
            if x >= n && y >= m {
                return Some(walk_back(&rounds, n, m));
            }
        }
    }
    None
}

/// The script, from the saved frontiers, walking from `(n, m)` back to `(0, 0)`.
fn walk_back(rounds: &[Vec<isize>], n: isize, m: isize) -> Vec<Op> {
    let (mut x, mut y) = (n, m);
    let mut ops = Vec::new();
    for (d, v) in rounds.iter().enumerate().rev() {
        let d = d as isize;
        let k = x - y;
        let get = |k: isize| v[(k + d + 1) as usize];
        let previous_k = if k == -d || (k != d && get(k - 1) < get(k + 1)) {
            k + 1
        } else {
            k - 1
        };
        let previous_x = get(previous_k);
        let previous_y = previous_x - previous_k;
        while x > previous_x && y > previous_y {
            x -= 1;
            y -= 1;
            ops.push(Op::Keep(x as usize, y as usize));
        }
        if d > 0 {
            if x == previous_x {
                ops.push(Op::Add((y - 1) as usize));
            } else {
                ops.push(Op::Remove((x - 1) as usize));
            }
        }
        x = previous_x;
        y = previous_y;
    }
    ops.reverse();
    ops
}
