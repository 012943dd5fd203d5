//! The engine: every game instance of a run with its solver, and what is asked of positions:
//! values of sums by XOR, the misère search of whole sums, loopy dispatch.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::arithmetic_splits::ArithmeticValues;
use super::budget::Charge;
use super::heap::HeapSequence;
use super::loopy;
use super::misere::{Genus, Misere, Own};
use super::period_pipeline::{Analysis, HeapGame, Periods};
use super::position::{GameId, Part, PlayedOptions, Position, HUGE, MOST_OPTIONS_OF_A_HUGE_HEAP};
use super::quotient::QuotientRun;
use super::shared_memos::Sweep;
use super::splits::Periodic;
use super::sums::Solvers;
use super::vocabulary::{GValue, Outcome, Structure};
use super::{Game, Limits, Method, SolveError, Solver};

/// Every game instance of a run with its solver, and the misère memo of whole sums. Only this
/// file reads its fields: the period pipeline and the shared memos are lent what they need.
pub struct Engine {
    solvers: Vec<Solver>,
    structures: Vec<Structure>,
    /// What the period pipeline found of each heap game.
    periods: Periods,
    /// Generalized values of the games found to be loopy.
    loopy: FxHashMap<GameId, FxHashMap<Box<[i64]>, GValue>>,
    /// The sums searched under misère play, their misère values, outcomes and genera, and the
    /// misère quotients of heap games met in them.
    misere: Misere,
    /// What the loopy values and the misère memos hold, on the ledger between questions (a
    /// question gives back what it counts itself while it runs).
    kept: Option<Charge>,
    pub limits: Limits,
    /// Whether this is the engine of a worker of a parallel sweep (see [`super::shared_memos`]).
    in_sweep: bool,
}

