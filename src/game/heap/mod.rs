//! Grundy sequences of take-and-break heap games given in structured form ([`HeapRules`]),
//! computed in order of heap size with the methods of the research literature:
//!
//! - the *sparse space* of Berlekamp, Flammenkamp, Gangolli and Plambeck for games that split a
//!   heap in two: under a mask `m`, a value `v` is *rare* when `popcount(v & m)` is even and
//!   *common* otherwise. A common option value `x ^ y` needs exactly one rare part, so every
//!   common option value is found by pairing each rare heap with its partner; the many
//!   common-common (and rare-rare) pairs give only rare values, and they are scanned only until
//!   every rare value below the smallest missing common one is found. When no mask makes rare
//!   values rare, the plain method (every pair) is used;
//! - the periodicity theorems of subtraction and octal games ([`super::period`], the same that
//!   `period` reports), checked at each power of two: once a period is proved, the sequence
//!   stops growing and larger heaps are read from it;
//! - for moves that take any amount in a range, the values of the heaps they leave (a run that
//!   slides up) are counted, with their gaps, so the mex costs O(1) amortised per heap instead of
//!   the length of the range.
//!
//! Every method gives exactly the values of the plain definition; they differ only in speed.

use super::period;
use super::progress::Reporter;
#[cfg(test)]
use super::vocabulary::Take;
use super::vocabulary::{HeapRules, Period, Structure, TakeRange};
use super::{Limits, SolveError};
use block::{RareBlock, BLOCK_HEAPS};
pub use cache::canonical_key;
pub use kernels::Kernels;
pub use options::{HeapOption, Leaves, OptionCursor};
use values::{with_slice, CompactValues, RareHeap, ValueSet};
use window::Window;

mod block;
mod byte_scan;
mod cache;
mod cache_file;
mod codes;
mod kernels;
mod options;
mod values;
mod wide;
mod wide_scan;
mod window;

/// The values of heaps `0..len`, extended on demand.
pub struct HeapSequence {
    rules: HeapRules,
    values: CompactValues,
    /// `(n0, p)`: `G(n + p) = G(n)` for every `n >= n0`, certified by the theorem.
    period: Option<(usize, usize)>,
    /// What the periodicity theorems know of the moves.
    structure: Structure,
    next_checkpoint: usize,
    /// How many heaps have each value.
    histogram: Vec<u64>,
    /// The sparse-space mask; 0 when the plain method is used.
    mask: u32,
    /// Heaps `>= 1` whose value is rare under `mask`, ascending.
    rare: Vec<RareHeap>,
    /// A power of two above every value so far.
    bound: usize,
    /// For each value below `2 * bound`, whether it is common, as bits.
    common_bits: Vec<u64>,
    /// The common values below 256.
    common_bytes: byte_scan::ByteSet,
    /// The values of the options of the heap being computed.
    options: ValueSet,
    /// The rare values that the sparse space still has to find among the options.
    wanted: ValueSet,
    /// The `(rest, unequal)` of each way to split the heap being computed.
    splits: Vec<(usize, bool)>,
    /// For each range of takes, the heaps it leaves from the heap being computed.
    windows: Vec<Window>,
    /// Its file in the cache in use.
    cache: cache::Tracker,
    /// The `(take, unequal)` of each way to split.
    split_takes: Vec<(usize, bool)>,
    /// The pairs with a rare part of the block of heaps being computed.
    block: RareBlock,
    /// The same for values of two bytes.
    wide: wide::WideBlock,
    /// The pairs with a rare part of a block of heaps, on the codes.
    code_block: RareBlock,
    /// The least value whose arrival codes one-byte values (`codes.rs`): 256, the first that a
    /// byte does not hold; lower in the tests, so that small sequences run on the codes.
    code_from: u32,
    /// Whether the codes are taken near the rare heaps too, where their scan and blocks do not
    /// answer and the values are read one by one (for the tests).
    code_near_rare: bool,
    /// The kernels in use, chosen when the sequence was made.
    kernels: Kernels,
    /// The memory limit's room when the sequence last grew: a look for a period holds
    /// [`period::certified_bytes`] beside the values, and is put off when they do not fit.
    room: usize,
    /// How many scans and blocks of heaps ran on the codes (for the tests).
    #[cfg(test)]
    coded_runs: (usize, usize),
}

