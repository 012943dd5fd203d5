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
    /// `let f(n) = n % 3`: a function.
    Function(FunctionDecl),
    /// `game nim on n { ... }`, `game dawson = octal 0.07`, ...
    Game(GameDecl),
    /// `grundy P`, `outcome P`, `moves P`, `win P`
    Query { query: Query, target: Expr },
    /// `sequence [misere] kayles 0..=83 [to "FILE"]`: normal or misère Grundy values.
    Sequence {
        game: Expr,
        range: Expr,
        misere: bool,
        output: Option<Output>,
    },
    /// `table [misere] wythoff 0..10, 0..10 [to "FILE"]`: normal or misère Grundy values.
    Table {
        game: Expr,
        rows: Expr,
        cols: Expr,
        misere: bool,
        output: Option<Output>,
    },
    /// `ppos [misere] wythoff 0..=20, 0..=20 [to "FILE"]`: the P-positions of either play.
    Ppos {
        game: Expr,
        rows: Expr,
        cols: Expr,
        misere: bool,
        output: Option<Output>,
    },
    /// `sequence EXPR for n in RANGE [to "FILE"]`: an integer, or a position's Grundy value.
    SequenceOf {
        value: Expr,
        axis: Axis,
        output: Option<Output>,
    },
    /// `table EXPR for a in ROWS, b in COLUMNS [to "FILE"]`, and `ppos` of the same form.
    TableOf {
        value: Expr,
        rows: Axis,
        cols: Axis,
        ppos: bool,
        output: Option<Output>,
    },
    /// `genus kayles[3] + kayles[4]` (`range` is `None`) or `genus kayles 0..=20`.
    Genus { target: Expr, range: Option<Expr> },
    /// `quotient dawson 0..=30`: the misère quotient of the closure of a range of heaps.
    Quotient { game: Expr, range: Expr },
    /// `period kayles`: preperiod, period and saltus, and whether a theorem proves them;
    /// `period kayles up to N`: looking at no more than `N` heaps.
    Period { game: Expr, bound: Option<Expr> },
    /// `period EXPR for n in RANGE`: the period the values show, apparent only.
    PeriodOf { value: Expr, axis: Axis },
    /// `compare kayles, kayles2`: whether two heap games have the same values (or with an
    /// offset), proved when both periods are; with a range, `compare kayles, kayles2 0..=1000`,
    /// the first heap of the range where they differ.
    Compare {
        left: Expr,
        right: Expr,
        range: Option<Expr>,
    },
    /// `survey octal 3 [up to N] [to "FILE"]`: a row per game of a family (its period, the
    /// earlier game it equals, its figures), each game computed up to `N` heaps.
    Survey {
        family: SurveyFamily,
        bound: Option<Expr>,
        output: Option<Output>,
    },
    /// `dot g[a] [to "FILE"]`: the game graph of a position in Graphviz form.
    Dot {
        target: Expr,
        output: Option<Output>,
    },
    /// `plot sequence dawson 0..=2000 to "dawson.png"`, with options or not.
    Plot {
        plot: Plot,
        file: String,
        file_span: Span,
        options: Box<PlotOptions>,
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

/// `n in RANGE`: an index of `sequence ... for` or `table ... for`.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub name: Ident,
    pub range: Expr,
}

/// `to "FILE"`: where the results of `sequence`, `table`, `ppos` or `dot` are saved.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    pub path: String,
    pub span: Span,
}

/// The games a `survey` covers.
#[derive(Clone, Debug, PartialEq)]
pub enum SurveyFamily {
    /// `survey octal K`: every octal code of up to `K` digits after the point, 0.x and 4.x.
    Octal(Expr),
    /// `survey hex K`: every hexadecimal code of up to `K` digits after the point.
    Hex(Expr),
    /// `survey subtraction K`: every subtraction set within `1..=K`.
    Subtraction(Expr),
    /// `survey LIST`: the heap games of a list.
    Games(Expr),
}

/// What a `plot` statement draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Plot {
    /// `sequence [misere] GAME RANGE`: Grundy values (or misère ones) against heap size.
    Sequence {
        game: Expr,
        range: Expr,
        misere: bool,
    },
    /// `table [misere] GAME RANGE, RANGE`: a colour map of a two-counter game.
    Table {
        game: Expr,
        rows: Expr,
        cols: Expr,
        misere: bool,
    },
    /// `sequence EXPR for n in RANGE`: the values of an expression against its index.
    SequenceOf { value: Expr, axis: Axis },
    /// `table EXPR for a in ROWS, b in COLUMNS`: a colour map of an expression's values.
    TableOf { value: Expr, rows: Axis, cols: Axis },
}

/// The options after a `plot`'s file, in any order, each at most once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlotOptions {
    /// `size 1600 x 800`: the picture's width and height in pixels.
    pub size: Option<(Expr, Expr)>,
    /// `title "..."`, `xlabel "..."`, `ylabel "..."`, `barlabel "..."` (a table's colour bar).
    pub title: Option<String>,
    pub xlabel: Option<String>,
    pub ylabel: Option<String>,
    pub barlabel: Option<(String, Span)>,
    /// `colours cividis`: the colour map of a table, by name.
    pub colours: Option<Ident>,
}

