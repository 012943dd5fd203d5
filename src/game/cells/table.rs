//! The values of stored regions: grid regions in one flat open-addressed table (a key of a
//! `u128` and its box, no allocation per entry), graph regions in a hash map of their rows.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::shape::Region;

/// One slot of the flat table: a grid region's cells, its box (`width << 8 | height`, 0 for an
/// empty slot) and its value.
#[derive(Clone, Copy, Default)]
struct Slot {
    cells: u128,
    dims: u16,
    value: u8,
}

/// What a graph region's entry costs beside its rows: key, value and the map's slack.
const GRAPH_ENTRY_BYTES: usize = 64;

#[derive(Default)]
pub(super) struct Table {
    slots: Vec<Slot>,
    grids: usize,
    graphs: FxHashMap<Arc<[u128]>, u8>,
    rows_bytes: usize,
}

fn hash(cells: u128, dims: u16) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let h = (cells as u64 ^ u64::from(dims)).wrapping_mul(K);
    let h = (h.rotate_left(26) ^ (cells >> 64) as u64).wrapping_mul(K);
    h ^ h >> 29
}

impl Table {
    /// How many regions have a value.
    pub(super) fn len(&self) -> usize {
        self.grids + self.graphs.len()
    }

    /// The bytes it holds.
    pub(super) fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
            + self.graphs.capacity() * GRAPH_ENTRY_BYTES
            + self.rows_bytes
    }

    /// The bytes it would hold after storing one more region.
    pub(super) fn bytes_after_one_more(&self, region: &Region) -> usize {
        match region {
            Region::Grid { .. } if self.needs_growth() => {
                // Both tables are held while the entries move.
                let grown = (self.slots.len() * 2).max(1024);
                self.bytes() + grown * std::mem::size_of::<Slot>()
            }
            Region::Grid { .. } => self.bytes(),
            Region::Graph(rows) => {
                let grown = if self.graphs.len() == self.graphs.capacity() {
                    self.graphs.capacity().max(8) * GRAPH_ENTRY_BYTES
                } else {
                    0
                };
                self.bytes() + grown + rows.len() * 16 + 16
            }
        }
    }

    fn needs_growth(&self) -> bool {
        (self.grids + 1) * 4 > self.slots.len() * 3
    }

    fn find(&self, cells: u128, dims: u16) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = hash(cells, dims) as usize & mask;
        loop {
            let slot = &self.slots[i];
            if slot.dims == 0 || (slot.dims == dims && slot.cells == cells) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    pub(super) fn get(&self, region: &Region) -> Option<u32> {
        match *region {
            Region::Grid {
                width,
                height,
                cells,
            } => {
                if self.slots.is_empty() {
                    return None;
                }
                let dims = u16::from(width) << 8 | u16::from(height);
                let slot = self.slots[self.find(cells, dims)];
                (slot.dims != 0).then_some(u32::from(slot.value))
            }
            Region::Graph(ref rows) => self.graphs.get(rows).map(|&v| u32::from(v)),
        }
    }

    /// Stores a value (below 256: a value is at most the number of cells).
    pub(super) fn insert(&mut self, region: Region, value: u32) {
        let value = u8::try_from(value).expect("a value of at most 128");
        match region {
            Region::Grid {
                width,
                height,
                cells,
            } => {
                if self.needs_growth() {
                    self.grow();
                }
                let dims = u16::from(width) << 8 | u16::from(height);
                let i = self.find(cells, dims);
                if self.slots[i].dims == 0 {
                    self.grids += 1;
                }
                self.slots[i] = Slot { cells, dims, value };
            }
            Region::Graph(rows) => {
                let bytes = rows.len() * 16 + 16;
                if self.graphs.insert(rows, value).is_none() {
                    self.rows_bytes += bytes;
                }
            }
        }
    }

    fn grow(&mut self) {
        let grown = vec![Slot::default(); (self.slots.len() * 2).max(1024)];
        let old = std::mem::replace(&mut self.slots, grown);
        for slot in old.into_iter().filter(|s| s.dims != 0) {
            let i = self.find(slot.cells, slot.dims);
            self.slots[i] = slot;
        }
    }
}
