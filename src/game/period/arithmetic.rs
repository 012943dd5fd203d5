//! The arithmetic-periodicity test for heap games whose moves reach every smaller heap and may
//! also split a heap in two (Lasker's Nim), after Austin's test for arithmetic periodicity
//! (Siegel, *Combinatorial Game Theory*, IV.2; Winning Ways, ch. 4, on Lasker's Nim).
//!
//! **The statement proved here.** Let a game's options from heap `n` be every heap `m < n`
//! (heap 0 being the empty position) and, for each [`Split`] `(t, unequal)`, every pair of
//! non-empty heaps `a + b = n - t` (with `a != b` when `unequal`). Let `p = s = 2^k`, `n0 >= 0`,
//! `l(x) = x mod s`, and `J >= 0` the least with `n0 + (J + 1) p >= 2 n0 + max t`; `N = n0 + J p`.
//! If the values `G(0..N + p)` satisfy
//!
//! 1. the heaps below `n0` have the values `0..n0`, and the heaps `n0..n0 + p` the values
//!    `n0..n0 + p` (in some order);
//! 2. `G(m + p) = G(m) + s` for `n0 <= m < N`;
//! 3. *no split reaches a heap's value*: with `D` the largest `G(x) - x` over the heaps
//!    `1..n0 + p` and `d` the least over `n0..n0 + p`, every split whose take is at most
//!    `2D - d` matches no heap's low bits: for every residue `r` of `n - n0` mod `p` and every
//!    way its two parts can lie (a part `a < n0` with the other part's residue, or two
//!    residues), `l(G(a)) ^ l(G(b)) != l(G(n))`, the low bits being those the periodic values
//!    have;
//! 4. *every skipped value has a witness*: for each heap `n` of `N..N + p` and each value `w` of
//!    `n0 + J p..G(n)` that no heap of `N..n` has, some split `(a, b)` of `n` with `a <= b`
//!    (`a < b` when unequal), `b >= n0` and `G(a) < s` has `G(a) ^ G(b) = w`;
//!
//! then `G(n + p) = G(n) + s` for every `n >= n0`.
//!
//! **Proof**, by induction on `n >= N` (below `N`, hypothesis 2), carrying hypothesis 4 along.
//! Let `n` be in block `j >= J` (heaps `n0 + jp..n0 + (j + 1)p`) and `S = n0 + (j + 1) p`. By 1
//! and the induction, the heaps below `S` have exactly the values `0..S`, and those of
//! `S..n + p` the values of `S - p..n`, plus `s`. Since every smaller heap is an option, values
//! are distinct, so `G(n + p) >= S`, and `V = G(n) + s` is no smaller heap's value. Every part of
//! a split of `n + p` is a heap below `n + p`, whose low bits follow the period; as
//! `n + p - t >= 2 n0` one part is at least `n0`, so by 3 no split has the value `V`: its low
//! bits differ, or its take `t` exceeds `2D - d`, and then (as `G(x) - x` and its bounds repeat
//! with the period) `G(a) ^ G(b) <= G(a) + G(b) <= n + p - t + 2D < n + p + d <= V`. So
//! `G(n + p) <= V`. A value `w` of `S..V` that no heap below `n + p` has is
//! `w' + s` for a value `w'` that heap `n` skips; its witness `(a, b)` gives the split
//! `(a, b + p)` of `n + p`, of value `G(a) ^ (G(b) + s) = (G(a) ^ G(b)) + s = w` because
//! `G(a) < s` is a power of two; and that split is again a witness. So every value below `V`
//! is an option's, and `G(n + p) = V`. ∎

use crate::game::vocabulary::{Period, Split};

/// The theorem's name, as `period` shows it.
pub const THEOREM: &str =
    "the arithmetic-periodicity test for games that take any amount or split (after Austin)";

/// Periods above this are not tested (the witness search grows as the cube of the period).
pub const MOST_PERIOD: usize = 256;

