//! Expression evaluation, shared by statements and by the rules of games.

use std::sync::Arc;

use super::builtin_calls;
use super::function::{FunctionHost, MAX_CALL_DEPTH, MAX_CALL_LEVELS, RED_ZONE, STACK_SEGMENT};
use super::value::{Family, FunctionValue, GameValue, PositionValue, Shape, Value};
use crate::error::Error;
use crate::game::budget::{self, Charge, OverLimit};
use crate::game::{Engine, Part, Position, SolveError};
use crate::span::Span;
use crate::syntax::ast::{BinaryOp, Binder, BinderKind, Expr, ExprKind, UnaryOp};

/// What an expression can reach beyond its local variables. Statements have the whole session;
/// the rules of a game only the globals.
pub trait Host {
    fn global(&self, name: &str) -> Option<Value>;
    fn instantiate(
        &mut self,
        family: &Family,
        args: Vec<Value>,
        span: Span,
    ) -> Result<Value, Error>;
    /// The engine, where positions may be built and solved (not inside rules).
    fn engine(&mut self) -> Option<&mut Engine>;
    fn interrupted(&self) -> bool;
    /// The most elements a list built from a range or box may have.
    fn max_elements(&self) -> usize;
    /// A charge on the session's memory ledger, under its limit, for what is built here (inside
    /// a game's rules too: their lists count against the limit of the search that asks for the
    /// options); `None` where nothing may be charged.
    fn charge(&self) -> Option<Charge>;
    /// The whole interpreter, when this is it (for statements that run sweeps).
    fn interpreter(&mut self) -> Option<&mut super::Interpreter> {
        None
    }
}

/// Evaluates expressions with a stack of local bindings over a host.
pub struct Eval<'h, 'a> {
    pub host: &'h mut dyn Host,
    locals: Vec<(&'a str, Value)>,
    steps: u32,
    /// How many function calls this evaluation runs inside, and the sum of their bodies' depths.
    calls: usize,
    levels: usize,
}

/// Whether to go on with the next binding of a `for` or `check`.
pub enum Flow {
    Continue,
    Stop,
}

/// The memory limit's diagnostic, for a charge the limit refused.
pub fn over_memory(over: OverLimit, span: Span) -> Error {
    Error::MemoryLimit {
        megabytes: over.0 >> 20,
        span,
    }
}

/// A list as it is built: its elements and what they hold, charged as they grow.
pub struct Building {
    pub items: Vec<Value>,
    held: usize,
    charge: Option<Charge>,
    span: Span,
}

impl Building {
    pub fn new(charge: Option<Charge>, span: Span) -> Building {
        Building {
            items: Vec::new(),
            held: 0,
            charge,
            span,
        }
    }

    /// Adds one element, charging its bytes, and the vector's when it grows (old and new
    /// buffers both, as while it moves).
    pub fn push(&mut self, item: Value) -> Result<(), Error> {
        let bytes = item.bytes();
        if let Some(charge) = &mut self.charge {
            if bytes > 0 || self.items.len() == self.items.capacity() {
                self.held += bytes;
                charge
                    .set(budget::vector(&self.items, 1) + self.held)
                    .map_err(|over| over_memory(over, self.span))?;
            }
        }
        self.items.push(item);
        Ok(())
    }

