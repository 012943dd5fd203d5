//! The search of whole sums, shared by misère values and genera (see [`Measure`]).
//!
//! A sum is kept as the sorted ids of its components (see [`Components`]): a component that
//! cannot move is the zero game in either play and is left out, and nothing else is dropped
//! (in misère play, neither a component of normal value 0 nor a pair of equal components may
//! be). The keys of all sums searched lie one after another in one arena of words, so a sum
//! stored costs its ids and one table entry, with no allocation of its own. The options of each
//! component are listed once, as ids, and an option of a sum is its key with one component
//! replaced by the ids of one of its options, merged in order.
//!
//! The search keeps its own stack; the memory limit counts the tables, the arena, the listed
//! components and the stack before they grow, and the state limit the sums stored (those on
//! the stack among them). Ctrl-C is read every 4,096 sums.

use hashbrown::HashTable;
use rustc_hash::FxHashMap;

use super::{budget, GameId, Limits, Part, SolveError};

/// What the misère searches and quotients ask of the solvers of their components: the options
/// and normal-play values of one component, whether a game is heap-like or has been found to
/// loop, how a sum is shown, and the limits. The engine gives it; these searches see nothing
/// else of it.
pub trait Solvers {
    fn limits(&self) -> &Limits;
    /// The options of one component, as lists of components.
    fn part_options(&self, part: &Part) -> Result<Vec<Vec<Part>>, SolveError>;
    /// The Grundy value of one component under normal play.
    fn part_value(&mut self, part: &Part) -> Result<u64, SolveError>;
    fn heap_like(&self, game: GameId) -> bool;
    /// Whether a game has been found to loop.
    fn is_loopy(&self, game: GameId) -> bool;
    /// Shows a sum of components, e.g. `nim[1] + nim[4]`.
    fn describe(&self, parts: &[Part]) -> String;
}

/// The value stored for a sum whose search is under way.
const ACTIVE: u32 = u32::MAX;

/// What a sum search computes for each sum, as a number: from nothing for a sum with no move,
/// and from the numbers of its options otherwise.
pub(super) trait Measure {
    fn no_move(&mut self) -> u32;
    /// From the numbers of the options (at least one; an option may appear more than once).
    fn of_options(&mut self, options: &[u32]) -> u32;
    /// The bytes this measure holds (beyond the sum tables).
    fn bytes(&self) -> usize;
}

/// The misère Grundy value: 1 with no move, else the mex of the options'.
#[derive(Default)]
pub(super) struct MisereValue {
    seen: Vec<bool>,
}

impl Measure for MisereValue {
    fn no_move(&mut self) -> u32 {
        1
    }

    fn of_options(&mut self, options: &[u32]) -> u32 {
        self.seen.clear();
        self.seen.resize(options.len() + 1, false);
        for &v in options {
            if let Some(seen) = self.seen.get_mut(v as usize) {
                *seen = true;
            }
        }
        self.seen.iter().position(|s| !s).expect("one is unseen") as u32
    }

    fn bytes(&self) -> usize {
        budget::vector(&self.seen, 0)
    }
}

/// Every component met in sums, by id, with its options once they are listed.
#[derive(Default)]
pub struct Components {
    parts: Vec<Part>,
    ids: FxHashMap<Part, u32>,
    facts: Vec<Facts>,
    /// The options listed, one after another: each is its length, then the sorted ids of the
    /// components it leaves that can move.
    options: Vec<u32>,
    /// The bytes of the components' states, each held twice (in `parts` and in `ids`).
    state_bytes: usize,
}

/// What is known of one component.
#[derive(Clone, Copy, Default)]
struct Facts {
    can_move: Option<bool>,
    /// Where its options lie in [`Components::options`], once listed (distinct options only).
    options: Option<(usize, usize)>,
}

