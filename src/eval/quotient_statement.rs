//! `quotient G RANGE`: the misère quotient of the closure of a range of heaps, its presentation,
//! P-portion and the element of each heap.

use std::io::Write;

use super::expr::solve_error;
use super::misere_statements::heap_rows_into;
use super::Interpreter;
use crate::error::Error;
use crate::game::budget::{self, Charge, OverLimit};
use crate::game::quotient::QuotientRun;
use crate::game::SolveError;
use crate::syntax::ast::Expr;

impl Interpreter {
    /// Prints the quotient, its text charged to the ledger until it is printed: the element
    /// of each of ten million heaps is some 100 MB of text.
    pub(super) fn quotient(
        &mut self,
        game: &Expr,
        range: &Expr,
        out: &mut dyn Write,
    ) -> Result<(), Error> {
        let (display, id, start, last) = self.heaps_of(game, range, "quotient")?;
        let run = self.engine.quotient(id, &display, start, last);
        let mut charge = self.engine.limits.charge();
        let text = self
            .show_quotient(&display, (start, last), &run, &mut charge)
            .map_err(|e| solve_error(e, range.span))?;
        let _ = writeln!(out, "{text}");
        match run.stopped {
            None => Ok(()),
            Some(e) => Err(solve_error(e, range.span)),
        }
    }

    fn show_quotient(
        &self,
        display: &str,
        (start, last): (i64, i64),
        run: &QuotientRun,
        charge: &mut Charge,
    ) -> Result<String, SolveError> {
        let fits = |text: &String, charge: &mut Charge| {
            charge
                .set(budget::boxed(text.capacity()))
                .map_err(|OverLimit(limit)| SolveError::MemoryLimit(limit))
        };
        let q = &run.quotient;
        let done = q.heaps().len();
        let mut text = format!("misère quotient of {display} {start}..={last}");
        if run.stopped.is_some() {
            match run.closure.get(done) {
                Some(heap) => text.push_str(&format!(
                    " is INCOMPLETE: stopped at heap {heap} ({done} of the {} heaps of the \
                     closure done); what follows is the quotient of those {done}",
                    run.closure.len()
                )),
                None => text.push_str(" is INCOMPLETE: stopped before any heap"),
            }
        }
        let presentation = q.presentation(&self.engine.limits)?;
        let generators = presentation.generators();
        text.push_str(&format!(
            ":\n  order {}, {generators} generator{}, {}",
            q.order(),
            if generators == 1 { "" } else { "s" },
            if q.is_tame() { "tame" } else { "not tame" }
        ));
        text.push_str(&format!("\n  {presentation}"));
        fits(&text, charge)?;
        let mut p = q.p_portion();
        presentation.sort(&mut p);
        text.push_str(&format!(
            "\n  P-portion ({} element{}): ",
            p.len(),
            if p.len() == 1 { "" } else { "s" },
        ));
        for (i, &x) in p.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(&presentation.word(x));
            fits(&text, charge)?;
        }
        text.push('\n');
        let word = |n| {
            Ok(q.element(n)
                .map_or("-".to_string(), |x| presentation.word(x)))
        };
        let written = |text: &String| fits(text, charge);
        heap_rows_into(&mut text, ("  heaps", "    "), start, last, word, written)?;
        let grew: Vec<String> = q.grew_at.iter().map(i64::to_string).collect();
        text.push_str(&format!(
            "\n  the quotient of exactly these heaps (it grew at heap{} {}): a larger heap may \
             enlarge it",
            if grew.len() == 1 { "" } else { "s" },
            if grew.is_empty() {
                "none".to_string()
            } else {
                grew.join(", ")
            }
        ));
        fits(&text, charge)?;
        Ok(text)
    }
}
