//! Equal heap games: whether two heap games have the same values, or the same values with an
//! offset (`G(n) = H(n + d)` for every heap `n`: some games are others with every heap `d`
//! larger), proved when both periods are proved, else how far the values agree and where they
//! first differ.
//!
//! # Why a finite check proves equality
//!
//! Let `G` have the proved least period `q` with saltus `s` from the least preperiod `p`:
//! `G(n + q) = G(n) + s` for every `n ≥ p`. Let `H` have `q'`, `s'` and `p'`. For an offset
//! `d ≥ 0`, the shifted game `F(n) = H(n + d)` follows `H`'s period from `max(p' - d, 0)` on, and
//! that is its least preperiod, with the same least period and saltus. (For `d < 0` the roles
//! are swapped: `G(n - d) = H(n)`.)
//!
//! - If `(q, s) = (q', s')`, let `P` be the larger of the two preperiods, `p` and `max(p' - d,
//!   0)`. When `G` and `F` agree on the heaps `0..P + q`, they agree everywhere: for `n ≥ P + q`,
//!   `G(n) = G(n - q) + s` and `F(n) = F(n - q) + s`, and `G(n - q) = F(n - q)` by induction on
//!   `n`. So checking `max(p, p' - d) + q` heaps proves it, and a difference found there disproves
//!   it.
//! - If `(q, s) ≠ (q', s')`, `G` and `F` are not the same: every eventual (arithmetic) period of a
//!   sequence is a multiple of its least one and the saltus is fixed by the period, so equal
//!   sequences have the same least period and saltus. The difference is then looked for on the
//!   heaps `0..P + 2L` (`L` the least common multiple of `q` and `q'`), where there is one: if
//!   they agreed on `P..P + L`, their values `L` heaps on would differ by `s L / q - s' L / q'`,
//!   which is not 0 when the saltuses per heap differ, and when they are the same (both 0, or
//!   equal rates) the sequences would repeat with `L` and agree everywhere, which they cannot.
//!   Past [`MOST_HEAPS_SEARCHED`] the answer is that they differ without the heap.
//!
//! When a period is not proved, nothing is known past the values computed: the answer is how
//! far both games' values are known and agree, or the first heap where they differ (a
//! difference is always a proof that the games differ).

use super::position::HUGE;
use super::vocabulary::Period;
use super::{Engine, GameId, SolveError};

/// The largest offset tried: `G(n) = H(n + d)` and `G(n + d) = H(n)` for `d` in `1..=4`.
pub const MOST_OFFSET: u64 = 4;

/// The most heaps looked at for the first difference of two games whose proved periods differ.
pub const MOST_HEAPS_SEARCHED: u64 = 1 << 24;

/// One game of a comparison: how many heaps' values are known, and its period when a theorem
/// proves it (then every heap's value is known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    pub heaps: u64,
    pub proved: Option<Period>,
}

impl Known {
    /// How many heaps' values are known: all of them when the period is proved.
    fn reach(&self) -> u64 {
        match self.proved {
            Some(_) => u64::MAX,
            None => self.heaps,
        }
    }
}

/// How the values of `G(n + left)` and `H(n + right)` compare over every heap `n`, where one of
/// `left` and `right` is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The offset: `d > 0` compares `G(n)` with `H(n + d)`, `d < 0` compares `G(n - d)` with
    /// `H(n)`.
    pub offset: i64,
    pub agreement: Agreement,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// Proved: they agree at every heap (both periods are proved, and they agree on the first
    /// `checked` heaps, which is enough; see the module's comment).
    Proved { checked: u64 },
    /// They agree on every heap `0..upto` where both values are known; one of the periods is not
    /// proved, so nothing is known past that.
    Known { upto: u64 },
    /// The first heap `at` (counted as `n`, before the offset) where they differ, with the two
    /// values.
    Differ { at: u64, left: u64, right: u64 },
    /// They differ because their proved least periods differ, yet agree on the heaps `0..upto`
    /// looked at.
    PeriodsDiffer { upto: u64 },
}

