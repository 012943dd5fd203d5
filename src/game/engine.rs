//! The engine: every game instance of a run with its solver, and what is asked of positions:
//! values of sums by XOR, the misère search of whole sums, loopy dispatch.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::loopy::{self, GValue};
use super::pattern::{Pattern, HUGE};
use super::period::Structure;
use super::position::{GameId, Part, PlayedOptions, Position, MOST_OPTIONS_OF_A_HUGE_HEAP};
use super::{budget, mex, Game, Limits, Method, SolveError, Solver};

/// Every game instance of a run with its solver, and the misère memo of whole sums.
pub struct Engine {
    pub(super) solvers: Vec<Solver>,
    pub(super) structures: Vec<Structure>,
    pub(super) patterns: FxHashMap<GameId, Pattern>,
    /// Generalized values of the games found to be loopy.
    loopy: FxHashMap<GameId, FxHashMap<Box<[i64]>, GValue>>,
    misere: FxHashMap<Vec<Part>, u32>,
    /// The bytes of the keys of `misere`, beyond the table's own.
    misere_bytes: usize,
    pub(super) genus_memo: super::misere::GenusMemo,
    pub limits: Limits,
    /// Whether this is the engine of a worker of a parallel sweep (see [`super::sweep`]).
    pub(super) in_sweep: bool,
}

const ACTIVE: u32 = u32::MAX;

/// A sum being searched under misère play: its key, its options, and the next option to visit.
type MisereFrame = (Vec<Part>, Vec<Vec<Part>>, usize);

impl Engine {
    pub fn new(limits: Limits) -> Engine {
        Engine {
            solvers: Vec::new(),
            structures: Vec::new(),
            patterns: FxHashMap::default(),
            loopy: FxHashMap::default(),
            misere: FxHashMap::default(),
            misere_bytes: 0,
            genus_memo: Default::default(),
            limits,
            in_sweep: false,
        }
    }

    pub fn add_game(&mut self, game: Arc<dyn Game>) -> GameId {
        self.structures.push(game.structure());
        self.solvers.push(Solver::new(game));
        self.solvers.len() - 1
    }

    pub fn structure(&self, game: GameId) -> &Structure {
        &self.structures[game]
    }

    /// The method that computes the values of a game (loopy once a loop has been found).
    pub fn method(&self, game: GameId) -> Method {
        if self.is_loopy(game) {
            return Method::Loopy;
        }
        self.solvers[game].method(&self.structures[game])
    }

    /// How many states of each game have a stored value, by game id.
    pub fn stored(&self) -> Vec<usize> {
        self.solvers.iter().map(Solver::stored).collect()
    }

    pub fn game(&self, id: GameId) -> &Arc<dyn Game> {
        self.solvers[id].game()
    }

    /// A component in canonical form.
    pub fn part(&self, game: GameId, mut state: Vec<i64>) -> Part {
        self.game(game).canonicalize(&mut state);
        Part {
            game,
            state: state.into(),
        }
    }

    /// The Grundy value of one component under normal play.
    /// A huge heap of a game with a closed form or a period theorem is answered from them; a
    /// heap of a heap sequence is computed in order as far as memory allows (the sequence
    /// proves its own periods as it grows), then from a period the search of `period` proves;
    /// any other heap by the solver, which searches huge heaps of sparse reach.
    pub fn part_value(&mut self, part: &Part) -> Result<u64, SolveError> {
        let n = part.state.first().copied().unwrap_or(0);
        let solver = &self.solvers[part.game];
        let sequence = solver.has_heap_sequence();
        if solver.game().heap_like() && n > 4096 {
            if self.structures[part.game] == Structure::Nim {
                return Ok(n as u64);
            }
            let structure = self.structure(part.game);
            // A pattern already found, or the arithmetic test for a game that splits every
            // heap in all ways (its values grow, so its splits have no sparse space); huge heaps
            // of games with a theorem and no heap sequence. Other heap sequences certify their
            // own periods as they grow.
            let split_all = matches!(structure, Structure::TakeAnyOrSplit { .. });
            let from_pattern = self.patterns.contains_key(&part.game)
                || split_all
                || (n >= HUGE && !sequence && *structure != Structure::Unknown);
            if from_pattern {
                match self.huge_value(part.game, n) {
                    Err(SolveError::Unknown { .. }) if n < HUGE || (sequence && !split_all) => {}
                    result => return result,
                }
            }
        }
        let limits = self.limits.clone();
        let result = self.solvers[part.game].value(&part.state, &limits);
        if !matches!(result, Err(SolveError::HeapMemory { .. }))
            || *self.structure(part.game) == Structure::Unknown
        {
            return result;
        }
        match self.huge_value(part.game, n) {
            // The refusal again, with the heaps the search computed.
            Err(SolveError::Unknown { .. }) => self.solvers[part.game].value(&part.state, &limits),
            found => found,
        }
    }

