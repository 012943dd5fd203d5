//! The moves of a sum, counted exactly and visited in order without copying the sum: a move is
//! the index of the component it changes and the components that replace it.
//!
//! The options of one component (all, or those of one value) come from its rules; for a heap
//! past the tables, from what is proved of its game: Nim's closed form, the moves of a finite
//! subtraction set, or an octal game's digits with its proved period, whose splits are counted
//! by arithmetic ([`super::splits`]), never listed to be counted.

use super::arithmetic_splits::ArithmeticValues;
use super::heap::{HeapSequence, Leaves};
use super::position::MOST_OPTIONS_OF_A_HUGE_HEAP;
use super::splits::Periodic;
use super::vocabulary::{GValue, Outcome, Split, Structure};
use super::{Engine, GameId, Move, Part, Position, SolveError};

/// Which moves a question asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// Every move (`options`, `moves`).
    Every,
    /// The moves that leave a P-position (`wins`, `win`).
    Winning,
}

/// How many moves of one kind a position has, and the first of them in order.
#[derive(Clone, Debug)]
pub struct MoveList {
    pub count: u128,
    pub first: Vec<Move>,
}

/// How the options of a heap are found without its rules.
enum HeapMoves {
    /// Every smaller heap, from `n - 1` down to 0.
    Nim,
    /// The heaps a finite subtraction set leaves, as the game lists them.
    Subtraction(Vec<i64>),
    /// An octal game's digits, with the values its proved period gives.
    Octal { digits: Vec<u8>, values: Periodic },
    /// Every smaller heap and these splits, with the values a proved arithmetic period gives.
    TakeAnyOrSplit {
        splits: Vec<Split>,
        values: ArithmeticValues,
    },
    /// The moves of the game's heap sequence, with the values of the heaps below it.
    Sequence,
}

/// An option of a component: the components it leaves, the state as the rules give it when it
/// differs (see [`Move::as_played`]), and its value.
type Visit<'v> =
    dyn FnMut(&mut Engine, Vec<Part>, Option<Box<[i64]>>, GValue) -> Result<bool, SolveError> + 'v;

/// From this heap on, an octal game whose options are exactly its digits is answered from its
/// proved period (as its values are, see [`Engine::part_value`]).
const PERIOD_FROM: i64 = 4096;

/// What a question visits of a sum: the value of each component and of the sum of the others,
/// from which each component's target follows (see [`Plan::component`]).
struct Plan {
    wanted: Wanted,
    misere: bool,
    /// The finite value of each component (0 for an infinite one).
    finite: Vec<u64>,
    /// The XOR of the finite values.
    total: u64,
    /// The components whose value is infinite, ascending, with their values.
    infinite: Vec<(usize, GValue)>,
}

impl Plan {
    /// The value of the sum without component `i`.
    fn rest(&self, i: usize) -> GValue {
        let finite = GValue::Finite(self.total ^ self.finite[i]);
        let mut others = self.infinite.iter().filter(|(k, _)| *k != i);
        match (others.next(), others.next()) {
            (None, _) => finite,
            (Some((_, value)), None) => value.sum(&finite),
            _ => GValue::Infinite(Vec::new()),
        }
    }

    /// Whether the question visits the options of component `i`, the value they must have
    /// (`None`: any) and the value of the rest of the sum. A winning move in a component
    /// leaves it the value of the rest; in a loopy sum with one infinite component only that
    /// one can, and with two, none can (the sum is a draw or infinite whatever is played).
    fn component(&self, i: usize) -> Option<(Option<u64>, GValue)> {
        if self.misere {
            return Some((None, GValue::Finite(0)));
        }
        if self.infinite.is_empty() {
            let (own, rest) = (self.finite[i], self.total ^ self.finite[i]);
            return match self.wanted {
                Wanted::Every => Some((None, GValue::Finite(rest))),
                Wanted::Winning => (own != rest).then_some((Some(rest), GValue::Finite(rest))),
            };
        }
        let rest = if self.infinite.len() > 2 {
            GValue::Infinite(Vec::new())
        } else {
            self.rest(i)
        };
        match (self.wanted, rest.finite()) {
            (Wanted::Every, _) => Some((None, rest)),
            (Wanted::Winning, Some(t)) => {
                let own_infinite = self.infinite.iter().any(|(k, _)| *k == i);
                (own_infinite || self.finite[i] != t).then_some((Some(t), rest))
            }
            (Wanted::Winning, None) => None,
        }
    }
}

