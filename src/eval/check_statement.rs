//! `check`: a condition run for every binding of its binders, its failures counted and the
//! first few shown; large sweeps spread over the workers.

use super::*;
use crate::game::budget::{self, Charge};
use crate::game::progress::grouped;

impl Interpreter {
    /// `check`: runs the condition for every binding, in order, and counts the cases that
    /// fail, keeping the first few. Large sweeps spread over the workers (see [`sweep`]); the
    /// result is the same.
    pub(super) fn check(&mut self, condition: &Expr, binders: &[Binder]) -> Result<String, Error> {
        let tally = std::cell::RefCell::new(CheckTally::default());
        let total = self.cases_total(binders);
        let progress = self.engine.limits.progress.clone();
        let reporter = progress.start("check", "cases", total);
        let counted = || reporter.iter().for_each(|r| r.advance(1));
        let threads = self.sweep_threads();
        let mut pace = sweep::Pace::new(&self.engine.limits, threads);
        let mut queued: Vec<Vec<Value>> = Vec::new();
        let mut held = self.engine.limits.charge();
        // A worker settles a case that holds or fails; an error is run again here.
        let work = |host: &mut sweep::SweepHost<'_>, values: &Vec<Value>| {
            let mut eval = Eval::new(host);
            bind(&mut eval, binders, values);
            match check_case(&mut eval, condition, binders) {
                Ok(failure) => {
                    counted();
                    sweep::Worked::Done(failure)
                }
                Err(_) => sweep::Worked::OpenAndStop,
            }
        };
        let mut take = |this: &mut Interpreter, values: &Vec<Value>, settled| {
            let failure = match settled {
                Some(failure) => failure,
                None => {
                    let mut eval = Eval::new(this);
                    bind(&mut eval, binders, values);
                    let failure = check_case(&mut eval, condition, binders)?;
                    counted();
                    failure
                }
            };
            tally.borrow_mut().count(failure);
            Ok(Flow::Continue)
        };
        let swept = Eval::new(self).for_each(binders, &mut |eval| {
            if !pace.spreading() {
                let failure = check_case(eval, condition, binders)?;
                counted();
                tally.borrow_mut().count(failure);
                return Ok(Flow::Continue);
            }
            let values: Vec<Value> = binders
                .iter()
                .map(|b| eval.lookup(&b.name.name).expect("bound"))
                .collect();
            // The cases queued are held on the ledger: a batch that does not fit runs sooner.
            let case = budget::boxed(values.len() * size_of::<Value>());
            let fits = |queued: &Vec<Vec<Value>>, held: &mut Charge| {
                let bytes = budget::vector(queued, 1) + (queued.len() + 1) * case;
                held.set(bytes).is_ok()
            };
            if !fits(&queued, &mut held) {
                if let Flow::Stop = run_queued(eval, &mut pace, &mut queued, &work, &mut take)? {
                    return Ok(Flow::Stop);
                }
                if !fits(&queued, &mut held) {
                    let failure = check_case(eval, condition, binders)?;
                    counted();
                    tally.borrow_mut().count(failure);
                    return Ok(Flow::Continue);
                }
            }
            queued.push(values);
            if queued.len() < pace.batch() {
                return Ok(Flow::Continue);
            }
            run_queued(eval, &mut pace, &mut queued, &work, &mut take)
        });
        // The cases queued before an error come first, as they would on one thread.
        self.run_batch(&mut pace, &queued, &work, &mut take)?;
        swept?;
        reporter.into_iter().for_each(|r| r.complete());
        let CheckTally {
            cases,
            failed,
            shown,
        } = tally.into_inner();
        if failed == 0 {
            let cases = match cases {
                1 => "1 case".to_string(),
                _ => format!("{} cases", grouped(cases)),
            };
            return Ok(format!("check: {cases} held"));
        }
        let mut detail: Vec<String> = shown
            .iter()
            .map(|(bindings, sides)| format!("{bindings}: {sides}"))
            .collect();
        if failed > shown.len() as u64 {
            detail.push(format!("... and {} more", failed - shown.len() as u64));
        }
        Err(Error::CheckFailed {
            failed,
            cases,
            first: shown[0].0.clone(),
            detail: detail.join("\n"),
            span: condition.span,
        })
    }
}

/// Runs the cases queued as one batch on the workers (from inside the sweep of the binders, on
/// the interpreter), and empties the queue.
fn run_queued(
    eval: &mut Eval<'_, '_>,
    pace: &mut sweep::Pace,
    queued: &mut Vec<Vec<Value>>,
    work: &sweep::Work<'_, Vec<Value>, Option<(String, String)>>,
    take: &mut sweep::Take<'_, Vec<Value>, Option<(String, String)>>,
) -> Result<Flow, Error> {
    let this = eval
        .host
        .interpreter()
        .expect("`check` runs on the interpreter");
    let flow = this.run_batch(pace, queued, work, take);
    queued.clear();
    flow
}

/// Binds the binders of a `check` to the values of one case.
fn bind<'a>(eval: &mut Eval<'_, 'a>, binders: &'a [Binder], values: &[Value]) {
    for (binder, value) in binders.iter().zip(values) {
        eval.push(&binder.name.name, value.clone());
    }
}

/// A failed `check` shows at most this many counterexamples.
const COUNTEREXAMPLES_SHOWN: usize = 3;

/// The cases of a `check` so far: how many ran and failed, and the first failures (their
/// bindings and the values of both sides).
#[derive(Default)]
struct CheckTally {
    cases: u64,
    failed: u64,
    shown: Vec<(String, String)>,
}

impl CheckTally {
    fn count(&mut self, failure: Option<(String, String)>) {
        self.cases += 1;
        if let Some(failure) = failure {
            self.failed += 1;
            if self.shown.len() < COUNTEREXAMPLES_SHOWN {
                self.shown.push(failure);
            }
        }
    }
}

/// Runs the condition of a `check` for the binding in `eval`: `None` when it holds, else the
/// bindings and the values of both sides, as the failure shows them.
fn check_case<'a>(
    eval: &mut Eval<'_, 'a>,
    condition: &'a Expr,
    binders: &'a [Binder],
) -> Result<Option<(String, String)>, Error> {
    if eval.bool(condition)? {
        return Ok(None);
    }
    let bindings: Vec<String> = binders
        .iter()
        .map(|b| {
            let value = eval.lookup(&b.name.name).expect("bound");
            format!("{} = {value}", b.name.name)
        })
        .collect();
    Ok(Some((bindings.join(", "), explain(eval, condition))))
}
