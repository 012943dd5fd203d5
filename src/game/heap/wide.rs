//! The sparse space when values take two bytes (past 255: Officers' values, for one) and the
//! byte codes of `codes.rs` do not serve (a value from 512 on, a rare heap among the partners,
//! or no room for the codes): the pairs with a rare part of a block of [`WIDE_BLOCK_HEAPS`]
//! consecutive heaps. A rare heap `r` at
//! least [`WIDE_BLOCK_HEAPS`] below the block pairs with consecutive heaps, all known when the
//! block starts, so each rare heap's partner values are one contiguous read for the block, each
//! setting a byte flag in its heap's row. Only the first bytes of a row are used (at first
//! [`first_row_use`], so that the rows of a block stay in the L1 cache): a value past them marks
//! the row's last byte, which is a trash slot, and the row is exact only below it. When a heap's
//! least missing common value is not below it, the caller pairs that heap's rare heaps again
//! one by one, and the rows of later blocks are made longer ([`WideBlock::lengthen_rows`]).
//!
//! With AVX2 only the first [`MARKED_PARTS`] of the rare heaps that pair with the whole block
//! mark their pairs; for the others only whether they give a heap's [`CANDIDATES`] least common
//! values not marked is found, 16 heaps a vector compare. A heap whose candidates are all found
//! has its row exact only below its last candidate, and is paired again one by one too. The
//! rare values the unmarked rare heaps give are not flagged: the scan, over every pair, finds
//! them. The scan of the other pairs is in `wide_scan.rs`.

use super::block::{BLOCK_HEAPS, CANDIDATES, MARKED_PARTS};
use super::kernels::{Candidates, Kernels};
use super::values::{RareHeap, ValueSet};

/// How many consecutive heaps share one pass over the rare heaps: as many as a byte block.
pub(super) const WIDE_BLOCK_HEAPS: usize = BLOCK_HEAPS;

/// The widest row of a block: values below this many (a bound of 2048).
const WIDEST_ROW: usize = 2048;

/// The bytes of a row in use at first: the least multiple of 64 above every value so far (the
/// least missing value of a heap is rarely above them all), so that the rows of a block stay in
/// the L1 cache (Officers' values to 2^22 are below 320: 64 rows of 320 bytes take 20 KB).
fn first_row_use(g: &[u16]) -> usize {
    let largest = usize::from(g.iter().copied().max().unwrap_or(0));
    ((largest + 1).div_ceil(64) * 64).clamp(64, WIDEST_ROW)
}

/// Fills `$block` with rows of `$row` bytes, the const `ROW` of [`WideBlock::fill`]: a multiple
/// of 64 from 64 to [`WIDEST_ROW`] (any other length leaves the block unfilled, and its heaps
/// are paired heap by heap).
macro_rules! fill_with_row {
    ($block:expr, $row:expr, $args:tt, $($len:literal)*) => {
        match $row {
            $($len => $block.fill::<$len> $args,)*
            _ => {}
        }
    };
}

/// For each heap of the block `start..start + WIDE_BLOCK_HEAPS`, a flag for each option value
/// (rows of `row` bytes, the first `used` in use) of its pairs with a rare heap `r`,
/// `WIDE_BLOCK_HEAPS <= r < start`, under `mask`. When `used` is below the bound on the values,
/// byte `used - 1` of a row stands for every value from `used - 1` on.
pub(super) struct WideBlock {
    start: usize,
    mask: u32,
    filled: bool,
    row: usize,
    used: usize,
    capped: bool,
    /// The bytes of a row the next blocks use (a multiple of 64); 0 before the first block,
    /// which takes [`first_row_use`].
    row_use: usize,
    seen: Vec<u8>,
    /// For each heap of the block, the value below which its row holds every common value of
    /// its pairs (`u32::MAX`: every value).
    exact_below: Vec<u32>,
    /// The rare heaps not marked: the first partner of each, and its value.
    unmarked: Vec<(usize, u16)>,
    kernels: Kernels,
}

