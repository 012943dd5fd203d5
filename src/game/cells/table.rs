//! What is known of stored regions: a value, or values a region does not have (the answers
//! "not in R" of the pruned search). Grid regions are kept in one flat open-addressed table of
//! 16-byte slots, read for every part of every option, so its size is what the search's speed
//! and memory follow; graph regions, and grid regions too large for a slot, in hash maps.
//!
//! A slot is one `u128`: the region's cells (bits 0 to 103), its width (bits 104 to 110; 0 in
//! an empty slot, as no region is 0 wide; 64 more for a box kept as a bitboard, since the same
//! cells are a 2 x 3 bitboard box and a 2 x 9 box kept 2 apart), what is kept (bits 111 to
//! 126): its value, or the values below 16 it is known not to have (bit v for v), and whether
//! that is its value (bit 127).
//! The height is not kept: a region is cropped to its box, so its last row has a cell, and the
//! height follows from its cells and its width.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::boxes::packed;
use super::shape::Region;

/// What is known of a region: its value, or (bit v for v) values it does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Known {
    Value(u32),
    Not(u64),
}

/// A region's entry as a slot keeps it, beside its key: bit 16 says the low 16 bits are its
/// value, else they are the values below 16 it does not have.
type Kept = u32;

const EXACT: Kept = 1 << 16;

/// The values a region is known not to have that an entry keeps: those below 16.
const NOTS_KEPT: u64 = 0xffff;

/// The cells a slot holds: a region whose box runs past cell 103 goes to the map.
const SLOT_CELLS: u32 = 104;

/// The bits of a slot that say which region it holds: its cells and its width.
const KEY_BITS: u128 = (1 << (SLOT_CELLS + 7)) - 1;

/// What a map's entry costs beside a graph's rows: key, value and the map's slack.
const ENTRY_BYTES: usize = 64;

fn known(kept: Kept) -> Known {
    match kept & EXACT {
        0 => Known::Not(u64::from(kept)),
        _ => Known::Value(kept & 0xffff),
    }
}

/// A flat open-addressed table of grid regions, at most three quarters full.
#[derive(Default)]
struct Flat {
    slots: Vec<u128>,
    len: usize,
}

/// The width bits of a slot: 0 when it is empty.
fn width_of(slot: u128) -> u128 {
    slot >> SLOT_CELLS & 0x7f
}

impl Flat {
    fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<u128>()
    }

    /// The bytes it holds while it grows to take one more region (both arrays while the
    /// entries move).
    fn bytes_after_one_more(&self) -> usize {
        match self.needs_growth() {
            true => self.bytes() + (self.slots.len() * 2).max(1024) * std::mem::size_of::<u128>(),
            false => self.bytes(),
        }
    }

    fn needs_growth(&self) -> bool {
        (self.len + 1) * 4 > self.slots.len() * 3
    }

    /// The place of `key` (cells and width): its slot, or the empty slot it would take.
    fn find(&self, key: u128) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = hash(key) as usize & mask;
        loop {
            let slot = self.slots[i];
            if width_of(slot) == 0 || slot & KEY_BITS == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    fn get(&self, key: u128) -> Option<Kept> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = self.slots[self.find(key)];
        (width_of(slot) != 0).then_some((slot >> (SLOT_CELLS + 7)) as Kept)
    }

    /// Sets what is kept of `key` to `change` of what was (`None` for nothing yet).
    fn update(&mut self, key: u128, change: impl FnOnce(Option<Kept>) -> Kept) {
        if self.needs_growth() {
            self.grow();
        }
        let i = self.find(key);
        let before = self.slots[i];
        let was = (width_of(before) != 0).then_some((before >> (SLOT_CELLS + 7)) as Kept);
        if was.is_none() {
            self.len += 1;
        }
        self.slots[i] = key | u128::from(change(was)) << (SLOT_CELLS + 7);
    }

    fn grow(&mut self) {
        let grown = vec![0u128; (self.slots.len() * 2).max(1024)];
        let old = std::mem::replace(&mut self.slots, grown);
        for slot in old.into_iter().filter(|&s| width_of(s) != 0) {
            let i = self.find(slot & KEY_BITS);
            self.slots[i] = slot;
        }
    }
}

/// Whether a slot holds only values its region does not have: a hint, which the pruned
/// search may lose and find again, where a value is what the limits bound.
fn hint(slot: u128) -> bool {
    width_of(slot) != 0 && (slot >> (SLOT_CELLS + 7)) as Kept & EXACT == 0
}

