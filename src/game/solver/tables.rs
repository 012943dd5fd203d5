//! The tables a search stores its values in: a dense table for heap-like games, hash maps of
//! packed and boxed keys for the others. Each counts its bytes as [`budget`] does, and checks
//! the memory limit before it grows.

use rustc_hash::FxHashMap;

use super::super::budget;
use super::super::{Limits, SolveError};
use super::{pack, ACTIVE, UNKNOWN};

/// The table of a solver about to take an entry.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Table {
    Packed,
    Sparse,
    Reached,
    Searching,
}

fn within(bytes: usize, limits: &Limits) -> Result<(), SolveError> {
    if bytes > limits.room() {
        return Err(SolveError::MemoryLimit(limits.max_memory));
    }
    Ok(())
}

/// Stores `value` under `key` in a table whose growth was checked (when `key` is new). A key
/// already there has its value replaced in place: `insert` first makes room for one more entry
/// (hashbrown reserves before it looks), so it would grow a full table past what was checked.
fn put<K: std::hash::Hash + Eq>(map: &mut FxHashMap<K, u32>, key: K, value: u32) {
    match map.get_mut(&key) {
        Some(slot) => *slot = value,
        None => {
            map.insert(key, value);
        }
    }
}

/// The values of a heap-like game: every heap below `filled` in order, and the heaps beyond the
/// table that searches of sparse reach valued.
#[derive(Default)]
pub(super) struct DenseTable {
    values: Vec<u32>,
    /// Every heap below this one has its value stored.
    pub filled: usize,
    /// Heaps beyond the dense table, valued by a search from a target that reaches few heaps.
    reached: FxHashMap<i64, u32>,
    /// The heaps from `far_from` on that the search from a heap beyond any table, running now,
    /// has valued: that search reads no other value of such heaps (see `Solver::heap_value`).
    pub searching: FxHashMap<i64, u32>,
}

impl DenseTable {
    /// The slot of `heap`; during a search from a heap beyond any table, heaps from `far_from`
    /// on are read only from what that search valued.
    pub fn slot(&self, heap: i64, far_from: Option<i64>) -> u32 {
        if far_from.is_some_and(|end| heap >= end) {
            return self.searching.get(&heap).copied().unwrap_or(UNKNOWN);
        }
        let dense = usize::try_from(heap)
            .ok()
            .and_then(|n| self.values.get(n))
            .copied()
            .unwrap_or(UNKNOWN);
        if dense != UNKNOWN || self.reached.is_empty() {
            return dense;
        }
        self.reached.get(&heap).copied().unwrap_or(UNKNOWN)
    }

    pub fn bytes(&self, growing: Option<Table>) -> usize {
        budget::boxed(self.values.capacity() * 4)
            + budget::table(&self.reached, growing == Some(Table::Reached))
            + budget::table(&self.searching, growing == Some(Table::Searching))
    }

    /// Stores the value of `heap`: with the search's own from `far_from` on (see [`slot`]),
    /// beyond the table when a search of sparse reach (`reaching`) found it, else in the table,
    /// grown to take it. `held`: the other bytes the solver holds.
    ///
    /// [`slot`]: DenseTable::slot
    pub fn set(
        &mut self,
        heap: i64,
        value: u32,
        (reaching, far_from): (bool, Option<i64>),
        held: usize,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let n = heap as usize;
        if far_from.is_some_and(|end| heap >= end) {
            if !self.searching.contains_key(&heap) {
                within(self.bytes(Some(Table::Searching)) + held, limits)?;
            }
            put(&mut self.searching, heap, value);
        } else if n < self.values.len() {
            self.values[n] = value;
        } else if reaching {
            if !self.reached.contains_key(&heap) {
                within(self.bytes(Some(Table::Reached)) + held, limits)?;
            }
            put(&mut self.reached, heap, value);
        } else {
            if n >= limits.max_states {
                return Err(SolveError::StateLimit(limits.max_states));
            }
            let grown = (n + 1).max(self.values.len() * 2).min(limits.max_states);
            within(self.bytes(None) + held + budget::boxed(grown * 4), limits)?;
            self.values.resize(grown, UNKNOWN);
            let values = &mut self.values;
            self.reached
                .retain(|&h, &mut v| match values.get_mut(h as usize) {
                    Some(slot) if v < ACTIVE => {
                        *slot = v;
                        false
                    }
                    _ => true,
                });
            self.values[n] = value;
        }
        Ok(())
    }

    pub fn unset(&mut self, heap: i64) {
        match self.values.get_mut(heap as usize) {
            Some(slot) if *slot == ACTIVE => *slot = UNKNOWN,
            _ => {
                self.reached.remove(&heap);
                self.searching.remove(&heap);
            }
        }
    }
}

