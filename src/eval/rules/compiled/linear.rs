//! The compiled rules read as linear arithmetic, for the fast-path recognisers ([`super::heap_shape`],
//! [`super::line_shape`]): each rule becomes one or more [`LinearRule`]s, a conjunction of
//! linear inequalities over the state counters and the range binders, and its updates as affine
//! maps. Bounds and guards may use floor division by positive constants and `min` / `max` where
//! they make a conjunction (`k <= min(2, n)` is `k <= 2` and `k <= n`; `a <= (n - t) / 2` is
//! `2a <= n - t`); constant set binders are expanded, one linear rule per element, and `let`
//! binders substituted. Anything else (`%`, `!=`, `or`, `if`, products of variables...) gives
//! `None`: the recognisers then leave the game to the plain method.
//!
//! The reading is exact integer arithmetic; the rules run in 64 bits. They agree wherever no
//! intermediate value of the rules overflows, which is every heap a sequence computes: a product
//! by a constant `c` (`2 * a <= n`) can overflow only for heaps beyond `2^63 / |c|`, where the
//! rules themselves fail and a proved period still answers.

use super::{CBinder, CExpr, CRule, CUpdate};
use crate::syntax::ast::{BinaryOp, UpdateOp};

/// The most variables (counters and binders) a rule may have to be read linearly.
pub const VARS: usize = 8;

/// The most linear rules one rule may expand into (the product of its constant set binders).
pub const MAX_EXPANSION: usize = 4096;

/// `coef · x + constant`, over the variables `x`: the counters, then a rule's binders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Affine {
    pub coef: [i64; VARS],
    pub constant: i64,
}

impl Affine {
    pub fn constant(c: i64) -> Affine {
        Affine {
            constant: c,
            ..Affine::default()
        }
    }

    pub fn var(slot: usize) -> Affine {
        let mut a = Affine::default();
        a.coef[slot] = 1;
        a
    }

    pub fn is_constant(&self) -> bool {
        self.coef.iter().all(|&c| c == 0)
    }

    /// Whether only slot `slot` may have a non-zero coefficient.
    pub fn only(&self, slots: &[usize]) -> bool {
        self.coef
            .iter()
            .enumerate()
            .all(|(i, &c)| c == 0 || slots.contains(&i))
    }

    fn combine(&self, k: i64, other: &Affine) -> Option<Affine> {
        let mut out = *self;
        for (o, c) in out.coef.iter_mut().zip(other.coef) {
            *o = o.checked_add(k.checked_mul(c)?)?;
        }
        out.constant = out.constant.checked_add(k.checked_mul(other.constant)?)?;
        Some(out)
    }

    pub fn add(&self, other: &Affine) -> Option<Affine> {
        self.combine(1, other)
    }

    pub fn sub(&self, other: &Affine) -> Option<Affine> {
        self.combine(-1, other)
    }

    pub fn scale(&self, k: i64) -> Option<Affine> {
        Affine::default().combine(k, self)
    }

    pub fn plus(&self, c: i64) -> Option<Affine> {
        self.add(&Affine::constant(c))
    }

    /// Replaces slot `slot` by `by`.
    pub fn substitute(&self, slot: usize, by: &Affine) -> Option<Affine> {
        let k = self.coef[slot];
        let mut out = *self;
        out.coef[slot] = 0;
        out.combine(k, by)
    }
}

/// `floor(num / den)`, `den >= 1`.
#[derive(Clone, Copy, Debug)]
struct Floor {
    num: Affine,
    den: i64,
}

/// One reading of a rule: every binding of its range binders that satisfies `constraints`
/// (each `>= 0`) is one move, which leaves `heaps` (a heap game: the heaps after the move) or
/// `counters` (the state after the move).
#[derive(Clone, Debug)]
pub struct LinearRule {
    pub constraints: Vec<Affine>,
    /// The variables of the range binders (the counters are `0..counters`).
    pub binders: Vec<usize>,
    /// For a heap game, the heaps left; for other games, each counter after the updates.
    pub outputs: Vec<Affine>,
}