impl Engine {
    /// How many moves of the `wanted` kind `position` has. Exact at every size: heaps past the
    /// tables are counted by arithmetic on a closed form or a proved period.
    pub fn count_moves(&mut self, position: &Position, wanted: Wanted) -> Result<u128, SolveError> {
        let plan = self.plan(position, wanted)?;
        self.count_planned(position, &plan)
    }

    fn count_planned(&mut self, position: &Position, plan: &Plan) -> Result<u128, SolveError> {
        if plan.misere && plan.wanted == Wanted::Winning {
            let mut count = 0;
            self.visit_planned(position, plan, &mut |_| {
                count += 1;
                true
            })?;
            return Ok(count);
        }
        let mut count = 0u128;
        for (i, part) in position.parts().enumerate() {
            if let Some((target, _)) = plan.component(i) {
                count += self.count_part_options(part, target)?;
            }
            if i % 4096 == 4095 {
                self.limits.check_interrupt()?;
            }
        }
        Ok(count)
    }

    /// Calls `visit` with each move of the `wanted` kind, in order (by component, then as the
    /// rules give the component's options), until it returns `false`.
    pub fn visit_moves(
        &mut self,
        position: &Position,
        wanted: Wanted,
        visit: &mut dyn FnMut(Move) -> bool,
    ) -> Result<(), SolveError> {
        let plan = self.plan(position, wanted)?;
        self.visit_planned(position, &plan, visit)
    }

    fn visit_planned(
        &mut self,
        position: &Position,
        plan: &Plan,
        visit: &mut dyn FnMut(Move) -> bool,
    ) -> Result<(), SolveError> {
        let shared = position.flattened();
        for (i, part) in position.parts().enumerate() {
            let Some((target, rest)) = plan.component(i) else {
                continue;
            };
            let going =
                self.visit_part_options(part, target, &mut |engine, to, as_played, v| {
                    let value = if plan.misere && plan.wanted == Wanted::Winning {
                        // A winning move leaves a P-position: value 0, its outcome is enough.
                        match engine.outcome(&shared.replaced(i, &to))? {
                            Outcome::P => GValue::Finite(0),
                            _ => return Ok(true),
                        }
                    } else if plan.misere {
                        engine.gvalue(&shared.replaced(i, &to))?
                    } else {
                        rest.sum(&v)
                    };
                    if plan.wanted == Wanted::Winning && value != GValue::Finite(0) {
                        return Ok(true);
                    }
                    Ok(visit(Move {
                        part: i,
                        to,
                        value,
                        as_played,
                    }))
                })?;
            if !going {
                break;
            }
        }
        Ok(())
    }

    /// How many moves of the `wanted` kind there are, and the first `most` of them.
    pub fn first_moves(
        &mut self,
        position: &Position,
        wanted: Wanted,
        most: usize,
    ) -> Result<MoveList, SolveError> {
        let plan = self.plan(position, wanted)?;
        let count = self.count_planned(position, &plan)?;
        let mut first = Vec::new();
        if most > 0 && count > 0 {
            self.visit_planned(position, &plan, &mut |m| {
                first.push(m);
                first.len() < most
            })?;
        }
        Ok(MoveList { count, first })
    }

    /// Every move of the `wanted` kind, or [`SolveError::TooManyMoves`] when there are more than
    /// the list limit (`max_states`).
    pub fn all_moves(
        &mut self,
        position: &Position,
        wanted: Wanted,
    ) -> Result<Vec<Move>, SolveError> {
        let limit = self.limits.max_states;
        let plan = self.plan(position, wanted)?;
        let count = self.count_planned(position, &plan)?;
        if count > limit as u128 {
            return Err(SolveError::TooManyMoves {
                count,
                limit,
                winning: wanted == Wanted::Winning,
            });
        }
        let mut all = Vec::with_capacity(count as usize);
        self.visit_planned(position, &plan, &mut |m| {
            all.push(m);
            true
        })?;
        Ok(all)
    }

