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

    /// Whether `v` fits the width of the values so far.
    pub fn holds(&self, v: u32) -> bool {
        width_of(v) <= self.width()
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

/// Inserts `g[a] ^ g[b] ^ g[rest - a - b]` for every split `1 <= a <= b <= rest - a - b`: the
/// pairs `(b, c)` of each `a` are the pairs of `rest - a` with `b >= a`.
pub(super) fn insert_all_triples<T: Cell>(g: &[T], rest: usize, into: &mut ValueSet) {
    for a in 1..=rest / 3 {
        let x = g[a].into();
        let pairs = rest - a;
        let low = &g[a..=pairs / 2];
        let high = &g[pairs - pairs / 2..=pairs - a];
        for (&y, &z) in low.iter().zip(high.iter().rev()) {
            into.insert(x ^ y.into() ^ z.into());
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
    block: Option<(&[bool; 256], [&[RareHeap]; 2])>,
) -> Option<u32> {
    let (mut seen, runs) = match block {
        Some((found, others)) => (*found, others),
        None => ([false; 256], [rare, &[][..]]),
    };
    for (w, &word) in options.words().iter().take(4).enumerate() {
        let mut bits = word;
        while bits != 0 {
            seen[w * 64 + bits.trailing_zeros() as usize] = true;
            bits &= bits - 1;
        }
    }
    for &(rest, unequal) in splits {
        for run in runs {
            for part in rare_parts(run, rest, unequal) {
                for r in part {
                    seen[(r.value as u8 ^ g[rest - r.heap]) as usize] = true;
                }
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
const FEW: usize = 16;

/// Takes `low[i] ^ high[len - 1 - i]` (the pairs `(a, rest - a)` for `a = 1, 2, ...`) out of
/// `wanted` in turn until the `missing` values wanted are found; returns how many are still
/// missing. Once at most [`FEW`] values are missing, each block of pairs is compared with all of
/// them at once (AVX2 when the processor has it), and only the pairs that hit are looked at one
/// by one.
fn find_in_byte_pairs(low: &[u8], high: &[u8], wanted: &mut [bool; 256], missing: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { find_in_byte_pairs_avx2(low, high, wanted, missing) };
    }
    find_in_byte_pairs_with(low, high, wanted, missing, block_hits)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn find_in_byte_pairs_avx2(
    low: &[u8],
    high: &[u8],
    wanted: &mut [bool; 256],
    missing: u32,
) -> u32 {
    // SAFETY: this function runs only where the processor has AVX2.
    find_in_byte_pairs_with(low, high, wanted, missing, |l, h, f| unsafe {
        block_hits_avx2(l, h, f)
    })
}

#[inline(always)]
fn find_in_byte_pairs_with(
    low: &[u8],
    high: &[u8],
    wanted: &mut [bool; 256],
    mut missing: u32,
    hits_of: impl Fn(&[u8; BLOCK], &[u8; BLOCK], &[u8]) -> u32,
) -> u32 {
    let len = low.len();
    let mut start = 0;
    // The values wanted once few are missing (a superset of them as more are found).
    let mut few: Option<([u8; FEW], usize)> = None;
    while start < len && missing > 0 {
        let count = BLOCK.min(len - start);
        let lows = &low[start..start + count];
        let highs = &high[len - start - count..len - start];
        let mut hits = u32::MAX >> (32 - count);
        if let (Ok(l), Ok(h), true) = (
            <&[u8; BLOCK]>::try_from(lows),
            <&[u8; BLOCK]>::try_from(highs),
            missing as usize <= FEW,
        ) {
            let (values, k) = few.get_or_insert_with(|| few_wanted(wanted));
            hits = hits_of(l, h, &values[..*k]);
        }
        while hits != 0 {
            let i = hits.trailing_zeros() as usize;
            hits &= hits - 1;
            let v = (lows[i] ^ highs[count - 1 - i]) as usize;
            if wanted[v] {
                wanted[v] = false;
                missing -= 1;
                if missing == 0 {
                    break;
                }
                if let Some((values, k)) = &mut few {
                    if let Some(j) = values[..*k].iter().position(|&w| w as usize == v) {
                        *k -= 1;
                        values.swap(j, *k);
                    }
                    // The pairs left in this block with the value found are not hits.
                    hits &= !hits_of_value(lows, highs, v as u8, count);
                }
            }
        }
        start += count;
    }
    missing
}

/// The pairs of a block with value `v`, as bits.
#[inline(always)]
fn hits_of_value(lows: &[u8], highs: &[u8], v: u8, count: usize) -> u32 {
    let mut bits = 0u32;
    for i in 0..count {
        bits |= u32::from(lows[i] ^ highs[count - 1 - i] == v) << i;
    }
    bits
}

/// The (at most [`FEW`]) values of `wanted`, and how many they are.
fn few_wanted(wanted: &[bool; 256]) -> ([u8; FEW], usize) {
    let mut few = [0u8; FEW];
    let mut found = 0;
    for (v, _) in wanted.iter().enumerate().filter(|(_, &w)| w).take(FEW) {
        few[found] = v as u8;
        found += 1;
    }
    (few, found)
}

/// The pairs of a block (`lows[i] ^ highs[BLOCK - 1 - i]`) whose value is one of `few`, as bits.
fn block_hits(lows: &[u8; BLOCK], highs: &[u8; BLOCK], few: &[u8]) -> u32 {
    let mut bits = 0u32;
    for i in 0..BLOCK {
        let x = lows[i] ^ highs[BLOCK - 1 - i];
        bits |= u32::from(few.contains(&x)) << i;
    }
    bits
}

/// [`block_hits`] in AVX2: the block's high values reversed by a byte shuffle, 32 pairs xored
/// and compared with each value at once.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn block_hits_avx2(lows: &[u8; BLOCK], highs: &[u8; BLOCK], few: &[u8]) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: both arrays hold 32 bytes, read unaligned.
    let (low, high) = unsafe {
        (
            _mm256_loadu_si256(lows.as_ptr().cast()),
            _mm256_loadu_si256(highs.as_ptr().cast()),
        )
    };
    let reverse_lanes = _mm256_setr_epi8(
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
        5, 4, 3, 2, 1, 0,
    );
    let reversed = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(high, reverse_lanes), 0x4e);
    let xors = _mm256_xor_si256(low, reversed);
    let mut hits = _mm256_setzero_si256();
    for &w in few {
        hits = _mm256_or_si256(hits, _mm256_cmpeq_epi8(xors, _mm256_set1_epi8(w as i8)));
    }
    _mm256_movemask_epi8(hits) as u32
}