impl Components {
    fn intern(&mut self, part: &Part) -> u32 {
        if let Some(&id) = self.ids.get(part) {
            return id;
        }
        let id = self.parts.len() as u32;
        self.state_bytes += 2 * budget::boxed(part.state.len() * 8);
        self.parts.push(part.clone());
        self.ids.insert(part.clone(), id);
        self.facts.push(Facts::default());
        id
    }

    fn can_move(&mut self, solvers: &dyn Solvers, id: u32) -> Result<bool, SolveError> {
        let facts = &mut self.facts[id as usize];
        if let Some(can) = facts.can_move {
            return Ok(can);
        }
        let can = !solvers.part_options(&self.parts[id as usize])?.is_empty();
        self.facts[id as usize].can_move = Some(can);
        Ok(can)
    }

    /// The ids of the components of `parts` that can move, sorted.
    pub(super) fn key(
        &mut self,
        solvers: &dyn Solvers,
        parts: &[Part],
    ) -> Result<Vec<u32>, SolveError> {
        let mut key = Vec::with_capacity(parts.len());
        for part in parts {
            let id = self.intern(part);
            if self.can_move(solvers, id)? {
                key.push(id);
            }
        }
        key.sort_unstable();
        Ok(key)
    }

    /// Where the options of component `id` lie in [`Components::options`], listing them once.
    pub(super) fn listed(
        &mut self,
        solvers: &dyn Solvers,
        id: u32,
    ) -> Result<(usize, usize), SolveError> {
        if let Some(range) = self.facts[id as usize].options {
            return Ok(range);
        }
        let part = self.parts[id as usize].clone();
        let options = solvers.part_options(&part)?;
        // The options (a million, from a large heap) and their keys are held beside the
        // search, lent to the ledger (`Search::listed`), until the keys are merged in: both
        // must fit in the room left.
        let limits = solvers.limits();
        let mut held = limits.charge();
        held.hold(options_bytes(&options));
        let mut lists: Vec<Vec<u32>> = Vec::new();
        let mut keys = 0;
        for option in &options {
            let key = self.key(solvers, option)?;
            keys += budget::boxed(key.len() * 4);
            if budget::vector(&lists, 1) + keys > limits.room() {
                return Err(SolveError::MemoryLimit(limits.max_memory));
            }
            lists.push(key);
        }
        drop(options);
        drop(held);
        lists.sort_unstable();
        lists.dedup();
        let start = self.options.len();
        for list in &lists {
            self.options.push(list.len() as u32);
            self.options.extend_from_slice(list);
        }
        let range = (start, self.options.len());
        self.facts[id as usize] = Facts {
            can_move: Some(!lists.is_empty()),
            options: Some(range),
        };
        Ok(range)
    }

    /// The option listed at `at` in [`Components::options`] (the sorted ids it leaves), and
    /// where the next one starts.
    pub(super) fn option_at(&self, at: usize) -> (&[u32], usize) {
        let len = self.options[at] as usize;
        (&self.options[at + 1..at + 1 + len], at + 1 + len)
    }

    /// The bytes held, and while the next component is listed (each table may grow then).
    pub(super) fn bytes(&self) -> usize {
        budget::vector(&self.parts, 1)
            + budget::table(&self.ids, true)
            + self.state_bytes
            + budget::vector(&self.facts, 1)
            + budget::vector(&self.options, 2)
    }

    pub(super) fn describe(&self, solvers: &dyn Solvers, key: &[u32]) -> String {
        let parts: Vec<Part> = key
            .iter()
            .map(|&id| self.parts[id as usize].clone())
            .collect();
        solvers.describe(&parts)
    }
}

/// The bytes of a component's options as [`Solvers::part_options`] lists them.
fn options_bytes(options: &[Vec<Part>]) -> usize {
    budget::boxed(size_of_val(options))
        + options
            .iter()
            .map(|parts| {
                budget::boxed(size_of_val(parts.as_slice()))
                    + parts
                        .iter()
                        .map(|p| budget::boxed(p.state.len() * 8))
                        .sum::<usize>()
            })
            .sum::<usize>()
}

