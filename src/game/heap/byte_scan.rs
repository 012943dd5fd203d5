//! Sets of values below 256 as 256 bits, for the sparse space while every value is below 256
//! (and for the byte codes of two-byte values), and the byte scan of the pairs `(a, rest - a)`
//! for the rare values still wanted: a run of pairs masked by lanes, then one not, each by the
//! scan kernel in use (`kernels/`: 64 pairs a step against the whole set wanted, in AVX2).

use super::kernels::Kernels;

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

pub(super) fn remove(set: &mut ByteSet, v: u8) {
    set[(v >> 6) as usize] &= !(1 << (v & 63));
}

/// Takes out of `wanted` the value `low[i] ^ high[len - 1 - i]` of every pair `i` (the pairs
/// `(a, rest - a)` for `a = 1, 2, ...` when `low` starts at heap 1 and `high` ends at heap
/// `rest - 1`), stopping as soon as `wanted` is empty. `low` and `high` have the same length.
pub(super) fn remove_pair_values(low: &[u8], high: &[u8], wanted: &mut ByteSet, kernels: Kernels) {
    remove_masked_pair_values(low, high, &[], wanted, kernels);
}

/// [`remove_pair_values`] with the value of each pair `i < lanes.len()` or-ed with `lanes[i]`
/// (`0xff` makes it a value never wanted).
pub(super) fn remove_masked_pair_values(
    low: &[u8],
    high: &[u8],
    lanes: &[u8],
    wanted: &mut ByteSet,
    kernels: Kernels,
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
        kernels.remove_pair_values(low, high, lanes, wanted);
    }
}
