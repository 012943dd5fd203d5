//! The kernels on any processor, in plain Rust: the oracle of `x86_64.rs` (which has the same
//! signatures) and what runs where it does not.

use super::super::block::{FoundCandidates, BLOCK_HEAPS, CANDIDATES};
use super::super::byte_scan::{self, ByteSet};
use super::super::values::ValueSet;
use super::{Candidates, Lane, WidePairs, BIT_CLEAR, FEW, LANES};

/// The values `v` with `flags[v]`.
pub fn set_of(flags: &[bool; 256]) -> ByteSet {
    let mut set = [0u64; 4];
    for (v, _) in flags.iter().enumerate().filter(|(_, &f)| f) {
        set[v / 64] |= 1 << (v % 64);
    }
    set
}

/// Takes out of `wanted` the value `low[i] ^ high[len - 1 - i] | lanes[i]` of every pair `i`
/// (`lanes` is empty, then read as 0, or as long as `low`), stopping as soon as `wanted` is
/// empty (looked at every 32 pairs). `low` and `high` have the same length.
pub fn remove_pair_values(low: &[u8], high: &[u8], lanes: &[u8], wanted: &mut ByteSet) {
    for (k, (lows, highs)) in low.chunks(32).zip(high.rchunks(32)).enumerate() {
        if byte_scan::is_empty(wanted) {
            return;
        }
        let lanes = lanes.get(32 * k..32 * k + lows.len());
        for (j, (&x, &y)) in lows.iter().zip(highs.iter().rev()).enumerate() {
            byte_scan::remove(wanted, x ^ y | lanes.map_or(0, |l| l[j]));
        }
    }
}

/// For each candidate `t` and heap `i` of a block, whether `g[p + i] ^ v == candidates[t][i]`
/// for some `(p, v)` of `unmarked` (the first partner of a rare heap not marked, and its value):
/// bit `i` of word `t`.
pub fn find_candidates<T: Lane>(
    g: &[T],
    unmarked: &[(usize, T)],
    candidates: &Candidates<T>,
) -> FoundCandidates {
    let mut found = [0u64; CANDIDATES];
    for &(p, v) in unmarked {
        for (i, &partner) in g[p..p + BLOCK_HEAPS].iter().enumerate() {
            for (heaps, row) in found.iter_mut().zip(candidates) {
                *heaps |= u64::from(partner ^ v == row[i]) << i;
            }
        }
    }
    found
}

/// Sets flag `min(partners[i] ^ value, cap)` of `rows[i]` for each heap `i` of `rows`
/// (`cap < ROW`).
pub fn mark_wide<const ROW: usize>(rows: &mut [[u8; ROW]], partners: &[u16], value: u16, cap: u16) {
    for (row, &p) in rows.iter_mut().zip(partners) {
        row[usize::from((p ^ value).min(cap))] = 1;
    }
}

/// The flags of 64 values a word, as bits: bit `j` of `words[w]` when `flags[64 w + j] != 0`.
pub fn flag_words(flags: &[u8], words: &mut [u64]) {
    for (word, chunk) in words.iter_mut().zip(flags.chunks_exact(64)) {
        *word = (chunk.iter().enumerate()).fold(0, |bits, (j, &f)| bits | u64::from(f != 0) << j);
    }
}

/// Takes the value of each of the `pairs` out of `wanted` in turn, until its `missing` values are
/// found; returns how many are still missing. (Whether the values are small is of use to the
/// vector kernels only.)
pub fn find_wide_pairs(pairs: WidePairs, wanted: &mut ValueSet, missing: u32) -> u32 {
    find_with(pairs.low, pairs.high, 0, wanted, missing, lane_hits)
}

/// The pairs `(low[i], high[len - 1 - i])` in turn from pair `done` on; `hits_of` gives the
/// pairs of a block of [`LANES`] whose value is one of a few (each repeated in [`LANES`] lanes),
/// as bit `2 j` for pair `j`.
#[inline(always)]
pub(super) fn find_with(
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

/// The bits of `x` at the positions whose bit `bit` is clear, packed (`pext` with
/// `BIT_CLEAR[bit]`).
pub fn compress(x: u64, bit: u32) -> u32 {
    let mut x = x & BIT_CLEAR[bit as usize];
    for k in bit..5 {
        x = (x | x >> (1 << k)) & BIT_CLEAR[k as usize + 1];
    }
    x as u32
}

/// The bits of `codes` spread to the positions whose bit `bit` is clear (`pdep` with
/// `BIT_CLEAR[bit]`).
pub fn expand(codes: u32, bit: u32) -> u64 {
    let mut x = u64::from(codes);
    for k in (bit..5).rev() {
        x = (x | x << (1 << k)) & BIT_CLEAR[k as usize];
    }
    x
}
