//! Subtraction games: take any amount in a set from one heap.

use super::vocabulary::{HeapRules, Structure, Take, TakeRange, LONGEST_TAKE_RUN};
use super::{Emit, Game, SolveError};

/// A subtraction game on one heap: remove `s` tokens for any `s` in the set. The set is finite,
/// or holds every integer from `open_from` on (`1..` is Nim).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtraction {
    pub name: String,
    finite: Vec<i64>,
    open_from: Option<i64>,
}

impl Subtraction {
    /// The game of a declared set: `finite` and `open_from` (every integer from it on), or the
    /// first member that is not positive (every move takes at least one token).
    pub fn of_set(
        name: &str,
        finite: Vec<i64>,
        open_from: Option<i64>,
    ) -> Result<Subtraction, i64> {
        match finite.iter().chain(&open_from).find(|&&s| s < 1) {
            Some(&bad) => Err(bad),
            None => Ok(Subtraction::new(name, finite, open_from)),
        }
    }

    /// `finite` holds positive integers; `open_from`, when given, is positive too.
    pub fn new(name: &str, mut finite: Vec<i64>, open_from: Option<i64>) -> Subtraction {
        finite.sort_unstable();
        finite.dedup();
        if let Some(from) = open_from {
            finite.retain(|&s| s < from);
        }
        Subtraction {
            name: name.to_string(),
            finite,
            open_from,
        }
    }
}

impl Game for Subtraction {
    fn heap_like(&self) -> bool {
        true
    }

    fn options(&self, state: &[i64], emit: &mut Emit<'_>) -> Result<(), SolveError> {
        let n = state[0];
        for &s in self.finite.iter().take_while(|&&s| s <= n) {
            if emit(&[n - s]).is_break() {
                return Ok(());
            }
        }
        if let Some(from) = self.open_from {
            for s in from..=n {
                if emit(&[n - s]).is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    fn heap_rules(&self) -> Option<HeapRules> {
        let mut rules = HeapRules::default();
        for run in self.finite.chunk_by(|a, b| a + 1 == *b) {
            if run.len() > LONGEST_TAKE_RUN {
                rules.ranges.push(TakeRange {
                    lo: run[0] as u64,
                    hi: Some(run[run.len() - 1] as u64),
                });
                continue;
            }
            rules.takes.extend(run.iter().map(|&s| Take {
                take: s as u64,
                none: true,
                one: true,
                two: false,
                three: false,
                unequal: false,
            }));
        }
        if let Some(from) = self.open_from {
            rules.ranges.push(TakeRange {
                lo: from as u64,
                hi: None,
            });
        }
        Some(rules)
    }

    fn structure(&self) -> Structure {
        match (self.open_from, self.finite.last()) {
            (Some(1), _) => Structure::Nim,
            (None, Some(&largest)) => Structure::Subtraction {
                largest: largest as usize,
            },
            _ => Structure::Unknown,
        }
    }

    fn describe(&self, state: &[i64]) -> String {
        format!("{}[{}]", self.name, state[0])
    }
}
