//! Recognises the rules of heap games that are octal-style take-and-break moves, and describes
//! them to the engine as [`HeapRules`], so that their values are computed by its fast methods.
//!
//! Only exact shapes are recognised, each with the same options as the rule (up to repeats):
//!
//! - `for k in LO..=n { n -= k }`: take any `k >= LO` (an open take);
//! - `for k in LO..=min(C, n) { n -= k }` (or `min(n, C)`), and `for k in S if k <= n
//!   { n -= k }` with `S` a constant set, list or range: take `k` from a finite set (a range
//!   longer than [`LONGEST_TAKE_RUN`] is described as one [`TakeRange`], not take by take);
//! - `for a in 1..=n / 2 { n = [a, n - a] }` and `for a in 1..n if a < n - a { n = [a, n - a] }`
//!   (`<=` for equal heaps too): split a heap in two;
//! - `for t in LO..=min(C, n), a in A..=(n - t) / 2 { n = [a, n - t - a] }` (or `LO..=C`), with
//!   `A` 0 or 1: take `t`, then split the rest in two (with `A = 0`, also leave it whole).
//!
//! `LO` and `C` may use the parameters and globals, not the state. Any other rule, and so any
//! game with another rule, is left to the plain method.

use crate::eval::expr::Eval;
use crate::eval::value::Value;
use crate::game::heap::{HeapRules, Take, TakeRange, LONGEST_TAKE_RUN};
use crate::game::lines::LineRules;
use crate::syntax::ast::{names_read, BinaryOp, BinderKind, Expr, ExprKind, Rule, UpdateOp};

/// The most finite takes a description may list.
const MAX_TAKES: i64 = 4096;

/// The rules of a heap game on `n` as a [`HeapRules`], if every rule has a recognised shape.
/// `eval` has the parameters bound (and not the state).
pub fn heap_rules<'a>(eval: &mut Eval<'_, 'a>, n: &str, rules: &'a [Rule]) -> Option<HeapRules> {
    if eval.lookup("min").is_some() {
        return None;
    }
    let mut out = HeapRules::default();
    for rule in rules {
        let [update] = &rule.updates[..] else {
            return None;
        };
        if update.target.name != n || update.index.is_some() {
            return None;
        }
        match (update.op, &update.value.kind) {
            (UpdateOp::Sub, ExprKind::Var(k)) => take_rule(eval, n, rule, k, &mut out)?,
            (UpdateOp::Assign, ExprKind::List(parts)) if parts.len() == 2 => {
                split_rule(eval, n, rule, &parts[0], &parts[1], &mut out)?
            }
            _ => return None,
        }
    }
    (out.is_valid() && !(out.takes.is_empty() && out.ranges.is_empty())).then_some(out)
}

