//! Parallel sweeps: the cases of a `check`, and the cells of a `table` or `ppos`, spread over
//! worker threads when the work turns out to be large.
//!
//! A sweep starts on the calling thread. After [`Limits::spread_after`] it queues its cases in
//! batches, and each batch runs in *rounds*: the workers (each with an engine of its own over
//! the shared memos, see [`crate::game::shared_memos`]) try every open case of the batch; then the main
//! thread takes the results in order. A case a worker settled is taken as it is; any other (a
//! failed condition, an error, something only the main thread computes, such as a new game
//! instance) is run again on the main thread, by the same code as a sequential sweep, so the
//! first failure and every error are exactly those of a sequential run. When a round settles
//! less than half its cases, the rest of the batch runs on the main thread, and the sweep stays
//! there until it has run as long again.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::expr::{Eval, Flow, Host};
use super::value::{Family, GameValue, Value};
use super::{read_globals, rules, Globals, Interpreter};
use crate::error::Error;
use crate::game::budget::{self, Charge};
use crate::game::{Engine, Limits};
use crate::span::Span;
use crate::syntax::ast::{Binder, BinderKind, Expr, ExprKind};

/// The largest batch of queued cases.
const LARGEST_BATCH: usize = 1 << 16;

/// The pieces a round is cut into, per thread: the cases of a sweep cost very unequal amounts
/// (the first to reach a large state searches it), so the workers take small pieces in turn.
const CHUNKS_A_THREAD: usize = 4;

/// How often (in cases) a sequential sweep looks at the clock.
const CLOCK_EVERY: usize = 16;

/// What a worker made of one case.
pub(crate) enum Worked<R> {
    /// Settled: the main thread takes this result as it is.
    Done(R),
    /// To be run again on the main thread.
    Open,
    /// To be run again on the main thread, which will stop there: later cases are not tried.
    OpenAndStop,
}

/// What a worker does with one case.
pub(crate) type Work<'w, C, R> = dyn Fn(&mut SweepHost<'_>, &C) -> Worked<R> + Sync + 'w;

/// What the main thread does with one case, given what a worker settled it with, if anything.
pub(crate) type Take<'t, C, R> =
    dyn FnMut(&mut Interpreter, &C, Option<R>) -> Result<Flow, Error> + 't;

/// When a sweep spreads over the workers, and how many cases it queues at a time.
pub(crate) struct Pace {
    threads: usize,
    started: Instant,
    spread_at: Duration,
    counted: usize,
    spreading: bool,
    batch: usize,
}

impl Pace {
    pub(crate) fn new(limits: &Limits, threads: usize) -> Pace {
        Pace {
            threads,
            started: Instant::now(),
            spread_at: limits.spread_after,
            counted: 0,
            spreading: false,
            batch: 0,
        }
    }

    /// Whether the next case is to be queued for the workers rather than run now.
    pub(crate) fn spreading(&mut self) -> bool {
        if self.threads <= 1 {
            return false;
        }
        if !self.spreading && (self.spread_at.is_zero() || self.counted.is_multiple_of(CLOCK_EVERY))
        {
            self.spreading = self.started.elapsed() >= self.spread_at;
            if self.spreading && self.batch == 0 {
                // The first batch: about as many cases as ran alone, so that it takes a
                // fraction of the time already spent.
                self.batch = self.counted.clamp(4 * self.threads, LARGEST_BATCH);
            }
        }
        self.counted += 1;
        self.spreading
    }

    /// How many cases to queue before running them.
    pub(crate) fn batch(&self) -> usize {
        self.batch
    }

    /// After a batch: the next one is twice as large, or, when the workers settled too little,
    /// the sweep runs alone until it has run as long again.
    fn after_batch(&mut self, spread_well: bool) {
        if spread_well {
            self.batch = (self.batch * 2).min(LARGEST_BATCH);
        } else {
            self.spreading = false;
            self.spread_at = self.started.elapsed() * 2;
        }
    }
}