/// The sums searched, each with its number (see [`Measure`]), or [`ACTIVE`] while searched.
#[derive(Default)]
pub struct SumTable {
    /// The keys too long to pack in their entry, one after another.
    keys: Vec<u32>,
    entries: HashTable<Entry>,
}

/// The most components of a key packed in its entry, one byte an id.
const PACKED: usize = 31;

/// A key as its entry holds it: its length, then its ids, one byte each, when it has at most
/// [`PACKED`] ids all below 255; else 255, then where it lies in [`SumTable::keys`] (a `u64`
/// from byte 8) and its length (a `u32` from byte 16).
type Packed = [u8; PACKED + 1];

#[derive(Clone, Copy)]
struct Entry {
    key: Packed,
    value: u32,
}

const LONG: u8 = 255;

/// A key packed in its entry, if it fits.
fn packed(key: &[u32]) -> Option<Packed> {
    if key.len() > PACKED || key.iter().any(|&id| id >= u32::from(LONG)) {
        return None;
    }
    let mut packed = [0u8; PACKED + 1];
    packed[0] = key.len() as u8;
    for (byte, &id) in packed[1..].iter_mut().zip(key) {
        *byte = id as u8;
    }
    Some(packed)
}

fn long(start: usize, len: usize) -> Packed {
    let mut packed = [0u8; PACKED + 1];
    packed[0] = LONG;
    packed[8..16].copy_from_slice(&(start as u64).to_le_bytes());
    packed[16..20].copy_from_slice(&(len as u32).to_le_bytes());
    packed
}

/// A hash of a key whose every bit depends on every id (the table takes its low bits for the
/// bucket and its high bits for the tag): a multiply-add per id, then the finalizer of
/// SplitMix64.
fn hash(key: &[u32]) -> u64 {
    hash_ids(key.len(), key.iter().copied())
}

