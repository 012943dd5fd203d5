//! What the memory a search holds costs, in bytes, as the allocator will really take it: hash
//! tables by their buckets, vectors by their capacity, and while either grows, the old and the
//! new buffers at once. Searches check these before they grow, so that the process's peak stays
//! within the memory limit.
//!
//! It is also the one account of everything else a session holds ([`Ledger`]): the values of
//! globals, lists and answers being built, files read, pictures. Whatever holds memory outside a
//! search takes a [`Charge`] on the ledger before it grows, and a search's room is the limit less
//! what the ledger holds ([`super::Limits::room`]), so that both together stay within one limit.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The bytes of a heap allocation of `size` bytes: the allocator's header, rounded up to 16
/// bytes, and no less than its smallest chunk.
pub const fn boxed(size: usize) -> usize {
    if size == 0 {
        0
    } else {
        let rounded = (size + 8).next_multiple_of(16);
        if rounded < 32 {
            32
        } else {
            rounded
        }
    }
}

/// The buckets of a hash table (hashbrown) that holds `items`: a power of two, 7/8 of them
/// usable from 8 buckets on.
fn buckets_for(items: usize) -> usize {
    match items {
        0 => 0,
        1..4 => 4,
        4..8 => 8,
        _ => (items * 8).div_ceil(7).next_power_of_two(),
    }
}

fn table_of(buckets: usize, entry: usize) -> usize {
    if buckets == 0 {
        0
    } else {
        boxed(buckets * (entry + 1) + 16)
    }
}

/// The bytes of a hash table, and with `grows` while it takes one more entry: when it is full,
/// its buckets and those it moves into.
pub fn table<K, V, S>(map: &HashMap<K, V, S>, grows: bool) -> usize {
    table_bytes(map.len(), map.capacity(), size_of::<(K, V)>(), grows)
}

/// [`table`] of a hashbrown table of `T`.
pub fn hash_table<T>(table: &hashbrown::HashTable<T>, grows: bool) -> usize {
    table_bytes(table.len(), table.capacity(), size_of::<T>(), grows)
}

fn table_bytes(len: usize, capacity: usize, entry: usize, grows: bool) -> usize {
    let now = table_of(buckets_for(capacity), entry);
    if grows && len == capacity {
        now + table_of(buckets_for(len + 1), entry)
    } else {
        now
    }
}

/// The bytes of a vector, and while it grows to take `extra` more elements: its buffer and the
/// one it moves into (twice as large, as `Vec` grows).
pub fn vector<T>(v: &Vec<T>, extra: usize) -> usize {
    let size = size_of::<T>();
    let now = boxed(v.capacity() * size);
    let need = v.len() + extra;
    if need <= v.capacity() {
        now
    } else {
        now + boxed(need.max(2 * v.capacity()).max(4) * size)
    }
}

/// The bytes a session holds outside its searches, shared by every clone (the interpreter, its
/// sweep workers, the engine's limits). The limit is not the ledger's: each charge is made under
/// the limit of the limits it comes from ([`super::Limits::charge`]).
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    held: Arc<AtomicUsize>,
}

/// A charge would take the ledger past its limit: the limit, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverLimit(pub usize);

impl Ledger {
    /// The bytes held by every charge now.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    /// A charge of nothing yet under `limit`, to grow as what it counts grows.
    pub fn charge(&self, limit: usize) -> Charge {
        Charge {
            ledger: self.clone(),
            limit,
            bytes: 0,
        }
    }
}

/// Bytes held on a [`Ledger`] by one thing (a list being built, a global's value, an answer),
/// given back when it is dropped.
#[derive(Debug)]
pub struct Charge {
    ledger: Ledger,
    limit: usize,
    bytes: usize,
}