/// What an expression evaluated by a worker reaches: the globals and game instances as they
/// were when the round began, and the worker's engine. A game instance not made yet is left to
/// the main thread.
pub(crate) struct SweepHost<'s> {
    globals: &'s Globals,
    instances: &'s FxHashMap<(usize, Vec<Value>), Arc<GameValue>>,
    pub(crate) engine: Engine,
}

impl Host for SweepHost<'_> {
    fn global(&self, name: &str) -> Option<Value> {
        self.globals.get(name).cloned()
    }

    fn instantiate(
        &mut self,
        family: &Family,
        args: Vec<Value>,
        _span: Span,
    ) -> Result<Value, Error> {
        match self.instances.get(&(family.decl, args)) {
            Some(game) => Ok(Value::Game(game.clone())),
            None => Err(Error::Deferred),
        }
    }

    fn engine(&mut self) -> Option<&mut Engine> {
        Some(&mut self.engine)
    }

    fn interrupted(&self) -> bool {
        self.engine.limits.interrupt.load(Ordering::Relaxed)
    }

    fn max_elements(&self) -> usize {
        self.engine.limits.max_states
    }

    fn charge(&self) -> Option<Charge> {
        Some(self.engine.limits.charge())
    }
}

impl Interpreter {
    /// How many threads sweeps may use (1: none but the calling one).
    pub(crate) fn sweep_threads(&mut self) -> usize {
        match self.engine.limits.threads {
            0 => rayon::current_num_threads(),
            1 => 1,
            n => self.pool(n).map_or(1, |pool| pool.current_num_threads()),
        }
    }

    /// The pool of `n` threads, made on first use (rayon's global pool serves `threads = 0`).
    fn pool(&mut self, n: usize) -> Option<Arc<rayon::ThreadPool>> {
        if self.pool.is_none() {
            self.pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .ok()
                .map(Arc::new);
        }
        self.pool.clone()
    }

    /// Runs `cases` in order: each is passed to `take` with the result a worker settled it with,
    /// or with `None` for `take` to run it on this thread. Stops where `take` says stop.
    pub(crate) fn run_batch<C: Sync, R: Send>(
        &mut self,
        pace: &mut Pace,
        cases: &[C],
        work: &Work<'_, C, R>,
        take: &mut Take<'_, C, R>,
    ) -> Result<Flow, Error> {
        // The results are charged, with a round's (the open cases, the chunks of results and
        // their concatenation): when they do not fit, the batch runs on this thread.
        let mut held = self.engine.limits.charge();
        let mut spread_well = held
            .set(
                3 * budget::boxed(cases.len() * size_of::<Option<R>>())
                    + budget::boxed(cases.len() * size_of::<usize>()),
            )
            .is_ok();
        let mut results: Vec<Option<R>> = match spread_well {
            true => (0..cases.len()).map(|_| None).collect(),
            false => Vec::new(),
        };
        let mut next = 0;
        while next < cases.len() {
            if spread_well {
                if self.interrupted() {
                    return Err(Error::Interrupted);
                }
                let open: Vec<usize> = (next..cases.len())
                    .filter(|&i| results[i].is_none())
                    .collect();
                let settled = self.round(cases, &open, work);
                let count = settled.iter().filter(|r| r.is_some()).count();
                for (i, result) in open.iter().zip(settled) {
                    results[*i] = result;
                }
                spread_well = 2 * count >= open.len();
            }
            while next < cases.len() {
                let result = results.get_mut(next).and_then(Option::take);
                let ran_here = result.is_none();
                if ran_here && self.interrupted() {
                    return Err(Error::Interrupted);
                }
                if let Flow::Stop = take(self, &cases[next], result)? {
                    return Ok(Flow::Stop);
                }
                next += 1;
                if ran_here && spread_well {
                    break;
                }
            }
        }
        pace.after_batch(spread_well);
        Ok(Flow::Continue)
    }

