//! Cursor pagination over a list sorted by a unique text key (a property name, a path):
//! the cursor is the last key of the page, so a page after it stays right when notes are
//! added or removed between calls.

/// One page of items and the cursor of the next page (`None` on the last page): not the
/// answered [`Page`](crate::tools::common::paging::Page), which counts the whole list and
/// carries an offset.
pub(super) struct KeyPage<T> {
    /// The items of this page.
    pub items: Vec<T>,
    /// Pass it as `cursor` to get the next page.
    pub cursor: Option<String>,
}

/// The page after `cursor` (from the start without one) of at most `limit` items; `sorted`
/// must be in ascending key order.
pub(super) fn page<T>(sorted: Vec<(String, T)>, cursor: Option<&str>, limit: usize) -> KeyPage<T> {
    let mut rest = sorted
        .into_iter()
        .skip_while(|(key, _)| cursor.is_some_and(|after| key.as_str() <= after))
        .peekable();
    let mut items = Vec::new();
    let mut last = None;
    while items.len() < limit {
        let Some((key, item)) = rest.next() else {
            break;
        };
        items.push(item);
        last = Some(key);
    }
    KeyPage {
        cursor: rest.peek().and(last),
        items,
    }
}