    /// The list built; its charge ends here, and whoever keeps it charges it again.
    pub fn finish(self) -> Value {
        Value::list(self.items)
    }
}

/// The indices of the slice `l[start..=last]` (to the end when `last` is none) of a list of
/// `len` items, or the index that is out of bounds.
pub fn slice_range(
    start: i64,
    last: Option<i64>,
    len: usize,
) -> Result<std::ops::Range<usize>, i64> {
    let n = len as i64;
    let last = last.unwrap_or(n - 1);
    if start < 0 || start > n {
        return Err(start);
    }
    if last >= n {
        return Err(last);
    }
    Ok(start as usize..(last + 1).max(start) as usize)
}

/// Whether a list of `len` more elements fits in what is left under the memory limit.
pub fn fits(host: &dyn Host, len: usize, span: Span) -> Result<(), Error> {
    match host.charge() {
        Some(charge) => charge
            .fits(budget::boxed(len.saturating_mul(size_of::<Value>())))
            .map_err(|over| over_memory(over, span)),
        None => Ok(()),
    }
}

/// A charge of what `value` holds, while it is kept aside (none for a value that holds nothing).
pub fn hold(host: &dyn Host, value: &Value, span: Span) -> Result<Option<Charge>, Error> {
    let bytes = value.bytes();
    match host.charge() {
        Some(mut charge) if bytes > 0 => {
            charge.grow(bytes).map_err(|over| over_memory(over, span))?;
            Ok(Some(charge))
        }
        _ => Ok(None),
    }
}

pub fn solve_error(error: SolveError, span: Span) -> Error {
    match error {
        SolveError::Rule(e) => e
            .downcast()
            .expect("the engine's rule games are the evaluator's, and raise its errors"),
        SolveError::Loop(cycle) => Error::Loop {
            cycle: cycle.join(" -> "),
            span,
        },
        SolveError::MisereLoopyValue(cycle) => Error::MisereLoopyValue {
            cycle: cycle.join(" -> "),
            span,
        },
        SolveError::LoopyGenus(cycle) => Error::LoopyGenus {
            cycle: cycle.join(" -> "),
            span,
        },
        SolveError::StateLimit(limit) => Error::StateLimit { limit, span },
        SolveError::MemoryLimit(bytes) => Error::MemoryLimit {
            megabytes: bytes >> 20,
            span,
        },
        SolveError::Unknown {
            heap,
            known,
            searched,
        } => Error::Unproved {
            heap,
            known,
            reach: searched.map_or(String::new(), |states| {
                format!(
                    ", and a search from it reached more than {} states and options \
                     ({states} states) before it gave up",
                    crate::game::solver::HUGE_REACH
                )
            }),
            span,
        },
        SolveError::HeapMemory {
            heap,
            needs,
            width,
            limit,
            known,
        } => Error::HeapMemory {
            heap,
            needs: needs.div_ceil(1 << 20),
            limit: limit >> 20,
            known,
            width: if width == 1 {
                "a byte".to_string()
            } else {
                format!("{width} bytes")
            },
            span,
        },
        SolveError::TooManyOptions => Error::TooManyOptions { span },
        SolveError::ThreeWaySplits { heap } => Error::ThreeWaySplits {
            heap,
            splits: format!("{:.1e}", (heap as f64).powi(2) / 12.0),
            huge: crate::game::position::HUGE,
            span,
        },
        SolveError::TooManyMoves {
            count,
            limit,
            winning,
        } => {
            let (list, shown) = if winning {
                ("wins", "`win p` shows the first ones")
            } else {
                ("options", "`moves p` shows the first ones")
            };
            Error::TooManyMoves {
                what: format!("the list of {list}"),
                count: count.to_string(),
                limit,
                help: format!(
                    "`len({list}(p))` counts them without listing; {shown}; or raise the limit \
                     with `--max-states N` (`:limit N` at the prompt)"
                ),
                span,
            }
        }
        SolveError::LoopySplit(position) => Error::LoopySplit { position, span },
        SolveError::Infinite => Error::InfiniteValue { span },
        SolveError::Interrupted => Error::Interrupted,
        SolveError::Deferred => Error::Deferred,
    }
}

fn type_error(expected: &str, found: &Value, span: Span) -> Error {
    Error::type_mismatch(
        expected,
        found.type_name(),
        span,
        format!("this needs {expected}"),
    )
}

impl<'h, 'a> Eval<'h, 'a> {
    pub fn new(host: &'h mut dyn Host) -> Eval<'h, 'a> {
        Eval {
            host,
            locals: Vec::new(),
            steps: 0,
            calls: 0,
            levels: 0,
        }
    }

    pub fn push(&mut self, name: &'a str, value: Value) {
        self.locals.push((name, value));
    }

    pub fn pop(&mut self) {
        self.locals.pop();
    }

    /// Replaces the innermost binding of `name`.
    pub fn set(&mut self, name: &str, value: Value) {
        if let Some(slot) = self.locals.iter_mut().rev().find(|(n, _)| *n == name) {
            slot.1 = value;
        }
    }

    pub fn lookup(&self, name: &str) -> Option<Value> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .or_else(|| self.host.global(name))
    }

