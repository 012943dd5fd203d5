//! `sequence EXPR for n in RANGE` and `table EXPR for a in ROWS, b in COLUMNS` (and `ppos` of
//! that form), `period` and `plot` of those forms: any expression, an integer or a position whose
//! Grundy value is taken.

use std::fmt::Write as _;

use super::answer::{Answer, Layout};
use super::expr::{solve_error, Eval};
use super::results::{self, Entry, Results};
use super::value::Value;
use super::Interpreter;
use crate::error::Error;
use crate::game::period;
use crate::syntax::ast::{Axis, Expr};

impl Interpreter {
    pub(super) fn sequence_of(
        &mut self,
        value: &Expr,
        axis: &Axis,
        source: &str,
        answer: &mut Answer,
    ) -> Result<(), Error> {
        let (start, last) = self.finite_range(&axis.range)?;
        let size = last as i128 - start as i128 + 1;
        self.bound_size(size, "this sequence", axis.range.span)?;
        answer.begin(Layout::sequence(
            label(source, value),
            bounds(axis, start, last),
        ))?;
        let mut eval = Eval::new(self);
        for n in start..=last {
            answer.push(Entry::Int(value_at(&mut eval, value, &[(axis, n)])?))?;
        }
        Ok(())
    }

    /// `period EXPR for n in RANGE`: the least period the values show (the least preperiod for
    /// it, and a constant saltus), as [`period::find`] finds it for `period G`. Always apparent:
    /// no theorem says what an expression does past the range.
    pub(super) fn period_of(
        &mut self,
        value: &Expr,
        axis: &Axis,
        source: &str,
    ) -> Result<String, Error> {
        let mut answer = self.kept_answer(axis.range.span);
        self.sequence_of(value, axis, source, &mut answer)?;
        let Results::Sequence {
            label,
            axis: shown,
            values,
        } = answer.into_results()
        else {
            unreachable!("a sequence's answer is a sequence")
        };
        let values: Vec<i64> = values
            .iter()
            .map(|v| match v {
                Entry::Int(v) => *v,
                Entry::Infinite(_) => unreachable!("an expression's values are integers"),
            })
            .collect();
        let lowest = values.iter().copied().min().unwrap_or(0);
        // The steps of the values, not the values, are what a period is: shifted to start at 0.
        let lifted: Vec<u64> = values.iter().map(|&v| v.abs_diff(lowest)).collect();
        let seen = format!("{} = {}..={}", shown.name, shown.start, shown.last);
        let Some(found) = period::find(&lifted) else {
            return Ok(format!("{label}: no period found in {seen}"));
        };
        let mut text = format!("{label}: preperiod {}", found.preperiod);
        if shown.start != 0 {
            let from = shown.start + found.preperiod as i64;
            let _ = write!(text, " (from {} = {from})", shown.name);
        }
        let _ = write!(text, ", period {}", found.period);
        if found.saltus != 0 {
            let _ = write!(text, ", saltus {}", found.saltus);
        }
        let _ = write!(
            text,
            " (apparent, not proved: the values of an expression; seen on {seen})"
        );
        Ok(text)
    }

    pub(super) fn table_of(
        &mut self,
        value: &Expr,
        rows: &Axis,
        cols: &Axis,
        ppos: bool,
        source: &str,
        answer: &mut Answer,
    ) -> Result<(), Error> {
        let (r0, r1) = self.finite_range(&rows.range)?;
        let (c0, c1) = self.finite_range(&cols.range)?;
        let span = rows.range.span.to(cols.range.span);
        let count = |first: i64, last: i64| (last as i128 - first as i128 + 1).max(0);
        self.bound_size(count(r0, r1) * count(c0, c1), "this table", span)?;
        self.bound_size(count(r0, r1), "this table", span)?;
        answer.begin(Layout::table(
            label(source, value),
            bounds(rows, r0, r1),
            bounds(cols, c0, c1),
            ppos,
        ))?;
        let mut eval = Eval::new(self);
        for a in r0..=r1 {
            for b in c0..=c1 {
                let v = value_at(&mut eval, value, &[(rows, a), (cols, b)])?;
                answer.push(Entry::Int(v))?;
            }
        }
        Ok(())
    }
}

/// The value of `expr` with the indices bound: an integer, or a position's Grundy value.
fn value_at<'a>(
    eval: &mut Eval<'_, 'a>,
    expr: &'a Expr,
    indices: &[(&'a Axis, i64)],
) -> Result<i64, Error> {
    if eval.host.interrupted() {
        return Err(Error::Interrupted);
    }
    for (axis, n) in indices {
        eval.push(&axis.name.name, Value::Int(*n));
    }
    let value = eval.eval(expr);
    for _ in indices {
        eval.pop();
    }
    match value? {
        Value::Int(n) => Ok(n),
        Value::Position(p) => {
            let engine = eval.engine(expr.span)?;
            let value = engine
                .value(&p.position)
                .map_err(|e| solve_error(e, expr.span))?;
            i64::try_from(value).map_err(|_| Error::overflow("a Grundy value", expr.span))
        }
        other => Err(Error::type_mismatch(
            "an integer or a position",
            other.type_name(),
            expr.span,
            "each value is an integer, or a position whose Grundy value is shown",
        )),
    }
}

/// The expression as written, which names the results.
fn label(source: &str, expr: &Expr) -> String {
    let (start, end) = (expr.span.start as usize, expr.span.end as usize);
    source.get(start..end).unwrap_or("values").to_string()
}

fn bounds(axis: &Axis, start: i64, last: i64) -> results::Axis {
    results::Axis {
        name: axis.name.name.clone(),
        start,
        last,
    }
}
