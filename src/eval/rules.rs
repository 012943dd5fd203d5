//! Games declared by rules over a state, seen by the engine as a `Game`.

mod cell_shape;
mod compiled;
mod list_cram;

use std::cell::Cell;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::boards::BoardValue;
use super::expr::{combine, over_memory, Eval, Flow, Host};
use super::value::{Family, Value};
use super::Globals;
use crate::error::{Error, Origin};
use crate::game::budget::{self, Charge, Ledger};
use crate::game::vocabulary::{
    Board, CellMove, CellRules, HeapRules, LineRules, Structure, MOST_CELLS,
};
use crate::game::{Emit, Engine, Game, Limits, RuleError, SolveError};
use crate::span::Span;
use crate::syntax::ast::{BinaryOp, GameDecl, GameDef, Rule, StateShape, Step, Update, UpdateOp};

/// One instance of a rule-defined game: the declaration, its parameters bound, and the globals
/// its rules may read (as they were when the game was declared). Its options come from the compiled rules ([`compiled`]) when the compiler
/// handles them, and otherwise from walking the AST with [`Eval`]; both give the same options in
/// the same order, and the same errors (see the tests in `rules/tests.rs`).
pub struct RuleGame {
    pub display: String,
    decl: Arc<GameDecl>,
    origin: Arc<Origin>,
    params: Vec<Value>,
    globals: Arc<Globals>,
    interrupt: Arc<AtomicBool>,
    max_elements: usize,
    /// The session's ledger and the memory limit: the lists a rule builds are charged there.
    memory: (Ledger, usize),
    /// The rules compiled to slots, when the compiler handles them.
    compiled: Option<compiled::Compiled>,
    /// The moves of a game on cells, when its rules are read as moves on cells
    /// ([`crate::game::vocabulary::CellMove`]).
    cells: Option<CellRules>,
    /// The width of the rows of a game on a list whose rules are Cram's ([`list_cram`]).
    list_grid: Option<usize>,
}

thread_local! {
    static INTERPRET_ONLY: Cell<bool> = const { Cell::new(false) };
}

/// Makes rule games made on this thread use the AST walker even where their rules are compiled,
/// and no fast path (their values come from the plain search): the oracle of the tests that
/// compare the two.
pub fn interpret_only(on: bool) {
    INTERPRET_ONLY.with(|c| c.set(on));
}

/// Whether rule games on this thread use the AST walker only (passed on to sweep workers).
pub(crate) fn interpret_only_now() -> bool {
    INTERPRET_ONLY.with(Cell::get)
}

struct RuleHost<'g> {
    globals: &'g Globals,
    interrupt: &'g AtomicBool,
    max_elements: usize,
    memory: &'g (Ledger, usize),
}

impl Host for RuleHost<'_> {
    fn global(&self, name: &str) -> Option<Value> {
        self.globals.get(name).cloned()
    }

    fn instantiate(
        &mut self,
        family: &Family,
        _args: Vec<Value>,
        span: Span,
    ) -> Result<Value, Error> {
        Err(Error::invalid(
            format!(
                "the game `{}` cannot be used inside the rules of a game",
                family.name
            ),
            span,
            "rules compute the options of a state from integers and lists",
        ))
    }

    fn engine(&mut self) -> Option<&mut Engine> {
        None
    }

    fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    fn max_elements(&self) -> usize {
        self.max_elements
    }

    fn charge(&self) -> Option<Charge> {
        let (ledger, limit) = self.memory;
        Some(ledger.charge(*limit))
    }
}