impl WideBlock {
    /// An empty block, to run `kernels`.
    pub fn new(kernels: Kernels) -> WideBlock {
        WideBlock::with_row_use(0, kernels)
    }

    /// A block whose rows use `row_use` bytes (a multiple of 64, or 0 for [`first_row_use`]) at
    /// first.
    pub fn with_row_use(row_use: usize, kernels: Kernels) -> WideBlock {
        WideBlock {
            start: 0,
            mask: 0,
            filled: false,
            row: 0,
            used: 0,
            capped: false,
            row_use,
            seen: Vec::new(),
            exact_below: Vec::new(),
            unmarked: Vec::new(),
            kernels,
        }
    }

    /// Makes the rows of the next blocks 64 bytes longer: a heap's least missing common value
    /// was not below the exact part of its row.
    fn lengthen_rows(&mut self) {
        self.row_use = (self.row_use + 64).min(WIDEST_ROW);
    }

    /// The bytes of a row the next blocks use.
    #[cfg(test)]
    pub fn row_use(&self) -> usize {
        self.row_use
    }

    /// After a heap of the block was paired again one by one: when its least missing common
    /// value (`None`: there is none) was not below the exact part of its row, makes the rows of
    /// the next blocks long enough to hold it exactly (64 bytes longer when there is none).
    pub fn lengthen_rows_if_cut(&mut self, common_mex: Option<u32>) {
        if !self.capped {
            return;
        }
        match common_mex {
            Some(mex) if (mex as usize) < self.used - 1 => {}
            Some(mex) => {
                let holding = (mex as usize + 2).div_ceil(64) * 64;
                self.row_use = self.row_use.max(holding).min(WIDEST_ROW);
            }
            None => self.lengthen_rows(),
        }
    }

    /// Inserts into `options` the values of the pairs `(r, rest - r)` of heap `n = g.len()`
    /// with a rare part `r`, for each `(rest, unequal)` of `splits`; `takes` are the
    /// `(take, unequal)` of each way to split, and every value so far is below `bound`. At the
    /// start of a block, fills the block first (when its rows are at most [`WIDEST_ROW`]).
    /// Returns the value below which the values inserted are all of those pairs' values (the
    /// values from it on may be missing), `u32::MAX` when all are inserted.
    #[allow(clippy::too_many_arguments)]
    pub fn insert_rare_pairs(
        &mut self,
        g: &[u16],
        rare: &[RareHeap],
        splits: &[(usize, bool)],
        takes: &[(usize, bool)],
        mask: u32,
        bound: usize,
        options: &mut ValueSet,
    ) -> u32 {
        let n = g.len();
        let start = n - n % WIDE_BLOCK_HEAPS;
        if n == start && start >= WIDE_BLOCK_HEAPS {
            self.filled = false;
            if self.row_use == 0 {
                self.row_use = first_row_use(g);
            }
            // The rows lie end to end, `ROW` bytes each (rows 512 bytes apart, of which 320
            // used, would fall in a fifth of the L1 cache's sets).
            let room = bound.max(512);
            if room <= WIDEST_ROW {
                fill_with_row!(self, self.row_use.min(room),
                    (g, rare, takes, start, mask, bound),
                    64 128 192 256 320 384 448 512 576 640 704 768 832 896 960 1024
                    1088 1152 1216 1280 1344 1408 1472 1536 1600 1664 1728 1792 1856 1920 1984
                    2048);
            }
        }
        let mut exact_below = u32::MAX;
        let runs = if self.filled && self.mask == mask && self.start == start {
            let row = &mut self.seen[(n - start) * self.row..][..self.used];
            if self.capped {
                row[self.used - 1] = 0;
            }
            exact_below = self.exact_below[n - start];
            insert_flags(row, options, self.kernels);
            let (first, end) = block_rare_range(rare, start);
            [&rare[..first], &rare[end..]]
        } else {
            [rare, &[][..]]
        };
        for run in runs {
            for &(rest, unequal) in splits {
                super::values::insert_rare_pairs(g, run, rest, unequal, options);
            }
        }
        exact_below
    }

