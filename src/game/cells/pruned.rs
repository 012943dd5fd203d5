//! The value of a region without the value of every option: the searches of Lemoine and
//! Viennot ("Nimbers are inevitable", 2012) and of Beling and Rogalski ("On pruning search
//! trees of impartial games", 2020).
//!
//! Two questions are asked of a region, on an explicit stack:
//!
//! - *its value* (`Ask::Value`): for k = 0, 1, 2, ... in turn, is some option of value k? Each
//!   option not yet valued is asked only whether its value is k (`Ask::Within({k})`); the first
//!   k no option has is the value. An option whose parts are all stored gives its value at once;
//!   an option of several parts has all but its largest part valued, and the largest is asked
//!   for k XOR the others (the option is their sum).
//! - *its value if it lies in a set R* (`Ask::Within(R)`): the value is the least number no
//!   option has, and at most the number of options. With m options still to look at, it is one
//!   of the m + 1 least numbers W that no option looked at has, among 0 ..= max R (each option
//!   takes at most one away); so once W misses R the answer is "not in R". An option is asked
//!   only for the numbers of W but the greatest: whether it has that one or none of W, the
//!   window of the next option is W without its greatest. The answer, when every option is
//!   looked at, is the one number left in W (exact, and stored), or "not in R".
//!
//! Exact values are stored in the table the full search fills; in their place, the table keeps
//! the values below 16 a region is known not to have (each "not in R" answer). Such values
//! count as taken by an option when the region is asked again: the value g is the least
//! number no option has, and a number known not to be g is either one some option has or above
//! g, so the least number neither taken nor known not to be g is still g, and the counting
//! above holds with them (each option not looked at still takes at most one number away).
//!
//! For Cram, a part that is a path is valued from the values of paths (`CellSolver::paths`),
//! neither put in its canonical form nor looked up.

use super::boxes::off_centre;
use super::shape::{mirrored, unpack, Region};
use super::table::Known;
use super::{CellSolver, SolveError};
use crate::game::Limits;

/// A set of values below 256 (a value is at most the number of cells, 128).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Nims([u64; 4]);

impl Nims {
    fn one(v: u32) -> Nims {
        let mut s = Nims::default();
        s.insert(v);
        s
    }

    /// `0 ..= top`.
    fn upto(top: u32) -> Nims {
        let mut s = Nims::default();
        for (i, word) in s.0.iter_mut().enumerate() {
            let start = 64 * i as u32;
            if top >= start + 63 {
                *word = u64::MAX;
            } else if top >= start {
                *word = (1u64 << (top - start + 1)) - 1;
            }
        }
        s
    }

    fn insert(&mut self, v: u32) {
        self.0[(v / 64) as usize] |= 1 << (v % 64);
    }

    fn remove(&mut self, v: u32) {
        self.0[(v / 64) as usize] &= !(1 << (v % 64));
    }

    fn contains(&self, v: u32) -> bool {
        v < 256 && self.0[(v / 64) as usize] >> (v % 64) & 1 == 1
    }

    fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    fn and(&self, other: &Nims) -> Nims {
        Nims(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    fn without(&self, other: &Nims) -> Nims {
        Nims(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..4u32).flat_map(move |i| {
            let mut word = self.0[i as usize];
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let v = word.trailing_zeros();
                    word &= word - 1;
                    64 * i + v
                })
            })
        })
    }

    fn max(&self) -> Option<u32> {
        (0..4)
            .rev()
            .find(|&i| self.0[i] != 0)
            .map(|i| 64 * i as u32 + 63 - self.0[i].leading_zeros())
    }

    /// The `count` least values (all of them when there are fewer) and whether there were
    /// at least `count`.
    fn least(&self, count: usize) -> (Nims, bool) {
        let mut out = Nims::default();
        let mut taken = 0;
        for v in self.iter() {
            if taken == count {
                break;
            }
            out.insert(v);
            taken += 1;
        }
        (out, taken == count)
    }

    /// Every value XOR `x`.
    fn xor(&self, x: u32) -> Nims {
        if x == 0 {
            return *self;
        }
        let mut out = Nims::default();
        self.iter().for_each(|v| out.insert(v ^ x));
        out
    }
}

