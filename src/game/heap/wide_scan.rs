//! The scan of the pairs `(a, rest - a)` for the rare values still missing, when values take two
//! bytes and the byte codes of `codes.rs` do not serve:
//!
//! - while many values are wanted and every value is below [`SMALL_VALUES`] (AVX2): 32 pairs a
//!   step are tested against the whole set wanted at once, by the byte-set lookup of four
//!   16-byte tables (`table[v >> 7][v & 15]` holds a bit for each `(v >> 4) & 7`, picked by
//!   byte shuffles; the low bytes and the ninth bits of the 32 values are packed into two
//!   vectors first). Only a step with a hit leaves the vector loop, and a value found leaves the
//!   set and the tables (in registers) at once;
//! - then, once at most [`FEW`] values are wanted, 16 pairs at once compared with each of them
//!   (kept repeated in 16 lanes); only the pairs that hit are looked at.
//!
//! AVX2 by run-time detection; a portable loop otherwise (a pair at a time while many values are
//! wanted).

#[cfg(target_arch = "x86_64")]
use super::values::xor_reversed_avx2;
use super::values::{last_pair, ValueSet};

/// Pairs compared at once.
const LANES: usize = 16;

/// Up to how many values still wanted the pairs are compared with each of them at once.
const FEW: usize = 24;

/// The table lookup goes on while more than this many values are wanted.
const TABLE_UNTIL: usize = 0;

/// The values the table lookup takes: those below this many (nine bits).
pub(super) const SMALL_VALUES: usize = 512;

/// Takes `g[a] ^ g[rest - a]` out of `wanted` for the pairs `a = 1, 2, ...` in turn, until the
/// `missing` values of `wanted` are found; returns how many are still missing. Every value of
/// `g` is below `bound`.
pub(super) fn find_in_wide_pairs(
    g: &[u16],
    rest: usize,
    unequal: bool,
    wanted: &mut ValueSet,
    missing: u32,
    bound: usize,
) -> u32 {
    let last = last_pair(rest, unequal);
    let (low, high) = (&g[1..=last], &g[rest - last..rest]);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { find_avx2(low, high, wanted, missing, bound <= SMALL_VALUES) };
    }
    let _ = bound;
    find_with(low, high, 0, wanted, missing, lane_hits)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn find_avx2(
    low: &[u16],
    high: &[u16],
    wanted: &mut ValueSet,
    missing: u32,
    small: bool,
) -> u32 {
    let (done, missing) = match small {
        // SAFETY: this function runs only where the processor has AVX2, and every value is
        // below `SMALL_VALUES`.
        true => unsafe { remove_many_avx2(low, high, wanted, missing) },
        false => (0, missing),
    };
    // SAFETY: this function runs only where the processor has AVX2.
    find_with(low, high, done, wanted, missing, |l, h, f| unsafe {
        lane_hits_avx2(l, h, f)
    })
}

/// The pairs `(low[i], high[len - 1 - i])` in turn from pair `done` on; `hits_of` gives the
/// pairs of a block of [`LANES`] whose value is one of a few (each repeated in [`LANES`] lanes),
/// as bit `2 j` for pair `j`.
#[inline(always)]
fn find_with(
    low: &[u16],
    high: &[u16],
    done: usize,
    wanted: &mut ValueSet,
    mut missing: u32,
    hits_of: impl Fn(&[u16; LANES], &[u16; LANES], &[[u16; LANES]]) -> u32,
) -> u32 {
    let len = low.len();
    let pair = |i: usize| u32::from(low[i] ^ high[len - 1 - i]);
    let mut i = done;
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
    // SAFETY: both arrays hold 32 bytes.
    let xors = unsafe { xor_reversed_avx2(lows.as_ptr(), highs.as_ptr(), reverse_pairs()) };
    let mut hits = _mm256_setzero_si256();
    for w in few {
        // SAFETY: each value is repeated in 16 lanes, 32 bytes, read unaligned.
        let w = unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
        hits = _mm256_or_si256(hits, _mm256_cmpeq_epi16(xors, w));
    }
    _mm256_movemask_epi8(hits) as u32 & 0x5555_5555
}

/// The byte shuffle that reverses the 16-bit elements of each 16-byte half.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn reverse_pairs() -> std::arch::x86_64::__m256i {
    std::arch::x86_64::_mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    )
}

/// The pairs [`remove_many_avx2`] marks before it looks at the values wanted again.
#[cfg(target_arch = "x86_64")]
const MARK_RUN: usize = 512;

/// [`remove_many_avx2`] marks while more than this many values are missing.
#[cfg(target_arch = "x86_64")]
const MARK_UNTIL: usize = 8;

/// Pairs one step of [`remove_many_avx2`] looks at.
#[cfg(target_arch = "x86_64")]
const STEP: usize = 32;

