//! Static checks before running: names, numbers of arguments, and the types that can be seen
//! without running. Every error found is reported, not only the first.

use rustc_hash::FxHashMap;

use crate::builtins::{self, Returns};
use crate::error::Error;
use crate::eval::types::{GlobalTypes, Ty};
use crate::eval::value::{shape_of, Shape};
use crate::game::octal::{Base, Octal};
use crate::span::Span;
use crate::syntax::ast::{
    Axis, BinaryOp, Binder, BinderKind, Expr, ExprKind, FunctionDecl, GameDecl, GameDef, Ident,
    Plot, Rule, StateShape, Step, Stmt, StmtKind, SurveyFamily, UnaryOp, Update, UpdateOp,
};

/// A state variable of the game being checked: its name and whether it is a list.
struct StateVar {
    name: String,
    list: bool,
}

/// The checker of one program: it reads the statements in order, knowing the names the
/// earlier ones define, and keeps every error it finds.
pub struct Checker<'g> {
    globals: &'g GlobalTypes,
    declared: FxHashMap<String, Ty>,
    locals: Vec<(String, Ty)>,
    state: Vec<StateVar>,
    heap_game: bool,
    errors: Vec<Error>,
}

/// Checks statements that will run after everything in `globals` is defined (the types the
/// globals were given when they were defined, see [`GlobalTypes`]).
pub fn check(statements: &[Stmt], globals: &GlobalTypes) -> Result<(), Vec<Error>> {
    let mut checker = Checker::new(globals);
    for statement in statements {
        checker.statement(statement);
    }
    checker.finish()
}

impl<'g> Checker<'g> {
    pub fn new(globals: &'g GlobalTypes) -> Checker<'g> {
        Checker {
            globals,
            declared: FxHashMap::default(),
            locals: Vec::new(),
            state: Vec::new(),
            heap_game: false,
            errors: Vec::new(),
        }
    }

    /// Every error found so far.
    pub fn finish(self) -> Result<(), Vec<Error>> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.errors)
        }
    }

    /// Checks the next statement alone: its errors, if it has any.
    pub fn check_next(&mut self, statement: &Stmt) -> Result<(), Vec<Error>> {
        self.statement(statement);
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(std::mem::take(&mut self.errors))
        }
    }
}

/// The warnings about `statements`: a rule game with no rules.
pub fn warnings(statements: &[Stmt]) -> Vec<Error> {
    let empty = |statement: &Stmt| match &statement.kind {
        StmtKind::Game(GameDecl {
            name,
            def: GameDef::Rules { rules, .. },
            ..
        }) if rules.is_empty() => Some(Error::NoRules {
            name: name.name.clone(),
            span: name.span,
        }),
        _ => None,
    };
    statements.iter().filter_map(empty).collect()
}

