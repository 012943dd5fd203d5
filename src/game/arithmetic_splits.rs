//! The moves of a huge heap in a game that takes any amount or splits (Lasker's Nim), whose
//! values are proved arithmetic-periodic with saltus equal to the period, a power of two
//! ([`super::period::arithmetic`]): counted and listed by arithmetic, never by visiting every
//! move.
//!
//! Past the preperiod `n0`, `G(x) = x + δ(x)` with `δ` repeating with the period `p`. A split
//! `a + b = m` whose parts are both past `n0` has, for a fixed class of `a` modulo `p`,
//! `u = G(a)` and `v = G(b)` with `u + v = S` fixed; `u xor v = w` then holds exactly when
//! `d = (S - w) / 2` is a whole number sharing no bit with `w`, and `u = d | x` for a subset `x`
//! of `w`'s bits. So such splits are counted as subsets of `w` whose value lies in a range and
//! class, bit by bit; splits with a part below `n0` are visited one by one. Values are
//! distinct (every smaller heap is an option), so exactly one heap has each value.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::vocabulary::Split;

/// The values of such a game from its proved period: `G(n + period) = G(n) + period` from
/// `preperiod` on, `period` a power of two.
#[derive(Clone, Debug)]
pub struct ArithmeticValues {
    /// The values of heaps `0..preperiod + period`.
    values: Vec<u64>,
    preperiod: u64,
    period: u64,
}

/// The splits of one class of the smaller part: `a = u - shift` for `u = base | y`, `y` a subset
/// of `free`, `u` in `low..=high`.
#[derive(Clone, Copy, Debug)]
struct Class {
    base: u128,
    free: u128,
    low: u128,
    high: u128,
    shift: i128,
}

impl ArithmeticValues {
    /// `values` holds the heaps `0..preperiod + period`; `period` is a power of two and the
    /// saltus.
    pub fn new(mut values: Vec<u64>, preperiod: u64, period: u64) -> ArithmeticValues {
        assert!(period.is_power_of_two() && values.len() as u64 >= preperiod + period);
        values.truncate((preperiod + period) as usize);
        ArithmeticValues {
            values,
            preperiod,
            period,
        }
    }

    pub fn value(&self, n: u64) -> u64 {
        if n < self.values.len() as u64 {
            return self.values[n as usize];
        }
        let from = n - self.preperiod;
        self.values[(self.preperiod + from % self.period) as usize]
            + from / self.period * self.period
    }

    /// The heap whose value is `t`.
    fn heap_of(&self, t: u64) -> Option<u64> {
        if let Some(n) = self.values.iter().position(|&v| v == t) {
            return Some(n as u64);
        }
        let (n0, p) = (self.preperiod, self.period);
        (0..p).find_map(|r| {
            let v = self.values[(n0 + r) as usize];
            (t > v && (t - v).is_multiple_of(p)).then(|| n0 + r + (t - v))
        })
    }

    /// How many heaps below `n` have the value `target` (all of them for `None`).
    pub fn count_takes(&self, n: u64, target: Option<u64>) -> u128 {
        match target {
            None => n as u128,
            Some(t) => u128::from(self.heap_of(t).is_some_and(|m| m < n)),
        }
    }

    /// The heaps below `n` with the value `target` (all of them for `None`), from `n - 1` down.
    pub fn takes(&self, n: u64, target: Option<u64>) -> Box<dyn Iterator<Item = u64>> {
        match target {
            None => Box::new((0..n).rev()),
            Some(t) => Box::new(self.heap_of(t).filter(|&m| m < n).into_iter()),
        }
    }

    /// The smaller parts `a` of the splits of a heap of `n` by `split`: `a + b = n - take`,
    /// `1 <= a <= b` (`a < b` when unequal), as three runs: `a` below the preperiod, both parts
    /// past it, `b` below it.
    fn runs(&self, n: u64, split: Split) -> Option<[(u64, u64); 3]> {
        let m = n.checked_sub(split.take as u64)?;
        let most = if split.unequal {
            m.checked_sub(1)? / 2
        } else {
            m / 2
        };
        if most == 0 {
            return None;
        }
        let n0 = self.preperiod;
        let both_from = n0.max(1);
        let both_to = most.min(m.saturating_sub(n0));
        Some([
            (1, most.min(n0.saturating_sub(1))),
            (both_from, both_to),
            (both_from.max(m.saturating_sub(n0) + 1), most),
        ])
    }

