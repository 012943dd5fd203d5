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
        for &(take, unequal) in splits {
            // A rare heap whose partners are all 64 heaps waits for a second one: the two are
            // marked in one pass.
            let mut waiting: Option<(&[u8], u8)> = None;
            for r in &rare[start_rare..end_rare] {
                let rv = r.value as u8;
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
                if first == 0 && skip >= BLOCK_HEAPS {
                    let partners = &g[partner(0)..partner(BLOCK_HEAPS)];
                    match waiting.take() {
                        None => waiting = Some((partners, rv)),
                        Some(other) => mark_two(&mut self.seen, other, (partners, rv)),
                    }
                    continue;
                }
                for (lo, hi) in [
                    (first, skip.clamp(first, BLOCK_HEAPS)),
                    (skip.saturating_add(1).max(first), BLOCK_HEAPS),
                ] {
                    if lo < hi {
                        mark(&mut self.seen[lo..hi], &g[partner(lo)..partner(hi)], rv);
                    }
                }
            }
            if let Some((partners, rv)) = waiting {
                mark(&mut self.seen, partners, rv);
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

/// Eight copies of the byte `v`.
fn eight(v: u8) -> u64 {
    u64::from(v) * 0x0101_0101_0101_0101
}

/// Eight partners from `partners`, as one word.
fn eight_of(partners: &[u8]) -> u64 {
    u64::from_le_bytes(partners.try_into().expect("eight bytes"))
}

/// Marks `seen[i][partners[i] ^ value]` for each heap `i` of `seen`, reading eight partners at
/// once.
fn mark(seen: &mut [[bool; 256]], partners: &[u8], value: u8) {
    let whole = seen.len() / 8 * 8;
    let (eights, rest) = seen.split_at_mut(whole);
    for (rows, chunk) in eights.chunks_exact_mut(8).zip(partners.chunks_exact(8)) {
        let x = eight_of(chunk) ^ eight(value);
        for (k, row) in rows.iter_mut().enumerate() {
            row[(x >> (8 * k)) as u8 as usize] = true;
        }
    }
    for (row, &p) in rest.iter_mut().zip(&partners[whole..]) {
        row[(p ^ value) as usize] = true;
    }
}

/// [`mark`] for two rare heaps at once, each with a partner in each of the block's heaps: more
/// independent stores per step.
fn mark_two(seen: &mut [[bool; 256]], (a, a_value): (&[u8], u8), (b, b_value): (&[u8], u8)) {
    for ((rows, a), b) in seen
        .chunks_exact_mut(8)
        .zip(a.chunks_exact(8))
        .zip(b.chunks_exact(8))
    {
        let x = eight_of(a) ^ eight(a_value);
        let y = eight_of(b) ^ eight(b_value);
        for (k, row) in rows.iter_mut().enumerate() {
            row[(x >> (8 * k)) as u8 as usize] = true;
            row[(y >> (8 * k)) as u8 as usize] = true;
        }
    }
}

/// The indices of the rare heaps `r` with `BLOCK_HEAPS <= r < start`.
fn rare_range(rare: &[RareHeap], start: usize) -> (usize, usize) {
    let lo = rare.partition_point(|r| r.heap < BLOCK_HEAPS);
    let hi = rare.partition_point(|r| r.heap < start).max(lo);
    (lo, hi)
}
