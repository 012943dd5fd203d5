//! What the memory a search holds costs, in bytes, as the allocator will really take it: hash
//! tables by their buckets, vectors by their capacity, and while either grows, the old and the
//! new buffers at once. Searches check these before they grow, so that the process's peak stays
//! within the memory limit.

use std::collections::HashMap;

/// The bytes of a heap allocation of `size` bytes: the allocator's header, rounded up to 16
/// bytes, and no less than its smallest chunk.
pub fn boxed(size: usize) -> usize {
    if size == 0 {
        0
    } else {
        (size + 8).next_multiple_of(16).max(32)
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
