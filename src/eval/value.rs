//! Run-time values.

use std::fmt;
use std::sync::Arc;

use crate::error::Origin;
use crate::game::budget;
use crate::game::{GameId, Position};
use crate::syntax::ast::{FunctionDecl, GameDecl, GameDef, StateShape};

/// A value of the language.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Str(Arc<str>),
    /// `start..=last`; `last` is `None` for an open range `start..`. Empty when `last < start`.
    Range {
        start: i64,
        last: Option<i64>,
    },
    /// Distinct integers, ascending.
    Set(Arc<Vec<i64>>),
    List(Arc<Vec<Value>>),
    /// Every list `b` with `low[i] <= b[i] <= high[i]`.
    Box {
        low: Arc<Vec<i64>>,
        high: Arc<Vec<i64>>,
    },
    /// A declared game with its parameters bound.
    Game(Arc<GameValue>),
    /// A game declared with parameters, not yet given them: `bash` in `bash(3)`.
    Family(Arc<Family>),
    Position(Arc<PositionValue>),
    /// A function declared with `let f(n) = ...`.
    Function(Arc<FunctionValue>),
    /// Some cells of a board: `grid(3, 2)`, `vertices(4, [[0, 1]])`.
    Board(Arc<super::boards::BoardValue>),
}

/// A function: its declaration, where it was declared (errors in its body point there), and the
/// globals its body reads as they were then. Two functions are equal only when they are the
/// same declaration's value.
#[derive(Debug)]
pub struct FunctionValue {
    pub decl: Arc<FunctionDecl>,
    pub origin: Arc<Origin>,
    pub captured: super::Globals,
    /// The depth of the body's tree, which bounds the stack one call takes.
    pub depth: usize,
}

impl PartialEq for FunctionValue {
    fn eq(&self, other: &FunctionValue) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for FunctionValue {}

impl std::hash::Hash for FunctionValue {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(self, state);
    }
}

/// A game instance: its name as shown (`bash(3)`), its engine id, and how its positions are written.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct GameValue {
    pub display: String,
    pub id: GameId,
    pub shape: Shape,
}

/// How the brackets of `G[...]` are read for a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A multiset of heaps.
    Heaps,
    /// A multiset of tokens on these nodes.
    Nodes(Arc<Vec<String>>),
    /// One state of exactly this many counters.
    Tuple(usize),
    /// One state of any number of counters.
    List,
    /// A set of cells of a board.
    Cells,
}

impl Shape {
    /// The kind of game of this shape, for messages: "a heap game", "a two-counter game".
    pub fn kind_of_game(&self) -> String {
        match self {
            Shape::Heaps => "a heap game".to_string(),
            Shape::Nodes(_) => "a graph game".to_string(),
            Shape::Tuple(2) => "a two-counter game".to_string(),
            Shape::Tuple(n) => format!("a game of {n} counters"),
            Shape::List => "a list game".to_string(),
            Shape::Cells => "a game on cells".to_string(),
        }
    }
}

/// A game declared with parameters: the index of its declaration and its parameter count.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Family {
    pub name: String,
    pub decl: usize,
    pub arity: usize,
    pub shape: Shape,
}

/// How positions of a declared game are written, from its declaration.
pub fn shape_of(decl: &GameDecl) -> Shape {
    match &decl.def {
        GameDef::Rules { state, .. } => match state {
            StateShape::Heap(_) => Shape::Heaps,
            StateShape::Tuple(names) => Shape::Tuple(names.len()),
            StateShape::List(_) => Shape::List,
            StateShape::Cells(_) => Shape::Cells,
        },
        GameDef::Octal { .. } | GameDef::Subtraction { .. } => Shape::Heaps,
        GameDef::Graph { lines } => {
            let mut nodes: Vec<String> = Vec::new();
            let mut seen = rustc_hash::FxHashSet::default();
            for line in lines {
                for name in std::iter::once(&line.from).chain(&line.to) {
                    if seen.insert(name.name.as_str()) {
                        nodes.push(name.name.clone());
                    }
                }
            }
            Shape::Nodes(Arc::new(nodes))
        }
    }
}

/// A position together with what is needed to show it. Compared by position alone.
#[derive(Debug)]
pub struct PositionValue {
    pub position: Position,
    pub games: Vec<Arc<GameValue>>,
}

