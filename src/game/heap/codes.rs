//! The values of a sparse space in one byte each, kept as the values themselves and read by the
//! scan of the pairs: while every value is below [`CODED_VALUES`] (Officers' values to 2^22 are
//! below 320, Grundy's game's to 2^24 below 512), the code of a
//! value is the value without bit `j`, the lowest bit of the mask. Two values of one kind (both
//! rare or both common) xor to a value with an even count of bits under the mask, so never to
//! bit `j` alone: a value is told within its kind by its code, and the code of `a ^ b` is the
//! code of `a` xored with that of `b`. The scan of the pairs of common
//! heaps, whose values are the rare ones still wanted, then reads a byte a heap and tests 64
//! pairs a step against a set of 256 codes, as for one-byte values (`byte_scan.rs`).
//!
//! A pair with a rare part has a common value, whose code may be a rare value's: each rare heap
//! has `0xff` in `lanes`, or-ed into the code of its pairs, which makes it the code of the rare
//! value with every bit but `j` set (509 for Officers' mask), a value the scan never looks for
//! (the codes do not answer when it is wanted, or when a pair's high part may be rare: below
//! twice the last rare heap).
//!
//! Two values of one kind never differ highest in bit `j` (the bits below it are not under the
//! mask, so `j` would be their only differing bit under it), so codes of one kind are in the order
//! of their values, and once every partner of a block's rare heaps is common the pairs with a
//! rare part (whose values are common) are the byte block of `block.rs`
//! run on the codes: rows of 256 exact flags, each code a common value.
//!
//! The codes are the storage of the values themselves (`CompactValues::Coded`), not a copy beside
//! them: a heap's value is told by its code and its kind, and the kind is in `lanes` (heap 0,
//! whose value is 0, is rare under every mask). Grundy's game's values pass 255 at heap
//! 7,250,049 and stay below 512 far beyond 2^24: a byte a heap instead of two, or three with a
//! copy of the codes beside two-byte values.

use super::block::eight_of;
use super::byte_scan::{self, ByteSet};
use super::kernels::Kernels;
use super::values::{last_pair, RareHeap, ValueSet};

/// The values the codes hold: those below this many (nine bits, one of which is dropped).
pub(super) const CODED_VALUES: u32 = 512;

/// The pairs the scan marks before it looks up the values still wanted (the first three steps of
/// 64 find about 44 of Officers' ~58 values).
const FIRST_MARKED: usize = 192;

/// The codes of the pairs `(low[i], high[len - 1 - i])`, or-ed with `lanes[i]` (where there
/// is one), as flags; the length is a multiple of 8.
fn mark_pairs(low: &[u8], high: &[u8], lanes: &[u8]) -> [bool; 256] {
    let mut seen = [false; 256];
    let len = low.len();
    for i in (0..len).step_by(8) {
        // The lanes may end within the eight pairs: the pairs past them are not masked.
        let mut lane = [0u8; 8];
        let some = &lanes[lanes.len().min(i)..lanes.len().min(i + 8)];
        lane[..some.len()].copy_from_slice(some);
        let x = eight_of(&low[i..i + 8]) ^ eight_of(&high[len - i - 8..len - i]).swap_bytes()
            | eight_of(&lane);
        for k in 0..8 {
            seen[(x >> (8 * k)) as u8 as usize] = true;
        }
    }
    seen
}

/// Every code: each is a common value's (the one with its bits and an odd count under the mask).
pub(super) const ALL_CODES: ByteSet = [u64::MAX; 4];

/// The code of each heap's value, and the rare heaps as `0xff` lanes.
pub(super) struct ScanCodes {
    mask: u32,
    /// The rare values below [`CODED_VALUES`], 64 a word.
    rare_bits: [u64; CODED_VALUES as usize / 64],
    /// The bit of the mask dropped from each value: its lowest.
    bit: u32,
    codes: Vec<u8>,
    /// `0xff` at each rare heap, 0 at the others, up to the last rare heap.
    lanes: Vec<u8>,
    /// The kernels in use (`pext` and `pdep` in BMI2, when they are).
    kernels: Kernels,
    /// The rare heaps with the codes of their values.
    coded_rare: Vec<RareHeap>,
}

/// Whether the values below [`CODED_VALUES`] can be coded under `mask`: a mask of their bits,
/// whose lowest bit is at most bit 5 so that a word of 64 values holds both values of each code
/// ([`ScanCodes::compress`]).
pub(super) fn codable(mask: u32) -> bool {
    mask != 0 && mask < CODED_VALUES && mask.trailing_zeros() <= 5
}