const FIRST_CHECKPOINT: usize = 64;

/// What the tables of the literature give of a Grundy sequence computed so far (Flammenkamp's
/// tables of octal games): the largest value and the first heap with it, and the sparse space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figures {
    /// How many heaps' values are known.
    pub heaps: usize,
    pub largest: u32,
    pub largest_heap: usize,
    /// The sparse-space mask; 0 when values are not sparse under any mask.
    pub mask: u32,
    /// How many distinct rare values the heaps from 1 on have under the mask.
    pub rare_values: usize,
    /// How many heaps from 1 on have a rare value.
    pub rare_heaps: usize,
    pub last_rare_heap: Option<usize>,
}

impl HeapSequence {
    pub fn new(rules: HeapRules) -> HeapSequence {
        HeapSequence::with_kernels(rules, Kernels::detect())
    }

    /// [`HeapSequence::new`], running the `kernels` given (the tests run every set).
    pub fn with_kernels(rules: HeapRules, kernels: Kernels) -> HeapSequence {
        let structure = rules.structure();
        let windows = rules.ranges.iter().map(|_| Window::default()).collect();
        let mut seq = HeapSequence {
            rules,
            values: CompactValues::new(),
            period: None,
            structure,
            next_checkpoint: FIRST_CHECKPOINT,
            histogram: Vec::new(),
            mask: 0,
            rare: Vec::new(),
            bound: 0,
            common_bits: Vec::new(),
            common_bytes: [0; 4],
            options: ValueSet::default(),
            wanted: ValueSet::default(),
            splits: Vec::new(),
            windows,
            cache: cache::Tracker::default(),
            split_takes: Vec::new(),
            block: RareBlock::new(kernels),
            wide: wide::WideBlock::new(kernels),
            code_block: RareBlock::new(kernels),
            code_from: 256,
            code_near_rare: false,
            kernels,
            room: usize::MAX,
            #[cfg(test)]
            coded_runs: (0, 0),
        };
        seq.split_takes = (seq.rules.takes.iter().filter(|t| t.two))
            .map(|t| (t.take as usize, t.unequal))
            .collect();
        seq.grow_bound(0);
        seq
    }

    /// The value of heap `n`, if known.
    pub fn get(&self, n: u64) -> Option<u32> {
        if let Some(v) = usize::try_from(n).ok().and_then(|i| self.values.get(i)) {
            return Some(v);
        }
        let (n0, p) = self.period?;
        let i = n0 as u64 + (n - n0 as u64) % p as u64;
        self.values.get(i as usize)
    }

