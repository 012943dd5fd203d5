//! The pairs with a rare part of a block of consecutive heaps, read once for the block: for a
//! rare heap `r` at least [`BLOCK_HEAPS`] below the block, its partners in the heaps of the
//! block are consecutive heaps, all known when the block starts, so each rare heap's partner
//! values are one contiguous read instead of one scattered read a heap.
//!
//! Only the first [`MARKED_PARTS`] of those rare heaps (and every one whose partners do not cover
//! the whole block; all of them without AVX2) mark their pairs' values, a byte store a pair.
//! For the others only whether they give a heap's [`CANDIDATES`] least common values not marked
//! is found, 32 heaps a vector compare: the least common value missing is one of those few far
//! more often than not, and a heap whose candidates are all found says so (its flags are exact
//! only below a bound), so that it is computed from every rare heap in turn.

use super::byte_scan::ByteSet;
use super::kernels::Kernels;
use super::values::{BlockOptions, RareHeap};

/// How many consecutive heaps share one pass over the rare heaps.
pub(super) const BLOCK_HEAPS: usize = 64;

/// The share of a block's rare heaps, as (numerator, denominator), whose pairs are marked.
pub(super) const MARKED_PARTS: (usize, usize) = (1, 2);

/// How many of the least common values that a heap's marks leave missing are compared with the
/// partners of the rare heaps not marked.
pub(super) const CANDIDATES: usize = 16;

/// For each candidate, the heaps of the block (one bit each) whose candidate is found.
pub(super) type FoundCandidates = [u64; CANDIDATES];

/// For each heap of the block `start..start + BLOCK_HEAPS`, the option values found from the
/// rare heaps `r` with `BLOCK_HEAPS <= r < start`, under `mask`: every common value below the
/// heap's bound in `exact_below`, and some of the others.
pub(super) struct RareBlock {
    start: usize,
    mask: u32,
    filled: bool,
    seen: Vec<[bool; 256]>,
    exact_below: Vec<u32>,
    /// The rare heaps not marked: the first partner of each, and its value.
    unmarked: Vec<(usize, u8)>,
    /// Whether every rare heap marks, as without vector compares (for the tests, with any
    /// kernels).
    mark_all: bool,
    /// The indices of the rare heaps the block counts, `first..end`.
    counted: (usize, usize),
    kernels: Kernels,
}

impl RareBlock {
    /// An empty block, to run `kernels`.
    pub fn new(kernels: Kernels) -> RareBlock {
        RareBlock {
            start: 0,
            mask: 0,
            filled: false,
            seen: Vec::new(),
            exact_below: Vec::new(),
            unmarked: Vec::new(),
            mark_all: false,
            counted: (0, 0),
            kernels,
        }
    }

    /// Fills the block that starts at `start` (a multiple of [`BLOCK_HEAPS`]) from the values
    /// `g` of the heaps below it, the rare heaps under `mask`, the `common` values, and the
    /// `(take, unequal)` of each way to split.
    pub fn fill(
        &mut self,
        g: &[u8],
        rare: &[RareHeap],
        splits: &[(usize, bool)],
        start: usize,
        (mask, common): (u32, &ByteSet),
    ) {
        self.seen.resize(BLOCK_HEAPS, [false; 256]);
        self.seen.iter_mut().for_each(|s| *s = [false; 256]);
        self.unmarked.clear();
        let (start_rare, end_rare) = rare_range(rare, start);
        self.counted = (start_rare, end_rare);
        let count = end_rare - start_rare;
        let marked = if self.kernels.vector_compares() && !self.mark_all {
            count * MARKED_PARTS.0 / MARKED_PARTS.1
        } else {
            count
        };
        for &(take, unequal) in splits {
            // A rare heap whose partners are all 64 heaps waits for a second one: the two are
            // marked in one pass.
            let mut waiting: Option<(&[u8], u8)> = None;
            for (k, r) in rare[start_rare..end_rare].iter().enumerate() {
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
                if first == 0 && skip >= BLOCK_HEAPS && k >= marked {
                    self.unmarked.push((partner(0), rv));
                    continue;
                }
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
        self.exact_below.clear();
        self.exact_below.resize(BLOCK_HEAPS, 256);
        if !self.unmarked.is_empty() {
            self.find_candidates(g, common);
        }
        self.start = start;
        self.mask = mask;
        self.filled = true;
    }

    /// Flags each heap's [`CANDIDATES`] least common values not marked that an unmarked rare
    /// heap gives, and bounds the exact flags of the heaps with as many candidates.
    fn find_candidates(&mut self, g: &[u8], common: &ByteSet) {
        // Candidate `t` of heap `i` at `[t][i]`; a heap with fewer repeats its first (or 0),
        // harmless as every value flagged is an option.
        let mut candidates = [[0u8; BLOCK_HEAPS]; CANDIDATES];
        for (i, (seen, exact_below)) in self.seen.iter().zip(&mut self.exact_below).enumerate() {
            let found = self.kernels.set_of(seen);
            let mut count = 0;
            for w in 0..4 {
                let mut free = common[w] & !found[w];
                while free != 0 && count < CANDIDATES {
                    candidates[count][i] = (64 * w) as u8 + free.trailing_zeros() as u8;
                    free &= free - 1;
                    count += 1;
                }
            }
            let least = candidates[0][i];
            for row in &mut candidates[count.max(1)..] {
                row[i] = least;
            }
            if count == CANDIDATES {
                *exact_below = u32::from(candidates[CANDIDATES - 1][i]) + 1;
            }
        }
        let found = (self.kernels).find_candidates(g, &self.unmarked, &candidates);
        for (row, &heaps) in candidates.iter().zip(&found) {
            let mut bits = heaps;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.seen[i][row[i] as usize] = true;
            }
        }
    }

    /// The option values of heap `n` from the block's rare heaps, and the bound below which
    /// they hold every common value found, when the block holding `n` is filled under `mask`.
    pub fn seen(&self, n: usize, mask: u32) -> Option<BlockOptions<'_>> {
        let i = n.checked_sub(self.start)?;
        (self.filled && self.mask == mask && i < BLOCK_HEAPS)
            .then(|| (&self.seen[i], self.exact_below[i]))
    }