impl RuleGame {
    pub fn new(
        display: String,
        decl: Arc<GameDecl>,
        origin: Arc<Origin>,
        params: Vec<Value>,
        globals: Arc<Globals>,
        limits: &Limits,
    ) -> RuleGame {
        // A global named like a built-in would shadow it: the AST walker then runs.
        let compiled = compiled::compile(&decl, &params, &globals)
            .filter(|c| !c.builtins.iter().any(|b| globals.contains_key(*b)));
        let cells = match &decl.def {
            GameDef::Rules {
                state: StateShape::Cells(c),
                rules,
                ..
            } => {
                let shadowed = |name: &str| {
                    globals.contains_key(name) || decl.params.iter().any(|p| p.name == name)
                };
                cell_shape::cell_rules(&c.name, rules, &shadowed)
            }
            _ => None,
        };
        let list_grid = match &decl.def {
            GameDef::Rules {
                state: StateShape::List(s),
                unordered: false,
                rules,
            } => {
                let constant = |name: &str| match decl.params.iter().position(|p| p.name == name) {
                    Some(at) => params.get(at).cloned(),
                    None => globals.get(name).cloned(),
                };
                list_cram::list_cram(&s.name, rules, &constant)
            }
            _ => None,
        };
        RuleGame {
            compiled,
            cells,
            list_grid,
            display,
            decl,
            origin,
            params,
            globals,
            interrupt: limits.interrupt.clone(),
            max_elements: limits.max_states,
            memory: (limits.ledger.clone(), limits.max_memory),
        }
    }

    /// The compiled rules that the fast paths read, unless this thread uses the AST walker only
    /// (which then also computes the values by the plain method: it is the tests' oracle).
    fn fast_paths(&self) -> Option<&compiled::Compiled> {
        self.compiled
            .as_ref()
            .filter(|_| !INTERPRET_ONLY.with(Cell::get))
    }

    fn parts(&self) -> (&StateShape, bool, &[Rule]) {
        match &self.decl.def {
            GameDef::Rules {
                state,
                unordered,
                rules,
            } => (state, *unordered, rules),
            _ => unreachable!("a rule game has rules"),
        }
    }
}

/// The state variables of a shape with the values `state` gives them.
fn state_values<'a>(shape: &'a StateShape, state: &[i64]) -> Vec<(&'a str, Value)> {
    match shape {
        StateShape::Heap(n) => vec![(n.name.as_str(), Value::Int(state[0]))],
        StateShape::Tuple(names) => names
            .iter()
            .zip(state)
            .map(|(name, &x)| (name.name.as_str(), Value::Int(x)))
            .collect(),
        StateShape::List(s) => vec![(
            s.name.as_str(),
            Value::list(state.iter().map(|&x| Value::Int(x)).collect()),
        )],
        StateShape::Cells(c) => vec![(
            c.name.as_str(),
            Value::Board(Arc::new(BoardValue::decode(state))),
        )],
    }
}

fn apply<'a>(eval: &mut Eval<'_, 'a>, update: &'a Update, value: Value) -> Result<(), Error> {
    let current = eval
        .lookup(&update.target.name)
        .expect("state variables are bound");
    let step = |old: &Value, new: Value| -> Result<Value, Error> {
        let op = match update.op {
            UpdateOp::Assign => return Ok(new),
            UpdateOp::Add => BinaryOp::Add,
            UpdateOp::Sub => BinaryOp::Sub,
        };
        combine(
            op,
            old,
            &new,
            update.span,
            update.target.span,
            update.value.span,
        )
    };
    let updated = match &update.index {
        None => step(&current, value)?,
        Some(index_expr) => {
            let Value::List(items) = &current else {
                return Err(Error::invalid(
                    format!(
                        "`{}` is not a list, so it cannot be indexed",
                        update.target.name
                    ),
                    update.target.span,
                    "only the state of a list game (`on s[]`) is indexed",
                ));
            };
            let index = eval.int(index_expr)?;
            let i = usize::try_from(index)
                .ok()
                .filter(|&i| i < items.len())
                .ok_or(Error::Index {
                    index,
                    len: items.len(),
                    span: index_expr.span,
                })?;
            let mut items = items.to_vec();
            items[i] = step(&items[i], value)?;
            Value::list(items)
        }
    };
    eval.set(&update.target.name, updated);
    Ok(())
}

/// Applies updates in order, each to the state the ones before it left.
fn apply_all<'a>(eval: &mut Eval<'_, 'a>, updates: &'a [Update]) -> Result<(), Error> {
    for update in updates {
        let value = eval.eval(&update.value)?;
        apply(eval, update, value)?;
    }
    Ok(())
}

/// Runs the steps of a rule with loops: a loop runs its steps once per binding, in order
/// (loops nest at most 16 deep, by the parser).
fn run_steps<'a>(eval: &mut Eval<'_, 'a>, steps: &'a [Step]) -> Result<(), Error> {
    for step in steps {
        match step {
            Step::Update(update) => apply_all(eval, std::slice::from_ref(update))?,
            Step::Loop { binders, body, .. } => {
                eval.for_each(binders, &mut |eval| {
                    run_steps(eval, body)?;
                    Ok(Flow::Continue)
                })?;
            }
        }
    }
    Ok(())
}

