//! The kernels of the heap wing, the only place of it with `unsafe` code or `target_feature`
//! (a test says so): `portable.rs` in plain Rust, and `x86_64.rs` in AVX2 and BMI2 with the
//! same signatures, each a method of a token that only run-time detection makes (the shape of
//! memchr's `arch/`). A [`Kernels`] value, chosen once when a heap sequence is built, says which
//! run; the strategies above call its methods and never ask the processor themselves.

use super::block::{FoundCandidates, BLOCK_HEAPS, CANDIDATES};
use super::byte_scan::ByteSet;
use super::values::ValueSet;

mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_64;

/// Candidate `t` of heap `i` of a block at `[t][i]`.
pub(super) type Candidates<T> = [[T; BLOCK_HEAPS]; CANDIDATES];

/// Pairs compared at once by the two-byte scan.
const LANES: usize = 16;

/// Up to how many values still wanted the two-byte scan compares the pairs with each of them
/// at once.
const FEW: usize = 24;

/// The values the two-byte scan's table lookup takes: those below this many (nine bits).
pub(super) const SMALL_VALUES: usize = 512;

/// The pairs `(low[i], high[len - 1 - i])` of a two-byte scan (`low` and `high` of one length),
/// and whether every value is below [`SMALL_VALUES`].
#[derive(Clone, Copy)]
pub(super) struct WidePairs<'a> {
    pub low: &'a [u16],
    pub high: &'a [u16],
    pub small: bool,
}

/// Heaps of a two-byte block marked at once.
const MARKED_AT_ONCE: usize = 16;

/// `BIT_CLEAR[k]`: the positions `p` of a word whose bit `k` is clear.
const BIT_CLEAR: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0f0f_0f0f_0f0f_0f0f,
    0x00ff_00ff_00ff_00ff,
    0x0000_ffff_0000_ffff,
    0x0000_0000_ffff_ffff,
];

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
}

/// A value as the blocks hold it: a byte or two.
pub(super) trait Lane:
    Copy + std::ops::BitXor<Output = Self> + PartialEq + sealed::Sealed
{
    /// Its bytes.
    const BYTES: usize;
    /// Its bits.
    fn bits(self) -> u16;
}

impl Lane for u8 {
    const BYTES: usize = 1;
    fn bits(self) -> u16 {
        self.into()
    }
}

impl Lane for u16 {
    const BYTES: usize = 2;
    fn bits(self) -> u16 {
        self
    }
}

/// Which kernels a heap sequence runs: the vector ones the processor has, found once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernels {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<x86_64::Avx2>,
    #[cfg(target_arch = "x86_64")]
    bmi2: Option<x86_64::Bmi2>,
}

impl Kernels {
    /// The fastest kernels this processor runs.
    pub fn detect() -> Kernels {
        Kernels {
            #[cfg(target_arch = "x86_64")]
            avx2: x86_64::Avx2::detect(),
            #[cfg(target_arch = "x86_64")]
            bmi2: x86_64::Bmi2::detect(),
        }
    }

    /// The portable kernels alone, on any processor.
    pub fn portable() -> Kernels {
        Kernels {
            #[cfg(target_arch = "x86_64")]
            avx2: None,
            #[cfg(target_arch = "x86_64")]
            bmi2: None,
        }
    }

    /// The kernels detected and the portable ones (once when they are the same), for the tests
    /// that run every kernel set.
    pub fn every() -> Vec<Kernels> {
        let mut sets = vec![Kernels::detect()];
        if sets[0] != Kernels::portable() {
            sets.push(Kernels::portable());
        }
        sets
    }

    /// Their name, as `:method` says it: `AVX2 and BMI2`, `AVX2`, `BMI2` or `portable`.
    pub fn name(self) -> &'static str {
        match (self.has_avx2(), self.has_bmi2()) {
            (true, true) => "AVX2 and BMI2",
            (true, false) => "AVX2",
            (false, true) => "BMI2",
            (false, false) => "portable",
        }
    }

    fn has_avx2(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        return self.avx2.is_some();
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    fn has_bmi2(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        return self.bmi2.is_some();
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// Whether [`Kernels::find_candidates`] compares many partners at once; without, a store a
    /// pair is cheaper, and the blocks mark every rare heap.
    pub(super) fn vector_compares(self) -> bool {
        self.has_avx2()
    }

    /// [`portable::set_of`].
    pub(super) fn set_of(self, flags: &[bool; 256]) -> ByteSet {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = self.avx2 {
            return avx2.set_of(flags);
        }
        portable::set_of(flags)
    }

    /// [`portable::remove_pair_values`].
    pub(super) fn remove_pair_values(
        self,
        low: &[u8],
        high: &[u8],
        lanes: &[u8],
        wanted: &mut ByteSet,
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = self.avx2 {
            return avx2.remove_pair_values(low, high, lanes, wanted);
        }
        portable::remove_pair_values(low, high, lanes, wanted)
    }

    /// [`portable::find_candidates`].
    pub(super) fn find_candidates<T: Lane>(
        self,
        g: &[T],
        unmarked: &[(usize, T)],
        candidates: &Candidates<T>,
    ) -> FoundCandidates {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = self.avx2 {
            return avx2.find_candidates(g, unmarked, candidates);
        }
        portable::find_candidates(g, unmarked, candidates)
    }

    /// [`portable::mark_wide`].
    pub(super) fn mark_wide<const ROW: usize>(
        self,
        rows: &mut [[u8; ROW]],
        partners: &[u16],
        value: u16,
        cap: u16,
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = self.avx2 {
            return avx2.mark_wide(rows, partners, value, cap);
        }
        portable::mark_wide(rows, partners, value, cap)
    }

    /// [`portable::flag_words`].
    pub(super) fn flag_words(self, flags: &[u8], words: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = self.avx2 {
            return avx2.flag_words(flags, words);
        }
        portable::flag_words(flags, words)
    }

    /// [`portable::find_wide_pairs`].
    pub(super) fn find_wide_pairs(
        self,
        pairs: WidePairs,
        wanted: &mut ValueSet,
        missing: u32,
    ) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = self.avx2 {
            return avx2.find_wide_pairs(pairs, wanted, missing);
        }
        portable::find_wide_pairs(pairs, wanted, missing)
    }

    /// [`portable::compress`].
    pub(super) fn compress(self, x: u64, bit: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if let Some(bmi2) = self.bmi2 {
            return bmi2.compress(x, bit);
        }
        portable::compress(x, bit)
    }

    /// [`portable::expand`].
    pub(super) fn expand(self, codes: u32, bit: u32) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if let Some(bmi2) = self.bmi2 {
            return bmi2.expand(codes, bit);
        }
        portable::expand(codes, bit)
    }
}

impl Default for Kernels {
    fn default() -> Kernels {
        Kernels::detect()
    }
}

#[cfg(test)]
mod tests;