    /// Counts a step of a loop or a call, and every 4,096 steps looks at the interrupt: every
    /// long evaluation is a long loop or a deep or wide tree of calls.
    pub fn tick(&mut self) -> Result<(), Error> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(4096) && self.host.interrupted() {
            return Err(Error::Interrupted);
        }
        Ok(())
    }

    pub fn engine(&mut self, span: Span) -> Result<&mut Engine, Error> {
        self.host.engine().ok_or_else(|| {
            Error::invalid(
                "positions cannot be built or solved inside the rules of a game",
                span,
                "rules see the state, the parameters and the global values; compute values outside",
            )
        })
    }

    pub fn int(&mut self, expr: &'a Expr) -> Result<i64, Error> {
        match self.eval(expr)? {
            Value::Int(n) => Ok(n),
            other => Err(type_error("an integer", &other, expr.span)),
        }
    }

    pub fn bool(&mut self, expr: &'a Expr) -> Result<bool, Error> {
        match self.eval(expr)? {
            Value::Bool(b) => Ok(b),
            other => Err(type_error("a boolean", &other, expr.span)),
        }
    }

    pub fn position(&mut self, expr: &'a Expr) -> Result<Arc<PositionValue>, Error> {
        match self.eval(expr)? {
            Value::Position(p) => Ok(p),
            other => Err(Error::type_mismatch(
                "a position",
                other.type_name(),
                expr.span,
                "a position is a game with a state in brackets, e.g. `nim[3, 4, 5]`",
            )),
        }
    }

    pub fn eval(&mut self, expr: &'a Expr) -> Result<Value, Error> {
        let span = expr.span;
        match &expr.kind {
            ExprKind::Int(n) => Ok(Value::Int(*n)),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Str(s) => Ok(Value::str(s)),
            ExprKind::Var(name) => self.lookup(name).ok_or_else(|| Error::UnknownName {
                name: name.clone(),
                span,
                help: "declare it with `let` or `game` before using it".into(),
            }),
            ExprKind::List(items) => {
                let values = items
                    .iter()
                    .map(|e| self.eval(e))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Value::list(values))
            }
            ExprKind::Set(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.int(item)?);
                }
                values.sort_unstable();
                values.dedup();
                Ok(Value::Set(Arc::new(values)))
            }
            ExprKind::Unary(op, operand) => self.unary(*op, operand, span),
            ExprKind::Binary(op, left, right) => self.binary(*op, left, right, span),
            ExprKind::Range {
                start,
                end,
                inclusive,
            } => self.range(start, end.as_deref(), *inclusive, span),
            ExprKind::If {
                condition,
                then,
                otherwise,
            } => {
                if self.bool(condition)? {
                    self.eval(then)
                } else {
                    self.eval(otherwise)
                }
            }
            ExprKind::Call { callee, args } => self.call(callee, args, span),
            ExprKind::Index { target, args } => self.index(target, args, span),
            ExprKind::Comprehension { body, binders } => {
                let limit = self.host.max_elements();
                let mut list = Building::new(self.host.charge(), span);
                self.for_each(binders, &mut |eval| {
                    if list.items.len() >= limit {
                        return Err(Error::TooLarge {
                            what: "this list".into(),
                            size: format!("more than {limit}"),
                            limit,
                            span,
                        });
                    }
                    list.push(eval.eval(body)?)?;
                    Ok(Flow::Continue)
                })?;
                Ok(list.finish())
            }
        }
    }

    fn unary(&mut self, op: UnaryOp, operand: &'a Expr, span: Span) -> Result<Value, Error> {
        match op {
            UnaryOp::Neg => {
                let n = self.int(operand)?;
                n.checked_neg()
                    .map(Value::Int)
                    .ok_or_else(|| Error::overflow(format!("-({n})"), span))
            }
            UnaryOp::Not => Ok(Value::Bool(!self.bool(operand)?)),
            UnaryOp::Misere => {
                let p = self.position(operand)?;
                Ok(Value::Position(Arc::new(PositionValue {
                    position: p.position.with_misere(true),
                    games: p.games.clone(),
                })))
            }
        }
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        left: &'a Expr,
        right: &'a Expr,
        span: Span,
    ) -> Result<Value, Error> {
        match op {
            BinaryOp::And => return Ok(Value::Bool(self.bool(left)? && self.bool(right)?)),
            BinaryOp::Or => return Ok(Value::Bool(self.bool(left)? || self.bool(right)?)),
            _ => {}
        }
        let a = self.eval(left)?;
        // The left side is held while the right one is computed.
        let _left_held = hold(&*self.host, &a, left.span)?;
        let b = self.eval(right)?;
        if let (BinaryOp::Concat, Value::List(xs), Value::List(ys)) = (op, &a, &b) {
            let limit = self.host.max_elements();
            if xs.len() + ys.len() > limit {
                return Err(Error::TooLarge {
                    what: "this list".into(),
                    size: (xs.len() + ys.len()).to_string(),
                    limit,
                    span,
                });
            }
        }
        if let (Value::List(xs), Value::List(ys)) = (&a, &b) {
            let _right_held = hold(&*self.host, &b, right.span)?;
            fits(&*self.host, xs.len() + ys.len(), span)?;
        }
        combine(op, &a, &b, span, left.span, right.span)
    }

    fn range(
        &mut self,
        start: &'a Expr,
        end: Option<&'a Expr>,
        inclusive: bool,
        _span: Span,
    ) -> Result<Value, Error> {
        let low = self.eval(start)?;
        let Some(end) = end else {
            return match low {
                Value::Int(start) => Ok(Value::Range { start, last: None }),
                other => Err(type_error("an integer", &other, start.span)),
            };
        };
        let high = self.eval(end)?;
        let last = |n: i64| if inclusive { Some(n) } else { n.checked_sub(1) };
        match (low, high) {
            (Value::Int(start), Value::Int(end)) => Ok(match last(end) {
                Some(last) => Value::Range {
                    start,
                    last: Some(last),
                },
                None => Value::Range {
                    start: 0,
                    last: Some(-1),
                },
            }),
            (low, Value::List(items)) => {
                let mut high = Vec::with_capacity(items.len());
                for item in items.iter() {
                    match item {
                        Value::Int(n) => high.push(
                            last(*n).ok_or_else(|| Error::overflow("range end - 1", end.span))?,
                        ),
                        other => return Err(type_error("a list of integers", other, end.span)),
                    }
                }
                let low = match low {
                    Value::Int(n) => vec![n; high.len()],
                    Value::List(items) if items.len() == high.len() => items
                        .iter()
                        .map(|v| match v {
                            Value::Int(n) => Ok(*n),
                            other => Err(type_error("a list of integers", other, start.span)),
                        })
                        .collect::<Result<_, _>>()?,
                    other => {
                        return Err(type_error(
                            &format!("an integer or a list of {} integers", high.len()),
                            &other,
                            start.span,
                        ))
                    }
                };
                Ok(Value::Box {
                    low: Arc::new(low),
                    high: Arc::new(high),
                })
            }
            (Value::Int(_), other) => Err(type_error(
                "an integer (or a list, for a box)",
                &other,
                end.span,
            )),
            (other, _) => Err(type_error("an integer", &other, start.span)),
        }
    }

    fn call(&mut self, callee: &'a Expr, args: &'a [Expr], span: Span) -> Result<Value, Error> {
        if let ExprKind::Var(name) = &callee.kind {
            if self.lookup(name).is_none() {
                if let Some(builtin) = crate::builtins::builtin(name) {
                    return builtin_calls::call(self, builtin, args, callee.span, span);
                }
            }
        }
        match self.eval(callee)? {
            Value::Family(family) => {
                if args.len() != family.arity {
                    return Err(Error::Arity {
                        name: family.name.clone(),
                        expected: plural(family.arity, "parameter"),
                        found: args.len(),
                        span,
                        help: format!(
                            "write `{}({})`",
                            family.name,
                            vec!["_"; family.arity].join(", ")
                        ),
                    });
                }
                let values = args
                    .iter()
                    .map(|e| self.eval(e))
                    .collect::<Result<Vec<_>, _>>()?;
                self.host.instantiate(&family, values, span)
            }
            Value::Function(function) => self.call_function(&function, args, span),
            other => Err(Error::type_mismatch(
                "a function or a game with parameters",
                other.type_name(),
                callee.span,
                "only built-in functions and games declared with parameters can be called",
            )),
        }
    }

    /// Runs the body of a function on its arguments, one call deeper, on a stack that grows.
    fn call_function(
        &mut self,
        function: &Arc<FunctionValue>,
        args: &'a [Expr],
        span: Span,
    ) -> Result<Value, Error> {
        let decl = &function.decl;
        let name = &decl.name.name;
        if args.len() != decl.params.len() {
            let params: Vec<&str> = decl.params.iter().map(|p| &*p.name).collect();
            return Err(Error::Arity {
                name: name.clone(),
                expected: plural(params.len(), "argument"),
                found: args.len(),
                span,
                help: format!("`{name}` is declared `{name}({})`", params.join(", ")),
            });
        }
        let values = args
            .iter()
            .map(|e| self.eval(e))
            .collect::<Result<Vec<_>, _>>()?;
        self.tick()?;
        let levels = self.levels + function.depth;
        if self.calls >= MAX_CALL_DEPTH || levels > MAX_CALL_LEVELS {
            return Err(Error::Recursion {
                name: name.clone(),
                calls: self.calls,
                span,
            });
        }
        let mut host = FunctionHost {
            caller: &mut *self.host,
            function,
        };
        let mut eval = Eval::new(&mut host);
        eval.calls = self.calls + 1;
        eval.levels = levels;
        eval.steps = self.steps;
        for (param, value) in decl.params.iter().zip(values) {
            eval.push(&param.name, value);
        }
        let result = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || eval.eval(&decl.body));
        self.steps = eval.steps;
        result.map_err(|e| e.declared_in(&function.origin))
    }

    fn index(&mut self, target: &'a Expr, args: &'a [Expr], span: Span) -> Result<Value, Error> {
        let value = self.eval(target)?;
        match value {
            Value::List(items) => {
                let [arg] = args else {
                    return Err(Error::Arity {
                        name: "list index".into(),
                        expected: "one index".into(),
                        found: args.len(),
                        span,
                        help: "write `s[i]` or a slice `s[i..j]`".into(),
                    });
                };
                match self.eval(arg)? {
                    Value::Int(i) => usize::try_from(i)
                        .ok()
                        .and_then(|u| items.get(u).cloned())
                        .ok_or(Error::Index {
                            index: i,
                            len: items.len(),
                            span: arg.span,
                        }),
                    Value::Range { start, last } => {
                        let range = slice_range(start, last, items.len()).map_err(|index| {
                            Error::Index {
                                index,
                                len: items.len(),
                                span: arg.span,
                            }
                        })?;
                        let slice = if range.is_empty() {
                            Vec::new()
                        } else {
                            fits(&*self.host, range.len(), span)?;
                            items[range].to_vec()
                        };
                        Ok(Value::list(slice))
                    }
                    other => Err(type_error("an integer index or a range", &other, arg.span)),
                }
            }
            Value::Game(game) => self.make_position(&game, args, span),
            Value::Family(family) => Err(Error::Arity {
                name: family.name.clone(),
                expected: plural(family.arity, "parameter"),
                found: 0,
                span: target.span,
                help: format!(
                    "give the parameters before the state: `{}({})[...]`",
                    family.name,
                    vec!["_"; family.arity].join(", ")
                ),
            }),
            other => Err(Error::type_mismatch(
                "a list or a game",
                other.type_name(),
                target.span,
                "`x[...]` indexes a list or builds a position of a game",
            )),
        }
    }

    fn make_position(
        &mut self,
        game: &Arc<GameValue>,
        args: &'a [Expr],
        span: Span,
    ) -> Result<Value, Error> {
        if game.shape == Shape::Cells {
            return self.board_position(game, args);
        }
        let mut numbers = Vec::new();
        for arg in args {
            if let (Shape::Nodes(nodes), ExprKind::Var(name)) = (&game.shape, &arg.kind) {
                if let Some(i) = nodes.iter().position(|n| n == name) {
                    numbers.push((i as i64, arg.span));
                    continue;
                }
            }
            match self.eval(arg)? {
                Value::Int(n) => numbers.push((n, arg.span)),
                Value::List(items) => {
                    for item in items.iter() {
                        match item {
                            Value::Int(n) => numbers.push((*n, arg.span)),
                            other => return Err(type_error("a list of integers", other, arg.span)),
                        }
                    }
                }
                Value::Range {
                    start,
                    last: Some(last),
                } => {
                    let limit = self.host.max_elements();
                    let size = (last as i128 - start as i128 + 1).max(0);
                    if size + numbers.len() as i128 > limit as i128 {
                        return Err(Error::TooLarge {
                            what: "this position".into(),
                            size: size.to_string(),
                            limit,
                            span: arg.span,
                        });
                    }
                    numbers.extend((start..=last).map(|n| (n, arg.span)));
                }
                Value::Str(name) if matches!(game.shape, Shape::Nodes(_)) => {
                    let Shape::Nodes(nodes) = &game.shape else {
                        unreachable!()
                    };
                    let i = nodes.iter().position(|n| **n == *name).ok_or_else(|| {
                        Error::UnknownName {
                            name: name.to_string(),
                            span: arg.span,
                            help: format!("the nodes of {} are {}", game.display, nodes.join(", ")),
                        }
                    })?;
                    numbers.push((i as i64, arg.span));
                }
                other => {
                    return Err(type_error(
                        "an integer or a list of integers",
                        &other,
                        arg.span,
                    ))
                }
            }
        }
        for &(n, at) in &numbers {
            if n < 0 {
                return Err(Error::invalid(
                    format!("a counter of a position must be >= 0, not {n}"),
                    at,
                    "heaps and counters are non-negative",
                ));
            }
            if let Shape::Nodes(nodes) = &game.shape {
                if n as usize >= nodes.len() {
                    return Err(Error::invalid(
                        format!("{} has no node number {n}", game.display),
                        at,
                        format!("the nodes of {} are {}", game.display, nodes.join(", ")),
                    ));
                }
            }
        }
        if let Shape::Tuple(width) = game.shape {
            if numbers.len() != width {
                return Err(Error::Arity {
                    name: game.display.clone(),
                    expected: plural(width, "counter"),
                    found: numbers.len(),
                    span,
                    help: format!(
                        "a position of {} is one state of {width} counters",
                        game.display
                    ),
                });
            }
        }
        let engine = self.engine(span)?;
        let parts: Vec<Part> = match game.shape {
            // One counter is its own canonical form.
            Shape::Heaps | Shape::Nodes(_) => numbers
                .iter()
                .map(|&(n, _)| Part {
                    game: game.id,
                    state: Box::new([n]),
                })
                .collect(),
            Shape::Tuple(_) | Shape::List | Shape::Cells => {
                vec![engine.part(game.id, numbers.iter().map(|&(n, _)| n).collect())]
            }
        };
        Ok(Value::Position(Arc::new(PositionValue {
            position: Position::new(parts, false),
            games: vec![game.clone()],
        })))
    }

    /// A position of a game on cells: one component a board, `cram[grid(3, 2), grid(2, 2)]`.
    fn board_position(&mut self, game: &Arc<GameValue>, args: &'a [Expr]) -> Result<Value, Error> {
        let mut parts = Vec::with_capacity(args.len());
        for arg in args {
            match self.eval(arg)? {
                Value::Board(board) => parts.push(Part {
                    game: game.id,
                    state: board.encode().into(),
                }),
                other => {
                    return Err(Error::type_mismatch(
                        "a board",
                        other.type_name(),
                        arg.span,
                        format!(
                            "a position of {} is a board: `{}[grid(3, 2)]`",
                            game.display, game.display
                        ),
                    ))
                }
            }
        }
        Ok(Value::Position(Arc::new(PositionValue {
            position: Position::new(parts, false),
            games: vec![game.clone()],
        })))
    }

    /// Runs `body` once per binding of `binders`, innermost last, until it says stop.
    pub fn for_each(
        &mut self,
        binders: &'a [Binder],
        body: &mut dyn FnMut(&mut Self) -> Result<Flow, Error>,
    ) -> Result<Flow, Error> {
        let Some((first, rest)) = binders.split_first() else {
            return body(self);
        };
        let name = first.name.name.as_str();
        let domain = self.eval(&first.value)?;
        let guard = first.guard.as_ref();
        let mut each = |this: &mut Self, value: Value| -> Result<Flow, Error> {
            this.tick()?;
            this.push(name, value);
            let flow = match guard.map(|g| this.bool(g)).transpose() {
                Ok(Some(false)) => Ok(Flow::Continue),
                Ok(_) => this.for_each(rest, body),
                Err(e) => Err(e),
            };
            this.pop();
            flow
        };
        if first.kind == BinderKind::Let {
            return each(self, domain);
        }
        match domain {
            Value::Range {
                start,
                last: Some(last),
            } => {
                let mut x = start;
                while x <= last {
                    if let Flow::Stop = each(self, Value::Int(x))? {
                        return Ok(Flow::Stop);
                    }
                    match x.checked_add(1) {
                        Some(next) => x = next,
                        None => break,
                    }
                }
            }
            Value::Set(items) => {
                for &x in items.iter() {
                    if let Flow::Stop = each(self, Value::Int(x))? {
                        return Ok(Flow::Stop);
                    }
                }
            }
            Value::Board(board) => {
                for x in board.cells() {
                    if let Flow::Stop = each(self, Value::Int(x))? {
                        return Ok(Flow::Stop);
                    }
                }
            }
            Value::List(items) => {
                for x in items.iter() {
                    if let Flow::Stop = each(self, x.clone())? {
                        return Ok(Flow::Stop);
                    }
                }
            }
            Value::Box { low, high } => {
                if low.iter().zip(high.iter()).any(|(l, h)| l > h) {
                    return Ok(Flow::Continue);
                }
                let size = low.iter().zip(high.iter()).fold(1i128, |acc, (l, h)| {
                    acc.saturating_mul(*h as i128 - *l as i128 + 1)
                });
                let limit = self.host.max_elements();
                if size > limit as i128 {
                    return Err(Error::TooLarge {
                        what: "this box".into(),
                        size: size.to_string(),
                        limit,
                        span: first.value.span,
                    });
                }
                let mut current: Vec<i64> = low.to_vec();
                loop {
                    let value = Value::list(current.iter().map(|&x| Value::Int(x)).collect());
                    if let Flow::Stop = each(self, value)? {
                        return Ok(Flow::Stop);
                    }
                    let mut i = current.len();
                    loop {
                        if i == 0 {
                            return Ok(Flow::Continue);
                        }
                        i -= 1;
                        if current[i] < high[i] {
                            current[i] += 1;
                            break;
                        }
                        current[i] = low[i];
                    }
                }
            }
            other => {
                return Err(Error::type_mismatch(
                    "a range, set, list, box or board",
                    other.type_name(),
                    first.value.span,
                    if matches!(other, Value::Range { last: None, .. }) {
                        "an open range `a..` has no end to stop at"
                    } else {
                        "`x in ...` needs something to go through"
                    },
                ))
            }
        }
        Ok(Flow::Continue)
    }
}