impl PartialEq for PositionValue {
    fn eq(&self, other: &PositionValue) -> bool {
        self.position == other.position
    }
}

impl Eq for PositionValue {}

impl std::hash::Hash for PositionValue {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.position.hash(state);
    }
}

impl Value {
    /// The type's name, as in messages: "an integer", "a list"...
    /// What the value is, for messages: its type, and for a game its kind and name ("a
    /// two-counter game `wythoff`"), so that a mismatch says what was found.
    pub fn type_name(&self) -> String {
        match self {
            Value::Game(g) => format!("{} `{}`", g.shape.kind_of_game(), g.display),
            Value::Family(f) => format!("the game family `{}` (it needs parameters)", f.name),
            other => other.type_word().to_string(),
        }
    }

    fn type_word(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Bool(_) => "a boolean",
            Value::Str(_) => "a string",
            Value::Range { .. } => "a range",
            Value::Set(_) => "a set",
            Value::List(_) => "a list",
            Value::Box { .. } => "a box",
            Value::Game(_) => "a game",
            Value::Family(_) => "a game family (needs parameters)",
            Value::Position(_) => "a position",
            Value::Function(_) => "a function",
            Value::Board(_) => "a board",
        }
    }

    /// The bytes the value holds beyond itself, as the allocator takes them: its lists, sets,
    /// strings and positions, each shared block once (a list of a thousand copies of one list
    /// holds that list once). What a global's value or a list being built is charged.
    pub fn bytes(&self) -> usize {
        if self.holds_nothing() {
            return 0;
        }
        let mut seen = rustc_hash::FxHashSet::default();
        let mut open = vec![self];
        let mut bytes = 0;
        // Shared blocks are counted once: the first time their address is met.
        let mut first = |address: usize| seen.insert(address);
        while let Some(value) = open.pop() {
            bytes += match value {
                Value::Int(_) | Value::Bool(_) | Value::Range { .. } => 0,
                Value::Str(s) => first(s.as_ptr() as usize) as usize * budget::boxed(s.len() + 16),
                Value::Set(items) => first(Arc::as_ptr(items) as usize) as usize * ints(items),
                Value::Box { low, high } => ints(low) + ints(high),
                Value::List(items) if first(Arc::as_ptr(items) as usize) => {
                    open.extend(items.iter().filter(|v| !v.holds_nothing()));
                    SHARED_VEC + budget::boxed(items.capacity() * size_of::<Value>())
                }
                Value::List(_) => 0,
                // A move's position shares the components of the one it was played from.
                Value::Position(p) if first(Arc::as_ptr(p) as usize) => p
                    .position
                    .blocks()
                    .filter(|&(address, _)| first(address))
                    .map(|(_, parts)| {
                        let states: usize = parts
                            .iter()
                            .map(|part| budget::boxed(part.state.len() * 8))
                            .sum();
                        SHARED_VEC + budget::boxed(size_of_val(parts)) + states
                    })
                    .sum::<usize>()
                    .saturating_add(budget::boxed(size_of::<PositionValue>())),
                Value::Position(_) => 0,
                Value::Game(_) | Value::Family(_) | Value::Function(_) => 0,
                Value::Board(b) if first(Arc::as_ptr(b) as usize) => {
                    budget::boxed(size_of::<super::boards::BoardValue>()) + b.bytes()
                }
                Value::Board(_) => 0,
            };
        }
        bytes
    }

    /// Whether the value is all in itself (an integer, a boolean, a range).
    fn holds_nothing(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Bool(_) | Value::Range { .. })
    }

    pub fn list(values: Vec<Value>) -> Value {
        Value::List(Arc::new(values))
    }

    pub fn str(s: &str) -> Value {
        Value::Str(s.into())
    }
}

/// The block of an `Arc<Vec<_>>`: its two counts and the vector's pointer, capacity and length
/// (the elements are a block of their own).
const SHARED_VEC: usize = budget::boxed(16 + size_of::<Vec<Value>>());

/// The bytes of a shared vector of integers.
fn ints(items: &Arc<Vec<i64>>) -> usize {
    SHARED_VEC + budget::boxed(items.capacity() * 8)
}