    /// The class of the smaller part `a ≡ preperiod + r` of the splits of `m` whose parts are
    /// both past the preperiod, with `a` in `lo..=hi`, that have the value `target`.
    fn class(&self, m: u64, r: u64, (lo, hi): (u64, u64), target: u64) -> Option<Class> {
        let (n0, p) = (self.preperiod as i128, self.period as i128);
        let shift_of = |r: i128| self.values[(n0 + r) as usize] as i128 - (n0 + r);
        let r = r as i128;
        let partner = (m as i128 - 2 * n0 - r).rem_euclid(p);
        let (shift, partner_shift) = (shift_of(r), shift_of(partner));
        let sum = m as i128 + shift + partner_shift;
        let w = target as i128;
        let twice = sum - w;
        if twice < 0 || twice % 2 != 0 || (twice / 2) & w != 0 {
            return None;
        }
        let d = (twice / 2) as u128;
        let w = w as u128;
        let mask = self.period as u128 - 1;
        let residue = self.values[(n0 + r) as usize] as u128 & mask;
        if d & mask & !residue != 0 || (residue & !d) & !w != 0 {
            return None;
        }
        let low = (lo as i128 + shift).max(0) as u128;
        let high = hi as i128 + shift;
        (high >= 0).then_some(Class {
            base: d | (residue & !d),
            free: w & !mask,
            low,
            high: high as u128,
            shift,
        })
    }

