//! How far a long computation has got, shared between the thread that computes and the one that
//! shows it (the prompt's progress line, stderr): a task's name, its units, how many are done and
//! of how many. Computations set it as they go; nobody waits on it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The progress of the computation running now, if it reports any. Cheap to update from a hot
/// loop (one relaxed atomic store); cloning shares it.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    done: AtomicU64,
    total: AtomicU64,
    task: Mutex<Option<Task>>,
}

/// What a computation said it was doing when it started.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// What is being computed, for people: "heaps of grundys", "cases of check".
    pub what: String,
    /// What is counted: "heaps", "cases", "states".
    pub unit: &'static str,
    pub started: Instant,
}

/// What the progress line shows at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    pub task: Task,
    pub done: u64,
    /// 0 when the total is not known.
    pub total: u64,
}

impl Reading {
    /// Units done a second since the task started.
    pub fn rate(&self) -> f64 {
        let seconds = self.task.started.elapsed().as_secs_f64();
        if seconds > 0.0 {
            self.done as f64 / seconds
        } else {
            0.0
        }
    }

    /// The seconds left at the rate so far, when the total is known and something is done.
    pub fn seconds_left(&self) -> Option<f64> {
        let rate = self.rate();
        (self.total > 0 && self.done > 0 && rate > 0.0)
            .then(|| self.total.saturating_sub(self.done) as f64 / rate)
    }
}

impl Progress {
    /// Starts reporting a task (replacing any before it): `total` is 0 when unknown.
    pub fn start(&self, what: impl Into<String>, unit: &'static str, total: u64) {
        let mut task = self.inner.task.lock().unwrap_or_else(|e| e.into_inner());
        self.inner.done.store(0, Ordering::Relaxed);
        self.inner.total.store(total, Ordering::Relaxed);
        *task = Some(Task {
            what: what.into(),
            unit,
            started: Instant::now(),
        });
    }

    /// Sets how many units are done.
    pub fn set_done(&self, done: u64) {
        self.inner.done.store(done, Ordering::Relaxed);
    }

    /// Adds `n` units done (from any thread).
    pub fn advance(&self, n: u64) {
        self.inner.done.fetch_add(n, Ordering::Relaxed);
    }

    /// Stops reporting: the progress line goes back to showing only the time.
    pub fn finish(&self) {
        *self.inner.task.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The task running now and how far it has got, if one reports progress.
    pub fn read(&self) -> Option<Reading> {
        let task = self
            .inner
            .task
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()?;
        Some(Reading {
            task,
            done: self.inner.done.load(Ordering::Relaxed),
            total: self.inner.total.load(Ordering::Relaxed),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn a_reading_shows_what_was_set_and_ends_with_finish() {
        let progress = Progress::default();
        assert_eq!(progress.read(), None);
        progress.start("heaps of kayles", "heaps", 100);
        progress.set_done(10);
        progress.clone().advance(15);
        let reading = progress.read().expect("a task");
        assert_eq!((reading.done, reading.total), (25, 100));
        assert_eq!(reading.task.unit, "heaps");
        progress.finish();
        assert_eq!(progress.read(), None);
    }
}
