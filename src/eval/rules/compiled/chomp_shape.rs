//! Chomp read from the compiled rules of a game on a list, to route it to the engine's table of
//! Young diagrams ([`crate::game::chomp`]).
//!
//! The list is read as row lengths; a game is Chomp when each of its rules is, in this form
//! (the reference's spelling):
//!
//! ```text
//! for i in A..len(s), k in B..s[i] if GUARD { for j in i..len(s) { s[j] = min(s[j], k) } }
//! ```
//!
//! with `A` and `B` non-negative constants, inclusive ranges to `len(s) - 1` and `s[i] - 1`
//! as well, the guards after either binder or as the rule's condition (any of them may be
//! missing), each a combination by `and`, `or` and `not` of comparisons of `i` or `k` with
//! constants, and the loop's update `s[j] = min(k, s[j])` too, or `s[j] = k` (or the `min`)
//! under the loop's guard `s[j] > k` (`k < s[j]`, `s[j] >= k`, `k <= s[j]`). Such a rule eats
//! at the cells (i, k) of the diagram its binders and guards allow: row `j` from row `i` on
//! becomes `min(s[j], k)`, the rows at most `k` long as they were. The game is Chomp when the
//! cells its rules allow together are every cell but the poisoned (0, 0); a cell allowed twice
//! gives an option twice, which changes no mex. That is decided exactly on a small square:
//! every bound and constant compared is below `M`, so a row or length of `M` or more answers
//! every comparison as `M` does, and the square `0..=M` by `0..=M` holds every case.
//!
//! Nothing of these rules can fail on a list of row lengths (the indices stay on the list, the
//! lengths are not negative), so the walker gives no error the table would hide; a list that is
//! no diagram is played as written. Whole-state spellings (`s = ...`) and rules for one row
//! (`s[0]`, which fails on the empty list) are not read.

use super::{CBinder, CExpr, CRule, CUpdate};
use crate::syntax::ast::{BinaryOp, UpdateOp};

/// The slot of the list state.
const STATE: usize = 0;

/// The largest constant a rule may compare with (a larger one leaves the rules to the search).
const MOST_CONSTANT: i64 = 64;

/// Whether the rules, every one, eat at cells of a diagram as Chomp does, and together at
/// every cell but (0, 0).
pub fn is_chomp(rules: &[CRule]) -> bool {
    let Some(eats) = rules.iter().map(eats).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let m = (eats.iter())
        .flat_map(|e| {
            e.guards
                .iter()
                .map(|g| bound(g))
                .chain([Some(e.rows_from), Some(e.lengths_from)])
        })
        .try_fold(0, |m, b| b.map(|b| m.max(b)))
        .filter(|&m| m <= MOST_CONSTANT);
    let Some(m) = m.map(|m| m + 1) else {
        return false;
    };
    !eats.is_empty()
        && (0..=m).all(|i| {
            (0..=m).all(|k| {
                let eaten = (eats.iter()).try_fold(false, |any, e| Some(e.allows(i, k)? || any));
                eaten == Some(i > 0 || k > 0)
            })
        })
}

/// The cells one rule eats at: rows `i >= rows_from`, lengths `k >= lengths_from` (within the
/// diagram) where every guard holds.
struct Eats<'r> {
    i: usize,
    k: usize,
    rows_from: i64,
    lengths_from: i64,
    guards: Vec<&'r CExpr>,
}

impl Eats<'_> {
    fn allows(&self, i: i64, k: i64) -> Option<bool> {
        let within = i >= self.rows_from && k >= self.lengths_from;
        let values = [(self.i, i), (self.k, k)];
        self.guards
            .iter()
            .try_fold(within, |all, g| Some(truth(g, &values)? != 0 && all))
    }
}

/// The cells a rule of Chomp's form eats at, `None` for any other rule.
fn eats(rule: &CRule) -> Option<Eats<'_>> {
    let mut binders = rule.binders.iter();
    let Some(CBinder::Range {
        slot: i,
        start,
        end,
        inclusive,
    }) = binders.next()
    else {
        return None;
    };
    let rows_from = non_negative(start)?;
    up_to(end, *inclusive, &CExpr::Len(STATE)).then_some(())?;
    let mut guards = Vec::new();
    let mut next = binders.next();
    while let Some(CBinder::Guard(g)) = next {
        guards.push(g);
        next = binders.next();
    }
    let Some(CBinder::Range {
        slot: k,
        start,
        end,
        inclusive,
    }) = next
    else {
        return None;
    };
    let lengths_from = non_negative(start)?;
    let row =
        |e: &CExpr| matches!(e, CExpr::Index { list: STATE, index, .. } if is_slot(index, *i));
    match end {
        CExpr::Arith {
            op: BinaryOp::Sub,
            left,
            right,
            ..
        } if *inclusive && row(left) && matches!(**right, CExpr::Const(1)) => {}
        end if !*inclusive && row(end) => {}
        _ => return None,
    }
    for binder in binders {
        let CBinder::Guard(g) = binder else {
            return None;
        };
        guards.push(g);
    }
    guards.extend(&rule.condition);
    let eats = Eats {
        i: *i,
        k: *k,
        rows_from,
        lengths_from,
        guards,
    };
    // Every guard reads `i` and `k` only.
    eats.allows(rows_from, lengths_from)?;
    let [CUpdate::Loop { binders, body }] = rule.updates.as_slice() else {
        return None;
    };
    shortens(binders, body, *i, *k).then_some(eats)
}

