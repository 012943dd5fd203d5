//! The kernels in AVX2 and BMI2, with the signatures of `portable.rs`: each is a safe method of
//! a token ([`Avx2`], [`Bmi2`]) that only run-time detection makes, so that holding one is the
//! proof that the processor has the feature, and the `unsafe` calls stay in this file.
//!
//! - the byte scan tests 32 pair values at once against the whole set wanted, whatever its size,
//!   with two 16-byte tables (the "truffle" lookup of byte-set membership): for a value `v`,
//!   `table[v & 15]` holds one bit per high nibble `v >> 4` (values below 128 in one table, the
//!   others in the second), picked by a byte shuffle. Only the steps with a hit leave the vector
//!   loop; the hits of both vectors are one 64-bit word, the first two are taken without a
//!   branch, and a value found leaves the set and the tables at once;
//! - the two-byte scan, while many values are wanted and every value is below
//!   [`SMALL_VALUES`], tests 32 pairs a step by the same lookup on four tables (the low bytes and
//!   the ninth bits of the 32 values packed into two vectors first), then compares 16 pairs at
//!   once with each of the few values left;
//! - the blocks' candidates: each unmarked rare heap's partners xored with its value and
//!   compared with [`PASS`] candidates a pass, 32 byte lanes or 16 two-byte lanes a vector.

use std::arch::x86_64::*;

use super::super::block::{FoundCandidates, BLOCK_HEAPS, CANDIDATES};
use super::super::byte_scan::{self, ByteSet};
use super::super::values::ValueSet;
use super::{
    portable, Candidates, Lane, WidePairs, BIT_CLEAR, LANES, MARKED_AT_ONCE, SMALL_VALUES,
};

/// The proof that the processor has AVX2: only [`Avx2::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2(());

/// The proof that the processor has BMI2 (`pext`, `pdep`): only [`Bmi2::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bmi2(());

impl Avx2 {
    pub fn detect() -> Option<Avx2> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }

    /// [`portable::set_of`].
    pub fn set_of(self, flags: &[bool; 256]) -> ByteSet {
        // SAFETY: the token says the processor has AVX2.
        unsafe { set_of(flags) }
    }

    /// [`portable::remove_pair_values`].
    pub fn remove_pair_values(self, low: &[u8], high: &[u8], lanes: &[u8], wanted: &mut ByteSet) {
        assert_eq!(low.len(), high.len());
        if lanes.is_empty() {
            // SAFETY: the token says the processor has AVX2, and the lengths are checked.
            unsafe { remove_pair_values::<false>(low, high, lanes, wanted) }
        } else {
            assert_eq!(lanes.len(), low.len());
            // SAFETY: the same, and `lanes` is as long as `low` (checked).
            unsafe { remove_pair_values::<true>(low, high, lanes, wanted) }
        }
    }

    /// [`portable::find_candidates`].
    pub fn find_candidates<T: Lane>(
        self,
        g: &[T],
        unmarked: &[(usize, T)],
        candidates: &Candidates<T>,
    ) -> FoundCandidates {
        // Every partner run is inside `g`: checked once here, not in the vector loop.
        for &(p, _) in unmarked {
            assert!(p + BLOCK_HEAPS <= g.len());
        }
        // SAFETY: the token says the processor has AVX2, and each run of partners is in `g`.
        unsafe { find_candidates(g, unmarked, candidates) }
    }

    /// [`portable::mark_wide`].
    pub fn mark_wide<const ROW: usize>(
        self,
        rows: &mut [[u8; ROW]],
        partners: &[u16],
        value: u16,
        cap: u16,
    ) {
        assert!(usize::from(cap) < ROW && partners.len() >= rows.len());
        let whole = rows.len() / MARKED_AT_ONCE * MARKED_AT_ONCE;
        let (runs, rest) = rows.split_at_mut(whole);
        // SAFETY: the token says the processor has AVX2, and `cap < ROW`.
        unsafe { mark_wide(runs, &partners[..whole], value, cap) };
        portable::mark_wide(rest, &partners[whole..], value, cap);
    }

    /// [`portable::flag_words`].
    pub fn flag_words(self, flags: &[u8], words: &mut [u64]) {
        // SAFETY: the token says the processor has AVX2.
        unsafe { flag_words(flags, words) }
    }

    /// [`portable::find_wide_pairs`].
    pub fn find_wide_pairs(self, pairs: WidePairs, wanted: &mut ValueSet, missing: u32) -> u32 {
        assert_eq!(pairs.low.len(), pairs.high.len());
        // SAFETY: the token says the processor has AVX2, and the lengths are checked.
        unsafe { find_wide_pairs(pairs, wanted, missing) }
    }

    /// The first whole steps of the two-byte scan's table lookup alone: the pairs done and the
    /// values still missing (for the tests).
    #[cfg(test)]
    pub fn remove_many(
        self,
        low: &[u16],
        high: &[u16],
        wanted: &mut ValueSet,
        missing: u32,
    ) -> (usize, u32) {
        assert_eq!(low.len(), high.len());
        // SAFETY: the token says the processor has AVX2.
        unsafe { remove_many(low, high, wanted, missing) }
    }
}

