//! The built-in functions of the language, one row each: their names, the arguments they take,
//! what they give, whether compiled rules handle them, and how they are called. This table is
//! the one home of those facts: the checker, the evaluator and REPL completion read it (and so
//! may the rule compiler, through [`Builtin::compiles`]).

/// A built-in function, as the evaluator tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    Min,
    Max,
    Abs,
    Len,
    Sum,
    Xor,
    Count,
    Mex,
    Grundy,
    Outcome,
    Options,
    Wins,
    State,
    Read,
    Repeat,
    Grid,
    Vertices,
    Neighbours,
    Degree,
    Row,
    Column,
    Preperiod,
    Period,
    Saltus,
    Solved,
}

/// What an argument of a built-in must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer.
    Int,
    /// A list, set or finite range of integers.
    Ints,
    /// Something with a length: a list, set, string or finite range.
    Sized,
    /// A position.
    Position,
    /// A string (the path of a file).
    Str,
    /// A board: some cells of a grid or of a graph.
    Board,
    /// A game played on one heap.
    HeapGame,
    /// Any value.
    Any,
}

impl Kind {
    /// The kind as messages name it: "an integer", "a position"...
    pub fn name(self) -> &'static str {
        match self {
            Kind::Int => "an integer",
            Kind::Ints => "a list, set or finite range of integers",
            Kind::Sized => "a list, set, string or finite range",
            Kind::Position => "a position",
            Kind::Str => "a string",
            Kind::Board => "a board",
            Kind::HeapGame => "a heap game",
            Kind::Any => "a value",
        }
    }
}

/// What a call of a built-in gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    Int,
    Bool,
    Str,
    List,
    Set,
    Board,
}

/// One built-in function.
#[derive(Debug)]
pub struct Builtin {
    pub name: &'static str,
    pub function: Function,
    /// The forms it may be called with, as the kinds of their arguments; no two of one length.
    pub forms: &'static [&'static [Kind]],
    pub returns: Returns,
    /// Whether the compiled rules of a game (`src/eval/rules/compiled`) handle a call of it, in
    /// every form; a rule that calls any other built-in runs on the AST walker.
    pub compiles: bool,
    /// How it is called, for the help line of an error.
    pub usage: &'static str,
}

const INTS_USAGE: &str = "of a list, set or finite range of integers: `xor([3, 4, 5])`";
const POSITION_USAGE: &str = "of a position: `grundy(nim[3, 4])`";
const CELL_USAGE: &str = "of a board and one of its cells: `neighbours(grid(3, 3), 4)`";
const PERIOD_FORMS: &[&[Kind]] = &[&[Kind::HeapGame], &[Kind::HeapGame, Kind::Int]];
const PERIOD_USAGE: &str =
    "of a heap game, as `period G` proves it (`period G up to N`: `preperiod(G, N)`); an error \
     when no period is proved, which `solved(G)` tells: `period(kayles)`";
const MIN_MAX_USAGE: &str = "of two integers or of a list: `min(a, b)`, `max([3, 1, 2])`";