/// The query statements that take one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    Grundy,
    Outcome,
    Moves,
    Win,
}

/// `let NAME(PARAMS) = BODY`: a function, which may call itself and the functions before it.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub body: Expr,
    pub span: Span,
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
    /// `= octal 0.07` or `= hex 0.3F` (`hex`): the code exactly as written.
    Octal { code: String, hex: bool, span: Span },
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
            for binder in &rule.binders {
                pending.push(&binder.value);
                pending.extend(&binder.guard);
            }
            pending.extend(&rule.condition);
            for update in &rule.updates {
                pending.push(&update.value);
                pending.extend(&update.index);
            }
            let mut steps: Vec<&Step> = rule.steps.iter().collect();
            while let Some(step) = steps.pop() {
                match step {
                    Step::Update(update) => {
                        pending.push(&update.value);
                        pending.extend(&update.index);
                    }
                    Step::Loop { binders, body, .. } => {
                        for binder in binders {
                            pending.push(&binder.value);
                            pending.extend(&binder.guard);
                        }
                        steps.extend(body);
                    }
                }
            }
        }
        names_read(pending)
    }
}

/// Every name that these expressions read, as a variable or as a function, sorted and once
/// each (local names, such as the variables of a comprehension, are in it too).
pub fn names_read<'e>(roots: impl IntoIterator<Item = &'e Expr>) -> Vec<&'e str> {
    let mut pending: Vec<&Expr> = roots.into_iter().collect();
    let mut names = Vec::new();
    while let Some(expr) = pending.pop() {
        if let ExprKind::Var(name) = &expr.kind {
            names.push(name.as_str());
        }
        expr.children(&mut pending);
    }
    names.sort_unstable();
    names.dedup();
    names
}

impl Expr {
    /// Pushes the expressions directly inside this one (binders' domains and guards included).
    pub fn children<'e>(&'e self, out: &mut Vec<&'e Expr>) {
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Var(_) => {}
            ExprKind::List(items) | ExprKind::Set(items) => out.extend(items),
            ExprKind::Unary(_, x) => out.push(x),
            ExprKind::Binary(_, l, r) => out.extend([&**l, &**r]),
            ExprKind::Range { start, end, .. } => {
                out.push(start);
                out.extend(end.as_deref());
            }
            ExprKind::If {
                condition,
                then,
                otherwise,
            } => out.extend([&**condition, &**then, &**otherwise]),
            ExprKind::Call { callee, args }
            | ExprKind::Index {
                target: callee,
                args,
            } => {
                out.push(callee);
                out.extend(args);
            }
            ExprKind::Comprehension { body, binders } => {
                out.push(body);
                for binder in binders {
                    out.push(&binder.value);
                    out.extend(&binder.guard);
                }
            }
        }
    }

    /// The levels of the tree under this expression (1 for a leaf), found without recursion.
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut pending = vec![(self, 1)];
        let mut children = Vec::new();
        while let Some((expr, depth)) = pending.pop() {
            deepest = deepest.max(depth);
            expr.children(&mut children);
            pending.extend(children.drain(..).map(|c| (c, depth + 1)));
        }
        deepest
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
    /// `on cells c`: a set of cells of a board (a grid's squares or a graph's vertices).
    Cells(Ident),
}

/// `[for BINDER, ...] [if COND] { UPDATE; ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub binders: Vec<Binder>,
    pub condition: Option<Expr>,
    /// The updates in order, when none is a loop (the form the compiled rules and the
    /// recognisers read); empty when there are loops.
    pub updates: Vec<Update>,
    /// Every step in order, when there is a loop among them; empty otherwise.
    pub steps: Vec<Step>,
    pub span: Span,
}

impl Rule {
    /// The steps of the rule, in order, loops included.
    pub fn steps(&self) -> Vec<Step> {
        if self.steps.is_empty() {
            self.updates.iter().cloned().map(Step::Update).collect()
        } else {
            self.steps.clone()
        }
    }
}

/// One step of a rule's block: an update, or a loop of steps.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Update(Update),
    /// `for BINDER, ... { STEP; ... }`: the steps once per binding, in order.
    Loop {
        binders: Vec<Binder>,
        body: Vec<Step>,
        span: Span,
    },
}

/// `x in EXPR` or `x = EXPR`, with an optional guard `if COND` that filters its bindings
/// before the next binder is evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct Binder {
    pub name: Ident,
    pub kind: BinderKind,
    pub value: Expr,
    pub guard: Option<Expr>,
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
    /// `[EXPR for x in R, y in S if COND]`: the list of `EXPR` for every binding.
    Comprehension {
        body: Box<Expr>,
        binders: Vec<Binder>,
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
    /// `x in s`: membership of an integer in a set, list, range or board.
    In,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitOr,
    Xor,
    /// `a ++ b`: lists joined end to end.
    Concat,
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
            BinaryOp::In => "in",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::BitOr => "|",
            BinaryOp::Xor => "xor",
            BinaryOp::Concat => "++",
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