    fn fill<const ROW: usize>(
        &mut self,
        g: &[u16],
        rare: &[RareHeap],
        takes: &[(usize, bool)],
        start: usize,
        mask: u32,
        bound: usize,
    ) {
        self.row = ROW;
        self.used = self.row_use.min(ROW);
        self.capped = self.used < bound;
        let cap = (self.used - 1) as u16;
        self.seen.resize(WIDE_BLOCK_HEAPS * ROW, 0);
        let (rows, _) = self.seen.as_chunks_mut::<ROW>();
        for row in rows.iter_mut() {
            row[..self.used].fill(0);
        }
        let (first, end) = block_rare_range(rare, start);
        let kernels = self.kernels;
        let marked = if kernels.vector_compares() {
            (end - first) * MARKED_PARTS.0 / MARKED_PARTS.1
        } else {
            end - first
        };
        self.unmarked.clear();
        for &(take, unequal) in takes {
            for (k, r) in rare[first..end].iter().enumerate() {
                let value = r.value as u16;
                // Heap `start + i` leaves `start + i - take`, split as `(r, partner)`: the
                // partner must be a heap (>= 1), and two equal parts are no move when `unequal`.
                let lo = (r.heap + take + 1)
                    .saturating_sub(start)
                    .max((take + 2).saturating_sub(start));
                if lo >= WIDE_BLOCK_HEAPS {
                    continue;
                }
                let equal = if unequal && 2 * r.heap + take >= start {
                    2 * r.heap + take - start
                } else {
                    usize::MAX
                };
                // The partner of heap `start + i`, for `i >= lo` (so that it is a heap).
                let partner = |i: usize| start + i - take - r.heap;
                if lo == 0 && equal >= WIDE_BLOCK_HEAPS && k >= marked {
                    self.unmarked.push((partner(0), value));
                    continue;
                }
                if lo == 0 && equal >= WIDE_BLOCK_HEAPS {
                    // Every heap of the block pairs with `r`.
                    let partners = &g[partner(0)..partner(WIDE_BLOCK_HEAPS)];
                    kernels.mark_wide(rows, partners, value, cap);
                    continue;
                }
                for (lo, hi) in [
                    (lo, equal.clamp(lo, WIDE_BLOCK_HEAPS)),
                    (equal.saturating_add(1).max(lo), WIDE_BLOCK_HEAPS),
                ] {
                    if lo < hi {
                        let partners = &g[partner(lo)..partner(hi)];
                        kernels.mark_wide(&mut rows[lo..hi], partners, value, cap);
                    }
                }
            }
        }
        let cut = if self.capped { cap.into() } else { u32::MAX };
        self.exact_below.clear();
        self.exact_below.resize(WIDE_BLOCK_HEAPS, cut);
        if !self.unmarked.is_empty() {
            self.find_candidates(g, mask);
        }
        self.start = start;
        self.mask = mask;
        self.filled = true;
    }