/// The linear readings of `rule` over `counters` state slots, or `None` when some part is not
/// linear. A rule may expand into several readings (its constant set binders), or none.
pub fn linear_rules(rule: &CRule, counters: usize, ints: usize) -> Option<Vec<LinearRule>> {
    if counters + rule.binders.len() > VARS {
        return None;
    }
    let mut out = Vec::new();
    // By slot: the value as an affine form over the counters and this rule's binders, which
    // are numbered from `counters` on in the order they bind.
    let mut defs: Vec<Option<Affine>> = vec![None; ints];
    for (slot, def) in defs.iter_mut().enumerate().take(counters) {
        *def = Some(Affine::var(slot));
    }
    expand(
        rule,
        0,
        counters,
        &mut defs,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut out,
    )?;
    Some(out)
}

fn expand(
    rule: &CRule,
    k: usize,
    counters: usize,
    defs: &mut [Option<Affine>],
    constraints: &mut Vec<Affine>,
    binders: &mut Vec<usize>,
    out: &mut Vec<LinearRule>,
) -> Option<()> {
    let Some(binder) = rule.binders.get(k) else {
        let mut constraints = constraints.clone();
        if let Some(condition) = &rule.condition {
            guard(condition, defs, &mut constraints)?;
        }
        let outputs = outputs(rule, counters, defs)?;
        if out.len() >= MAX_EXPANSION {
            return None;
        }
        out.push(LinearRule {
            constraints,
            binders: binders.clone(),
            outputs,
        });
        return Some(());
    };
    match binder {
        CBinder::Let { slot, value } => {
            defs[*slot] = Some(affine(value, defs)?);
            expand(rule, k + 1, counters, defs, constraints, binders, out)
        }
        CBinder::Consts { slot, items } => {
            for &x in items.iter() {
                defs[*slot] = Some(Affine::constant(x));
                expand(rule, k + 1, counters, defs, constraints, binders, out)?;
            }
            Some(())
        }
        CBinder::SetExpr { slot, items } => {
            let mut values = Vec::with_capacity(items.len());
            for item in items {
                let a = affine(item, defs)?;
                if !a.is_constant() {
                    return None;
                }
                values.push(a.constant);
            }
            values.sort_unstable();
            values.dedup();
            for x in values {
                defs[*slot] = Some(Affine::constant(x));
                expand(rule, k + 1, counters, defs, constraints, binders, out)?;
            }
            Some(())
        }
        CBinder::Range {
            slot,
            start,
            end,
            inclusive,
        } => {
            let depth = constraints.len();
            let var = counters + k;
            let x = [Floor {
                num: Affine::var(var),
                den: 1,
            }];
            compare(&terms(start, true, defs)?, &x, false, constraints)?;
            compare(&x, &terms(end, false, defs)?, !inclusive, constraints)?;
            defs[*slot] = Some(Affine::var(var));
            binders.push(var);
            let result = expand(rule, k + 1, counters, defs, constraints, binders, out);
            binders.pop();
            constraints.truncate(depth);
            result
        }
        CBinder::Box { .. } | CBinder::Guard(_) => None,
    }
}

/// The counters after the updates (a heap game: the heaps left).
fn outputs(rule: &CRule, counters: usize, defs: &[Option<Affine>]) -> Option<Vec<Affine>> {
    let mut defs = defs.to_vec();
    for update in &rule.updates {
        match update {
            CUpdate::Int {
                slot, op, value, ..
            } => {
                let v = affine(value, &defs)?;
                let old = defs[*slot]?;
                defs[*slot] = Some(match op {
                    UpdateOp::Assign => v,
                    UpdateOp::Add => old.add(&v)?,
                    UpdateOp::Sub => old.sub(&v)?,
                });
            }
            CUpdate::Split(items) => {
                return items.iter().map(|e| affine(e, &defs)).collect();
            }
            CUpdate::Index { .. }
            | CUpdate::List { .. }
            | CUpdate::Whole { .. }
            | CUpdate::Loop { .. } => return None,
        }
    }
    defs[..counters].iter().copied().collect()
}