    /// Every move of a position, with the value of the position it leaves: one per component
    /// and option, so moves in two equal heaps are both listed.
    pub fn moves(&mut self, position: &Position) -> Result<Vec<Move>, SolveError> {
        self.all_moves(position, Wanted::Every)
    }

    fn plan(&mut self, position: &Position, wanted: Wanted) -> Result<Plan, SolveError> {
        let mut plan = Plan {
            wanted,
            misere: position.misere,
            finite: Vec::new(),
            total: 0,
            infinite: Vec::new(),
        };
        if position.misere {
            return Ok(plan);
        }
        plan.finite.reserve(position.len());
        for (i, part) in position.parts().enumerate() {
            match self.part_gvalue(part)? {
                GValue::Finite(v) => {
                    plan.total ^= v;
                    plan.finite.push(v);
                }
                value => {
                    plan.infinite.push((i, value));
                    plan.finite.push(0);
                }
            }
        }
        Ok(plan)
    }

    /// How the options of a heap are found without its rules, if they are: a heap past the
    /// tables of a game with a closed form or a proved period (for an octal game whose options
    /// are exactly its digits, from [`PERIOD_FROM`] on). A huge heap of a game without either
    /// is an error.
    fn heap_moves(&mut self, part: &Part) -> Result<Option<HeapMoves>, SolveError> {
        if self.structure(part.game).is_nim() {
            return Ok(Some(HeapMoves::Nim));
        }
        if !self.game(part.game).heap_like() {
            return Ok(None);
        }
        let n = part.state[0];
        let huge = self.is_huge(part);
        let exact = n >= PERIOD_FROM && self.game(part.game).options_follow_structure();
        let sequence = huge && self.heap_sequence(part.game).is_some();
        let structure = self.structure(part.game).clone();
        Ok(match structure {
            Structure::Nim => Some(HeapMoves::Nim),
            Structure::Subtraction { largest } if huge => {
                if largest > MOST_OPTIONS_OF_A_HUGE_HEAP {
                    return match sequence {
                        true => self.sequence_moves(part),
                        false => Err(SolveError::TooManyOptions),
                    };
                }
                let mut heaps = Vec::new();
                self.game(part.game).options(&part.state, &mut |option| {
                    heaps.push(option[0]);
                    std::ops::ControlFlow::Continue(())
                })?;
                Some(HeapMoves::Subtraction(heaps))
            }
            // The splits in three of a huge heap are not counted.
            Structure::Octal { .. } if huge && structure.splits_in_three() => {
                return Err(SolveError::ThreeWaySplits { heap: n as u64 })
            }
            Structure::Octal { digits } if (huge || exact) && !structure.splits_in_three() => {
                match self.proved_period(part.game)? {
                    Some(values) => Some(HeapMoves::Octal { digits, values }),
                    None if sequence => return self.sequence_moves(part),
                    None if huge => return self.huge_value(part.game, n).map(|_| None),
                    None => None,
                }
            }
            Structure::TakeAnyOrSplit { splits } if huge => {
                match self.proved_arithmetic(part.game)? {
                    Some(values) => Some(HeapMoves::TakeAnyOrSplit { splits, values }),
                    None if sequence => return self.sequence_moves(part),
                    None => return self.huge_value(part.game, n).map(|_| None),
                }
            }
            Structure::Unknown if sequence => return self.sequence_moves(part),
            // Valued by the solver (a game of sparse reach) or refused with the reason.
            Structure::Unknown if huge => self.part_value(part).map(|_| None)?,
            _ => None,
        })
    }