impl RuleGame {
    fn read_state(
        &self,
        eval: &Eval<'_, '_>,
        shape: &StateShape,
        rule: &Rule,
        base: &[i64],
    ) -> Result<Vec<i64>, Error> {
        let int = |v: Value, name: &str| match v {
            Value::Int(n) => Ok(n),
            other => Err(Error::type_mismatch(
                "an integer",
                other.type_name(),
                rule.span,
                format!("after the updates, `{name}` must be an integer counter"),
            )),
        };
        let ints = |v: Value, name: &str, what: &str| match v {
            Value::Int(n) => Ok(vec![n]),
            Value::List(items) => items.iter().map(|x| int(x.clone(), name)).collect(),
            other => Err(Error::type_mismatch(
                what,
                other.type_name(),
                rule.span,
                format!("after the updates, `{name}` must be {what}"),
            )),
        };
        let state = match shape {
            StateShape::Cells(c) => {
                return match eval.lookup(&c.name).expect("bound") {
                    Value::Board(board) if board.board == BoardValue::decode(base).board => {
                        Ok(board.encode())
                    }
                    Value::Board(_) => Err(Error::invalid(
                        format!("`{}` was given the cells of another board", c.name),
                        rule.span,
                        format!(
                            "a rule removes cells from `{0}`, e.g. `{0} -= {{x}}`, on the board it was",
                            c.name
                        ),
                    )),
                    other => Err(Error::type_mismatch(
                        "a board",
                        other.type_name(),
                        rule.span,
                        format!("after the updates, `{}` must be a set of cells of its board", c.name),
                    )),
                };
            }
            StateShape::Heap(n) => ints(
                eval.lookup(&n.name).expect("bound"),
                &n.name,
                "a heap or a list of heaps",
            )?,
            StateShape::Tuple(names) => names
                .iter()
                .map(|n| int(eval.lookup(&n.name).expect("bound"), &n.name))
                .collect::<Result<_, _>>()?,
            StateShape::List(s) => match eval.lookup(&s.name).expect("bound") {
                Value::Int(n) => {
                    return Err(Error::type_mismatch(
                        "a list of counters",
                        format!("the integer {n}"),
                        rule.span,
                        format!("the state `{}` of a list game stays a list", s.name),
                    ))
                }
                other => ints(other, &s.name, "a list of counters")?,
            },
        };
        if state.iter().any(|&x| x < 0) {
            return Err(Error::NegativeCounter {
                state: format!("{}[{}]", self.display, join(&state)),
                span: rule.span,
            });
        }
        Ok(state)
    }
}

