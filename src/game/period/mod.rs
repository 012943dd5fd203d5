//! Periodicity of the Grundy values of heap games, and the theorems that prove it.

pub mod arithmetic;

use super::vocabulary::{Period, Structure};

/// The periodicity theorem of Guy and Smith carried to games whose moves leave up to three
/// heaps (hexadecimal codes), as [`Structure::proof_needs`] applies it.
///
/// **Statement.** Let `t` be the largest take, `p >= 1`, `n0 >= 0` and `n1 = max(n0, 1)`. If
/// `G(n + p) = G(n)` for every `n` with `n0 <= n < N`, where `N = 3 n1 + 2p + t`, then it holds
/// for every `n >= n0`. The check reads the values of heaps `0..N + p`, that is
/// `3 (n1 + p) + t` values.
///
/// **Proof.** By induction on `m >= N`: suppose `G(n + p) = G(n)` for `n0 <= n < m`; we show
/// that heaps `m + p` and `m` have the same set of option values. Fix a take `j <= t`, and let
/// `R = m + p - j` and `r = m - j` be what is left. *No heap or one heap:* `R = 0` never happens
/// (`R >= N + p - t > 0`) and neither does `r = 0` (`r >= N - t > 0`), so both leave one heap or
/// neither does, with `G(R) = G(r + p) = G(r)` since `n0 <= r < m`. *Two heaps* `a <= b`,
/// `a + b = R`: then `b >= R / 2 >= (3 n1 + 3p) / 2 >= n1 + p`, so `(a, b - p)` is a split of
/// `r` into non-empty heaps, of the same value (`n0 <= b - p < m`). Conversely a split
/// `a <= b` of `r` has `b >= r / 2 >= n1`, and `(a, b + p)` splits `R`, of the same value
/// (`n0 <= b < m`). *Three heaps* `a <= b <= c`, `a + b + c = R`: then `c >= R / 3 >= n1 + p`
/// (as `R >= 3 n1 + 3p`), so `(a, b, c - p)` splits `r` into three non-empty heaps, of the same
/// value (`n0 <= c - p <= R - 2 - p < m`). Conversely a split `a <= b <= c` of `r` has
/// `c >= r / 3 >= n1 + 2p / 3 >= n0` and `c <= r - 2 < m`, and `(a, b, c + p)` splits `R`, of
/// the same value. Both maps keep the value of the option, so the sets of option values are
/// equal, and so are the mexes. (`n1` and not `n0` makes the heaps left non-empty when
/// `n0 = 0`; the two-heap case needs only `m >= 2 n1 + p + j`, which `m >= N` gives.)
pub const THREE_HEAP_THEOREM: &str =
    "the periodicity theorem of Guy and Smith, carried to moves that leave three heaps";

impl Structure {
    /// How many values must repeat for the theorem that applies to prove `period`, and the
    /// theorem's name; `None` when no theorem applies.
    pub fn proof_needs(&self, period: &Period) -> Option<(usize, &'static str)> {
        if let Structure::TakeAnyOrSplit { splits } = self {
            return arithmetic::needs(period, splits).map(|needed| (needed, arithmetic::THEOREM));
        }
        if period.saltus != 0 {
            return None;
        }
        let (n0, p) = (period.preperiod, period.period);
        match self {
            Structure::Subtraction { largest } => Some((
                n0.saturating_add(p).saturating_add(*largest),
                "a subtraction game repeats once as many consecutive values repeat as its largest take",
            )),
            Structure::Octal { digits } if self.splits_in_three() => Some((
                (n0.max(1).saturating_add(p))
                    .saturating_mul(3)
                    .saturating_add(digits.len() - 1),
                THREE_HEAP_THEOREM,
            )),
            Structure::Octal { digits } => Some((
                (n0.saturating_add(p))
                    .saturating_mul(2)
                    .saturating_add(digits.len() - 1),
                "the periodicity theorem for octal games (Guy and Smith)",
            )),
            Structure::Nim | Structure::Unknown | Structure::TakeAnyOrSplit { .. } => None,
        }
    }
}

