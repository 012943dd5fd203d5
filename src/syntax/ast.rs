//! The typed syntax tree of a program. Every node carries the [`Span`] of its source.

use crate::span::Span;

/// A whole file, one-liner or REPL entry: statements in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub statements: Vec<Stmt>,
}

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// One statement: `let`, a game declaration, a query, `check`, `assert`, `print` or a bare expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `let heaps = [3, 4, 5]`
    Let { name: Ident, value: Expr },
    /// `game nim on n { ... }`, `game dawson = octal 0.07`, ...
    Game(GameDecl),
    /// `grundy P`, `outcome P`, `moves P`, `win P`
    Query { query: Query, target: Expr },
    /// `sequence kayles 0..=83`
    Sequence { game: Expr, range: Expr },
    /// `sequence misere kayles 0..=20`: misère Grundy values of single heaps.
    MisereSequence { game: Expr, range: Expr },
    /// `genus kayles[3] + kayles[4]` (`range` is `None`) or `genus kayles 0..=20`.
    Genus { target: Expr, range: Option<Expr> },
    /// `table wythoff 0..10, 0..10`
    Table { game: Expr, rows: Expr, cols: Expr },
    /// `ppos wythoff 0..=20, 0..=20`
    Ppos { game: Expr, rows: Expr, cols: Expr },
    /// `period kayles`: preperiod, period and saltus, and whether a theorem proves them.
    Period { game: Expr },
    /// `compare kayles, kayles2 0..=1000`: the first heap where two heap games differ.
    Compare {
        left: Expr,
        right: Expr,
        range: Expr,
    },
    /// `dot g[a]`: the game graph of a position in Graphviz form.
    Dot(Expr),
    /// `plot sequence dawson 0..=2000 to "dawson.png"`
    Plot {
        plot: Plot,
        file: String,
        file_span: Span,
    },
    /// `check COND for BINDER, ...`
    Check {
        condition: Expr,
        binders: Vec<Binder>,
    },
    /// `assert COND`
    Assert(Expr),
    /// `print EXPR`
    Print(Expr),
    /// A bare expression: its value is printed.
    Expr(Expr),
}

/// What a `plot` statement draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Plot {
    /// `sequence GAME RANGE`: Grundy values against heap size.
    Sequence { game: Expr, range: Expr },
    /// `table GAME RANGE, RANGE`: a colour map of a two-counter game.
    Table { game: Expr, rows: Expr, cols: Expr },
}

/// The query statements that take one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    Grundy,
    Outcome,
    Moves,
    Win,
}

/// `game NAME[(PARAMS)] ...`
#[derive(Clone, Debug, PartialEq)]
pub struct GameDecl {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub def: GameDef,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum GameDef {
    /// `on STATE [unordered] { RULE ... }`
    Rules {
        state: StateShape,
        unordered: bool,
        rules: Vec<Rule>,
    },
    /// `= octal 0.07`: the code exactly as written.
    Octal { code: String, span: Span },
    /// `= subtraction {1, 3, 4}`, `= subtraction 1..=4`, `= subtraction 1..`
    Subtraction { set: Expr },
    /// `= graph { a -> b, c; b -> c; c }`
    Graph { lines: Vec<GraphLine> },
}

impl GameDef {
    /// Every name the rules read, as a variable or as a function (a superset of the globals
    /// they need: binders and the state are in it too). Empty for the other forms.
    pub fn names_read(&self) -> Vec<&str> {
        let GameDef::Rules { rules, .. } = self else {
            return Vec::new();
        };
        let mut pending: Vec<&Expr> = Vec::new();
        for rule in rules {
            pending.extend(rule.binders.iter().map(|b| &b.value));
            pending.extend(&rule.condition);
            for update in &rule.updates {
                pending.push(&update.value);
                pending.extend(&update.index);
            }
        }
        let mut names = Vec::new();
        while let Some(expr) = pending.pop() {
            match &expr.kind {
                ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) => {}
                ExprKind::Var(name) => names.push(name.as_str()),
                ExprKind::List(items) | ExprKind::Set(items) => pending.extend(items),
                ExprKind::Unary(_, x) => pending.push(x),
                ExprKind::Binary(_, l, r) => pending.extend([&**l, &**r]),
                ExprKind::Range { start, end, .. } => {
                    pending.push(start);
                    pending.extend(end.as_deref());
                }
                ExprKind::If {
                    condition,
                    then,
                    otherwise,
                } => pending.extend([&**condition, &**then, &**otherwise]),
                ExprKind::Call { callee, args }
                | ExprKind::Index {
                    target: callee,
                    args,
                } => {
                    pending.push(callee);
                    pending.extend(args);
                }
            }
        }
        names.sort_unstable();
        names.dedup();
        names
    }
}

/// The state a rule-defined game is played on.
#[derive(Clone, Debug, PartialEq)]
pub enum StateShape {
    /// `on n`: one heap; positions are multisets of heaps.
    Heap(Ident),
    /// `on (a, b)`: a fixed number of counters.
    Tuple(Vec<Ident>),
    /// `on s[]`: any number of counters.
    List(Ident),
}

/// `[for BINDER, ...] [if COND] { UPDATE; ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub binders: Vec<Binder>,
    pub condition: Option<Expr>,
    pub updates: Vec<Update>,
    pub span: Span,
}

/// `x in EXPR` or `x = EXPR`.
#[derive(Clone, Debug, PartialEq)]
pub struct Binder {
    pub name: Ident,
    pub kind: BinderKind,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinderKind {
    /// `x in EXPR`: one binding per element.
    In,
    /// `x = EXPR`: one binding.
    Let,
}

/// `n -= k`, `a = 0`, `s[i] += k`, `n = [a, b]`
#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    pub target: Ident,
    pub index: Option<Expr>,
    pub op: UpdateOp,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdateOp {
    Assign,
    Add,
    Sub,
}

/// One line of a graph game: `a -> b, c`, or a node alone: `d`.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphLine {
    pub from: Ident,
    pub to: Vec<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Str(String),
    Var(String),
    /// `[a, b, c]`
    List(Vec<Expr>),
    /// `{a, b, c}`
    Set(Vec<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a..b`, `a..=b`, `a..` (no end)
    Range {
        start: Box<Expr>,
        end: Option<Box<Expr>>,
        inclusive: bool,
    },
    /// `if c then a else b`
    If {
        condition: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `f(x, y)`, `bash(3)`
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
    },
    /// `s[i]`, `s[i..j]`, `nim[3, 4, 5]`
    Index {
        target: Box<Expr>,
        args: Vec<Expr>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
    Misere,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitOr,
    Xor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::BitOr => "|",
            BinaryOp::Xor => "xor",
            BinaryOp::BitAnd => "&",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Pow => "^",
        }
    }
}