impl ScanCodes {
    /// The codes of `values` under `mask`, whose rare heaps are `rare`, with room for
    /// `capacity` of them; `None` when the mask is not [`codable`], or a value is past the coded
    /// values.
    pub fn new(
        values: impl Iterator<Item = u32>,
        capacity: usize,
        mask: u32,
        rare: &[RareHeap],
        kernels: Kernels,
    ) -> Option<ScanCodes> {
        let mut codes = ScanCodes::empty(Vec::with_capacity(capacity), mask, rare, kernels)?;
        for v in values {
            if v >= CODED_VALUES {
                return None;
            }
            codes.codes.push(codes.code(v));
        }
        Some(codes)
    }

    /// The codes of one-byte `values` under `mask`, made in place (no second copy while they
    /// are made); the values again when the mask is not [`codable`].
    pub fn of_bytes(
        mut values: Vec<u8>,
        mask: u32,
        rare: &[RareHeap],
        kernels: Kernels,
    ) -> Result<ScanCodes, Vec<u8>> {
        if !codable(mask) {
            return Err(values);
        }
        let mut codes = ScanCodes::empty(Vec::new(), mask, rare, kernels).expect("codable");
        for v in values.iter_mut() {
            *v = codes.code(u32::from(*v));
        }
        codes.codes = values;
        Ok(codes)
    }

    /// No codes yet, under `mask` with the rare heaps `rare`, kept in `codes`.
    fn empty(codes: Vec<u8>, mask: u32, rare: &[RareHeap], kernels: Kernels) -> Option<ScanCodes> {
        if !codable(mask) {
            return None;
        }
        let rare_bits = std::array::from_fn(|w| {
            (0..64).fold(0, |bits, i| {
                let v = (64 * w + i) as u32;
                bits | u64::from((v & mask).count_ones().is_multiple_of(2)) << i
            })
        });
        let mut codes = ScanCodes {
            mask,
            rare_bits,
            bit: mask.trailing_zeros(),
            codes,
            lanes: Vec::new(),
            kernels,
            coded_rare: Vec::with_capacity(rare.len()),
        };
        for r in rare {
            codes.mark_rare(r.heap, r.value);
        }
        Some(codes)
    }

    /// How many heaps' values are coded.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// How many codes fit without growing.
    pub fn capacity(&self) -> usize {
        self.codes.capacity()
    }

    /// The value of heap `n`, if coded: the rare value of its code, or the common one (bit `j`
    /// flipped) when the heap is common.
    pub fn get(&self, n: usize) -> Option<u32> {
        let rare = self.rare_value(*self.codes.get(n)?);
        let common = n > 0 && self.lanes.get(n) != Some(&0xff);
        Some(rare ^ u32::from(common) << self.bit)
    }

