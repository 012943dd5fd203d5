//! The scan of the pairs `(a, rest - a)` for the rare values still missing, when values take two
//! bytes and the byte codes of `codes.rs` do not serve: the pairs of a split as two runs, the
//! low parts ascending and the high parts descending, handed to the two-byte scan kernel in use
//! (`kernels/`):
//!
//! - while many values are wanted and every value is below [`SMALL_VALUES`] (AVX2): 32 pairs a
//!   step are tested against the whole set wanted at once, by the byte-set lookup of four
//!   16-byte tables (`table[v >> 7][v & 15]` holds a bit for each `(v >> 4) & 7`, picked by
//!   byte shuffles; the low bytes and the ninth bits of the 32 values are packed into two
//!   vectors first). Only a step with a hit leaves the vector loop, and a value found leaves the
//!   set and the tables (in registers) at once;
//! - then, once few values are wanted, 16 pairs at once compared with each of them (kept
//!   repeated in 16 lanes); only the pairs that hit are looked at.
//!
//! The portable kernel is a pair at a time while many values are wanted, then the same compares
//! of 16 pairs.

use super::kernels::{Kernels, WidePairs, SMALL_VALUES};
use super::values::{last_pair, ValueSet};

/// Takes `g[a] ^ g[rest - a]` out of `wanted` for the pairs `a = 1, 2, ...` in turn, until the
/// `missing` values of `wanted` are found; returns how many are still missing. Every value of
/// `g` is below `bound`.
pub(super) fn find_in_wide_pairs(
    g: &[u16],
    (rest, unequal): (usize, bool),
    wanted: &mut ValueSet,
    missing: u32,
    bound: usize,
    kernels: Kernels,
) -> u32 {
    let last = last_pair(rest, unequal);
    let (low, high) = (&g[1..=last], &g[rest - last..rest]);
    let small = bound <= SMALL_VALUES;
    kernels.find_wide_pairs(WidePairs { low, high, small }, wanted, missing)
}