    /// The options of a huge heap of a heap sequence, read from the values of the heaps below
    /// it, which are computed first (within the memory limit). Splits in three are refused.
    fn sequence_moves(&mut self, part: &Part) -> Result<Option<HeapMoves>, SolveError> {
        let n = part.state[0] as u64;
        let sequence = self.heap_sequence(part.game);
        if sequence.is_some_and(|s| s.rules().splits_in_three()) {
            return Err(SolveError::ThreeWaySplits { heap: n });
        }
        if !sequence.is_some_and(|s| s.options_known(n)) {
            self.solver_value(part.game, &part.state)?;
        }
        Ok(Some(HeapMoves::Sequence))
    }

    /// How many options of one component have the value `target` (all of them for `None`).
    fn count_part_options(&mut self, part: &Part, target: Option<u64>) -> Result<u128, SolveError> {
        // The heap, for heap games (a list game's state may be empty).
        let n = part.state.first().copied().unwrap_or(0);
        let of_value = |engine: &mut Engine, heap: i64| -> Result<bool, SolveError> {
            let Some(t) = target else {
                return Ok(true);
            };
            let part = Part {
                game: part.game,
                state: Box::new([heap]),
            };
            Ok(engine.part_value(&part)? == t)
        };
        match self.heap_moves(part)? {
            Some(HeapMoves::Nim) => Ok(match target {
                None => n as u128,
                Some(t) => u128::from(t < n as u64),
            }),
            Some(HeapMoves::Subtraction(heaps)) => {
                let mut count = 0;
                for h in heaps {
                    count += u128::from(of_value(self, h)?);
                }
                Ok(count)
            }
            Some(HeapMoves::Octal { digits, values }) => {
                let n = n as u64;
                let mut count = 0;
                for (j, &d) in digits
                    .iter()
                    .enumerate()
                    .take_while(|(j, _)| *j as u64 <= n)
                {
                    let rest = n - j as u64;
                    if d & 1 != 0 && j > 0 && rest == 0 {
                        count += u128::from(target.is_none_or(|t| t == 0));
                    }
                    if d & 2 != 0 && j > 0 && rest > 0 {
                        count += u128::from(target.is_none_or(|t| values.value(rest) == t));
                    }
                    if d & 4 != 0 {
                        count += values.count_splits(rest, target);
                    }
                }
                Ok(count)
            }
            Some(HeapMoves::TakeAnyOrSplit { splits, values }) => {
                let n = n as u64;
                let splits = splits.iter();
                Ok(values.count_takes(n, target)
                    + splits
                        .map(|&split| values.count_splits(n, split, target))
                        .sum::<u128>())
            }
            Some(HeapMoves::Sequence) => Ok(match narrow(target) {
                Some(target) => self.sequence_of(part.game).count_options(n as u64, target),
                None => 0,
            }),
            None => {
                let options = self.part_options(part)?;
                let Some(t) = target else {
                    return Ok(options.len() as u128);
                };
                let mut count = 0;
                for to in options {
                    count += u128::from(self.options_value(&to)? == GValue::Finite(t));
                }
                Ok(count)
            }
        }
    }

