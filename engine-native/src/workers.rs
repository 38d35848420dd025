//! One job run on several threads at once, the calling thread among them: the fan-out that
//! the embedding lanes ([`crate::embed`]) and the split vector scan ([`crate::vectors`])
//! share. `std::thread::scope` does the spawning; what this adds is the caller doing a part
//! itself (one thread fewer to start, none for a single part) and a worker's panic raised
//! again on the caller as it was.

/// `work(0)` to `work(count - 1)`, each on a thread of its own except `work(0)`, which runs on
/// the calling thread; their results in index order. Nothing is spawned for a `count` of 0 or
/// 1. A panic in a worker is raised again here once the caller's own part is done.
pub fn on_threads<R: Send>(count: usize, work: impl Fn(usize) -> R + Sync) -> Vec<R> {
    if count <= 1 {
        return (0..count).map(work).collect();
    }
    let work = &work;
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..count)
            .map(|index| scope.spawn(move || work(index)))
            .collect();
        let mut results = Vec::with_capacity(count);
        results.push(work(0));
        for other in others {
            results.push(
                other
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        results
    })
}

#[cfg(test)]
mod tests {
    use std::thread;

    use super::on_threads;

    #[test]
    fn each_part_runs_once_in_index_order_the_first_on_the_caller() {
        let caller = thread::current().id();
        for count in [0, 1, 2, 5] {
            let done = on_threads(count, |index| (index, thread::current().id()));
            assert_eq!(
                done.iter().map(|(index, _)| *index).collect::<Vec<_>>(),
                (0..count).collect::<Vec<_>>()
            );
            for (index, id) in &done {
                assert_eq!(*index == 0, *id == caller, "part {index} of {count}");
            }
            let mut ids: Vec<_> = done.iter().map(|(_, id)| format!("{id:?}")).collect();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), count, "one thread per part");
        }
    }

    #[test]
    fn a_worker_s_panic_reaches_the_caller_with_its_message() {
        let panic = std::panic::catch_unwind(|| {
            on_threads(3, |index| assert_ne!(index, 2, "part two fails"));
        })
        .expect_err("re-raised");
        let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(message.contains("part two fails"), "{message}");
    }
}
