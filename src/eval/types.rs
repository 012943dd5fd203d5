//! The types the checker reasons with, and the types of a session's globals, which the
//! interpreter records when each global is defined: the checker reads these, never the globals'
//! values.

use rustc_hash::FxHashMap;

use crate::builtins::Kind;
use crate::eval::value::{Shape, Value};

/// The type of each global name of a session, recorded when the name was defined (`let`, a
/// function, a game, the prelude) from what the definition gave.
pub type GlobalTypes = FxHashMap<String, Ty>;

/// What the checker knows of a value's type; `Unknown` never causes an error.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Int,
    Bool,
    Str,
    Range,
    Set,
    List,
    Box,
    Game(Shape),
    Family(usize, Shape),
    Position,
    Board,
    /// A function of this many parameters.
    Function(usize),
    Unknown,
}

impl Ty {
    /// The type of what a definition gave.
    pub fn of(value: &Value) -> Ty {
        match value {
            Value::Int(_) => Ty::Int,
            Value::Bool(_) => Ty::Bool,
            Value::Str(_) => Ty::Str,
            Value::Range { .. } => Ty::Range,
            Value::Set(_) => Ty::Set,
            Value::List(_) => Ty::List,
            Value::Box { .. } => Ty::Box,
            Value::Game(g) => Ty::Game(g.shape.clone()),
            Value::Family(f) => Ty::Family(f.arity, f.shape.clone()),
            Value::Position(_) => Ty::Position,
            Value::Function(f) => Ty::Function(f.decl.params.len()),
            Value::Board(_) => Ty::Board,
        }
    }

    /// Whether a value of this type may be an argument of this kind (always, when unknown).
    pub(crate) fn fits(&self, kind: Kind) -> bool {
        match kind {
            Kind::Int => matches!(self, Ty::Int | Ty::Unknown),
            Kind::Ints => matches!(self, Ty::List | Ty::Set | Ty::Range | Ty::Unknown),
            Kind::Sized => matches!(
                self,
                Ty::List | Ty::Set | Ty::Str | Ty::Range | Ty::Board | Ty::Unknown
            ),
            Kind::Board => matches!(self, Ty::Board | Ty::Unknown),
            Kind::HeapGame => matches!(self, Ty::Game(Shape::Heaps) | Ty::Unknown),
            Kind::Position => matches!(self, Ty::Position | Ty::Unknown),
            Kind::Str => matches!(self, Ty::Str | Ty::Unknown),
            Kind::Any => true,
        }
    }

    pub(crate) fn name(&self) -> &'static str {
        match self {
            Ty::Int => "an integer",
            Ty::Bool => "a boolean",
            Ty::Str => "a string",
            Ty::Range => "a range",
            Ty::Set => "a set",
            Ty::List => "a list",
            Ty::Box => "a box",
            Ty::Game(Shape::Heaps) => "a heap game",
            Ty::Game(Shape::Nodes(_)) => "a graph game",
            Ty::Game(Shape::Tuple(2)) => "a two-counter game",
            Ty::Game(Shape::Tuple(_)) => "a game of several counters",
            Ty::Game(Shape::List) => "a list game",
            Ty::Game(Shape::Cells) => "a game on cells",
            Ty::Board => "a board",
            Ty::Family(..) => "a game family (needs parameters)",
            Ty::Position => "a position",
            Ty::Function(_) => "a function",
            Ty::Unknown => "a value",
        }
    }
}