/// Preperiods above this are not tested.
pub const MOST_PREPERIOD: usize = 1 << 16;

/// The least `N` of the theorem for preperiod `n0` and period `p`: hypotheses 2 and 4 read the
/// values of heaps `0..N + p`.
fn base(n0: usize, p: usize, splits: &[Split]) -> usize {
    let most_take = splits.iter().map(|s| s.take).max().unwrap_or(0);
    let short = n0.saturating_add(most_take).saturating_sub(p);
    n0.saturating_add(short.div_ceil(p).saturating_mul(p))
}

/// How many values the test needs for a candidate; `None` when it cannot apply (a saltus that
/// is not the period, or a period that is not a power of two or is too long).
pub fn needs(candidate: &Period, splits: &[Split]) -> Option<usize> {
    let p = candidate.period;
    let applies = candidate.saltus == p as u64
        && p.is_power_of_two()
        && p <= MOST_PERIOD
        && candidate.preperiod <= MOST_PREPERIOD;
    // The test may move the preperiod up by less than a period.
    applies.then(|| base(candidate.preperiod + p - 1, p, splits).saturating_add(p))
}

/// A period and saltus that the hypotheses prove on `values`, with the least preperiod for it:
/// the candidate's, or a multiple of them (more low bits tell more splits apart), up to
/// [`MOST_PERIOD`]. `None` when none is proved.
pub fn prove(values: &[u64], candidate: &Period, splits: &[Split]) -> Option<Period> {
    needs(candidate, splits)?;
    let first = candidate.preperiod;
    let periods = std::iter::successors(Some(candidate.period), |p| Some(2 * p));
    periods
        .take_while(|&p| {
            p <= MOST_PERIOD && base(first + p - 1, p, splits).saturating_add(p) <= values.len()
        })
        .find_map(|p| {
            let n0 = (first..first + p)
                .filter(|&n0| fills_blocks(values, n0, p))
                .find(|&n0| holds(values, n0, p, splits))?;
            Some(Period {
                preperiod: n0,
                period: p,
                saltus: p as u64,
            })
        })
}

/// Hypothesis 1.
fn fills_blocks(values: &[u64], n0: usize, p: usize) -> bool {
    let fills = |range: std::ops::Range<usize>| {
        let Some(heaps) = values.get(range.clone()) else {
            return false;
        };
        let mut seen = vec![false; range.len()];
        heaps.iter().all(|&v| {
            let i = (v as usize).wrapping_sub(range.start);
            i < seen.len() && !std::mem::replace(&mut seen[i], true)
        })
    };
    fills(0..n0) && fills(n0..n0 + p)
}

/// Hypotheses 2, 3 and 4 for preperiod `n0`.
fn holds(values: &[u64], n0: usize, p: usize, splits: &[Split]) -> bool {
    let start = base(n0, p, splits);
    if values.len() < start.saturating_add(p) {
        return false;
    }
    let s = p as u64;
    let repeats = (n0..start).all(|m| values[m + p] == values[m] + s);
    repeats
        && no_split_matches(values, n0, p, splits)
        && skips_have_witnesses(values, start, n0, p, splits)
}

/// Hypothesis 3, over every residue of heap and parts (more cases than can occur: sound).
fn no_split_matches(values: &[u64], n0: usize, p: usize, splits: &[Split]) -> bool {
    let excess = |x: usize| values[x] as i64 - x as i64;
    let most = (1..n0 + p).map(excess).max().unwrap_or(0);
    let least = (n0..n0 + p).map(excess).min().unwrap_or(0);
    let too_small = |split: &&Split| split.take as i64 > 2 * most - least;
    let mask = p as u64 - 1;
    let low: Vec<u64> = values[n0..n0 + p].iter().map(|v| v & mask).collect();
    let residue = |x: i64| x.rem_euclid(p as i64) as usize;
    (0..p).all(|r| {
        splits.iter().filter(|s| !too_small(s)).all(|split| {
            let t = split.take as i64;
            let small = (1..n0)
                .all(|a| (values[a] & mask) ^ low[residue(r as i64 - t - a as i64)] != low[r]);
            let large = (0..p)
                .all(|ra| low[ra] ^ low[residue(r as i64 - t - n0 as i64 - ra as i64)] != low[r]);
            small && large
        })
    })
}

