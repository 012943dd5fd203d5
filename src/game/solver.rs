//! Memoized mex search over one game, iterative so that deep games cannot overflow the stack.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::heap::HeapSequence;
use super::lines::LineSweep;
use super::period::Structure;
use super::sweep::SweepLink;
use super::{mex, Game, Limits, Method, SolveError};

pub(super) const UNKNOWN: u32 = u32::MAX;
const ACTIVE: u32 = u32::MAX - 1;

/// What a hash-map entry costs beyond its key's counters: the boxed slice's pointer and length,
/// the value, the table's control bytes and the allocation's own overhead.
pub const SPARSE_ENTRY_BYTES: usize = 48;

/// Options stored flat: every option's integers one after another, and each option's
/// `(start, end)` in them.
type FlatOptions = (Vec<i64>, Vec<(u32, u32)>);

/// The memo of one game instance: a dense table for heap-like games, a hash map otherwise.
/// It lives as long as the run, so every query on the same game reuses it.
pub struct Solver {
    game: Arc<dyn Game>,
    /// The game's [`Game::heap_like`], asked once.
    heap_like: bool,
    dense: Vec<u32>,
    sparse: FxHashMap<Box<[i64]>, u32>,
    /// States that fit, packed into one integer (see [`pack`]): cheaper to hash and compare.
    packed: FxHashMap<u128, u32>,
    stored: usize,
    /// An estimate of the bytes the tables take.
    bytes: usize,
    visits: u32,
    /// For games with heap rules, their sequence, which replaces the search.
    heap: Option<HeapSequence>,
    /// For two-counter games with line rules, their sweep, which replaces the search.
    lines: Option<LineSweep>,
    /// For a worker of a parallel sweep, the memos it shares with the others (see [`super::sweep`]).
    link: Option<SweepLink>,
}

/// A state of at most 15 counters, each non-negative and small enough, as one integer: the
/// length in the low 4 bits, then the counters in `124 / len` bits each. Equal states give equal
/// keys, and different states of the same or different lengths different keys.
pub(super) fn pack(state: &[i64]) -> Option<u128> {
    let n = state.len();
    if n > 15 {
        return None;
    }
    let width = 124 / n.max(1);
    let mut key = n as u128;
    let mut shift = 4;
    for &x in state {
        if x < 0 || (width < 64 && x >> width != 0) {
            return None;
        }
        key |= (x as u128) << shift;
        shift += width;
    }
    Some(key)
}

struct Frame {
    key: Box<[i64]>,
    flat: Vec<i64>,
    bounds: Vec<(u32, u32)>,
    next_child: usize,
    /// For games that are not heap-like, the values of the children seen so far (each recorded
    /// when it is known, so that no child is looked up twice).
    values: Vec<u64>,
}

impl Solver {
    pub fn new(game: Arc<dyn Game>) -> Solver {
        let heap = game
            .heap_rules()
            .filter(|rules| rules.is_valid())
            .map(HeapSequence::new);
        let lines = game
            .line_rules()
            .filter(|rules| rules.is_valid())
            .map(LineSweep::new);
        Solver {
            heap,
            lines,
            heap_like: game.heap_like(),
            game,
            dense: Vec::new(),
            sparse: FxHashMap::default(),
            packed: FxHashMap::default(),
            stored: 0,
            bytes: 0,
            visits: 0,
            link: None,
        }
    }

    /// A worker's solver in a parallel sweep: empty, reading through `link`.
    pub(super) fn linked(link: SweepLink) -> Solver {
        Solver {
            heap: None,
            lines: None,
            game: link.base().game.clone(),
            heap_like: link.base().heap_like,
            dense: Vec::new(),
            sparse: FxHashMap::default(),
            packed: FxHashMap::default(),
            stored: 0,
            bytes: 0,
            visits: 0,
            link: Some(link),
        }
    }

    /// The estimated bytes of the tables.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Takes in the values a parallel sweep found (states this solver does not hold).
    pub(super) fn absorb(
        &mut self,
        shards: impl Iterator<Item = (FxHashMap<u128, u32>, FxHashMap<Box<[i64]>, u32>)>,
        stored: usize,
        bytes: usize,
    ) {
        for (packed, sparse) in shards {
            self.packed.extend(packed);
            self.sparse.extend(sparse);
        }
        self.stored += stored;
        self.bytes += bytes;
    }

    /// The value of `state` if this solver's tables hold it, without computing anything: what a
    /// worker of a parallel sweep may read of a heap game or a line sweep.
    fn settled(&self, state: &[i64]) -> Option<u32> {
        if let Some(heap) = &self.heap {
            return heap.get(u64::try_from(state[0]).ok()?);
        }
        if let Some(lines) = self.lines.as_ref().filter(|_| state.len() == 2) {
            return lines.get(state);
        }
        self.known(state)
    }

    /// The method that computes the values, for a game of this structure.
    pub fn method(&self, structure: &Structure) -> Method {
        match (&self.heap, &self.lines) {
            (Some(heap), _) => Method::heap_sequence(heap.rules(), structure),
            (None, Some(_)) => Method::LineSweep,
            (None, None) => Method::Search,
        }
    }