impl Bmi2 {
    pub fn detect() -> Option<Bmi2> {
        std::arch::is_x86_feature_detected!("bmi2").then_some(Bmi2(()))
    }

    /// [`portable::compress`].
    pub fn compress(self, x: u64, bit: u32) -> u32 {
        // SAFETY: the token says the processor has BMI2.
        unsafe { _pext_u64(x, BIT_CLEAR[bit as usize]) as u32 }
    }

    /// [`portable::expand`].
    pub fn expand(self, codes: u32, bit: u32) -> u64 {
        // SAFETY: the token says the processor has BMI2.
        unsafe { _pdep_u64(u64::from(codes), BIT_CLEAR[bit as usize]) }
    }
}

/// # Safety
/// The processor has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn set_of(flags: &[bool; 256]) -> ByteSet {
    let mut set = [0u64; 4];
    for (k, chunk) in flags.chunks_exact(32).enumerate() {
        // SAFETY: the chunk holds 32 bytes, read unaligned.
        let bytes = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        let clear = _mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, _mm256_setzero_si256()));
        set[k / 2] |= u64::from(!clear as u32) << (32 * (k % 2));
    }
    set
}

/// The 32 bytes at `low` xored with the 32 bytes at `high` with their elements in reverse
/// order: `reverse` is the byte shuffle that reverses the elements (bytes, or pairs of bytes)
/// within each half of 16 bytes, and then the halves are swapped.
///
/// # Safety
/// Both pointers point to 32 readable bytes, and the processor has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn xor_reversed<T>(low: *const T, high: *const T, reverse: __m256i) -> __m256i {
    // SAFETY: both point to 32 bytes (the caller's promise), read unaligned.
    let (low, high) = unsafe {
        (
            _mm256_loadu_si256(low.cast()),
            _mm256_loadu_si256(high.cast()),
        )
    };
    let reversed = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(high, reverse), 0x4e);
    _mm256_xor_si256(low, reversed)
}

/// The constant vectors of the byte-set lookup: `1 << k` at byte `k % 8` (the bit of a value's
/// bits 4 to 6, picked by a byte shuffle), and the 16 low nibbles in each half of 16 bytes.
#[target_feature(enable = "avx2")]
fn lookup_constants() -> (__m256i, __m256i) {
    let bit_of = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
        1, 2, 4, 8, 16, 32, 64, -128,
    );
    let nibbles = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        12, 13, 14, 15,
    );
    (bit_of, nibbles)
}

/// How many pairs one step of [`remove_pair_values`] looks at: two vectors of 32.
const BYTE_STEP: usize = 64;

