//! The splits of a heap in an octal game whose values repeat with a proved period, counted and
//! listed without visiting every split: `r = a + b` with `1 <= a <= b` and `G(a) xor G(b)` equal
//! to a target. When both parts are past the preperiod, `G(a)` depends only on the class of `a`
//! modulo the period, and then so does `G(r - a)`: such splits are counted class by class. The
//! splits with a part below the preperiod (fewer than the preperiod) are visited one by one.

/// The values of a heap game from a proved period: `G(n + period) = G(n)` from `preperiod` on.
#[derive(Clone, Debug)]
pub struct Periodic {
    /// The values of heaps `0..preperiod + period`.
    values: Vec<u64>,
    preperiod: u64,
    period: u64,
}

/// The parts `a` of the splits of one heap, in three runs: `a` below the preperiod; both parts
/// past it; `b = r - a` below it.
struct Runs {
    low: (u64, u64),
    both: (u64, u64),
    high: (u64, u64),
}

impl Periodic {
    /// `values` holds at least the heaps `0..preperiod + period`, and `period >= 1`.
    pub fn new(values: Vec<u64>, preperiod: u64, period: u64) -> Periodic {
        assert!(period >= 1 && values.len() as u64 >= preperiod + period);
        Periodic {
            values,
            preperiod,
            period,
        }
    }

    pub fn value(&self, n: u64) -> u64 {
        if n < self.preperiod + self.period {
            return self.values[n as usize];
        }
        self.values[(self.preperiod + (n - self.preperiod) % self.period) as usize]
    }

    fn runs(&self, r: u64) -> Runs {
        let half = r / 2;
        let n0 = self.preperiod;
        let first_both = n0.max(1);
        let last_both = half.min(r.saturating_sub(n0));
        let first_high = first_both.max(r.saturating_sub(n0).saturating_add(1));
        Runs {
            low: (1, half.min(n0.saturating_sub(1))),
            both: (first_both, if r >= n0 { last_both } else { 0 }),
            high: (first_high, half),
        }
    }

    /// For `a` in the run where both parts are past the preperiod, whether a split whose `a` is
    /// in each class (`(a - preperiod) mod period`) has the value `target`.
    fn classes_with(&self, r: u64, target: u64) -> Vec<bool> {
        let (n0, p) = (self.preperiod, self.period);
        (0..p)
            .map(|c| {
                let partner = (r as i128 - 2 * n0 as i128 - c as i128).rem_euclid(p as i128);
                let own = self.values[(n0 + c) as usize];
                own ^ self.values[(n0 + partner as u64) as usize] == target
            })
            .collect()
    }

    /// How many splits of a heap of `r` have the value `target` (every split for `None`).
    pub fn count_splits(&self, r: u64, target: Option<u64>) -> u128 {
        let Some(target) = target else {
            return (r / 2) as u128;
        };
        let runs = self.runs(r);
        let direct = |(lo, hi): (u64, u64)| {
            (lo..=hi)
                .filter(|&a| self.value(a) ^ self.value(r - a) == target)
                .count() as u128
        };
        let mut count = direct(runs.low) + direct(runs.high);
        let (lo, hi) = runs.both;
        if lo <= hi {
            let (p, n0) = (self.period as i128, self.preperiod as i128);
            let (x, y) = (lo as i128 - n0, hi as i128 - n0);
            for (c, wanted) in self.classes_with(r, target).into_iter().enumerate() {
                if wanted {
                    let c = c as i128;
                    let in_class = (y - c).div_euclid(p) - (x - 1 - c).div_euclid(p);
                    count += in_class as u128;
                }
            }
        }
        count
    }

    /// Calls `visit` with the smaller part `a` of each split of a heap of `r` that has the value
    /// `target` (every split for `None`), ascending, until it returns `false`. Returns whether it
    /// went to the end. Each call of `visit` costs at most a period of steps.
    pub fn visit_splits<E>(
        &self,
        r: u64,
        target: Option<u64>,
        visit: &mut dyn FnMut(u64) -> Result<bool, E>,
    ) -> Result<bool, E> {
        let runs = self.runs(r);
        let wanted = |a: u64| target.is_none_or(|t| self.value(a) ^ self.value(r - a) == t);
        for a in runs.low.0..=runs.low.1 {
            if wanted(a) && !visit(a)? {
                return Ok(false);
            }
        }
        let (lo, hi) = runs.both;
        if lo <= hi {
            let classes = target.map(|t| self.classes_with(r, t));
            let any = classes.as_ref().is_none_or(|c| c.contains(&true));
            let mut class = (lo - self.preperiod) % self.period;
            let mut a = lo;
            while any && a <= hi {
                if classes.as_ref().is_none_or(|c| c[class as usize]) && !visit(a)? {
                    return Ok(false);
                }
                class = if class + 1 == self.period {
                    0
                } else {
                    class + 1
                };
                a += 1;
            }
        }
        for a in runs.high.0..=runs.high.1 {
            if wanted(a) && !visit(a)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
