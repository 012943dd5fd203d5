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
//! - the periodicity theorem of octal games (Guy and Smith): if `G(n + p) = G(n)` for
//!   `n0 <= n < 2 n0 + p + k` (`k` the largest take), the sequence is periodic from `n0` on;
//! - for "take any number" moves, the values of the prefix of heaps are kept with their gaps, so
//!   the mex costs O(1) amortised per heap instead of O(n).
//!
//! Every method gives exactly the values of the plain definition; they differ only in speed.

use std::collections::BTreeSet;

use super::{Limits, SolveError};

/// A heap game whose moves are octal-style: for each [`Take`], remove `take` tokens and leave no
/// heap, one heap or two heaps; and optionally, remove any number `k >= open_from` of tokens
/// (up to the whole heap), leaving one heap `n - k` (none when `k = n`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapRules {
    pub takes: Vec<Take>,
    pub open_from: Option<u64>,
}

/// Remove `take` tokens from a heap of `n`. `none`: when that empties the heap (`n = take`), the
/// heap is gone; `one`: when `n > take`, one heap `n - take` is left; `two`: when
/// `n - take >= 2`, it is split into two non-empty heaps, which must differ if `unequal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    pub take: u64,
    pub none: bool,
    pub one: bool,
    pub two: bool,
    pub unequal: bool,
}

impl HeapRules {
    /// Whether every move takes at least one token or splits (so that no heap is its own option).
    pub fn is_valid(&self) -> bool {
        self.takes.iter().all(|t| t.take >= 1 || !(t.none || t.one))
            && self.open_from.map_or(true, |f| f >= 1)
    }

    fn splits(&self) -> bool {
        self.takes.iter().any(|t| t.two)
    }
}

/// The values of heaps `0..len`, extended on demand.
pub struct HeapSequence {
    rules: HeapRules,
    values: Vec<u32>,
    /// `(n0, p)`: `G(n + p) = G(n)` for every `n >= n0`, certified by the theorem.
    period: Option<(usize, usize)>,
    /// Whether the periodicity theorem applies (finite octal games).
    octal: bool,
    max_take: usize,
    next_checkpoint: usize,
    /// How many heaps have each value.
    histogram: Vec<u64>,
    /// The sparse-space mask; 0 when the plain method is used.
    mask: u32,
    /// Heaps `>= 1` whose value is rare under `mask`, ascending.
    rare: Vec<u32>,
    /// A power of two above every value so far.
    bound: usize,
    /// For each value below `2 * bound`, whether it is common, as bits.
    common_bits: Vec<u64>,
    marked: Vec<u64>,
    touched: Vec<usize>,
    prefix: Prefix,
}

/// The values of heaps `0..=last` for "take any number" moves, with the values below the
/// largest one that none of them has.
#[derive(Default)]
struct Prefix {
    len: usize,
    present: Vec<bool>,
    top: u32,
    gaps: BTreeSet<u32>,
}

impl Prefix {
    fn add(&mut self, v: u32) {
        self.len += 1;
        let i = v as usize;
        if i >= self.present.len() {
            self.present.resize((i + 1).next_power_of_two(), false);
        }
        if self.present[i] {
            return;
        }
        self.present[i] = true;
        if v >= self.top {
            self.gaps.extend(self.top..v);
            self.top = v + 1;
        } else {
            self.gaps.remove(&v);
        }
    }
}

const FIRST_CHECKPOINT: usize = 64;

impl HeapSequence {
    pub fn new(rules: HeapRules) -> HeapSequence {
        let octal = rules.open_from.is_none() && !rules.takes.iter().any(|t| t.unequal);
        let max_take = rules.takes.iter().map(|t| t.take).max().unwrap_or(0) as usize;
        let mut seq = HeapSequence {
            rules,
            values: Vec::new(),
            period: None,
            octal,
            max_take,
            next_checkpoint: FIRST_CHECKPOINT,
            histogram: Vec::new(),
            mask: 0,
            rare: Vec::new(),
            bound: 0,
            common_bits: Vec::new(),
            marked: Vec::new(),
            touched: Vec::new(),
            prefix: Prefix::default(),
        };
        seq.grow_bound(0);
        seq
    }

