//! The values of a heap sequence in the narrowest integers that hold them, the set of option
//! values of one heap, and the loops over pairs of heaps where games that split spend their time.

use super::byte_scan::{self, ByteSet};
use super::codes::{ScanCodes, CODED_VALUES};
use super::kernels::Kernels;

/// One stored value: `u8`, `u16` or `u32`.
pub(super) trait Cell: Copy + Into<u32> {}

impl Cell for u8 {}
impl Cell for u16 {}
impl Cell for u32 {}

/// The values of heaps `0..len`, each in the narrowest of 1, 2 or 4 bytes that holds every
/// value so far (games that split have small values: Grundy's game stays below 256 far beyond
/// 2^20 heaps), or a byte code each while the values are below 512 under a sparse-space mask
/// that codes them (`codes.rs`: Grundy's game to 2^24 and beyond, Officers to 2^22).
pub(super) enum CompactValues {
    Bytes(Vec<u8>),
    Halves(Vec<u16>),
    Words(Vec<u32>),
    Coded(ScanCodes),
}

/// Runs `$body` with `$g` bound to the values as a slice of their own width, or to the codes
/// (which read as values through [`Read`]); `$coded` instead for the codes, when given.
macro_rules! with_slice {
    ($values:expr, $g:ident => $body:expr) => {
        $crate::game::heap::values::with_slice!($values, $g => $body, $g => $body)
    };
    ($values:expr, $g:ident => $body:expr, $c:ident => $coded:expr) => {
        match $values {
            $crate::game::heap::values::CompactValues::Bytes(v) => {
                let $g: &[u8] = v;
                $body
            }
            $crate::game::heap::values::CompactValues::Halves(v) => {
                let $g: &[u16] = v;
                $body
            }
            $crate::game::heap::values::CompactValues::Words(v) => {
                let $g: &[u32] = v;
                $body
            }
            $crate::game::heap::values::CompactValues::Coded(v) => {
                let $c: &$crate::game::heap::codes::ScanCodes = v;
                $coded
            }
        }
    };
}
pub(super) use with_slice;

/// Values read heap by heap or in runs: slices of each width, and the codes (decoded).
pub(super) trait Read {
    fn at(&self, i: usize) -> u32;
    /// The values of heaps `from..to`.
    fn run(&self, from: usize, to: usize) -> impl DoubleEndedIterator<Item = u32> + '_;
}

impl<T: Cell> Read for [T] {
    #[inline]
    fn at(&self, i: usize) -> u32 {
        self[i].into()
    }

    #[inline]
    fn run(&self, from: usize, to: usize) -> impl DoubleEndedIterator<Item = u32> + '_ {
        self[from..to].iter().map(|&x| x.into())
    }
}

impl Read for ScanCodes {
    #[inline]
    fn at(&self, i: usize) -> u32 {
        self.get(i).expect("coded")
    }

    fn run(&self, from: usize, to: usize) -> impl DoubleEndedIterator<Item = u32> + '_ {
        (from..to).map(|i| self.at(i))
    }
}

impl CompactValues {
    pub fn new() -> CompactValues {
        CompactValues::Bytes(Vec::new())
    }

    pub fn len(&self) -> usize {
        with_slice!(self, g => g.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            CompactValues::Bytes(g) => g.get(i).map(|&v| v.into()),
            CompactValues::Halves(g) => g.get(i).map(|&v| v.into()),
            CompactValues::Words(g) => g.get(i).copied(),
            CompactValues::Coded(c) => c.get(i),
        }
    }

    /// Appends `v`, the value of a heap `rare` or not under the codes' mask (for the codes
    /// alone), widening the storage when it does not hold `v`.
    pub fn push(&mut self, v: u32, rare: bool) {
        match self {
            CompactValues::Bytes(g) => match u8::try_from(v) {
                Ok(v) => g.push(v),
                Err(_) => {
                    *self = CompactValues::widen(g.iter().map(|&x| x.into()), g.capacity(), v);
                    self.push(v, rare);
                }
            },
            CompactValues::Halves(g) => match u16::try_from(v) {
                Ok(v) => g.push(v),
                Err(_) => {
                    *self = CompactValues::widen(g.iter().map(|&x| x.into()), g.capacity(), v);
                    self.push(v, rare);
                }
            },
            CompactValues::Words(g) => g.push(v),
            CompactValues::Coded(c) => {
                if !c.push(v, rare) {
                    *self = CompactValues::widen(c.values(), c.capacity(), v);
                    self.push(v, rare);
                }
            }
        }
    }