/// What is asked of a region.
#[derive(Clone, Copy, Debug)]
enum Ask {
    Value,
    Within(Nims),
}

/// What a question gets: the value, or that it is not in the set asked.
#[derive(Clone, Copy, Debug)]
enum Answer {
    Value(u32),
    Outside,
}

/// An option not yet valued: the XOR of its parts valued so far, and its parts not yet valued
/// (`parts[first..first + left]`, the largest first).
#[derive(Clone, Copy)]
struct Pending {
    xor: u32,
    first: usize,
    left: usize,
    open: bool,
}

/// What a frame waits for from the question above it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Waiting {
    Nothing,
    /// The value of the last part of the current option.
    Part,
    /// The answer about the first (largest) part of the current option.
    Main,
}

/// One region being asked about.
struct Frame {
    region: Region,
    ask: Ask,
    /// No value is above it: the number of options (and of cells).
    bound: u32,
    /// Values some option is known to have.
    taken: Nims,
    /// This frame's options in `pending` and parts in `parts`.
    pending: usize,
    parts: usize,
    end: usize,
    /// The option being looked at.
    at: usize,
    /// For `Ask::Value`: the value being tried.
    k: u32,
    waiting: Waiting,
}

/// The arenas of one search, kept between searches.
#[derive(Default)]
pub(super) struct Stacks {
    frames: Vec<Frame>,
    pending: Vec<Pending>,
    parts: Vec<Region>,
    /// Scratch for `open`: one option's parts; the options with their difficulty.
    scratch: Vec<Region>,
    options: Vec<(u32, usize)>,
}

impl Stacks {
    pub(super) fn bytes(&self) -> usize {
        self.frames.capacity() * std::mem::size_of::<Frame>()
            + self.pending.capacity() * std::mem::size_of::<Pending>()
            + (self.parts.capacity() + self.scratch.capacity()) * std::mem::size_of::<Region>()
            + self.options.capacity() * 8
    }

    fn clear(&mut self) {
        self.frames.clear();
        self.pending.clear();
        self.parts.clear();
    }
}

/// What the step of a frame leads to.
enum Step {
    Ask(Region, Ask),
    Done(Answer),
}

impl CellSolver {
    /// The value of a region by the pruned searches.
    pub(super) fn pruned(&mut self, root: Region, limits: &Limits) -> Result<u32, SolveError> {
        let mut stacks = std::mem::take(&mut self.stacks);
        stacks.clear();
        let result = self.pruned_in(&mut stacks, root, limits);
        stacks.clear();
        self.stacks = stacks;
        result
    }

    fn pruned_in(
        &mut self,
        st: &mut Stacks,
        root: Region,
        limits: &Limits,
    ) -> Result<u32, SolveError> {
        match self.open(st, root, Ask::Value, limits) {
            Some(Answer::Value(v)) => Ok(v),
            Some(Answer::Outside) => unreachable!("a value is always answered"),
            None => {
                self.within(st.frames.len(), st.bytes(), limits)?;
                self.run(st, limits)
            }
        }
    }

    fn run(&mut self, st: &mut Stacks, limits: &Limits) -> Result<u32, SolveError> {
        let mut answer: Option<Answer> = None;
        let mut visits = 0u32;
        loop {
            let step = {
                let frame = st.frames.last_mut().expect("a frame");
                step(frame, &mut st.pending, &st.parts, answer.take())
            };
            match step {
                Step::Done(a) => {
                    let frame = st.frames.pop().expect("a frame");
                    match (a, frame.ask) {
                        (Answer::Value(v), _) => {
                            self.keep(frame.region, v, st.frames.len(), st.bytes(), limits)?;
                        }
                        (Answer::Outside, Ask::Within(r)) => {
                            let held = st.bytes();
                            self.exclude(&frame.region, r.0[0], st.frames.len(), held, limits);
                        }
                        (Answer::Outside, Ask::Value) => unreachable!("a value is answered"),
                    }
                    st.pending.truncate(frame.pending);
                    st.parts.truncate(frame.parts);
                    if st.frames.is_empty() {
                        return match a {
                            Answer::Value(v) => Ok(v),
                            Answer::Outside => unreachable!("the root asks for a value"),
                        };
                    }
                    answer = Some(a);
                }
                Step::Ask(region, ask) => {
                    visits = visits.wrapping_add(1);
                    if visits.is_multiple_of(1024) {
                        limits.check_interrupt()?;
                    }
                    answer = self.open(st, region, ask, limits);
                    if answer.is_none() {
                        self.within(st.frames.len(), st.bytes(), limits)?;
                    }
                }
            }
        }
    }

