//! Running checked programs: declarations, positions, queries and their answers.

mod answer;
mod answer_files;
pub mod boards;
pub mod builtin_calls;
mod check_statement;
mod compare_statement;
mod explore;
pub mod expr;
mod expression_sweeps;
mod function;
mod misere_statements;
mod output;
mod plot;
mod quotient_statement;
mod read;
mod results;
mod rules;
mod survey_statement;
mod sweep;
pub mod types;
pub use rules::interpret_only;
pub mod value;

use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use rustc_hash::FxHashMap;

use self::answer::{Answer, Layout, Target};
use self::expr::{solve_error, Eval, Flow, Host};
use self::results::Entry;
use self::rules::RuleGame;
use self::types::{GlobalTypes, Ty};
use self::value::{shape_of, Family, GameValue, PositionValue, Shape, Value};
use crate::error::{Error, Origin};
use crate::game::budget::{self, Charge};
use crate::game::graph::Graph;
use crate::game::octal::{Base, Octal};
use crate::game::subtraction::Subtraction;
use crate::game::vocabulary::{GValue, Outcome};
use crate::game::{Engine, Game, GameId, Limits, Method, Part, Wanted};
use crate::span::Span;
use crate::syntax::ast::{
    BinaryOp, Binder, Expr, ExprKind, GameDecl, GameDef, Output, Query, Stmt, StmtKind,
};

/// `win` and `moves` list at most this many moves, then how many more there are.
const MOST_MOVES_SHOWN: usize = 50;

/// The global names of a session and their values.
pub type Globals = FxHashMap<String, Value>;

/// The globals of a session, shared with the workers of a parallel sweep. Written only between
/// statements; read by any number of sweep workers at once. (Games read the copy they took when
/// they were declared.)
pub type SharedGlobals = Arc<RwLock<Globals>>;

/// Reads the globals (a panic elsewhere cannot leave them half-written: writes are single inserts).
pub(crate) fn read_globals(globals: &RwLock<Globals>) -> RwLockReadGuard<'_, Globals> {
    globals.read().unwrap_or_else(PoisonError::into_inner)
}

fn write_globals(globals: &RwLock<Globals>) -> RwLockWriteGuard<'_, Globals> {
    globals.write().unwrap_or_else(PoisonError::into_inner)
}

/// The names, declarations and game instances of a session at one point.
pub struct Checkpoint {
    globals: Globals,
    types: GlobalTypes,
    decls: usize,
    instances: FxHashMap<(usize, Vec<Value>), Arc<GameValue>>,
}

/// A declared game: its declaration, where it was declared, and the globals its rules read as
/// they were then, which are the ones its rules see (a later `let` cannot change the moves of a game
/// whose values are remembered).
#[derive(Clone)]
struct Declared {
    decl: Arc<GameDecl>,
    origin: Arc<Origin>,
    globals: Arc<Globals>,
}

/// The state of a run or REPL session: globals, declared games, their instances and the engine
/// that holds every solved value.
pub struct Interpreter {
    globals: SharedGlobals,
    /// The type of each global, recorded when it was defined: what the checker reads.
    types: GlobalTypes,
    decls: Vec<Declared>,
    instances: FxHashMap<(usize, Vec<Value>), Arc<GameValue>>,
    engine: Engine,
    /// What each global's value holds, charged to the memory ledger while it is defined.
    held: FxHashMap<String, Charge>,
    /// The threads of parallel sweeps, when `limits.threads` asks for a pool of its own.
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl Host for Interpreter {
    fn global(&self, name: &str) -> Option<Value> {
        read_globals(&self.globals).get(name).cloned()
    }

    fn instantiate(
        &mut self,
        family: &Family,
        args: Vec<Value>,
        span: Span,
    ) -> Result<Value, Error> {
        self.instance(family.decl, args, span).map(Value::Game)
    }

    fn engine(&mut self) -> Option<&mut Engine> {
        Some(&mut self.engine)
    }

    fn interrupted(&self) -> bool {
        self.engine.limits.interrupt.load(Ordering::Relaxed)
    }

    fn max_elements(&self) -> usize {
        self.engine.limits.max_states
    }

    fn charge(&self) -> Option<Charge> {
        Some(self.engine.limits.charge())
    }

    fn interpreter(&mut self) -> Option<&mut Interpreter> {
        Some(self)
    }
}

impl Interpreter {
    pub fn new(limits: Limits) -> Interpreter {
        Interpreter {
            globals: Arc::new(RwLock::new(Globals::default())),
            types: GlobalTypes::default(),
            decls: Vec::new(),
            instances: FxHashMap::default(),
            engine: Engine::new(limits),
            held: FxHashMap::default(),
            pool: None,
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.engine.limits
    }

    /// What [`Interpreter::roll_back`] needs to undo everything run after this point. Values
    /// already solved stay in the engine: they are facts about games, right whatever happens.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            globals: read_globals(&self.globals).clone(),
            types: self.types.clone(),
            decls: self.decls.len(),
            instances: self.instances.clone(),
        }
    }