/// # Safety
/// The processor has AVX2; `low` and `high` have the same length, and so has `lanes` when
/// `MASKED`.
#[target_feature(enable = "avx2")]
unsafe fn remove_pair_values<const MASKED: bool>(
    low: &[u8],
    high: &[u8],
    lanes: &[u8],
    wanted: &mut ByteSet,
) {
    let len = low.len();
    let mut tables = [0u8; 32];
    for (w, &word) in wanted.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let v = 64 * w + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            tables[16 * (v >> 7) + (v & 15)] |= 1 << ((v >> 4) & 7);
        }
    }
    // SAFETY: `tables` holds 32 bytes, read unaligned.
    let (mut below_128, mut from_128) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(tables.as_ptr().cast())),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(tables.as_ptr().add(16).cast())),
        )
    };
    let reverse_lanes = _mm256_setr_epi8(
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
        5, 4, 3, 2, 1, 0,
    );
    let (bit_of, nibbles) = lookup_constants();
    let seven = _mm256_set1_epi8(7);
    let top = _mm256_set1_epi8(-128);
    // The values of the 32 pairs from pair `s` on.
    let values_at = |s: usize| {
        // SAFETY: `s + 32 <= len`, so the reads of 32 bytes are inside the slices (`lanes`, when
        // `MASKED`, is as long as `low`, as the caller ensures), and the
        // processor has AVX2 (this function runs only where it does).
        unsafe {
            let values = xor_reversed(
                low.as_ptr().add(s),
                high.as_ptr().add(len - s - 32),
                reverse_lanes,
            );
            match MASKED {
                // `lanes` is as long as `low`.
                true => _mm256_or_si256(values, _mm256_loadu_si256(lanes.as_ptr().add(s).cast())),
                false => values,
            }
        }
    };
    // 0xff in each byte whose value is not wanted.
    let misses = |x: __m256i, below_128: __m256i, from_128: __m256i| {
        let row = _mm256_or_si256(
            _mm256_shuffle_epi8(below_128, x),
            _mm256_shuffle_epi8(from_128, _mm256_xor_si256(x, top)),
        );
        let bit = _mm256_shuffle_epi8(bit_of, _mm256_and_si256(_mm256_srli_epi16(x, 4), seven));
        _mm256_cmpeq_epi8(_mm256_and_si256(row, bit), _mm256_setzero_si256())
    };
    // The values of the step's 64 pairs, read back by index for its hits.
    let mut step_values = [0u8; BYTE_STEP];
    let mut start = 0;
    while start + BYTE_STEP <= len {
        let (first, second) = (values_at(start), values_at(start + 32));
        let (first_missed, second_missed) = (
            misses(first, below_128, from_128),
            misses(second, below_128, from_128),
        );
        let missed = _mm256_movemask_epi8(_mm256_and_si256(first_missed, second_missed));
        if missed != -1 {
            // SAFETY: `step_values` holds 64 bytes, written unaligned.
            unsafe {
                _mm256_storeu_si256(step_values.as_mut_ptr().cast(), first);
                _mm256_storeu_si256(step_values.as_mut_ptr().add(32).cast(), second);
            }
            // One bit a pair of the step, the hits of both vectors in one word.
            let mut hits = !(u64::from(_mm256_movemask_epi8(first_missed) as u32)
                | u64::from(_mm256_movemask_epi8(second_missed) as u32) << 32);
            let mut take = |v: u8, below_128: &mut __m256i, from_128: &mut __m256i| {
                byte_scan::remove(wanted, v);
                let entry = _mm256_and_si256(
                    _mm256_cmpeq_epi8(nibbles, _mm256_set1_epi8((v & 15) as i8)),
                    _mm256_set1_epi8((1u8 << ((v >> 4) & 7)) as i8),
                );
                let low_half = _mm256_set1_epi8(-i8::from(v < 128));
                *below_128 = _mm256_andnot_si256(_mm256_and_si256(entry, low_half), *below_128);
                *from_128 = _mm256_andnot_si256(_mm256_andnot_si256(low_half, entry), *from_128);
            };
            // The first two hits without a branch: with one hit only, the second is pair 0 of
            // the step, which is either that hit again or a value not wanted, and taking a
            // value out twice, or a value not in the set, changes nothing.
            let first_hit = step_values[hits.trailing_zeros() as usize];
            hits &= hits - 1;
            let second_hit = step_values[hits.trailing_zeros() as usize & 63];
            hits &= hits.wrapping_sub(1);
            take(first_hit, &mut below_128, &mut from_128);
            take(second_hit, &mut below_128, &mut from_128);
            while hits != 0 {
                let v = step_values[hits.trailing_zeros() as usize];
                hits &= hits - 1;
                take(v, &mut below_128, &mut from_128);
            }
            if byte_scan::is_empty(wanted) {
                return;
            }
        }
        start += BYTE_STEP;
    }
    let lanes = lanes.get(start..).unwrap_or_default();
    portable::remove_pair_values(&low[start..], &high[..len - start], lanes, wanted);
}