    fn classes(&self, m: u64, both: (u64, u64), target: u64) -> impl Iterator<Item = Class> + '_ {
        (0..self.period)
            .filter(move |_| both.0 <= both.1)
            .filter_map(move |r| self.class(m, r, both, target))
    }

    /// How many splits of a heap of `n` by `split` have the value `target` (all for `None`).
    pub fn count_splits(&self, n: u64, split: Split, target: Option<u64>) -> u128 {
        let Some(runs) = self.runs(n, split) else {
            return 0;
        };
        let count = |(lo, hi): (u64, u64)| (hi + 1).saturating_sub(lo) as u128;
        let Some(t) = target else {
            return runs.iter().map(|&run| count(run)).sum();
        };
        let m = n - split.take as u64;
        let direct = |(lo, hi): (u64, u64)| {
            (lo..=hi)
                .filter(|&a| self.value(a) ^ self.value(m - a) == t)
                .count() as u128
        };
        let both: u128 = self
            .classes(m, runs[1], t)
            .map(|c| {
                let below = c
                    .low
                    .checked_sub(1)
                    .map_or(0, |l| at_most(c.base, c.free, l));
                at_most(c.base, c.free, c.high) - below
            })
            .sum();
        direct(runs[0]) + both + direct(runs[2])
    }

    /// Calls `visit` with the smaller part `a` of each split of a heap of `n` by `split` whose
    /// value is `target` (every split for `None`), ascending, until it returns `false`.
    /// Returns whether it went to the end.
    pub fn visit_splits<E>(
        &self,
        n: u64,
        split: Split,
        target: Option<u64>,
        visit: &mut dyn FnMut(u64) -> Result<bool, E>,
    ) -> Result<bool, E> {
        let Some(runs) = self.runs(n, split) else {
            return Ok(true);
        };
        let m = n - split.take as u64;
        let wanted = |a: u64| target.is_none_or(|t| self.value(a) ^ self.value(m - a) == t);
        for a in runs[0].0..=runs[0].1 {
            if wanted(a) && !visit(a)? {
                return Ok(false);
            }
        }
        match target {
            None => {
                for a in runs[1].0..=runs[1].1 {
                    if !visit(a)? {
                        return Ok(false);
                    }
                }
            }
            Some(t) => {
                let classes: Vec<Class> = self.classes(m, runs[1], t).collect();
                let mut next: BinaryHeap<Reverse<(u128, usize)>> = BinaryHeap::new();
                for (i, c) in classes.iter().enumerate() {
                    if let Some(u) = at_least(c.base, c.free, c.low).filter(|&u| u <= c.high) {
                        next.push(Reverse(((u as i128 - c.shift) as u128, i)));
                    }
                }
                while let Some(Reverse((a, i))) = next.pop() {
                    if !visit(a as u64)? {
                        return Ok(false);
                    }
                    let c = classes[i];
                    let u = (a as i128 + c.shift) as u128;
                    if let Some(u) = at_least(c.base, c.free, u + 1).filter(|&u| u <= c.high) {
                        next.push(Reverse(((u as i128 - c.shift) as u128, i)));
                    }
                }
            }
        }
        for a in runs[2].0..=runs[2].1 {
            if wanted(a) && !visit(a)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// How many `base | y`, for `y` a subset of `free` (which shares no bit with `base`), are at
/// most `high`.
fn at_most(base: u128, free: u128, high: u128) -> u128 {
    let mut count = 0;
    for i in (0..128).rev() {
        let bit = 1u128 << i;
        let below = (free & (bit - 1)).count_ones();
        let wants = high & bit != 0;
        if free & bit != 0 {
            if wants {
                count += 1u128 << below;
            }
            // The branch that follows `high`'s bit goes on.
        } else {
            let has = base & bit != 0;
            match (has, wants) {
                (false, true) => return count + (1u128 << below),
                (true, false) => return count,
                _ => {}
            }
        }
    }
    count + 1
}

/// The least `base | y`, for `y` a subset of `free`, that is at least `low`.
fn at_least(base: u128, free: u128, low: u128) -> Option<u128> {
    let fixed = !free;
    if (low ^ base) & fixed == 0 {
        return Some(low);
    }
    (0..128).find_map(|i| {
        let bit = 1u128 << i;
        let above = if i == 127 { 0 } else { !((bit << 1) - 1) };
        let settable = free & bit != 0 || base & bit != 0;
        let prefix_fits = (low ^ base) & fixed & above == 0;
        (low & bit == 0 && settable && prefix_fits)
            .then(|| (low & above) | bit | (base & (bit - 1)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lasker's Nim by brute force: take any amount, or split into two non-empty heaps.
    fn lasker(n: usize) -> Vec<u64> {
        let mut g = vec![0u64; n];
        for h in 1..n {
            let mut seen: Vec<u64> = (0..h).map(|m| g[m]).collect();
            seen.extend((1..=h / 2).map(|a| g[a] ^ g[h - a]));
            seen.sort_unstable();
            seen.dedup();
            g[h] = seen
                .iter()
                .enumerate()
                .take_while(|(i, &v)| *i as u64 == v)
                .count() as u64;
        }
        g
    }

    #[test]
    fn subsets_in_a_range_are_counted_and_found_as_a_scan_finds_them() {
        for (base, free) in [(0b1000_0001u128, 0b0110_0110u128), (0, 0b1011), (0b100, 0)] {
            let members: Vec<u128> = (0..256u128).filter(|v| v & !free == base).collect();
            for bound in 0..300u128 {
                let at_most_scan = members.iter().filter(|&&v| v <= bound).count() as u128;
                assert_eq!(
                    at_most(base, free, bound),
                    at_most_scan,
                    "{base} {free} {bound}"
                );
                let at_least_scan = members.iter().copied().find(|&v| v >= bound);
                assert_eq!(
                    at_least(base, free, bound),
                    at_least_scan,
                    "{base} {free} {bound}"
                );
            }
        }
    }

    #[test]
    fn lasker_splits_and_takes_match_brute_force() {
        let g = lasker(400);
        // Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3.
        let values = ArithmeticValues::new(g[..5].to_vec(), 1, 4);
        for (n, &v) in g.iter().enumerate() {
            assert_eq!(values.value(n as u64), v, "G({n})");
        }
        let whole = Split {
            take: 0,
            unequal: false,
        };
        for n in 0..400u64 {
            for t in [
                None,
                Some(0),
                Some(1),
                Some(3),
                Some(g[n as usize] ^ 5),
                Some(200),
            ] {
                let brute: Vec<u64> = (1..=n / 2)
                    .filter(|&a| t.is_none_or(|t| g[a as usize] ^ g[(n - a) as usize] == t))
                    .collect();
                assert_eq!(
                    values.count_splits(n, whole, t),
                    brute.len() as u128,
                    "{n} {t:?}"
                );
                let mut seen = Vec::new();
                let _ = values.visit_splits::<()>(n, whole, t, &mut |a| {
                    seen.push(a);
                    Ok(true)
                });
                assert_eq!(seen, brute, "{n} {t:?}");
                let takes: Vec<u64> = (0..n)
                    .rev()
                    .filter(|&m| t.is_none_or(|t| g[m as usize] == t))
                    .collect();
                assert_eq!(values.takes(n, t).collect::<Vec<_>>(), takes);
                assert_eq!(values.count_takes(n, t), takes.len() as u128);
            }
        }
    }
}