    /// Starts a question: its answer at once when the region is stored or the question is
    /// settled by counting, else a new frame on the stack (and `None`).
    fn open(
        &mut self,
        st: &mut Stacks,
        region: Region,
        ask: Ask,
        limits: &Limits,
    ) -> Option<Answer> {
        let not = match self.table.known(&region) {
            Known::Value(v) => return Some(Answer::Value(v)),
            Known::Not(not) => not,
        };
        if let Ask::Within(r) = ask {
            if r.without(&Nims([not, 0, 0, 0])).is_empty() {
                return Some(Answer::Outside);
            }
        }
        let mirror = self
            .mirror
            .and_then(|(one, pairs)| mirrored(&region, one, pairs));
        if mirror == Some(true) {
            return Some(Answer::Value(0));
        }
        let (space, set) = unpack(&region);
        let centre = match region {
            Region::Grid { width, height, .. } => Some((width.into(), height.into())),
            Region::Graph(_) => None,
        };
        let moves = space.count_options(&self.rules.moves, set);
        let bound = moves.min(region.size());
        if let Ask::Within(r) = ask {
            if r.and(&Nims::upto(bound)).is_empty() {
                return Some(Answer::Outside);
            }
        }
        let (pending, parts) = (st.pending.len(), st.parts.len());
        // The values it is known not to have count as taken (the module's doc says why).
        let mut taken = Nims([not, 0, 0, 0]);
        if mirror == Some(false) {
            taken.insert(0);
        }
        let symmetric = self.rules.symmetric;
        let split = self.rules.split;
        let table = &self.table;
        let lone = self.lone;
        let reduce = self.pairs_only;
        let mirror_rules = self.mirror;
        let paths = self.paths.as_deref();
        let mut option_parts = std::mem::take(&mut st.scratch);
        let mut options = std::mem::take(&mut st.options);
        options.clear();
        // For a set R asked: the values it may have in R, none once options have them all.
        let mut wanted = match ask {
            Ask::Within(r) => r.and(&Nims::upto(bound)),
            Ask::Value => Nims::upto(bound),
        };
        wanted = wanted.without(&taken);
        let within = matches!(ask, Ask::Within(_));
        if within && wanted.is_empty() {
            return Some(Answer::Outside);
        }
        space.options(&self.rules.moves, set, &mut |option| {
            option_parts.clear();
            let mut xor = 0;
            let mut add = |part: u128| {
                if part & (part - 1) == 0 {
                    xor ^= lone;
                    return;
                }
                if let Some(n) = paths.and_then(|_| space.path(part)) {
                    xor ^= u32::from(paths.expect("paths")[n as usize]);
                    return;
                }
                let part = space.region(part, symmetric);
                match table.get(&part) {
                    Some(v) => xor ^= v,
                    None if mirror_rules.and_then(|(o, p)| mirrored(&part, o, p)) == Some(true) => {
                    }
                    None => match option_parts.iter().position(|p| *p == part) {
                        // Two equal parts are worth 0 together.
                        Some(i) => {
                            option_parts.swap_remove(i);
                        }
                        None => option_parts.push(part),
                    },
                }
            };
            let moved = set ^ option;
            let option = if reduce {
                space.reduced(option)
            } else {
                option
            };
            if split {
                space.parts(option, &mut add);
            } else if option != 0 {
                add(option);
            }
            if option_parts.is_empty() {
                taken.insert(xor);
                wanted.remove(xor);
                return !(within && wanted.is_empty());
            } else {
                option_parts.sort_unstable_by_key(|p| std::cmp::Reverse(p.size()));
                let mut hard: u32 = option_parts.iter().map(|p| p.size() * p.size()).sum();
                if let Some((width, height)) = centre {
                    hard = hard << 8 | off_centre(width, height, moved);
                }
                options.push((hard, st.pending.len()));
                st.pending.push(Pending {
                    xor,
                    first: st.parts.len(),
                    left: option_parts.len(),
                    open: true,
                });
                st.parts.append(&mut option_parts);
            }
            true
        });
        if within && wanted.is_empty() {
            st.pending.truncate(pending);
            st.parts.truncate(parts);
            st.scratch = option_parts;
            st.options = options;
            if let Ask::Within(r) = ask {
                self.exclude(&region, r.0[0], st.frames.len(), st.bytes(), limits);
            }
            return Some(Answer::Outside);
        }
        // The easiest options first: the least sum of squared part sizes, and among those on
        // a grid the moves nearest the region's centre (`off_centre` says why).
        if options.len() > 1 {
            options.sort_unstable();
            let sorted: Vec<Pending> = options.iter().map(|&(_, i)| st.pending[i]).collect();
            st.pending[pending..].copy_from_slice(&sorted);
        }
        st.scratch = option_parts;
        st.options = options;
        st.frames.push(Frame {
            region,
            ask,
            bound,
            taken,
            pending,
            parts,
            end: st.pending.len(),
            at: pending,
            k: 0,
            waiting: Waiting::Nothing,
        });
        None
    }
}

