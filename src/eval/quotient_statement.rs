//! `quotient G RANGE`: the misère quotient of the closure of a range of heaps, its presentation,
//! P-portion and the element of each heap.

use std::io::Write;

use super::expr::solve_error;
use super::{heap_rows, Interpreter};
use crate::error::Error;
use crate::game::quotient::QuotientRun;
use crate::syntax::ast::Expr;

impl Interpreter {
    pub(super) fn quotient(
        &mut self,
        game: &Expr,
        range: &Expr,
        out: &mut dyn Write,
    ) -> Result<String, Error> {
        let (display, id, start, last) = self.heaps_of(game, range, "quotient")?;
        let run = self.engine.quotient(id, &display, start, last);
        let text = self
            .show_quotient(&display, start, last, &run)
            .map_err(|e| solve_error(e, range.span))?;
        match run.stopped {
            None => Ok(text),
            Some(e) => {
                let _ = writeln!(out, "{text}");
                Err(solve_error(e, range.span))
            }
        }
    }

    fn show_quotient(
        &self,
        display: &str,
        start: i64,
        last: i64,
        run: &QuotientRun,
    ) -> Result<String, crate::game::SolveError> {
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
        let mut p = q.p_portion();
        presentation.sort(&mut p);
        let p: Vec<String> = p.iter().map(|&x| presentation.word(x)).collect();
        text.push_str(&format!(
            "\n  P-portion ({} element{}): {}",
            p.len(),
            if p.len() == 1 { "" } else { "s" },
            p.join(", ")
        ));
        let shown: Vec<String> = (start..=last.max(start - 1))
            .map(|n| {
                q.element(n)
                    .map_or("-".to_string(), |x| presentation.word(x))
            })
            .collect();
        let rows = heap_rows("  heaps", start, last, &shown).replace("\n  ", "\n    ");
        text.push('\n');
        text.push_str(&rows);
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
        Ok(text)
    }
}
