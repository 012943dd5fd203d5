//! The `compare` statement: whether two heap games have the same values, or the same values with
//! an offset, proved when both periods are (the engine's `equal_games`); with a range, the first
//! heap of the range where they differ.

use super::expr::solve_error;
use super::Interpreter;
use crate::error::Error;
use crate::game::equal_games::{Agreement, Comparison, Known};
use crate::game::Part;
use crate::span::Span;
use crate::syntax::ast::Expr;

impl Interpreter {
    /// `compare G, H`: the same values, or the same with an offset, proved or as far as known;
    /// else where they first differ.
    pub(super) fn compare(&mut self, left: &Expr, right: &Expr) -> Result<String, Error> {
        let g = self.heap_game(left, "compare")?;
        let h = self.heap_game(right, "compare")?;
        let span = left.span.to(right.span);
        let fail = |e| solve_error(e, span);
        let relation = self.engine.relate_games(g.id, h.id).map_err(fail)?;
        let known = [
            self.engine.known_values(g.id).map_err(fail)?,
            self.engine.known_values(h.id).map_err(fail)?,
        ];
        let names = [g.display.as_str(), h.display.as_str()];
        let mut text = describe(&relation.plain, names, known);
        if let Some(shifted) = relation.shifted.filter(|_| !relation.plain.same()) {
            text.push_str("; ");
            text.push_str(&describe(&shifted, names, known));
        }
        Ok(text)
    }

    /// `compare G, H RANGE`: the first heap of the range where two heap games differ.
    pub(super) fn compare_on(
        &mut self,
        left: &Expr,
        right: &Expr,
        range: &Expr,
    ) -> Result<String, Error> {
        let g = self.heap_game(left, "compare")?;
        let h = self.heap_game(right, "compare")?;
        let (start, last) = self.finite_range(range)?;
        self.bound_size(
            last as i128 - start as i128 + 1,
            "this comparison",
            range.span,
        )?;
        for n in start..=last {
            let a = self.heap_value(g.id, n, range.span)?;
            let b = self.heap_value(h.id, n, range.span)?;
            if a != b {
                return Ok(format!(
                    "{} and {} first differ at heap {n}: {a} and {b}",
                    g.display, h.display
                ));
            }
        }
        Ok(format!(
            "{} and {} agree on heaps {start}..={last}",
            g.display, h.display
        ))
    }

    fn heap_value(&mut self, game: usize, n: i64, span: Span) -> Result<u64, Error> {
        let part = Part {
            game,
            state: Box::new([n]),
        };
        self.part_value_at(&part, span)
    }
}

/// One comparison in words: `G` and `H`, or `G[n]` and `H[n + d]` under an offset.
fn describe(comparison: &Comparison, [g, h]: [&str; 2], known: [Known; 2]) -> String {
    let d = comparison.offset.unsigned_abs();
    let (pair, heap) = match comparison.offset {
        0 => (format!("{g} and {h}"), "heap"),
        offset if offset > 0 => (format!("{g}[n] and {h}[n + {d}]"), "n ="),
        _ => (format!("{g}[n + {d}] and {h}[n]"), "n ="),
    };
    let heaps = match comparison.offset {
        0 => "heaps",
        _ => "n in",
    };
    match comparison.agreement {
        Agreement::Proved { checked } => {
            let what = match comparison.offset {
                0 => format!("{g} and {h} have the same value at every heap"),
                offset if offset > 0 => {
                    format!("{g} is {h} with every heap {d} larger: {g}[n] = {h}[n + {d}]")
                }
                _ => format!("{h} is {g} with every heap {d} larger: {g}[n + {d}] = {h}[n]"),
            };
            format!(
                "{what} (proved: both periods are proved, and the values agree on {heaps} \
                 0..{checked}, past which both follow the same period)"
            )
        }
        Agreement::Known { upto } => {
            let unproved = match (known[0].proved, known[1].proved) {
                (None, None) => "neither period is proved".to_string(),
                (None, Some(_)) => format!("the period of {g} is not proved"),
                _ => format!("the period of {h} is not proved"),
            };
            format!(
                "{pair} agree on {heaps} 0..{upto}, as far as both are known (not proved equal: \
                 {unproved})"
            )
        }
        Agreement::Differ { at, left, right } => {
            format!("{pair} first differ at {heap} {at}: {left} and {right}")
        }
        Agreement::PeriodsDiffer { upto } => {
            let period = |k: Known| k.proved.map_or(0, |p| p.period);
            format!(
                "{pair} agree on {heaps} 0..{upto} but are not the same: their proved least \
                 periods differ ({} and {})",
                period(known[0]),
                period(known[1])
            )
        }
    }
}
