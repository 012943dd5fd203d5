//! Line rules from the linear form ([`super::linear`]): a two-counter game each of whose rules
//! subtracts the same amount `t` from one or both counters, for every `t` from a constant up to
//! what those counters allow (`for k in 1..=min(a, b) { a -= k; b -= k }`, or
//! `for k in 1..=a if k <= b`...), described to the engine as [`LineRules`].

use super::linear::{Affine, LinearRule};
use crate::game::lines::LineRules;

/// The line rules of a two-counter game's linear rules (the counters are slots 0 and 1).
pub fn line_rules(rules: &[LinearRule]) -> Option<LineRules> {
    let lines = rules.iter().map(line).collect::<Option<Vec<_>>>()?;
    let rules = LineRules { lines };
    (rules.is_valid() && !rules.lines.is_empty()).then_some(rules)
}

fn line(rule: &LinearRule) -> Option<([bool; 2], u64)> {
    let [k] = rule.binders[..] else {
        return None;
    };
    let mut direction = [false; 2];
    let mut taken = None;
    for (i, counter) in rule.outputs.iter().enumerate() {
        let delta = Affine::var(i).sub(counter)?;
        if delta == Affine::default() {
            continue;
        }
        if !delta.only(&[k]) || taken.is_some_and(|t| t != delta) {
            return None;
        }
        taken = Some(delta);
        direction[i] = true;
    }
    let taken = taken?;
    let s = taken.coef[k];
    if s.abs() != 1 {
        return None;
    }
    // The binder from the amount taken, which then takes its slot.
    let mut by_amount = Affine::var(k).scale(s)?;
    by_amount.constant = taken.constant.checked_mul(-s)?;
    let mut from = None::<i64>;
    let mut reaches = [false; 2];
    for c in &rule.constraints {
        let c = c.substitute(k, &by_amount)?;
        if !c.only(&[0, 1, k]) {
            return None;
        }
        let g = c
            .coef
            .iter()
            .try_fold(0, |g, &x| Some(gcd(g, x.checked_abs()?)))?;
        if g == 0 {
            if c.constant < 0 {
                return None;
            }
            continue;
        }
        let (coef, constant) = (c.coef.map(|x| x / g), c.constant.div_euclid(g));
        if coef[0] == 0 && coef[1] == 0 {
            // coef[k] t + constant >= 0: only lower bounds of t.
            if coef[k] < 0 {
                return None;
            }
            from = Some(from.map_or(-constant, |f| f.max(-constant)));
        } else if coef[k] == 0 {
            // A bound on the counters alone holds for every state only if it is `x >= -c`.
            if coef[0] < 0 || coef[1] < 0 || constant < 0 {
                return None;
            }
        } else {
            let i = if coef[0] == 1 { 0 } else { 1 };
            if coef[i] != 1 || coef[1 - i] != 0 || coef[k] != -1 || constant != 0 || !direction[i] {
                return None;
            }
            reaches[i] = true;
        }
    }
    let from = from?;
    (from >= 1 && reaches == direction).then_some((direction, from as u64))
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