fn join(state: &[i64]) -> String {
    state
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl RuleGame {
    /// Runs `f` with an evaluator over the globals, the parameters bound.
    fn with_params<'s, R>(
        &'s self,
        globals: &Globals,
        f: impl FnOnce(&mut Eval<'_, 's>) -> R,
    ) -> R {
        let mut host = RuleHost {
            globals,
            interrupt: &self.interrupt,
            max_elements: self.max_elements,
            memory: &self.memory,
        };
        let mut eval = Eval::new(&mut host);
        for (param, value) in self.decl.params.iter().zip(&self.params) {
            eval.push(&param.name, value.clone());
        }
        f(&mut eval)
    }

    /// Every option of `state`: one per binding of each rule that passes its condition.
    fn rule_options(&self, state: &[i64], emit: &mut Emit<'_>) -> Result<(), Error> {
        if let Some(compiled) = &self.compiled {
            if !INTERPRET_ONLY.with(Cell::get) {
                let interrupted = || self.interrupt.load(Ordering::Relaxed);
                let env = compiled::Env {
                    display: &self.display,
                    max_elements: self.max_elements,
                    interrupted: &interrupted,
                    memory: &self.memory,
                };
                return compiled.options(&env, state, emit);
            }
        }
        self.with_params(&self.globals, |eval| {
            let (shape, _, rules) = self.parts();
            // The walker's copies of a state (its values bound, bound again before each rule,
            // and the state kept to restore them) and each option read back are charged beside
            // the search, which lends its tables to the ledger while the rules run: a list of
            // a million counters is 8 MB as a state and 16 MB as values.
            let (ledger, limit) = &self.memory;
            let mut held = ledger.charge(*limit);
            let values = state_values(shape, state);
            let bound: usize = values.iter().map(|(_, v)| v.bytes()).sum();
            let state_bytes = budget::boxed(size_of_val(state));
            held.grow(2 * bound + 2 * state_bytes)
                .map_err(|over| over_memory(over, self.decl.span))?;
            for (name, value) in values {
                eval.push(name, value);
            }
            let base = state.to_vec();
            let mut stopped = false;
            for rule in rules {
                if stopped {
                    break;
                }
                eval.for_each(&rule.binders, &mut |eval| {
                    if let Some(condition) = &rule.condition {
                        if !eval.bool(condition)? {
                            return Ok(Flow::Continue);
                        }
                    }
                    let result = match rule.steps.as_slice() {
                        [] => apply_all(eval, &rule.updates),
                        steps => run_steps(eval, steps),
                    };
                    let option = result.and_then(|()| self.read_state(eval, shape, rule, &base));
                    for (name, value) in state_values(shape, &base) {
                        eval.set(name, value);
                    }
                    let option = option?;
                    let mut read = ledger.charge(*limit);
                    read.grow(budget::boxed(size_of_val(option.as_slice())))
                        .map_err(|over| over_memory(over, rule.span))?;
                    if emit(&option).is_break() {
                        stopped = true;
                        return Ok(Flow::Stop);
                    }
                    Ok(Flow::Continue)
                })?;
            }
            Ok(())
        })
    }
}

impl Game for RuleGame {
    fn heap_like(&self) -> bool {
        matches!(self.parts().0, StateShape::Heap(_))
    }

    fn options(&self, state: &[i64], emit: &mut Emit<'_>) -> Result<(), SolveError> {
        self.rule_options(state, emit)
            .map_err(|e| SolveError::Rule(RuleError::new(e.declared_in(&self.origin))))
    }

    fn heap_rules(&self) -> Option<HeapRules> {
        self.fast_paths()?.heap_rules()
    }

    fn line_rules(&self) -> Option<LineRules> {
        if self.parts().1 {
            return None;
        }
        self.fast_paths()?.line_rules()
    }

    fn chomp(&self) -> bool {
        !self.parts().1 && self.fast_paths().is_some_and(compiled::Compiled::chomp)
    }

    fn cell_rules(&self) -> Option<CellRules> {
        let cram = self.list_grid.map(|_| CellRules {
            moves: vec![CellMove::RemoveAdjacentPair],
            split: true,
            symmetric: true,
        });
        self.cells
            .clone()
            .or(cram)
            .filter(|_| !INTERPRET_ONLY.with(Cell::get))
    }

    fn cell_board(&self, state: &[i64]) -> Option<(Board, u128)> {
        if let Some(width) = self.list_grid {
            let cells = state.len();
            if cells == 0 || !cells.is_multiple_of(width) || cells > MOST_CELLS {
                return None;
            }
            let board = Board::grid(width, cells / width).ok()?;
            let present = (state.iter().enumerate())
                .filter(|&(_, &x)| x == 0)
                .fold(0u128, |set, (i, _)| set | 1 << i);
            return Some((board, present));
        }
        if !matches!(self.parts().0, StateShape::Cells(_)) {
            return None;
        }
        let board = BoardValue::decode(state);
        Some((board.board, board.present))
    }

    fn canonicalize(&self, state: &mut [i64]) {
        if self.parts().1 && !matches!(self.parts().0, StateShape::Cells(_)) {
            state.sort_unstable();
        }
    }

    fn describe(&self, state: &[i64]) -> String {
        if let StateShape::Cells(_) = self.parts().0 {
            return format!("{}[{}]", self.display, BoardValue::decode(state));
        }
        format!("{}[{}]", self.display, join(state))
    }

    fn structure(&self) -> Structure {
        self.heap_rules()
            .map_or(Structure::Unknown, |rules| rules.structure())
    }
}

#[cfg(test)]
mod tests;