    pub fn roll_back(&mut self, checkpoint: Checkpoint) {
        *write_globals(&self.globals) = checkpoint.globals;
        self.types = checkpoint.types;
        self.decls.truncate(checkpoint.decls);
        self.instances = checkpoint.instances;
        // The values held are those of the globals restored, which were charged before.
        self.held.clear();
        let globals = read_globals(&self.globals).clone();
        for (name, value) in globals {
            let mut charge = self.engine.limits.charge();
            let _ = charge.grow(value.bytes());
            self.held.insert(name, charge);
        }
    }

    /// The global names and their values.
    pub fn globals(&self) -> RwLockReadGuard<'_, Globals> {
        read_globals(&self.globals)
    }

    /// The global names and their types, for the checker and for completion.
    pub fn global_types(&self) -> &GlobalTypes {
        &self.types
    }

    /// Defines (or redefines) a global, recording its type and charging what its value holds
    /// (refused, with the memory limit's diagnostic at `span`, when it does not fit).
    fn define(&mut self, name: &str, value: Value, span: Span) -> Result<(), Error> {
        let old = self.held.remove(name);
        let mut charge = self.engine.limits.charge();
        if let Err(over) = charge.grow(value.bytes()) {
            if let Some(old) = old {
                self.held.insert(name.to_string(), old);
            }
            return Err(expr::over_memory(over, span));
        }
        drop(old);
        self.held.insert(name.to_string(), charge);
        self.types.insert(name.to_string(), Ty::of(&value));
        write_globals(&self.globals).insert(name.to_string(), value);
        Ok(())
    }

    /// Runs statements in order, writing answers to `out`. A failed `assert` or `check` is
    /// kept and the run goes on; any other error stops it, and so do the errors a statement
    /// comes with (from parsing or checking it as it is read). The errors come back in order,
    /// and after failures of more than one `assert` or `check`, [`Error::Failures`] counts
    /// them. Games declared here remember `origin`, so that errors in their rules point into
    /// it later.
    /// Ctrl-C stops the run at the end of the statement it came in, and cuts what is being
    /// written (see [`output::Interruptible`]).
    pub fn execute(
        &mut self,
        statements: impl IntoIterator<Item = Result<Stmt, Vec<Error>>>,
        origin: &Arc<Origin>,
        out: &mut dyn Write,
    ) -> Result<(), Vec<Error>> {
        let interrupt = self.engine.limits.interrupt.clone();
        let out = &mut output::Interruptible::new(out, &interrupt);
        let mut errors = Vec::new();
        let mut tests = 0;
        for statement in statements {
            let statement = match statement {
                Ok(statement) => statement,
                Err(found) => {
                    errors.extend(found);
                    return Err(errors);
                }
            };
            let statement = &statement;
            if matches!(statement.kind, StmtKind::Assert(_) | StmtKind::Check { .. }) {
                tests += 1;
            }
            let done = self.statement(statement, origin, out);
            let done = match done {
                Ok(()) if self.interrupted() => Err(Error::Interrupted),
                done => done,
            };
            match done {
                Ok(()) => {}
                Err(failure @ (Error::AssertFailed { .. } | Error::CheckFailed { .. })) => {
                    errors.push(failure);
                }
                Err(error) => {
                    errors.push(error);
                    return Err(errors);
                }
            }
        }
        match errors.len() {
            0 => Ok(()),
            failed => {
                if tests > 1 {
                    errors.push(Error::Failures { failed, tests });
                }
                Err(errors)
            }
        }
    }

    fn statement(
        &mut self,
        stmt: &Stmt,
        origin: &Arc<Origin>,
        out: &mut dyn Write,
    ) -> Result<(), Error> {
        let text = match &stmt.kind {
            StmtKind::Let { name, value } => {
                let span = value.span;
                let value = Eval::new(self).eval(value)?;
                return self.define(&name.name, value, span);
            }
            StmtKind::Function(decl) => {
                let value = function::define(decl, origin, &read_globals(&self.globals));
                return self.define(&decl.name.name, value, decl.name.span);
            }
            StmtKind::Game(decl) => return self.declare(decl, origin),
            StmtKind::Query { query, target } => self.query(*query, target, origin)?,
            StmtKind::Sequence {
                game,
                range,
                misere,
                output,
            } => {
                return self.answered(output, stmt.span, out, |this, answer| {
                    this.sequence(game, range, *misere, answer)
                })
            }
            StmtKind::Table {
                game,
                rows,
                cols,
                misere,
                output,
            } => {
                return self.answered(output, stmt.span, out, |this, answer| {
                    this.table(game, rows, cols, false, *misere, answer)
                })
            }
            StmtKind::Ppos {
                game,
                rows,
                cols,
                misere,
                output,
            } => {
                return self.answered(output, stmt.span, out, |this, answer| {
                    this.table(game, rows, cols, true, *misere, answer)
                })
            }
            StmtKind::SequenceOf {
                value,
                axis,
                output,
            } => {
                return self.answered(output, stmt.span, out, |this, answer| {
                    this.sequence_of(value, axis, &origin.text, answer)
                })
            }
            StmtKind::TableOf {
                value,
                rows,
                cols,
                ppos,
                output,
            } => {
                return self.answered(output, stmt.span, out, |this, answer| {
                    this.table_of(value, rows, cols, *ppos, &origin.text, answer)
                })
            }
            StmtKind::Genus { target, range } => self.genus(target, range.as_ref())?,
            StmtKind::Quotient { game, range } => return self.quotient(game, range, out),
            StmtKind::Check { condition, binders } => self.check(condition, binders)?,
            StmtKind::Period { game, bound } => self.period(game, bound.as_ref())?,
            StmtKind::PeriodOf { value, axis } => self.period_of(value, axis, &origin.text)?,
            StmtKind::Compare { left, right, range } => match range {
                Some(range) => self.compare_on(left, right, range)?,
                None => self.compare(left, right)?,
            },
            StmtKind::Survey {
                family,
                bound,
                output,
            } => return self.survey(family, bound.as_ref(), output.as_ref(), stmt.span, out),
            StmtKind::Dot { target, output } => self.dot(target, output.as_ref())?,
            StmtKind::Plot {
                plot,
                file,
                file_span,
                options,
            } => self.plot(plot, file, *file_span, options, &origin.text)?,
            StmtKind::Assert(condition) => {
                let mut eval = Eval::new(self);
                if eval.bool(condition)? {
                    return Ok(());
                }
                return Err(Error::AssertFailed {
                    detail: explain(&mut eval, condition),
                    span: condition.span,
                });
            }
            StmtKind::Print(expr) => {
                match Eval::new(self).eval(expr)? {
                    Value::Str(s) => output::write_line(out, &s),
                    other => output::write_line(out, &other),
                }
                return Ok(());
            }
            StmtKind::Expr(expr) => match Eval::new(self).eval(expr)? {
                Value::Position(p) => {
                    let value = self
                        .engine
                        .gvalue(&p.position)
                        .map_err(|e| solve_error(e, expr.span))?;
                    let note = loopy_note(&self.engine, &p, &value);
                    format!("{p}: grundy {value}, {}{note}", value.outcome().letter())
                }
                other => {
                    output::write_line(out, &other);
                    return Ok(());
                }
            },
        };
        let _ = writeln!(out, "{text}");
        Ok(())
    }

    /// The globals that the rules of a game read, as they are now.
    fn globals_read_by(&self, def: &GameDef) -> Globals {
        let globals = read_globals(&self.globals);
        def.names_read()
            .into_iter()
            .filter_map(|name| Some((name.to_string(), globals.get(name)?.clone())))
            .collect()
    }

    fn declare(&mut self, decl: &GameDecl, origin: &Arc<Origin>) -> Result<(), Error> {
        self.decls.push(Declared {
            decl: Arc::new(decl.clone()),
            origin: origin.clone(),
            globals: Arc::new(self.globals_read_by(&decl.def)),
        });
        let index = self.decls.len() - 1;
        let value = if decl.params.is_empty() {
            Value::Game(self.instance(index, Vec::new(), decl.name.span)?)
        } else {
            Value::Family(Arc::new(Family {
                name: decl.name.name.clone(),
                decl: index,
                arity: decl.params.len(),
                shape: shape_of(decl),
            }))
        };
        self.define(&decl.name.name, value, decl.name.span)
    }

    /// The instance of declaration `index` with these parameters, made once per run.
    fn instance(
        &mut self,
        index: usize,
        args: Vec<Value>,
        span: Span,
    ) -> Result<Arc<GameValue>, Error> {
        let key = (index, args);
        if let Some(game) = self.instances.get(&key) {
            return Ok(game.clone());
        }
        let Declared {
            decl,
            origin,
            globals,
        } = self.decls[index].clone();
        let args = key.1.clone();
        let display = if args.is_empty() {
            decl.name.name.clone()
        } else {
            let shown: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            format!("{}({})", decl.name.name, shown.join(", "))
        };
        let shape = shape_of(&decl);
        let game: Arc<dyn Game> = match &decl.def {
            GameDef::Rules { .. } => {
                let limits = &self.engine.limits;
                let game = RuleGame::new(
                    display.clone(),
                    decl.clone(),
                    origin.clone(),
                    args.clone(),
                    globals,
                    limits,
                );
                Arc::new(game)
            }
            GameDef::Octal { code, hex, span } => {
                let octal = Octal::parse(&display, code, Base::of(*hex)).map_err(|fault| {
                    Error::of_code(code, *hex, fault, *span).declared_in(&origin)
                })?;
                Arc::new(octal)
            }
            GameDef::Subtraction { set } => {
                let (finite, open_from) = self
                    .subtraction_set(&decl, &args, set)
                    .map_err(|e| e.declared_in(&origin))?;
                let game = Subtraction::of_set(&display, finite, open_from).map_err(|bad| {
                    Error::invalid(
                        format!("a subtraction set holds positive integers, not {bad}"),
                        set.span,
                        "every move takes at least one token",
                    )
                    .declared_in(&origin)
                })?;
                Arc::new(game)
            }
            GameDef::Graph { lines } => Arc::new(Graph::from_lines(
                &display,
                lines.iter().map(|line| {
                    let to = line.to.iter().map(|to| to.name.as_str());
                    (line.from.name.as_str(), to)
                }),
            )),
        };
        let _ = span;
        let id = self.engine.add_game(game);
        let value = Arc::new(GameValue { display, id, shape });
        self.instances.insert(key, value.clone());
        Ok(value)
    }

    /// The members of a declared subtraction set, as the game takes them: the finite members
    /// and, for an open range `a..`, its start.
    fn subtraction_set(
        &mut self,
        decl: &GameDecl,
        args: &[Value],
        set: &Expr,
    ) -> Result<(Vec<i64>, Option<i64>), Error> {
        let mut eval = Eval::new(self);
        for (param, value) in decl.params.iter().zip(args) {
            eval.push(&param.name, value.clone());
        }
        match eval.eval(set)? {
            Value::Range { start, last: None } => Ok((Vec::new(), Some(start))),
            Value::Range { .. } | Value::Set(_) | Value::List(_) => {
                Ok((builtin_calls::ints(&mut eval, set)?, None))
            }
            other => Err(Error::type_mismatch(
                "a set, list or range of positive integers",
                other.type_name(),
                set.span,
                "write e.g. `subtraction {1, 3, 4}`, `subtraction 1..=4` or `subtraction 1..`",
            )),
        }
    }

    fn query(&mut self, query: Query, target: &Expr, origin: &Origin) -> Result<String, Error> {
        let p = Eval::new(self).position(target)?;
        let span = target.span;
        let written = origin
            .text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("p");
        let engine = &mut self.engine;
        let fail = |e| solve_error(e, span);
        Ok(match query {
            Query::Grundy => {
                let value = engine.gvalue(&p.position).map_err(fail)?;
                format!("{value}{}", loopy_note(engine, &p, &value))
            }
            Query::Outcome => engine
                .outcome(&p.position)
                .map_err(fail)?
                .letter()
                .to_string(),
            Query::Moves => {
                let moves = engine
                    .first_moves(&p.position, Wanted::Every, MOST_MOVES_SHOWN)
                    .map_err(fail)?;
                let rows: Vec<(String, String)> = moves
                    .first
                    .iter()
                    .map(|m| {
                        let shown = m.shown_to();
                        let parts = m.parts_with(&p.position, &shown);
                        (show(&p, parts), m.value.to_string())
                    })
                    .collect();
                // The value of a position is the mex of its options' values (of their finite
                // values, for an infinite one): no need to visit every option.
                // An infinite value is no mex: it is said as it is, with its finite options.
                let value = match engine.gvalue(&p.position).map_err(fail)? {
                    _ if moves.count == 0 => "mex 0".to_string(),
                    GValue::Finite(v) => format!("mex {v}"),
                    infinite => format!("value {infinite}: infinite, not a mex"),
                };
                results::Moves {
                    position: p.to_string(),
                    count: moves.count,
                    misere: p.position.misere,
                    value,
                    rows,
                    limit: engine.limits.max_states,
                    written: written.to_string(),
                }
                .text()
            }
            Query::Win => {
                let limit = engine.limits.max_states;
                let wins = engine
                    .first_moves(&p.position, Wanted::Winning, MOST_MOVES_SHOWN)
                    .map_err(fail)?;
                let position = p.to_string();
                if wins.count == 0 {
                    match engine.outcome(&p.position).map_err(fail)? {
                        Outcome::D => results::Win::Draw { position },
                        _ => results::Win::Lost { position },
                    }
                } else {
                    // Each thing once: the component is named when there are several, and what
                    // the move leaves when it is not what the move shows.
                    let several = p.position.parts().count() > 1;
                    let rows: Vec<(String, String)> = wins
                        .first
                        .iter()
                        .map(|m| {
                            let part = p.position.part(m.part);
                            let to = show(&p, &m.shown_to());
                            let moved = format!("{} -> {to}", p.show_part(part));
                            let left = show(&p, m.result_parts(&p.position));
                            match (several, left == to) {
                                (true, _) => (
                                    format!("component {}: {moved}", m.part),
                                    format!("leaves {left}"),
                                ),
                                (false, true) => (moved, String::new()),
                                (false, false) => (moved, format!("leaves {left}")),
                            }
                        })
                        .collect();
                    results::Win::Winning {
                        position,
                        count: wins.count,
                        rows,
                        limit,
                        written: written.to_string(),
                    }
                }
                .text()
            }
        })
    }

    pub(crate) fn heap_game(&mut self, game: &Expr, what: &str) -> Result<Arc<GameValue>, Error> {
        match Eval::new(self).eval(game)? {
            Value::Game(g) if g.shape == Shape::Heaps => Ok(g),
            other => Err(Error::type_mismatch(
                "a heap game",
                other.type_name(),
                game.span,
                format!("`{what}` takes a game played on one heap, e.g. `kayles`, `bash(3)`"),
            )),
        }
    }

    /// The game `game` evaluates to, with the method that computes its values.
    pub fn method(&mut self, game: &Expr) -> Result<(String, Method), Error> {
        let (id, name) = self.game_id(game)?;
        Ok((name, self.engine.method(id)))
    }

    /// How many heaps of the game `game` evaluates to were taken from the cache.
    pub fn resumed(&mut self, game: &Expr) -> Result<usize, Error> {
        let (id, _) = self.game_id(game)?;
        Ok(self.engine.resumed(id))
    }

    fn game_id(&mut self, game: &Expr) -> Result<(GameId, String), Error> {
        match Eval::new(self).eval(game)? {
            Value::Game(g) => Ok((g.id, g.display.clone())),
            other => Err(Error::type_mismatch(
                "a game",
                other.type_name(),
                game.span,
                "`:method` takes a game, e.g. `kayles`, `bash(3)`, `wythoff`",
            )),
        }
    }

    /// How many states of each game have a stored value, by game id (see [`Self::methods_since`]).
    pub fn stored(&self) -> Vec<usize> {
        self.engine.stored()
    }

    /// The games that stored more values since [`Self::stored`] gave `before`, each with its
    /// method, ordered by game id.
    pub fn methods_since(&self, before: &[usize]) -> Vec<(String, Method)> {
        let stored = self.engine.stored();
        let mut grown: Vec<(usize, String)> = self
            .instances
            .values()
            .filter(|g| stored[g.id] > before.get(g.id).copied().unwrap_or(0))
            .map(|g| (g.id, g.display.clone()))
            .collect();
        grown.sort();
        grown.dedup();
        grown
            .into_iter()
            .map(|(id, name)| (name, self.engine.method(id)))
            .collect()
    }

    pub(crate) fn finite_range(&mut self, range: &Expr) -> Result<(i64, i64), Error> {
        match Eval::new(self).eval(range)? {
            Value::Range {
                start,
                last: Some(last),
            } => {
                if start < 0 {
                    return Err(Error::invalid(
                        format!("the range starts at {start}, below 0"),
                        range.span,
                        "heaps and counters are non-negative",
                    ));
                }
                Ok((start, last))
            }
            Value::Range { start, last: None } => Err(Error::type_mismatch(
                "a finite range",
                "a range with no end",
                range.span,
                format!(
                    "give it an end, e.g. `{start}..={}` or `{start}..{}`",
                    start + 83,
                    start + 10
                ),
            )),
            other => Err(Error::type_mismatch(
                "a finite range",
                other.type_name(),
                range.span,
                "write e.g. `0..=83` or `0..10`",
            )),
        }
    }

    pub(crate) fn bound_size(&self, size: i128, what: &str, span: Span) -> Result<(), Error> {
        let limit = self.engine.limits.max_states;
        if size > limit as i128 {
            return Err(Error::TooLarge {
                what: what.to_string(),
                size: size.to_string(),
                limit,
                span,
            });
        }
        Ok(())
    }

    /// Grundy values of single heaps, or under misère play their misère Grundy values.
    fn sequence(
        &mut self,
        game: &Expr,
        range: &Expr,
        misere: bool,
        answer: &mut Answer,
    ) -> Result<(), Error> {
        let (display, id, start, last) = self.heaps_of(game, range, "sequence")?;
        let convention = if misere { "misere " } else { "" };
        let axis = results::Axis {
            name: "n".into(),
            start,
            last,
        };
        answer.begin(Layout::sequence(format!("{convention}{display}"), axis))?;
        let total = (last as i128 - start as i128 + 1).max(0) as u64;
        let progress = self
            .engine
            .limits
            .progress
            .start("sequence", "heaps", total);
        let mut primed = misere;
        for (done, n) in (start..=last.max(start - 1)).enumerate() {
            progress.iter().for_each(|p| p.set_done(done as u64));
            if !primed && n < last && self.engine.is_loopy(id) {
                // The last heap first: labelling a loopy game from it labels every heap below
                // that it reaches, at once. Its error, if any, comes again at its heap.
                primed = true;
                let _ = self.part_gvalue_at(&misere_statements::heap(id, last), range.span);
            }
            let part = Part {
                game: id,
                state: Box::new([n]),
            };
            let value = if misere {
                GValue::Finite(self.misere_value_at(part, range.span)?)
            } else {
                self.part_gvalue_at(&part, range.span)?
            };
            answer.push(Entry::of(value))?;
        }
        progress.into_iter().for_each(|p| p.complete());
        Ok(())
    }

    pub(crate) fn tuple_game(&mut self, game: &Expr, what: &str) -> Result<Arc<GameValue>, Error> {
        match Eval::new(self).eval(game)? {
            Value::Game(g) if g.shape == Shape::Tuple(2) => Ok(g),
            other => Err(Error::type_mismatch(
                "a game of two counters",
                other.type_name(),
                game.span,
                format!("`{what}` takes a game declared `on (a, b)`, e.g. `wythoff`"),
            )),
        }
    }

    /// The value of one component, for the sweeps of `sequence`, `table`, `compare` and `plot`,
    /// which stop here when Ctrl-C is pressed.
    pub(crate) fn part_value_at(&mut self, part: &Part, span: Span) -> Result<u64, Error> {
        match self.part_gvalue_at(part, span)? {
            GValue::Finite(v) => Ok(v),
            GValue::Infinite(_) => Err(Error::InfiniteValue { span }),
        }
    }

    /// The generalized value of one component (infinite for some positions of a loopy game),
    /// for the sweeps of `sequence`, `table` and `plot`.
    pub(crate) fn part_gvalue_at(&mut self, part: &Part, span: Span) -> Result<GValue, Error> {
        if self.interrupted() {
            return Err(Error::Interrupted);
        }
        self.engine
            .part_gvalue(part)
            .map_err(|e| solve_error(e, span))
    }

    /// The misère Grundy value of one component, for `sequence misere`, `table misere` and
    /// their plots.
    fn misere_value_at(&mut self, part: Part, span: Span) -> Result<u64, Error> {
        if self.interrupted() {
            return Err(Error::Interrupted);
        }
        let position = crate::game::Position::new(vec![part], true);
        self.engine
            .value(&position)
            .map_err(|e| solve_error(e, span))
    }

    /// The values of a two-counter game over two ranges, row by row into `answer`, one row per
    /// value of the first counter (generalized values, for a loopy game); with `misere`, its misère values, one cell after another on this thread (misère sums are
    /// searched on the main thread only), each reusing what the cells before it found.
    pub(crate) fn grid(
        &mut self,
        game: &GameValue,
        rows: &Expr,
        cols: &Expr,
        misere: bool,
        what: &str,
        answer: &mut Answer,
    ) -> Result<(), Error> {
        let (r0, r1) = self.finite_range(rows)?;
        let (c0, c1) = self.finite_range(cols)?;
        let span = rows.span.to(cols.span);
        let cells = (r1 as i128 - r0 as i128 + 1).max(0) * (c1 as i128 - c0 as i128 + 1).max(0);
        self.bound_size(cells, "this table", span)?;
        let threads = self.sweep_threads();
        let mut pace = sweep::Pace::new(&self.engine.limits, threads);
        let id = game.id;
        let width = (c1 as i128 - c0 as i128 + 1).max(0) as usize;
        if width == 0 {
            // No columns: the rows are there, empty.
            let rows = (r1 as i128 - r0 as i128 + 1).max(0);
            return self.bound_size(rows, "this table", span);
        }
        if misere {
            for a in r0..=r1 {
                for b in c0..=c1 {
                    let part = self.engine.part(id, vec![a, b]);
                    answer.push(Entry::Int(self.misere_value_at(part, span)? as i64))?;
                }
            }
            return Ok(());
        }
        if self.engine.method(id) == Method::LineSweep && r1 >= 0 && c1 >= 0 {
            // The last cell first: its sweep covers the whole table at once (row by row, the
            // sweep would grow many times), and what does not fit is known before anything
            // else is done.
            let corner = self.engine.part(id, vec![r1, c1]);
            self.part_gvalue_at(&corner, span)?;
        }
        let mut queued: Vec<[i64; 2]> = Vec::new();
        let progress = self.engine.limits.progress.clone();
        let reporter = progress.start(what, "cells", cells as u64);
        let work = |host: &mut sweep::SweepHost<'_>, &[a, b]: &[i64; 2]| {
            let part = host.engine.part(id, vec![a, b]);
            match host.engine.part_value(&part) {
                Ok(v) => {
                    reporter.iter().for_each(|r| r.advance(1));
                    sweep::Worked::Done(Entry::Int(v as i64))
                }
                Err(_) => sweep::Worked::Open,
            }
        };
        let mut take = |this: &mut Interpreter, &[a, b]: &[i64; 2], settled: Option<Entry>| {
            let v = match settled {
                Some(v) => v,
                None => {
                    let part = this.engine.part(id, vec![a, b]);
                    let v = Entry::of(this.part_gvalue_at(&part, span)?);
                    reporter.iter().for_each(|r| r.advance(1));
                    v
                }
            };
            answer.push(v)?;
            Ok(Flow::Continue)
        };
        // The cells queued are held on the ledger: a batch that does not fit runs sooner.
        let mut held = self.engine.limits.charge();
        let fits = |queued: &Vec<[i64; 2]>, held: &mut Charge| {
            queued.len() < queued.capacity() || held.set(budget::vector(queued, 1)).is_ok()
        };
        for a in r0..=r1 {
            for b in c0..=c1 {
                if !pace.spreading() {
                    take(self, &[a, b], None)?;
                    continue;
                }
                if !fits(&queued, &mut held) {
                    self.run_batch(&mut pace, &queued, &work, &mut take)?;
                    queued.clear();
                    if !fits(&queued, &mut held) {
                        take(self, &[a, b], None)?;
                        continue;
                    }
                }
                queued.push([a, b]);
                if queued.len() >= pace.batch() {
                    self.run_batch(&mut pace, &queued, &work, &mut take)?;
                    queued.clear();
                }
            }
        }
        self.run_batch(&mut pace, &queued, &work, &mut take)?;
        reporter.into_iter().for_each(|r| r.complete());
        Ok(())
    }

    fn table(
        &mut self,
        game: &Expr,
        rows: &Expr,
        cols: &Expr,
        ppos: bool,
        misere: bool,
        answer: &mut Answer,
    ) -> Result<(), Error> {
        let what = if ppos { "ppos" } else { "table" };
        let game = self.tuple_game(game, what)?;
        let (r0, r1) = self.finite_range(rows)?;
        let (c0, c1) = self.finite_range(cols)?;
        let axis = |name: &str, start, last| results::Axis {
            name: name.into(),
            start,
            last,
        };
        let convention = if misere { "misere " } else { "" };
        answer.begin(Layout::table(
            format!("{convention}{}", game.display),
            axis("a", r0, r1),
            axis("b", c0, c1),
            ppos,
        ))?;
        self.grid(&game, rows, cols, misere, what, answer)
    }

    /// Runs a statement whose answer is values (`sequence`, `table`, `ppos`), kept and printed,
    /// or written to the file of `to "FILE"` with one line to say so.
    fn answered(
        &mut self,
        output: &Option<Output>,
        span: Span,
        out: &mut dyn Write,
        fill: impl FnOnce(&mut Interpreter, &mut Answer) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let target = output
            .as_ref()
            .map(|o| Target::new(&o.path, o.span, self.engine.limits.root.clone()))
            .transpose()?;
        let mut answer = Answer::new(self.engine.limits.charge(), target, span);
        fill(self, &mut answer)?;
        answer.finish(out)
    }

    /// An answer kept to be used (by a picture, a period), not shown.
    pub(crate) fn kept_answer(&self, span: Span) -> Answer {
        Answer::new(self.engine.limits.charge(), None, span)
    }
}

/// Says what an infinite value of a position of a loopy game is (a finite one reads as usual).
fn loopy_note(engine: &Engine, p: &PositionValue, value: &GValue) -> &'static str {
    if value.finite().is_none() && p.position.parts().any(|part| engine.is_loopy(part.game)) {
        " (loopy game: generalized Grundy value)"
    } else {
        ""
    }
}

fn show<'p>(p: &PositionValue, parts: impl IntoIterator<Item = &'p Part>) -> String {
    let text = p.show_parts(parts);
    if p.position.misere {
        format!("misere {text}")
    } else {
        text
    }
}

/// For a failed comparison, the values of both sides.
fn explain<'a>(eval: &mut Eval<'_, 'a>, condition: &'a Expr) -> String {
    if let ExprKind::Binary(op, left, right) = &condition.kind {
        if matches!(
            op,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        ) {
            if let (Ok(a), Ok(b)) = (eval.eval(left), eval.eval(right)) {
                return format!("left side is {a}, right side is {b}");
            }
        }
    }
    "the condition evaluated to false".to_string()
}