    /// The value of heap `n`, if known.
    pub fn get(&self, n: u64) -> Option<u32> {
        if let Some(&v) = usize::try_from(n).ok().and_then(|i| self.values.get(i)) {
            return Some(v);
        }
        let (n0, p) = self.period?;
        let i = n0 as u64 + (n - n0 as u64) % p as u64;
        self.values.get(i as usize).copied()
    }

    /// How many heaps have their value stored.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The certified period `(n0, p)`, if one was found.
    pub fn period(&self) -> Option<(usize, usize)> {
        self.period
    }

    /// The value of heap `n`, computing the heaps below it first.
    pub fn value(&mut self, n: u64, limits: &Limits) -> Result<u32, SolveError> {
        while self.get(n).is_none() {
            if self.values.len() >= limits.max_states {
                return Err(SolveError::StateLimit(limits.max_states));
            }
            if self.values.len() % 4096 == 4095 {
                limits.check_interrupt()?;
            }
            self.step();
        }
        Ok(self.get(n).expect("computed"))
    }

    /// Computes the next heap.
    fn step(&mut self) {
        let n = self.values.len();
        let v = match self.period {
            Some((n0, p)) if n >= n0 + p => self.values[n - p],
            _ => self.compute(n),
        };
        self.push(v);
        if self.values.len() == self.next_checkpoint {
            self.next_checkpoint *= 2;
            self.checkpoint();
        }
    }

    fn push(&mut self, v: u32) {
        let n = self.values.len();
        self.values.push(v);
        if v as usize >= self.bound {
            self.grow_bound(v as usize);
        }
        self.histogram[v as usize] += 1;
        if n >= 1 && self.mask != 0 && self.is_rare(v) {
            self.rare.push(n as u32);
        }
        if let Some(from) = self.rules.open_from {
            // The heaps an open take can leave from the next heap: 0..=n + 1 - from.
            while (self.prefix.len as u64) + from <= n as u64 + 1 {
                let h = self.prefix.len;
                self.prefix.add(self.values[h]);
            }
        }
    }

    fn grow_bound(&mut self, v: usize) {
        self.bound = (v + 1).next_power_of_two().max(64);
        self.histogram.resize(self.bound, 0);
        let words = 2 * self.bound / 64 + 1;
        self.marked.resize(words, 0);
        self.fill_common_bits();
    }

    fn fill_common_bits(&mut self) {
        let words = self.marked.len();
        let mask = self.mask;
        self.common_bits = (0..words)
            .map(|w| {
                (0..64).fold(0u64, |bits, i| {
                    let v = (w * 64 + i) as u32;
                    bits | (((v & mask).count_ones() as u64 & 1) << i)
                })
            })
            .collect();
    }

    fn is_rare(&self, v: u32) -> bool {
        (v & self.mask).count_ones() % 2 == 0
    }

    fn mark(&mut self, v: u32) {
        let w = (v >> 6) as usize;
        if self.marked[w] == 0 {
            self.touched.push(w);
        }
        self.marked[w] |= 1 << (v & 63);
    }

    fn is_marked(&self, v: u32) -> bool {
        self.marked[(v >> 6) as usize] >> (v & 63) & 1 != 0
    }

    fn clear_marks(&mut self) {
        for &w in &self.touched {
            self.marked[w] = 0;
        }
        self.touched.clear();
    }

    /// The value of heap `n` from the values of the heaps below it.
    fn compute(&mut self, n: usize) -> u32 {
        let g = &self.values;
        let mut marks: Vec<u32> = Vec::new();
        for t in &self.rules.takes {
            let take = t.take as usize;
            if take > n {
                continue;
            }
            let rest = n - take;
            if t.none && rest == 0 {
                marks.push(0);
            }
            if t.one && rest > 0 {
                marks.push(g[rest]);
            }
        }
        for v in marks {
            self.mark(v);
        }
        let value = if self.mask != 0 && self.rules.splits() {
            self.sparse_splits(n)
        } else {
            self.plain_splits(n);
            self.mex(n)
        };
        self.clear_marks();
        value
    }

