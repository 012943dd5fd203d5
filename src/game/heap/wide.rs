//! The sparse space when values take two bytes (past 255: Officers' values, for one).
//!
//! - The pairs with a rare part of a block of [`WIDE_BLOCK_HEAPS`] consecutive heaps: a rare
//!   heap `r` at least [`WIDE_BLOCK_HEAPS`] below the block pairs with consecutive heaps, all
//!   known when the block starts, so each rare heap's partner values are one contiguous read for
//!   the block, each setting a bit in its heap's set of option values.
//! - The scan of the other pairs for the rare values still missing: one pair at a time while
//!   many are missing; then 16 pairs at once, compared with each of the few values still wanted
//!   (AVX2 when the processor has it, else a portable loop), only the pairs that hit looked at.

#[cfg(target_arch = "x86_64")]
use super::values::xor_reversed_avx2;
use super::values::{last_pair, RareHeap, ValueSet};

/// How many consecutive heaps share one pass over the rare heaps.
pub(super) const WIDE_BLOCK_HEAPS: usize = 64;

/// The widest row of a block: values below this many (a bound of 2048).
const WIDEST_ROW: usize = 2048;

/// For each heap of the block `start..start + WIDE_BLOCK_HEAPS`, a flag for each option value
/// (`row` bytes a heap, values below `row`) of its pairs with a rare heap `r`,
/// `WIDE_BLOCK_HEAPS <= r < start`, under `mask`.
#[derive(Default)]
pub(super) struct WideBlock {
    start: usize,
    mask: u32,
    filled: bool,
    row: usize,
    seen: Vec<u8>,
}

impl WideBlock {
    /// Inserts into `options` the values of the pairs `(r, rest - r)` of heap `n = g.len()`
    /// with a rare part `r`, for each `(rest, unequal)` of `splits`; `takes` are the
    /// `(take, unequal)` of each way to split, and every value so far is below `bound`. At the
    /// start of a block, fills the block first (when its rows are at most [`WIDEST_ROW`]).
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
    ) {
        let n = g.len();
        let start = n - n % WIDE_BLOCK_HEAPS;
        if n == start && start >= WIDE_BLOCK_HEAPS {
            self.filled = false;
            match bound.max(512) {
                512 => self.fill::<512>(g, rare, takes, start, mask),
                1024 => self.fill::<1024>(g, rare, takes, start, mask),
                WIDEST_ROW => self.fill::<WIDEST_ROW>(g, rare, takes, start, mask),
                _ => {}
            }
        }
        let runs = if self.filled && self.mask == mask && self.start == start {
            let i = n - start;
            insert_flags(&self.seen[i * self.row..(i + 1) * self.row], options);
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
    }

    fn fill<const ROW: usize>(
        &mut self,
        g: &[u16],
        rare: &[RareHeap],
        takes: &[(usize, bool)],
        start: usize,
        mask: u32,
    ) {
        self.row = ROW;
        self.seen.clear();
        self.seen.resize(WIDE_BLOCK_HEAPS * ROW, 0);
        let (rows, _) = self.seen.as_chunks_mut::<ROW>();
        let (first, end) = block_rare_range(rare, start);
        for r in &rare[first..end] {
            for &(take, unequal) in takes {
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
                let v = r.value as u16;
                for (lo, hi) in [
                    (lo, equal.clamp(lo, WIDE_BLOCK_HEAPS)),
                    (equal.saturating_add(1).max(lo), WIDE_BLOCK_HEAPS),
                ] {
                    if lo < hi {
                        let partners = &g[start + lo - take - r.heap..start + hi - take - r.heap];
                        for (row, &p) in rows[lo..hi].iter_mut().zip(partners) {
                            row[usize::from(v ^ p) & (ROW - 1)] = 1;
                        }
                    }
                }
            }
        }
        self.start = start;
        self.mask = mask;
        self.filled = true;
    }

    pub fn bytes(&self) -> usize {
        self.seen.capacity()
    }
}