/// The values of a game that is not heap-like: states that fit packed into one integer (see
/// [`pack`]), cheaper to hash and compare, and the others boxed.
#[derive(Default)]
pub(super) struct HashedTable {
    packed: FxHashMap<u128, u32>,
    sparse: FxHashMap<Box<[i64]>, u32>,
    /// The bytes of the keys of `sparse`, each its own allocation.
    key_bytes: usize,
}

impl HashedTable {
    /// The slot of a state, its packed form given.
    pub fn slot(&self, state: &[i64], key: Option<u128>) -> u32 {
        match key {
            Some(key) => self.packed.get(&key),
            None => self.sparse.get(state),
        }
        .copied()
        .unwrap_or(UNKNOWN)
    }

    pub fn bytes(&self, growing: Option<Table>) -> usize {
        budget::table(&self.packed, growing == Some(Table::Packed))
            + budget::table(&self.sparse, growing == Some(Table::Sparse))
            + self.key_bytes
    }

    /// The bytes of the table once it holds `state` too (not held yet).
    pub fn bytes_with(&self, state: &[i64], key: Option<u128>) -> usize {
        match key {
            Some(_) => self.bytes(Some(Table::Packed)),
            None => self.bytes(Some(Table::Sparse)) + budget::boxed(state.len() * 8),
        }
    }

    pub fn contains(&self, state: &[i64], key: Option<u128>) -> bool {
        match key {
            Some(key) => self.packed.contains_key(&key),
            None => self.sparse.contains_key(state),
        }
    }

    /// Stores the value of `state`, checking first that a new entry keeps the table and the
    /// `held` bytes within the memory limit.
    pub fn set(
        &mut self,
        state: &[i64],
        value: u32,
        held: usize,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let key = pack(state);
        if !self.contains(state, key) {
            let (table, more) = match key {
                Some(_) => (Table::Packed, 0),
                None => (Table::Sparse, budget::boxed(state.len() * 8)),
            };
            within(self.bytes(Some(table)) + held + more, limits)?;
        }
        self.insert(state, key, value);
        Ok(())
    }

    /// Stores the value of `state` without a check (a sweep worker's, counted by the sweep).
    pub fn insert(&mut self, state: &[i64], key: Option<u128>, value: u32) {
        match key {
            Some(key) => put(&mut self.packed, key, value),
            None => match self.sparse.get_mut(state) {
                Some(slot) => *slot = value,
                None => {
                    self.sparse.insert(state.into(), value);
                    self.key_bytes += budget::boxed(state.len() * 8);
                }
            },
        }
    }

    pub fn unset(&mut self, state: &[i64]) {
        match pack(state) {
            Some(key) => {
                self.packed.remove(&key);
            }
            None => {
                if self.sparse.remove(state).is_some() {
                    self.key_bytes -= budget::boxed(state.len() * 8);
                }
            }
        }
    }

    /// Takes in the values of a parallel sweep's shards, as many as fit: the table grows only
    /// while it stays within `room` bytes (the sweep counted its values by an estimate, and a
    /// table grows into one twice its size while it still holds the old). A value left out is
    /// searched again when it is asked for. The shards not taken in yet are held too, so they
    /// count against `room` until each is dropped. How many states it took.
    pub fn absorb(&mut self, shards: Vec<Shard>, room: usize) -> usize {
        let mut taken = 0;
        let mut unread: usize = shards.iter().map(shard_bytes).sum();
        for shard in shards {
            let here = shard_bytes(&shard);
            let (packed, sparse) = shard;
            for (key, value) in packed {
                if !self.packed.contains_key(&key) {
                    if self.bytes(Some(Table::Packed)) + unread > room {
                        continue;
                    }
                    taken += 1;
                }
                put(&mut self.packed, key, value);
            }
            for (key, value) in sparse {
                if let Some(slot) = self.sparse.get_mut(&key) {
                    *slot = value;
                    continue;
                }
                let more = budget::boxed(key.len() * 8);
                if self.bytes(Some(Table::Sparse)) + more + unread > room {
                    continue;
                }
                taken += 1;
                self.key_bytes += more;
                self.sparse.insert(key, value);
            }
            unread -= here;
        }
        taken
    }
}

/// One shard of a parallel sweep's values: states that pack into an integer, and the others.
pub(in crate::game) type Shard = (FxHashMap<u128, u32>, FxHashMap<Box<[i64]>, u32>);

/// The bytes a shard holds: its tables and the boxed keys.
fn shard_bytes((packed, sparse): &Shard) -> usize {
    let keys: usize = sparse.keys().map(|k| budget::boxed(k.len() * 8)).sum();
    budget::table(packed, false) + budget::table(sparse, false) + keys
}