    /// The values `g` (`capacity` of them fit) in the narrowest plain storage that holds them
    /// and `v`, with the same room for more.
    pub fn widen(g: impl Iterator<Item = u32>, capacity: usize, v: u32) -> CompactValues {
        fn copy<U>(g: impl Iterator<Item = u32>, capacity: usize, to: impl Fn(u32) -> U) -> Vec<U> {
            let mut wide = Vec::with_capacity(capacity);
            wide.extend(g.map(to));
            wide
        }
        match width_of(v) {
            1 => CompactValues::Bytes(copy(g, capacity, |x| x as u8)),
            2 => CompactValues::Halves(copy(g, capacity, |x| x as u16)),
            _ => CompactValues::Words(copy(g, capacity, |x| x)),
        }
    }

    /// Whether `v` fits the storage of the values so far.
    pub fn holds(&self, v: u32) -> bool {
        match self {
            CompactValues::Coded(_) => v < CODED_VALUES,
            _ => width_of(v) <= self.width(),
        }
    }

    /// The bytes a value takes.
    pub fn width(&self) -> usize {
        match self {
            CompactValues::Bytes(_) | CompactValues::Coded(_) => 1,
            CompactValues::Halves(_) => 2,
            CompactValues::Words(_) => 4,
        }
    }

    /// How many values fit without growing.
    pub fn capacity(&self) -> usize {
        self.bytes() / self.width()
    }

    /// Room for exactly `more` values beyond those stored.
    pub fn reserve_exact(&mut self, more: usize) {
        match self {
            CompactValues::Bytes(g) => g.reserve_exact(more),
            CompactValues::Halves(g) => g.reserve_exact(more),
            CompactValues::Words(g) => g.reserve_exact(more),
            CompactValues::Coded(c) => c.reserve_exact(more),
        }
    }

    /// The bytes held by the values themselves (a code a byte), spare capacity included.
    pub fn bytes(&self) -> usize {
        match self {
            CompactValues::Bytes(g) => g.capacity(),
            CompactValues::Halves(g) => 2 * g.capacity(),
            CompactValues::Words(g) => 4 * g.capacity(),
            CompactValues::Coded(c) => c.code_bytes(),
        }
    }

    /// The bytes of the tables the codes keep beside them (their rare heaps).
    pub fn table_bytes(&self) -> usize {
        match self {
            CompactValues::Coded(c) => c.bytes() - c.code_bytes(),
            _ => 0,
        }
    }
}

/// The bytes of the narrowest storage that holds `v`: 1, 2 or 4.
pub(super) fn width_of(v: u32) -> usize {
    match v {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        _ => 4,
    }
}

/// A set of values as bits, with the highest word ever set, so that clearing costs only the
/// words in use.
#[derive(Default)]
pub(super) struct ValueSet {
    words: Vec<u64>,
    high: usize,
}

impl ValueSet {
    /// Room for every value below `bound`, which must only grow.
    pub fn grow(&mut self, bound: usize) {
        self.words.resize(bound.div_ceil(64) + 1, 0);
    }

    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub fn bytes(&self) -> usize {
        8 * self.words.capacity()
    }

    pub fn insert(&mut self, v: u32) {
        let w = (v >> 6) as usize;
        self.words[w] |= 1 << (v & 63);
        self.high = self.high.max(w);
    }

    /// Inserts the values `64 w + i` of the bits `i` of `bits`.
    pub fn insert_word(&mut self, w: usize, bits: u64) {
        self.words[w] |= bits;
        self.high = self.high.max(w);
    }

    /// Takes `v` out of the set; whether it was in.
    pub fn remove(&mut self, v: u32) -> bool {
        let Some(word) = self.words.get_mut((v >> 6) as usize) else {
            return false;
        };
        let bit = 1 << (v & 63);
        let was = *word & bit != 0;
        *word &= !bit;
        was
    }