/// Whether the loop sets every row from row `i` on to `min(s[j], k)`.
fn shortens(binders: &[CBinder], body: &[CUpdate], i: usize, k: usize) -> bool {
    let (j, guard) = match binders {
        [CBinder::Range {
            slot,
            start,
            end,
            inclusive,
        }, rest @ ..]
            if is_slot(start, i) && up_to(end, *inclusive, &CExpr::Len(STATE)) =>
        {
            match rest {
                [] => (*slot, None),
                [CBinder::Guard(g)] => (*slot, Some(g)),
                _ => return false,
            }
        }
        _ => return false,
    };
    let [CUpdate::Index {
        op: UpdateOp::Assign,
        value,
        index,
        ..
    }] = body
    else {
        return false;
    };
    let row = |e: &CExpr| matches!(e, CExpr::Index { list: STATE, index, .. } if is_slot(index, j));
    let min = match value {
        CExpr::MinMax(false, a, b) => (row(a) && is_slot(b, k)) || (is_slot(a, k) && row(b)),
        _ => false,
    };
    // `s[j] > k` or `s[j] >= k`, either way round: only rows longer than `k` change.
    let longer = guard.is_some_and(|g| match g {
        CExpr::Arith {
            op, left, right, ..
        } => match op {
            BinaryOp::Gt | BinaryOp::Ge => row(left) && is_slot(right, k),
            BinaryOp::Lt | BinaryOp::Le => is_slot(left, k) && row(right),
            _ => false,
        },
        _ => false,
    });
    is_slot(index, j) && (min && (guard.is_none() || longer) || longer && is_slot(value, k))
}

/// Whether a range's `end` stops it at `last` (`..last`, or `..=last - 1`).
fn up_to(end: &CExpr, inclusive: bool, last: &CExpr) -> bool {
    let same = |e: &CExpr| matches!((e, last), (CExpr::Len(a), CExpr::Len(b)) if a == b);
    match end {
        CExpr::Arith {
            op: BinaryOp::Sub,
            left,
            right,
            ..
        } if inclusive => same(left) && matches!(**right, CExpr::Const(1)),
        end => !inclusive && same(end),
    }
}

fn is_slot(e: &CExpr, slot: usize) -> bool {
    matches!(e, CExpr::Int(s) if *s == slot)
}

fn non_negative(e: &CExpr) -> Option<i64> {
    match e {
        CExpr::Const(c) if (0..=MOST_CONSTANT).contains(c) => Some(*c),
        _ => None,
    }
}

/// The value of a guard made of comparisons of the slots `values` names with constants, by
/// `and`, `or` and `not`; `None` for anything else.
fn truth(e: &CExpr, values: &[(usize, i64)]) -> Option<i64> {
    let int = |e: &CExpr| match e {
        CExpr::Const(c) => Some(*c),
        CExpr::Int(slot) => values.iter().find(|(s, _)| s == slot).map(|&(_, v)| v),
        _ => None,
    };
    Some(match e {
        CExpr::Not(a) => i64::from(truth(a, values)? == 0),
        // Both sides read, whatever the first gives: every part of a guard must be one read.
        CExpr::And(a, b) => {
            let (a, b) = (truth(a, values)?, truth(b, values)?);
            i64::from(a != 0 && b != 0)
        }
        CExpr::Or(a, b) => {
            let (a, b) = (truth(a, values)?, truth(b, values)?);
            i64::from(a != 0 || b != 0)
        }
        CExpr::Eq(negated, a, b) => i64::from((int(a)? == int(b)?) != *negated),
        CExpr::Arith {
            op, left, right, ..
        } => {
            let (l, r) = (int(left)?, int(right)?);
            i64::from(match op {
                BinaryOp::Lt => l < r,
                BinaryOp::Le => l <= r,
                BinaryOp::Gt => l > r,
                BinaryOp::Ge => l >= r,
                _ => return None,
            })
        }
        _ => return None,
    })
}

/// The largest constant a guard compares with (at least 0), `None` past [`MOST_CONSTANT`] or
/// below `-MOST_CONSTANT`.
fn bound(e: &CExpr) -> Option<i64> {
    match e {
        CExpr::Const(c) => (c.abs() <= MOST_CONSTANT).then_some((*c).max(0)),
        CExpr::Int(_) => Some(0),
        CExpr::Not(a) => bound(a),
        CExpr::And(a, b) | CExpr::Or(a, b) | CExpr::Eq(_, a, b) => Some(bound(a)?.max(bound(b)?)),
        CExpr::Arith { left, right, .. } => Some(bound(left)?.max(bound(right)?)),
        _ => None,
    }
}
