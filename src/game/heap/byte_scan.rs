//! The byte kernels of the sparse space while every value is below 256: sets of values as 256
//! bits, and the scan of the pairs `(a, rest - a)` for the rare values still wanted, 64 pairs a
//! step in AVX2 when the processor has it (run-time detection, a portable fallback).
//!
//! The AVX2 scan tests 32 pair values at once against the whole set wanted, whatever its size,
//! with two 16-byte tables (the "truffle" lookup of byte-set membership): for a value `v`,
//! `table[v & 15]` holds one bit per high nibble `v >> 4` (values below 128 in one table, the
//! others in the second), picked by a byte shuffle. Only the steps with a hit leave the vector
//! loop; the hits of both vectors are one 64-bit word, the first two are taken without a branch,
//! and a value found leaves the set and the tables at once.

/// A set of values below 256, as bits: value `v` is bit `v % 64` of word `v / 64`.
pub(super) type ByteSet = [u64; 4];

pub(super) fn is_empty(set: &ByteSet) -> bool {
    set.iter().all(|&w| w == 0)
}

/// The least value of the set.
pub(super) fn min(set: &ByteSet) -> Option<u32> {
    (set.iter().enumerate())
        .find(|(_, &w)| w != 0)
        .map(|(i, w)| 64 * i as u32 + w.trailing_zeros())
}

fn remove(set: &mut ByteSet, v: u8) {
    set[(v >> 6) as usize] &= !(1 << (v & 63));
}

/// The values `v` with `flags[v]`.
pub(super) fn set_of(flags: &[bool; 256]) -> ByteSet {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { set_of_avx2(flags) };
    }
    let mut set = [0u64; 4];
    for (v, _) in flags.iter().enumerate().filter(|(_, &f)| f) {
        set[v / 64] |= 1 << (v % 64);
    }
    set
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn set_of_avx2(flags: &[bool; 256]) -> ByteSet {
    use std::arch::x86_64::*;
    let mut set = [0u64; 4];
    for (k, chunk) in flags.chunks_exact(32).enumerate() {
        // SAFETY: the chunk holds 32 bytes, read unaligned.
        let bytes = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        let clear = _mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, _mm256_setzero_si256()));
        set[k / 2] |= u64::from(!clear as u32) << (32 * (k % 2));
    }
    set
}

/// Takes out of `wanted` the value `low[i] ^ high[len - 1 - i]` of every pair `i` (the pairs
/// `(a, rest - a)` for `a = 1, 2, ...` when `low` starts at heap 1 and `high` ends at heap
/// `rest - 1`), stopping as soon as `wanted` is empty. `low` and `high` have the same length.
pub(super) fn remove_pair_values(low: &[u8], high: &[u8], wanted: &mut ByteSet) {
    remove_masked_pair_values(low, high, &[], wanted);
}

/// [`remove_pair_values`] with the value of each pair `i < lanes.len()` or-ed with `lanes[i]`
/// (`0xff` makes it a value never wanted).
pub(super) fn remove_masked_pair_values(
    low: &[u8],
    high: &[u8],
    lanes: &[u8],
    wanted: &mut ByteSet,
) {
    assert_eq!(low.len(), high.len());
    let (len, masked) = (low.len(), lanes.len().min(low.len()));
    let runs = [
        (&low[..masked], &high[len - masked..], &lanes[..masked]),
        (&low[masked..], &high[..len - masked], &[][..]),
    ];
    for (low, high, lanes) in runs {
        if is_empty(wanted) {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            match lanes.is_empty() {
                true => unsafe { remove_pair_values_avx2::<false>(low, high, lanes, wanted) },
                false => unsafe { remove_pair_values_avx2::<true>(low, high, lanes, wanted) },
            }
            continue;
        }
        remove_pair_values_portable(low, high, lanes, wanted);
    }
}

/// [`remove_masked_pair_values`] a pair at a time, looking whether the set is empty every 32
/// pairs; `lanes` is empty or as long as `low`.
fn remove_pair_values_portable(low: &[u8], high: &[u8], lanes: &[u8], wanted: &mut ByteSet) {
    for (k, (lows, highs)) in low.chunks(32).zip(high.rchunks(32)).enumerate() {
        if is_empty(wanted) {
            return;
        }
        let lanes = lanes.get(32 * k..32 * k + lows.len());
        for (j, (&x, &y)) in lows.iter().zip(highs.iter().rev()).enumerate() {
            remove(wanted, x ^ y | lanes.map_or(0, |l| l[j]));
        }
    }
}