    /// Inserts the values of `bits` (bit `i` of word `w`: value `64 w + i`).
    pub fn insert_words(&mut self, bits: &[u64]) {
        for (word, &b) in self.words.iter_mut().zip(bits) {
            *word |= b;
        }
        self.high = self
            .high
            .max(bits.len().min(self.words.len()).saturating_sub(1));
    }

    /// Takes the values of `bits` out of the set (bit `i` of word `w`: value `64 w + i`);
    /// returns how many of them were in it.
    pub fn remove_words(&mut self, bits: &[u64]) -> u32 {
        let mut removed = 0;
        for (word, &b) in self.words.iter_mut().zip(bits) {
            removed += (*word & b).count_ones();
            *word &= !b;
        }
        removed
    }

    /// The values in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let i = rest.trailing_zeros();
                    rest &= rest - 1;
                    (w * 64) as u32 + i
                })
            })
        })
    }

    pub fn contains(&self, v: u32) -> bool {
        self.words
            .get((v >> 6) as usize)
            .is_some_and(|w| w >> (v & 63) & 1 != 0)
    }

    /// The least value not in the set.
    pub fn mex(&self) -> u32 {
        for (w, &bits) in self.words.iter().enumerate() {
            if bits != u64::MAX {
                return (w * 64) as u32 + (!bits).trailing_zeros();
            }
        }
        (self.words.len() * 64) as u32
    }

    /// The least value in the set.
    pub fn min(&self) -> Option<u32> {
        self.words[..=self.high]
            .iter()
            .enumerate()
            .find(|(_, &bits)| bits != 0)
            .map(|(w, bits)| (w * 64) as u32 + bits.trailing_zeros())
    }

    pub fn clear(&mut self) {
        self.words[..=self.high].fill(0);
        self.high = 0;
    }
}

/// The largest `a` of the pairs `(a, rest - a)` with `1 <= a <= rest - a` (unequal parts only,
/// when `unequal`).
pub(super) fn last_pair(rest: usize, unequal: bool) -> usize {
    if unequal {
        rest.saturating_sub(1) / 2
    } else {
        rest / 2
    }
}

/// Inserts `g[a] ^ g[rest - a]` for every pair.
pub(super) fn insert_all_pairs<G: Read + ?Sized>(
    g: &G,
    rest: usize,
    unequal: bool,
    into: &mut ValueSet,
) {
    let last = last_pair(rest, unequal);
    let low = g.run(1, last + 1);
    let high = g.run(rest - last, rest);
    for (x, y) in low.zip(high.rev()) {
        into.insert(x ^ y);
    }
}

/// Inserts `g[a] ^ g[b] ^ g[rest - a - b]` for every split `1 <= a <= b <= rest - a - b`: the
/// pairs `(b, c)` of each `a` are the pairs of `rest - a` with `b >= a`.
pub(super) fn insert_all_triples<G: Read + ?Sized>(g: &G, rest: usize, into: &mut ValueSet) {
    for a in 1..=rest / 3 {
        let x = g.at(a);
        let pairs = rest - a;
        let low = g.run(a, pairs / 2 + 1);
        let high = g.run(pairs - pairs / 2, pairs - a + 1);
        for (y, z) in low.zip(high.rev()) {
            into.insert(x ^ y ^ z);
        }
    }
}

/// A heap whose value is rare under the sparse space's mask.
#[derive(Clone, Copy, Debug)]
pub(super) struct RareHeap {
    pub heap: usize,
    pub value: u32,
}

/// The rare heaps `r` below `rest` (ascending), without `rest / 2` when the parts must differ:
/// the pairs `(r, rest - r)` with a rare part, in two runs.
fn rare_parts(rare: &[RareHeap], rest: usize, unequal: bool) -> [&[RareHeap]; 2] {
    let below = &rare[..rare.partition_point(|r| r.heap < rest)];
    if unequal && rest.is_multiple_of(2) {
        let half = below.partition_point(|r| r.heap < rest / 2);
        let skip = usize::from(below.get(half).is_some_and(|r| 2 * r.heap == rest));
        [&below[..half], &below[half + skip..]]
    } else {
        [below, &[]]
    }
}

