//! The options of one heap read from the values of the heaps below it, for heaps past the tables
//! of a game with no proved period: counted in one pass over the values, and listed one at a time
//! by a cursor that holds no position and no list (O(1) memory a move).
//!
//! The moves are those of the sequence's [`HeapRules`] in a canonical form ([`CanonicalMoves`]):
//! the same move listed twice by the rules is one move here, as it is one in the values. The
//! splits of a heap in three are not counted or listed: the caller refuses them (about `n²/12`
//! splits of a heap of `n`).

use std::collections::BTreeMap;

use super::values::{with_slice, Read};
use super::{HeapRules, HeapSequence};

/// What one take amount does, the moves that a range already makes left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct TakeFlags {
    /// Take the whole heap (`n = take`), leaving nothing.
    pub none: bool,
    /// Leave one heap `n - take > 0`.
    pub one: bool,
    /// Split the rest in two, equal parts allowed.
    pub two: bool,
    /// Split the rest in two unequal parts (only when `two` is not set).
    pub two_unequal: bool,
    /// Split the rest in three.
    pub three: bool,
}

/// The moves of a [`HeapRules`], each once, the same for every listing of the same moves: takes
/// merged by amount (a split that may leave equal heaps includes the one that may not), ranges
/// sorted and merged, and the one-heap moves of takes that a range already makes dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CanonicalMoves {
    /// By take amount, ascending; none of them without a flag.
    pub takes: Vec<(u64, TakeFlags)>,
    /// Take any `k` in `lo..=hi` (`None`: up to the whole heap), disjoint and ascending.
    pub ranges: Vec<(u64, Option<u64>)>,
}

impl CanonicalMoves {
    pub fn of(rules: &HeapRules) -> CanonicalMoves {
        let mut ranges: Vec<(u64, Option<u64>)> =
            rules.ranges.iter().map(|r| (r.lo, r.hi)).collect();
        ranges.sort();
        let mut merged: Vec<(u64, Option<u64>)> = Vec::new();
        for (lo, hi) in ranges {
            match merged.last_mut() {
                Some((_, last)) if last.is_none_or(|last| lo <= last.saturating_add(1)) => {
                    *last = match (*last, hi) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    }
                }
                _ => merged.push((lo, hi)),
            }
        }
        let covered =
            |k: u64| (merged.iter()).any(|&(lo, hi)| lo <= k && hi.is_none_or(|hi| k <= hi));
        let mut takes = BTreeMap::<u64, TakeFlags>::new();
        for t in &rules.takes {
            let flags = takes.entry(t.take).or_default();
            flags.none |= t.none;
            flags.one |= t.one;
            flags.two |= t.two && !t.unequal;
            flags.two_unequal |= t.two && t.unequal;
            flags.three |= t.three;
        }
        let takes = (takes.into_iter())
            .map(|(take, mut flags)| {
                if covered(take) {
                    flags.none = false;
                    flags.one = false;
                }
                flags.two_unequal &= !flags.two;
                (take, flags)
            })
            .filter(|(_, flags)| *flags != TakeFlags::default())
            .collect();
        CanonicalMoves {
            takes,
            ranges: merged,
        }
    }

    /// The `(take, unequal)` of each way to split in two, by take ascending.
    fn splits(&self) -> impl Iterator<Item = (u64, bool)> + '_ {
        (self.takes.iter())
            .filter(|(_, f)| f.two || f.two_unequal)
            .map(|&(take, f)| (take, !f.two))
    }
}

/// What an option of a heap leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaves {
    /// Nothing: a take of the whole heap.
    Nothing,
    /// One heap (heap 0 when a range takes the whole heap).
    One(u64),
    /// Two heaps, the smaller first.
    Two(u64, u64),
}

/// One option of a heap and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapOption {
    pub leaves: Leaves,
    pub value: u32,
}

/// The moves that leave at most one heap, as runs of take amounts `lo..=hi`.
#[derive(Clone, Copy, Debug)]
struct Run {
    lo: u64,
    hi: u64,
    /// A range (any amount, the whole heap leaving heap 0), or a take and its flags.
    take: Option<TakeFlags>,
}

/// The options of one heap with a given value (or all), listed in order by [`OptionCursor::next`]:
/// first the moves that leave at most one heap, by take amount ascending, then the splits in two,
/// by take ascending, then by smaller part ascending.
pub struct OptionCursor {
    n: u64,
    target: Option<u32>,
    runs: Vec<Run>,
    splits: Vec<(u64, bool)>,
    /// In the runs: which, and the next take amount; then in the splits, which, and the next
    /// smaller part.
    at: (usize, u64),
    in_splits: bool,
}

/// The largest smaller part `a` of the splits `(a, rest - a)`, `a >= 1` (`a < rest - a` when
/// `unequal`).
fn last_part(rest: u64, unequal: bool) -> u64 {
    if unequal {
        rest.saturating_sub(1) / 2
    } else {
        rest / 2
    }
}