    pub fn game(&self) -> &Arc<dyn Game> {
        &self.game
    }

    /// How many states have a stored value.
    pub fn stored(&self) -> usize {
        self.stored
    }

    /// The Grundy value of `state` (one heap for heap-like games), in canonical form.
    pub fn value(&mut self, state: &[i64], limits: &Limits) -> Result<u64, SolveError> {
        if let Some(link) = &self.link {
            let base = link.base();
            if base.heap.is_some() || base.lines.is_some() || self.heap_like {
                return base
                    .settled(state)
                    .map(u64::from)
                    .ok_or(SolveError::Deferred);
            }
        }
        if let Some(heap) = &mut self.heap {
            let v = heap.value(state[0] as u64, limits)?;
            self.stored = self.stored.max(heap.len());
            if heap.bytes() > limits.max_memory {
                return Err(SolveError::MemoryLimit(limits.max_memory));
            }
            return Ok(v as u64);
        }
        if let Some(lines) = self.lines.as_mut().filter(|_| state.len() == 2) {
            let v = lines.value(state, limits)?;
            self.stored = self.stored.max(lines.len());
            return Ok(v as u64);
        }
        if let Some(v) = self.known(state) {
            return Ok(v as u64);
        }
        if self.heap_like {
            let target = state[0];
            let mut h = self.dense.len() as i64;
            while h < target {
                if self.known(&[h]).is_none() {
                    self.search(&[h], limits)?;
                }
                h += 1;
            }
        }
        self.search(state, limits)?;
        Ok(self.known(state).expect("searched state has a value") as u64)
    }

    /// The options of `state`, one per move in the order the rules give them (two moves that
    /// leave equal states are both listed), each canonical (heaps sorted, for heap-like games).
    pub fn options(&self, state: &[i64]) -> Result<Vec<Vec<i64>>, SolveError> {
        let (flat, bounds) = self.expand(state)?;
        Ok(bounds
            .iter()
            .map(|&(a, b)| flat[a as usize..b as usize].to_vec())
            .collect())
    }

    pub(super) fn known(&self, state: &[i64]) -> Option<u32> {
        let v = self.slot(state);
        (v < ACTIVE).then_some(v)
    }

    /// The value of a state, or [`ACTIVE`] when it is being searched, or [`UNKNOWN`].
    fn slot(&self, state: &[i64]) -> u32 {
        if self.heap_like {
            return usize::try_from(state[0])
                .ok()
                .and_then(|n| self.dense.get(n))
                .copied()
                .unwrap_or(UNKNOWN);
        }
        let key = pack(state);
        let Some(link) = &self.link else {
            return self.table_slot(state, key);
        };
        // A worker: what the engine knew, then its own searches, then the other workers'.
        match link.base().table_slot(state, key) {
            UNKNOWN => match self.table_slot(state, key) {
                UNKNOWN => link.fresh(state, key).unwrap_or(UNKNOWN),
                v => v,
            },
            v => v,
        }
    }

    /// The slot of a state of a game that is not heap-like, its packed form given.
    pub(super) fn table_slot(&self, state: &[i64], key: Option<u128>) -> u32 {
        match key {
            Some(key) => self.packed.get(&key),
            None => self.sparse.get(state),
        }
        .copied()
        .unwrap_or(UNKNOWN)
    }

    fn set(&mut self, state: &[i64], value: u32, limits: &Limits) -> Result<(), SolveError> {
        if self.heap_like {
            let n = state[0] as usize;
            if n >= self.dense.len() {
                if n >= limits.max_states {
                    return Err(SolveError::StateLimit(limits.max_states));
                }
                let grown = (n + 1).max(self.dense.len() * 2).min(limits.max_states);
                self.grow_bytes((grown - self.dense.len()) * 4, limits)?;
                self.dense.resize(grown, UNKNOWN);
            }
            self.dense[n] = value;
        } else if match pack(state) {
            Some(key) => self.packed.insert(key, value),
            None => self.sparse.insert(state.into(), value),
        }
        .is_none()
        {
            let bytes = state.len() * 8 + SPARSE_ENTRY_BYTES;
            match &self.link {
                Some(link) => link.check_bytes(bytes, limits)?,
                None => self.grow_bytes(bytes, limits)?,
            }
        }
        if let Some(link) = self.link.as_ref().filter(|_| value < ACTIVE) {
            link.publish(state, value);
        }
        Ok(())
    }

    fn grow_bytes(&mut self, bytes: usize, limits: &Limits) -> Result<(), SolveError> {
        self.bytes += bytes;
        if self.bytes > limits.max_memory {
            return Err(SolveError::MemoryLimit(limits.max_memory));
        }
        Ok(())
    }