    /// One round: the workers try the cases `open` (indices into `cases`, ascending); the
    /// results, in the same order, are `None` where a case is left to the main thread.
    fn round<C: Sync, R: Send>(
        &mut self,
        cases: &[C],
        open: &[usize],
        work: &Work<'_, C, R>,
    ) -> Vec<Option<R>> {
        if open.is_empty() {
            return Vec::new();
        }
        let threads = self.sweep_threads();
        let pool = match self.engine.limits.threads {
            0 | 1 => None,
            n => self.pool(n),
        };
        let interpret_only = rules::interpret_only_now();
        let sweep = self.engine.begin_sweep();
        let globals = read_globals(&self.globals);
        let globals: &Globals = &globals;
        let instances = &self.instances;
        let stop = AtomicUsize::new(usize::MAX);
        let chunk = open.len().div_ceil(CHUNKS_A_THREAD * threads).max(1);
        let run = || -> Vec<Vec<Option<R>>> {
            open.par_chunks(chunk)
                .map(|indices| {
                    rules::interpret_only(interpret_only);
                    let mut host = SweepHost {
                        globals,
                        instances,
                        engine: Engine::worker(&sweep),
                    };
                    indices
                        .iter()
                        .map(|&i| {
                            if i > stop.load(Ordering::Relaxed) || host.interrupted() {
                                return None;
                            }
                            match work(&mut host, &cases[i]) {
                                Worked::Done(result) => Some(result),
                                Worked::Open => None,
                                Worked::OpenAndStop => {
                                    stop.fetch_min(i, Ordering::Relaxed);
                                    None
                                }
                            }
                        })
                        .collect()
                })
                .collect()
        };
        let results = match pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        self.engine.end_sweep(sweep);
        results.into_iter().flatten().collect()
    }
}

impl Interpreter {
    /// How many cases the binders of a `check` make, when that is known before they run: every
    /// binder a finite range (or `x = EXPR`) that reads no binder, and no guard. 0 otherwise.
    pub(crate) fn cases_total(&mut self, binders: &[Binder]) -> u64 {
        let names: Vec<&str> = binders.iter().map(|b| b.name.name.as_str()).collect();
        let mut total: u64 = 1;
        for binder in binders {
            if binder.guard.is_some() || mentions(&binder.value, &names) {
                return 0;
            }
            if binder.kind == BinderKind::Let {
                continue;
            }
            if !matches!(binder.value.kind, ExprKind::Range { .. }) {
                return 0;
            }
            let count = match Eval::new(self).eval(&binder.value) {
                Ok(Value::Range {
                    start,
                    last: Some(last),
                }) => (last as i128 - start as i128 + 1).clamp(0, u64::MAX as i128) as u64,
                _ => return 0,
            };
            total = total.saturating_mul(count);
        }
        total
    }
}

/// Whether `expr` reads any of `names` (a name bound inside it, by a comprehension, counts too).
fn mentions(expr: &Expr, names: &[&str]) -> bool {
    let mut open = vec![expr];
    while let Some(expr) = open.pop() {
        match &expr.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) => {}
            ExprKind::Var(name) => {
                if names.contains(&name.as_str()) {
                    return true;
                }
            }
            ExprKind::List(items) | ExprKind::Set(items) => open.extend(items),
            ExprKind::Unary(_, a) => open.push(a),
            ExprKind::Binary(_, a, b) => open.extend([&**a, &**b]),
            ExprKind::Range { start, end, .. } => {
                open.push(start);
                open.extend(end.as_deref());
            }
            ExprKind::If {
                condition,
                then,
                otherwise,
            } => open.extend([&**condition, &**then, &**otherwise]),
            ExprKind::Call {
                callee,
                args: items,
            }
            | ExprKind::Index {
                target: callee,
                args: items,
            } => {
                open.push(callee);
                open.extend(items);
            }
            ExprKind::Comprehension { body, binders } => {
                open.push(body);
                for binder in binders {
                    open.push(&binder.value);
                    open.extend(binder.guard.as_ref());
                }
            }
        }
    }
    false
}
