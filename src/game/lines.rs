//! Two-counter games whose moves take any amount along a line (Wythoff's game, two-heap Nim):
//! a move subtracts `k` from each counter of a direction, for any `k` from a least amount up
//! to what those counters allow. Values are computed by sweeping a box of states in order,
//! keeping for each line the set of values already on it, so that the mex of a state costs
//! the size of those sets in words instead of the length of the lines.

use super::vocabulary::LineRules;
use super::{budget, Limits, SolveError};

/// The values of every state in a box `0..rows` x `0..cols`, recomputed when it grows.
pub struct LineSweep {
    rules: LineRules,
    rows: usize,
    cols: usize,
    values: Vec<u32>,
}

impl LineSweep {
    pub fn new(rules: LineRules) -> LineSweep {
        LineSweep {
            rules,
            rows: 0,
            cols: 0,
            values: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// The bytes of the values.
    pub fn bytes(&self) -> usize {
        budget::boxed(self.values.capacity() * 4)
    }

    /// The most bytes a sweep of a `rows` x `cols` box holds: its values and each line's set of
    /// values (a value is below the number of options, `2 * (rows + cols)`). The values of the
    /// box before are given back before the sweep begins, so they do not count.
    fn sweep_bytes(&self, rows: usize, cols: usize) -> usize {
        let lines = self.rules.lines.len() * (rows + cols);
        let words = (2 * (rows + cols)).div_ceil(64) + 1;
        budget::boxed(rows.saturating_mul(cols).saturating_mul(4))
            + lines.saturating_mul(24 + budget::boxed(words * 8))
    }

    /// The value of a state if the sweep has reached it.
    pub fn get(&self, state: &[i64]) -> Option<u32> {
        let (a, b) = (
            usize::try_from(state[0]).ok()?,
            usize::try_from(state[1]).ok()?,
        );
        (a < self.rows && b < self.cols).then(|| self.values[a * self.cols + b])
    }

    pub fn value(&mut self, state: &[i64], limits: &Limits) -> Result<u32, SolveError> {
        let (a, b) = (state[0] as usize, state[1] as usize);
        if a >= self.rows || b >= self.cols {
            let (rows, cols) = self.next_box(a, b, limits)?;
            self.sweep(rows, cols, limits)?;
        }
        Ok(self.values[a * self.cols + b])
    }

    /// The box the sweep that reaches `(a, b)` covers: the box known so far twice as large on
    /// each axis that must grow; when that does not fit the limits, the largest box that does
    /// between it and the box known grown just enough, or else the state's own box
    /// `(a + 1) x (b + 1)`. So a state is refused only when its own box does not fit (what was
    /// asked before does not matter), and a table swept row by row sweeps a number of times
    /// that grows with the logarithm of its size, not with its rows.
    fn next_box(&self, a: usize, b: usize, limits: &Limits) -> Result<(usize, usize), SolveError> {
        let grow = |old: usize, need: usize| {
            if need < old {
                old
            } else {
                (need + 1).max(2 * old)
            }
        };
        let fits = |(r, c): (usize, usize)| {
            r.saturating_mul(c) <= limits.max_states && self.sweep_bytes(r, c) <= limits.room()
        };
        let wanted = (grow(self.rows, a), grow(self.cols, b));
        if fits(wanted) {
            return Ok(wanted);
        }
        let own = (a + 1, b + 1);
        if !fits(own) {
            return Err(if own.0.saturating_mul(own.1) > limits.max_states {
                SolveError::StateLimit(limits.max_states)
            } else {
                SolveError::MemoryLimit(limits.max_memory)
            });
        }
        let kept = (self.rows.max(own.0), self.cols.max(own.1));
        let least = if fits(kept) { kept } else { own };
        // The largest fraction `t / STEPS` of the way from `least` to `wanted` that fits.
        const STEPS: usize = 1 << 10;
        let at = |t: usize| {
            let between = |lo: usize, hi: usize| {
                lo + ((hi - lo) as u128 * t as u128 / STEPS as u128) as usize
            };
            (between(least.0, wanted.0), between(least.1, wanted.1))
        };
        let (mut lo, mut hi) = (0, STEPS);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if fits(at(mid)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Ok(at(lo))
    }

    fn sweep(&mut self, rows: usize, cols: usize, limits: &Limits) -> Result<(), SolveError> {
        // Every value is swept again: the old ones go first (counted out in `sweep_bytes`).
        self.values = Vec::new();
        (self.rows, self.cols) = (0, 0);
        let mut values = vec![0u32; rows * cols];
        // For each rule, one bit set of values per line, indexed by the line's base point.
        let mut sets: Vec<Vec<Vec<u64>>> = self
            .rules
            .lines
            .iter()
            .map(|(d, _)| match d {
                [true, false] => vec![Vec::new(); cols],
                [false, true] => vec![Vec::new(); rows],
                _ => vec![Vec::new(); rows + cols],
            })
            .collect();
        let mut union: Vec<u64> = Vec::new();
        for a in 0..rows {
            if a % 64 == 0 {
                limits.check_interrupt()?;
            }
            for b in 0..cols {
                union.iter_mut().for_each(|w| *w = 0);
                for (i, &(d, from)) in self.rules.lines.iter().enumerate() {
                    let (line, reach) = match d {
                        [true, false] => (b, a),
                        [false, true] => (a, b),
                        _ => (b + rows - a, a.min(b)),
                    };
                    let from = from as usize;
                    let set = &mut sets[i][line];
                    if reach >= from {
                        // The state `from` steps back along the line joins its set.
                        let (da, db) = (d[0] as usize, d[1] as usize);
                        let v = values[(a - from * da) * cols + (b - from * db)];
                        let w = (v >> 6) as usize;
                        if w >= set.len() {
                            set.resize(w + 1, 0);
                        }
                        set[w] |= 1 << (v & 63);
                    }
                    if union.len() < set.len() {
                        union.resize(set.len(), 0);
                    }
                    for (u, s) in union.iter_mut().zip(set.iter()) {
                        *u |= s;
                    }
                }
                let mex = union
                    .iter()
                    .enumerate()
                    .find(|(_, &w)| w != u64::MAX)
                    .map(|(i, w)| i * 64 + (!w).trailing_zeros() as usize)
                    .unwrap_or(union.len() * 64);
                values[a * cols + b] = mex as u32;
            }
        }
        self.rows = rows;
        self.cols = cols;
        self.values = values;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(rules: &LineRules, rows: usize, cols: usize) -> Vec<u32> {
        let mut g = vec![0u32; rows * cols];
        for a in 0..rows {
            for b in 0..cols {
                let mut seen = Vec::new();
                for &(d, from) in &rules.lines {
                    let reach = match d {
                        [true, false] => a,
                        [false, true] => b,
                        _ => a.min(b),
                    };
                    for k in from as usize..=reach {
                        let (x, y) = (a - k * d[0] as usize, b - k * d[1] as usize);
                        seen.push(g[x * cols + y]);
                    }
                }
                g[a * cols + b] = (0..).find(|v| !seen.contains(v)).unwrap();
            }
        }
        g
    }

    #[test]
    fn line_games_match_the_plain_method() {
        let wythoff = vec![([true, false], 1), ([false, true], 1), ([true, true], 1)];
        let other = vec![([true, false], 2), ([true, true], 3), ([false, true], 1)];
        for lines in [wythoff, other] {
            let rules = LineRules { lines };
            let mut sweep = LineSweep::new(rules.clone());
            let limits = Limits::default();
            let (rows, cols) = (37, 53);
            let expected = plain(&rules, rows, cols);
            for a in 0..rows {
                for b in 0..cols {
                    let v = sweep.value(&[a as i64, b as i64], &limits).unwrap();
                    assert_eq!(v, expected[a * cols + b], "{a} {b}");
                }
            }
        }
    }
}