    /// The values, in order.
    pub fn values(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.codes.len()).map(|n| self.get(n).expect("coded"))
    }

    /// The values decoded, two bytes each (for a reader of plain values: the period search).
    pub fn decoded(&self) -> Vec<u16> {
        self.values().map(|v| v as u16).collect()
    }

    /// The code of each heap's value.
    pub fn codes(&self) -> &[u8] {
        &self.codes
    }

    /// Whether every heap from `heap` on is common.
    pub fn common_from(&self, heap: usize) -> bool {
        heap >= self.lanes.len()
    }

    /// The code of `v` (below 512).
    pub fn code(&self, v: u32) -> u8 {
        let below = (1 << self.bit) - 1;
        ((v & below) | (v >> (self.bit + 1) << self.bit)) as u8
    }

    /// The rare value whose code is `c`.
    fn rare_value(&self, c: u8) -> u32 {
        let c = u32::from(c);
        let below = (1 << self.bit) - 1;
        let v = (c & below) | (c >> self.bit << (self.bit + 1));
        v | ((v & self.mask).count_ones() & 1) << self.bit
    }

    fn mark_rare(&mut self, heap: usize, value: u32) {
        if self.lanes.len() <= heap {
            self.lanes.resize(heap + 1, 0);
        }
        self.lanes[heap] = 0xff;
        let value = self.code(value).into();
        self.coded_rare.push(RareHeap { heap, value });
    }

    /// The rare heaps, each with the code of its value.
    pub fn coded_rare(&self) -> &[RareHeap] {
        &self.coded_rare
    }

    /// Inserts into `options` the common values whose codes are flagged.
    pub fn insert_common(&self, flags: &[bool; 256], options: &mut ValueSet) {
        let found = self.kernels.set_of(flags);
        let mut words = [0u64; CODED_VALUES as usize / 64];
        for (w, word) in words.iter_mut().enumerate() {
            let half = (found[w / 2] >> (32 * (w % 2))) as u32;
            *word = self.expand(half, !self.rare_bits[w]);
        }
        options.insert_words(&words);
    }

    /// The least common value whose code is at least `code` (`u32::MAX` past the last code):
    /// the common values below it are those of the codes below `code`.
    pub fn common_below(&self, code: u32) -> u32 {
        match u8::try_from(code) {
            Ok(c) => self.rare_value(c) ^ 1 << self.bit,
            Err(_) => u32::MAX,
        }
    }

    /// Appends the next heap's value `v`, rare or not; false when `v` is past the coded values
    /// (the codes are then of no more use).
    pub fn push(&mut self, v: u32, rare: bool) -> bool {
        if v >= CODED_VALUES {
            return false;
        }
        if rare {
            self.mark_rare(self.codes.len(), v);
        }
        self.codes.push(self.code(v));
        true
    }

    /// Room for exactly `more` codes beyond those stored.
    pub fn reserve_exact(&mut self, more: usize) {
        self.codes.reserve_exact(more);
    }

    /// The bytes held, spare capacity included.
    pub fn bytes(&self) -> usize {
        self.code_bytes()
            + self.lanes.capacity()
            + size_of::<RareHeap>() * self.coded_rare.capacity()
    }

    /// The bytes of the codes themselves (a byte a heap), spare capacity included.
    pub fn code_bytes(&self) -> usize {
        self.codes.capacity()
    }

    /// Takes the values of the pairs `(a, rest - a)` out of `wanted` (rare values), until its
    /// `missing` values are found; returns how many are still missing. `None` when the codes
    /// cannot tell: a pair's high part may be rare, or the value of the code `0xff` is wanted.
    pub fn find(
        &self,
        rest: usize,
        unequal: bool,
        wanted: &mut ValueSet,
        missing: u32,
    ) -> Option<u32> {
        let last = last_pair(rest, unequal);
        if !self.common_from(rest - last) || rest > self.codes.len() {
            return None;
        }
        let never = self.rare_value(0xff);
        let words = wanted.words();
        let word = |w: usize| words.get(w).copied().unwrap_or(0);
        if word(never as usize / 64) & 1 << (never % 64) != 0 {
            return None;
        }
        let mut codes: ByteSet = [0; 4];
        for (k, code) in codes.iter_mut().enumerate() {
            *code = u64::from(self.compress(word(2 * k)))
                | u64::from(self.compress(word(2 * k + 1))) << 32;
        }
        let before = codes;
        let lanes = self.lanes.get(1..).unwrap_or_default();
        let lanes = &lanes[..lanes.len().min(last)];
        let (low, high) = (&self.codes[1..=last], &self.codes[rest - last..rest]);
        // The first pairs find most values, a hit a step or more: they are marked instead.
        let marked = FIRST_MARKED.min(last) / 8 * 8;
        let seen =
            (self.kernels).set_of(&mark_pairs(&low[..marked], &high[last - marked..], lanes));
        for (c, s) in codes.iter_mut().zip(seen) {
            *c &= !s;
        }
        let lanes = lanes.get(marked..).unwrap_or_default();
        let (low, high) = (&low[marked..], &high[..last - marked]);
        byte_scan::remove_masked_pair_values(low, high, lanes, &mut codes, self.kernels);
        let mut found = [0u64; CODED_VALUES as usize / 64];
        for (w, found) in found.iter_mut().enumerate() {
            let gone = (before[w / 2] & !codes[w / 2]) >> (32 * (w % 2)) as u32;
            *found = self.expand(gone as u32, self.rare_bits[w]);
        }
        let found = wanted.remove_words(&found);
        Some(missing - found)
    }

    /// The codes of the rare values of a word of 64 values (the values `64 w..64 w + 64`, one
    /// rare value of each two that differ in bit `bit` only): the 32 codes `32 w..32 w + 32`.
    fn compress(&self, word: u64) -> u32 {
        self.kernels
            .compress(word | word >> (1 << self.bit), self.bit)
    }

    /// The rare values (`rare` in a word of 64 values) of 32 codes from [`ScanCodes::compress`].
    fn expand(&self, codes: u32, rare: u64) -> u64 {
        let x = self.kernels.expand(codes, self.bit);
        (x & rare) | (x & !rare) << (1 << self.bit)
    }
}