/// The shortest period without saltus that the theorem for `structure` proves from `values`,
/// with a preperiod from which it holds (not always the shortest) and the theorem's name.
///
/// For each period `p`, how far back from the end `G(n + p) = G(n)` holds is the Z-function of
/// the values read backwards at `p` (the longest common prefix of the reversed values and the
/// same shifted by `p`), so every period is tried in one linear pass, holding a `u32` for each
/// period tried ([`certified_bytes`]). The preperiod given is the largest from which the theorem
/// proves the period (or the end of the values), as a walk back from the end would find it.
/// Walking back for each period instead is quadratic when the values almost repeat with a
/// short period, with rare exceptions, as the long preperiods of octal games do.
pub fn certified<T: Copy + PartialEq>(
    values: &[T],
    structure: &Structure,
) -> Option<(Period, &'static str)> {
    let len = values.len();
    let plain = |preperiod, period| Period {
        preperiod,
        period,
        saltus: 0,
    };
    // The periods a theorem may prove: what it needs only grows with the period.
    let most = (1..=len / 2)
        .take_while(|&p| {
            structure
                .proof_needs(&plain(0, p))
                .is_some_and(|(n, _)| n <= len)
        })
        .last()?;
    let back = |i: usize| values[len - 1 - i];
    // `z[i]`: how many values from the end on equal those `i` places before them.
    let mut z = vec![0u32; most + 1];
    let (mut left, mut right) = (0, 0);
    for p in 1..=most {
        let mut k = if p < right {
            (z[p - left] as usize).min(right - p)
        } else {
            0
        };
        while p + k < len && back(k) == back(p + k) {
            k += 1;
        }
        z[p] = k as u32;
        if p + k > right {
            (left, right) = (p, p + k);
        }
        // The values repeat with period `p` from `len - p - k` on: the first preperiod, walking
        // back from the end, from which the theorem proves it.
        let reached = len - p - k;
        let (at_end, theorem) = structure.proof_needs(&plain(len - p, p))?;
        if at_end <= len {
            return Some((plain(len - p, p), theorem));
        }
        let (needed, _) = structure.proof_needs(&plain(reached, p))?;
        if needed <= len {
            // The largest preperiod at least `reached` that the theorem's bound allows.
            let (mut lo, mut hi) = (reached, len - p);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                match structure.proof_needs(&plain(mid, p))? {
                    (n, _) if n <= len => lo = mid,
                    _ => hi = mid,
                }
            }
            return Some((plain(lo, p), theorem));
        }
    }
    None
}

/// The bytes [`certified`] holds while it runs on `len` values.
pub fn certified_bytes(len: usize) -> usize {
    4 * (len / 2 + 1)
}

/// The shortest period (then the shortest preperiod) that the values show, with a constant
/// saltus, held over a stretch longer than the preperiod plus [`APPARENT_PERIODS`] periods (so
/// that runs that double in length, say, never pass for a period). A period with a
/// saltus gives way to a longer one without a saltus that starts earlier: values such as
/// `0 0 0 0 0 1 1 1 1 1 2 2 2 2 2 3`, repeated, end in what looks like period 5, saltus 1.
/// Linear in the number of values.
pub fn find(values: &[u64]) -> Option<Period> {
    let repeats = repeating_tails(values);
    let found = find_from(values, &repeats, 1)?;
    if found.saltus != 0 {
        let mut p = found.period + 1;
        while let Some(plain) = find_from(values, &repeats, p) {
            if plain.saltus == 0 && plain.preperiod < found.preperiod {
                return Some(plain);
            }
            p = plain.period + 1;
        }
    }
    Some(found)
}

/// For each shift `p`, how many of the last steps `values[i + 1] - values[i]` equal the step
/// `p` places later (the Z-function of the steps read backwards): `values[i + p] - values[i]` is
/// the same for the last `repeats[p] + 1` values of `i`.
fn repeating_tails(values: &[u64]) -> Vec<usize> {
    let steps: Vec<i128> = values
        .windows(2)
        .rev()
        .map(|w| w[1] as i128 - w[0] as i128)
        .collect();
    z_function(&steps)
}

/// For each `i`, the length of the longest common prefix of `items` and `items[i..]` (0 at
/// `i = 0`); at least one entry.
fn z_function<T: PartialEq>(items: &[T]) -> Vec<usize> {
    let n = items.len();
    let mut z = vec![0; n.max(1)];
    let (mut left, mut right) = (0, 0);
    for i in 1..n {
        let mut k = if i < right {
            z[i - left].min(right - i)
        } else {
            0
        };
        while i + k < n && items[k] == items[i + k] {
            k += 1;
        }
        z[i] = k;
        if i + k > right {
            (left, right) = (i, i + k);
        }
    }
    z
}