/// `a op b` for every operator but `and` and `or`: integers, lists element by element, sums of
/// positions, and equality of any two values.
pub fn combine(
    op: BinaryOp,
    a: &Value,
    b: &Value,
    span: Span,
    left: Span,
    right: Span,
) -> Result<Value, Error> {
    match (op, a, b) {
        (BinaryOp::Eq, _, _) => Ok(Value::Bool(a == b)),
        (BinaryOp::In, Value::Int(x), Value::Set(items)) => {
            Ok(Value::Bool(items.binary_search(x).is_ok()))
        }
        (BinaryOp::In, Value::Int(x), Value::List(items)) => {
            Ok(Value::Bool(items.contains(&Value::Int(*x))))
        }
        (BinaryOp::In, Value::Int(x), Value::Range { start, last }) => Ok(Value::Bool(
            x >= start && last.is_none_or(|last| *x <= last),
        )),
        (BinaryOp::In, Value::Int(x), Value::Board(board)) => Ok(Value::Bool(board.contains(*x))),
        (BinaryOp::In, Value::Int(_), other) => Err(Error::type_mismatch(
            "a set, list, range or board",
            other.type_name(),
            right,
            "`x in s` asks whether the integer x is in s",
        )),
        (BinaryOp::In, other, _) => Err(Error::type_mismatch(
            "an integer",
            other.type_name(),
            left,
            "`x in s` asks whether the integer x is in s",
        )),
        (BinaryOp::Sub, Value::Board(board), Value::Set(cells)) => {
            Ok(Value::Board(Arc::new(board.without(cells, right)?)))
        }
        (BinaryOp::Sub, Value::Board(board), Value::Int(x)) => {
            Ok(Value::Board(Arc::new(board.without(&[*x], right)?)))
        }
        (BinaryOp::Ne, _, _) => Ok(Value::Bool(a != b)),
        (BinaryOp::Concat, Value::List(xs), Value::List(ys)) => {
            Ok(Value::list(xs.iter().chain(ys.iter()).cloned().collect()))
        }
        (_, Value::Int(x), Value::Int(y)) if op != BinaryOp::Concat => {
            int_op(op, *x, *y, span, right).map(|v| match op {
                BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => Value::Bool(v != 0),
                _ => Value::Int(v),
            })
        }
        (BinaryOp::Add | BinaryOp::Sub, Value::List(xs), Value::List(ys)) => {
            list_op(op, xs, ys, left, right, span)
        }

        (BinaryOp::Add, Value::Position(p), Value::Position(q)) => {
            let mut games = p.games.clone();
            for g in &q.games {
                if !games.iter().any(|h| h.id == g.id) {
                    games.push(g.clone());
                }
            }
            Ok(Value::Position(Arc::new(PositionValue {
                position: p.position.sum(&q.position),
                games,
            })))
        }
        _ => {
            let expected = match op {
                BinaryOp::Add => "integers, lists of equal length, or positions",
                BinaryOp::Sub => "integers or lists of equal length",
                BinaryOp::Concat => "lists",
                _ => "integers",
            };
            let (bad, bad_span) = match (a, op) {
                (Value::List(_), BinaryOp::Concat) => (b, right),
                (_, BinaryOp::Concat) => (a, left),
                (Value::Int(_), _) => (b, right),
                (Value::List(_), BinaryOp::Add | BinaryOp::Sub) if matches!(b, Value::List(_)) => {
                    (b, right)
                }
                (Value::List(_), BinaryOp::Add | BinaryOp::Sub) => (b, right),
                (Value::Position(_), BinaryOp::Add) => (b, right),
                _ => (a, left),
            };
            Err(Error::type_mismatch(
                expected,
                bad.type_name(),
                bad_span,
                format!("`{}` works on {expected}", op.symbol()),
            ))
        }
    }
}

pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

pub(crate) fn int_op(
    op: BinaryOp,
    x: i64,
    y: i64,
    span: Span,
    divisor_span: Span,
) -> Result<i64, Error> {
    let overflow = || Error::overflow(format!("{x} {} {y}", op.symbol()), span);
    let result = match op {
        BinaryOp::Add => x.checked_add(y),
        BinaryOp::Sub => x.checked_sub(y),
        BinaryOp::Mul => x.checked_mul(y),
        BinaryOp::Div | BinaryOp::Rem => {
            if y == 0 {
                return Err(Error::DivisionByZero { span: divisor_span });
            }
            if op == BinaryOp::Div {
                x.checked_div_euclid(y)
            } else {
                x.checked_rem_euclid(y)
            }
        }
        BinaryOp::Pow => {
            if y < 0 {
                return Err(Error::invalid(
                    format!("negative exponent in `{x} ^ {y}`"),
                    span,
                    "`^` is integer power: the exponent must be >= 0",
                ));
            }
            match x {
                0 | 1 => Some(if y == 0 { 1 } else { x }),
                -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
                _ => u32::try_from(y).ok().and_then(|e| x.checked_pow(e)),
            }
        }
        BinaryOp::Shl | BinaryOp::Shr => {
            if !(0..64).contains(&y) {
                return Err(Error::invalid(
                    format!("shift by {y}"),
                    span,
                    "shifts take an amount from 0 to 63",
                ));
            }
            if op == BinaryOp::Shr {
                Some(x >> y)
            } else {
                let shifted = x << y;
                (shifted >> y == x).then_some(shifted)
            }
        }
        BinaryOp::BitAnd => Some(x & y),
        BinaryOp::BitOr => Some(x | y),
        BinaryOp::Xor => Some(x ^ y),
        BinaryOp::Lt => Some((x < y) as i64),
        BinaryOp::Le => Some((x <= y) as i64),
        BinaryOp::Gt => Some((x > y) as i64),
        BinaryOp::Ge => Some((x >= y) as i64),
        BinaryOp::Eq
        | BinaryOp::Ne
        | BinaryOp::And
        | BinaryOp::Or
        | BinaryOp::Concat
        | BinaryOp::In => {
            unreachable!("handled before")
        }
    };
    result.ok_or_else(overflow)
}

fn list_op(
    op: BinaryOp,
    xs: &[Value],
    ys: &[Value],
    left: Span,
    right: Span,
    span: Span,
) -> Result<Value, Error> {
    if xs.len() != ys.len() {
        return Err(Error::invalid(
            format!(
                "`{}` on lists of different lengths ({} and {})",
                op.symbol(),
                xs.len(),
                ys.len()
            ),
            span,
            "element-wise `+` and `-` need lists of equal length",
        ));
    }
    let mut out = Vec::with_capacity(xs.len());
    for (x, y) in xs.iter().zip(ys) {
        match (x, y) {
            (Value::Int(a), Value::Int(b)) => {
                out.push(Value::Int(int_op(op, *a, *b, span, right)?))
            }
            (Value::Int(_), other) => return Err(type_error("a list of integers", other, right)),
            (other, _) => return Err(type_error("a list of integers", other, left)),
        }
    }
    Ok(Value::list(out))
}