/// Inserts into `options` each value `v` with `flags[v] != 0`.
fn insert_flags(flags: &[u8], options: &mut ValueSet) {
    let mut words = [0u64; WIDEST_ROW / 64];
    let words = &mut words[..flags.len() / 64];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { flag_words_avx2(flags, words) };
        options.insert_words(words);
        return;
    }
    for (word, chunk) in words.iter_mut().zip(flags.chunks_exact(64)) {
        *word = (chunk.iter().enumerate()).fold(0, |bits, (j, &f)| bits | u64::from(f != 0) << j);
    }
    options.insert_words(words);
}

/// The flags of 64 values a word, as bits, in AVX2: 32 flags compared with zero at once.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn flag_words_avx2(flags: &[u8], words: &mut [u64]) {
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

/// Pairs compared at once.
const LANES: usize = 16;

/// Up to how many values still wanted the pairs are compared with each of them at once.
const FEW: usize = 24;

/// Takes `g[a] ^ g[rest - a]` out of `wanted` for the pairs `a = 1, 2, ...` in turn, until the
/// `missing` values of `wanted` are found; returns how many are still missing.
pub(super) fn find_in_wide_pairs(
    g: &[u16],
    rest: usize,
    unequal: bool,
    wanted: &mut ValueSet,
    missing: u32,
) -> u32 {
    let last = last_pair(rest, unequal);
    let (low, high) = (&g[1..=last], &g[rest - last..rest]);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { find_avx2(low, high, wanted, missing) };
    }
    find_with(low, high, wanted, missing, lane_hits)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn find_avx2(low: &[u16], high: &[u16], wanted: &mut ValueSet, missing: u32) -> u32 {
    // SAFETY: this function runs only where the processor has AVX2.
    find_with(low, high, wanted, missing, |l, h, f| unsafe {
        lane_hits_avx2(l, h, f)
    })
}

/// The pairs `(low[i], high[len - 1 - i])` in turn; `hits_of` gives the pairs of a block of
/// [`LANES`] whose value is one of a few (each repeated in [`LANES`] lanes), as bit `2 j` for
/// pair `j`.
#[inline(always)]
fn find_with(
    low: &[u16],
    high: &[u16],
    wanted: &mut ValueSet,
    mut missing: u32,
    hits_of: impl Fn(&[u16; LANES], &[u16; LANES], &[[u16; LANES]]) -> u32,
) -> u32 {
    let len = low.len();
    let pair = |i: usize| u32::from(low[i] ^ high[len - 1 - i]);
    let mut i = 0;
    while i < len && missing as usize > FEW {
        missing -= u32::from(wanted.remove(pair(i)));
        i += 1;
    }
    let mut few = [[0u16; LANES]; FEW];
    let mut count = 0;
    for v in wanted.iter().take(FEW) {
        few[count] = [v as u16; LANES];
        count += 1;
    }
    while missing > 0 && i + LANES <= len {
        let lows = low[i..i + LANES].try_into().expect("a block");
        let highs = high[len - i - LANES..len - i].try_into().expect("a block");
        let mut hits = hits_of(lows, highs, &few[..count]);
        while hits != 0 {
            let v = pair(i + hits.trailing_zeros() as usize / 2);
            hits &= hits - 1;
            if wanted.remove(v) {
                missing -= 1;
                if let Some(j) = few[..count].iter().position(|w| u32::from(w[0]) == v) {
                    count -= 1;
                    few.swap(j, count);
                }
            }
        }
        i += LANES;
    }
    while missing > 0 && i < len {
        missing -= u32::from(wanted.remove(pair(i)));
        i += 1;
    }
    missing
}

/// The pairs `lows[j] ^ highs[LANES - 1 - j]` whose value is one of `few`, as bit `2 j`.
fn lane_hits(lows: &[u16; LANES], highs: &[u16; LANES], few: &[[u16; LANES]]) -> u32 {
    let mut bits = 0u32;
    for j in 0..LANES {
        let v = lows[j] ^ highs[LANES - 1 - j];
        bits |= u32::from(few.iter().any(|w| w[0] == v)) << (2 * j);
    }
    bits
}

