//! `sequence misere` and `genus`: misère values and genera of single heaps and positions.

use super::expr::{solve_error, Eval, Host};
use super::Interpreter;
use crate::error::Error;
use crate::game::{GameId, Part, Position};
use crate::syntax::ast::Expr;

impl Interpreter {
    /// The name of a heap game, its id and the ends of a range of heaps, checked against the
    /// limit of a sequence.
    pub(super) fn heaps_of(
        &mut self,
        game: &Expr,
        range: &Expr,
        what: &str,
    ) -> Result<(String, GameId, i64, i64), Error> {
        let game = self.heap_game(game, what)?;
        let (start, last) = self.finite_range(range)?;
        self.bound_size(
            last as i128 - start as i128 + 1,
            "this sequence",
            range.span,
        )?;
        Ok((game.display.clone(), game.id, start, last))
    }

    pub(super) fn genus(&mut self, target: &Expr, range: Option<&Expr>) -> Result<String, Error> {
        let Some(range) = range else {
            let p = Eval::new(self).position(target)?;
            let genus = self
                .engine
                .genus(&p.position)
                .map_err(|e| solve_error(e, target.span))?;
            return Ok(format!(
                "{}: genus {genus}",
                p.show_parts(p.position.parts())
            ));
        };
        let (display, id, start, last) = self.heaps_of(target, range, "genus")?;
        let mut shown = Vec::new();
        for n in start..=last.max(start - 1) {
            let part = heap(id, n);
            if self.interrupted() {
                return Err(Error::Interrupted);
            }
            let genus = self
                .engine
                .genus(&Position::new(vec![part], false))
                .map_err(|e| solve_error(e, range.span))?;
            shown.push(genus.to_string());
        }
        Ok(heap_rows(
            &format!("genus of {display}"),
            start,
            last,
            &shown,
        ))
    }
}

/// Heap `n` of a heap game.
pub(super) fn heap(game: GameId, n: i64) -> Part {
    Part {
        game,
        state: Box::new([n]),
    }
}

/// The values of heaps `start..=last` under a heading, ten to a row, each row headed by its
/// first heap.
fn heap_rows(heading: &str, start: i64, last: i64, shown: &[String]) -> String {
    let mut text = String::new();
    let word = |n: i64| Ok::<_, std::convert::Infallible>(shown[(n - start) as usize].clone());
    let Ok(()) = heap_rows_into(&mut text, (heading, "  "), start, last, word, |_| Ok(()));
    text
}

/// [`heap_rows`] appended to `text`, the rows indented by `indent`, each heap's word made by
/// `word` as its row is written and `written` told of the text after each row, so that a
/// range of millions of heaps is never held twice and can stop at the memory limit.
pub(super) fn heap_rows_into<E>(
    text: &mut String,
    (heading, indent): (&str, &str),
    start: i64,
    last: i64,
    mut word: impl FnMut(i64) -> Result<String, E>,
    mut written: impl FnMut(&String) -> Result<(), E>,
) -> Result<(), E> {
    text.push_str(&format!("{heading} {start}..={last}:"));
    let width = last.max(0).to_string().len();
    let mut first = start;
    while first <= last {
        text.push_str(&format!("\n{indent}{first:>width$}:"));
        for n in first..=last.min(first.saturating_add(9)) {
            text.push(' ');
            text.push_str(&word(n)?);
        }
        written(text)?;
        first = first.saturating_add(10);
    }
    Ok(())
}
