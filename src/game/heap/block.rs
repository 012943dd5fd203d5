//! The pairs with a rare part of a block of consecutive heaps, read once for the block: for a
//! rare heap `r` at least [`BLOCK_HEAPS`] below the block, its partners in the heaps of the
//! block are consecutive heaps, all known when the block starts, so each rare heap's partner
//! values are one contiguous read instead of one scattered read a heap.

use super::values::RareHeap;

/// How many consecutive heaps share one pass over the rare heaps.
pub(super) const BLOCK_HEAPS: usize = 64;

/// For each heap of the block `start..start + BLOCK_HEAPS`, the option values found from the
/// rare heaps `r` with `BLOCK_HEAPS <= r < start`, under `mask`.
#[derive(Default)]
pub(super) struct RareBlock {
    start: usize,
    mask: u32,
    filled: bool,
    seen: Vec<[bool; 256]>,
}

impl RareBlock {
    /// Fills the block that starts at `start` (a multiple of [`BLOCK_HEAPS`]) from the values
    /// `g` of the heaps below it, the rare heaps under `mask`, and the `(take, unequal)` of each
    /// way to split.
    pub fn fill(
        &mut self,
        g: &[u8],
        rare: &[RareHeap],
        splits: &[(usize, bool)],
        start: usize,
        mask: u32,
    ) {
        self.seen.resize(BLOCK_HEAPS, [false; 256]);
        self.seen.iter_mut().for_each(|s| *s = [false; 256]);
        let (start_rare, end_rare) = rare_range(rare, start);
        for r in &rare[start_rare..end_rare] {
            let rv = r.value as u8;
            for &(take, unequal) in splits {
                // Heap `start + i` leaves `rest = start + i - take`; the pair `(r, rest - r)`
                // needs `rest - r >= 1`, and `rest >= 2`.
                let first = (r.heap + take + 1)
                    .saturating_sub(start)
                    .max((take + 2).saturating_sub(start));
                if first >= BLOCK_HEAPS {
                    continue;
                }
                // The pair of two equal heaps, at heap `2 r + take`, is no move when the parts
                // must differ.
                let equal = (2 * r.heap + take).wrapping_sub(start);
                let skip = if unequal { equal } else { usize::MAX };
                let partner = |i: usize| start + i - take - r.heap;
                for (lo, hi) in [
                    (first, skip.clamp(first, BLOCK_HEAPS)),
                    (skip.saturating_add(1).max(first), BLOCK_HEAPS),
                ] {
                    if lo >= hi {
                        continue;
                    }
                    let partners = &g[partner(lo)..partner(hi)];
                    for (seen, &p) in self.seen[lo..hi].iter_mut().zip(partners) {
                        seen[(p ^ rv) as usize] = true;
                    }
                }
            }
        }
        self.start = start;
        self.mask = mask;
        self.filled = true;
    }

    /// The option values of heap `n` from the block's rare heaps, when the block holding `n`
    /// is filled under `mask`.
    pub fn seen(&self, n: usize, mask: u32) -> Option<&[bool; 256]> {
        let i = n.checked_sub(self.start)?;
        (self.filled && self.mask == mask && i < BLOCK_HEAPS).then(|| &self.seen[i])
    }

    /// The rare heaps a block starting at `start` does not count: those below
    /// [`BLOCK_HEAPS`], then those from `start` on, as two runs.
    pub fn others(rare: &[RareHeap], start: usize) -> [&[RareHeap]; 2] {
        let (start_rare, end_rare) = rare_range(rare, start);
        [&rare[..start_rare], &rare[end_rare..]]
    }

    pub fn start_of(n: usize) -> usize {
        n - n % BLOCK_HEAPS
    }

    pub fn bytes(&self) -> usize {
        256 * self.seen.capacity()
    }
}

/// The indices of the rare heaps `r` with `BLOCK_HEAPS <= r < start`.
fn rare_range(rare: &[RareHeap], start: usize) -> (usize, usize) {
    let lo = rare.partition_point(|r| r.heap < BLOCK_HEAPS);
    let hi = rare.partition_point(|r| r.heap < start).max(lo);
    (lo, hi)
}
