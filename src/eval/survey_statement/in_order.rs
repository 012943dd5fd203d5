//! The games of a survey computed on several threads and taken in order.
//!
//! Why not batches: the games of a family cost very unequal times (a code whose values have no
//! sparse space costs seconds at 2^17 heaps, most codes milliseconds), and a batch waits for its
//! slowest game while the other threads have nothing to do. Here each thread takes the next
//! game as soon as it is free, and the results are handed on in the games' order as soon as
//! each and every one before it is done, so the rows are those of one thread. The threads run
//! at most [`AHEAD`] games a thread past the first one not yet handed on: what waits to be
//! taken (each game's values) stays bounded.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};

/// How many games a thread may run ahead of the first game not yet taken.
const AHEAD: usize = 16;

/// Where the threads are: the next item to start, the first not yet taken, and whether to
/// stop.
struct Turn {
    next: usize,
    taken: usize,
    stop: bool,
}

/// Runs `work` on every item on `threads` threads and hands each result to `take`, in the
/// items' order. An error of `take` stops it: no new item is started, the running ones finish
/// and are dropped, and the error is returned.
pub(super) fn in_order<T: Sync, R: Send, E>(
    threads: usize,
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
    mut take: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E> {
    let turn = Mutex::new(Turn {
        next: 0,
        taken: 0,
        stop: false,
    });
    let moved = Condvar::new();
    let window = AHEAD * threads.max(1);
    let (send, receive) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let send = send.clone();
            let (turn, moved, work) = (&turn, &moved, &work);
            scope.spawn(move || loop {
                let i = {
                    let mut t = turn.lock().expect("no thread panics holding it");
                    while !t.stop && t.next < items.len() && t.next >= t.taken + window {
                        t = moved.wait(t).expect("no thread panics holding it");
                    }
                    if t.stop || t.next >= items.len() {
                        return;
                    }
                    t.next += 1;
                    t.next - 1
                };
                if send.send((i, work(&items[i]))).is_err() {
                    return;
                }
            });
        }
        drop(send);
        let stop = |turn: &Mutex<Turn>| {
            turn.lock().expect("no thread panics holding it").stop = true;
            moved.notify_all();
        };
        let mut waiting = BTreeMap::new();
        let mut expected = 0;
        for (i, result) in receive.iter() {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&expected) {
                if let Err(e) = take(expected, result) {
                    stop(&turn);
                    return Err(e);
                }
                expected += 1;
                turn.lock().expect("no thread panics holding it").taken = expected;
                moved.notify_all();
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_order_whatever_their_cost() {
        let items: Vec<u64> = (0..200).collect();
        let mut seen = Vec::new();
        let result = in_order::<_, _, ()>(
            3,
            &items,
            |&x| {
                // Unequal costs: every seventh item is slow.
                if x % 7 == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                x * x
            },
            |i, r| {
                seen.push((i, r));
                Ok(())
            },
        );
        assert_eq!(result, Ok(()));
        let expected: Vec<(usize, u64)> = items.iter().map(|&x| (x as usize, x * x)).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn an_error_stops_it_where_it_came() {
        let items: Vec<usize> = (0..1000).collect();
        let started = std::sync::atomic::AtomicUsize::new(0);
        let mut taken = 0;
        let result = in_order(
            2,
            &items,
            |&x| {
                started.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                x
            },
            |i, _| {
                taken += 1;
                if i == 10 {
                    Err(i)
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(result, Err(10));
        assert_eq!(taken, 11);
        // The threads ran at most their window past the error.
        assert!(started.into_inner() <= 11 + 2 * AHEAD + 2);
    }
}