    /// Whether a game has been found to loop.
    pub fn is_loopy(&self, game: GameId) -> bool {
        self.loopy.contains_key(&game)
    }

    /// The generalized value of one component: its Grundy value, or for a state of a loopy
    /// game, the value that Smith's labelling of its reachable graph gives.
    pub fn part_gvalue(&mut self, part: &Part) -> Result<GValue, SolveError> {
        if self.in_sweep {
            return self.part_value(part).map(GValue::Finite);
        }
        if !self.loopy.contains_key(&part.game) {
            match self.part_value(part) {
                Ok(v) => return Ok(GValue::Finite(v)),
                Err(SolveError::Loop(_)) => {}
                Err(e) => return Err(e),
            }
        }
        let limits = self.limits.clone();
        let game = self.solvers[part.game].game().clone();
        let known = self.loopy.entry(part.game).or_default();
        loopy::label(game.as_ref(), &part.state, &limits, known)?;
        Ok(known[&part.state].clone())
    }

    /// The generalized value of a position: of the sum of its components (see
    /// [`GValue::sum`]), or for misère play the misère Grundy value of the whole sum.
    pub fn gvalue(&mut self, position: &Position) -> Result<GValue, SolveError> {
        if position.misere {
            return self.misere_value(&position.to_vec()).map(GValue::Finite);
        }
        let mut finite = 0;
        let mut infinite = None;
        for part in position.parts() {
            match self.part_gvalue(part)? {
                GValue::Finite(v) => finite ^= v,
                value => {
                    let total: GValue = infinite.unwrap_or(GValue::Finite(0));
                    infinite = Some(total.sum(&value));
                }
            }
        }
        Ok(match infinite {
            Some(total) => total.sum(&GValue::Finite(finite)),
            None => GValue::Finite(finite),
        })
    }

    /// The Grundy value of a position: the XOR of its components, or for misère play the
    /// misère Grundy value of the whole sum. An infinite value is an error.
    pub fn value(&mut self, position: &Position) -> Result<u64, SolveError> {
        self.gvalue(position)?.finite().ok_or(SolveError::Infinite)
    }

    /// The options of one component, as lists of components.
    pub fn part_options(&self, part: &Part) -> Result<Vec<Vec<Part>>, SolveError> {
        let few_options = matches!(
            self.structure(part.game),
            Structure::Subtraction { largest } if *largest <= MOST_OPTIONS_OF_A_HUGE_HEAP
        );
        // A huge heap that the solver valued (a game of sparse reach) has few options.
        let valued = || self.solvers[part.game].known(&part.state).is_some();
        if self.is_huge(part) && !few_options && !valued() {
            return Err(SolveError::TooManyOptions);
        }
        let solver = &self.solvers[part.game];
        let heap_like = solver.game().heap_like();
        Ok(solver
            .options(&part.state)?
            .into_iter()
            .map(|option| {
                if heap_like {
                    option
                        .into_iter()
                        .map(|h| Part {
                            game: part.game,
                            state: Box::new([h]),
                        })
                        .collect()
                } else {
                    vec![Part {
                        game: part.game,
                        state: option.into(),
                    }]
                }
            })
            .collect())
    }

    /// [`Engine::part_options`], each with the state it leaves as the rules give it, when the
    /// game puts states in a canonical form that differs from it.
    pub(super) fn part_options_as_played(&self, part: &Part) -> Result<PlayedOptions, SolveError> {
        let options = self.part_options(part)?;
        let game = self.game(part.game);
        if game.heap_like() || self.is_huge(part) {
            return Ok(options.into_iter().map(|to| (to, None)).collect());
        }
        let mut played = Vec::with_capacity(options.len());
        game.options(&part.state, &mut |state| {
            played.push(Box::<[i64]>::from(state));
            std::ops::ControlFlow::Continue(())
        })?;
        Ok(options
            .into_iter()
            .zip(played)
            .map(|(to, state)| {
                let differs = to.len() == 1 && to[0].state != state;
                (to, differs.then_some(state))
            })
            .collect())
    }

    /// Components that can never move (a heap of 0 with no options, say) are dropped from misère
    /// keys, so that sums differing only by them share their value.
    pub(super) fn misere_key(&mut self, parts: &[Part]) -> Result<Vec<Part>, SolveError> {
        let mut key = Vec::with_capacity(parts.len());
        for part in parts {
            if !self.part_options(part)?.is_empty() {
                key.push(part.clone());
            }
        }
        key.sort();
        Ok(key)
    }

    pub(super) fn misere_options(&mut self, key: &[Part]) -> Result<Vec<Vec<Part>>, SolveError> {
        let mut options = Vec::new();
        for (i, part) in key.iter().enumerate() {
            if i > 0 && key[i - 1] == *part {
                continue;
            }
            for to in self.part_options(part)? {
                let mut parts = key.to_vec();
                parts.remove(i);
                parts.extend(to);
                options.push(self.misere_key(&parts)?);
            }
        }
        options.sort();
        options.dedup();
        Ok(options)
    }