impl PositionValue {
    pub(crate) fn game(&self, id: GameId) -> &GameValue {
        self.games
            .iter()
            .find(|g| g.id == id)
            .expect("position knows its games")
    }

    /// One component, as written: `nim[3]`, `wythoff[3, 5]`, `g[a]`.
    pub fn show_part(&self, part: &crate::game::Part) -> String {
        let game = self.game(part.game);
        format!("{}[{}]", game.display, show_state(&game.shape, &part.state))
    }

    /// Components of the same heap or graph game are shown together: `nim[3, 4, 5]`.
    pub fn show_parts<'p>(&self, parts: impl IntoIterator<Item = &'p crate::game::Part>) -> String {
        let parts = parts.into_iter();
        // A long sum of one heap or graph game: the first components and the count, without
        // visiting the others.
        if let ([game], (count, Some(exact))) = (&self.games[..], parts.size_hint()) {
            let together = matches!(game.shape, Shape::Heaps | Shape::Nodes(_));
            if together && count == exact && count > LONGEST_SHOWN {
                let states: Vec<String> = parts
                    .take(LONGEST_SHOWN - 2)
                    .map(|part| show_state(&game.shape, &part.state))
                    .collect();
                return format!(
                    "{}[{}, ... ({count} in all)]",
                    game.display,
                    states.join(", ")
                );
            }
        }
        let mut groups: Vec<(GameId, Vec<String>, usize)> = Vec::new();
        for part in parts {
            let game = self.game(part.game);
            let together = matches!(game.shape, Shape::Heaps | Shape::Nodes(_));
            let group = match groups
                .iter_mut()
                .position(|(id, _, _)| together && *id == part.game)
            {
                Some(i) => &mut groups[i],
                None => {
                    groups.push((part.game, Vec::new(), 0));
                    groups.last_mut().expect("just pushed")
                }
            };
            group.2 += 1;
            if group.1.len() < LONGEST_SHOWN {
                group.1.push(show_state(&game.shape, &part.state));
            }
        }
        if groups.is_empty() {
            return "0".to_string();
        }
        groups
            .iter()
            .map(|(id, states, count)| {
                let shown = if *count > LONGEST_SHOWN {
                    format!(
                        "{}, ... ({count} in all)",
                        states[..LONGEST_SHOWN - 2].join(", ")
                    )
                } else {
                    states.join(", ")
                };
                format!("{}[{shown}]", self.game(*id).display)
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

/// Positions with more heaps or tokens than this show the first few and the count.
const LONGEST_SHOWN: usize = 12;

/// A state inside brackets: `3`, `3, 5`, `a`.
pub fn show_state(shape: &Shape, state: &[i64]) -> String {
    match shape {
        Shape::Nodes(names) => names[state[0] as usize].clone(),
        Shape::Cells => super::boards::BoardValue::decode(state).to_string(),
        _ => state
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

impl fmt::Display for PositionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.position.misere {
            write!(f, "misere ")?;
        }
        write!(f, "{}", self.show_parts(self.position.parts()))
    }
}

/// Writes `items` with `, ` between them, one by one: a long list is shown as it is written,
/// and stops where its output fails (see `Interpreter::execute`).
fn separated<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: impl Iterator<Item = T>,
) -> fmt::Result {
    for (i, item) in items.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Range { start, last: None } => write!(f, "{start}.."),
            Value::Range {
                start,
                last: Some(last),
            } => write!(f, "{start}..={last}"),
            Value::Set(items) => {
                f.write_str("{")?;
                separated(f, items.iter())?;
                f.write_str("}")
            }
            Value::List(items) => {
                f.write_str("[")?;
                separated(f, items.iter())?;
                f.write_str("]")
            }
            Value::Box { low, high } => {
                let show = |v: &[i64]| {
                    v.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                write!(f, "[{}]..=[{}]", show(low), show(high))
            }
            Value::Game(game) => write!(f, "{}", game.display),
            Value::Family(family) => write!(f, "{}(...)", family.name),
            Value::Position(p) => write!(f, "{p}"),
            Value::Function(function) => {
                let params: Vec<&str> = function.decl.params.iter().map(|p| &*p.name).collect();
                write!(f, "{}({})", function.decl.name.name, params.join(", "))
            }
            Value::Board(board) => write!(f, "{board}"),
        }
    }
}
