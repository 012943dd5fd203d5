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

use super::block::{
    find_candidates_portable, FoundCandidates, BLOCK_HEAPS, CANDIDATES, MARKED_PARTS,
};
use super::values::{RareHeap, ValueSet};

/// How many consecutive heaps share one pass over the rare heaps: as many as a byte block.
pub(super) const WIDE_BLOCK_HEAPS: usize = BLOCK_HEAPS;

/// Candidate `t` of heap `i` at `[t][i]`.
type Candidates = [[u16; WIDE_BLOCK_HEAPS]; CANDIDATES];

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
}

impl Default for WideBlock {
    fn default() -> WideBlock {
        WideBlock::with_row_use(0)
    }
}

impl WideBlock {
    /// A block whose rows use `row_use` bytes (a multiple of 64, or 0 for [`first_row_use`]) at
    /// first.
    pub fn with_row_use(row_use: usize) -> WideBlock {
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
            insert_flags(row, options);
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
        let avx2 = has_avx2();
        let marked = if avx2 {
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
                    mark(rows, partners, value, cap, avx2);
                    continue;
                }
                for (lo, hi) in [
                    (lo, equal.clamp(lo, WIDE_BLOCK_HEAPS)),
                    (equal.saturating_add(1).max(lo), WIDE_BLOCK_HEAPS),
                ] {
                    if lo < hi {
                        let partners = &g[partner(lo)..partner(hi)];
                        mark(&mut rows[lo..hi], partners, value, cap, avx2);
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
        let mut candidates: Candidates = [[0; WIDE_BLOCK_HEAPS]; CANDIDATES];
        for (i, exact_below) in self.exact_below.iter_mut().enumerate() {
            let mut words = [0u64; WIDEST_ROW / 64];
            let words = &mut words[..self.used / 64];
            flag_words(&self.seen[i * self.row..][..self.used], words);
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
        let found = find_candidates(g, &self.unmarked, &candidates);
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

/// Heaps marked at once.
const MARKED_AT_ONCE: usize = 16;

/// Sets flag `min(partners[i] ^ value, cap)` of `rows[i]` for each heap `i` of `rows`
/// (`cap < ROW`); with `avx2` (the processor has it) the flags of [`MARKED_AT_ONCE`] partners
/// are computed at once.
fn mark<const ROW: usize>(
    rows: &mut [[u8; ROW]],
    partners: &[u16],
    value: u16,
    cap: u16,
    avx2: bool,
) {
    let whole = rows.len() / MARKED_AT_ONCE * MARKED_AT_ONCE;
    let (runs, rest) = rows.split_at_mut(whole);
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: the processor has AVX2 (the caller's word).
        unsafe { mark_avx2(runs, &partners[..whole], value, cap) };
        mark_one_by_one(rest, &partners[whole..], value, cap);
        return;
    }
    let _ = avx2;
    mark_one_by_one(rows, partners, value, cap);
}

/// Whether the processor has AVX2.
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

fn mark_one_by_one<const ROW: usize>(
    rows: &mut [[u8; ROW]],
    partners: &[u16],
    value: u16,
    cap: u16,
) {
    for (row, &p) in rows.iter_mut().zip(partners) {
        row[usize::from((p ^ value).min(cap))] = 1;
    }
}

/// [`mark`] for whole runs of [`MARKED_AT_ONCE`] heaps: 16 partners xored and capped in one
/// vector, plus the offset of each one's row in the run.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mark_avx2<const ROW: usize>(
    rows: &mut [[u8; ROW]],
    partners: &[u16],
    value: u16,
    cap: u16,
) {
    use std::arch::x86_64::*;
    const { assert!(MARKED_AT_ONCE * ROW <= 1 << 16) };
    let offsets: [u16; MARKED_AT_ONCE] = std::array::from_fn(|k| (k * ROW) as u16);
    // SAFETY: `offsets` holds 32 bytes, read unaligned.
    let offsets = unsafe { _mm256_loadu_si256(offsets.as_ptr().cast()) };
    let (value, cap) = (
        _mm256_set1_epi16(value as i16),
        _mm256_set1_epi16(cap as i16),
    );
    let (chunks, _) = partners.as_chunks::<MARKED_AT_ONCE>();
    for (rows, chunk) in rows.chunks_exact_mut(MARKED_AT_ONCE).zip(chunks) {
        let mut flags = [0u16; MARKED_AT_ONCE];
        // SAFETY: the chunk and `flags` hold 32 bytes each, read and written unaligned.
        unsafe {
            let p = _mm256_loadu_si256(chunk.as_ptr().cast());
            let f = _mm256_min_epu16(_mm256_xor_si256(p, value), cap);
            _mm256_storeu_si256(flags.as_mut_ptr().cast(), _mm256_add_epi16(f, offsets));
        }
        let run = rows.as_mut_ptr().cast::<u8>();
        for &f in &flags {
            // SAFETY: flag `k` is `k * ROW` plus a value at most `cap < ROW`: inside the run of
            // `MARKED_AT_ONCE` rows.
            unsafe { *run.add(usize::from(f)) = 1 };
        }
    }
}

/// Inserts into `options` each value `v` with `flags[v] != 0`.
fn insert_flags(flags: &[u8], options: &mut ValueSet) {
    let mut words = [0u64; WIDEST_ROW / 64];
    let words = &mut words[..flags.len() / 64];
    flag_words(flags, words);
    options.insert_words(words);
}

/// The flags of 64 values a word, as bits.
fn flag_words(flags: &[u8], words: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { flag_words_avx2(flags, words) };
        return;
    }
    for (word, chunk) in words.iter_mut().zip(flags.chunks_exact(64)) {
        *word = (chunk.iter().enumerate()).fold(0, |bits, (j, &f)| bits | u64::from(f != 0) << j);
    }
}

/// For each candidate `t` and heap `i` of the block, whether `g[p + i] ^ v == candidates[t][i]`
/// for some `(p, v)` of `unmarked`: bit `i` of word `t`.
fn find_candidates(
    g: &[u16],
    unmarked: &[(usize, u16)],
    candidates: &Candidates,
) -> FoundCandidates {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { find_candidates_avx2(g, unmarked, candidates) };
    }
    find_candidates_portable(g, unmarked, candidates)
}

/// How many candidates one pass of [`find_candidates_avx2`] compares, one register each.
#[cfg(target_arch = "x86_64")]
const PASS: usize = 8;

/// [`find_candidates`] by 16 heaps a vector: each unmarked rare heap's 16 partners xored with
/// its value and compared with [`PASS`] candidates a pass.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn find_candidates_avx2(
    g: &[u16],
    unmarked: &[(usize, u16)],
    candidates: &Candidates,
) -> FoundCandidates {
    use std::arch::x86_64::*;
    let mut found = [0u64; CANDIDATES];
    for quarter in (0..WIDE_BLOCK_HEAPS).step_by(MARKED_AT_ONCE) {
        for pass in (0..CANDIDATES).step_by(PASS) {
            let wanted: [__m256i; PASS] = std::array::from_fn(|k| {
                // SAFETY: a row holds 64 values, and `quarter + 16 <= 64`.
                unsafe { _mm256_loadu_si256(candidates[pass + k].as_ptr().add(quarter).cast()) }
            });
            let mut hits = [_mm256_setzero_si256(); PASS];
            for &(p, v) in unmarked {
                let partners = &g[p + quarter..p + quarter + MARKED_AT_ONCE];
                // SAFETY: `partners` holds 32 bytes, read unaligned.
                let x = unsafe { _mm256_loadu_si256(partners.as_ptr().cast()) };
                let x = _mm256_xor_si256(x, _mm256_set1_epi16(v as i16));
                for (hit, &w) in hits.iter_mut().zip(&wanted) {
                    *hit = _mm256_or_si256(*hit, _mm256_cmpeq_epi16(x, w));
                }
            }
            for (heaps, hit) in found[pass..pass + PASS].iter_mut().zip(hits) {
                let lanes = even_bits(_mm256_movemask_epi8(hit) as u32);
                *heaps |= u64::from(lanes) << quarter;
            }
        }
    }
    found
}

/// Bits 0, 2, 4, ... of `bits` (the byte mask of 16 two-byte lanes), packed.
#[cfg(target_arch = "x86_64")]
fn even_bits(bits: u32) -> u16 {
    let mut x = bits & 0x5555_5555;
    x = (x | x >> 1) & 0x3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff;
    x as u16
}

/// The flags of 64 values a word, as bits, in AVX2: 32 flags compared with zero at once.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn flag_words_avx2(flags: &[u8], words: &mut [u64]) {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    for (word, chunk) in words.iter_mut().zip(flags.chunks_exact(64)) {
        // SAFETY: each chunk holds 64 bytes, read unaligned as two halves.
        let (low, high) = unsafe {
            (
                _mm256_loadu_si256(chunk.as_ptr().cast()),
                _mm256_loadu_si256(chunk.as_ptr().add(32).cast()),
            )
        };
        let empty_low = _mm256_movemask_epi8(_mm256_cmpeq_epi8(low, zero)) as u32;
        let empty_high = _mm256_movemask_epi8(_mm256_cmpeq_epi8(high, zero)) as u32;
        *word = !(u64::from(empty_low) | u64::from(empty_high) << 32);
    }
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
            for row_use in [WIDEST_ROW, 320, 64] {
                let mut block = WideBlock::with_row_use(row_use);
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
                            &g,
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
                } else if row_use < bound || has_avx2() {
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
    fn the_candidates_found_are_those_of_a_plain_loop() {
        for (seed, top, count) in [
            (1, 512, 0),
            (2, 320, 1),
            (3, 16, 7),
            (4, 40, 100),
            (5, 2048, 333),
        ] {
            let mut next = stream(seed);
            let g: Vec<u16> = (0..4000).map(|_| (next() % top) as u16).collect();
            let unmarked: Vec<(usize, u16)> = (0..count)
                .map(|_| {
                    let p = next() as usize % (4000 - WIDE_BLOCK_HEAPS);
                    (p, (next() % top) as u16)
                })
                .collect();
            let mut candidates: Candidates = [[0; WIDE_BLOCK_HEAPS]; CANDIDATES];
            for row in &mut candidates {
                row.iter_mut().for_each(|c| *c = (next() % top) as u16);
            }
            let mut expected = [0u64; CANDIDATES];
            for (t, row) in candidates.iter().enumerate() {
                for (i, &c) in row.iter().enumerate() {
                    if unmarked.iter().any(|&(p, v)| g[p + i] ^ v == c) {
                        expected[t] |= 1 << i;
                    }
                }
            }
            // The portable loop too, whatever the processor.
            let found = find_candidates(&g, &unmarked, &candidates);
            assert_eq!(found, expected, "{seed}");
            let found = find_candidates_portable(&g, &unmarked, &candidates);
            assert_eq!(found, expected, "{seed}");
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
        let mut block = WideBlock::with_row_use(512);
        let mut fallbacks = 0;
        for n in start..start + WIDE_BLOCK_HEAPS {
            let splits = [(n, false)];
            let mut by_block = ValueSet::default();
            by_block.grow(1024);
            let exact_below =
                block.insert_rare_pairs(&g[..n], &rare, &splits, &takes, 1, 512, &mut by_block);
            let mut by_heap = ValueSet::default();
            by_heap.grow(1024);
            super::super::values::insert_rare_pairs(&g, &rare, n, false, &mut by_heap);
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
        if has_avx2() {
            assert!(fallbacks > WIDE_BLOCK_HEAPS / 2, "{fallbacks}");
        }
    }
}