    /// How many heaps have their value stored.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.len() == 0
    }

    /// The bytes held by the values and the tables beside them.
    pub fn bytes(&self) -> usize {
        self.values.bytes()
            + 8 * (self.histogram.capacity() + self.common_bits.capacity())
            + size_of::<RareHeap>() * self.rare.capacity()
            + self.windows.iter().map(Window::bytes).sum::<usize>()
            + self.options.bytes()
            + self.wanted.bytes()
            + self.block.bytes()
            + self.wide.bytes()
            + self.code_block.bytes()
            + self.values.table_bytes()
    }

    /// The kernels it runs.
    pub fn kernels(&self) -> Kernels {
        self.kernels
    }

    /// The sparse space's strategy for the heaps computed now (`None` for a game without a
    /// sparse space: no split in two, or ranges of takes): it follows the storage of the values
    /// so far.
    pub fn strategy(&self) -> Option<&'static str> {
        if !self.rules.splits() || !self.rules.ranges.is_empty() {
            return None;
        }
        if self.period.is_some() {
            return Some("the proved period gives the values");
        }
        Some(match (&self.values, self.mask) {
            (_, 0) => "no mask chosen yet: every pair",
            (CompactValues::Bytes(_), _) => "byte blocks and scan",
            (CompactValues::Coded(_), _) => {
                "byte codes: their blocks and scan past twice the last rare heap"
            }
            (CompactValues::Halves(_), _) => "two-byte blocks and scan",
            (CompactValues::Words(_), _) => "rare pairs heap by heap, pairs scanned one by one",
        })
    }

    /// The moves the sequence is computed from.
    pub fn rules(&self) -> &HeapRules {
        &self.rules
    }

    /// The certified period `(n0, p)`, if one was found.
    pub fn period(&self) -> Option<(usize, usize)> {
        self.period
    }

    /// The value of heap `n`, computing the heaps below it first.
    /// With a cache ([`Limits::cache`]), resumes from it first and saves to it as it grows.
    pub fn value(&mut self, n: u64, limits: &Limits) -> Result<u32, SolveError> {
        self.value_reported(n, limits, None)
    }

    /// [`HeapSequence::value`], telling `outer` how many heaps are known as they grow when
    /// the sequence is a part of a longer task (`period`'s search).
    pub fn value_reported(
        &mut self,
        n: u64,
        limits: &Limits,
        outer: Option<&Reporter>,
    ) -> Result<u32, SolveError> {
        self.resume(limits);
        let result = self.extend_to(n, limits, outer);
        self.keep(limits, result.is_err());
        result
    }

    /// Looks now, as at a checkpoint, for a period that the theorem proves from the values so
    /// far; the certified period `(n0, p)`, if there is one.
    /// Fails when the look does not fit in the memory limit beside the values.
    pub fn certify(&mut self, limits: &Limits) -> Result<Option<(usize, usize)>, SolveError> {
        if self.period.is_none() && self.structure != Structure::Unknown {
            self.room = limits.room();
            if !self.may_look() {
                return Err(SolveError::MemoryLimit(limits.max_memory));
            }
            self.period = self.find_period();
        }
        Ok(self.period)
    }

    /// Whether a look for a period fits in the room beside the values (and, for the codes, their
    /// values decoded, which the look reads).
    fn may_look(&self) -> bool {
        let len = self.values.len();
        let decoded = match self.values {
            CompactValues::Coded(_) => 2 * len,
            _ => 0,
        };
        let needs = (self.bytes() + decoded) as u128 + period::certified_bytes(len) as u128;
        needs <= self.room as u128
    }

    /// The least period and the least preperiod of the values, when a period is certified: a
    /// multiple of the least one, which [`period::least`] finds.
    pub fn least_period(&self) -> Option<Period> {
        let (preperiod, period) = self.period?;
        let proved = Period {
            preperiod,
            period,
            saltus: 0,
        };
        Some(with_slice!(&self.values,
                g => period::least(g, &proved),
                c => period::least(&c.decoded(), &proved)))
    }

    /// The figures of the values so far that the tables of the literature give. Their mask is
    /// the one under which the fewest heaps are rare, as the tables give it, whether or not the
    /// kernels use it: they take a mask only where a quarter of the heaps or fewer are rare, and
    /// the tables give the sparse space of games such as 0.06, with two heaps in five rare.
    pub fn figures(&self) -> Figures {
        let largest = (self.histogram.iter().rposition(|&c| c > 0)).unwrap_or(0) as u32;
        let largest_heap = self.values().position(|v| v == largest).unwrap_or(0);
        let mask = self.sparsest_mask();
        let mut seen = vec![0u64; self.bound.div_ceil(64)];
        let (mut rare_heaps, mut last_rare_heap) = (0, None);
        let mut note = |heap: usize, value: u32| {
            seen[value as usize / 64] |= 1 << (value % 64);
            rare_heaps += 1;
            last_rare_heap = Some(heap);
        };
        if mask == self.mask {
            self.rare.iter().for_each(|r| note(r.heap, r.value));
        } else if mask != 0 {
            let rare = |v: u32| (v & mask).count_ones().is_multiple_of(2);
            self.values()
                .enumerate()
                .skip(1)
                .filter(|&(_, v)| rare(v))
                .for_each(|(n, v)| note(n, v));
        }
        Figures {
            heaps: self.values.len(),
            largest,
            largest_heap,
            mask,
            rare_values: seen.iter().map(|w| w.count_ones() as usize).sum(),
            rare_heaps,
            last_rare_heap,
        }
    }

    /// The mask under which the fewest heaps from 1 on are rare (the kernels' own on a tie),
    /// when fewer than half of them are; else 0. For values past 2^16, the kernels' own. The
    /// rare heaps of every mask at once come from the Walsh-Hadamard transform `W` of the
    /// histogram: a value `v` is rare under `m` when `v & m` has an even number of bits, so
    /// `(total + W(m)) / 2` heaps are, heap 0 (value 0) among them under every mask.
    fn sparsest_mask(&self) -> u32 {
        let heaps = self.values.len() as i64;
        if self.bound > 1 << 16 || heaps < 2 {
            return self.mask;
        }
        let mut w: Vec<i64> = self.histogram.iter().map(|&c| c as i64).collect();
        let mut half = 1;
        while half < w.len() {
            for pair in w.chunks_exact_mut(2 * half) {
                let (low, high) = pair.split_at_mut(half);
                for (a, b) in low.iter_mut().zip(high) {
                    (*a, *b) = (*a + *b, *a - *b);
                }
            }
            half *= 2;
        }
        let rare = |m: usize| (heaps + w[m]) / 2 - 1;
        let Some(mut best) = (1..w.len()).min_by_key(|&m| (rare(m), m)) else {
            return 0;
        };
        let own = self.mask as usize;
        if own != 0 && own < w.len() && rare(own) == rare(best) {
            best = own;
        }
        if 2 * rare(best) < heaps - 1 {
            best as u32
        } else {
            0
        }
    }

    /// The only bound is memory: when the values of heaps `0..=n` (at the width of those so
    /// far) and the tables beside them would take more than the memory limit, nothing is
    /// computed and the error says how much they would take.
    fn extend_to(
        &mut self,
        n: u64,
        limits: &Limits,
        outer: Option<&Reporter>,
    ) -> Result<u32, SolveError> {
        if let Some(v) = self.get(n) {
            return Ok(v);
        }
        self.room = limits.room();
        self.check_room(n, limits)?;
        let target = n as usize + 1;
        let progress = (n >= 1 << 16 && self.get(n).is_none())
            .then(|| {
                limits
                    .progress
                    .start("heap values", "heaps", n.saturating_add(1))
            })
            .flatten();
        while self.get(n).is_none() {
            let len = self.values.len();
            if len == self.values.capacity() {
                self.check_room(n, limits)?;
                let room = len.max(1 << 12).min(target - len);
                self.code_if_served(room, 0);
                self.values.reserve_exact(room);
            }
            if len % 4096 == 4095 || self.rules.splits_in_three() {
                limits.check_interrupt()?;
                self.keep(limits, false);
                if let Some(p) = progress.as_ref().or(outer) {
                    p.set_done(self.values.len() as u64);
                }
            }
            let v = self.next_value();
            if let Some(width) = self.widens(v) {
                // The wider values and, while they are copied, the narrower ones.
                self.check_width(n, width, self.values.bytes(), limits)?;
            }
            self.record(v);
        }
        Ok(self.get(n).expect("computed"))
    }

    /// Fails unless the values of heaps `0..=n` and the tables fit in the memory limit, at the
    /// width of the values so far, or the width that heap `n`'s values are known to need when
    /// every smaller heap is an option (then the values of heaps `0..=n` are distinct, and one
    /// of them is at least `n`).
    fn check_room(&self, n: u64, limits: &Limits) -> Result<(), SolveError> {
        let distinct = self.rules.ranges.contains(&TakeRange { lo: 1, hi: None });
        let known = match distinct {
            true => values::width_of(u32::try_from(n).unwrap_or(u32::MAX)),
            false => 1,
        };
        self.check_width(n, self.values.width().max(known), 0, limits)
    }

    /// Fails unless the values of heaps `0..=n` at `width` bytes each, the tables and `more`
    /// bytes fit in the memory limit.
    fn check_width(
        &self,
        n: u64,
        width: usize,
        more: usize,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let tables = (self.bytes() - self.values.bytes() + more) as u128;
        let needs = (n as u128 + 1) * width as u128 + tables;
        if needs <= limits.room() as u128 {
            return Ok(());
        }
        Err(SolveError::HeapMemory {
            heap: n,
            needs,
            width,
            limit: limits.max_memory,
            known: self.values.len(),
        })
    }

    /// A sequence of `rules` continued from `values`, the values of heaps `0..values.len()` in
    /// order (as [`HeapSequence::values`] gave them, e.g. read back from a cache): its tables
    /// (histogram, mask, rare heaps, period) are rebuilt as if it had computed them. The values
    /// are trusted: whoever stores them checks that they are this game's.
    pub fn continued_from(rules: HeapRules, values: impl IntoIterator<Item = u32>) -> HeapSequence {
        let mut seq = HeapSequence::new(rules);
        for v in values {
            seq.record(v);
        }
        seq
    }

    /// The values of heaps `0..len()` in order, each widened to `u32`.
    pub fn values(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        (0..self.values.len()).map(|i| self.values.get(i).expect("stored"))
    }

    /// The value of the next heap, to be recorded.
    fn next_value(&mut self) -> u32 {
        let n = self.values.len();
        match self.period {
            Some((n0, p)) if n >= n0 + p => self.values.get(n - p).expect("stored"),
            _ => self.compute(n),
        }
    }

    /// Stores the value of the next heap, and at each checkpoint looks for a period and
    /// rechooses the mask.
    fn record(&mut self, v: u32) {
        self.push(v);
        if self.values.len() == self.next_checkpoint {
            self.next_checkpoint *= 2;
            self.checkpoint();
        }
    }

    fn push(&mut self, v: u32) {
        let n = self.values.len();
        let rare = self.next_is_rare(v);
        if self.codes_take(v) {
            self.code_if_served(0, v);
        }
        self.values.push(v, rare);
        if v as usize >= self.bound {
            self.grow_bound(v as usize);
        }
        self.histogram[v as usize] += 1;
        if rare {
            self.rare.push(RareHeap { heap: n, value: v });
            if matches!(self.values, CompactValues::Coded(_)) && !self.codes_serve() {
                // A rare heap past the others: the codes do not answer near it.
                self.uncode();
            }
        }
    }

    /// The bytes a value takes once `v` is stored, when storing it copies the values into a
    /// wider plain storage (past the codes' values, or a rare heap where they do not serve).
    fn widens(&self, v: u32) -> Option<usize> {
        let rare = self.next_is_rare(v);
        let width = match &self.values {
            CompactValues::Coded(_) if v >= codes::CODED_VALUES => values::width_of(v),
            CompactValues::Coded(_) if rare && !self.code_near_rare => {
                values::width_of(v.max(self.bound as u32 - 1))
            }
            values if values.holds(v) || self.codes_take(v) => return None,
            _ => values::width_of(v),
        };
        Some(width)
    }

    /// Whether `v`, past the one-byte values so far, is taken by coding them (in place) rather
    /// than by widening them to two bytes: not when its heap is rare, where the codes would not
    /// serve (Grundy's game's first 256, at heap 7,250,049, is rare under its mask then).
    fn codes_take(&self, v: u32) -> bool {
        let rare = self.next_is_rare(v);
        matches!(self.values, CompactValues::Bytes(_))
            && (self.code_from..codes::CODED_VALUES).contains(&v)
            && (self.code_near_rare || !rare)
            && self.codes_serve()
    }

    /// Whether the codes would serve as the storage of the values so far: the mask codes them,
    /// every value is below 512, one at least `code_from`, and the heaps are past twice the last
    /// rare heap (before it, the codes' blocks and scan do not answer, and the two-byte ones
    /// are faster than reading the codes one by one).
    fn codes_serve(&self) -> bool {
        if !codes::codable(self.mask) || self.bound > codes::CODED_VALUES as usize {
            return false;
        }
        let past_rare = match self.rare.last() {
            Some(r) => {
                let take = self.split_takes.iter().map(|&(t, _)| t).max().unwrap_or(0);
                self.values.len() > 2 * (r.heap + take) + BLOCK_HEAPS
            }
            None => true,
        };
        self.code_near_rare || past_rare
    }

    /// Whether `v`, the value of the next heap, is rare under the mask (heap 0 never is).
    fn next_is_rare(&self, v: u32) -> bool {
        !self.values.is_empty() && self.mask != 0 && self.is_rare(v)
    }

    /// Coded values back as plain values, in the narrowest storage that holds them all.
    fn uncode(&mut self) {
        if let CompactValues::Coded(c) = &self.values {
            let largest = self.bound as u32 - 1;
            self.values = CompactValues::widen(c.values(), c.capacity(), largest);
        }
    }

    /// Codes the values (with room for `more`) when the codes serve and the values are plain,
    /// `coming` the value about to be stored (0 for none).
    fn code_if_served(&mut self, more: usize, coming: u32) {
        if matches!(self.values, CompactValues::Coded(_)) || !self.codes_serve() {
            return;
        }
        let largest = (self.histogram.iter().rposition(|&c| c > 0)).unwrap_or(0) as u32;
        let largest = largest.max(coming);
        if largest < self.code_from {
            return;
        }
        let (mask, kernels) = (self.mask, self.kernels);
        self.values = match std::mem::replace(&mut self.values, CompactValues::new()) {
            CompactValues::Bytes(g) => {
                match codes::ScanCodes::of_bytes(g, mask, &self.rare, kernels) {
                    Ok(c) => CompactValues::Coded(c),
                    Err(g) => CompactValues::Bytes(g),
                }
            }
            CompactValues::Halves(g) => {
                let values = g.iter().map(|&v| v.into());
                let capacity = g.capacity().max(g.len() + more);
                match codes::ScanCodes::new(values, capacity, mask, &self.rare, kernels) {
                    Some(c) => CompactValues::Coded(c),
                    None => CompactValues::Halves(g),
                }
            }
            other => other,
        };
    }

    fn grow_bound(&mut self, v: usize) {
        self.bound = (v + 1).next_power_of_two().max(64);
        self.histogram.resize(self.bound, 0);
        self.options.grow(2 * self.bound);
        self.wanted.grow(2 * self.bound);
        self.fill_common_bits();
    }

    fn fill_common_bits(&mut self) {
        let words = self.options.words().len();
        let mask = self.mask;
        self.common_bits = (0..words)
            .map(|w| {
                (0..64).fold(0u64, |bits, i| {
                    let v = (w * 64 + i) as u32;
                    bits | (((v & mask).count_ones() as u64 & 1) << i)
                })
            })
            .collect();
        self.common_bytes = [0; 4];
        for v in 0..256u32 {
            let common = (v & mask).count_ones() % 2 == 1;
            self.common_bytes[v as usize / 64] |= u64::from(common) << (v % 64);
        }
    }

    fn is_rare(&self, v: u32) -> bool {
        (v & self.mask).count_ones().is_multiple_of(2)
    }

    /// The value of heap `n` from the values of the heaps below it.
    fn compute(&mut self, n: usize) -> u32 {
        for (window, range) in self.windows.iter_mut().zip(&self.rules.ranges) {
            window.slide_to(range, n, &self.values);
        }
        for t in &self.rules.takes {
            let take = t.take as usize;
            if take > n {
                continue;
            }
            let rest = n - take;
            if t.none && rest == 0 {
                self.options.insert(0);
            }
            if t.one && rest > 0 {
                self.options.insert(self.values.get(rest).expect("stored"));
            }
        }
        for t in self.rules.takes.iter().filter(|t| t.three) {
            if let Some(rest) = n.checked_sub(t.take as usize) {
                with_slice!(&self.values, g => values::insert_all_triples(g, rest, &mut self.options));
            }
        }
        let mut splits = std::mem::take(&mut self.splits);
        splits.clear();
        splits.extend(self.splits_of(n));
        let value = if self.mask != 0 && !splits.is_empty() {
            self.sparse_value(&splits)
        } else {
            self.insert_all_splits(&splits);
            self.mex()
        };
        self.splits = splits;
        self.options.clear();
        value
    }

    /// The splits of heap `n` after removing each take: `(rest, unequal)`.
    fn splits_of(&self, n: usize) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.rules
            .takes
            .iter()
            .filter(move |t| t.two && t.take as usize + 2 <= n)
            .map(move |t| (n - t.take as usize, t.unequal))
    }

    /// Inserts every split's value into the options.
    fn insert_all_splits(&mut self, splits: &[(usize, bool)]) {
        for &(rest, unequal) in splits {
            with_slice!(&self.values, g => values::insert_all_pairs(g, rest, unequal, &mut self.options));
        }
    }

    /// The least value not among the options nor the values of the windows.
    fn mex(&self) -> u32 {
        let Some(first) = self.windows.iter().find(|w| !w.is_empty()) else {
            return self.options.mex();
        };
        first
            .absent()
            .find(|&v| !self.options.contains(v) && !self.windows.iter().any(|w| w.contains(v)))
            .expect("the values are finite")
    }

    /// The value of a heap by the sparse space from its `splits`, the one-heap options already
    /// inserted.
    fn sparse_value(&mut self, splits: &[(usize, bool)]) -> u32 {
        if let CompactValues::Bytes(g) = &self.values {
            let n = g.len();
            let start = RareBlock::start_of(n);
            if n == start && start >= BLOCK_HEAPS && self.block.seen(n, self.mask).is_none() {
                let sparse = (self.mask, &self.common_bytes);
                (self.block).fill(g, &self.rare, &self.split_takes, start, sparse);
            }
            let block =
                (self.block.seen(n, self.mask)).map(|found| (found, self.block.others(&self.rare)));
            let found = values::sparse_byte_value(
                g,
                &self.rare,
                splits,
                &self.options,
                &self.common_bytes,
                block,
                self.kernels,
            );
            if let Some(value) = found {
                return value;
            }
        }
        // Every common option value: the pairs with a rare part (those of two-byte values only
        // below `exact_below`).
        let mut exact_below = u32::MAX;
        let coded = match &self.values {
            CompactValues::Coded(codes) => {
                let sparse = (self.mask, &self.rare[..], &self.split_takes[..]);
                let block = &mut self.code_block;
                code_block_pairs(block, codes, sparse, splits, &mut self.options)
            }
            _ => None,
        };
        if let Some(bound) = coded {
            exact_below = bound;
        } else if let CompactValues::Halves(g) = &self.values {
            exact_below = (self.wide).insert_rare_pairs(
                g,
                &self.rare,
                splits,
                &self.split_takes,
                self.mask,
                self.bound,
                &mut self.options,
            );
        } else {
            self.insert_rare_pairs(splits);
        }
        let mut found = self.common_mex_and_wanted();
        let past_block = exact_below != u32::MAX && found.is_none_or(|(mex, _)| mex >= exact_below);
        #[cfg(test)]
        {
            // The heaps whose value the code block gave.
            self.coded_runs.1 += usize::from(coded.is_some() && !past_block);
        }
        if past_block {
            // The block's rows were too short for this heap, or its candidates all found: its
            // rare pairs one by one.
            self.wanted.clear();
            self.insert_rare_pairs(splits);
            found = self.common_mex_and_wanted();
            if coded.is_none() {
                self.wide.lengthen_rows_if_cut(found.map(|(mex, _)| mex));
            }
        }
        let Some((common_mex, mut missing_rare)) = found else {
            // Cannot happen (the options hold fewer values than there are common values), but
            // the plain method is always right.
            self.wanted.clear();
            self.insert_all_splits(splits);
            return self.mex();
        };
        // Scan the other pairs until every rare value below `common_mex` is found.
        for &(rest, unequal) in splits {
            if missing_rare == 0 {
                break;
            }
            missing_rare = match &self.values {
                CompactValues::Halves(g) => {
                    let (bound, kernels) = (self.bound, self.kernels);
                    let pairs = (rest, unequal);
                    wide_scan::find_in_wide_pairs(
                        g,
                        pairs,
                        &mut self.wanted,
                        missing_rare,
                        bound,
                        kernels,
                    )
                }
                CompactValues::Coded(c) => {
                    let coded = c.find(rest, unequal, &mut self.wanted, missing_rare);
                    #[cfg(test)]
                    {
                        self.coded_runs.0 += usize::from(coded.is_some());
                    }
                    coded.unwrap_or_else(|| {
                        values::find_in_pairs(c, rest, unequal, &mut self.wanted, missing_rare)
                    })
                }
                _ => {
                    with_slice!(&self.values, g => values::find_in_pairs(g, rest, unequal, &mut self.wanted, missing_rare))
                }
            };
        }
        let value = self.wanted.min().unwrap_or(common_mex);
        self.wanted.clear();
        value
    }

    /// Inserts the values of the pairs with a rare part of each split, heap by heap.
    fn insert_rare_pairs(&mut self, splits: &[(usize, bool)]) {
        for &(rest, unequal) in splits {
            with_slice!(&self.values, g => values::insert_rare_pairs(g, &self.rare, rest, unequal, &mut self.options));
        }
    }

    /// The least common value not among the options, and how many rare values below it are not
    /// (put into `wanted`); `None` when every common value is an option.
    fn common_mex_and_wanted(&mut self) -> Option<(u32, u32)> {
        let mut missing_rare = 0u32;
        for (w, (&bits, &common)) in self
            .options
            .words()
            .iter()
            .zip(&self.common_bits)
            .enumerate()
        {
            let free_common = common & !bits;
            let below = match free_common {
                0 => u64::MAX,
                _ => (1u64 << free_common.trailing_zeros()) - 1,
            };
            let free_rare = !common & !bits & below;
            missing_rare += free_rare.count_ones();
            if free_rare != 0 {
                self.wanted.insert_word(w, free_rare);
            }
            if free_common != 0 {
                return Some(((w * 64) as u32 + free_common.trailing_zeros(), missing_rare));
            }
        }
        None
    }

    /// At sizes 64, 128, 256...: look for a certified period, and choose the sparse-space mask.
    fn checkpoint(&mut self) {
        if self.structure != Structure::Unknown && self.period.is_none() && self.may_look() {
            self.period = self.find_period();
            if self.period.is_some() {
                return;
            }
        }
        if self.rules.splits() && self.rules.ranges.is_empty() {
            self.choose_mask();
        }
    }

    /// The period of the values so far, `(n0, p)`, when a theorem proves it.
    fn find_period(&self) -> Option<(usize, usize)> {
        let structure = &self.structure;
        let (found, _) = with_slice!(&self.values,
            g => period::certified(g, structure),
            c => period::certified(&c.decoded(), structure))?;
        Some((found.preperiod, found.period))
    }

    /// The mask under which the fewest heaps are rare, if few enough to be worth it; else 0
    /// (the plain method).
    fn choose_mask(&mut self) {
        let bound = self.bound;
        if bound > 4096 {
            self.set_mask(0);
            return;
        }
        let total: u64 = self.histogram.iter().sum();
        let mut best = (self.rare_count(self.mask), self.mask);
        if self.mask == 0 {
            best = (total, 0);
        }
        for mask in 1..bound as u32 {
            let count = self.rare_count(mask);
            if count < best.0 {
                best = (count, mask);
            }
        }
        let mask = if best.0 * 4 <= total { best.1 } else { 0 };
        self.set_mask(mask);
    }

    fn rare_count(&self, mask: u32) -> u64 {
        self.histogram
            .iter()
            .enumerate()
            .filter(|&(v, _)| (v as u32 & mask).count_ones().is_multiple_of(2))
            .map(|(_, &c)| c)
            .sum()
    }

    fn set_mask(&mut self, mask: u32) {
        if mask == self.mask {
            return;
        }
        self.mask = mask;
        self.fill_common_bits();
        self.rare.clear();
        if mask != 0 {
            for n in 1..self.values.len() {
                let value = self.values.get(n).expect("stored");
                if self.is_rare(value) {
                    self.rare.push(RareHeap { heap: n, value });
                }
            }
        }
        // The codes of the old mask, decoded, then coded again if the new one codes them.
        self.uncode();
        self.code_if_served(0, 0);
    }
}