    /// Calls `visit` with each option of one component whose value is `target` (every option for
    /// `None`), in order, until it returns `false`; returns whether it went to the end.
    fn visit_part_options(
        &mut self,
        part: &Part,
        target: Option<u64>,
        visit: &mut Visit<'_>,
    ) -> Result<bool, SolveError> {
        let game = part.game;
        let heap = |h: u64| Part {
            game,
            state: Box::new([h as i64]),
        };
        // A heap emptied is dropped from the position, as an octal game's is: in Nim and in a
        // subtraction game the empty heap has no move, so the position is the same game.
        let heap_left = |h: u64| if h == 0 { Vec::new() } else { vec![heap(h)] };
        let n = part.state.first().copied().unwrap_or(0) as u64;
        match self.heap_moves(part)? {
            Some(HeapMoves::Nim) => {
                let heaps: Box<dyn Iterator<Item = u64>> = match target {
                    None => Box::new((0..n).rev()),
                    Some(t) => Box::new((t < n).then_some(t).into_iter()),
                };
                for h in heaps {
                    if !visit(self, heap_left(h), None, GValue::Finite(h))? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Some(HeapMoves::Subtraction(heaps)) => {
                for h in heaps {
                    let value = self.part_value(&heap(h as u64))?;
                    if target.is_none_or(|t| t == value)
                        && !visit(self, heap_left(h as u64), None, GValue::Finite(value))?
                    {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Some(HeapMoves::Octal { digits, values }) => {
                for (j, &d) in digits
                    .iter()
                    .enumerate()
                    .take_while(|(j, _)| *j as u64 <= n)
                {
                    let rest = n - j as u64;
                    let mut one = |engine: &mut Engine, to: Vec<Part>, value: u64| {
                        if target.is_none_or(|t| t == value) {
                            visit(engine, to, None, GValue::Finite(value))
                        } else {
                            Ok(true)
                        }
                    };
                    if d & 1 != 0 && j > 0 && rest == 0 && !one(self, Vec::new(), 0)? {
                        return Ok(false);
                    }
                    if d & 2 != 0
                        && j > 0
                        && rest > 0
                        && !one(self, vec![heap(rest)], values.value(rest))?
                    {
                        return Ok(false);
                    }
                    if d & 4 != 0 {
                        let went = values.visit_splits(rest, target, &mut |a| {
                            let value = values.value(a) ^ values.value(rest - a);
                            visit_split(self, visit, game, (a, rest - a), value)
                        })?;
                        if !went {
                            return Ok(false);
                        }
                    }
                }
                Ok(true)
            }
            Some(HeapMoves::TakeAnyOrSplit { splits, values }) => {
                for m in values.takes(n, target) {
                    let value = values.value(m);
                    if !visit(self, vec![heap(m)], None, GValue::Finite(value))? {
                        return Ok(false);
                    }
                }
                for split in splits {
                    let rest = n - split.take as u64;
                    let went = values.visit_splits(n, split, target, &mut |a| {
                        let value = values.value(a) ^ values.value(rest - a);
                        visit_split(self, visit, game, (a, rest - a), value)
                    })?;
                    if !went {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Some(HeapMoves::Sequence) => {
                let Some(target) = narrow(target) else {
                    return Ok(true);
                };
                let mut cursor = self.sequence_of(game).option_cursor(n, target);
                while let Some(option) = cursor.next(self.sequence_of(game)) {
                    let to = match option.leaves {
                        Leaves::Nothing => Vec::new(),
                        Leaves::One(h) => vec![heap(h)],
                        Leaves::Two(a, b) => vec![heap(a), heap(b)],
                    };
                    if !visit(self, to, None, GValue::Finite(option.value.into()))? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            None => {
                for (to, as_played) in self.part_options_as_played(part)? {
                    let value = self.options_value(&to)?;
                    if target.is_none_or(|t| value == GValue::Finite(t))
                        && !visit(self, to, as_played, value)?
                    {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    fn sequence_of(&self, game: GameId) -> &HeapSequence {
        self.heap_sequence(game).expect("a heap sequence")
    }

    /// The value of the components an option leaves.
    fn options_value(&mut self, to: &[Part]) -> Result<GValue, SolveError> {
        let mut value = GValue::Finite(0);
        for p in to {
            value = value.sum(&self.part_gvalue(p)?);
        }
        Ok(value)
    }
}

/// A target value as a heap sequence's values are stored: `Some(None)` for any value, `None`
/// for a value no heap of a sequence has.
fn narrow(target: Option<u64>) -> Option<Option<u32>> {
    match target {
        None => Some(None),
        Some(t) => u32::try_from(t).ok().map(Some),
    }
}

/// Visits the split of a heap into the heaps `a` and `b`, of value `value`.
fn visit_split(
    engine: &mut Engine,
    visit: &mut Visit<'_>,
    game: GameId,
    (a, b): (u64, u64),
    value: u64,
) -> Result<bool, SolveError> {
    let heap = |h: u64| Part {
        game,
        state: Box::new([h as i64]),
    };
    visit(engine, vec![heap(a), heap(b)], None, GValue::Finite(value))
}