/// How many candidates one pass of [`find_candidates`] compares, one register each.
const PASS: usize = 8;

/// The candidates found, for byte lanes (32 a vector) and two-byte lanes (16 a vector) alike:
/// the lane width is a constant of `T`, so each branch on it is folded away.
///
/// # Safety
/// The processor has AVX2, and `p + BLOCK_HEAPS <= g.len()` for each `(p, _)` of `unmarked`.
#[target_feature(enable = "avx2")]
unsafe fn find_candidates<T: Lane>(
    g: &[T],
    unmarked: &[(usize, T)],
    candidates: &Candidates<T>,
) -> FoundCandidates {
    let per_vector = 32 / T::BYTES;
    let mut found = [0u64; CANDIDATES];
    for part in (0..BLOCK_HEAPS).step_by(per_vector) {
        for pass in (0..CANDIDATES).step_by(PASS) {
            let wanted: [__m256i; PASS] = std::array::from_fn(|k| {
                // SAFETY: a row holds `BLOCK_HEAPS` values, and `part + per_vector` is at most
                // that: 32 bytes from `part`.
                unsafe { _mm256_loadu_si256(candidates[pass + k].as_ptr().add(part).cast()) }
            });
            let mut hits = [_mm256_setzero_si256(); PASS];
            for &(p, v) in unmarked {
                // SAFETY: `p + BLOCK_HEAPS <= g.len()` (the caller's promise), so the 32 bytes
                // from `p + part` are in `g`, read unaligned.
                let x = unsafe { _mm256_loadu_si256(g.as_ptr().add(p + part).cast()) };
                let x = match T::BYTES {
                    1 => _mm256_xor_si256(x, _mm256_set1_epi8(v.bits() as i8)),
                    _ => _mm256_xor_si256(x, _mm256_set1_epi16(v.bits() as i16)),
                };
                for (hit, &w) in hits.iter_mut().zip(&wanted) {
                    let equal = match T::BYTES {
                        1 => _mm256_cmpeq_epi8(x, w),
                        _ => _mm256_cmpeq_epi16(x, w),
                    };
                    *hit = _mm256_or_si256(*hit, equal);
                }
            }
            for (heaps, hit) in found[pass..pass + PASS].iter_mut().zip(hits) {
                let bytes = _mm256_movemask_epi8(hit) as u32;
                let lanes = match T::BYTES {
                    1 => bytes,
                    _ => u32::from(even_bits(bytes)),
                };
                *heaps |= u64::from(lanes) << part;
            }
        }
    }
    found
}

/// Bits 0, 2, 4, ... of `bits` (the byte mask of 16 two-byte lanes), packed.
fn even_bits(bits: u32) -> u16 {
    let mut x = bits & 0x5555_5555;
    x = (x | x >> 1) & 0x3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff;
    x as u16
}