/// The shortest period (then the shortest preperiod) with which the values repeat exactly,
/// `values[n + period] == values[n]` from the preperiod on, held as long as [`find`] asks of a
/// period; for values that are not numbers, such as the generalized values of a loopy game
/// (the saltus is 0). Linear in the number of values.
pub fn find_repeating<T: PartialEq>(values: &[T]) -> Option<Period> {
    let reversed: Vec<&T> = values.iter().rev().collect();
    // `repeats[p]`: how many of the last values equal the value `p` places before each.
    let repeats = z_function(&reversed);
    let len = values.len();
    (1..=len / 3).find_map(|p| {
        let n0 = len - p - repeats[p].min(len - p);
        let stretch = len - n0;
        let held = stretch >= 3 * p.max(4) && stretch > n0 + APPARENT_PERIODS * p;
        held.then_some(Period {
            preperiod: n0,
            period: p,
            saltus: 0,
        })
    })
}

/// How many whole periods beyond its preperiod an apparent period must have held.
pub const APPARENT_PERIODS: usize = 3;

fn find_from(values: &[u64], repeats: &[usize], shortest: usize) -> Option<Period> {
    let len = values.len();
    for p in shortest..=len / 3 {
        let last = len - 1;
        let Some(saltus) = values[last].checked_sub(values[last - p]) else {
            continue;
        };
        let n0 = last - p - repeats[p].min(last - p);
        let stretch = len - n0;
        if stretch >= 3 * p.max(4) && stretch > n0 + APPARENT_PERIODS * p {
            return Some(Period {
                preperiod: n0,
                period: p,
                saltus,
            });
        }
    }
    None
}

/// The least period of values known to follow `proved` from its preperiod on, with the least
/// preperiod for it: every eventual (arithmetic) period is a multiple of the least one, so the
/// divisors of the period are tried over one period, then the preperiod is walked back.
/// `values` must hold at least the first `preperiod + period` values.
pub fn least<T: Copy + Into<u64>>(values: &[T], proved: &Period) -> Period {
    let value = |n: usize| extend(values, proved, n as u64);
    let (n0, p) = (proved.preperiod, proved.period);
    let follows = |d: usize, saltus: u64, n: usize| {
        value(n + d).is_some_and(|v| Some(v) == value(n).and_then(|u| u.checked_add(saltus)))
    };
    let shortest = (1..p)
        .filter(|d| p.is_multiple_of(*d) && proved.saltus.is_multiple_of((p / d) as u64))
        .map(|d| (d, proved.saltus / (p / d) as u64))
        .find(|&(d, saltus)| (n0..n0 + p).all(|n| follows(d, saltus, n)));
    let (period, saltus) = shortest.unwrap_or((p, proved.saltus));
    let mut preperiod = n0;
    while preperiod > 0 && follows(period, saltus, preperiod - 1) {
        preperiod -= 1;
    }
    Period {
        preperiod,
        period,
        saltus,
    }
}

