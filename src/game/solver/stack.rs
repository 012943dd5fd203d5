//! The stack of a search in progress: for every state on it, its counters, its options and the
//! values of the options found so far, each kept in one arena shared by all the frames (the top
//! frame's part of each arena is at its end), so that a frame costs its integers and no
//! allocation of its own, and the bytes the stack holds are those of five vectors.

use super::super::budget;

/// One state being searched: where its parts begin in the arenas of the [`Stack`].
pub(super) struct Frame {
    key: usize,
    key_len: usize,
    /// The first of its options' integers in [`Stack::flat`], and the first of its options'
    /// ends in [`Stack::ends`].
    flat: usize,
    ends: usize,
    /// The next child to look at: each heap of each option (heap-like games) or each option
    /// state, counted from the frame's first.
    pub next_child: usize,
    values: usize,
}

/// The frames of a search and their arenas, with what the search is allowed to reach.
#[derive(Default)]
pub(super) struct Stack {
    frames: Vec<Frame>,
    keys: Vec<i64>,
    /// Every option's integers, one option after another.
    pub flat: Vec<i64>,
    /// Where each option ends in `flat`.
    pub ends: Vec<usize>,
    /// For games that are not heap-like, the values of the children seen so far.
    pub values: Vec<u64>,
    /// States pushed since the search began.
    pub pushed: usize,
    /// For a search of a heap-like game from a heap beyond its table: the heap, and how many
    /// states pushed and options listed it may reach before it gives up (the reach is dense).
    pub reach: Option<(i64, usize)>,
    /// In a search from a heap beyond any table, the heaps from the solver's `far_from` on
    /// pushed, and the options they listed: what its reach is measured by.
    pub counted: usize,
    /// The bytes the search holds beside the arenas: its copy of the child it looks at.
    pub aside: usize,
    /// The ledger's charge of what the search holds, lent while a game lists options (see
    /// `Solver::expand`), kept between listings.
    pub lent: Option<super::super::budget::Charge>,
}

/// The grown parts of a [`Stack`] to count: elements about to be added to each arena.
#[derive(Clone, Copy, Default)]
pub(super) struct Growth {
    pub frames: usize,
    pub keys: usize,
    pub flat: usize,
    pub ends: usize,
    pub values: usize,
}

impl Stack {
    /// A stack for a new search.
    pub fn begin(&mut self, reach: Option<(i64, usize)>) {
        self.frames.clear();
        self.keys.clear();
        self.flat.clear();
        self.ends.clear();
        self.values.clear();
        self.pushed = 0;
        self.counted = 0;
        self.aside = 0;
        self.reach = reach;
    }

    /// The bytes the stack holds, and holds while its arenas grow by `growth`.
    pub fn bytes(&self, growth: Growth) -> usize {
        budget::vector(&self.frames, growth.frames)
            + budget::vector(&self.keys, growth.keys)
            + budget::vector(&self.flat, growth.flat)
            + budget::vector(&self.ends, growth.ends)
            + budget::vector(&self.values, growth.values)
            + self.aside
    }

    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Pushes a state whose options were just listed at the end of `flat` and `ends`, from
    /// `flat_start` and `ends_start`.
    pub fn push(&mut self, key: &[i64], flat_start: usize, ends_start: usize) {
        self.frames.push(Frame {
            key: self.keys.len(),
            key_len: key.len(),
            flat: flat_start,
            ends: ends_start,
            next_child: 0,
            values: self.values.len(),
        });
        self.keys.extend_from_slice(key);
        self.pushed += 1;
    }

    pub fn top(&self) -> Option<&Frame> {
        self.frames.last()
    }

    /// Moves the top frame on to its next child.
    pub fn advance(&mut self) {
        if let Some(top) = self.frames.last_mut() {
            top.next_child += 1;
        }
    }

    pub fn key(&self, frame: &Frame) -> &[i64] {
        &self.keys[frame.key..frame.key + frame.key_len]
    }

    /// How many options a frame has.
    pub fn option_count(&self, frame: &Frame) -> usize {
        self.ends.len() - frame.ends
    }

    /// How many heaps a frame's options hold together.
    pub fn heap_count(&self, frame: &Frame) -> usize {
        self.flat.len() - frame.flat
    }

    /// Heap `i` of a frame's options, counted over all of them.
    pub fn heap(&self, frame: &Frame, i: usize) -> i64 {
        self.flat[frame.flat + i]
    }

    /// Option `i` of a frame.
    pub fn option(&self, frame: &Frame, i: usize) -> &[i64] {
        let start = if i == 0 {
            frame.flat
        } else {
            self.ends[frame.ends + i - 1]
        };
        &self.flat[start..self.ends[frame.ends + i]]
    }

    /// Every option of a frame, in order.
    pub fn options<'s>(&'s self, frame: &Frame) -> impl Iterator<Item = &'s [i64]> + 's {
        let mut start = frame.flat;
        self.ends[frame.ends..].iter().map(move |&end| {
            let option = &self.flat[start..end];
            start = end;
            option
        })
    }

    /// Keeps of the top frame's options only those for which `known` gives no value, in their
    /// order, and records the values it gives as the frame's children's values found. Room for
    /// one value per option is reserved first (the caller counts it).
    pub fn settle_top(&mut self, mut known: impl FnMut(&[i64]) -> Option<u64>) {
        let Some(top) = self.frames.last() else {
            return;
        };
        let (mut read, mut write, mut kept) = (top.flat, top.flat, top.ends);
        self.values.reserve(self.ends.len() - top.ends);
        for e in top.ends..self.ends.len() {
            let end = self.ends[e];
            match known(&self.flat[read..end]) {
                Some(value) => self.values.push(value),
                None => {
                    self.flat.copy_within(read..end, write);
                    write += end - read;
                    self.ends[kept] = write;
                    kept += 1;
                }
            }
            read = end;
        }
        self.flat.truncate(write);
        self.ends.truncate(kept);
    }

    /// The values of the children of the top frame found so far.
    pub fn top_values(&mut self) -> &mut [u64] {
        let start = self.frames.last().map_or(0, |f| f.values);
        &mut self.values[start..]
    }

    /// Removes the top frame and what it held; its key stays readable until the next push.
    pub fn pop(&mut self) -> Option<Frame> {
        let frame = self.frames.pop()?;
        self.flat.truncate(frame.flat);
        self.ends.truncate(frame.ends);
        self.values.truncate(frame.values);
        Some(frame)
    }

    /// Forgets the key of a popped frame.
    pub fn drop_key(&mut self, frame: &Frame) {
        self.keys.truncate(frame.key);
    }

    /// Every frame's key, bottom first.
    pub fn keys(&self) -> impl Iterator<Item = &[i64]> + '_ {
        self.frames.iter().map(|f| self.key(f))
    }

    /// Whether the arenas hold more than a search should keep once it is over.
    pub fn is_large(&self) -> bool {
        self.bytes(Growth::default()) > 1 << 20
    }
}