/// Takes the values of the pairs `(low[i], high[len - 1 - i])` out of `wanted`: runs of
/// [`MARK_RUN`] at once while more than [`MARK_UNTIL`] are missing, then [`STEP`] pairs a step, while more than [`TABLE_UNTIL`] of the `missing` values are still missing;
/// returns the pairs done and how many values are still missing.
///
/// # Safety
/// The processor has AVX2, and every value of `low` and `high` is below [`SMALL_VALUES`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn remove_many_avx2(
    low: &[u16],
    high: &[u16],
    wanted: &mut ValueSet,
    mut missing: u32,
) -> (usize, u32) {
    use std::arch::x86_64::*;
    let len = low.len();
    let reverse = reverse_pairs();
    // The values of the 16 pairs from pair `s` on.
    let values_at = |s: usize| {
        // SAFETY: `s + 16 <= len`, so both reads of 32 bytes are inside the slices, and the
        // processor has AVX2 (this function runs only where it does).
        unsafe {
            xor_reversed_avx2(
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
        unsafe { super::wide::flag_words_avx2(&seen, &mut found) };
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
    let (bit_of, nibbles) = super::byte_scan::lookup_constants();
    let low_byte = _mm256_set1_epi16(0xff);
    let (seven, top, zero) = (
        _mm256_set1_epi8(7),
        _mm256_set1_epi8(-128),
        _mm256_setzero_si256(),
    );
    while missing as usize > TABLE_UNTIL && s + STEP <= len {
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
        s += STEP;
    }
    (s, missing)
}

#[cfg(test)]
mod tests {
    use super::super::wide::tests::stream;
    use super::*;

    #[test]
    fn the_scan_finds_what_a_plain_loop_finds() {
        let mut next = stream(7);
        for round in 0..600 {
            let len = 2 + (next() % 1500) as usize;
            // Values of a bound of 64 and 512 (the table lookup) and 1024 (compares only).
            let (top, bound) = [(3, 64), (40, 64), (600, 1024), (512, 512), (300, 512)][round % 5];
            let g: Vec<u16> = (0..len).map(|_| (next() % top) as u16).collect();
            let rest = len - 1 - (next() % 3) as usize;
            let unequal = round % 2 == 1;
            let mut wanted = ValueSet::default();
            wanted.grow(2 * bound);
            // Few values wanted, or many (the table lookup first).
            let count = 1 + (next() % [40, 200][round / 5 % 2]) as u32;
            for _ in 0..count {
                wanted.insert((next() % (2 * bound) as u64) as u32);
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
                set.grow(2 * bound);
                before.iter().for_each(|&v| set.insert(v));
                let missing = before.len() as u32;
                let found = if portable {
                    let last = last_pair(rest, unequal);
                    let (low, high) = (&g[1..=last], &g[rest - last..rest]);
                    find_with(low, high, 0, &mut set, missing, lane_hits)
                } else {
                    find_in_wide_pairs(&g, rest, unequal, &mut set, missing, bound)
                };
                assert_eq!(found as usize, left.len(), "round {round}");
                assert_eq!(set.iter().collect::<Vec<_>>(), left, "round {round}");
            }
        }
    }

    /// The table lookup alone stops with at most [`TABLE_UNTIL`] values missing, or at the last whole
    /// step, and has then taken out exactly the values of the pairs it looked at.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_table_lookup_takes_out_the_values_of_its_steps() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut next = stream(11);
        for round in 0..300 {
            let len = (next() % 3000) as usize;
            let top = [512, 320, 64][round % 3];
            let low: Vec<u16> = (0..len).map(|_| (next() % top) as u16).collect();
            let high: Vec<u16> = (0..len).map(|_| (next() % top) as u16).collect();
            let mut set = ValueSet::default();
            set.grow(1024);
            for _ in 0..1 + next() % 300 {
                set.insert((next() % 700) as u32);
            }
            let before: Vec<u32> = set.iter().collect();
            // SAFETY: the processor has AVX2, checked above, and every value is below 512.
            let (done, missing) =
                unsafe { remove_many_avx2(&low, &high, &mut set, before.len() as u32) };
            assert!(done.is_multiple_of(STEP) && done <= len, "round {round}");
            assert!(
                missing as usize <= TABLE_UNTIL || done + STEP > len,
                "round {round}"
            );
            let seen: Vec<u32> = (0..done)
                .map(|i| u32::from(low[i] ^ high[len - 1 - i]))
                .collect();
            let left: Vec<u32> = (before.iter().copied())
                .filter(|v| !seen.contains(v))
                .collect();
            assert_eq!(set.iter().collect::<Vec<_>>(), left, "round {round}");
            assert_eq!(missing as usize, left.len(), "round {round}");
        }
    }
}