impl HeapSequence {
    /// Whether `count_options` and `option_cursor` can answer heap `n`: the values of the heaps
    /// below it are known, and no move splits in three.
    pub fn options_known(&self, n: u64) -> bool {
        !self.rules.splits_in_three() && (n == 0 || self.get(n - 1).is_some())
    }

    /// How many options of heap `n` have the value `target` (all of them for `None`), in one pass
    /// over the values below `n` ([`HeapSequence::options_known`] must hold).
    pub fn count_options(&self, n: u64, target: Option<u32>) -> u128 {
        let moves = CanonicalMoves::of(&self.rules);
        let runs = one_heap_runs(&moves, n);
        let splits: Vec<(u64, bool)> = moves.splits().collect();
        let stored = n as usize <= self.values.len();
        if stored {
            with_slice!(&self.values, g => count_in(g, n, target, &runs, &splits))
        } else {
            let value = |i: u64| self.get(i).expect("known below the heap");
            count_with(value, n, target, &runs, &splits)
        }
    }

    /// A cursor over the options of heap `n` with the value `target` (all for `None`);
    /// [`HeapSequence::options_known`] must hold.
    pub fn option_cursor(&self, n: u64, target: Option<u32>) -> OptionCursor {
        let moves = CanonicalMoves::of(&self.rules);
        let runs = one_heap_runs(&moves, n);
        let start = runs.first().map_or(0, |r| r.lo);
        OptionCursor {
            n,
            target,
            runs,
            splits: moves.splits().collect(),
            at: (0, start),
            in_splits: false,
        }
    }

    fn known(&self, heap: u64) -> u32 {
        self.get(heap).expect("known below the heap")
    }
}

/// The runs of take amounts of the moves that leave at most one heap from heap `n`, clipped to
/// `n`, ascending.
fn one_heap_runs(moves: &CanonicalMoves, n: u64) -> Vec<Run> {
    let mut runs: Vec<Run> = (moves.ranges.iter())
        .filter(|&&(lo, _)| lo <= n)
        .map(|&(lo, hi)| Run {
            lo,
            hi: hi.map_or(n, |hi| hi.min(n)),
            take: None,
        })
        .collect();
    runs.extend(
        (moves.takes.iter())
            .filter(|(take, f)| *take <= n && (f.none || f.one))
            .map(|&(take, f)| Run {
                lo: take,
                hi: take,
                take: Some(f),
            }),
    );
    runs.sort_by_key(|r| r.lo);
    runs
}

/// The value left by take amount `k` of a run from heap `n`, if that take is a move.
fn one_heap_value(run: &Run, n: u64, k: u64, value: impl Fn(u64) -> u32) -> Option<(Leaves, u32)> {
    let rest = n - k;
    match run.take {
        None => Some((Leaves::One(rest), value(rest))),
        Some(f) if rest == 0 => f.none.then_some((Leaves::Nothing, 0)),
        Some(f) => f.one.then(|| (Leaves::One(rest), value(rest))),
    }
}

fn count_in<G: Read + ?Sized>(
    g: &G,
    n: u64,
    target: Option<u32>,
    runs: &[Run],
    splits: &[(u64, bool)],
) -> u128 {
    count_with(|i| g.at(i as usize), n, target, runs, splits)
}

fn count_with(
    value: impl Fn(u64) -> u32,
    n: u64,
    target: Option<u32>,
    runs: &[Run],
    splits: &[(u64, bool)],
) -> u128 {
    let mut count = 0u128;
    for run in runs {
        if run.take.is_none() && target.is_none() {
            count += (run.hi - run.lo + 1) as u128;
            continue;
        }
        for k in run.lo..=run.hi {
            let found = one_heap_value(run, n, k, &value);
            count += u128::from(found.is_some_and(|(_, v)| target.is_none_or(|t| v == t)));
        }
    }
    for &(take, unequal) in splits {
        let Some(rest) = n.checked_sub(take) else {
            continue;
        };
        let last = last_part(rest, unequal);
        count += match target {
            None => last as u128,
            Some(t) => (1..=last)
                .filter(|&a| value(a) ^ value(rest - a) == t)
                .count() as u128,
        };
    }
    count
}