    /// The rare heaps the filled block does not count, from the rare heaps it was filled from
    /// (and any found since): those below [`BLOCK_HEAPS`], then those from its start on, as two
    /// runs.
    pub fn others<'a>(&self, rare: &'a [RareHeap]) -> [&'a [RareHeap]; 2] {
        let (first, end) = self.counted;
        [&rare[..first], &rare[end..]]
    }

    pub fn start_of(n: usize) -> usize {
        n - n % BLOCK_HEAPS
    }

    pub fn bytes(&self) -> usize {
        256 * self.seen.capacity()
            + 4 * self.exact_below.capacity()
            + std::mem::size_of::<(usize, u8)>() * self.unmarked.capacity()
    }
}

/// Eight copies of the byte `v`.
fn eight(v: u8) -> u64 {
    u64::from(v) * 0x0101_0101_0101_0101
}

/// Eight partners from `partners`, as one word.
pub(super) fn eight_of(partners: &[u8]) -> u64 {
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

#[cfg(test)]
mod tests {
    use super::super::values::{sparse_byte_value, ValueSet};
    use super::*;

    /// A pseudo-random stream (xorshift), values below `bound`.
    fn stream(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut x = seed | 1;
        move |bound| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % bound
        }
    }

    #[test]
    fn a_block_flags_only_options_and_every_common_one_below_its_bound() {
        // Random values, the rare heaps of a mask, splits with and without equal parts: each
        // heap's flags against the pairs of the block's rare heaps, one by one.
        for (seed, top, mask) in [(7, 64, 0x3e), (8, 256, 0xfe), (9, 24, 0x0f)] {
            let mut next = stream(seed);
            let start = 3 * 1024;
            let g: Vec<u8> = (0..start + BLOCK_HEAPS).map(|_| next(top) as u8).collect();
            let is_rare = |v: u8| (u32::from(v) & mask).count_ones() % 2 == 0;
            let rare: Vec<RareHeap> = (1..start)
                .filter(|&r| is_rare(g[r]) && next(4) == 0)
                .map(|heap| RareHeap {
                    heap,
                    value: g[heap].into(),
                })
                .collect();
            let mut common = [0u64; 4];
            for v in 0..=255u8 {
                common[v as usize / 64] |= u64::from(!is_rare(v)) << (v % 64);
            }
            let splits = [&[(0, true)][..], &[(1, false), (2, true)]];
            let runs = (splits.into_iter())
                .flat_map(|splits| [(splits, false), (splits, true)])
                .flat_map(|run| Kernels::every().into_iter().map(move |k| (run, k)));
            for ((splits, mark_all), kernels) in runs {
                let mut block = RareBlock {
                    mark_all,
                    ..RareBlock::new(kernels)
                };
                block.fill(&g, &rare, splits, start, (mask, &common));
                let mut bounded = 0;
                for i in 0..BLOCK_HEAPS {
                    let (seen, exact_below) = block.seen(start + i, mask).expect("filled");
                    let mut options = [false; 256];
                    for &(take, unequal) in splits {
                        let rest = start + i - take;
                        for r in rare
                            .iter()
                            .filter(|r| r.heap >= BLOCK_HEAPS && r.heap < rest)
                        {
                            if !(unequal && 2 * r.heap == rest) {
                                options[(r.value as u8 ^ g[rest - r.heap]) as usize] = true;
                            }
                        }
                    }
                    bounded += usize::from(exact_below < 256);
                    // The value from the block, with its bound or with none, is the value from
                    // every rare heap in turn.
                    let n = start + i;
                    let heap_splits: Vec<(usize, bool)> = splits
                        .iter()
                        .map(|&(take, unequal)| (n - take, unequal))
                        .collect();
                    let value = |block| {
                        let options = ValueSet::default();
                        sparse_byte_value(
                            &g,
                            &rare,
                            &heap_splits,
                            &options,
                            &common,
                            block,
                            kernels,
                        )
                    };
                    let others = block.others(&rare);
                    let alone = value(None);
                    assert_eq!(
                        value(Some(((seen, exact_below), others))),
                        alone,
                        "{seed} {i}"
                    );
                    assert_eq!(value(Some(((seen, 0), others))), alone, "{seed} {i}");
                    for v in 0..256 {
                        assert!(!seen[v] || options[v], "{seed} {i} {v}");
                        if !is_rare(v as u8) && (v as u32) < exact_below {
                            assert_eq!(seen[v], options[v], "{seed} {i} {v}");
                        }
                    }
                }
                if mark_all || !kernels.vector_compares() {
                    assert_eq!(bounded, 0, "{seed}: every flag is exact");
                } else {
                    assert!(bounded > 0, "{seed}: some heaps have a bound");
                }
            }
        }
    }
}
