//! Cram written over a list (`on s[]`), read as Cram on the cells of a grid, to route it to the
//! engine's bit-set solver ([`crate::game::cells`]), which splits a board into its parts.
//!
//! The list holds the cells row by row, `w` to a row: `0` an empty cell, anything else a
//! covered one. The game is read as Cram when its rules are, in any order and number, these
//! two (with `w` an integer literal, a global or a parameter of at least 1):
//!
//! ```text
//! for i in 0..len(s) if s[i] == 0 and i % w < w - 1 and s[i + 1] == 0 { s[i] = 1; s[i + 1] = 1 }
//! for i in 0..len(s) if s[i] == 0 and i + w < len(s) and s[i + w] == 0 { s[i] = 1; s[i + w] = 1 }
//! ```
//!
//! The conjuncts may come in any order, so long as the guard that keeps `i + 1` (or `i + w`) on
//! the list comes before the cell it guards (the walker evaluates `and` from the left, so a cell
//! asked first would be read off the end of the list, an error the native route must not
//! hide); each of the two cells may be set to any positive integer.
//!
//! Why it is Cram: on a list of `w * h` cells, the first rule covers two empty cells side by
//! side in a row (`i % w < w - 1`: `i` is not the last of its row), the second two empty cells
//! one above the other (`i + w < len(s)`: `i` is not in the last row); a move depends only on
//! which cells are `0`, so the value of a list is that of the set of its empty cells on the
//! `w` by `h` grid. A list whose length is not a multiple of `w` (or longer than a board holds)
//! is not a grid: the rules play it as written.

use crate::eval::value::Value;
use crate::syntax::ast::{BinaryOp, BinderKind, Expr, ExprKind, Rule, UpdateOp};

/// The two moves of Cram on a list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pair {
    /// Cells `i` and `i + 1` of one row.
    Across,
    /// Cells `i` and `i + w`.
    Down,
}

/// The width of the rows when the rules are those of Cram over a list named `state`; `None`
/// otherwise. `constant` gives the integer a name stands for outside the rules (a global or a
/// parameter), when it is one.
pub fn list_cram(
    state: &str,
    rules: &[Rule],
    constant: &dyn Fn(&str) -> Option<Value>,
) -> Option<usize> {
    if rules.is_empty() || state == "len" || constant("len").is_some() {
        return None;
    }
    let mut width = None;
    let mut kinds = Vec::new();
    for rule in rules {
        let (kind, w) = pair_move(state, rule, constant)?;
        if width.is_some_and(|known| known != w) {
            return None;
        }
        width = Some(w);
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    (kinds.len() == 2).then_some(width?)
}

/// What one rule's guard asks of the binder `i`.
#[derive(Default)]
struct Guards {
    /// `i % w < w - 1`: `i` is not the last of its row of `w`.
    not_last_in_row: Option<i64>,
    /// `i + d < len(s)`: cell `i + d` is on the list.
    on_the_list: Option<i64>,
    /// The offsets `d` of the cells `s[i + d] == 0` asks to be empty.
    empty: Vec<i64>,
}

/// The move of one rule and the width it names.
fn pair_move(
    state: &str,
    rule: &Rule,
    constant: &dyn Fn(&str) -> Option<Value>,
) -> Option<(Pair, usize)> {
    if !rule.steps.is_empty() {
        return None;
    }
    let [binder] = rule.binders.as_slice() else {
        return None;
    };
    let i = binder.name.name.as_str();
    if binder.kind != BinderKind::In || i == state || i == "len" || constant(i).is_some() {
        return None;
    }
    let reader = Reader { state, i, constant };
    reader.whole_list(&binder.value)?;
    let mut guards = Guards::default();
    // The binder's guard, then the rule's condition: the walker asks them in that order.
    for condition in binder.guard.iter().chain(&rule.condition) {
        for conjunct in reader.conjuncts(condition) {
            reader.read_guard(conjunct, &mut guards)?;
        }
    }
    let mut covered = Vec::new();
    for update in &rule.updates {
        let index = update.index.as_ref()?;
        if update.target.name != state || update.op != UpdateOp::Assign {
            return None;
        }
        // A negative count is no state (the walker refuses the option), so a covered cell
        // holds a positive number.
        if reader.constant(&update.value)? < 1 {
            return None;
        }
        covered.push(reader.offset(index)?);
    }
    covered.sort_unstable();
    let [0, d] = covered[..] else {
        return None;
    };
    let mut asked = guards.empty;
    asked.sort_unstable();
    asked.dedup();
    if asked != [0, d] {
        return None;
    }
    let (kind, w) = match (guards.not_last_in_row, guards.on_the_list) {
        (Some(w), None) if d == 1 => (Pair::Across, w),
        (None, Some(w)) if d == w => (Pair::Down, w),
        _ => return None,
    };
    Some((kind, usize::try_from(w).ok().filter(|&w| w >= 1)?))
}

/// Reads the expressions of one rule: the list's name, the binder's, and the constants.
struct Reader<'a> {
    state: &'a str,
    i: &'a str,
    constant: &'a dyn Fn(&str) -> Option<Value>,
}

