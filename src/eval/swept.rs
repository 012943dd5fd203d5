//! `sequence EXPR for n in RANGE` and `table EXPR for a in ROWS, b in COLUMNS` (and `ppos` of
//! that form): any expression, an integer or a position whose Grundy value is taken.

use super::expr::{solve_error, Eval};
use super::results::{self, Results};
use super::value::Value;
use super::{tabulated, Interpreter};
use crate::error::Error;
use crate::syntax::ast::{Axis, Expr};

impl Interpreter {
    pub(super) fn sequence_of(
        &mut self,
        value: &Expr,
        axis: &Axis,
        source: &str,
    ) -> Result<Results, Error> {
        let (start, last) = self.finite_range(&axis.range)?;
        let size = last as i128 - start as i128 + 1;
        self.bound_size(size, "this sequence", axis.range.span)?;
        let mut values = Vec::new();
        let mut eval = Eval::new(self);
        for n in start..=last {
            values.push(value_at(&mut eval, value, &[(axis, n)])?);
        }
        Ok(Results::Sequence {
            label: label(source, value),
            axis: bounds(axis, start, last),
            values,
        })
    }

    pub(super) fn table_of(
        &mut self,
        value: &Expr,
        rows: &Axis,
        cols: &Axis,
        ppos: bool,
        source: &str,
    ) -> Result<Results, Error> {
        let (r0, r1) = self.finite_range(&rows.range)?;
        let (c0, c1) = self.finite_range(&cols.range)?;
        let span = rows.range.span.to(cols.range.span);
        let count = |first: i64, last: i64| (last as i128 - first as i128 + 1).max(0);
        self.bound_size(count(r0, r1) * count(c0, c1), "this table", span)?;
        self.bound_size(count(r0, r1), "this table", span)?;
        let mut grid = Vec::new();
        let mut eval = Eval::new(self);
        for a in r0..=r1 {
            let mut line = Vec::new();
            for b in c0..=c1 {
                line.push(value_at(&mut eval, value, &[(rows, a), (cols, b)])?);
            }
            grid.push(line);
        }
        let (rows, cols) = (bounds(rows, r0, r1), bounds(cols, c0, c1));
        Ok(tabulated(label(source, value), rows, cols, grid, ppos))
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