    /// Flags each heap's [`CANDIDATES`] least common values (under `mask`) not marked that an
    /// unmarked rare heap gives, and bounds the exact flags of the heaps with as many
    /// candidates.
    fn find_candidates(&mut self, g: &[u16], mask: u32) {
        // The common values in the exact part of a row.
        let limit = if self.capped {
            self.used - 1
        } else {
            self.used
        };
        let mut common = [0u64; WIDEST_ROW / 64];
        for v in 0..limit {
            let is_common = (v as u32 & mask).count_ones() % 2 == 1;
            common[v / 64] |= u64::from(is_common) << (v % 64);
        }
        // A heap with fewer candidates repeats its first (or 0), harmless as every value
        // flagged is an option.
        let mut candidates: Candidates<u16> = [[0; WIDE_BLOCK_HEAPS]; CANDIDATES];
        for (i, exact_below) in self.exact_below.iter_mut().enumerate() {
            let mut words = [0u64; WIDEST_ROW / 64];
            let words = &mut words[..self.used / 64];
            (self.kernels).flag_words(&self.seen[i * self.row..][..self.used], words);
            let mut count = 0;
            for (w, (&found, &common)) in words.iter().zip(&common).enumerate() {
                let mut free = common & !found;
                while free != 0 && count < CANDIDATES {
                    candidates[count][i] = (64 * w) as u16 + free.trailing_zeros() as u16;
                    free &= free - 1;
                    count += 1;
                }
            }
            let least = candidates[0][i];
            for row in &mut candidates[count.max(1)..] {
                row[i] = least;
            }
            if count == CANDIDATES {
                let last = u32::from(candidates[CANDIDATES - 1][i]) + 1;
                *exact_below = (*exact_below).min(last);
            }
        }
        let found = (self.kernels).find_candidates(g, &self.unmarked, &candidates);
        for (row, &heaps) in candidates.iter().zip(&found) {
            let mut bits = heaps;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.seen[i * self.row + usize::from(row[i])] = 1;
            }
        }
    }

    pub fn bytes(&self) -> usize {
        self.seen.capacity()
            + 4 * self.exact_below.capacity()
            + std::mem::size_of::<(usize, u16)>() * self.unmarked.capacity()
    }
}

/// Inserts into `options` each value `v` with `flags[v] != 0`.
fn insert_flags(flags: &[u8], options: &mut ValueSet, kernels: Kernels) {
    let mut words = [0u64; WIDEST_ROW / 64];
    let words = &mut words[..flags.len() / 64];
    kernels.flag_words(flags, words);
    options.insert_words(words);
}