/// `for k in ... { n -= k }`
fn take_rule<'a>(
    eval: &mut Eval<'_, 'a>,
    n: &str,
    rule: &'a Rule,
    k: &str,
    out: &mut HeapRules,
) -> Option<()> {
    let [binder] = &rule.binders[..] else {
        return None;
    };
    if binder.kind != BinderKind::In || binder.name.name != k {
        return None;
    }
    let guarded = match &rule.condition {
        None => false,
        Some(c) if is_at_most(c, k, n) => true,
        Some(_) => return None,
    };
    let finite: Vec<i64> = match &binder.value.kind {
        ExprKind::Range {
            start,
            end: Some(end),
            inclusive: true,
        } if !mentions(start, &[n, k]) => {
            let lo = constant(eval, start)?;
            if lo < 1 {
                return None;
            }
            if is_var(end, n) {
                out.ranges.push(TakeRange {
                    lo: lo as u64,
                    hi: None,
                });
                return Some(());
            }
            let hi = match min_with(end, n) {
                Some(c) if !mentions(c, &[n, k]) => constant(eval, c)?,
                _ if guarded && !mentions(end, &[n, k]) => constant(eval, end)?,
                _ => return None,
            };
            return take_run(lo, hi, out);
        }
        _ if guarded && !mentions(&binder.value, &[n, k]) => {
            match eval.eval(&binder.value).ok()? {
                Value::Set(items) => items.to_vec(),
                Value::Range {
                    start,
                    last: Some(last),
                } if start >= 1 => return take_run(start, last, out),
                Value::List(items) => items
                    .iter()
                    .map(|v| match v {
                        Value::Int(x) => Some(*x),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
                _ => return None,
            }
        }
        _ => return None,
    };
    if finite.len() as i64 > MAX_TAKES || finite.iter().any(|&s| s < 1) {
        return None;
    }
    out.takes.extend(finite.into_iter().map(|s| Take {
        take: s as u64,
        none: true,
        one: true,
        two: false,
        unequal: false,
    }));
    Some(())
}

/// Take any `k` in `lo..=hi` (`lo >= 1`), as single takes when they are few, else as a range.
fn take_run(lo: i64, hi: i64, out: &mut HeapRules) -> Option<()> {
    if lo < 1 {
        return None;
    }
    if hi < lo {
        return Some(());
    }
    if (hi - lo) as usize >= LONGEST_TAKE_RUN {
        out.ranges.push(TakeRange {
            lo: lo as u64,
            hi: Some(hi as u64),
        });
        return Some(());
    }
    out.takes.extend((lo..=hi).map(|s| Take {
        take: s as u64,
        none: true,
        one: true,
        two: false,
        unequal: false,
    }));
    Some(())
}

/// `for ... { n = [x, y] }`
fn split_rule<'a>(
    eval: &mut Eval<'_, 'a>,
    n: &str,
    rule: &'a Rule,
    x: &Expr,
    y: &Expr,
    out: &mut HeapRules,
) -> Option<()> {
    match &rule.binders[..] {
        [a] => {
            // Split without taking: the pair is `a, n - a`.
            let name = a.name.name.as_str();
            if a.kind != BinderKind::In || !is_pair(x, y, name, |e| is_var(e, n)) {
                return None;
            }
            let ExprKind::Range {
                start,
                end: Some(end),
                inclusive,
            } = &a.value.kind
            else {
                return None;
            };
            if !is_int(start, 1) {
                return None;
            }
            let unequal = match (&rule.condition, inclusive) {
                // 1..=n / 2
                (None, true) if is_half(end, |e| is_var(e, n)) => false,
                // 1..n if a < n - a, or a <= n - a
                (Some(c), false) if is_var(end, n) => match &c.kind {
                    ExprKind::Binary(op @ (BinaryOp::Lt | BinaryOp::Le), l, r)
                        if is_var(l, name) && is_sub(r, |e| is_var(e, n), name) =>
                    {
                        *op == BinaryOp::Lt
                    }
                    _ => return None,
                },
                _ => return None,
            };
            out.takes.push(Take {
                take: 0,
                none: false,
                one: false,
                two: true,
                unequal,
            });
            Some(())
        }
        [t, a] => {
            // Take `t`, then split: the pair is `a, n - t - a`.
            let (tn, an) = (t.name.name.as_str(), a.name.name.as_str());
            if t.kind != BinderKind::In
                || a.kind != BinderKind::In
                || rule.condition.is_some()
                || !is_pair(x, y, an, |e| is_sub(e, |e| is_var(e, n), tn))
            {
                return None;
            }
            let ExprKind::Range {
                start: t_start,
                end: Some(t_end),
                inclusive: true,
            } = &t.value.kind
            else {
                return None;
            };
            let ExprKind::Range {
                start: a_start,
                end: Some(a_end),
                inclusive: true,
            } = &a.value.kind
            else {
                return None;
            };
            if mentions(t_start, &[n, tn, an])
                || !is_half(a_end, |e| is_sub(e, |e| is_var(e, n), tn))
            {
                return None;
            }
            let whole = if is_int(a_start, 0) {
                true
            } else if is_int(a_start, 1) {
                false
            } else {
                return None;
            };
            let lo = constant(eval, t_start)?;
            let c = match min_with(t_end, n) {
                Some(c) => c,
                None => t_end,
            };
            if mentions(c, &[n, tn, an]) {
                return None;
            }
            let hi = constant(eval, c)?;
            // Taking nothing and leaving the heap whole would be a move to itself.
            if lo < if whole { 1 } else { 0 } || hi.saturating_sub(lo) > MAX_TAKES {
                return None;
            }
            out.takes.extend((lo..=hi).map(|t| Take {
                take: t as u64,
                none: whole,
                one: whole,
                two: true,
                unequal: false,
            }));
            Some(())
        }
        _ => None,
    }
}

fn constant<'a>(eval: &mut Eval<'_, 'a>, expr: &'a Expr) -> Option<i64> {
    match eval.eval(expr).ok()? {
        Value::Int(x) => Some(x),
        _ => None,
    }
}

fn is_var(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Var(v) if v == name)
}

fn is_int(e: &Expr, value: i64) -> bool {
    matches!(e.kind, ExprKind::Int(v) if v == value)
}

/// `left - name`
fn is_sub(e: &Expr, left: impl Fn(&Expr) -> bool, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Binary(BinaryOp::Sub, l, r) if left(l) && is_var(r, name))
}

