//! Heap rules from the linear form ([`super::linear`]): which rules of a heap game are
//! octal-style take-and-break moves, described to the engine as [`HeapRules`].
//!
//! A linear rule is recognised when it leaves one heap `r`, or two heaps `a` and `r - a`, and
//! its variables (the heap `n` and the binders) change to `(r, a, t)`, `t = n - r` the tokens
//! taken, by an integer change both ways (so that each binding is one point, and `t` is a
//! constant when there is no binder left for it); then every constraint
//! must bound `t` alone or `(r, a)` alone. The `t`-constraints give the takes; the
//! `(r, a)`-constraints say, for each rest `r`, which `a` are bound, and so whether the move may
//! leave nothing (`r = 0`), one heap (`a = 0`), two heaps, and whether they must differ. That is
//! decided for every `r` by checking the `r` below a bound past which every bound involved is a
//! floor of a line ordered the same way, so that the answer repeats with the period of their
//! denominators ([`check_bound`]). Spellings of the same moves (`min(2, n)` or `if t <= n`,
//! `1..=(n - 1) / 2` or `1..n if a < n - a`, splits in both orders) give the same description;
//! anything else gives `None`, and the game keeps the plain method.

use super::linear::{Affine, LinearRule};
use crate::game::vocabulary::{HeapRules, Take, TakeRange, LONGEST_TAKE_RUN};

/// The most finite takes one rule may describe.
const MAX_TAKES: i64 = 4096;

/// The largest rest the check may need to look at.
const MAX_CHECK: i64 = 1 << 16;

/// The most rests all the checks of one game may look at together.
const MAX_WORK: i64 = 1 << 22;

/// The heap rules of a heap game's linear rules (`n` is slot 0), if every rule is recognised.
pub fn heap_rules(rules: &[LinearRule]) -> Option<HeapRules> {
    let mut out = HeapRules::default();
    let mut work = 0;
    for rule in rules {
        classify(rule, &mut work, &mut out)?;
    }
    (out.is_valid() && !(out.takes.is_empty() && out.ranges.is_empty())).then_some(out)
}

/// An inequality over the rest `r` and the first part `a`: `r_coef r + a_coef a + constant >= 0`.
#[derive(Clone, Copy, Debug)]
struct RestBound {
    r_coef: i64,
    a_coef: i64,
    constant: i64,
}

fn classify(rule: &LinearRule, work: &mut i64, out: &mut HeapRules) -> Option<()> {
    let heaps: Vec<Affine> = rule
        .outputs
        .iter()
        .filter(|h| **h != Affine::constant(0))
        .copied()
        .collect();
    if heaps.is_empty() {
        return take_whole(rule, out);
    }
    if heaps.len() > 2 || heaps.iter().any(Affine::is_constant) {
        return None;
    }
    let split = heaps.len() == 2;
    let k = rule.binders.len();
    if k + 1 != heaps.len() && k != heaps.len() {
        return None;
    }
    let rest = heaps
        .iter()
        .try_fold(Affine::default(), |acc, h| acc.add(h))?;
    // The coordinates: r, then a (a split), then t (when it is not a constant).
    let mut rows = vec![rest];
    if split {
        rows.push(heaps[0]);
    }
    let t_free = k == heaps.len();
    if t_free {
        rows.push(Affine::var(0).sub(&rest)?);
    }
    let vars: Vec<usize> = std::iter::once(0)
        .chain(rule.binders.iter().copied())
        .collect();
    let by_coords = invert(&rows, &vars)?;
    let in_coords = |e: &Affine| -> Option<Affine> {
        if !e.only(&vars) {
            return None;
        }
        vars.iter()
            .zip(&by_coords)
            .try_fold(Affine::constant(e.constant), |acc, (&v, x)| {
                acc.add(&x.scale(e.coef[v])?)
            })
    };
    let (r, a, t) = (0, 1, rows.len() - 1);
    let (mut t_lo, mut t_hi) = (None::<i64>, None::<i64>);
    if !t_free {
        let taken = in_coords(&Affine::var(0).sub(&rest)?)?;
        if !taken.is_constant() {
            return None;
        }
        (t_lo, t_hi) = (Some(taken.constant), Some(taken.constant));
    }
    let mut bounds = Vec::new();
    for c in &rule.constraints {
        let c = in_coords(c)?;
        if c.is_constant() {
            if c.constant < 0 {
                return Some(()); // never satisfied: no moves
            }
        } else if t_free && c.only(&[t]) {
            tighten(c.coef[t], c.constant, &mut t_lo, &mut t_hi);
        } else if t_free && c.coef[t] != 0 {
            return None;
        } else {
            bounds.push(RestBound {
                r_coef: c.coef[r],
                a_coef: if split { c.coef[a] } else { 0 },
                constant: c.constant,
            });
        }
    }
    let lo = t_lo?;
    if t_hi.is_some_and(|hi| hi < lo) {
        return Some(());
    }
    if lo < 0 {
        return None;
    }
    let bound = check_bound(&bounds)?;
    *work += bound;
    if *work > MAX_WORK {
        return None;
    }
    let reach = t_hi.map_or(bound, |hi| hi.min(bound));
    if (-reach..0).any(|r| parts(&bounds, r, split) != Parts::None) {
        return None; // a move would leave a negative heap
    }
    let flags = if split {
        split_flags(&bounds, bound)?
    } else {
        heap_flags(&bounds, bound)?
    };
    if !(flags.none || flags.one || flags.two) {
        return Some(());
    }
    emit(lo, t_hi, flags, split, out)
}