impl Reader<'_> {
    /// `0..len(s)`.
    fn whole_list(&self, domain: &Expr) -> Option<()> {
        let ExprKind::Range {
            start,
            end: Some(end),
            inclusive: false,
        } = &domain.kind
        else {
            return None;
        };
        (self.constant(start)? == 0 && self.is_len(end)).then_some(())
    }

    /// `len(s)`.
    fn is_len(&self, expr: &Expr) -> bool {
        let ExprKind::Call { callee, args } = &expr.kind else {
            return false;
        };
        is_var(callee, "len") && matches!(args.as_slice(), [s] if is_var(s, self.state))
    }

    /// An integer the expression is whatever the state: literals, and names bound outside the
    /// rules, added, subtracted and multiplied.
    fn constant(&self, expr: &Expr) -> Option<i64> {
        match &expr.kind {
            ExprKind::Int(n) => Some(*n),
            ExprKind::Var(v) if v != self.i && v != self.state => match (self.constant)(v)? {
                Value::Int(n) => Some(n),
                _ => None,
            },
            ExprKind::Binary(op, l, r) => {
                let (l, r) = (self.constant(l)?, self.constant(r)?);
                match op {
                    BinaryOp::Add => l.checked_add(r),
                    BinaryOp::Sub => l.checked_sub(r),
                    BinaryOp::Mul => l.checked_mul(r),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `d` of `i + d` (or `d + i`, `i`, `i - e`), `d` a constant.
    fn offset(&self, expr: &Expr) -> Option<i64> {
        match &expr.kind {
            ExprKind::Var(v) if v == self.i => Some(0),
            ExprKind::Binary(BinaryOp::Add, l, r) if is_var(l, self.i) => self.constant(r),
            ExprKind::Binary(BinaryOp::Add, l, r) if is_var(r, self.i) => self.constant(l),
            ExprKind::Binary(BinaryOp::Sub, l, r) if is_var(l, self.i) => {
                self.constant(r)?.checked_neg()
            }
            _ => None,
        }
    }

    /// The conjuncts of a condition, left to right.
    fn conjuncts<'e>(&self, expr: &'e Expr) -> Vec<&'e Expr> {
        match &expr.kind {
            ExprKind::Binary(BinaryOp::And, l, r) => {
                let mut all = self.conjuncts(l);
                all.extend(self.conjuncts(r));
                all
            }
            _ => vec![expr],
        }
    }

    /// One conjunct of the guard: `s[i + d] == 0` (when `i + d` is known to be on the list by
    /// a guard before it), `i % w < w - 1`, or `i + d < len(s)`.
    fn read_guard(&self, expr: &Expr, guards: &mut Guards) -> Option<()> {
        let ExprKind::Binary(op, l, r) = &expr.kind else {
            return None;
        };
        match op {
            BinaryOp::Eq => {
                let (cell, zero) = match self.constant(r) {
                    Some(_) => (l, r),
                    None => (r, l),
                };
                if self.constant(zero)? != 0 {
                    return None;
                }
                let d = self.cell(cell)?;
                let guarded = match d {
                    0 => true,
                    1 => guards.not_last_in_row.is_some() || guards.on_the_list == Some(1),
                    d => guards.on_the_list == Some(d),
                };
                guarded.then(|| guards.empty.push(d))
            }
            BinaryOp::Lt if self.is_len(r) => {
                let d = self.offset(l)?;
                (guards.on_the_list.replace(d).is_none() && d >= 1).then_some(())
            }
            BinaryOp::Lt => {
                let ExprKind::Binary(BinaryOp::Rem, x, w) = &l.kind else {
                    return None;
                };
                let w = self.constant(w)?;
                let ok = is_var(x, self.i) && w >= 1 && self.constant(r)? == w - 1;
                (ok && guards.not_last_in_row.replace(w).is_none()).then_some(())
            }
            _ => None,
        }
    }

    /// `d` of `s[i + d]`.
    fn cell(&self, expr: &Expr) -> Option<i64> {
        let ExprKind::Index { target, args } = &expr.kind else {
            return None;
        };
        match args.as_slice() {
            [index] if is_var(target, self.state) => self.offset(index),
            _ => None,
        }
    }
}

fn is_var(expr: &Expr, name: &str) -> bool {
    matches!(&expr.kind, ExprKind::Var(v) if v == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::{GameDef, StmtKind};

    fn width(source: &str, w: i64) -> Option<usize> {
        let program = crate::syntax::parse(source).expect("parses");
        let decl = program
            .statements
            .into_iter()
            .find_map(|s| match s.kind {
                StmtKind::Game(decl) => Some(decl),
                _ => None,
            })
            .expect("a game");
        let GameDef::Rules { state, rules, .. } = &decl.def else {
            panic!("rules");
        };
        let crate::syntax::ast::StateShape::List(s) = state else {
            panic!("a list");
        };
        let constant = |name: &str| match name {
            "w" => Some(Value::Int(w)),
            "minus" => Some(Value::Int(-1)),
            "two" => Some(Value::Int(2)),
            _ => None,
        };
        list_cram(&s.name, rules, &constant)
    }

    #[test]
    fn the_issue_spelling_is_cram() {
        let source = "game cram on s[] {
    for i in 0..len(s) if s[i] == 0 and i % w < w - 1 and s[i + 1] == 0 { s[i] = 1; s[i + 1] = 1 }
    for i in 0..len(s) if s[i] == 0 and i + w < len(s) and s[i + w] == 0 { s[i] = 1; s[i + w] = 1 }
}";
        assert_eq!(width(source, 4), Some(4));
    }

    /// The walker refuses an option with a negative count, so a rule that writes one is not
    /// read as Cram; a positive one is.
    #[test]
    fn a_covered_cell_holds_a_positive_count() {
        let rules = |c: &str| {
            format!(
                "game cram on s[] {{
    for i in 0..len(s) if s[i] == 0 and i % w < w - 1 and s[i + 1] == 0 {{ s[i] = {c}; s[i + 1] = {c} }}
    for i in 0..len(s) if s[i] == 0 and i + w < len(s) and s[i + w] == 0 {{ s[i] = 1; s[i + w] = 1 }}
}}"
            )
        };
        assert_eq!(width(&rules("minus"), 3), None);
        assert_eq!(width(&rules("0"), 3), None);
        assert_eq!(width(&rules("two"), 3), Some(3));
    }
}