#[cfg(test)]
mod tests {
    use super::super::wide::tests::{left_by_pairs, stream};
    use super::*;

    const MASKS: [u32; 6] = [0x1ee, 0x1, 0x6, 0x20, 0x155, 0x1e0];

    fn is_rare(v: u32, mask: u32) -> bool {
        (v & mask).count_ones().is_multiple_of(2)
    }

    #[test]
    fn a_rare_value_is_told_by_its_code() {
        for mask in MASKS {
            let codes = ScanCodes::new([].into_iter(), 0, mask, &[], Kernels::detect())
                .expect("a mask below 512");
            let rare: Vec<u32> = (0..CODED_VALUES).filter(|&v| is_rare(v, mask)).collect();
            let mut seen = [false; 256];
            for &v in &rare {
                let c = codes.code(v);
                assert!(
                    !seen[c as usize],
                    "mask {mask:#x}: two rare values of code {c}"
                );
                seen[c as usize] = true;
                assert_eq!(codes.rare_value(c), v, "mask {mask:#x}");
                for &w in &rare {
                    assert_eq!(codes.code(v ^ w), c ^ codes.code(w), "mask {mask:#x}");
                }
            }
            assert!(codes.rare_value(0xff) >= 256, "mask {mask:#x}");
            // Codes of one kind are in the order of their values; the common values below
            // `common_below(c)` are those of the codes below `c`.
            let common: Vec<u32> = (0..CODED_VALUES).filter(|&v| !is_rare(v, mask)).collect();
            for kind in [&rare, &common] {
                assert!(kind.windows(2).all(|w| codes.code(w[0]) < codes.code(w[1])));
            }
            for c in 0..=256u32 {
                let below = codes.common_below(c);
                for &v in &common {
                    assert_eq!(
                        u32::from(codes.code(v)) < c,
                        v < below,
                        "mask {mask:#x} {c} {v}"
                    );
                }
            }
        }
    }

    /// Values below 512 coded (all at once, one by one, or one-byte values in place) and
    /// decoded again; a value past them refused, and the storage widened to hold it.
    #[test]
    fn values_come_back_from_their_codes() {
        use super::super::values::CompactValues;
        let mut next = stream(11);
        let kernels = Kernels::detect();
        for mask in MASKS {
            for round in 0..40 {
                let len = 1 + (next() % 3000) as usize;
                let bound = [512, 256][round % 2];
                let g: Vec<u32> = (0..len)
                    .map(|n| if n == 0 { 0 } else { (next() % bound) as u32 })
                    .collect();
                let rare: Vec<RareHeap> = (1..len)
                    .filter(|&n| is_rare(g[n], mask))
                    .map(|n| RareHeap {
                        heap: n,
                        value: g[n],
                    })
                    .collect();
                let all = ScanCodes::new(g.iter().copied(), len, mask, &rare, kernels)
                    .expect("values below 512");
                assert!(all.values().eq(g.iter().copied()), "mask {mask:#x}");
                let mut pushed = ScanCodes::new([].into_iter(), 0, mask, &[], kernels)
                    .expect("a mask that codes");
                for (n, &v) in g.iter().enumerate() {
                    assert!(pushed.push(v, n >= 1 && is_rare(v, mask)));
                }
                assert!(pushed.values().eq(g.iter().copied()), "mask {mask:#x}");
                assert_eq!(pushed.coded_rare().len(), rare.len());
                if bound == 256 {
                    let bytes = g.iter().map(|&v| v as u8).collect();
                    let in_place = ScanCodes::of_bytes(bytes, mask, &rare, kernels)
                        .unwrap_or_else(|_| panic!("mask {mask:#x} codes"));
                    assert!(in_place.values().eq(g.iter().copied()), "mask {mask:#x}");
                }
                assert!(!pushed.push(512, false));
                let mut values = CompactValues::Coded(pushed);
                values.push(600, false);
                assert!(matches!(values, CompactValues::Halves(_)));
                let wide = (0..=len).map(|n| values.get(n).expect("stored"));
                assert!(wide.eq(g.iter().copied().chain([600])), "mask {mask:#x}");
            }
        }
        assert!(ScanCodes::of_bytes(vec![0, 1], 0x40, &[], kernels).is_err());
        assert!(ScanCodes::new([0, 1].into_iter(), 2, 0x200, &[], kernels).is_none());
    }