impl Checker<'_> {
    fn lookup(&self, name: &str) -> Option<Ty> {
        if let Some((_, ty)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Some(ty.clone());
        }
        if let Some(ty) = self.declared.get(name) {
            return Some(ty.clone());
        }
        self.globals.get(name).cloned()
    }

    fn known_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.locals.iter().map(|(n, _)| n.clone()).collect();
        names.extend(self.declared.keys().cloned());
        names.extend(self.globals.keys().cloned());
        names.extend(builtins::BUILTINS.iter().map(|b| b.name.to_string()));
        names
    }

    fn unknown(&mut self, name: &str, span: Span) {
        let nearest = self
            .known_names()
            .into_iter()
            .map(|n| (strsim::damerau_levenshtein(name, &n), n))
            .filter(|(d, n)| *d <= 2.max(name.len() / 3) && *d < n.len().max(name.len()))
            .min();
        let help = match (prompt_word(name), nearest) {
            (Some(help), _) => help.to_string(),
            (None, Some((_, n))) => format!("did you mean `{n}`?"),
            (None, None) => "declare it with `let` or `game` before using it".to_string(),
        };
        self.errors.push(Error::UnknownName {
            name: name.to_string(),
            span,
            help,
        });
    }

    /// The `N` of `up to N` (`period`, `survey`): a number of heaps.
    fn heaps_bound(&mut self, bound: Option<&Expr>) {
        if let Some(bound) = bound {
            let help = "write e.g. `up to 100000`";
            self.expect(bound, &[Ty::Int], "a number of heaps", help);
        }
    }

    fn expect(&mut self, expr: &Expr, wanted: &[Ty], what: &'static str, help: &str) -> Ty {
        let ty = self.expr(expr);
        if ty != Ty::Unknown
            && !wanted.contains(&ty)
            && !matches!((&ty, wanted.first()), (Ty::Game(_), Some(Ty::Game(_))))
        {
            self.errors.push(Error::type_mismatch(
                what,
                found(&ty, expr),
                expr.span,
                help,
            ));
        }
        ty
    }

    pub fn statement(&mut self, stmt: &Stmt) {
        match &stmt.kind {
            StmtKind::Let { name, value } => {
                let ty = self.expr(value);
                self.declared.insert(name.name.clone(), ty);
            }
            StmtKind::Function(decl) => self.function(decl),
            StmtKind::Game(decl) => self.game(decl),
            StmtKind::Query { target, .. } => {
                self.expect(
                    target,
                    &[Ty::Position],
                    "a position",
                    "write a game with a state, e.g. `nim[3, 4, 5]`",
                );
            }
            StmtKind::Sequence { game, range, .. } => {
                self.game_arg(game, Shape::Heaps, "sequence");
                self.expect(range, &[Ty::Range], "a range", "write e.g. `0..=83`");
            }
            StmtKind::Genus {
                target,
                range: None,
            } => {
                self.expect(
                    target,
                    &[Ty::Position],
                    "a position",
                    "write a game with a state, e.g. `kayles[3] + kayles[4]`, or a heap game and a range, e.g. `genus kayles 0..=20`",
                );
            }
            StmtKind::Genus {
                target,
                range: Some(range),
            } => {
                self.game_arg(target, Shape::Heaps, "genus");
                self.expect(range, &[Ty::Range], "a range", "write e.g. `0..=20`");
            }
            StmtKind::Quotient { game, range } => {
                self.game_arg(game, Shape::Heaps, "quotient");
                self.expect(range, &[Ty::Range], "a range", "write e.g. `0..=30`");
            }
            StmtKind::Table {
                game, rows, cols, ..
            }
            | StmtKind::Ppos {
                game, rows, cols, ..
            } => {
                let statement = match stmt.kind {
                    StmtKind::Ppos { .. } => "ppos",
                    _ => "table",
                };
                self.game_arg(game, Shape::Tuple(2), statement);
                self.expect(rows, &[Ty::Range], "a range", "write e.g. `0..10`");
                self.expect(cols, &[Ty::Range], "a range", "write e.g. `0..10`");
            }
            StmtKind::SequenceOf { value, axis, .. } => self.swept(value, &[axis]),
            StmtKind::TableOf {
                value, rows, cols, ..
            } => self.swept(value, &[rows, cols]),
            StmtKind::Period { game, bound } => {
                self.game_arg(game, Shape::Heaps, "period");
                self.heaps_bound(bound.as_ref());
            }
            StmtKind::PeriodOf { value, axis } => self.swept(value, &[axis]),
            StmtKind::Compare { left, right, range } => {
                for game in [left, right] {
                    self.game_arg(game, Shape::Heaps, "compare");
                }
                if let Some(range) = range {
                    self.expect(range, &[Ty::Range], "a range", "write e.g. `0..=1000`");
                }
            }
            StmtKind::Survey { family, bound, .. } => {
                match family {
                    SurveyFamily::Octal(k) | SurveyFamily::Hex(k) => {
                        let help = "write e.g. `survey octal 3`";
                        self.expect(k, &[Ty::Int], "a number of digits", help);
                    }
                    SurveyFamily::Subtraction(k) => {
                        let help = "write e.g. `survey subtraction 6`";
                        self.expect(k, &[Ty::Int], "the largest take", help);
                    }
                    SurveyFamily::Games(games) => {
                        let help = "write e.g. `survey [kayles, dawson]`";
                        self.expect(games, &[Ty::List], "a list of heap games", help);
                    }
                }
                self.heaps_bound(bound.as_ref());
            }
            StmtKind::Dot { target, .. } => {
                self.expect(
                    target,
                    &[Ty::Position],
                    "a position",
                    "write a game with a state, e.g. `g[a]`",
                );
            }
            StmtKind::Plot { plot, options, .. } => {
                let is_table = matches!(plot, Plot::Table { .. } | Plot::TableOf { .. });
                let table_only = (options.barlabel.as_ref().map(|(_, at)| ("barlabel", *at)))
                    .into_iter()
                    .chain(options.colours.as_ref().map(|c| ("colours", c.span)));
                for (option, at) in table_only.filter(|_| !is_table) {
                    self.errors.push(Error::invalid(
                        format!("`{option}` in a sequence plot"),
                        at,
                        "a sequence plot has no colour bar: `colours` and `barlabel` are for \
                         `plot table`",
                    ));
                }
                for side in options.size.iter().flat_map(|(w, h)| [w, h]) {
                    self.expect(
                        side,
                        &[Ty::Int],
                        "an integer",
                        "a size in pixels, e.g. `size 1600 x 800`",
                    );
                }
                match plot {
                    Plot::Sequence { game, range, .. } => {
                        self.game_arg(game, Shape::Heaps, "plot sequence");
                        self.expect(range, &[Ty::Range], "a range", "write e.g. `0..=2000`");
                    }
                    Plot::SequenceOf { value, axis } => self.swept(value, &[axis]),
                    Plot::TableOf { value, rows, cols } => self.swept(value, &[rows, cols]),
                    Plot::Table {
                        game, rows, cols, ..
                    } => {
                        self.game_arg(game, Shape::Tuple(2), "plot table");
                        self.expect(rows, &[Ty::Range], "a range", "write e.g. `0..256`");
                        self.expect(cols, &[Ty::Range], "a range", "write e.g. `0..256`");
                    }
                }
            }
            StmtKind::Check { condition, binders } => {
                let depth = self.locals.len();
                self.binders(binders);
                self.expect(
                    condition,
                    &[Ty::Bool],
                    "a boolean",
                    "`check` needs a condition that is true or false",
                );
                self.locals.truncate(depth);
            }
            StmtKind::Assert(condition) => {
                self.expect(
                    condition,
                    &[Ty::Bool],
                    "a boolean",
                    "`assert` needs a condition that is true or false",
                );
            }
            StmtKind::Print(expr) | StmtKind::Expr(expr) => {
                self.expr(expr);
            }
        }
    }

    /// `sequence EXPR for n in RANGE`, `table EXPR for a in ROWS, b in COLUMNS`.
    fn swept(&mut self, value: &Expr, axes: &[&Axis]) {
        let depth = self.locals.len();
        for axis in axes {
            self.expect(&axis.range, &[Ty::Range], "a range", "write e.g. `0..=20`");
            self.locals.push((axis.name.name.clone(), Ty::Int));
        }
        self.expect(
            value,
            &[Ty::Int, Ty::Position],
            "an integer or a position",
            "each value is an integer, or a position whose Grundy value is shown",
        );
        self.locals.truncate(depth);
    }

    /// `game`, the game of `statement`, must be of this shape: a heap game or a game of two
    /// counters. A game of the other shape is pointed to the statement that takes it.
    fn game_arg(&mut self, game: &Expr, shape: Shape, statement: &str) {
        match self.expr(game) {
            Ty::Unknown => {}
            Ty::Game(s) if s == shape => {}
            Ty::Family(arity, _) => self.errors.push(Error::Arity {
                name: describe(game),
                expected: crate::eval::expr::plural(arity, "parameter"),
                found: 0,
                span: game.span,
                help: "give the game its parameters, e.g. `bash(3)`".into(),
            }),
            other => {
                let name = describe(game);
                let plot = if statement.starts_with("plot") {
                    "plot "
                } else {
                    ""
                };
                let file = if plot.is_empty() {
                    ""
                } else {
                    " to \"FILE.png\""
                };
                let help = match (&other, &shape) {
                    (Ty::Game(Shape::Tuple(2)), Shape::Heaps) => format!(
                        "the values of a game of two counters make a table, not a sequence: \
                         `{plot}table {name} 0..10, 0..10{file}`"
                    ),
                    (Ty::Game(Shape::Heaps), Shape::Tuple(2)) => format!(
                        "the values of a heap game make a sequence, not a table: \
                         `{plot}sequence {name} 0..=30{file}`"
                    ),
                    (_, Shape::Heaps) => format!(
                        "`{statement}` takes a game played on one heap, e.g. `kayles`, `bash(3)`"
                    ),
                    _ => format!("`{statement}` takes a game declared `on (a, b)`, e.g. `wythoff`"),
                };
                let what = match shape {
                    Shape::Heaps => "a heap game",
                    _ => "a game of two counters",
                };
                self.errors.push(Error::type_mismatch(
                    what,
                    found(&other, game),
                    game.span,
                    help,
                ))
            }
        }
    }

    /// A function's parameters are of any type; its name is known in its body (it may recurse).
    fn function(&mut self, decl: &FunctionDecl) {
        for (i, param) in decl.params.iter().enumerate() {
            if let Some(first) = decl.params[..i].iter().find(|p| p.name == param.name) {
                self.errors.push(Error::Duplicate {
                    name: param.name.clone(),
                    span: param.span,
                    first: first.span,
                });
            }
        }
        let ty = Ty::Function(decl.params.len());
        self.declared.insert(decl.name.name.clone(), ty);
        let depth = self.locals.len();
        for param in &decl.params {
            self.locals.push((param.name.clone(), Ty::Unknown));
        }
        self.expr(&decl.body);
        self.locals.truncate(depth);
    }

    fn game(&mut self, decl: &GameDecl) {
        let mut seen: Vec<&Ident> = Vec::new();
        let mut state_names: Vec<&Ident> = Vec::new();
        if let GameDef::Rules { state, .. } = &decl.def {
            match state {
                StateShape::Heap(n) | StateShape::List(n) | StateShape::Cells(n) => {
                    state_names.push(n)
                }
                StateShape::Tuple(names) => state_names.extend(names),
            }
        }
        for name in decl.params.iter().chain(state_names.iter().copied()) {
            if let Some(first) = seen.iter().find(|s| s.name == name.name) {
                self.errors.push(Error::Duplicate {
                    name: name.name.clone(),
                    span: name.span,
                    first: first.span,
                });
            }
            seen.push(name);
        }
        let depth = self.locals.len();
        for param in &decl.params {
            self.locals.push((param.name.clone(), Ty::Unknown));
        }
        match &decl.def {
            GameDef::Rules {
                state,
                rules,
                unordered,
            } => {
                if *unordered && matches!(state, StateShape::Cells(_)) {
                    self.errors.push(Error::invalid(
                        "`unordered` does not apply to a game on cells",
                        decl.name.span,
                        "the state of a game on cells is a set of cells; `unordered` is for `on (a, b)` and `on s[]`",
                    ));
                }
                if *unordered && matches!(state, StateShape::Heap(_)) {
                    self.errors.push(Error::invalid(
                        "`unordered` does not apply to a heap game",
                        decl.name.span,
                        "the heaps of a heap game are already a multiset; `unordered` is for `on (a, b)` and `on s[]`",
                    ));
                }
                self.heap_game = matches!(state, StateShape::Heap(_));
                let list = matches!(state, StateShape::List(_));
                let cells = matches!(state, StateShape::Cells(_));
                self.state = state_names
                    .iter()
                    .map(|n| StateVar {
                        name: n.name.clone(),
                        list,
                    })
                    .collect();
                for var in state_names {
                    let ty = match (list, cells) {
                        (true, _) => Ty::List,
                        (_, true) => Ty::Board,
                        _ => Ty::Int,
                    };
                    self.locals.push((var.name.clone(), ty));
                }
                for rule in rules {
                    self.rule(rule);
                }
                self.state.clear();
            }
            GameDef::Octal { code, hex, span } => {
                if let Err(fault) = Octal::parse(&decl.name.name, code, Base::of(*hex)) {
                    self.errors.push(Error::of_code(code, *hex, fault, *span));
                }
            }
            GameDef::Subtraction { set } => {
                self.expect(
                    set,
                    &[Ty::Set, Ty::Range, Ty::List],
                    "a set, list or range",
                    "write e.g. `subtraction {1, 3, 4}` or `subtraction 1..`",
                );
            }
            GameDef::Graph { .. } => {}
        }
        self.locals.truncate(depth);
        let ty = if decl.params.is_empty() {
            Ty::Game(shape_of(decl))
        } else {
            Ty::Family(decl.params.len(), shape_of(decl))
        };
        self.declared.insert(decl.name.name.clone(), ty);
    }

    fn rule(&mut self, rule: &Rule) {
        let depth = self.locals.len();
        self.binders(&rule.binders);
        if let Some(condition) = &rule.condition {
            self.expect(
                condition,
                &[Ty::Bool],
                "a boolean",
                "a rule's `if` needs a condition",
            );
        }
        self.steps(&rule.steps());
        self.locals.truncate(depth);
    }

    /// The updates of a rule, and its loops (nested at most 16 deep, by the parser).
    fn steps(&mut self, steps: &[Step]) {
        for step in steps {
            match step {
                Step::Update(update) => self.update(update),
                Step::Loop { binders, body, .. } => {
                    let depth = self.locals.len();
                    self.binders(binders);
                    self.steps(body);
                    self.locals.truncate(depth);
                }
            }
        }
    }

    fn update(&mut self, update: &Update) {
        let value = self.expr(&update.value);
        if let Some(i) = &update.index {
            self.expect(i, &[Ty::Int], "an integer", "an index is an integer");
        }
        let Some(var) = self.state.iter().find(|v| v.name == update.target.name) else {
            let names: Vec<String> = self.state.iter().map(|v| format!("`{}`", v.name)).collect();
            self.errors.push(Error::invalid(
                format!("`{}` is not part of the state", update.target.name),
                update.target.span,
                format!("a rule updates the state: {}", names.join(", ")),
            ));
            return;
        };
        if update.index.is_some() && !var.list {
            self.errors.push(Error::invalid(
                format!("`{}` is a counter, not a list", var.name),
                update.span,
                "only the state of a list game (`on s[]`) is indexed",
            ));
        }
        let splits_heap = self.heap_game && update.op == UpdateOp::Assign;
        if value == Ty::List && update.index.is_none() && !var.list && !splits_heap {
            self.errors.push(Error::invalid(
                format!("`{}` is a counter and cannot take a list", var.name),
                update.value.span,
                "only a heap game (`on n`) splits its heap: `n = [a, b]`",
            ));
        }
        let whole = update.index.is_none() && update.op == UpdateOp::Assign;
        if var.list && whole && !matches!(value, Ty::List | Ty::Unknown) {
            self.errors.push(Error::type_mismatch(
                "a list of counters",
                found(&value, &update.value),
                update.value.span,
                format!(
                    "`{0} = ...` replaces the whole state, a list: e.g. `{0} = [{0}[0] - 1] ++ {0}[1..]`",
                    var.name
                ),
            ));
        }
    }

    fn binders(&mut self, binders: &[Binder]) {
        for binder in binders {
            if self.state.iter().any(|v| v.name == binder.name.name) {
                self.errors.push(Error::invalid(
                    format!(
                        "`{}` is part of the state and cannot be bound here",
                        binder.name.name
                    ),
                    binder.name.span,
                    "choose another name for the variable of this `for`",
                ));
            }
            let domain = self.expr(&binder.value);
            let ty = match binder.kind {
                BinderKind::Let => domain,
                BinderKind::In => match domain {
                    Ty::Range | Ty::Set | Ty::Board => Ty::Int,
                    Ty::Box => Ty::List,
                    Ty::List | Ty::Unknown => Ty::Unknown,
                    other => {
                        self.errors.push(Error::type_mismatch(
                            "a range, set, list or box",
                            found(&other, &binder.value),
                            binder.value.span,
                            "`x in ...` needs something to go through",
                        ));
                        Ty::Unknown
                    }
                },
            };
            self.locals.push((binder.name.name.clone(), ty));
            if let Some(guard) = &binder.guard {
                self.expect(
                    guard,
                    &[Ty::Bool],
                    "a boolean",
                    "a guard `if COND` after a binder needs a condition",
                );
            }
        }
    }

    fn expr(&mut self, expr: &Expr) -> Ty {
        match &expr.kind {
            ExprKind::Int(_) => Ty::Int,
            ExprKind::Bool(_) => Ty::Bool,
            ExprKind::Str(_) => Ty::Str,
            ExprKind::Var(name) => match self.lookup(name) {
                Some(ty) => ty,
                None => {
                    if builtins::builtin(name).is_some() {
                        self.errors.push(Error::invalid(
                            format!("`{name}` is a function"),
                            expr.span,
                            format!("call it: `{name}(...)`"),
                        ));
                    } else {
                        self.unknown(name, expr.span);
                    }
                    Ty::Unknown
                }
            },
            ExprKind::List(items) => {
                for item in items {
                    self.expr(item);
                }
                Ty::List
            }
            ExprKind::Set(items) => {
                for item in items {
                    self.expect(item, &[Ty::Int], "an integer", "sets hold integers");
                }
                Ty::Set
            }
            ExprKind::Unary(op, operand) => match op {
                UnaryOp::Neg => {
                    self.expect(operand, &[Ty::Int], "an integer", "`-` negates an integer");
                    Ty::Int
                }
                UnaryOp::Not => {
                    self.expect(
                        operand,
                        &[Ty::Bool],
                        "a boolean",
                        "`not` works on true and false",
                    );
                    Ty::Bool
                }
                UnaryOp::Misere => {
                    self.expect(
                        operand,
                        &[Ty::Position],
                        "a position",
                        "`misere` takes a position, e.g. `misere nim[1, 1]`",
                    );
                    Ty::Position
                }
            },
            ExprKind::Binary(op, left, right) => self.binary(*op, left, right),
            ExprKind::Range { start, end, .. } => {
                self.expect(
                    start,
                    &[Ty::Int, Ty::List],
                    "an integer",
                    "a range starts at an integer",
                );
                match end {
                    None => Ty::Range,
                    Some(end) => match self.expect(
                        end,
                        &[Ty::Int, Ty::List],
                        "an integer or a list",
                        "a range ends at an integer (a list makes a box)",
                    ) {
                        Ty::List => Ty::Box,
                        Ty::Int => Ty::Range,
                        _ => Ty::Unknown,
                    },
                }
            }
            ExprKind::If {
                condition,
                then,
                otherwise,
            } => {
                self.expect(
                    condition,
                    &[Ty::Bool],
                    "a boolean",
                    "`if` needs a condition",
                );
                let a = self.expr(then);
                let b = self.expr(otherwise);
                if a == b {
                    a
                } else {
                    Ty::Unknown
                }
            }
            ExprKind::Call { callee, args } => self.call(callee, args, expr.span),
            ExprKind::Index { target, args } => self.index(target, args, expr.span),
            ExprKind::Comprehension { body, binders } => {
                let depth = self.locals.len();
                self.binders(binders);
                self.expr(body);
                self.locals.truncate(depth);
                Ty::List
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, left: &Expr, right: &Expr) -> Ty {
        let a = self.expr(left);
        let b = self.expr(right);
        let bool_op = matches!(op, BinaryOp::And | BinaryOp::Or);
        if bool_op {
            for (ty, e) in [(&a, left), (&b, right)] {
                if !matches!(ty, Ty::Bool | Ty::Unknown) {
                    self.errors.push(Error::type_mismatch(
                        "a boolean",
                        found(ty, e),
                        e.span,
                        format!("`{}` works on true and false", op.symbol()),
                    ));
                }
            }
            return Ty::Bool;
        }
        if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            return Ty::Bool;
        }
        if op == BinaryOp::In {
            if !matches!(a, Ty::Int | Ty::Unknown) {
                self.errors.push(Error::type_mismatch(
                    "an integer",
                    found(&a, left),
                    left.span,
                    "`x in s` asks whether the integer x is in s",
                ));
            }
            if !matches!(b, Ty::Set | Ty::List | Ty::Range | Ty::Board | Ty::Unknown) {
                self.errors.push(Error::type_mismatch(
                    "a set, list, range or board",
                    found(&b, right),
                    right.span,
                    "`x in s` asks whether the integer x is in s",
                ));
            }
            return Ty::Bool;
        }
        // `b - {x}` of a value not known to be a board may remove cells from one.
        if op == BinaryOp::Sub && a == Ty::Unknown && b == Ty::Set {
            return Ty::Unknown;
        }
        if op == BinaryOp::Sub && a == Ty::Board {
            if !matches!(b, Ty::Set | Ty::Int | Ty::Unknown) {
                self.errors.push(Error::type_mismatch(
                    "a set of cells or a cell",
                    found(&b, right),
                    right.span,
                    "`b - {x, y}` removes cells from a board",
                ));
            }
            return Ty::Board;
        }
        let allowed: &[Ty] = match op {
            BinaryOp::Concat => &[Ty::List],
            BinaryOp::Add => &[Ty::Int, Ty::List, Ty::Position],
            BinaryOp::Sub => &[Ty::Int, Ty::List],
            _ => &[Ty::Int],
        };
        let mut result = Ty::Unknown;
        for (ty, e) in [(&a, left), (&b, right)] {
            if *ty != Ty::Unknown && !allowed.contains(ty) {
                let expected = match op {
                    BinaryOp::Concat => "lists",
                    BinaryOp::Add => "integers, lists of equal length, or positions",
                    BinaryOp::Sub => "integers or lists of equal length",
                    _ => "integers",
                };
                self.errors.push(Error::type_mismatch(
                    expected,
                    found(ty, e),
                    e.span,
                    format!("`{}` works on {expected}", op.symbol()),
                ));
            } else if *ty != Ty::Unknown {
                result = ty.clone();
            }
        }
        if a != Ty::Unknown
            && b != Ty::Unknown
            && a != b
            && allowed.contains(&a)
            && allowed.contains(&b)
        {
            self.errors.push(Error::type_mismatch(
                a.name(),
                found(&b, right),
                right.span,
                format!("both sides of `{}` must be of the same kind", op.symbol()),
            ));
            // Of neither kind, so that what takes this value does not report it again.
            result = Ty::Unknown;
        }
        match op {
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => Ty::Bool,
            _ => result,
        }
    }

    fn call(&mut self, callee: &Expr, args: &[Expr], span: Span) -> Ty {
        if let ExprKind::Var(name) = &callee.kind {
            if self.lookup(name).is_none() && prompt_word(name).is_some() {
                // `help(period)`: one mistake, so its arguments are not reported as well.
                self.unknown(name, callee.span);
                return Ty::Unknown;
            }
            if self.lookup(name).is_none() {
                if let Some(builtin) = builtins::builtin(name) {
                    let form = builtin.form(args.len());
                    if form.is_none() {
                        self.errors.push(Error::Arity {
                            name: name.clone(),
                            expected: builtin.describe_arity(),
                            found: args.len(),
                            span,
                            help: format!(
                                "see `{name}` in docs/LANGUAGE.md, section \"Built-in functions\""
                            ),
                        });
                    }
                    let arg_types: Vec<Ty> = args.iter().map(|a| self.expr(a)).collect();
                    for ((ty, arg), &kind) in arg_types.iter().zip(args).zip(form.unwrap_or(&[])) {
                        if !ty.fits(kind) {
                            self.errors.push(Error::type_mismatch(
                                kind.name(),
                                found(ty, arg),
                                arg.span,
                                format!("`{name}` takes {}", kind.name()),
                            ));
                        }
                    }
                    return match builtin.returns {
                        Returns::Int => Ty::Int,
                        Returns::Bool => Ty::Bool,
                        Returns::Str => Ty::Str,
                        Returns::List => Ty::List,
                        Returns::Set => Ty::Set,
                        Returns::Board => Ty::Board,
                    };
                }
            }
        }
        let callee_ty = self.expr(callee);
        for arg in args {
            self.expr(arg);
        }
        match callee_ty {
            Ty::Family(arity, shape) => {
                if arity != args.len() {
                    self.errors.push(Error::Arity {
                        name: describe(callee),
                        expected: crate::eval::expr::plural(arity, "parameter"),
                        found: args.len(),
                        span,
                        help: format!("`{}` is declared with {arity}", describe(callee)),
                    });
                }
                Ty::Game(shape)
            }
            Ty::Function(arity) => {
                if arity != args.len() {
                    self.errors.push(Error::Arity {
                        name: describe(callee),
                        expected: crate::eval::expr::plural(arity, "argument"),
                        found: args.len(),
                        span,
                        help: format!(
                            "`{}` is declared with {}",
                            describe(callee),
                            crate::eval::expr::plural(arity, "parameter")
                        ),
                    });
                }
                Ty::Unknown
            }
            Ty::Unknown => Ty::Unknown,
            other => {
                let help = match other {
                    Ty::Game(_) => format!(
                        "a position's heaps or counters go in square brackets: `{}[{}]`",
                        describe(callee),
                        shown_args(args)
                    ),
                    _ => "only built-in functions and games declared with parameters can be called"
                        .to_string(),
                };
                self.errors.push(Error::type_mismatch(
                    "a function or a game with parameters",
                    found(&other, callee),
                    callee.span,
                    help,
                ));
                Ty::Unknown
            }
        }
    }

    fn index(&mut self, target: &Expr, args: &[Expr], span: Span) -> Ty {
        let target_ty = self.expr(target);
        match target_ty {
            Ty::Game(Shape::Cells) => {
                for arg in args {
                    let ty = self.expr(arg);
                    if !matches!(ty, Ty::Board | Ty::Unknown) {
                        self.errors.push(Error::type_mismatch(
                            "a board",
                            found(&ty, arg),
                            arg.span,
                            format!(
                                "a position of `{0}` is a board: `{0}[grid(3, 2)]`",
                                describe(target)
                            ),
                        ));
                    }
                }
                Ty::Position
            }
            Ty::Game(shape) => {
                let mut counters = 0;
                let mut exact = true;
                for arg in args {
                    if let (Shape::Nodes(nodes), ExprKind::Var(name)) = (&shape, &arg.kind) {
                        if nodes.contains(name) {
                            counters += 1;
                            continue;
                        }
                        if self.lookup(name).is_none() {
                            self.errors
                                .push(unknown_node(name, nodes, target, arg.span));
                            continue;
                        }
                    }
                    match self.expr(arg) {
                        Ty::Int => counters += 1,
                        Ty::List | Ty::Range | Ty::Unknown => exact = false,
                        Ty::Str if matches!(shape, Shape::Nodes(_)) => counters += 1,
                        other => self.errors.push(Error::type_mismatch(
                            "an integer or a list of integers",
                            found(&other, arg),
                            arg.span,
                            "a position's brackets hold its heaps or counters",
                        )),
                    }
                }
                if let Shape::Tuple(width) = shape {
                    if exact && counters != width {
                        self.errors.push(Error::Arity {
                            name: describe(target),
                            expected: crate::eval::expr::plural(width, "counter"),
                            found: counters,
                            span,
                            help: format!(
                                "a position of `{}` is one state of {width} counters",
                                describe(target)
                            ),
                        });
                    }
                }
                Ty::Position
            }
            Ty::Family(arity, _) => {
                for arg in args {
                    self.expr(arg);
                }
                self.errors.push(Error::Arity {
                    name: describe(target),
                    expected: crate::eval::expr::plural(arity, "parameter"),
                    found: 0,
                    span: target.span,
                    help: format!(
                        "give the parameters before the state: `{}(...)[...]`",
                        describe(target)
                    ),
                });
                Ty::Position
            }
            Ty::List | Ty::Unknown => {
                for arg in args {
                    if target_ty == Ty::List {
                        self.expect(
                            arg,
                            &[Ty::Int, Ty::Range],
                            "an integer index or a range",
                            "`s[i]` or `s[i..j]`",
                        );
                    } else {
                        self.expr(arg);
                    }
                }
                if target_ty == Ty::List && args.len() != 1 {
                    self.errors.push(Error::Arity {
                        name: "list index".into(),
                        expected: "one index".into(),
                        found: args.len(),
                        span,
                        help: "write `s[i]` or a slice `s[i..j]`".into(),
                    });
                }
                match args.first().map(|a| &a.kind) {
                    Some(ExprKind::Range { .. }) => Ty::List,
                    _ => Ty::Unknown,
                }
            }
            other => {
                for arg in args {
                    self.expr(arg);
                }
                self.errors.push(Error::type_mismatch(
                    "a list or a game",
                    found(&other, target),
                    target.span,
                    "`x[...]` indexes a list or builds a position of a game",
                ));
                Ty::Unknown
            }
        }
    }
}