/// When the block of heap `n = codes.len()` has only common partners for its rare heaps, the
/// values of the pairs with a rare part by the byte block on the values' codes (`block`, filled
/// at the block's start): inserts them into `options` and returns the value below which they are
/// all of them (as [`wide::WideBlock::insert_rare_pairs`]). `sparse`: the mask, the rare heaps
/// and the `(take, unequal)` of each way to split.
fn code_block_pairs(
    block: &mut RareBlock,
    codes: &codes::ScanCodes,
    (mask, rare, takes): (u32, &[RareHeap], &[(usize, bool)]),
    splits: &[(usize, bool)],
    options: &mut ValueSet,
) -> Option<u32> {
    let n = codes.len();
    let start = RareBlock::start_of(n);
    let take = takes.iter().map(|&(t, _)| t).max().unwrap_or(0);
    let first_partner = start.saturating_sub(take).saturating_sub(rare.last()?.heap);
    if start < BLOCK_HEAPS || !codes.common_from(first_partner) {
        return None;
    }
    if n == start && block.seen(n, mask).is_none() {
        block.fill(
            codes.codes(),
            codes.coded_rare(),
            takes,
            start,
            (mask, &codes::ALL_CODES),
        );
    }
    let (seen, exact) = block.seen(n, mask)?;
    codes.insert_common(seen, options);
    for run in block.others(rare) {
        for &(rest, unequal) in splits {
            values::insert_rare_pairs(codes, run, rest, unequal, options);
        }
    }
    Some(codes.common_below(exact))
}

#[cfg(test)]
mod tests;