    /// The sets of values turned into sets of codes and back, word by word, as `find` does
    /// (with `pext`/`pdep` and with shifts): the codes of the values, and the values again.
    #[test]
    fn sets_of_rare_values_become_sets_of_codes_and_back() {
        let mut next = stream(5);
        for mask in MASKS {
            let mut codes = ScanCodes::new([].into_iter(), 0, mask, &[], Kernels::detect())
                .expect("a mask below 512");
            for round in 0..200 {
                let values: Vec<u32> = (0..1 + next() % 100)
                    .map(|_| (next() % u64::from(CODED_VALUES)) as u32)
                    .filter(|&v| is_rare(v, mask))
                    .collect();
                let mut words = [0u64; 8];
                values
                    .iter()
                    .for_each(|&v| words[v as usize / 64] |= 1 << (v % 64));
                let mut expected = [0u64; 4];
                for &v in &values {
                    let c = codes.code(v);
                    expected[usize::from(c >> 6)] |= 1 << (c & 63);
                }
                for kernels in Kernels::every() {
                    codes.kernels = kernels;
                    let coded: Vec<u64> = (0..4)
                        .map(|k| {
                            u64::from(codes.compress(words[2 * k]))
                                | u64::from(codes.compress(words[2 * k + 1])) << 32
                        })
                        .collect();
                    assert_eq!(coded, expected, "mask {mask:#x} round {round}");
                    for (w, &word) in words.iter().enumerate() {
                        let half = (coded[w / 2] >> (32 * (w % 2))) as u32;
                        assert_eq!(
                            codes.expand(half, codes.rare_bits[w]),
                            word,
                            "mask {mask:#x}"
                        );
                    }
                }
            }
        }
    }

    /// The coded scan against a plain loop over the values: rare heaps (any values) among the
    /// first heaps, common ones after, and splits far enough out that no pair has two rare
    /// parts; nearer splits are refused.
    #[test]
    fn the_coded_scan_finds_what_a_plain_loop_finds() {
        let mut next = stream(9);
        let mask = 0x1ee;
        for round in 0..300 {
            let first = 1 + (next() % 300) as usize;
            let len = 2 * first + 2 + (next() % 2000) as usize;
            let g: Vec<u16> = (0..len)
                .map(|n| {
                    let v = (next() % 320) as u32;
                    match n < first || is_rare(v, mask) == (n == 0) {
                        true => v as u16,
                        false => (v ^ 2) as u16,
                    }
                })
                .collect();
            let rare: Vec<RareHeap> = (1..len)
                .filter(|&n| is_rare(g[n].into(), mask))
                .map(|n| RareHeap {
                    heap: n,
                    value: g[n].into(),
                })
                .collect();
            let codes = ScanCodes::new(
                g.iter().map(|&v| v.into()),
                g.len(),
                mask,
                &rare,
                Kernels::detect(),
            )
            .expect("values below 512");
            let last_rare = rare.last().map_or(0, |r| r.heap);
            let unequal = round % 2 == 1;
            let rest = len - (next() % 3) as usize;
            let mut wanted = ValueSet::default();
            wanted.grow(1024);
            for _ in 0..1 + next() % [20, 150][round % 2] {
                let v = (next() % 320) as u32;
                if is_rare(v, mask) {
                    wanted.insert(v);
                }
            }
            let before: Vec<u32> = wanted.iter().collect();
            let left = left_by_pairs(&g, (rest, unequal), &before);
            let missing = before.len() as u32;
            match codes.find(rest, unequal, &mut wanted, missing) {
                Some(still) => {
                    assert!(rest - last_pair(rest, unequal) > last_rare, "round {round}");
                    assert_eq!(wanted.iter().collect::<Vec<_>>(), left, "round {round}");
                    assert_eq!(still as usize, left.len(), "round {round}");
                }
                None => panic!("round {round}: refused with no pair of rare parts"),
            }
            // 509, the value of the lanes' code, wanted: the codes do not answer.
            let mut with_509 = ValueSet::default();
            with_509.grow(1024);
            with_509.insert(codes.rare_value(0xff));
            assert_eq!(
                codes.find(rest, unequal, &mut with_509, 1),
                None,
                "round {round}"
            );
            let near = last_rare + 1 + (next() % last_rare.max(1) as u64) as usize;
            if near < len && near - last_pair(near, unequal) <= last_rare {
                assert_eq!(
                    codes.find(near, unequal, &mut wanted, 0),
                    None,
                    "round {round}"
                );
            }
        }
    }
}