/// Hypothesis 4 on the heaps `start..start + p`.
fn skips_have_witnesses(
    values: &[u64],
    start: usize,
    n0: usize,
    p: usize,
    splits: &[Split],
) -> bool {
    let s = p as u64;
    // Block J has the values `start..start + p`, by hypotheses 1 and 2.
    let lowest = start as u64;
    let small: Vec<usize> = (1..start + p).filter(|&a| values[a] < s).collect();
    let mut taken = vec![false; p];
    for n in start..start + p {
        let value = values[n];
        for w in lowest..value {
            if taken[(w - lowest) as usize] {
                continue;
            }
            let witnessed = splits.iter().any(|split| {
                let Some(rest) = n.checked_sub(split.take) else {
                    return false;
                };
                small.iter().any(|&a| {
                    let b = rest.wrapping_sub(a);
                    let ordered = if split.unequal { a < b } else { a <= b };
                    a < rest && ordered && b >= n0 && values[a] ^ values[b] == w
                })
            });
            if !witnessed {
                return false;
            }
        }
        taken[(value - lowest) as usize] = true;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values by the plain definition: every smaller heap, then every split, then the mex.
    fn brute(splits: &[Split], len: usize) -> Vec<u64> {
        let mut g: Vec<u64> = Vec::new();
        for n in 0..len {
            let mut seen = vec![false; 4 * len + 4];
            for &v in &g {
                seen[v as usize] = true;
            }
            for split in splits {
                let Some(rest) = n.checked_sub(split.take) else {
                    continue;
                };
                for a in 1..rest {
                    if !(split.unequal && 2 * a == rest) {
                        seen[(g[a] ^ g[rest - a]) as usize] = true;
                    }
                }
            }
            g.push(seen.iter().position(|&s| !s).unwrap() as u64);
        }
        g
    }

    #[test]
    fn lasker_is_proved_and_the_proof_holds_far_beyond() {
        let lasker = [Split {
            take: 0,
            unequal: false,
        }];
        let g = brute(&lasker, 600);
        let candidate = Period {
            preperiod: 1,
            period: 4,
            saltus: 4,
        };
        let proved = prove(&g[..40], &candidate, &lasker).expect("proved");
        assert_eq!(proved, candidate);
        for n in 1..596 {
            assert_eq!(g[n + 4], g[n] + 4, "heap {n}");
        }
    }

    /// Games that reach every smaller heap and split after taking 0..=3 (each split equal or
    /// not): whatever is proved on a short prefix holds on a long one computed by brute force.
    #[test]
    fn what_is_proved_holds() {
        let mut games = std::collections::BTreeSet::new();
        for mask in 1u32..(1 << 8) {
            let splits: Vec<Split> = (0..8)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| Split {
                    take: i / 2,
                    unequal: i % 2 == 1,
                })
                .collect();
            let g = brute(&splits, 400);
            for p in [1, 2, 4, 8, 16] {
                for n0 in 0..12 {
                    let candidate = Period {
                        preperiod: n0,
                        period: p,
                        saltus: p as u64,
                    };
                    if let Some(found) = prove(&g[..200], &candidate, &splits) {
                        games.insert(mask);
                        let (q, s) = (found.period, found.saltus);
                        for n in found.preperiod..400 - q {
                            assert_eq!(g[n + q], g[n] + s, "{splits:?} {found:?} heap {n}");
                        }
                    }
                }
            }
        }
        assert!(games.len() > 1, "{games:?}");
    }
}
