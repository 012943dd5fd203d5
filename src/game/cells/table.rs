//! The values of stored regions: grid regions in one flat open-addressed table (a key of a
//! `u128` and its box, no allocation per entry), graph regions in a hash map of their rows.
//!
//! Beside them, for grid regions: a second flat table of the values below 64 a region is known
//! not to have (the answers "not in R" of the pruned search), kept apart so that the table of
//! values, read for every part of every option, stays small; and a cache of a fixed size of the
//! values of regions as they were cropped, not yet turned to the least of their images, so that
//! a region met again in the same place is valued without its images or the table (a region
//! takes the one place its hash gives, in place of what was there).

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::shape::Region;

/// One slot of a flat table: a grid region's cells, its box (`width << 8 | height`, 0 for an
/// empty slot) and what is kept of it: its value, or the values it does not have (bit v for v).
#[derive(Clone, Copy, Default)]
struct Slot {
    cells: u128,
    kept: u64,
    dims: u16,
}

/// How many places the cache of cropped regions holds (32 bytes each: 2 MiB).
const RECENT_PLACES: usize = 1 << 16;

/// What a graph region's entry costs beside its rows: key, value and the map's slack.
const GRAPH_ENTRY_BYTES: usize = 64;

/// A flat open-addressed table of grid regions, at most three quarters full.
#[derive(Default)]
struct Flat {
    slots: Vec<Slot>,
    len: usize,
}

impl Flat {
    fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
    }

    /// The bytes it holds while it grows to take one more region (both arrays while the
    /// entries move).
    fn bytes_after_one_more(&self) -> usize {
        match self.needs_growth() {
            true => self.bytes() + (self.slots.len() * 2).max(1024) * std::mem::size_of::<Slot>(),
            false => self.bytes(),
        }
    }

    fn needs_growth(&self) -> bool {
        (self.len + 1) * 4 > self.slots.len() * 3
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

    fn get(&self, cells: u128, dims: u16) -> Option<u64> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = self.slots[self.find(cells, dims)];
        (slot.dims != 0).then_some(slot.kept)
    }

    /// The slot of a region, made (with nothing kept) if it has none.
    fn slot(&mut self, cells: u128, dims: u16) -> &mut Slot {
        if self.needs_growth() {
            self.grow();
        }
        let i = self.find(cells, dims);
        if self.slots[i].dims == 0 {
            self.len += 1;
            self.slots[i] = Slot {
                cells,
                kept: 0,
                dims,
            };
        }
        &mut self.slots[i]
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

#[derive(Default)]
pub(super) struct Table {
    values: Flat,
    nots: Flat,
    graphs: FxHashMap<Arc<[u128]>, u8>,
    rows_bytes: usize,
    /// The cache of cropped regions' values, empty until it is first used.
    recent: Vec<Slot>,
}

fn hash(cells: u128, dims: u16) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let h = (cells as u64 ^ u64::from(dims)).wrapping_mul(K);
    let h = (h.rotate_left(26) ^ (cells >> 64) as u64).wrapping_mul(K);
    h ^ h >> 29
}

/// A grid region's key: its cells and its box.
fn key(region: &Region) -> Option<(u128, u16)> {
    match *region {
        Region::Grid {
            width,
            height,
            cells,
        } => Some((cells, u16::from(width) << 8 | u16::from(height))),
        Region::Graph(_) => None,
    }
}

impl Table {
    /// How many regions have an entry (a value, or values they do not have).
    pub(super) fn len(&self) -> usize {
        self.values.len + self.nots.len + self.graphs.len()
    }

    /// The bytes it holds.
    pub(super) fn bytes(&self) -> usize {
        self.values.bytes()
            + self.nots.bytes()
            + self.graphs.capacity() * GRAPH_ENTRY_BYTES
            + self.rows_bytes
            + self.recent.capacity() * std::mem::size_of::<Slot>()
    }

    /// The bytes it would hold after storing the value of one more region.
    pub(super) fn bytes_after_one_more(&self, region: &Region) -> usize {
        match region {
            Region::Grid { .. } => {
                self.bytes() - self.values.bytes() + self.values.bytes_after_one_more()
            }
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

    /// The bytes it would hold after noting the values one more grid region does not have.
    pub(super) fn bytes_after_one_more_not(&self) -> usize {
        self.bytes() - self.nots.bytes() + self.nots.bytes_after_one_more()
    }

    /// The bytes the cache of cropped regions would add if it were made now.
    pub(super) fn bytes_to_recall(&self) -> usize {
        match self.recent.is_empty() {
            true => RECENT_PLACES * std::mem::size_of::<Slot>(),
            false => 0,
        }
    }

    /// Makes the cache of cropped regions (at most [`Table::bytes_to_recall`] bytes more).
    pub(super) fn start_recalling(&mut self) {
        if self.recent.is_empty() {
            self.recent = vec![Slot::default(); RECENT_PLACES];
        }
    }

    /// The value of a grid region as it was cropped, if it is in the cache.
    pub(super) fn recall(&self, region: &Region) -> Option<u32> {
        let (cells, dims) = key(region)?;
        let slot = self
            .recent
            .get(hash(cells, dims) as usize & (RECENT_PLACES - 1))?;
        (slot.dims == dims && slot.cells == cells).then_some(slot.kept as u32)
    }

    /// Puts the value of a grid region as it was cropped in the cache (once it is made), in
    /// place of what its place held.
    pub(super) fn remember(&mut self, region: &Region, value: u32) {
        if let Some((cells, dims)) = key(region) {
            let place = hash(cells, dims) as usize & (RECENT_PLACES - 1);
            if let Some(slot) = self.recent.get_mut(place) {
                *slot = Slot {
                    cells,
                    kept: value.into(),
                    dims,
                };
            }
        }
    }

    pub(super) fn get(&self, region: &Region) -> Option<u32> {
        match key(region) {
            Some((cells, dims)) => self.values.get(cells, dims).map(|v| v as u32),
            None => match region {
                Region::Graph(rows) => self.graphs.get(rows).map(|&v| u32::from(v)),
                Region::Grid { .. } => None,
            },
        }
    }

    /// The values below 64 a region is known not to have (bit v for v; none known of a graph
    /// region).
    pub(super) fn not(&self, region: &Region) -> u64 {
        key(region)
            .and_then(|(cells, dims)| self.nots.get(cells, dims))
            .unwrap_or(0)
    }

    /// Notes that a grid region's value is none of `not` (bit v for v); nothing for a graph
    /// region.
    pub(super) fn exclude(&mut self, region: &Region, not: u64) {
        if let Some((cells, dims)) = key(region) {
            self.nots.slot(cells, dims).kept |= not;
        }
    }

    /// Stores a value (below 256: a value is at most the number of cells).
    pub(super) fn insert(&mut self, region: Region, value: u32) {
        let value = u8::try_from(value).expect("a value of at most 128");
        match key(&region) {
            Some((cells, dims)) => self.values.slot(cells, dims).kept = value.into(),
            None => {
                if let Region::Graph(rows) = region {
                    let bytes = rows.len() * 16 + 16;
                    if self.graphs.insert(rows, value).is_none() {
                        self.rows_bytes += bytes;
                    }
                }
            }
        }
    }
}