impl Charge {
    /// The bytes charged now.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The limit it is charged under.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Charges `bytes` in all (more or less than before); refused, and nothing changed, when
    /// the growth does not fit.
    pub fn set(&mut self, bytes: usize) -> Result<(), OverLimit> {
        if bytes > self.bytes {
            self.grow(bytes - self.bytes)
        } else {
            self.ledger
                .held
                .fetch_sub(self.bytes - bytes, Ordering::Relaxed);
            self.bytes = bytes;
            Ok(())
        }
    }

    /// Charges `bytes` more; refused, and nothing changed, when they do not fit.
    pub fn grow(&mut self, bytes: usize) -> Result<(), OverLimit> {
        let held = self.ledger.held.fetch_add(bytes, Ordering::Relaxed);
        if held.saturating_add(bytes) > self.limit {
            self.ledger.held.fetch_sub(bytes, Ordering::Relaxed);
            return Err(OverLimit(self.limit));
        }
        self.bytes += bytes;
        Ok(())
    }

    /// Charges `bytes` in all whether or not they fit: memory already held (a search's tables,
    /// kept within the room while they grew), which the ledger must count all the same.
    pub fn hold(&mut self, bytes: usize) {
        if self.set(bytes).is_err() {
            self.ledger
                .held
                .fetch_add(bytes - self.bytes, Ordering::Relaxed);
            self.bytes = bytes;
        }
    }

    /// Whether `bytes` more would fit, charging nothing.
    pub fn fits(&self, bytes: usize) -> Result<(), OverLimit> {
        if self.ledger.held().saturating_add(bytes) > self.limit {
            Err(OverLimit(self.limit))
        } else {
            Ok(())
        }
    }

    /// Gives the bytes back and says how many they were (to charge them to what takes over).
    pub fn release(mut self) -> usize {
        self.release_all()
    }

    fn release_all(&mut self) -> usize {
        let bytes = self.bytes;
        self.ledger.held.fetch_sub(bytes, Ordering::Relaxed);
        self.bytes = 0;
        bytes
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.release_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    #[test]
    fn tables_are_counted_by_their_buckets() {
        let mut map: FxHashMap<u64, u64> = FxHashMap::default();
        assert_eq!(table(&map, false), 0);
        for i in 0..1000u64 {
            let before = buckets_for(map.capacity());
            let predicted = table(&map, true) - table(&map, false);
            map.insert(i, i);
            let after = buckets_for(map.capacity());
            // What `table` predicts for a growth is the table it grows into.
            if after != before {
                assert_eq!(predicted, table_of(after, 16), "at {i}");
            } else {
                assert_eq!(predicted, 0, "at {i}");
            }
            assert!(map.capacity() < after.max(1), "capacity below its buckets");
        }
    }

    #[test]
    fn charges_share_one_limit_and_give_back_when_dropped() {
        let ledger = Ledger::default();
        let mut a = ledger.charge(1000);
        let mut b = ledger.clone().charge(1000);
        a.grow(600).unwrap();
        assert_eq!(b.grow(500), Err(OverLimit(1000)));
        assert_eq!(ledger.held(), 600);
        b.set(400).unwrap();
        assert_eq!(b.fits(1), Err(OverLimit(1000)));
        a.set(100).unwrap();
        assert_eq!(ledger.held(), 500);
        // What is already held is counted past the limit, and given back as usual.
        a.hold(900);
        assert_eq!(ledger.held(), 1300);
        a.hold(100);
        assert_eq!(ledger.held(), 500);
        assert_eq!(a.release(), 100);
        drop(b);
        assert_eq!(ledger.held(), 0);
    }

    #[test]
    fn vectors_are_counted_by_their_capacity() {
        let mut v: Vec<u64> = Vec::new();
        for i in 0..1000u64 {
            let predicted = vector(&v, 1);
            let old = v.capacity();
            v.push(i);
            if v.capacity() != old {
                assert_eq!(predicted, boxed(old * 8) + boxed(v.capacity() * 8));
            } else {
                assert_eq!(predicted, boxed(old * 8));
            }
        }
    }
}