/// A rule that leaves no heap (`n = 0`), without binders: it takes the whole heap when the heap
/// is in a finite range.
fn take_whole(rule: &LinearRule, out: &mut HeapRules) -> Option<()> {
    if !rule.binders.is_empty() {
        return None;
    }
    let (mut lo, mut hi) = (Some(0), None);
    for c in &rule.constraints {
        if !c.only(&[0]) {
            return None;
        }
        if c.is_constant() {
            if c.constant < 0 {
                return Some(());
            }
        } else {
            tighten(c.coef[0], c.constant, &mut lo, &mut hi);
        }
    }
    match (lo?, hi?) {
        (lo, hi) if hi < lo => Some(()),
        (lo, hi) => emit(lo, Some(hi), flags(true, false, false, false), false, out),
    }
}

/// Narrows `lo..=hi` by `beta x + gamma >= 0` (`beta != 0`).
fn tighten(beta: i64, gamma: i64, lo: &mut Option<i64>, hi: &mut Option<i64>) {
    let (beta, gamma) = (beta as i128, gamma as i128);
    if beta > 0 {
        let bound = saturate(ceil_div(-gamma, beta));
        *lo = Some(lo.map_or(bound, |x| x.max(bound)));
    } else {
        let bound = saturate(floor_div(gamma, -beta));
        *hi = Some(hi.map_or(bound, |x| x.min(bound)));
    }
}

fn emit(lo: i64, hi: Option<i64>, flags: Take, split: bool, out: &mut HeapRules) -> Option<()> {
    let whole = flags.none && flags.one && !flags.two;
    match hi {
        None if whole => out.ranges.push(TakeRange {
            lo: lo as u64,
            hi: None,
        }),
        None => return None,
        Some(hi) if whole && !split && (hi - lo) as usize >= LONGEST_TAKE_RUN => {
            out.ranges.push(TakeRange {
                lo: lo as u64,
                hi: Some(hi as u64),
            })
        }
        Some(hi) if hi - lo < MAX_TAKES => out.takes.extend((lo..=hi).map(|t| Take {
            take: t as u64,
            ..flags
        })),
        Some(_) => return None,
    }
    Some(())
}

/// What a rule binds at one rest: nothing, or (for one heap) the heap, or (for a split) the
/// least and greatest `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parts {
    None,
    Heap,
    Range(i64, i64),
}

fn parts(bounds: &[RestBound], r: i64, split: bool) -> Parts {
    let (mut low, mut high) = (i64::MIN, i64::MAX);
    for b in bounds {
        // a_coef a >= -(r_coef r + constant)
        let rhs = -(b.r_coef as i128 * r as i128 + b.constant as i128);
        let a = b.a_coef as i128;
        if a == 0 {
            if rhs > 0 {
                return Parts::None;
            }
        } else if a > 0 {
            low = low.max(saturate(ceil_div(rhs, a)));
        } else {
            high = high.min(saturate(floor_div(-rhs, -a)));
        }
    }
    match split {
        false => Parts::Heap,
        true if low > high => Parts::None,
        true => Parts::Range(low, high),
    }
}