    /// The misère Grundy value of a sum: 1 when no move is left, else the mex of its options'.
    /// Searched on the whole sum, iteratively.
    fn misere_value(&mut self, parts: &[Part]) -> Result<u64, SolveError> {
        if self.in_sweep {
            return Err(SolveError::Deferred);
        }
        let root = self.misere_key(parts)?;
        if let Some(&v) = self.misere.get(&root).filter(|v| **v != ACTIVE) {
            return Ok(v as u64);
        }
        let mut stack: Vec<MisereFrame> = Vec::new();
        let result = self.misere_search(root.clone(), &mut stack);
        if result.is_err() {
            for (key, _, _) in stack {
                if self.misere.remove(&key).is_some() {
                    self.misere_bytes -= parts_bytes(&key);
                }
            }
        }
        result?;
        Ok(self.misere[&root] as u64)
    }

    fn misere_search(
        &mut self,
        root: Vec<Part>,
        stack: &mut Vec<MisereFrame>,
    ) -> Result<(), SolveError> {
        let options = self.misere_options(&root)?;
        // The bytes the frames hold: their keys and their options.
        let mut frames = misere_frame_bytes(&root, &options);
        self.misere_bytes += parts_bytes(&root);
        self.misere.insert(root.clone(), ACTIVE);
        stack.push((root, options, 0));
        let mut values = Vec::new();
        while let Some((_, options, next)) = stack.last_mut() {
            if *next < options.len() {
                let child = options[*next].clone();
                *next += 1;
                match self.misere.get(&child) {
                    Some(&ACTIVE) => return Err(self.misere_loop(stack, &child)),
                    Some(_) => {}
                    None => {
                        self.misere_room(self.misere.len())?;
                        let grand = self.misere_options(&child)?;
                        let frame = misere_frame_bytes(&child, &grand);
                        let held = budget::table(&self.misere, true)
                            + self.misere_bytes
                            + parts_bytes(&child)
                            + frames
                            + frame
                            + budget::vector(stack, 1);
                        if held > self.limits.max_memory {
                            return Err(SolveError::MemoryLimit(self.limits.max_memory));
                        }
                        frames += frame;
                        self.misere_bytes += parts_bytes(&child);
                        self.misere.insert(child.clone(), ACTIVE);
                        stack.push((child, grand, 0));
                    }
                }
                continue;
            }
            let (key, options, _) = stack.pop().expect("stack is not empty");
            frames -= misere_frame_bytes(&key, &options);
            let value = if options.is_empty() {
                1
            } else {
                values.clear();
                values.extend(options.iter().map(|o| self.misere[o] as u64));
                mex(&mut values)
            };
            self.misere.insert(key, value as u32);
        }
        Ok(())
    }

    /// The loop a misère search met: the sums on the stack from `child` on, then `child`.
    pub(super) fn misere_loop<O>(
        &self,
        stack: &[(Vec<Part>, O, usize)],
        child: &Vec<Part>,
    ) -> SolveError {
        let start = stack.iter().position(|f| f.0 == *child).unwrap_or(0);
        let mut cycle: Vec<String> = stack[start..].iter().map(|f| self.describe(&f.0)).collect();
        cycle.push(self.describe(child));
        SolveError::Loop(cycle)
    }

    /// Whether a misère search holding `stored` sums may store one more (and Ctrl-C is not
    /// pressed).
    pub(super) fn misere_room(&self, stored: usize) -> Result<(), SolveError> {
        if stored >= self.limits.max_states {
            return Err(SolveError::StateLimit(self.limits.max_states));
        }
        if stored.is_multiple_of(4096) {
            self.limits.check_interrupt()?;
        }
        Ok(())
    }

    /// Shows a sum of components, e.g. `nim[1] + nim[4]`.
    pub fn describe(&self, parts: &[Part]) -> String {
        if parts.is_empty() {
            return "the empty sum".into();
        }
        parts
            .iter()
            .map(|p| self.game(p.game).describe(&p.state))
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

/// The bytes of a list of components: the list's buffer and each state's.
pub(super) fn parts_bytes(parts: &Vec<Part>) -> usize {
    budget::vector(parts, 0)
        + parts
            .iter()
            .map(|p| budget::boxed(p.state.len() * 8))
            .sum::<usize>()
}

/// The bytes a misère frame holds beyond its place on the stack: its key and its options.
pub(super) fn misere_frame_bytes(key: &Vec<Part>, options: &Vec<Vec<Part>>) -> usize {
    parts_bytes(key) + budget::vector(options, 0) + options.iter().map(parts_bytes).sum::<usize>()
}