impl OptionCursor {
    /// The next option with the value wanted, or `None` after the last. Each call costs the
    /// options it passes over; the whole listing, one pass over the values below the heap.
    pub fn next(&mut self, sequence: &HeapSequence) -> Option<HeapOption> {
        let n = self.n;
        let wanted = |v: u32| self.target.is_none_or(|t| v == t);
        while !self.in_splits {
            let (i, k) = self.at;
            let Some(run) = self.runs.get(i) else {
                self.in_splits = true;
                self.at = (0, 1);
                break;
            };
            self.at = match self.runs.get(i + 1) {
                _ if k < run.hi => (i, k + 1),
                Some(next) => (i + 1, next.lo),
                None => (i + 1, 0),
            };
            if let Some((leaves, value)) = one_heap_value(run, n, k, |h| sequence.known(h)) {
                if wanted(value) {
                    return Some(HeapOption { leaves, value });
                }
            }
        }
        loop {
            let (i, a) = self.at;
            let &(take, unequal) = self.splits.get(i)?;
            let rest = n.saturating_sub(take);
            if a > last_part(rest, unequal) {
                self.at = (i + 1, 1);
                continue;
            }
            self.at = (i, a + 1);
            let value = sequence.known(a) ^ sequence.known(rest - a);
            if wanted(value) {
                let leaves = Leaves::Two(a, rest - a);
                return Some(HeapOption { leaves, value });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{HeapSequence, Leaves};
    use crate::game::heap::cache::tests::take;
    use crate::game::vocabulary::{HeapRules, TakeRange};
    use crate::game::Limits;

    /// Every move of `rules` from heap `n` as the sorted non-empty heaps it leaves, each once
    /// (two listings of one move leave the same heaps), with the values `g` of the heaps below.
    fn brute_options(rules: &HeapRules, n: u64, g: &[u32]) -> Vec<(Vec<u64>, u32)> {
        let mut moves: Vec<Vec<u64>> = Vec::new();
        for t in &rules.takes {
            let Some(rest) = n.checked_sub(t.take) else {
                continue;
            };
            if t.take >= 1 && ((t.none && rest == 0) || (t.one && rest > 0)) {
                moves.push(vec![rest]);
            }
            if t.two {
                for a in 1..rest {
                    if a <= rest - a && !(t.unequal && 2 * a == rest) {
                        moves.push(vec![a, rest - a]);
                    }
                }
            }
        }
        for r in &rules.ranges {
            for k in r.lo..=r.hi.unwrap_or(n).min(n) {
                moves.push(vec![n - k]);
            }
        }
        for m in &mut moves {
            m.retain(|&h| h != 0);
        }
        moves.sort();
        moves.dedup();
        (moves.into_iter())
            .map(|m| {
                let v = m.iter().fold(0, |x, &h| x ^ g[h as usize]);
                (m, v)
            })
            .collect()
    }

    /// The values by the definition: the mex of the values of the brute-force options.
    fn brute_values(rules: &HeapRules, len: u64) -> Vec<u32> {
        let mut g = Vec::new();
        for n in 0..len {
            let values: Vec<u32> = (brute_options(rules, n, &g).into_iter())
                .map(|(_, v)| v)
                .collect();
            g.push((0..).find(|v| !values.contains(v)).unwrap());
        }
        g
    }

    #[test]
    fn the_options_of_a_heap_are_counted_and_listed_as_the_rules_give_them_each_once() {
        let ranges = |r: &[(u64, Option<u64>)]| -> Vec<TakeRange> {
            r.iter().map(|&(lo, hi)| TakeRange { lo, hi }).collect()
        };
        let games = [
            // Grundy's game, Officers, Dawson's Kayles listed twice over, Lasker's Nim.
            (vec![take(0, "u")], ranges(&[])),
            (vec![take(1, "12")], ranges(&[])),
            (
                vec![take(1, "0"), take(2, "012"), take(2, "1")],
                ranges(&[]),
            ),
            (vec![take(0, "2")], ranges(&[(1, None)])),
            // A range that makes some takes, an equal split with an unequal one of the same take.
            (
                vec![take(2, "01"), take(3, "u"), take(3, "2"), take(6, "0")],
                ranges(&[(1, Some(4)), (3, Some(5))]),
            ),
            (vec![take(1, "u"), take(4, "01")], ranges(&[(7, None)])),
        ];
        for (takes, ranges) in games {
            let rules = HeapRules { takes, ranges };
            let len = 90;
            let g = brute_values(&rules, len);
            let mut sequence = HeapSequence::new(rules.clone());
            sequence.value(len - 1, &Limits::default()).unwrap();
            for n in 0..len {
                assert!(sequence.options_known(n));
                let brute = brute_options(&rules, n, &g);
                let targets = [None, Some(0), Some(1), Some(2), Some(g[n as usize] ^ 3)];
                for target in targets {
                    let wanted: Vec<(Vec<u64>, u32)> = (brute.iter())
                        .filter(|&(_, v)| target.is_none_or(|t| *v == t))
                        .cloned()
                        .collect();
                    let count = sequence.count_options(n, target);
                    assert_eq!(count, wanted.len() as u128, "{rules:?} {n} {target:?}");
                    let mut cursor = sequence.option_cursor(n, target);
                    let mut listed = Vec::new();
                    while let Some(option) = cursor.next(&sequence) {
                        let mut heaps = match option.leaves {
                            Leaves::Nothing => vec![],
                            Leaves::One(h) => vec![h],
                            Leaves::Two(a, b) => {
                                assert!(a <= b);
                                vec![a, b]
                            }
                        };
                        heaps.retain(|&h| h != 0);
                        listed.push((heaps, option.value));
                    }
                    listed.sort();
                    assert_eq!(listed, wanted, "{rules:?} {n} {target:?}");
                }
            }
        }
    }
}