/// [`portable::mark_wide`] for whole runs of [`MARKED_AT_ONCE`] heaps: 16 partners xored and
/// capped in one vector, plus the offset of each one's row in the run.
///
/// # Safety
/// The processor has AVX2, `cap < ROW`, and `partners` holds a partner for each row.
#[target_feature(enable = "avx2")]
unsafe fn mark_wide<const ROW: usize>(
    rows: &mut [[u8; ROW]],
    partners: &[u16],
    value: u16,
    cap: u16,
) {
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

/// The flags of 64 values a word, as bits: 32 flags compared with zero at once.
///
/// # Safety
/// The processor has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn flag_words(flags: &[u8], words: &mut [u64]) {
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

/// [`portable::find_wide_pairs`]; the table lookup runs only when every value is below
/// [`SMALL_VALUES`] (it may miss values otherwise).
///
/// # Safety
/// The processor has AVX2, and the pairs' two runs have the same length.
#[target_feature(enable = "avx2")]
unsafe fn find_wide_pairs(pairs: WidePairs, wanted: &mut ValueSet, missing: u32) -> u32 {
    let WidePairs { low, high, small } = pairs;
    let (done, missing) = match small {
        // SAFETY: the processor has AVX2, and the slices have the same length (the caller's
        // promise).
        true => unsafe { remove_many(low, high, wanted, missing) },
        false => (0, missing),
    };
    portable::find_with(low, high, done, wanted, missing, |l, h, f| {
        // SAFETY: the processor has AVX2 (the caller's promise).
        unsafe { lane_hits(l, h, f) }
    })
}

/// [`portable::lane_hits`]: 16 pairs xored (the high values reversed by a shuffle of byte
/// pairs) and compared with each value at once.
///
/// # Safety
/// The processor has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn lane_hits(lows: &[u16; LANES], highs: &[u16; LANES], few: &[[u16; LANES]]) -> u32 {
    // SAFETY: both arrays hold 32 bytes.
    let xors = unsafe { xor_reversed(lows.as_ptr(), highs.as_ptr(), reverse_pairs()) };
    let mut hits = _mm256_setzero_si256();
    for w in few {
        // SAFETY: each value is repeated in 16 lanes, 32 bytes, read unaligned.
        let w = unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
        hits = _mm256_or_si256(hits, _mm256_cmpeq_epi16(xors, w));
    }
    _mm256_movemask_epi8(hits) as u32 & 0x5555_5555
}

/// The byte shuffle that reverses the 16-bit elements of each 16-byte half.
#[target_feature(enable = "avx2")]
fn reverse_pairs() -> __m256i {
    _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    )
}

/// The pairs [`remove_many`] marks before it looks at the values wanted again.
const MARK_RUN: usize = 512;

/// [`remove_many`] marks while more than this many values are missing.
const MARK_UNTIL: usize = 8;

/// Pairs one step of [`remove_many`] looks at.
pub(super) const WIDE_STEP: usize = 32;

/// The table lookup goes on while more than this many values are wanted.
pub(super) const TABLE_UNTIL: usize = 0;