fn hash_ids(len: usize, ids: impl Iterator<Item = u32>) -> u64 {
    let mut h = len as u64;
    for id in ids {
        h = (h ^ u64::from(id)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// Where a long key lies in [`SumTable::keys`].
fn long_range(key: &Packed) -> std::ops::Range<usize> {
    let start = u64::from_le_bytes(key[8..16].try_into().expect("8 bytes")) as usize;
    let len = u32::from_le_bytes(key[16..20].try_into().expect("4 bytes")) as usize;
    start..start + len
}

/// Whether `entry` is that of `key` (`packed`: its packed form, if it fits).
fn matches(keys: &[u32], entry: &Entry, key: &[u32], packed: &Option<Packed>) -> bool {
    match packed {
        Some(packed) => entry.key == *packed,
        None => entry.key[0] == LONG && keys[long_range(&entry.key)] == *key,
    }
}

/// The hash of a stored key.
fn stored_hash(keys: &[u32], key: &Packed) -> u64 {
    if key[0] == LONG {
        hash(&keys[long_range(key)])
    } else {
        let len = key[0] as usize;
        hash_ids(len, key[1..=len].iter().map(|&b| u32::from(b)))
    }
}

impl SumTable {
    pub(super) fn get(&self, key: &[u32]) -> Option<u32> {
        let packed = packed(key);
        self.entries
            .find(hash(key), |e| matches(&self.keys, e, key, &packed))
            .map(|e| e.value)
    }

    fn set(&mut self, key: &[u32], value: u32) {
        let packed = packed(key);
        let SumTable { keys, entries } = self;
        let entry = entries
            .find_mut(hash(key), |e| matches(keys, e, key, &packed))
            .expect("the sum is stored");
        entry.value = value;
    }

    /// Stores `key` with `value`, which it must not have yet.
    pub(super) fn insert(&mut self, key: &[u32], value: u32) {
        self.insert_active(key);
        self.set(key, value);
    }

    /// Stores `key` as searched.
    fn insert_active(&mut self, key: &[u32]) {
        let packed = packed(key).unwrap_or_else(|| {
            let start = self.keys.len();
            self.keys.extend_from_slice(key);
            long(start, key.len())
        });
        let entry = Entry {
            key: packed,
            value: ACTIVE,
        };
        let SumTable { keys, entries } = self;
        entries.insert_unique(hash(key), entry, |e| stored_hash(keys, &e.key));
    }

    fn remove(&mut self, key: &[u32]) {
        let packed = packed(key);
        let SumTable { keys, entries } = self;
        if let Ok(entry) = entries.find_entry(hash(key), |e| matches(keys, e, key, &packed)) {
            entry.remove();
        }
    }

    /// The bytes held, and with `more` while `key` is added.
    pub(super) fn bytes(&self, more: Option<&[u32]>) -> usize {
        let long = more.map_or(0, |key| if packed(key).is_some() { 0 } else { key.len() });
        budget::hash_table(&self.entries, more.is_some()) + budget::vector(&self.keys, long)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

/// A sum on the search's stack: where its key lies in [`Search::keys`], which of its components is being played
/// (an index into the key), the next of that component's options, and where its options'
/// numbers begin on the stack of numbers.
struct Frame {
    key: (usize, usize),
    part: usize,
    next: usize,
    end: usize,
    numbers: usize,
}

/// The number of the sum of `parts` (see [`Measure`]), searched over `table` and memoized there.
pub(super) fn number<M: Measure>(
    solvers: &dyn Solvers,
    components: &mut Components,
    table: &mut SumTable,
    measure: &mut M,
    parts: &[Part],
) -> Result<u32, SolveError> {
    let root = components.key(solvers, parts)?;
    if let Some(v) = table.get(&root).filter(|&v| v != ACTIVE) {
        return Ok(v);
    }
    let mut search = Search {
        solvers,
        components,
        table,
        measure,
        frames: Vec::new(),
        keys: Vec::new(),
        numbers: Vec::new(),
        child: Vec::new(),
    };
    let result = search.run(&root);
    if result.is_err() {
        for frame in &search.frames {
            search.table.remove(&search.keys[frame.key.0..frame.key.1]);
        }
    }
    result
}

struct Search<'s, M> {
    solvers: &'s dyn Solvers,
    components: &'s mut Components,
    table: &'s mut SumTable,
    measure: &'s mut M,
    frames: Vec<Frame>,
    /// The keys of the sums on the stack, one after another.
    keys: Vec<u32>,
    numbers: Vec<u32>,
    /// The option being looked at.
    child: Vec<u32>,
}

impl<M: Measure> Search<'_, M> {
    fn run(&mut self, root: &[u32]) -> Result<u32, SolveError> {
        self.enter(root)?;
        loop {
            let frame = self.frames.last_mut().expect("a sum is searched");
            if frame.next < frame.end {
                let Search {
                    components,
                    table,
                    keys,
                    child,
                    ..
                } = self;
                let key = &keys[frame.key.0..frame.key.1];
                let len = components.options[frame.next] as usize;
                let option = &components.options[frame.next + 1..frame.next + 1 + len];
                frame.next += 1 + len;
                replace(key, frame.part, option, child);
                match table.get(child) {
                    Some(ACTIVE) => return Err(self.cycle()),
                    Some(v) => self.numbers.push(v),
                    None => {
                        let child = std::mem::take(&mut self.child);
                        let entered = self.enter(&child);
                        self.child = child;
                        entered?;
                    }
                }
                continue;
            }
            let key = &self.keys[frame.key.0..frame.key.1];
            let mut part = frame.part + 1;
            while part < key.len() && key[part] == key[part - 1] {
                part += 1;
            }
            if part < key.len() {
                let id = key[part];
                frame.part = part;
                let listed = self.listed(id)?;
                let frame = self.frames.last_mut().expect("a sum is searched");
                (frame.next, frame.end) = listed;
                continue;
            }
            let frame = self.frames.pop().expect("a sum is searched");
            let options = &self.numbers[frame.numbers..];
            let value = if options.is_empty() {
                self.measure.no_move()
            } else {
                self.measure.of_options(options)
            };
            self.numbers.truncate(frame.numbers);
            self.table.set(&self.keys[frame.key.0..frame.key.1], value);
            self.keys.truncate(frame.key.0);
            if self.frames.is_empty() {
                return Ok(value);
            }
            self.numbers.push(value);
        }
    }

    /// The bytes the search holds, and while it takes a sum of `key` more.
    fn held(&self, key: &[u32]) -> usize {
        self.table.bytes(Some(key))
            + self.components.bytes()
            + self.measure.bytes()
            + budget::vector(&self.frames, 1)
            + budget::vector(&self.keys, key.len())
            + budget::vector(&self.numbers, 0)
            + budget::vector(&self.child, 0)
    }

    /// Lists the options of component `id` with the search's tables lent to the ledger, so
    /// that the options and what the rules build for them are checked against the room left
    /// beside the tables.
    fn listed(&mut self, id: u32) -> Result<(usize, usize), SolveError> {
        let mut lent = self.solvers.limits().charge();
        lent.hold(self.held(&[]));
        self.components.listed(self.solvers, id)
    }

    /// Puts a new sum on the stack, within the limits.
    fn enter(&mut self, key: &[u32]) -> Result<(), SolveError> {
        let limits = self.solvers.limits();
        let stored = self.table.len();
        if stored >= limits.max_states {
            return Err(SolveError::StateLimit(limits.max_states));
        }
        if stored.is_multiple_of(4096) {
            limits.check_interrupt()?;
        }
        if self.held(key) > limits.room() {
            return Err(SolveError::MemoryLimit(limits.max_memory));
        }
        self.table.insert_active(key);
        let start = self.keys.len();
        self.keys.extend_from_slice(key);
        let mut frame = Frame {
            key: (start, self.keys.len()),
            part: 0,
            next: 0,
            end: 0,
            numbers: self.numbers.len(),
        };
        if let Some(&first) = key.first() {
            (frame.next, frame.end) = self.listed(first)?;
        }
        self.frames.push(frame);
        Ok(())
    }

    /// The loop met: the sums on the stack from the one the current option repeats, then it.
    fn cycle(&self) -> SolveError {
        let key = |f: &Frame| &self.keys[f.key.0..f.key.1];
        let start = self
            .frames
            .iter()
            .position(|f| key(f) == self.child.as_slice())
            .unwrap_or(0);
        let mut cycle: Vec<String> = self.frames[start..]
            .iter()
            .map(|f| self.components.describe(self.solvers, key(f)))
            .collect();
        cycle.push(self.components.describe(self.solvers, &self.child));
        SolveError::Loop(cycle)
    }
}

/// `key` with its component at `at` replaced by the sorted ids `with`, sorted, into `out`.
pub(super) fn replace(key: &[u32], at: usize, with: &[u32], out: &mut Vec<u32>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < key.len() || j < with.len() {
        if i == at {
            i += 1;
            continue;
        }
        if j == with.len() || (i < key.len() && key[i] <= with[j]) {
            out.push(key[i]);
            i += 1;
        } else {
            out.push(with[j]);
            j += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::replace;

    #[test]
    fn an_option_is_merged_in_order() {
        let mut out = Vec::new();
        replace(&[1, 3, 3, 7], 1, &[2, 3, 9], &mut out);
        assert_eq!(out, [1, 2, 3, 3, 7, 9]);
        replace(&[4], 0, &[], &mut out);
        assert!(out.is_empty());
        replace(&[1, 2], 1, &[0, 5], &mut out);
        assert_eq!(out, [0, 1, 5]);
    }
}