/// The cells of a slot's region: a hint for a large region took long to find.
fn cells_in(slot: u128) -> u32 {
    (slot & ((1 << SLOT_CELLS) - 1)).count_ones()
}

impl Flat {
    /// Removes a hint from slot `start` on: the one for the fewest cells among the first
    /// [`HINTS_COMPARED`] met within [`HINTS_SOUGHT`] slots (false when there is none).
    fn evict_hint(&mut self, start: usize) -> bool {
        if self.len == 0 {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut least: Option<(u32, usize)> = None;
        let mut met = 0;
        for i in (start..start + HINTS_SOUGHT.min(self.slots.len())).map(|i| i & mask) {
            let slot = self.slots[i];
            if hint(slot) {
                met += 1;
                if least.is_none_or(|(cells, _)| cells_in(slot) < cells) {
                    least = Some((cells_in(slot), i));
                }
                if met == HINTS_COMPARED {
                    break;
                }
            }
        }
        least.map(|(_, i)| self.remove_at(i)).is_some()
    }

    /// Empties slot `i`, then moves back each later slot of its run whose own place is not
    /// between them, so that every key is still found from its place (linear probing's
    /// deletion by backward shift).
    fn remove_at(&mut self, mut i: usize) {
        let mask = self.slots.len() - 1;
        self.slots[i] = 0;
        self.len -= 1;
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let slot = self.slots[j];
            if width_of(slot) == 0 {
                return;
            }
            let home = hash(slot & KEY_BITS) as usize & mask;
            let stays = match i <= j {
                true => i < home && home <= j,
                false => i < home || home <= j,
            };
            if !stays {
                self.slots[i] = slot;
                self.slots[j] = 0;
                i = j;
            }
        }
    }
}

/// How many hints an eviction compares, and in how many slots it looks for them.
const HINTS_COMPARED: usize = 4;
const HINTS_SOUGHT: usize = 256;

fn hash(key: u128) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let h = (key as u64).wrapping_mul(K);
    let h = (h.rotate_left(26) ^ (key >> 64) as u64).wrapping_mul(K);
    h ^ h >> 29
}

/// Where a region's entry is.
enum Place<'a> {
    /// In the flat table, under this key (cells and width).
    Slot(u128),
    /// A grid region too large for a slot: its cells and width.
    Wide(u128, u8),
    Graph(&'a Arc<[u128]>),
}

fn place(region: &Region) -> Place<'_> {
    match region {
        Region::Grid {
            width,
            height,
            cells,
        } => {
            debug_assert!(*width > 0 && *width < 128);
            if *cells >> SLOT_CELLS == 0 {
                // A bitboard box is at most 8 wide; a box 65 wide or more, kept densely in a
                // slot, is one row whose last cell is past the bitboards' 64.
                let tag = match packed((*width).into(), (*height).into()) {
                    true => 64,
                    false => 0,
                };
                Place::Slot(cells | u128::from(*width + tag) << SLOT_CELLS)
            } else {
                Place::Wide(*cells, *width)
            }
        }
        Region::Graph(rows) => Place::Graph(rows),
    }
}

#[derive(Default)]
pub(super) struct Table {
    flat: Flat,
    wide: FxHashMap<(u128, u8), Kept>,
    graphs: FxHashMap<Arc<[u128]>, Kept>,
    rows_bytes: usize,
    /// Where the next hint evicted for no region in particular is looked for.
    sweep: u64,
    /// How many entries are values (never evicted).
    values: usize,
}

impl Table {
    /// How many regions have an entry (a value, or values they do not have).
    pub(super) fn len(&self) -> usize {
        self.flat.len + self.wide.len() + self.graphs.len()
    }

    /// How many regions have their value stored.
    pub(super) fn values(&self) -> usize {
        self.values
    }

    /// The bytes it holds.
    pub(super) fn bytes(&self) -> usize {
        self.flat.bytes()
            + (self.wide.capacity() + self.graphs.capacity()) * ENTRY_BYTES
            + self.rows_bytes
    }

    /// The bytes it would hold after an entry for one more region.
    pub(super) fn bytes_after_one_more(&self, region: &Region) -> usize {
        let grown = |len: usize, capacity: usize| match len == capacity {
            true => capacity.max(8) * ENTRY_BYTES,
            false => 0,
        };
        match place(region) {
            Place::Slot(_) => self.bytes() - self.flat.bytes() + self.flat.bytes_after_one_more(),
            Place::Wide(..) => self.bytes() + grown(self.wide.len(), self.wide.capacity()),
            Place::Graph(rows) => {
                self.bytes()
                    + grown(self.graphs.len(), self.graphs.capacity())
                    + rows.len() * 16
                    + 16
            }
        }
    }

