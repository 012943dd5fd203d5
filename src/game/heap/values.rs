//! The values of a heap sequence in the narrowest integers that hold them, the set of option
//! values of one heap, and the loops over pairs of heaps where games that split spend their time.

/// One stored value: `u8`, `u16` or `u32`.
pub(super) trait Cell: Copy + Into<u32> {}

impl Cell for u8 {}
impl Cell for u16 {}
impl Cell for u32 {}

/// The values of heaps `0..len`, each in the narrowest of 1, 2 or 4 bytes that holds every
/// value so far (games that split have small values: Grundy's game stays below 256 far beyond
/// 2^20 heaps).
pub(super) enum CompactValues {
    Bytes(Vec<u8>),
    Halves(Vec<u16>),
    Words(Vec<u32>),
}

/// Runs `$body` with `$g` bound to the values as a slice of their own width.
macro_rules! with_slice {
    ($values:expr, $g:ident => $body:expr) => {
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
        }
    };
}
pub(super) use with_slice;

impl CompactValues {
    pub fn new() -> CompactValues {
        CompactValues::Bytes(Vec::new())
    }

    pub fn len(&self) -> usize {
        with_slice!(self, g => g.len())
    }

    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            CompactValues::Bytes(g) => g.get(i).map(|&v| v.into()),
            CompactValues::Halves(g) => g.get(i).map(|&v| v.into()),
            CompactValues::Words(g) => g.get(i).copied(),
        }
    }

    pub fn push(&mut self, v: u32) {
        match self {
            CompactValues::Bytes(g) => match u8::try_from(v) {
                Ok(v) => g.push(v),
                Err(_) => {
                    *self = CompactValues::widen(g, v);
                    self.push(v);
                }
            },
            CompactValues::Halves(g) => match u16::try_from(v) {
                Ok(v) => g.push(v),
                Err(_) => {
                    *self = CompactValues::widen(g, v);
                    self.push(v);
                }
            },
            CompactValues::Words(g) => g.push(v),
        }
    }

    /// The values in a wider storage that holds `v`, with the same room for more.
    fn widen<T: Cell>(g: &Vec<T>, v: u32) -> CompactValues {
        fn copy<T: Cell, U: Cell>(g: &Vec<T>, to: impl Fn(u32) -> U) -> Vec<U> {
            let mut wide = Vec::with_capacity(g.capacity());
            wide.extend(g.iter().map(|&x| to(x.into())));
            wide
        }
        if v <= u16::MAX as u32 {
            CompactValues::Halves(copy(g, |x| x as u16))
        } else {
            CompactValues::Words(copy(g, |x| x))
        }
    }

    /// The bytes a value takes.
    pub fn width(&self) -> usize {
        match self {
            CompactValues::Bytes(_) => 1,
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
        }
    }

    /// The bytes held, spare capacity included.
    pub fn bytes(&self) -> usize {
        match self {
            CompactValues::Bytes(g) => g.capacity(),
            CompactValues::Halves(g) => 2 * g.capacity(),
            CompactValues::Words(g) => 4 * g.capacity(),
        }
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
fn last_pair(rest: usize, unequal: bool) -> usize {
    if unequal {
        rest.saturating_sub(1) / 2
    } else {
        rest / 2
    }
}

/// Inserts `g[a] ^ g[rest - a]` for every pair.
pub(super) fn insert_all_pairs<T: Cell>(g: &[T], rest: usize, unequal: bool, into: &mut ValueSet) {
    let last = last_pair(rest, unequal);
    let low = &g[1..=last];
    let high = &g[rest - last..rest];
    for (&x, &y) in low.iter().zip(high.iter().rev()) {
        into.insert(x.into() ^ y.into());
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
pub(super) fn insert_rare_pairs<T: Cell>(
    g: &[T],
    rare: &[RareHeap],
    rest: usize,
    unequal: bool,
    into: &mut ValueSet,
) {
    for part in rare_parts(rare, rest, unequal) {
        for r in part {
            into.insert(r.value ^ g[rest - r.heap].into());
        }
    }
}

/// Takes `g[a] ^ g[rest - a]` out of `wanted` for the pairs `a = 1, 2, ...` in turn, until
/// `missing` (the size of `wanted`) values are found; returns how many are still missing.
pub(super) fn find_in_pairs<T: Cell>(
    g: &[T],
    rest: usize,
    unequal: bool,
    wanted: &mut ValueSet,
    mut missing: u32,
) -> u32 {
    let last = last_pair(rest, unequal);
    let low = &g[1..=last];
    let high = &g[rest - last..rest];
    let words = &mut wanted.words;
    for (&x, &y) in low.iter().zip(high.iter().rev()) {
        let v = x.into() ^ y.into();
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

/// The value of a heap by the sparse space when every value so far is below 256, so that the
/// sets of values are tables of 256 flags: `options` holds the one-heap options, `splits` the
/// `(rest, unequal)` of each way to split, `common[v]` whether `v` is common. `None` when every
/// common value below 256 is an option (the general method then answers).
pub(super) fn sparse_byte_value(
    g: &[u8],
    rare: &[RareHeap],
    splits: &[(usize, bool)],
    options: &ValueSet,
    common: &[bool; 256],
) -> Option<u32> {
    let mut seen = [false; 256];
    for (w, &word) in options.words().iter().take(4).enumerate() {
        let mut bits = word;
        while bits != 0 {
            seen[w * 64 + bits.trailing_zeros() as usize] = true;
            bits &= bits - 1;
        }
    }
    for &(rest, unequal) in splits {
        for part in rare_parts(rare, rest, unequal) {
            for r in part {
                seen[(r.value as u8 ^ g[rest - r.heap]) as usize] = true;
            }
        }
    }
    let mut wanted = [false; 256];
    let mut missing = 0u32;
    let common_mex = (0..256).find(|&v| {
        if !seen[v] {
            if common[v] {
                return true;
            }
            wanted[v] = true;
            missing += 1;
        }
        false
    })?;
    for &(rest, unequal) in splits {
        if missing == 0 {
            break;
        }
        let last = last_pair(rest, unequal);
        missing = find_in_byte_pairs(&g[1..=last], &g[rest - last..rest], &mut wanted, missing);
    }
    let rare_mex = wanted.iter().position(|&w| w);
    Some(rare_mex.map_or(common_mex as u32, |v| v as u32))
}

/// How many pairs [`find_in_byte_pairs`] looks at in one block.
const BLOCK: usize = 32;

/// Up to how many values still wanted [`find_in_byte_pairs`] compares a block of pairs with
/// each of them at once (vector instructions) before looking its pairs up one by one.
const FEW: usize = 4;

/// Takes `low[i] ^ high[len - 1 - i]` (the pairs `(a, rest - a)` for `a = 1, 2, ...`) out of
/// `wanted` in turn until the `missing` values wanted are found; returns how many are still
/// missing. Most pairs are looked at when only a few values are still missing: a block of
/// pairs is then compared with each of them at once, and looked at one by one only when one
/// of them is there.
fn find_in_byte_pairs(low: &[u8], high: &[u8], wanted: &mut [bool; 256], mut missing: u32) -> u32 {
    let len = low.len();
    let mut start = 0;
    // The values wanted, once they are few, until one is found.
    let mut few: Option<[u8; FEW]> = None;
    while start < len && missing > 0 {
        let count = BLOCK.min(len - start);
        let lows = &low[start..start + count];
        let highs = &high[len - start - count..len - start];
        if count == BLOCK && missing as usize <= FEW {
            let few = few.get_or_insert_with(|| few_wanted(wanted));
            if !block_has_any(lows, highs, few) {
                start += BLOCK;
                continue;
            }
        }
        let before = missing;
        for (&x, &y) in lows.iter().zip(highs.iter().rev()) {
            let v = (x ^ y) as usize;
            if wanted[v] {
                wanted[v] = false;
                missing -= 1;
                if missing == 0 {
                    break;
                }
            }
        }
        if missing != before {
            few = None;
        }
        start += count;
    }
    missing
}

/// The (at most [`FEW`]) values of `wanted`, the first repeated to fill the array.
fn few_wanted(wanted: &[bool; 256]) -> [u8; FEW] {
    let mut few = [0u8; FEW];
    let mut found = 0;
    for (v, _) in wanted.iter().enumerate().filter(|(_, &w)| w).take(FEW) {
        few[found] = v as u8;
        found += 1;
    }
    for i in found..FEW {
        few[i] = few[0];
    }
    few
}

/// Whether some pair of a block (`lows[i] ^ highs[BLOCK - 1 - i]`) has one of the values `few`.
fn block_has_any(lows: &[u8], highs: &[u8], few: &[u8; FEW]) -> bool {
    let (Ok(lows), Ok(highs)) = (
        <&[u8; BLOCK]>::try_from(lows),
        <&[u8; BLOCK]>::try_from(highs),
    ) else {
        return true;
    };
    let mut xors = [0u8; BLOCK];
    for (i, x) in xors.iter_mut().enumerate() {
        *x = lows[i] ^ highs[BLOCK - 1 - i];
    }
    let mut hits = [0u8; BLOCK];
    for &w in few {
        for (hit, &x) in hits.iter_mut().zip(&xors) {
            *hit |= u8::from(x == w);
        }
    }
    hits.iter().fold(0, |acc, &h| acc | h) != 0
}