/// The value of heap `n` from a period and the first `preperiod + period` values.
pub fn extend<T: Copy + Into<u64>>(values: &[T], period: &Period, n: u64) -> Option<u64> {
    let (n0, p) = (period.preperiod as u64, period.period as u64);
    if n < values.len() as u64 {
        return Some(values[n as usize].into());
    }
    let cycles = (n - n0) / p;
    let base: u64 = values[(n0 + (n - n0) % p) as usize].into();
    cycles.checked_mul(period.saltus)?.checked_add(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `find_repeating` by the definition: every period and preperiod tried in turn.
    fn repeating_by_brute_force<T: PartialEq>(values: &[T]) -> Option<(usize, usize)> {
        let len = values.len();
        for p in 1..=len / 3 {
            let mut n0 = len - p;
            while n0 > 0 && values[n0 - 1] == values[n0 - 1 + p] {
                n0 -= 1;
            }
            let stretch = len - n0;
            if stretch >= 3 * p.max(4) && stretch > n0 + 3 * p {
                return Some((n0, p));
            }
        }
        None
    }

    /// `certified` by the walk back from the end, for every period in turn.
    fn certified_by_brute_force(values: &[u8], structure: &Structure) -> Option<Period> {
        let len = values.len();
        let plain = |preperiod, period| Period {
            preperiod,
            period,
            saltus: 0,
        };
        for p in 1..=len / 2 {
            let mut n0 = len - p;
            loop {
                let (needed, _) = structure.proof_needs(&plain(n0, p))?;
                if needed <= len {
                    return Some(plain(n0, p));
                }
                if n0 == 0 || values[n0 - 1] != values[n0 - 1 + p] {
                    break;
                }
                n0 -= 1;
            }
        }
        None
    }

    #[test]
    fn certified_periods_are_those_of_the_walk_back() {
        let mut seed: u64 = 11;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let octal = Structure::Octal {
            digits: vec![0, 3, 5, 4],
        };
        for _ in 0..3000 {
            let period = 1 + next() % 8;
            let preperiod = next() % 300;
            let len = next() % 1200;
            let cycle: Vec<u8> = (0..period).map(|_| (next() % 3) as u8).collect();
            // A preperiod that mostly repeats the cycle already, with rare exceptions.
            let values: Vec<u8> = (0..len)
                .map(|n| match n < preperiod && next() % 40 == 0 {
                    true => 7,
                    false => cycle[n % period],
                })
                .collect();
            let found = certified(&values, &octal).map(|(p, _)| p);
            assert_eq!(
                found,
                certified_by_brute_force(&values, &octal),
                "{values:?}"
            );
        }
    }

    #[test]
    fn exact_repetition_of_any_values_matches_the_definition() {
        let mut seed: u64 = 7;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for _ in 0..2000 {
            let len = next() % 60;
            let period = 1 + next() % 6;
            let preperiod = next() % 12;
            let words = ["0", "∞{}", "∞{0}", "1"];
            let cycle: Vec<&str> = (0..period).map(|_| words[next() % 4]).collect();
            let values: Vec<&str> = (0..len)
                .map(|n| match n < preperiod {
                    true => words[next() % 4],
                    false => cycle[(n - preperiod) % period],
                })
                .collect();
            let found = find_repeating(&values).map(|f| (f.preperiod, f.period));
            assert_eq!(found, repeating_by_brute_force(&values), "{values:?}");
        }
    }

    #[test]
    fn finds_plain_and_arithmetic_periods() {
        let values: Vec<u64> = (0..60).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
        assert_eq!(
            find(&values),
            Some(Period {
                preperiod: 0,
                period: 7,
                saltus: 0
            })
        );
        let nim: Vec<u64> = (0..50).collect();
        assert_eq!(
            find(&nim),
            Some(Period {
                preperiod: 0,
                period: 1,
                saltus: 1
            })
        );
        let mut late: Vec<u64> = (0..80).map(|n| (n % 3) as u64).collect();
        late[10] = 9;
        assert_eq!(find(&late).unwrap().preperiod, 11);
        assert_eq!(
            extend(&late[..14], &find(&late).unwrap(), 10u64.pow(18)),
            Some(late[(11 + (10u64.pow(18) - 11) % 3) as usize])
        );
    }

    #[test]
    fn runs_that_double_show_no_period() {
        // The parity of the number of binary digits: each run is as long as everything before.
        let values: Vec<u64> = (0..4096u64)
            .map(|n| (64 - n.leading_zeros()) as u64 % 2)
            .collect();
        assert_eq!(find(&values), None);
    }

    #[test]
    fn a_proved_period_is_reduced_to_the_least() {
        let mut values: Vec<u64> = (0..40).map(|n| [4, 5, 6][n % 3]).collect();
        values[0] = 9;
        values[1] = 9;
        let proved = Period {
            preperiod: 7,
            period: 12,
            saltus: 0,
        };
        let least = |p| super::least(&values, &p);
        assert_eq!(
            least(proved),
            Period {
                preperiod: 2,
                period: 3,
                saltus: 0
            }
        );
        let nim: Vec<u64> = (0..30).collect();
        let proved = Period {
            preperiod: 5,
            period: 4,
            saltus: 4,
        };
        assert_eq!(
            super::least(&nim, &proved),
            Period {
                preperiod: 0,
                period: 1,
                saltus: 1
            }
        );
    }
}