/// What to say of `help`, `quit` and `exit` used as names, as Python's prompt has them: they
/// are commands of grundy's prompt, written with a colon.
fn prompt_word(name: &str) -> Option<&'static str> {
    match name {
        "help" => Some(
            "help is a command of the prompt: `:help` lists the topics, `:help period` shows one",
        ),
        "quit" | "exit" => Some(
            "a program ends after its last statement; at the prompt, `:quit` (or Ctrl-D) leaves",
        ),
        _ => None,
    }
}

/// The arguments of a call as written, when they are integers or names (`3, n`), else `...`.
fn shown_args(args: &[Expr]) -> String {
    let shown: Option<Vec<String>> = args
        .iter()
        .map(|a| match &a.kind {
            ExprKind::Int(n) => Some(n.to_string()),
            ExprKind::Var(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    shown.map_or_else(|| "...".to_string(), |shown| shown.join(", "))
}

/// A short name for an expression in messages: the variable or callee name.
/// The most node names an unknown node's diagnostic lists.
const NODES_LISTED: usize = 24;

/// `g[d]` where `d` is neither a node of the graph game `g` nor a variable.
fn unknown_node(name: &str, nodes: &[String], game: &Expr, span: Span) -> Error {
    let nearest = nodes
        .iter()
        .map(|n| (strsim::damerau_levenshtein(name, n), n))
        .filter(|(d, n)| *d <= 2.max(name.len() / 3) && *d < n.len().max(name.len()))
        .min();
    let mut listed = nodes
        .iter()
        .take(NODES_LISTED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if nodes.len() > NODES_LISTED {
        listed += &format!(" ... and {} more", nodes.len() - NODES_LISTED);
    }
    let hint = match nearest {
        Some((_, n)) => format!("did you mean `{n}`? "),
        None => String::new(),
    };
    Error::UnknownName {
        name: name.to_string(),
        span,
        help: format!(
            "{hint}`{}` is a graph game, and `{name}` is not one of its nodes: {listed}",
            describe(game)
        ),
    }
}

/// What a mismatched value was found to be, as the runtime says it: a game or a game family
/// written by its name (`wythoff`, `bash(3)`) is named (`a two-counter game `wythoff``).
fn found(ty: &Ty, expr: &Expr) -> String {
    match (ty, game_name(expr)) {
        (Ty::Game(shape), Some(name)) => format!("{} `{name}`", shape.kind_of_game()),
        (Ty::Family(..), Some(name)) => {
            format!("the game family `{name}` (it needs parameters)")
        }
        _ => ty.name().to_string(),
    }
}

/// The name of a game as written, when it is a name or a name with integer parameters.
fn game_name(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Var(name) => Some(name.clone()),
        ExprKind::Call { callee, args } => {
            let ExprKind::Var(name) = &callee.kind else {
                return None;
            };
            let shown = args.iter().map(|a| match a.kind {
                ExprKind::Int(n) => Some(n.to_string()),
                _ => None,
            });
            let shown: Option<Vec<String>> = shown.collect();
            Some(format!("{name}({})", shown?.join(", ")))
        }
        _ => None,
    }
}

fn describe(expr: &Expr) -> String {
    match &expr.kind {
        ExprKind::Var(name) => name.clone(),
        ExprKind::Call { callee, .. } | ExprKind::Index { target: callee, .. } => describe(callee),
        _ => "this".to_string(),
    }
}