    /// Removes a hint (values a region does not have) from the flat table: near where
    /// `region`'s entry would go, else the next one a sweep of the table meets (false when
    /// the table has none).
    pub(super) fn evict_hint(&mut self, region: Option<&Region>) -> bool {
        let size = self.flat.slots.len();
        if size == 0 {
            return false;
        }
        if let Some(Place::Slot(key)) = region.map(place) {
            if self.flat.evict_hint(hash(key) as usize & (size - 1)) {
                return true;
            }
        }
        for _ in 0..size.div_ceil(HINTS_SOUGHT) {
            self.sweep = self.sweep.wrapping_add(HINTS_SOUGHT as u64);
            if self.flat.evict_hint(self.sweep as usize & (size - 1)) {
                return true;
            }
        }
        false
    }

    /// What is known of a region (`Known::Not(0)`: nothing).
    pub(super) fn known(&self, region: &Region) -> Known {
        let kept = match place(region) {
            Place::Slot(key) => self.flat.get(key),
            Place::Wide(cells, width) => self.wide.get(&(cells, width)).copied(),
            Place::Graph(rows) => self.graphs.get(rows).copied(),
        };
        kept.map_or(Known::Not(0), known)
    }

    /// A region's value, if it is stored.
    pub(super) fn get(&self, region: &Region) -> Option<u32> {
        match self.known(region) {
            Known::Value(v) => Some(v),
            Known::Not(_) => None,
        }
    }

    /// Notes that a region's value is none of `not` (bit v for v; those below 16 are kept),
    /// unless its value is stored.
    pub(super) fn exclude(&mut self, region: &Region, not: u64) {
        let not = (not & NOTS_KEPT) as Kept;
        if not != 0 {
            self.change(region, |was| match was {
                Some(kept) if kept & EXACT != 0 => kept,
                was => was.unwrap_or(0) | not,
            });
        }
    }

    /// Stores a value (below 256: a value is at most the number of cells).
    pub(super) fn insert(&mut self, region: &Region, value: u32) {
        assert!(value <= 128, "a value of at most 128");
        let mut new = true;
        self.change(region, |was| {
            new = was.is_none_or(|kept| kept & EXACT == 0);
            EXACT | value
        });
        self.values += usize::from(new);
    }

    fn change(&mut self, region: &Region, change: impl FnOnce(Option<Kept>) -> Kept) {
        match place(region) {
            Place::Slot(key) => self.flat.update(key, change),
            Place::Wide(cells, width) => {
                let kept = change(self.wide.get(&(cells, width)).copied());
                self.wide.insert((cells, width), kept);
            }
            Place::Graph(rows) => {
                let kept = change(self.graphs.get(rows).copied());
                if self.graphs.insert(rows.clone(), kept).is_none() {
                    self.rows_bytes += rows.len() * 16 + 16;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bitboard_box_and_a_dense_box_of_the_same_cells_are_two_entries() {
        // Rows 0, 1, 2 of a 2-wide bitboard, or rows 0, 4, 8 of a 2 x 9 box kept 2 apart.
        let cells = 0b11 | 0b11 << 8 | 0b11 << 16;
        let small = Region::Grid {
            width: 2,
            height: 3,
            cells,
        };
        let tall = Region::Grid {
            width: 2,
            height: 9,
            cells,
        };
        let mut table = Table::default();
        table.insert(&small, 1);
        table.insert(&tall, 2);
        assert_eq!((table.get(&small), table.get(&tall)), (Some(1), Some(2)));
    }

    #[test]
    fn hints_go_and_every_value_is_still_found() {
        let mut table = Table::default();
        let mut x = 0x243f_6a88_85a3_08d3u64;
        let mut regions = Vec::new();
        for i in 0..5000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let region = Region::Grid {
                width: 8,
                height: 8,
                cells: u128::from(x) | 1,
            };
            match i % 3 {
                0 => table.insert(&region, i % 100),
                _ => table.exclude(&region, 1 << (i % 16)),
            }
            regions.push((region, i));
        }
        let values = table.values();
        assert_eq!(values, 1667);
        while table.evict_hint(None) {}
        assert_eq!(table.len(), values, "every hint went, no value");
        for (region, i) in &regions {
            let expected = match i % 3 {
                0 => Known::Value(i % 100),
                _ => Known::Not(0),
            };
            assert_eq!(table.known(region), expected);
        }
    }
}