/// Inserts `g[r] ^ g[rest - r]` for every rare heap `r` below `rest`.
pub(super) fn insert_rare_pairs<G: Read + ?Sized>(
    g: &G,
    rare: &[RareHeap],
    rest: usize,
    unequal: bool,
    into: &mut ValueSet,
) {
    for part in rare_parts(rare, rest, unequal) {
        for r in part {
            into.insert(r.value ^ g.at(rest - r.heap));
        }
    }
}

/// Takes `g[a] ^ g[rest - a]` out of `wanted` for the pairs `a = 1, 2, ...` in turn, until
/// `missing` (the size of `wanted`) values are found; returns how many are still missing.
pub(super) fn find_in_pairs<G: Read + ?Sized>(
    g: &G,
    rest: usize,
    unequal: bool,
    wanted: &mut ValueSet,
    mut missing: u32,
) -> u32 {
    let last = last_pair(rest, unequal);
    let low = g.run(1, last + 1);
    let high = g.run(rest - last, rest);
    let words = &mut wanted.words;
    for (x, y) in low.zip(high.rev()) {
        let v = x ^ y;
        let w = (v >> 6) as usize;
        let bit = 1u64 << (v & 63);
        if let Some(word) = words.get_mut(w) {
            if *word & bit != 0 {
                *word &= !bit;
                missing -= 1;
                if missing == 0 {
                    return 0;
                }
            }
        }
    }
    missing
}

/// A heap's option values from the rare heaps of a [`super::block::RareBlock`], as flags, with
/// the bound below which they hold every common one.
pub(super) type BlockOptions<'a> = (&'a [bool; 256], u32);

/// The value of a heap by the sparse space when every value so far is below 256, so that the
/// sets of values are [`ByteSet`]s: `options` holds the one-heap options, `splits` the
/// `(rest, unequal)` of each way to split, `common` the common values. `block`: the option values
/// already found from the rare heaps of a [`super::block::RareBlock`] with the bound below which
/// they hold every common one, and the rare heaps it leaves out; `kernels`, those in use. `None` when every common value
/// below 256 is an option (the general method then answers).
pub(super) fn sparse_byte_value(
    g: &[u8],
    rare: &[RareHeap],
    splits: &[(usize, bool)],
    options: &ValueSet,
    common: &ByteSet,
    block: Option<(BlockOptions, [&[RareHeap]; 2])>,
    kernels: Kernels,
) -> Option<u32> {
    let ((mut seen, exact_below), runs) = match block {
        Some(((found, exact_below), others)) => ((*found, exact_below), others),
        None => (([false; 256], 256), [rare, &[][..]]),
    };
    for &(rest, unequal) in splits {
        for run in runs {
            for part in rare_parts(run, rest, unequal) {
                for r in part {
                    seen[(r.value as u8 ^ g[rest - r.heap]) as usize] = true;
                }
            }
        }
    }
    let mut found = kernels.set_of(&seen);
    for (f, &o) in found.iter_mut().zip(options.words()) {
        *f |= o;
    }
    // The least common value not found, and the rare values below it not found.
    let mut wanted = [0u64; 4];
    let mut common_mex = None;
    for w in 0..4 {
        let free = !found[w];
        let free_common = free & common[w];
        if free_common != 0 {
            let i = free_common.trailing_zeros();
            wanted[w] = free & !common[w] & ((1 << i) - 1);
            common_mex = Some(64 * w as u32 + i);
            break;
        }
        wanted[w] = free & !common[w];
    }
    let common_mex = common_mex?;
    if common_mex >= exact_below {
        // Past the block's candidates: every rare heap, heap by heap.
        return sparse_byte_value(g, rare, splits, options, common, None, kernels);
    }
    for &(rest, unequal) in splits {
        if byte_scan::is_empty(&wanted) {
            break;
        }
        let last = last_pair(rest, unequal);
        byte_scan::remove_pair_values(&g[1..=last], &g[rest - last..rest], &mut wanted, kernels);
    }
    Some(byte_scan::min(&wanted).unwrap_or(common_mex))
}