/// One step of the frame on top: it takes the answer it waited for and asks the next question,
/// or answers its own.
fn step(
    frame: &mut Frame,
    pending: &mut [Pending],
    parts: &[Region],
    answer: Option<Answer>,
) -> Step {
    if let Some(answer) = answer {
        let p = &mut pending[frame.at];
        match (frame.waiting, answer) {
            (Waiting::Part, Answer::Value(v)) => {
                p.xor ^= v;
                p.left -= 1;
            }
            (Waiting::Main, Answer::Value(v)) => {
                let v = v ^ p.xor;
                p.open = false;
                frame.taken.insert(v);
                match frame.ask {
                    Ask::Value if v == frame.k => frame.at = frame.pending,
                    _ => frame.at += 1,
                }
            }
            (Waiting::Main, Answer::Outside) => frame.at += 1,
            (_, answer) => unreachable!("{answer:?} not waited for"),
        }
        frame.waiting = Waiting::Nothing;
    }
    match frame.ask {
        Ask::Value => loop {
            if frame.taken.contains(frame.k) {
                frame.k += 1;
                frame.at = frame.pending;
                continue;
            }
            while frame.at < frame.end && !pending[frame.at].open {
                frame.at += 1;
            }
            if frame.at == frame.end {
                return Step::Done(Answer::Value(frame.k));
            }
            let p = pending[frame.at];
            return if p.left > 1 {
                frame.waiting = Waiting::Part;
                Step::Ask(parts[p.first + p.left - 1].clone(), Ask::Value)
            } else {
                frame.waiting = Waiting::Main;
                Step::Ask(
                    parts[p.first].clone(),
                    Ask::Within(Nims::one(frame.k ^ p.xor)),
                )
            };
        },
        Ask::Within(r) => loop {
            let top = r.max().unwrap_or(0).min(frame.bound);
            let left = frame.end - frame.at;
            let open = Nims::upto(top).without(&frame.taken);
            let (window, full) = open.least(left + 1);
            if frame.at == frame.end {
                return match window.max() {
                    Some(v) => Step::Done(Answer::Value(v)),
                    None => Step::Done(Answer::Outside),
                };
            }
            if window.and(&r).is_empty() {
                return Step::Done(Answer::Outside);
            }
            let mut asked = window;
            if full {
                asked.remove(window.max().expect("a full window"));
            }
            let p = pending[frame.at];
            if asked.is_empty() {
                frame.at += 1;
                continue;
            }
            return if p.left > 1 {
                frame.waiting = Waiting::Part;
                Step::Ask(parts[p.first + p.left - 1].clone(), Ask::Value)
            } else {
                frame.waiting = Waiting::Main;
                Step::Ask(parts[p.first].clone(), Ask::Within(asked.xor(p.xor)))
            };
        },
    }
}
