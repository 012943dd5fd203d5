//! Line rules from the linear form ([`super::linear`]): a two-counter game each of whose rules
//! subtracts the same amount `t` from one or both counters, for every `t` from a constant up to
//! what those counters allow (`for k in 1..=min(a, b) { a -= k; b -= k }`, or
//! `for k in 1..=a if k <= b`...), described to the engine as [`LineRules`].

use super::linear::{Affine, LinearRule};
use crate::game::vocabulary::LineRules;

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
    // The amount taken from each counter, which must be one amount `t` for every counter the rule
    // takes from; `t` then replaces the binder (an integer change: the binder is `±t` plus the
    // rest).
    let taken: Vec<Affine> = (0..2)
        .map(|i| Affine::var(i).sub(&rule.outputs[i]))
        .collect::<Option<_>>()?;
    let direction = [0, 1].map(|i| taken[i] != Affine::default());
    let first = taken[(0..2).find(|&i| direction[i])?];
    let s = first.coef[k];
    if s.abs() != 1 {
        return None;
    }
    let mut rest = first;
    rest.coef[k] = 0;
    let by_amount = Affine::var(k).sub(&rest)?.scale(s)?;
    for i in (0..2).filter(|&i| direction[i]) {
        if taken[i].substitute(k, &by_amount)? != Affine::var(k) {
            return None;
        }
    }
    let mut from = None::<i64>;
    let mut reaches = [false; 2];
    let mut implied = Vec::new();
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
        } else if coef[k] > 0 {
            return None;
        } else {
            match (0..2).find(|&i| coef[i] == 1 && coef[1 - i] == 0) {
                // x - t >= 0 for a counter x the rule takes from: the line's reach.
                Some(i) if coef[k] == -1 && constant == 0 && direction[i] => reaches[i] = true,
                _ => implied.push((coef, constant)),
            }
        }
    }
    // The other bounds must follow from the reaches, the counters being >= 0.
    for (coef, constant) in implied {
        let by_a_reach = (0..2).any(|i| reaches[i] && coef[i] + coef[k] >= 0);
        if constant < 0 || coef[0] < 0 || coef[1] < 0 || !by_a_reach {
            return None;
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