    /// Options as flat storage: heap-like options are runs of heaps, others runs of one state.
    fn expand(&self, state: &[i64]) -> Result<FlatOptions, SolveError> {
        let mut flat = Vec::new();
        let mut bounds = Vec::new();
        let game = &self.game;
        let heap_like = game.heap_like();
        game.options(state, &mut |option| {
            let start = flat.len();
            flat.extend_from_slice(option);
            if heap_like {
                flat[start..].sort_unstable();
            } else {
                game.canonicalize(&mut flat[start..]);
            }
            bounds.push((start as u32, flat.len() as u32));
        })?;
        Ok((flat, bounds))
    }

    fn push(
        &mut self,
        stack: &mut Vec<Frame>,
        key: &[i64],
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let stored = match &self.link {
            Some(link) => link.stored(),
            None => self.stored,
        };
        if stored >= limits.max_states {
            return Err(SolveError::StateLimit(limits.max_states));
        }
        self.visits = self.visits.wrapping_add(1);
        if self.visits.is_multiple_of(1024) {
            limits.check_interrupt()?;
        }
        let (flat, bounds) = self.expand(key)?;
        self.set(key, ACTIVE, limits)?;
        stack.push(Frame {
            key: key.into(),
            flat,
            bounds,
            next_child: 0,
            values: Vec::new(),
        });
        Ok(())
    }

    fn search(&mut self, root: &[i64], limits: &Limits) -> Result<(), SolveError> {
        let mut stack: Vec<Frame> = Vec::new();
        let result = self.search_from(root, &mut stack, limits);
        if result.is_err() {
            for frame in stack {
                self.unset(&frame.key);
            }
        }
        result
    }

    fn unset(&mut self, state: &[i64]) {
        if self.heap_like {
            if let Some(slot) = self.dense.get_mut(state[0] as usize) {
                *slot = UNKNOWN;
            }
        } else {
            match pack(state) {
                Some(key) => self.packed.remove(&key),
                None => self.sparse.remove(state),
            };
        }
    }

    fn search_from(
        &mut self,
        root: &[i64],
        stack: &mut Vec<Frame>,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let heap_like = self.heap_like;
        self.push(stack, root, limits)?;
        let mut values = Vec::new();
        // The child being looked at, in a buffer reused for every child.
        let mut child: Vec<i64> = Vec::new();
        while let Some(top) = stack.last_mut() {
            let children = if heap_like {
                top.flat.len()
            } else {
                top.bounds.len()
            };
            if top.next_child < children {
                let i = top.next_child;
                top.next_child += 1;
                child.clear();
                if heap_like {
                    child.push(top.flat[i]);
                } else {
                    let (a, b) = top.bounds[i];
                    child.extend_from_slice(&top.flat[a as usize..b as usize]);
                }
                match self.slot(&child) {
                    UNKNOWN => self.push(stack, &child, limits)?,
                    ACTIVE => return Err(self.loop_error(stack, &child)),
                    v if !heap_like => top.values.push(v as u64),
                    _ => {}
                }
                continue;
            }
            let mut frame = stack.pop().expect("stack is not empty");
            let value = if heap_like {
                values.clear();
                for &(a, b) in &frame.bounds {
                    let option = &frame.flat[a as usize..b as usize];
                    let v = option
                        .iter()
                        .fold(0u64, |acc, &h| acc ^ self.slot(&[h]) as u64);
                    values.push(v);
                }
                mex(&mut values)
            } else {
                mex(&mut frame.values)
            };
            let value = u32::try_from(value)
                .ok()
                .filter(|&v| v < ACTIVE)
                .ok_or(SolveError::StateLimit(limits.max_states))?;
            self.set(&frame.key, value, limits)?;
            self.stored += 1;
            if !heap_like {
                if let Some(parent) = stack.last_mut() {
                    parent.values.push(value as u64);
                }
            }
        }
        Ok(())
    }

    fn loop_error(&self, stack: &[Frame], repeated: &[i64]) -> SolveError {
        let start = stack.iter().position(|f| &*f.key == repeated).unwrap_or(0);
        let mut cycle: Vec<String> = stack[start..]
            .iter()
            .map(|f| self.game.describe(&f.key))
            .collect();
        cycle.push(self.game.describe(repeated));
        SolveError::Loop(cycle)
    }
}

#[cfg(test)]
mod tests {
    use super::pack;

    #[test]
    fn packed_states_are_distinct() {
        let states: Vec<Vec<i64>> = vec![
            vec![],
            vec![0],
            vec![0, 0],
            vec![1],
            vec![1, 0],
            vec![0, 1],
            vec![i64::MAX],
            vec![(1 << 24) - 1; 5],
            vec![255; 15],
        ];
        let keys: Vec<u128> = states.iter().map(|s| pack(s).unwrap()).collect();
        for i in 0..keys.len() {
            for j in 0..i {
                assert_ne!(keys[i], keys[j], "{:?} {:?}", states[i], states[j]);
            }
        }
        assert_eq!(pack(&[1 << 24, 0, 0, 0, 0]), None);
        assert_eq!(pack(&[-1]), None);
        assert_eq!(pack(&[0; 16]), None);
        assert_eq!(pack(&[256; 15]), None);
    }
}