/// `inner / 2`
fn is_half(e: &Expr, inner: impl Fn(&Expr) -> bool) -> bool {
    matches!(&e.kind, ExprKind::Binary(BinaryOp::Div, l, r) if inner(l) && is_int(r, 2))
}

/// `[a, rest - a]` or `[rest - a, a]`
fn is_pair(x: &Expr, y: &Expr, a: &str, rest: impl Fn(&Expr) -> bool) -> bool {
    (is_var(x, a) && is_sub(y, &rest, a)) || (is_var(y, a) && is_sub(x, &rest, a))
}

/// `k <= n` or `n >= k`
fn is_at_most(c: &Expr, k: &str, n: &str) -> bool {
    match &c.kind {
        ExprKind::Binary(BinaryOp::Le, l, r) => is_var(l, k) && is_var(r, n),
        ExprKind::Binary(BinaryOp::Ge, l, r) => is_var(l, n) && is_var(r, k),
        _ => false,
    }
}

/// For `min(c, n)` or `min(n, c)`, the expression `c`.
fn min_with<'e>(e: &'e Expr, n: &str) -> Option<&'e Expr> {
    let ExprKind::Call { callee, args } = &e.kind else {
        return None;
    };
    match &args[..] {
        [a, b] if is_var(callee, "min") => {
            if is_var(b, n) {
                Some(a)
            } else if is_var(a, n) {
                Some(b)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether `e` uses any of the names.
fn mentions(e: &Expr, names: &[&str]) -> bool {
    let any = |es: &[Expr]| es.iter().any(|e| mentions(e, names));
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) => false,
        ExprKind::Var(v) => names.contains(&v.as_str()),
        ExprKind::List(items) | ExprKind::Set(items) => any(items),
        ExprKind::Unary(_, x) => mentions(x, names),
        ExprKind::Binary(_, l, r) => mentions(l, names) || mentions(r, names),
        ExprKind::Range { start, end, .. } => {
            mentions(start, names) || end.as_ref().is_some_and(|e| mentions(e, names))
        }
        ExprKind::If {
            condition,
            then,
            otherwise,
        } => mentions(condition, names) || mentions(then, names) || mentions(otherwise, names),
        ExprKind::Call { callee, args } => mentions(callee, names) || any(args),
        ExprKind::Index { target, args } => mentions(target, names) || any(args),
        ExprKind::Comprehension { .. } => names_read([e]).iter().any(|n| names.contains(n)),
    }
}

/// The rules of a game on two counters as a [`LineRules`], if every rule has the shape
/// `for k in LO..=HI { x -= k }` or `for k in LO..=HI { x -= k; y -= k }`, with `HI` the
/// counter (`x`) or the least of the two (`min(x, y)`), and `LO` a constant.
pub fn line_rules<'a>(
    eval: &mut Eval<'_, 'a>,
    names: &[&str],
    rules: &'a [Rule],
) -> Option<LineRules> {
    if names.len() != 2 || eval.lookup("min").is_some() {
        return None;
    }
    let mut lines = Vec::new();
    for rule in rules {
        let [binder] = &rule.binders[..] else {
            return None;
        };
        let k = binder.name.name.as_str();
        if binder.kind != BinderKind::In || rule.condition.is_some() {
            return None;
        }
        let mut direction = [false; 2];
        for update in &rule.updates {
            let i = names.iter().position(|n| *n == update.target.name)?;
            if direction[i]
                || update.index.is_some()
                || update.op != UpdateOp::Sub
                || !is_var(&update.value, k)
            {
                return None;
            }
            direction[i] = true;
        }
        let ExprKind::Range {
            start,
            end: Some(end),
            inclusive: true,
        } = &binder.value.kind
        else {
            return None;
        };
        if mentions(start, &[names[0], names[1], k]) {
            return None;
        }
        let high_ok = match direction {
            [true, false] => is_var(end, names[0]),
            [false, true] => is_var(end, names[1]),
            [true, true] => matches!(&end.kind, ExprKind::Call { callee, args }
                if is_var(callee, "min") && args.len() == 2
                    && ((is_var(&args[0], names[0]) && is_var(&args[1], names[1]))
                        || (is_var(&args[0], names[1]) && is_var(&args[1], names[0])))),
            [false, false] => false,
        };
        let from = constant(eval, start)?;
        if !high_ok || from < 1 {
            return None;
        }
        lines.push((direction, from as u64));
    }
    let rules = LineRules { lines };
    (rules.is_valid() && !rules.lines.is_empty()).then_some(rules)
}