/// Takes the values of the pairs `(low[i], high[len - 1 - i])` out of `wanted`: runs of
/// [`MARK_RUN`] at once while more than [`MARK_UNTIL`] are missing, then [`WIDE_STEP`] pairs a
/// step, while more than [`TABLE_UNTIL`] of the `missing` values are still missing; returns the
/// pairs done and how many values are still missing. Right only when every value of `low` and
/// `high` is below [`SMALL_VALUES`] (past it a pair may hide its neighbours' values; memory is
/// safe either way).
///
/// # Safety
/// The processor has AVX2, and `low` and `high` have the same length.
#[target_feature(enable = "avx2")]
unsafe fn remove_many(
    low: &[u16],
    high: &[u16],
    wanted: &mut ValueSet,
    mut missing: u32,
) -> (usize, u32) {
    let len = low.len();
    let reverse = reverse_pairs();
    // The values of the 16 pairs from pair `s` on.
    let values_at = |s: usize| {
        // SAFETY: `s + 16 <= len`, so both reads of 32 bytes are inside the slices, and the
        // processor has AVX2 (this function runs only where it does).
        unsafe {
            xor_reversed(
                low.as_ptr().add(s),
                high.as_ptr().add(len - s - 16),
                reverse,
            )
        }
    };
    // While many values are missing, most runs of pairs find some: each pair's value is marked
    // (a store, no branch), and after each run of `MARK_RUN` the values marked leave `wanted`.
    let mut seen = [0u8; SMALL_VALUES];
    let mut s = 0;
    while missing as usize > MARK_UNTIL && s + MARK_RUN <= len {
        for s in (s..s + MARK_RUN).step_by(LANES) {
            let mut values = [0u16; LANES];
            // SAFETY: `values` holds 32 bytes, written unaligned.
            unsafe { _mm256_storeu_si256(values.as_mut_ptr().cast(), values_at(s)) };
            for &v in &values {
                seen[usize::from(v) & (SMALL_VALUES - 1)] = 1;
            }
        }
        let mut found = [0u64; SMALL_VALUES / 64];
        // SAFETY: the processor has AVX2 (this function runs only where it does).
        unsafe { flag_words(&seen, &mut found) };
        missing -= wanted.remove_words(&found);
        s += MARK_RUN;
    }
    let mut bytes = [0u8; 64];
    // A value from `SMALL_VALUES` on is no pair's: it stays wanted.
    for v in wanted.iter().take_while(|&v| (v as usize) < SMALL_VALUES) {
        let v = v as usize;
        bytes[16 * (v >> 7) + (v & 15)] |= 1 << ((v >> 4) & 7);
    }
    // SAFETY: `bytes` holds four tables of 16 bytes, read unaligned.
    let table = |k: usize| unsafe {
        _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes.as_ptr().add(16 * k).cast()))
    };
    let mut tables = [table(0), table(1), table(2), table(3)];
    let (bit_of, nibbles) = lookup_constants();
    let low_byte = _mm256_set1_epi16(0xff);
    let (seven, top, zero) = (
        _mm256_set1_epi8(7),
        _mm256_set1_epi8(-128),
        _mm256_setzero_si256(),
    );
    while missing as usize > TABLE_UNTIL && s + WIDE_STEP <= len {
        let (first, second) = (values_at(s), values_at(s + 16));
        // Byte `j` of each: pair `s + j` (the packing interleaves quarters; the permutation
        // puts them back in order).
        let packed =
            |a: __m256i, b: __m256i| _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xd8);
        let lows = packed(
            _mm256_and_si256(first, low_byte),
            _mm256_and_si256(second, low_byte),
        );
        let ninth = packed(_mm256_srli_epi16(first, 8), _mm256_srli_epi16(second, 8));
        // Bit 7 of an index makes the shuffle give 0: `below_256` where the ninth bit is set,
        // `from_256` where it is not, and the low byte's own bit 7 picks the table of 128.
        let below_256 = _mm256_slli_epi16(ninth, 7);
        let from_256 = _mm256_xor_si256(below_256, top);
        let flipped = _mm256_xor_si256(lows, top);
        let row = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_shuffle_epi8(tables[0], _mm256_or_si256(lows, below_256)),
                _mm256_shuffle_epi8(tables[1], _mm256_or_si256(flipped, below_256)),
            ),
            _mm256_or_si256(
                _mm256_shuffle_epi8(tables[2], _mm256_or_si256(lows, from_256)),
                _mm256_shuffle_epi8(tables[3], _mm256_or_si256(flipped, from_256)),
            ),
        );
        let bit = _mm256_shuffle_epi8(bit_of, _mm256_and_si256(_mm256_srli_epi16(lows, 4), seven));
        let mut hits =
            !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(row, bit), zero)) as u32);
        while hits != 0 {
            let i = s + hits.trailing_zeros() as usize;
            hits &= hits - 1;
            let v = u32::from(low[i] ^ high[len - 1 - i]);
            if wanted.remove(v) {
                missing -= 1;
                let entry = _mm256_and_si256(
                    _mm256_cmpeq_epi8(nibbles, _mm256_set1_epi8((v & 15) as i8)),
                    _mm256_set1_epi8((1u8 << ((v >> 4) & 7)) as i8),
                );
                for (k, table) in tables.iter_mut().enumerate() {
                    let this = _mm256_set1_epi8(-i8::from(k as u32 == v >> 7));
                    *table = _mm256_andnot_si256(_mm256_and_si256(entry, this), *table);
                }
            }
        }
        s += WIDE_STEP;
    }
    (s, missing)
}
