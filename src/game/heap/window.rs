//! Moves that take any amount in a range leave a run of consecutive heaps, which slides up by at
//! most one heap at each end from one heap size to the next: its values are counted, so that a
//! heap costs O(1) amortised instead of the length of the range.

use std::collections::BTreeSet;

use super::values::CompactValues;
use crate::game::vocabulary::TakeRange;

impl TakeRange {
    /// The heaps left from heap `n`, `n - min(hi, n) ..= n - lo`, as `start..end`.
    fn heaps_left(&self, n: usize) -> (usize, usize) {
        let lo = self.lo as usize;
        if n < lo {
            return (0, 0);
        }
        let start = self.hi.map_or(0, |hi| n.saturating_sub(hi as usize));
        (start, n - lo + 1)
    }
}

/// The values of the heaps `start..end`, counted, with the values below `top` (one more than the
/// largest value seen) that none of them has.
#[derive(Default)]
pub(super) struct Window {
    start: usize,
    end: usize,
    counts: Vec<u32>,
    top: u32,
    gaps: BTreeSet<u32>,
}

impl Window {
    /// Moves the window to the heaps that `range` leaves from heap `n`; `n` must not decrease
    /// from one call to the next, and `values` must hold every heap below `n`.
    pub fn slide_to(&mut self, range: &TakeRange, n: usize, values: &CompactValues) {
        let (start, end) = range.heaps_left(n);
        while self.end < end {
            self.add(values.get(self.end).expect("stored"));
            self.end += 1;
        }
        while self.start < start {
            self.remove(values.get(self.start).expect("stored"));
            self.start += 1;
        }
    }

    fn add(&mut self, v: u32) {
        let i = v as usize;
        if i >= self.counts.len() {
            self.counts.resize((i + 1).next_power_of_two(), 0);
        }
        self.counts[i] += 1;
        if self.counts[i] > 1 {
            return;
        }
        if v >= self.top {
            self.gaps.extend(self.top..v);
            self.top = v + 1;
        } else {
            self.gaps.remove(&v);
        }
    }

    fn remove(&mut self, v: u32) {
        let i = v as usize;
        self.counts[i] -= 1;
        if self.counts[i] == 0 {
            self.gaps.insert(v);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn contains(&self, v: u32) -> bool {
        self.counts.get(v as usize).is_some_and(|&c| c > 0)
    }

    /// The values that no heap of the window has, ascending, without end.
    pub fn absent(&self) -> impl Iterator<Item = u32> + '_ {
        self.gaps.iter().copied().chain(self.top..)
    }

    pub fn bytes(&self) -> usize {
        4 * self.counts.capacity() + 24 * self.gaps.len()
    }
}