/// Every built-in function.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "min",
        function: Function::Min,
        forms: &[&[Kind::Int, Kind::Int], &[Kind::Ints]],
        returns: Returns::Int,
        compiles: true,
        usage: MIN_MAX_USAGE,
    },
    Builtin {
        name: "max",
        function: Function::Max,
        forms: &[&[Kind::Int, Kind::Int], &[Kind::Ints]],
        returns: Returns::Int,
        compiles: true,
        usage: MIN_MAX_USAGE,
    },
    Builtin {
        name: "abs",
        function: Function::Abs,
        forms: &[&[Kind::Int]],
        returns: Returns::Int,
        compiles: true,
        usage: "`abs(n)` of an integer",
    },
    Builtin {
        name: "len",
        function: Function::Len,
        forms: &[&[Kind::Sized]],
        returns: Returns::Int,
        compiles: true,
        usage: "`len(s)` of a list, set, string or finite range",
    },
    Builtin {
        name: "sum",
        function: Function::Sum,
        forms: &[&[Kind::Ints]],
        returns: Returns::Int,
        compiles: true,
        usage: INTS_USAGE,
    },
    Builtin {
        name: "xor",
        function: Function::Xor,
        forms: &[&[Kind::Ints]],
        returns: Returns::Int,
        compiles: true,
        usage: INTS_USAGE,
    },
    Builtin {
        name: "count",
        function: Function::Count,
        forms: &[&[Kind::Ints]],
        returns: Returns::Int,
        compiles: true,
        usage: INTS_USAGE,
    },
    Builtin {
        name: "mex",
        function: Function::Mex,
        forms: &[&[Kind::Ints]],
        returns: Returns::Int,
        compiles: false,
        usage: INTS_USAGE,
    },
    Builtin {
        name: "grundy",
        function: Function::Grundy,
        forms: &[&[Kind::Position]],
        returns: Returns::Int,
        compiles: false,
        usage: POSITION_USAGE,
    },
    Builtin {
        name: "outcome",
        function: Function::Outcome,
        forms: &[&[Kind::Position]],
        returns: Returns::Str,
        compiles: false,
        usage: POSITION_USAGE,
    },
    Builtin {
        name: "options",
        function: Function::Options,
        forms: &[&[Kind::Position]],
        returns: Returns::List,
        compiles: false,
        usage: POSITION_USAGE,
    },
    Builtin {
        name: "wins",
        function: Function::Wins,
        forms: &[&[Kind::Position]],
        returns: Returns::List,
        compiles: false,
        usage: POSITION_USAGE,
    },
    Builtin {
        name: "state",
        function: Function::State,
        forms: &[&[Kind::Position]],
        returns: Returns::List,
        compiles: false,
        usage: "`state(p)`: the heaps or counters of a position, as a list",
    },
    Builtin {
        name: "read",
        function: Function::Read,
        forms: &[&[Kind::Str]],
        returns: Returns::List,
        compiles: false,
        usage: "`read(\"heaps.txt\")`: every integer in a text file, as a list",
    },
    Builtin {
        name: "repeat",
        function: Function::Repeat,
        forms: &[&[Kind::Any, Kind::Int]],
        returns: Returns::List,
        compiles: false,
        usage: "`repeat(x, k)`: a list of k copies of x, e.g. `nim[repeat(5, 3) ++ [2]]`",
    },
    Builtin {
        name: "grid",
        function: Function::Grid,
        forms: &[&[Kind::Int, Kind::Int], &[Kind::Any]],
        returns: Returns::Board,
        compiles: false,
        usage: "`grid(width, height)`, or a grid with holes `grid([\"..#\", \"...\"])`",
    },
    Builtin {
        name: "vertices",
        function: Function::Vertices,
        forms: &[&[Kind::Int, Kind::Any]],
        returns: Returns::Board,
        compiles: false,
        usage:
            "`vertices(n, edges)`: the vertices of a graph, e.g. `vertices(3, [[0, 1], [1, 2]])`",
    },
    Builtin {
        name: "neighbours",
        function: Function::Neighbours,
        forms: &[&[Kind::Board, Kind::Int]],
        returns: Returns::Set,
        compiles: false,
        usage: CELL_USAGE,
    },
    Builtin {
        name: "degree",
        function: Function::Degree,
        forms: &[&[Kind::Board, Kind::Int]],
        returns: Returns::Int,
        compiles: false,
        usage: CELL_USAGE,
    },
    Builtin {
        name: "row",
        function: Function::Row,
        forms: &[&[Kind::Board, Kind::Int]],
        returns: Returns::Int,
        compiles: false,
        usage: CELL_USAGE,
    },
    Builtin {
        name: "column",
        function: Function::Column,
        forms: &[&[Kind::Board, Kind::Int]],
        returns: Returns::Int,
        compiles: false,
        usage: CELL_USAGE,
    },
    Builtin {
        name: "preperiod",
        function: Function::Preperiod,
        forms: PERIOD_FORMS,
        returns: Returns::Int,
        compiles: false,
        usage: PERIOD_USAGE,
    },
    Builtin {
        name: "period",
        function: Function::Period,
        forms: PERIOD_FORMS,
        returns: Returns::Int,
        compiles: false,
        usage: PERIOD_USAGE,
    },
    Builtin {
        name: "saltus",
        function: Function::Saltus,
        forms: PERIOD_FORMS,
        returns: Returns::Int,
        compiles: false,
        usage: PERIOD_USAGE,
    },
    Builtin {
        name: "solved",
        function: Function::Solved,
        forms: PERIOD_FORMS,
        returns: Returns::Bool,
        compiles: false,
        usage: "`solved(G)`, `solved(G, N)`: whether `period G` (`up to N`) proves a period of \
                the heap game `G`",
    },
];

/// The built-in function of this name, if there is one.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

impl Builtin {
    /// The kinds of the arguments of the form with `args` arguments, if there is one.
    pub fn form(&self, args: usize) -> Option<&'static [Kind]> {
        self.forms.iter().copied().find(|form| form.len() == args)
    }

    /// The numbers of arguments it takes, in words: "1 argument", "1 or 2 arguments".
    pub fn describe_arity(&self) -> String {
        let mut counts: Vec<usize> = self.forms.iter().map(|f| f.len()).collect();
        counts.sort_unstable();
        match counts.as_slice() {
            [1] => "1 argument".to_string(),
            _ => {
                let counts: Vec<String> = counts.iter().map(usize::to_string).collect();
                format!("{} arguments", counts.join(" or "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_arities_are_unambiguous() {
        for (i, b) in BUILTINS.iter().enumerate() {
            assert!(
                BUILTINS[..i].iter().all(|other| other.name != b.name),
                "`{}` is listed twice",
                b.name
            );
            for (j, form) in b.forms.iter().enumerate() {
                assert!(
                    b.forms[..j].iter().all(|f| f.len() != form.len()),
                    "`{}` has two forms of {} arguments",
                    b.name,
                    form.len()
                );
            }
        }
    }
}
