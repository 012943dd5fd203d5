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
    ended: Mutex<Option<Reading>>,
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

impl Reading {
    /// How far it got, for people: `41,200 of 100,000 cases` (or `41,200 cases`).
    pub fn so_far(&self) -> String {
        match self.total {
            0 => format!("{} {}", grouped(self.done), self.task.unit),
            total => format!(
                "{} of {} {}",
                grouped(self.done),
                grouped(total),
                self.task.unit
            ),
        }
    }

    /// The progress line: `check: 41,200 of 100,000 cases, 12,300/s, about 5 s left`.
    pub fn line(&self) -> String {
        let mut line = format!("{}: {}", self.task.what, self.so_far());
        let seconds = self.task.started.elapsed().as_secs_f64();
        if seconds >= 0.5 {
            line.push_str(&format!(", {}/s", grouped(self.rate().round() as u64)));
        }
        if let Some(left) = self.seconds_left().filter(|_| seconds >= 1.0) {
            line.push_str(&format!(", about {} left", duration(left)));
        }
        line
    }
}

/// `1234567` as `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

fn duration(seconds: f64) -> String {
    let seconds = seconds.ceil() as u64;
    match seconds {
        0..120 => format!("{seconds} s"),
        120..7200 => format!("{} min", seconds.div_ceil(60)),
        _ => format!("{} h", seconds.div_ceil(3600)),
    }
}

/// While it lives, its task is the one reported. A task that [`Reporter::complete`]s is done;
/// one dropped before (an error, Ctrl-C) is kept as the last that ended, for
/// [`Progress::take_ended`].
#[derive(Debug)]
pub struct Reporter {
    progress: Progress,
    completed: bool,
}

impl Reporter {
    /// Sets how many units are done.
    pub fn set_done(&self, done: u64) {
        self.progress.inner.done.store(done, Ordering::Relaxed);
    }

    /// Adds `n` units done.
    pub fn advance(&self, n: u64) {
        self.progress.advance(n);
    }

    /// The task is done: nothing is kept of it.
    pub fn complete(mut self) {
        self.completed = true;
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        let ended = self.progress.read();
        let inner = &self.progress.inner;
        *inner.task.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if !self.completed {
            *inner.ended.lock().unwrap_or_else(|e| e.into_inner()) = ended;
        }
    }
}

impl Progress {
    /// Starts reporting a task, `total` units long (0 when unknown), unless a task is reported
    /// already: then the computation is a part of that one, whose progress stays on the line, and
    /// there is no [`Reporter`].
    pub fn start(
        &self,
        what: impl Into<String>,
        unit: &'static str,
        total: u64,
    ) -> Option<Reporter> {
        let mut task = self.inner.task.lock().unwrap_or_else(|e| e.into_inner());
        if task.is_some() {
            return None;
        }
        self.inner.done.store(0, Ordering::Relaxed);
        self.inner.total.store(total, Ordering::Relaxed);
        *task = Some(Task {
            what: what.into(),
            unit,
            started: Instant::now(),
        });
        Some(Reporter {
            progress: self.clone(),
            completed: false,
        })
    }

    /// Adds `n` units done to the task reported now (from any thread, such as a sweep's workers).
    pub fn advance(&self, n: u64) {
        self.inner.done.fetch_add(n, Ordering::Relaxed);
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

    /// How far the last task that ended had got, taken (so that it is told once): what an
    /// interrupted computation says it reached.
    pub fn take_ended(&self) -> Option<Reading> {
        self.inner
            .ended
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    /// What Ctrl-C ended: `interrupted after 41,200 of 100,000 cases`, or `interrupted` when the
    /// computation reported no progress.
    pub fn interrupted(&self) -> String {
        match self.take_ended() {
            Some(reading) => format!("interrupted after {}", reading.so_far()),
            None => "interrupted".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn a_reading_shows_what_was_set_and_ends_with_its_reporter() {
        let progress = Progress::default();
        assert_eq!(progress.read(), None);
        let reporter = progress
            .start("check", "cases", 100_000)
            .expect("the first task");
        reporter.set_done(10);
        progress.clone().advance(41_190);
        let reading = progress.read().expect("a task");
        assert_eq!((reading.done, reading.total), (41_200, 100_000));
        assert_eq!(reading.so_far(), "41,200 of 100,000 cases");
        assert!(reading.line().starts_with("check: 41,200 of 100,000 cases"));
        assert!(
            progress.start("heap values", "heaps", 10).is_none(),
            "a part of a task reported does not replace it"
        );
        drop(reporter);
        assert_eq!(progress.read(), None);
        progress.start("sequence", "heaps", 1).unwrap().complete();
        assert_eq!(progress.read(), None);
        let ended = progress.take_ended().expect("the task that ended");
        assert_eq!(ended.so_far(), "41,200 of 100,000 cases");
        assert_eq!(progress.take_ended(), None);
        progress.start("sequence", "heaps", 1).unwrap().complete();
        assert_eq!(
            progress.take_ended(),
            None,
            "a task that completes is not kept"
        );
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        let shown: Vec<String> = [0, 999, 1_000, 41_200, 1_234_567]
            .map(super::grouped)
            .into();
        assert_eq!(shown, ["0", "999", "1,000", "41,200", "1,234,567"]);
    }
}