impl Comparison {
    /// Whether the games are the same, as far as is known (proved, or on every known heap).
    pub fn same(&self) -> bool {
        matches!(
            self.agreement,
            Agreement::Proved { .. } | Agreement::Known { .. }
        )
    }

    /// How many heaps (from 0) the two agree on, as far as they were compared.
    pub fn agrees_on(&self) -> u64 {
        match self.agreement {
            Agreement::Proved { .. } => u64::MAX,
            Agreement::Known { upto } | Agreement::PeriodsDiffer { upto } => upto,
            Agreement::Differ { at, .. } => at,
        }
    }
}

/// What [`relate`] finds: the games without an offset, and the offset other than 0 under which
/// they are the same, or agree longest (when longer than without one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relation {
    pub plain: Comparison,
    pub shifted: Option<Comparison>,
}

/// Compares two heap games under the offsets `-MOST_OFFSET..=MOST_OFFSET`, reading the value of
/// heap `n` of game `side` (0 for `G`, 1 for `H`) from `value`, which is asked only for heaps
/// whose value is known (below `heaps`, or any heap of a game with a proved period).
pub fn relate<E>(
    left: Known,
    right: Known,
    mut value: impl FnMut(usize, u64) -> Result<u64, E>,
) -> Result<Relation, E> {
    let plain = compare_at(left, right, 0, &mut value)?;
    let mut shifted: Option<Comparison> = None;
    // Offsets in order 1, -1, 2, -2, ...: the first that makes them the same is the answer.
    for d in 1..=MOST_OFFSET as i64 {
        for offset in [d, -d] {
            let found = compare_at(left, right, offset, &mut value)?;
            let better = match shifted {
                None => true,
                Some(best) => !best.same() && found.agrees_on() > best.agrees_on(),
            };
            if better {
                shifted = Some(found);
            }
        }
    }
    let shifted = shifted.filter(|s| s.same() || s.agrees_on() > plain.agrees_on());
    Ok(Relation { plain, shifted })
}

