//! Positions (sums of components, possibly misère), their components and moves; the engine that
//! values them is [`super::engine`].

use std::iter::Chain;
use std::slice::Iter;
use std::sync::Arc;

use super::vocabulary::GValue;

/// Which game instance a component belongs to: an index into the engine.
pub type GameId = usize;

/// One component of a sum: a game instance and one state of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Part {
    pub game: GameId,
    pub state: Box<[i64]>,
}

/// A disjunctive sum of components, in the order they were written, under normal or misère
/// play. Positions are equal when their components are equal as multisets.
///
/// The components are shared: the position a move leaves holds those of the position it was
/// played from (one `Arc`) and the components the move changed, so a move in a sum of n
/// components costs O(1) memory, not a copy of n (see [`Position::replaced`]).
#[derive(Clone, Debug)]
pub struct Position {
    base: Arc<Vec<Part>>,
    /// Component `.0` of `base` replaced by the components `.1`: the result of a move.
    replaced: Option<(usize, Arc<[Part]>)>,
    pub misere: bool,
}

/// The components of a position, in order.
pub type Parts<'p> = Chain<Chain<Iter<'p, Part>, Iter<'p, Part>>, Iter<'p, Part>>;

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.misere == other.misere && self.sorted_parts() == other.sorted_parts()
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.misere.hash(state);
        self.sorted_parts().hash(state);
    }
}

impl Position {
    pub fn new(parts: Vec<Part>, misere: bool) -> Position {
        Position {
            base: Arc::new(parts),
            replaced: None,
            misere,
        }
    }

    pub fn len(&self) -> usize {
        match &self.replaced {
            Some((_, with)) => self.base.len() - 1 + with.len(),
            None => self.base.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Component `i` (below [`Position::len`]).
    pub fn part(&self, i: usize) -> &Part {
        match &self.replaced {
            Some((at, _)) if i < *at => &self.base[i],
            Some((at, with)) if i < at + with.len() => &with[i - at],
            Some((_, with)) => &self.base[i + 1 - with.len()],
            None => &self.base[i],
        }
    }

    pub fn parts(&self) -> Parts<'_> {
        match &self.replaced {
            Some((at, with)) => self.base[..*at]
                .iter()
                .chain(with.iter())
                .chain(self.base[at + 1..].iter()),
            None => self.base.iter().chain([].iter()).chain([].iter()),
        }
    }

    /// The blocks the components are held in, each with its address: the shared block of the
    /// position it was played from, and the components a move changed. What a position holds is
    /// these blocks, each once however many positions share it.
    pub fn blocks(&self) -> impl Iterator<Item = (usize, &[Part])> {
        let base = (Arc::as_ptr(&self.base) as usize, &self.base[..]);
        let with = self
            .replaced
            .as_ref()
            .map(|(_, with)| (with.as_ptr() as usize, &with[..]));
        std::iter::once(base).chain(with)
    }

    pub fn to_vec(&self) -> Vec<Part> {
        self.parts().cloned().collect()
    }

    pub fn sorted_parts(&self) -> Vec<&Part> {
        let mut parts: Vec<&Part> = self.parts().collect();
        parts.sort();
        parts
    }

    /// The same components under misère play (`true`) or normal play.
    pub fn with_misere(&self, misere: bool) -> Position {
        Position {
            misere,
            ..self.clone()
        }
    }

    /// The sum of two positions; the result is misère if either is.
    pub fn sum(&self, other: &Position) -> Position {
        let mut parts = self.to_vec();
        parts.extend(other.parts().cloned());
        Position::new(parts, self.misere || other.misere)
    }

    /// This position with its components in one shared block (a copy only when it is itself a
    /// move's result), so that [`Position::replaced`] on it costs O(1).
    pub fn flattened(&self) -> Position {
        match self.replaced {
            Some(_) => Position::new(self.to_vec(), self.misere),
            None => self.clone(),
        }
    }

    /// The position with component `i` replaced by the components `to`, in its place: it
    /// shares this position's components, unless this position is itself a move's result
    /// (then they are copied once; call [`Position::flattened`] first to build many).
    pub fn replaced(&self, i: usize, to: &[Part]) -> Position {
        let flat = self.flattened();
        Position {
            replaced: Some((i, to.into())),
            ..flat
        }
    }
}

/// Options of a component, each with the state it leaves as the rules give it, if different.
pub(super) type PlayedOptions = Vec<(Vec<Part>, Option<Box<[i64]>>)>;

/// Heaps from this size on are answered from a closed form or a proved period, never by
/// filling a table up to them, in games that are not heap sequences; a heap sequence computes
/// every heap as far as memory allows, and uses the period `period` proves beyond that.
pub const HUGE: i64 = 1 << 20;

/// The most options listed for a heap beyond the tables (a subtraction game with a larger
/// set has too many to list).
pub(super) const MOST_OPTIONS_OF_A_HUGE_HEAP: usize = 1 << 16;

/// A move in a sum: component `part` (an index into the position's parts) is replaced by the
/// components `to`.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    pub part: usize,
    pub to: Vec<Part>,
    /// The value of the position the move leaves, under the position's convention.
    pub value: GValue,
    /// For a game whose states have a canonical form (unordered counters), the state the move
    /// leaves in the component as the rules give it, when that differs from `to`: moves that
    /// leave equal states (`[0, 0, 4]` from `[1, 4, 5]` and from `[4, 1, 5]`) then show apart.
    pub as_played: Option<Box<[i64]>>,
}

impl Move {
    /// The position the move leaves, sharing the components of `position` (see
    /// [`Position::replaced`]).
    pub fn result(&self, position: &Position) -> Position {
        position.replaced(self.part, &self.to)
    }

    /// The component the move leaves, as the rules give it (see [`Move::as_played`]).
    pub fn shown_to(&self) -> Vec<Part> {
        match &self.as_played {
            Some(state) => vec![Part {
                game: self.to[0].game,
                state: state.clone(),
            }],
            None => self.to.clone(),
        }
    }

    /// The components of the position the move leaves, without building it.
    pub fn result_parts<'p>(&'p self, position: &'p Position) -> impl Iterator<Item = &'p Part> {
        self.parts_with(position, &self.to)
    }

    /// The components of `position` with the moved one replaced by `to`.
    pub fn parts_with<'p>(
        &self,
        position: &'p Position,
        to: &'p [Part],
    ) -> impl Iterator<Item = &'p Part> {
        let after = position.parts().skip(self.part + 1);
        position.parts().take(self.part).chain(to).chain(after)
    }
}