    /// Marks every split's value.
    fn plain_splits(&mut self, n: usize) {
        for i in 0..self.rules.takes.len() {
            let t = self.rules.takes[i];
            let take = t.take as usize;
            if !t.two || take + 2 > n {
                continue;
            }
            let rest = n - take;
            for a in 1..=rest / 2 {
                if t.unequal && 2 * a == rest {
                    continue;
                }
                let v = self.values[a] ^ self.values[rest - a];
                self.mark(v);
            }
        }
    }

    /// The least value not marked and, with open takes, not among the prefix's values.
    fn mex(&self, n: usize) -> u32 {
        let open = self
            .rules
            .open_from
            .is_some_and(|from| n as u64 >= from && self.prefix.len > 0);
        if open {
            let prefix = &self.prefix;
            for &gap in &prefix.gaps {
                if !self.is_marked(gap) {
                    return gap;
                }
            }
            let mut v = prefix.top;
            while (v as usize) < self.marked.len() * 64 && self.is_marked(v) {
                v += 1;
            }
            return v;
        }
        for (w, &bits) in self.marked.iter().enumerate() {
            if bits != u64::MAX {
                return (w * 64) as u32 + (!bits).trailing_zeros();
            }
        }
        (self.marked.len() * 64) as u32
    }

    /// The value of heap `n` by the sparse space, the one-heap options already marked.
    fn sparse_splits(&mut self, n: usize) -> u32 {
        // Every common option value: the pairs with a rare part.
        for i in 0..self.rules.takes.len() {
            let t = self.rules.takes[i];
            let take = t.take as usize;
            if !t.two || take + 2 > n {
                continue;
            }
            let rest = n - take;
            for j in 0..self.rare.len() {
                let r = self.rare[j] as usize;
                if r >= rest {
                    break;
                }
                let partner = rest - r;
                if t.unequal && partner == r {
                    continue;
                }
                let v = self.values[r] ^ self.values[partner];
                self.mark(v);
            }
        }
        // The least common value missing, and how many rare values below it are missing.
        let mut common_mex = None;
        let mut missing_rare = 0u32;
        for (w, (&bits, &common)) in self.marked.iter().zip(&self.common_bits).enumerate() {
            let free_common = common & !bits;
            if free_common != 0 {
                let i = free_common.trailing_zeros();
                common_mex = Some((w * 64) as u32 + i);
                let below = (1u64 << i) - 1;
                missing_rare += (!common & !bits & below).count_ones();
                break;
            }
            missing_rare += (!common & !bits).count_ones();
        }
        let Some(common_mex) = common_mex else {
            // Cannot happen (the marks hold fewer values than there are common values), but
            // the plain method is always right.
            self.plain_splits(n);
            return self.mex(n);
        };
        if missing_rare > 0 {
            // Scan the other pairs until every rare value below `common_mex` is found.
            'scan: for i in 0..self.rules.takes.len() {
                let t = self.rules.takes[i];
                let take = t.take as usize;
                if !t.two || take + 2 > n {
                    continue;
                }
                let rest = n - take;
                for a in 1..=rest / 2 {
                    if t.unequal && 2 * a == rest {
                        continue;
                    }
                    let v = self.values[a] ^ self.values[rest - a];
                    if v < common_mex && !self.is_marked(v) {
                        self.mark(v);
                        missing_rare -= 1;
                        if missing_rare == 0 {
                            break 'scan;
                        }
                    }
                }
            }
        }
        if missing_rare == 0 {
            return common_mex;
        }
        self.mex(n)
    }

    /// At sizes 64, 128, 256...: look for a certified period, and choose the sparse-space mask.
    fn checkpoint(&mut self) {
        if self.octal && self.period.is_none() {
            self.period = self.find_period();
            if self.period.is_some() {
                return;
            }
        }
        if self.rules.splits() && self.rules.open_from.is_none() {
            self.choose_mask();
        }
    }

    /// The first period `p` (smallest) with a preperiod `n0 >= 1` that the theorem certifies
    /// from the values known: `G(n + p) = G(n)` for `n0 <= n < 2 n0 + p + k`.
    fn find_period(&self) -> Option<(usize, usize)> {
        let g = &self.values;
        let len = g.len();
        for p in 1..=len / 2 {
            let mut n0 = len - p;
            while n0 > 0 && g[n0 - 1 + p] == g[n0 - 1] {
                n0 -= 1;
            }
            let n0 = n0.max(1);
            if 2 * n0 + 2 * p + self.max_take <= len {
                return Some((n0, p));
            }
        }
        None
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
            .filter(|&(v, _)| (v as u32 & mask).count_ones() % 2 == 0)
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
                if self.is_rare(self.values[n]) {
                    self.rare.push(n as u32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition: every option, then the mex.
    fn plain(rules: &HeapRules, len: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        for n in 0..len {
            let mut values = Vec::new();
            for t in &rules.takes {
                let take = t.take as usize;
                if take > n {
                    continue;
                }
                let rest = n - take;
                if t.none && rest == 0 {
                    values.push(0);
                }
                if t.one && rest > 0 {
                    values.push(g[rest]);
                }
                if t.two {
                    for a in 1..rest {
                        if !(t.unequal && 2 * a == rest) {
                            values.push(g[a] ^ g[rest - a]);
                        }
                    }
                }
            }
            if let Some(from) = rules.open_from {
                for k in from as usize..=n {
                    values.push(g[n - k]);
                }
            }
            g.push((0..).find(|v| !values.contains(v)).unwrap());
        }
        g
    }

    fn fast(rules: &HeapRules, len: usize) -> Vec<u32> {
        let mut seq = HeapSequence::new(rules.clone());
        let limits = Limits::default();
        (0..len as u64)
            .map(|n| seq.value(n, &limits).unwrap())
            .collect()
    }

    fn take(take: u64, digit: u8, unequal: bool) -> Take {
        Take {
            take,
            none: digit & 1 != 0,
            one: digit & 2 != 0,
            two: digit & 4 != 0,
            unequal,
        }
    }

    #[test]
    fn grundys_game_matches_the_plain_method() {
        let rules = HeapRules {
            takes: vec![take(0, 4, true)],
            open_from: None,
        };
        assert_eq!(fast(&rules, 3000), plain(&rules, 3000));
        let mut seq = HeapSequence::new(rules);
        seq.value(3000, &Limits::default()).unwrap();
        assert_ne!(seq.mask, 0, "Grundy's game has a sparse space");
        assert!(seq.rare.len() < 3000 / 4);
    }

    #[test]
    fn officers_and_kayles_match_the_plain_method() {
        for digits in [
            &[0u8, 6][..],
            &[0, 7, 7],
            &[0, 0, 7],
            &[4, 1, 6],
            &[0, 4, 5, 6],
        ] {
            let rules = HeapRules {
                takes: digits
                    .iter()
                    .enumerate()
                    .map(|(j, &d)| take(j as u64, d, false))
                    .collect(),
                open_from: None,
            };
            assert_eq!(fast(&rules, 2000), plain(&rules, 2000), "{digits:?}");
        }
    }

    #[test]
    fn open_takes_match_the_plain_method() {
        for (takes, from) in [
            (vec![], 1),
            (vec![take(0, 4, false)], 1),
            (vec![take(2, 3, false)], 3),
        ] {
            let rules = HeapRules {
                takes,
                open_from: Some(from),
            };
            assert_eq!(fast(&rules, 600), plain(&rules, 600));
        }
    }

    #[test]
    fn a_certified_period_answers_huge_heaps() {
        let rules = HeapRules {
            takes: vec![take(1, 7, false), take(2, 7, false)],
            open_from: None,
        };
        let mut seq = HeapSequence::new(rules.clone());
        let limits = Limits::default();
        let huge = 10u64.pow(18);
        let v = seq.value(huge, &limits).unwrap();
        assert_eq!(seq.period().map(|(_, p)| p), Some(12));
        assert!(seq.values.len() < 1000);
        let g = plain(&rules, 200);
        assert_eq!(v, g[100 + ((huge - 100) % 12) as usize]);
    }
}