/// The constant vectors of the byte-set lookup: `1 << k` at byte `k % 8` (the bit of a value's
/// bits 4 to 6, picked by a byte shuffle), and the 16 low nibbles in each half of 16 bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn lookup_constants() -> (std::arch::x86_64::__m256i, std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
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

/// How many pairs one step of [`remove_pair_values_avx2`] looks at: two vectors of 32.
#[cfg(target_arch = "x86_64")]
const STEP: usize = 64;

/// # Safety
/// The processor has AVX2; when `MASKED`, `lanes` is as long as `low`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn remove_pair_values_avx2<const MASKED: bool>(
    low: &[u8],
    high: &[u8],
    lanes: &[u8],
    wanted: &mut ByteSet,
) {
    use super::values::xor_reversed_avx2;
    use std::arch::x86_64::*;
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
            let values = xor_reversed_avx2(
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
    let mut step_values = [0u8; STEP];
    let mut start = 0;
    while start + STEP <= len {
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
                remove(wanted, v);
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
            if is_empty(wanted) {
                return;
            }
        }
        start += STEP;
    }
    let lanes = lanes.get(start..).unwrap_or_default();
    remove_pair_values_portable(&low[start..], &high[..len - start], lanes, wanted);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pseudo-random byte stream (xorshift), values below `top`.
    fn bytes(len: usize, seed: u64, top: u16) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % top as u64) as u8
            })
            .collect()
    }

    fn set(values: impl IntoIterator<Item = u8>) -> ByteSet {
        let mut s = [0u64; 4];
        for v in values {
            s[(v >> 6) as usize] |= 1 << (v & 63);
        }
        s
    }

    #[test]
    fn the_scan_leaves_exactly_the_values_of_no_pair() {
        for (len, seed, top) in [
            (0, 1, 256),
            (5, 2, 256),
            (63, 3, 256),
            (64, 4, 40),
            (65, 5, 256),
            (200, 6, 256),
            (1000, 7, 256),
            (3000, 8, 200),
            (333, 9, 256),
            (2000, 10, 32),
        ] {
            let low = bytes(len, seed, top);
            let high = bytes(len, seed + 100, top);
            let values: Vec<u8> = (0..len).map(|i| low[i] ^ high[len - 1 - i]).collect();
            // Forty values at random, and every value (many hits a step).
            for wanted_seed in 0..21u64 {
                let picks: Vec<u8> = match wanted_seed {
                    20 => (0..=255).collect(),
                    _ => bytes(40, wanted_seed + 1000, 256),
                };
                let mut wanted = set(picks.iter().copied());
                // The portable path too, whatever the processor.
                let mut portable = wanted;
                let expected = set(picks.iter().copied().filter(|v| !values.contains(v)));
                remove_pair_values(&low, &high, &mut wanted);
                remove_pair_values_portable(&low, &high, &[], &mut portable);
                assert_eq!(wanted, expected, "{len} {seed} {wanted_seed}");
                assert_eq!(portable, expected, "{len} {seed} {wanted_seed}");
                // Lanes of 0xff over some of the first pairs: their values become 0xff.
                let lanes: Vec<u8> = bytes(len * wanted_seed as usize / 20, seed + 7, 2)
                    .iter()
                    .map(|&b| b * 0xff)
                    .collect();
                let masked: Vec<u8> = (values.iter().enumerate())
                    .map(|(i, &v)| v | lanes.get(i).copied().unwrap_or(0))
                    .collect();
                let expected = set(picks.iter().copied().filter(|v| !masked.contains(v)));
                let mut wanted = set(picks.iter().copied());
                remove_masked_pair_values(&low, &high, &lanes, &mut wanted);
                assert_eq!(wanted, expected, "masked {len} {seed} {wanted_seed}");
                let mut portable = set(picks.iter().copied());
                let full: Vec<u8> = (0..len)
                    .map(|i| lanes.get(i).copied().unwrap_or(0))
                    .collect();
                remove_pair_values_portable(&low, &high, &full, &mut portable);
                assert_eq!(portable, expected, "masked {len} {seed} {wanted_seed}");
            }
        }
    }

    #[test]
    fn a_set_of_flags_has_the_values_flagged() {
        let mut flags = [false; 256];
        for v in [0usize, 1, 31, 32, 63, 64, 127, 128, 200, 255] {
            flags[v] = true;
        }
        let expected = set([0, 1, 31, 32, 63, 64, 127, 128, 200, 255]);
        assert_eq!(set_of(&flags), expected);
        assert_eq!(min(&expected), Some(0));
        assert_eq!(min(&set([200])), Some(200));
        assert_eq!(min(&[0; 4]), None);
    }
}