/// `x` as an `i64`, the nearest end when it is out of range (a bound that far out fails the
/// checks it meets: parts within `0..=r`, rests within the check).
fn saturate(x: i128) -> i64 {
    x.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

fn floor_div(x: i128, d: i128) -> i128 {
    x.div_euclid(d)
}

fn ceil_div(x: i128, d: i128) -> i128 {
    -(-x).div_euclid(d)
}

/// A rest past which the answers of [`parts`] (and the flags compared with them) repeat with the
/// period of the denominators, plus two such periods: every quantity involved is within one of a
/// line `s r + c` with `|c| <= C` and `s` a fraction over `D`, so that lines of different slopes
/// are at least 3 apart (and keep their order) once `r >= (2C + 3) D^2`, and lines of one slope
/// give answers of period `D`. `None` when that is beyond [`MAX_CHECK`].
fn check_bound(bounds: &[RestBound]) -> Option<i64> {
    let c = bounds
        .iter()
        .map(|b| b.constant.unsigned_abs() as i128)
        .max()
        .unwrap_or(0)
        + 2;
    let mut d: i128 = 2;
    for b in bounds {
        let g = b.a_coef.unsigned_abs() as i128;
        if g > 0 {
            d = d / gcd(d, g) * g;
            if d > MAX_CHECK as i128 {
                return None;
            }
        }
    }
    let bound = (2 * c + 3) * d * d + 2 * d;
    (bound <= MAX_CHECK as i128).then_some(bound as i64)
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn flags(none: bool, one: bool, two: bool, unequal: bool) -> Take {
    Take {
        take: 0,
        none,
        one,
        two,
        three: false,
        unequal,
    }
}

/// One heap left: the move may empty the heap (`r = 0`), leave one (`r >= 1`), or both.
fn heap_flags(bounds: &[RestBound], bound: i64) -> Option<Take> {
    let at = |r| parts(bounds, r, false) == Parts::Heap;
    let (none, one) = (at(0), at(1));
    (2..=bound)
        .all(|r| at(r) == one)
        .then(|| flags(none, one, false, false))
}

/// Two heaps `a` and `r - a`: which pairs the bound `a` give, folded to the smaller part.
fn split_flags(bounds: &[RestBound], bound: i64) -> Option<Take> {
    let mut folded = Vec::with_capacity(bound as usize + 1);
    for r in 0..=bound {
        folded.push(match parts(bounds, r, true) {
            Parts::Range(low, high) if low < 0 || high > r => return None,
            Parts::Range(low, high) => Some((low.min(r - high), high.min(r - low).min(r / 2))),
            _ => None,
        });
    }
    let none = folded[0].is_some();
    let candidates = [
        (true, 0),
        (true, 1),
        (true, 2),
        (false, 0),
        (false, 1),
        (false, 2),
    ];
    candidates.into_iter().find_map(|(one, two)| {
        let expected = |r: i64| {
            let lo = if one { 0 } else { 1 };
            let hi = match two {
                0 => 0,
                1 => r / 2,
                _ => (r - 1) / 2,
            };
            (lo <= hi && (one || two != 0)).then_some((lo, hi))
        };
        (1..=bound)
            .all(|r| folded[r as usize] == expected(r))
            .then(|| flags(none, one, two != 0, two == 2))
    })
}

/// The variables `vars` (as affine forms over the coordinates `0..rows.len()`) from the
/// coordinates `rows` (affine forms over `vars`), when the change is integral both ways.
fn invert(rows: &[Affine], vars: &[usize]) -> Option<Vec<Affine>> {
    let n = rows.len();
    if n != vars.len() || n > 3 {
        return None;
    }
    let m: Vec<Vec<i64>> = rows
        .iter()
        .map(|row| vars.iter().map(|&v| row.coef[v]).collect())
        .collect();
    if rows.iter().any(|row| !row.only(vars)) {
        return None;
    }
    let det = determinant(&m)?;
    if det.abs() != 1 {
        return None;
    }
    // inverse = adjugate / det; x = inverse (coords - offsets).
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let mut x = Affine::default();
        for (j, row) in rows.iter().enumerate() {
            let minor: Vec<Vec<i64>> = (0..n)
                .filter(|&r| r != j)
                .map(|r| (0..n).filter(|&c| c != i).map(|c| m[r][c]).collect())
                .collect();
            let sign = if (i + j) % 2 == 0 { det } else { -det };
            let cofactor = determinant(&minor)?.checked_mul(sign)?;
            x.coef[j] = cofactor;
            x.constant = x
                .constant
                .checked_sub(cofactor.checked_mul(row.constant)?)?;
        }
        out.push(x);
    }
    Some(out)
}

fn determinant(m: &[Vec<i64>]) -> Option<i64> {
    match m.len() {
        0 => Some(1),
        1 => Some(m[0][0]),
        n => (0..n).try_fold(0i64, |acc, c| {
            let minor: Vec<Vec<i64>> = m[1..]
                .iter()
                .map(|row| (0..n).filter(|&j| j != c).map(|j| row[j]).collect())
                .collect();
            let sign = if c % 2 == 0 { 1 } else { -1 };
            acc.checked_add(
                m[0][c]
                    .checked_mul(determinant(&minor)?)?
                    .checked_mul(sign)?,
            )
        }),
    }
}