fn affine(e: &CExpr, defs: &[Option<Affine>]) -> Option<Affine> {
    match e {
        CExpr::Const(c) => Some(Affine::constant(*c)),
        CExpr::Int(slot) => defs.get(*slot).copied().flatten(),
        CExpr::Neg(a, _) => affine(a, defs)?.scale(-1),
        CExpr::Arith {
            op, left, right, ..
        } => {
            let (l, r) = (affine(left, defs)?, affine(right, defs)?);
            match op {
                BinaryOp::Add => l.add(&r),
                BinaryOp::Sub => l.sub(&r),
                BinaryOp::Mul if l.is_constant() => r.scale(l.constant),
                BinaryOp::Mul if r.is_constant() => l.scale(r.constant),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `e` as a floor of an affine form: `(x - 1) / 2`, `(n / 2) / 3`, `n / 2 + 1`.
fn floor(e: &CExpr, defs: &[Option<Affine>]) -> Option<Floor> {
    if let Some(num) = affine(e, defs) {
        return Some(Floor { num, den: 1 });
    }
    let CExpr::Arith {
        op, left, right, ..
    } = e
    else {
        return None;
    };
    match op {
        BinaryOp::Div => {
            let d = affine(right, defs)?;
            if !d.is_constant() || d.constant < 1 {
                return None;
            }
            let inner = floor(left, defs)?;
            Some(Floor {
                num: inner.num,
                den: inner.den.checked_mul(d.constant)?,
            })
        }
        BinaryOp::Add | BinaryOp::Sub => {
            let sign = if *op == BinaryOp::Add { 1 } else { -1 };
            let (f, other, k): (Floor, Affine, i64) =
                match (floor(left, defs)?, affine(right, defs)) {
                    (f, Some(r)) => (f, r, sign),
                    _ if sign == 1 => (floor(right, defs)?, affine(left, defs)?, 1),
                    _ => return None,
                };
            Some(Floor {
                num: f.num.combine(k.checked_mul(f.den)?, &other)?,
                den: f.den,
            })
        }
        _ => None,
    }
}

/// `e` as the greatest (`max`) or least of floors.
fn terms(e: &CExpr, max: bool, defs: &[Option<Affine>]) -> Option<Vec<Floor>> {
    if let CExpr::MinMax(is_max, a, b) = e {
        if *is_max == max {
            let mut out = terms(a, max, defs)?;
            out.extend(terms(b, max, defs)?);
            return Some(out);
        }
    }
    Some(vec![floor(e, defs)?])
}

/// `max(low) <= min(high)` (`<` when `strict`), as inequalities.
fn compare(low: &[Floor], high: &[Floor], strict: bool, out: &mut Vec<Affine>) -> Option<()> {
    for l in low {
        for h in high {
            let l = if strict {
                Floor {
                    num: l.num.plus(l.den)?,
                    den: l.den,
                }
            } else {
                *l
            };
            out.push(match (l.den, h.den) {
                // l <= floor(y / d)  <=>  d l <= y
                (1, d) => h.num.sub(&l.num.scale(d)?)?,
                // floor(y / d) <= h  <=>  y <= d h + d - 1
                (d, 1) => h.num.scale(d)?.plus(d - 1)?.sub(&l.num)?,
                _ => return None,
            });
        }
    }
    Some(())
}

/// The condition as a conjunction of inequalities.
fn guard(e: &CExpr, defs: &[Option<Affine>], out: &mut Vec<Affine>) -> Option<()> {
    match e {
        CExpr::Const(c) => {
            if *c == 0 {
                out.push(Affine::constant(-1));
            }
            Some(())
        }
        CExpr::And(a, b) => {
            guard(a, defs, out)?;
            guard(b, defs, out)
        }
        CExpr::Not(inner) => match &**inner {
            CExpr::Arith {
                op, left, right, ..
            } => {
                let flipped = match op {
                    BinaryOp::Lt => BinaryOp::Ge,
                    BinaryOp::Le => BinaryOp::Gt,
                    BinaryOp::Gt => BinaryOp::Le,
                    BinaryOp::Ge => BinaryOp::Lt,
                    _ => return None,
                };
                comparison(flipped, left, right, defs, out)
            }
            CExpr::Not(x) => guard(x, defs, out),
            _ => None,
        },
        CExpr::Eq(false, a, b) => {
            comparison(BinaryOp::Le, a, b, defs, out)?;
            comparison(BinaryOp::Ge, a, b, defs, out)
        }
        CExpr::Arith {
            op, left, right, ..
        } => comparison(*op, left, right, defs, out),
        _ => None,
    }
}

fn comparison(
    op: BinaryOp,
    left: &CExpr,
    right: &CExpr,
    defs: &[Option<Affine>],
    out: &mut Vec<Affine>,
) -> Option<()> {
    let (low, high, strict) = match op {
        BinaryOp::Lt => (left, right, true),
        BinaryOp::Le => (left, right, false),
        BinaryOp::Gt => (right, left, true),
        BinaryOp::Ge => (right, left, false),
        _ => return None,
    };
    compare(
        &terms(low, true, defs)?,
        &terms(high, false, defs)?,
        strict,
        out,
    )
}