/// Compares `G(n + a)` with `H(n + b)` for every heap `n`, where `a = max(-offset, 0)` and
/// `b = max(offset, 0)`.
pub fn compare_at<E>(
    left: Known,
    right: Known,
    offset: i64,
    value: &mut impl FnMut(usize, u64) -> Result<u64, E>,
) -> Result<Comparison, E> {
    let a = (-offset).max(0) as u64;
    let b = offset.max(0) as u64;
    let differ = |end: u64, value: &mut dyn FnMut(usize, u64) -> Result<u64, E>| {
        for n in 0..end {
            let (x, y) = (value(0, n + a)?, value(1, n + b)?);
            if x != y {
                return Ok(Some(Agreement::Differ {
                    at: n,
                    left: x,
                    right: y,
                }));
            }
        }
        Ok(None)
    };
    let agreement = match (left.proved, right.proved) {
        (Some(g), Some(h)) => {
            let start = (g.preperiod as u64)
                .saturating_sub(a)
                .max((h.preperiod as u64).saturating_sub(b));
            if (g.period, g.saltus) == (h.period, h.saltus) {
                let checked = start + g.period as u64;
                differ(checked, value)?.unwrap_or(Agreement::Proved { checked })
            } else {
                let (p, q) = (g.period as u64, h.period as u64);
                let lcm = p / gcd(p, q) * q;
                let end = lcm
                    .saturating_mul(2)
                    .saturating_add(start)
                    .min(MOST_HEAPS_SEARCHED);
                differ(end, value)?.unwrap_or(Agreement::PeriodsDiffer { upto: end })
            }
        }
        _ => {
            let upto = left
                .reach()
                .saturating_sub(a)
                .min(right.reach().saturating_sub(b));
            differ(upto, value)?.unwrap_or(Agreement::Known { upto })
        }
    };
    Ok(Comparison { offset, agreement })
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Engine {
    /// What is known of a heap game's values for a comparison: the period pipeline's answer
    /// (how far it computed values, and the period when it proved one). The one place a
    /// comparison reads the pipeline.
    pub fn known_values(&mut self, game: GameId) -> Result<Known, SolveError> {
        let analysis = self.analyse(game)?;
        Ok(Known {
            heaps: analysis.looked as u64,
            proved: analysis.proof.and(analysis.period),
        })
    }

    /// Whether two heap games have the same values, with an offset or without (see the
    /// module's comment). Ctrl-C stops it.
    pub fn relate_games(&mut self, left: GameId, right: GameId) -> Result<Relation, SolveError> {
        let known = [self.known_values(left)?, self.known_values(right)?];
        let games = [left, right];
        let limits = self.limits.clone();
        let mut steps = 0u32;
        relate(known[0], known[1], |side, n| {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(4096) {
                limits.check_interrupt()?;
            }
            self.heap_value(games[side], n)
        })
    }

    /// The value of heap `n` of a heap game: from its table below [`HUGE`], else from its
    /// proved period.
    pub(super) fn heap_value(&mut self, game: GameId, n: u64) -> Result<u64, SolveError> {
        match i64::try_from(n) {
            Ok(n) if n < HUGE => self.solver_value(game, &[n]),
            _ => self.huge_value(game, i64::try_from(n).unwrap_or(i64::MAX)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn periodic(values: &[u64], preperiod: usize, period: usize) -> impl Fn(u64) -> u64 + '_ {
        move |n| {
            let n = n as usize;
            if n < preperiod + period {
                values[n]
            } else {
                values[preperiod + (n - preperiod) % period]
            }
        }
    }

    fn proved(preperiod: usize, period: usize) -> Known {
        Known {
            heaps: (preperiod + period) as u64,
            proved: Some(Period {
                preperiod,
                period,
                saltus: 0,
            }),
        }
    }

    #[test]
    fn a_game_shifted_by_one_is_found_and_proved() {
        // G = 5 0 1 2 0 1 2 ...; H = 7 5 0 1 2 0 1 2 ... = G shifted by one.
        let g = [5, 0, 1, 2];
        let h = [7, 5, 0, 1, 2];
        let (gv, hv) = (periodic(&g, 1, 3), periodic(&h, 2, 3));
        let relation = relate::<()>(proved(1, 3), proved(2, 3), |side, n| {
            Ok(if side == 0 { gv(n) } else { hv(n) })
        })
        .unwrap();
        assert_eq!(
            relation.plain.agreement,
            Agreement::Differ {
                at: 0,
                left: 5,
                right: 7
            }
        );
        let shifted = relation.shifted.unwrap();
        assert_eq!(shifted.offset, 1);
        assert_eq!(shifted.agreement, Agreement::Proved { checked: 4 });
    }

    #[test]
    fn different_periods_are_never_the_same() {
        // Period 2 against period 4 whose values agree for a long time would still differ
        // within two least common multiples.
        let g = [0, 1];
        let h = [0, 1, 0, 2];
        let (gv, hv) = (periodic(&g, 0, 2), periodic(&h, 0, 4));
        let relation = relate::<()>(proved(0, 2), proved(0, 4), |side, n| {
            Ok(if side == 0 { gv(n) } else { hv(n) })
        })
        .unwrap();
        assert_eq!(
            relation.plain.agreement,
            Agreement::Differ {
                at: 3,
                left: 1,
                right: 2
            }
        );
    }

    #[test]
    fn unproved_games_agree_only_as_far_as_both_are_known() {
        let values = [0u64, 1, 1, 2, 0, 3, 1, 1, 0, 3];
        let known = Known {
            heaps: 10,
            proved: None,
        };
        let other = Known {
            heaps: 7,
            proved: None,
        };
        let relation = relate::<()>(known, other, |_, n| Ok(values[n as usize])).unwrap();
        assert_eq!(relation.plain.agreement, Agreement::Known { upto: 7 });
    }
}