/// The indices of the rare heaps `r` with `WIDE_BLOCK_HEAPS <= r < start`.
fn block_rare_range(rare: &[RareHeap], start: usize) -> (usize, usize) {
    let first = rare.partition_point(|r| r.heap < WIDE_BLOCK_HEAPS);
    (first, rare.partition_point(|r| r.heap < start).max(first))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A fixed pseudo-random stream (xorshift).
    pub(in crate::game::heap) fn stream(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// The values of `before` that no pair `(a, rest - a)` of `g` has, pair by pair.
    pub(in crate::game::heap) fn left_by_pairs(
        g: &[u16],
        (rest, unequal): (usize, bool),
        before: &[u32],
    ) -> Vec<u32> {
        let pairs: Vec<u32> = (1..=super::super::values::last_pair(rest, unequal))
            .map(|a| u32::from(g[a] ^ g[rest - a]))
            .collect();
        (before.iter().copied())
            .filter(|v| !pairs.contains(v))
            .collect()
    }

    #[test]
    fn blocks_give_the_rare_pairs_heap_by_heap() {
        let mut next = stream(3);
        for (top, bound) in [
            (512, 512),
            (1024, 1024),
            (2048, 2048),
            (300, 4096),
            (500, 512),
            (40, 512),
        ] {
            let g: Vec<u16> = (0..1000).map(|_| (next() % top) as u16).collect();
            let rare: Vec<RareHeap> = (1..1000)
                .filter(|_| next().is_multiple_of(9))
                .map(|heap| RareHeap {
                    heap,
                    value: u32::from(g[heap]),
                })
                .collect();
            let takes = [(0, true), (1, false), (2, true)];
            // Rows whole, rows of the first use, and rows so short that most values are cut.
            let runs = [WIDEST_ROW, 320, 64]
                .into_iter()
                .flat_map(|row_use| Kernels::every().into_iter().map(move |k| (row_use, k)));
            for (row_use, kernels) in runs {
                let mut block = WideBlock::with_row_use(row_use, kernels);
                let (mut cut, mut bounded) = (0, 0);
                for n in 0..1000 {
                    let splits: Vec<(usize, bool)> = (takes.iter())
                        .filter(|&&(take, _)| take + 2 <= n)
                        .map(|&(take, unequal)| (n - take, unequal))
                        .collect();
                    let mut by_block = ValueSet::default();
                    by_block.grow(2 * bound);
                    let exact_below = block.insert_rare_pairs(
                        &g[..n],
                        &rare,
                        &splits,
                        &takes,
                        1,
                        bound,
                        &mut by_block,
                    );
                    let mut by_heap = ValueSet::default();
                    by_heap.grow(2 * bound);
                    for &(rest, unequal) in &splits {
                        super::super::values::insert_rare_pairs(
                            &g[..],
                            &rare,
                            rest,
                            unequal,
                            &mut by_heap,
                        );
                    }
                    let found: Vec<u32> = by_block.iter().collect();
                    let all: Vec<u32> = by_heap.iter().collect();
                    assert!(found.iter().all(|v| all.contains(v)), "heap {n}");
                    // Under the mask 1 the odd values are the common ones: exact below the
                    // bound; the rare ones may be missing (the scan finds them).
                    let common = |v: &&u32| **v % 2 == 1;
                    let below = |v: &&u32| **v < exact_below && common(v);
                    assert_eq!(
                        found.iter().filter(below).collect::<Vec<_>>(),
                        all.iter().filter(below).collect::<Vec<_>>(),
                        "heap {n}, rows of {row_use}"
                    );
                    let differ = found.iter().filter(common).ne(all.iter().filter(common));
                    cut += usize::from(differ);
                    bounded += usize::from(exact_below != u32::MAX);
                }
                if bound > WIDEST_ROW {
                    // No block: every pair heap by heap.
                    assert_eq!((cut, bounded), (0, 0), "{top} {row_use}");
                } else if row_use < bound || kernels.vector_compares() {
                    // Rows shorter than the values, or candidates, bound some heaps.
                    assert!(bounded > 0, "{top} {row_use}");
                }
                if bound <= WIDEST_ROW && row_use < bound && top > row_use as u64 {
                    assert!(cut > 0, "{top} {row_use}");
                }
            }
        }
    }

    #[test]
    fn a_heap_whose_candidates_are_all_found_is_bounded_below_its_least_missing_value() {
        // The first half of the rare heaps (the marked ones, with AVX2) give only values from
        // 256 on; the 480 others give almost every odd value below 64 to each heap of the block,
        // so that most heaps' 16 candidates (odd values from 1 on) are all found and their least
        // missing common value (odd, under the mask 1) is past them.
        let mut next = stream(11);
        let start = 1024;
        let g: Vec<u16> = (0..start + WIDE_BLOCK_HEAPS)
            .map(|_| (next() % 64) as u16)
            .collect();
        let heaps: Vec<usize> = (WIDE_BLOCK_HEAPS..start).collect();
        let rare: Vec<RareHeap> = (heaps.iter().enumerate())
            .map(|(k, &heap)| RareHeap {
                heap,
                value: if k < heaps.len() / 2 {
                    256
                } else {
                    (next() % 64) as u32
                },
            })
            .collect();
        let takes = [(0, false)];
        for kernels in Kernels::every() {
            let mut block = WideBlock::with_row_use(512, kernels);
            let mut fallbacks = 0;
            for n in start..start + WIDE_BLOCK_HEAPS {
                let splits = [(n, false)];
                let mut by_block = ValueSet::default();
                by_block.grow(1024);
                let exact_below =
                    block.insert_rare_pairs(&g[..n], &rare, &splits, &takes, 1, 512, &mut by_block);
                let mut by_heap = ValueSet::default();
                by_heap.grow(1024);
                super::super::values::insert_rare_pairs(&g[..], &rare, n, false, &mut by_heap);
                let common_mex = |set: &ValueSet| (1..).step_by(2).find(|&v| !set.contains(v));
                let (mex, true_mex) = (common_mex(&by_block), common_mex(&by_heap));
                // Below the bound the block is right; a heap whose least missing value is not below
                // it is paired again one by one.
                if mex < Some(exact_below) {
                    assert_eq!(mex, true_mex, "{n}");
                } else {
                    assert!(true_mex >= Some(exact_below), "{n}");
                    fallbacks += 1;
                }
            }
            if kernels.vector_compares() {
                assert!(fallbacks > WIDE_BLOCK_HEAPS / 2, "{fallbacks}");
            }
        }
    }
}