/// [`lane_hits`] in AVX2: 16 pairs xored (the high values reversed by a shuffle of byte pairs)
/// and compared with each value at once.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn lane_hits_avx2(lows: &[u16; LANES], highs: &[u16; LANES], few: &[[u16; LANES]]) -> u32 {
    use std::arch::x86_64::*;
    let reverse_pairs = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    // SAFETY: both arrays hold 32 bytes.
    let xors = unsafe { xor_reversed_avx2(lows.as_ptr(), highs.as_ptr(), reverse_pairs) };
    let mut hits = _mm256_setzero_si256();
    for w in few {
        // SAFETY: each value is repeated in 16 lanes, 32 bytes, read unaligned.
        let w = unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
        hits = _mm256_or_si256(hits, _mm256_cmpeq_epi16(xors, w));
    }
    _mm256_movemask_epi8(hits) as u32 & 0x5555_5555
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed pseudo-random stream (xorshift).
    fn stream(seed: u64) -> impl FnMut() -> u64 {
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
        for (top, bound) in [(512, 512), (1024, 1024), (2048, 2048), (300, 4096)] {
            let g: Vec<u16> = (0..1000).map(|_| (next() % top) as u16).collect();
            let rare: Vec<RareHeap> = (1..1000)
                .filter(|_| next().is_multiple_of(9))
                .map(|heap| RareHeap {
                    heap,
                    value: u32::from(g[heap]),
                })
                .collect();
            let takes = [(0, true), (1, false), (2, true)];
            let mut block = WideBlock::default();
            for n in 0..1000 {
                let splits: Vec<(usize, bool)> = (takes.iter())
                    .filter(|&&(take, _)| take + 2 <= n)
                    .map(|&(take, unequal)| (n - take, unequal))
                    .collect();
                let mut by_block = ValueSet::default();
                by_block.grow(2 * bound);
                block.insert_rare_pairs(&g[..n], &rare, &splits, &takes, 1, bound, &mut by_block);
                let mut by_heap = ValueSet::default();
                by_heap.grow(2 * bound);
                for &(rest, unequal) in &splits {
                    super::super::values::insert_rare_pairs(&g, &rare, rest, unequal, &mut by_heap);
                }
                let found: Vec<u32> = by_block.iter().collect();
                assert_eq!(found, by_heap.iter().collect::<Vec<_>>(), "heap {n}");
            }
        }
    }

    #[test]
    fn the_scan_finds_what_a_plain_loop_finds() {
        let mut next = stream(7);
        for round in 0..300 {
            let len = 2 + (next() % 700) as usize;
            let top = [3, 40, 600][round % 3];
            let g: Vec<u16> = (0..len).map(|_| (next() % top) as u16).collect();
            let rest = len - 1 - (next() % 3) as usize;
            let unequal = round % 2 == 1;
            let mut wanted = ValueSet::default();
            wanted.grow(1024);
            let count = 1 + (next() % 40) as u32;
            for _ in 0..count {
                wanted.insert((next() % 1024) as u32);
            }
            let before: Vec<u32> = wanted.iter().collect();
            // The plain loop: every pair, in order.
            let pairs: Vec<u32> = (1..=last_pair(rest, unequal))
                .map(|a| u32::from(g[a] ^ g[rest - a]))
                .collect();
            let left: Vec<u32> = before
                .iter()
                .copied()
                .filter(|v| !pairs.contains(v))
                .collect();
            for portable in [false, true] {
                let mut set = ValueSet::default();
                set.grow(1024);
                before.iter().for_each(|&v| set.insert(v));
                let missing = before.len() as u32;
                let found = if portable {
                    let last = last_pair(rest, unequal);
                    find_with(
                        &g[1..=last],
                        &g[rest - last..rest],
                        &mut set,
                        missing,
                        lane_hits,
                    )
                } else {
                    find_in_wide_pairs(&g, rest, unequal, &mut set, missing)
                };
                assert_eq!(found as usize, left.len(), "round {round}");
                assert_eq!(set.iter().collect::<Vec<_>>(), left, "round {round}");
            }
        }
    }
}