impl Engine {
    pub fn new(limits: Limits) -> Engine {
        Engine {
            solvers: Vec::new(),
            structures: Vec::new(),
            periods: Periods::default(),
            loopy: FxHashMap::default(),
            misere: Misere::default(),
            kept: None,
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

    /// Saves every heap sequence that grew since it was last saved to the cache in use.
    pub fn save_caches(&mut self) {
        if self.limits.cache.is_some() {
            for solver in &mut self.solvers {
                solver.save_to_cache(&self.limits);
            }
        }
    }

    /// How many heaps of a game's heap sequence were taken from the cache.
    pub fn resumed(&self, game: GameId) -> usize {
        self.solvers[game].resumed()
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
            if self.structures[part.game].is_nim() {
                return Ok(n as u64);
            }
            let structure = self.structure(part.game);
            // The arithmetic test for a game that splits every heap in all ways (its values
            // grow, so its splits have no sparse space); huge heaps of games with a theorem and
            // no heap sequence. Other heap sequences certify their own periods as they grow.
            // The choice is the game's and the heap's alone: a pattern that `period` found
            // before changes nothing (else a refusal could depend on what was asked first).
            let split_all = structure.takes_any_or_splits();
            let from_pattern = split_all || (n >= HUGE && !sequence && structure.is_known());
            if from_pattern {
                match self.huge_value(part.game, n) {
                    Err(SolveError::Unknown { .. }) if n < HUGE || sequence => {}
                    result => return result,
                }
            }
        }
        let limits = self.limits.clone();
        let result = self.solvers[part.game].value(&part.state, &limits);
        if !matches!(result, Err(SolveError::HeapMemory { .. }))
            || !self.structure(part.game).is_known()
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
        if !(self.loopy.get(&part.game)).is_some_and(|k| k.contains_key(&part.state)) {
            // The labelling counts this game's values; the other memos stay charged.
            let others = self.loopy_bytes(Some(part.game)) + self.misere.bytes();
            self.keep(others);
            let known = self.loopy.entry(part.game).or_default();
            let labelled = loopy::label(game.as_ref(), &part.state, &limits, known);
            let this = loopy::kept_bytes(known);
            self.keep(others + this);
            labelled?;
        }
        Ok(self.loopy[&part.game][&part.state].clone())
    }

    /// The bytes of the loopy values kept, of every game but `except`.
    fn loopy_bytes(&self, except: Option<GameId>) -> usize {
        (self.loopy.iter())
            .filter(|(game, _)| Some(**game) != except)
            .map(|(_, known)| loopy::kept_bytes(known))
            .sum()
    }

    /// Charges `bytes` of loopy values and misère memos to the ledger, whether or not they fit
    /// (they are held already; a question that stopped at a limit keeps nothing of its own).
    fn keep(&mut self, bytes: usize) {
        if self.in_sweep {
            return;
        }
        let mut charge = self.kept.take().unwrap_or_else(|| self.limits.charge());
        charge.hold(bytes);
        self.kept = Some(charge);
    }

    /// The generalized value of a position: of the sum of its components (see
    /// [`GValue::sum`]), or for misère play the misère Grundy value of the whole sum (0 and 1
    /// from the quotient when it settles them, see [`Misere::value`]).
    pub fn gvalue(&mut self, position: &Position) -> Result<GValue, SolveError> {
        if position.misere {
            return self
                .with_misere(|misere, engine| misere.value(engine, position))
                .map(GValue::Finite);
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

    /// The outcome of a position; a misère sum of heaps of one game from the game's misère
    /// quotient when it can be computed within the limits, else from its value, and a misère
    /// sum that loops by retrograde analysis (see [`super::misere_loopy`]).
    pub fn outcome(&mut self, position: &Position) -> Result<Outcome, SolveError> {
        if position.misere {
            return self.with_misere(|misere, engine| misere.outcome(engine, position));
        }
        Ok(self.gvalue(position)?.outcome())
    }

    /// The Grundy value of a position: the XOR of its components, or for misère play the
    /// misère Grundy value of the whole sum. An infinite value is an error.
    pub fn value(&mut self, position: &Position) -> Result<u64, SolveError> {
        self.gvalue(position)?.finite().ok_or(SolveError::Infinite)
    }

    /// The options of one component, as lists of components.
    pub fn part_options(&self, part: &Part) -> Result<Vec<Vec<Part>>, SolveError> {
        let few_options = self
            .structure(part.game)
            .largest_subtraction()
            .is_some_and(|largest| largest <= MOST_OPTIONS_OF_A_HUGE_HEAP);
        // A huge heap that the solver valued (a game of sparse reach) has few options.
        let valued = || self.solvers[part.game].known(&part.state).is_some();
        if self.is_huge(part) && !few_options && !valued() {
            return Err(SolveError::TooManyOptions);
        }
        let solver = &self.solvers[part.game];
        let heap_like = solver.game().heap_like();
        // Each option becomes a list of parts beside the states listed: about twice their bytes.
        Ok(solver
            .options(&part.state, &self.limits, 2)?
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

    /// The genus of a position (its misère flag is ignored: the genus covers both plays). A
    /// position that can return to itself has none.
    pub fn genus(&mut self, position: &Position) -> Result<Genus, SolveError> {
        let misere = self.with_misere(|misere, engine| misere.genus_values(engine, position))?;
        let normal = self.value(&position.with_misere(false))?;
        Ok(Genus { normal, misere })
    }

    /// The misère quotient of the closure of heaps `start..=last` of a heap game. Progress is
    /// reported by heaps; a limit or Ctrl-C stops it with the quotient of the heaps done.
    pub fn quotient(&mut self, game: GameId, name: &str, start: i64, last: i64) -> QuotientRun {
        let loopy = self.loopy_bytes(None);
        self.keep(loopy);
        let mut misere = std::mem::take(&mut self.misere);
        let others = misere.others(&self.limits, Own::Quotients);
        let run = misere.quotients.run(self, game, name, start, last);
        drop(others);
        self.misere = misere;
        self.keep(loopy + self.misere.bytes());
        run
    }

    /// Runs a misère question on the misère memos, taken out of the engine so that it may ask
    /// the engine for the solvers of its components. A worker of a parallel sweep leaves every
    /// misère question to the calling thread.
    fn with_misere<T>(
        &mut self,
        f: impl FnOnce(&mut Misere, &mut Engine) -> Result<T, SolveError>,
    ) -> Result<T, SolveError> {
        if self.in_sweep {
            return Err(SolveError::Deferred);
        }
        // The question counts the misère memos it uses; the loopy values stay charged.
        let loopy = self.loopy_bytes(None);
        self.keep(loopy);
        let mut misere = std::mem::take(&mut self.misere);
        let result = f(&mut misere, self);
        if matches!(
            result,
            Err(SolveError::MemoryLimit(_) | SolveError::StateLimit(_))
        ) {
            // Its tables are as large as the limit let them grow: they would leave no room.
            misere.forget_sums();
        }
        self.misere = misere;
        self.keep(loopy + self.misere.bytes());
        result
    }

    /// The period pipeline's record and one heap game lent to it.
    fn periods(&mut self, game: GameId) -> (&mut Periods, HeapGame<'_>) {
        let heap = HeapGame {
            solver: &mut self.solvers[game],
            structure: &self.structures[game],
            limits: &self.limits,
        };
        (&mut self.periods, heap)
    }

    /// Finds the least period of a heap game's values, computing as many as a proof needs
    /// (within the limits). Remembered for the rest of the run.
    pub fn analyse(&mut self, game: GameId) -> Result<Analysis, SolveError> {
        let (periods, heap) = self.periods(game);
        periods.analyse(game, heap)
    }

    /// What `period G` (`bound`: `period G up to N`) says of a heap game (see
    /// [`Periods::analyse_within`]).
    pub fn analyse_within(
        &mut self,
        game: GameId,
        bound: Option<usize>,
    ) -> Result<Analysis, SolveError> {
        let (periods, heap) = self.periods(game);
        periods.analyse_within(game, heap, bound)
    }

    /// The value of a heap that is too large for a table, from a closed form or a proved period.
    pub(super) fn huge_value(&mut self, game: GameId, n: i64) -> Result<u64, SolveError> {
        let (periods, heap) = self.periods(game);
        periods.huge_value(game, heap, n)
    }

    /// The values of a heap game as a proved period repeats them (see [`Periods::proved_period`]).
    pub(super) fn proved_period(&mut self, game: GameId) -> Result<Option<Periodic>, SolveError> {
        let (periods, heap) = self.periods(game);
        periods.proved_period(game, heap)
    }

    /// The values of a game that takes any amount or splits, as a proved arithmetic period gives
    /// them (see [`Periods::proved_arithmetic`]).
    pub(super) fn proved_arithmetic(
        &mut self,
        game: GameId,
    ) -> Result<Option<ArithmeticValues>, SolveError> {
        let (periods, heap) = self.periods(game);
        periods.proved_arithmetic(game, heap)
    }

    /// Whether a component is a heap past the tables.
    pub(super) fn is_huge(&self, part: &Part) -> bool {
        self.solvers[part.game].game().heap_like() && part.state[0] >= HUGE
    }

    /// The value of a state from the game's solver alone, with no closed form or period.
    pub(super) fn solver_value(&mut self, game: GameId, state: &[i64]) -> Result<u64, SolveError> {
        self.solvers[game].value(state, &self.limits)
    }

    /// The heap sequence of a game that has one.
    pub(super) fn heap_sequence(&self, game: GameId) -> Option<&HeapSequence> {
        self.solvers[game].heap_sequence()
    }

    /// Starts a parallel sweep: the memos move into a [`Sweep`] that workers read through
    /// [`Engine::worker`]. Until [`Engine::end_sweep`] this engine answers nothing.
    pub fn begin_sweep(&mut self) -> Arc<Sweep> {
        let solvers = std::mem::take(&mut self.solvers);
        Arc::new(Sweep::new(solvers, &self.structures, &self.limits))
    }

    /// Ends a sweep once every worker is gone: the memos come back with every value the workers
    /// published.
    pub fn end_sweep(&mut self, sweep: Arc<Sweep>) {
        self.solvers = Sweep::end(sweep, &self.limits);
    }

    /// The engine of one worker of `sweep`: its own memos, reading through the shared ones.
    pub fn worker(sweep: &Arc<Sweep>) -> Engine {
        let mut engine = Engine::new(sweep.limits().clone());
        engine.structures = sweep.structures().to_vec();
        engine.solvers = Sweep::worker_solvers(sweep);
        engine.in_sweep = true;
        engine
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

/// What the misère searches and quotients see of the engine.
impl Solvers for Engine {
    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn part_options(&self, part: &Part) -> Result<Vec<Vec<Part>>, SolveError> {
        Engine::part_options(self, part)
    }

    fn part_value(&mut self, part: &Part) -> Result<u64, SolveError> {
        Engine::part_value(self, part)
    }

    fn heap_like(&self, game: GameId) -> bool {
        self.game(game).heap_like()
    }

    fn is_loopy(&self, game: GameId) -> bool {
        Engine::is_loopy(self, game)
    }

    fn describe(&self, parts: &[Part]) -> String {
        Engine::describe(self, parts)
    }
}
