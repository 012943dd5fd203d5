//! Compiled rules: a rule-defined game lowered once, at instantiation, into a form that computes
//! options without walking the AST or allocating per option.
//!
//! Variables live in slots (integers in one array, lists in another) instead of the
//! name-searched local stack; parameters are constants; every expression has a static type
//! (integer or boolean; lists are slots, or built only as the right side of a whole-state
//! assignment, [`CList`]), so the run-time values are plain `i64`s. A call of a function declared
//! in the program is compiled in place (its parameters are slots of their own); one that calls
//! itself, directly or not, is not. A rule that uses anything else (globals that are not
//! constants, strings, sets as values, a type the compiler cannot see statically) makes
//! [`compile`] give `None`, and the game keeps the AST walker. The compiled form gives exactly the interpreter's options, in the same order, and the
//! same errors: wherever an operation fails, the error is built by the interpreter's own code.
//!
//! Every fast path reads this form, not the AST: [`linear`] reads its rules as linear
//! arithmetic, and [`heap_shape`] and [`line_shape`] classify that as the engine's [`HeapRules`]
//! (octal-style moves, Nim) and [`LineRules`], so that equivalent spellings get the same method;
//! [`chomp_shape`] reads Chomp on a list of row lengths.
//!
//! A box binder `b in L..=h` that is the last binder of its rule, under a condition whose
//! conjuncts before `xor(b) == 0` cannot fail, enumerates only the boxes with `xor(b) == 0`: the
//! last coordinate is the xor of the others (when it is within its bounds). Every other binding
//! fails the condition without an error in the interpreter too, so the options are the same.

use std::cell::Cell;
use std::sync::Arc;

use super::super::expr::{combine, int_op, over_memory, slice_range};
use super::super::value::Value;
use crate::error::{Error, Origin};
use crate::game::budget::{self, Charge, Ledger};
use crate::game::vocabulary::{HeapRules, LineRules};
use crate::game::Emit;
use crate::span::Span;
use crate::syntax::ast::{BinaryOp, UpdateOp};

mod chomp_shape;
mod heap_shape;
mod line_shape;
mod linear;
mod lower;
pub use lower::compile;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int,
    Bool,
}

#[derive(Debug)]
enum CExpr {
    Const(i64),
    Int(usize),
    Index {
        list: usize,
        index: Box<CExpr>,
        span: Span,
    },
    Len(usize),
    Xor(usize),
    Count(usize),
    Sum {
        list: usize,
        span: Span,
    },
    MinMaxList {
        list: usize,
        max: bool,
        span: Span,
    },
    MinMax(bool, Box<CExpr>, Box<CExpr>),
    Abs(Box<CExpr>, Span),
    Neg(Box<CExpr>, Span),
    Not(Box<CExpr>),
    And(Box<CExpr>, Box<CExpr>),
    Or(Box<CExpr>, Box<CExpr>),
    Eq(bool, Box<CExpr>, Box<CExpr>),
    Arith {
        op: BinaryOp,
        left: Box<CExpr>,
        right: Box<CExpr>,
        span: Span,
        right_span: Span,
    },
    If(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    /// A parameter of a function called in the rules, set by its [`CExpr::Call`].
    Param(usize),
    /// A call of a function declared in the program, its body compiled in place (a function
    /// that calls itself, directly or not, is not compiled): the arguments in order into the
    /// body's parameters, then the body, whose errors are the function's declaration's.
    Call {
        args: Vec<(usize, CExpr)>,
        body: Box<CExpr>,
        origin: Arc<Origin>,
    },
}

impl CExpr {
    /// Whether evaluating it can never fail.
    fn infallible(&self) -> bool {
        match self {
            CExpr::Const(_) | CExpr::Int(_) | CExpr::Len(_) | CExpr::Xor(_) | CExpr::Count(_) => {
                true
            }
            CExpr::Not(a) => a.infallible(),
            CExpr::And(a, b) | CExpr::Or(a, b) | CExpr::Eq(_, a, b) | CExpr::MinMax(_, a, b) => {
                a.infallible() && b.infallible()
            }
            CExpr::Arith {
                op, left, right, ..
            } => {
                matches!(
                    op,
                    BinaryOp::Lt
                        | BinaryOp::Le
                        | BinaryOp::Gt
                        | BinaryOp::Ge
                        | BinaryOp::BitAnd
                        | BinaryOp::BitOr
                        | BinaryOp::Xor
                ) && left.infallible()
                    && right.infallible()
            }
            CExpr::If(c, a, b) => c.infallible() && a.infallible() && b.infallible(),
            _ => false,
        }
    }
}

/// A list-valued expression, the right side of a whole-state assignment `s = EXPR`, evaluated
/// as the interpreter evaluates it (the same order, limits and errors).
#[derive(Debug)]
enum CList {
    /// A list slot: the state, or a box binder.
    Slot(usize),
    /// A constant list.
    Consts(Arc<Vec<i64>>),
    /// `[e, ...]`
    Items(Vec<CExpr>),
    /// `a ++ b`
    Concat {
        left: Box<CList>,
        right: Box<CList>,
        span: Span,
    },
    /// `l[a..b]`, `l[a..=b]`, `l[a..]`
    Slice {
        list: Box<CList>,
        start: CExpr,
        end: Option<CExpr>,
        inclusive: bool,
        arg_span: Span,
    },
    /// `repeat(x, k)`; `span` is that of `k`.
    Repeat {
        value: CExpr,
        copies: CExpr,
        span: Span,
    },
    /// `if c then a else b`
    If(CExpr, Box<CList>, Box<CList>),
}

#[derive(Debug)]
enum CBinder {
    Range {
        slot: usize,
        start: CExpr,
        end: CExpr,
        inclusive: bool,
    },
    Consts {
        slot: usize,
        items: Arc<Vec<i64>>,
    },
    SetExpr {
        slot: usize,
        items: Vec<CExpr>,
    },
    Let {
        slot: usize,
        value: CExpr,
    },
    Box {
        slot: usize,
        low: CExpr,
        high: usize,
        inclusive: bool,
        end_span: Span,
        span: Span,
        /// Enumerate only boxes whose xor is 0.
        xor_zero: bool,
    },
    /// The guard of the binder before it: the bindings for which it is false go no further.
    Guard(CExpr),
}

#[derive(Debug)]
enum CUpdate {
    /// A counter slot (heap or tuple), `x op= e`.
    Int {
        slot: usize,
        op: UpdateOp,
        value: CExpr,
        span: Span,
        target_span: Span,
        value_span: Span,
    },
    /// `s[i] op= e` on the list state.
    Index {
        op: UpdateOp,
        value: CExpr,
        index: CExpr,
        index_span: Span,
        span: Span,
        target_span: Span,
        value_span: Span,
    },
    /// `s op= b` on the list state, `b` a list slot (op is + or -).
    List {
        op: UpdateOp,
        list: usize,
        span: Span,
        target_span: Span,
        value_span: Span,
    },
    /// `s = EXPR` on the list state, `EXPR` a list (`span` is its own).
    Whole { list: CList, span: Span },
    /// `n = [e, ...]` on a heap: the last update of its rule.
    Split(Vec<CExpr>),
    /// `for BINDER, ... { UPDATE; ... }`: the updates once per binding, in order.
    Loop {
        binders: Vec<CBinder>,
        body: Vec<CUpdate>,
    },
}

#[derive(Debug)]
struct CRule {
    binders: Vec<CBinder>,
    condition: Option<CExpr>,
    updates: Vec<CUpdate>,
    span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Heap,
    Tuple(usize),
    List,
}

/// A rule game compiled to slots.
#[derive(Debug)]
pub struct Compiled {
    kind: Kind,
    rules: Vec<CRule>,
    ints: usize,
    lists: usize,
    /// The parameters of the functions compiled in place.
    params: usize,
    /// The built-in functions called, which a global of the same name would shadow.
    pub builtins: Vec<&'static str>,
}

/// What the compiled evaluator returns: an error boxed, so that a result is two words.
type R<T> = Result<T, Box<Error>>;

/// What a run needs besides the compiled rules.
pub struct Env<'e> {
    pub display: &'e str,
    pub max_elements: usize,
    pub interrupted: &'e dyn Fn() -> bool,
    /// The session's ledger and the memory limit: the lists of the run are charged there.
    pub memory: &'e (Ledger, usize),
}

struct Rt<'s> {
    ints: Vec<i64>,
    params: Vec<Cell<i64>>,
    lists: Vec<Vec<i64>>,
    /// The state whose options are listed, which each rule starts from.
    base: &'s [i64],
    split: Option<Vec<i64>>,
    /// The buffer a whole-state assignment builds its list in.
    scratch: Vec<i64>,
    /// The charge of the lists' buffers, once a whole-state assignment has grown one
    /// (`None` while one is built, the charge lent to [`list_into`]).
    held: Option<Charge>,
    steps: u32,
    /// Whether the receiver of the options asked to stop: the error that unwinds the binders
    /// is then not one.
    stopped: bool,
}

impl Compiled {
    /// For a heap game whose every rule is an octal-style move, the moves as [`HeapRules`]
    /// (read from the linear form of the rules, see [`heap_shape`]).
    pub fn heap_rules(&self) -> Option<HeapRules> {
        (self.kind == Kind::Heap).then_some(())?;
        heap_shape::heap_rules(&self.linear(1)?)
    }

    /// For a two-counter game whose every rule takes along a line, the moves as [`LineRules`].
    pub fn line_rules(&self) -> Option<LineRules> {
        (self.kind == Kind::Tuple(2)).then_some(())?;
        line_shape::line_rules(&self.linear(2)?)
    }

    /// Whether the game is Chomp on the row lengths of its list (see [`chomp_shape`]).
    pub fn chomp(&self) -> bool {
        self.kind == Kind::List && chomp_shape::is_chomp(&self.rules)
    }

    /// Every rule as linear arithmetic, when all of them can be read so.
    fn linear(&self, counters: usize) -> Option<Vec<linear::LinearRule>> {
        let mut out = Vec::new();
        for rule in &self.rules {
            out.extend(linear::linear_rules(rule, counters, self.ints)?);
            if out.len() > linear::MAX_EXPANSION {
                return None;
            }
        }
        Some(out)
    }

    /// Every option of `state`, as the interpreter gives them.
    pub fn options(&self, env: &Env<'_>, state: &[i64], emit: &mut Emit<'_>) -> Result<(), Error> {
        let mut rt = Rt {
            ints: vec![0; self.ints],
            params: vec![Cell::new(0); self.params],
            lists: vec![Vec::new(); self.lists],
            base: state,
            split: None,
            scratch: Vec::new(),
            held: None,
            steps: 0,
            stopped: false,
        };
        match self.kind {
            Kind::Heap | Kind::Tuple(_) => rt.ints[..state.len()].copy_from_slice(state),
            Kind::List => {
                // The copy the rules change is charged: a state of millions takes as much again.
                let (ledger, limit) = env.memory;
                let mut held = ledger.charge(*limit);
                let bytes = budget::boxed(size_of_val(state));
                if let (Err(over), Some(rule)) = (held.set(bytes), self.rules.first()) {
                    return Err(over_memory(over, rule.span));
                }
                rt.lists[0] = state.to_vec();
                rt.held = Some(held);
            }
        }
        for rule in &self.rules {
            let mut body = |this: &Self, rt: &mut Rt| this.body(env, rule, rt, emit);
            match self.binders(env, &rule.binders, &mut rt, &mut body) {
                Err(_) if rt.stopped => return Ok(()),
                Err(e) => return Err(*e),
                Ok(()) => {}
            }
        }
        Ok(())
    }

    fn tick(&self, env: &Env<'_>, rt: &mut Rt) -> R<()> {
        rt.steps = rt.steps.wrapping_add(1);
        if rt.steps.is_multiple_of(4096) && (env.interrupted)() {
            return Err(Box::new(Error::Interrupted));
        }
        Ok(())
    }

    /// Runs `body` once per binding of `binders`, in order.
    fn binders(
        &self,
        env: &Env<'_>,
        binders: &[CBinder],
        rt: &mut Rt,
        body: &mut dyn FnMut(&Self, &mut Rt) -> R<()>,
    ) -> R<()> {
        let Some((binder, rest)) = binders.split_first() else {
            return body(self, rt);
        };
        match binder {
            CBinder::Guard(guard) => {
                if eval(guard, rt)? != 0 {
                    self.binders(env, rest, rt, body)?;
                }
                Ok(())
            }
            CBinder::Let { slot, value } => {
                rt.ints[*slot] = eval(value, rt)?;
                self.binders(env, rest, rt, body)
            }
            CBinder::Range {
                slot,
                start,
                end,
                inclusive,
            } => {
                let start = eval(start, rt)?;
                let end = eval(end, rt)?;
                let (mut x, last) = match if *inclusive {
                    Some(end)
                } else {
                    end.checked_sub(1)
                } {
                    Some(last) => (start, last),
                    None => (0, -1),
                };
                while x <= last {
                    self.tick(env, rt)?;
                    rt.ints[*slot] = x;
                    self.binders(env, rest, rt, body)?;
                    match x.checked_add(1) {
                        Some(next) => x = next,
                        None => break,
                    }
                }
                Ok(())
            }
            CBinder::Consts { slot, items } => {
                for &x in items.iter() {
                    self.tick(env, rt)?;
                    rt.ints[*slot] = x;
                    self.binders(env, rest, rt, body)?;
                }
                Ok(())
            }
            CBinder::SetExpr { slot, items } => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(eval(item, rt)?);
                }
                values.sort_unstable();
                values.dedup();
                for x in values {
                    self.tick(env, rt)?;
                    rt.ints[*slot] = x;
                    self.binders(env, rest, rt, body)?;
                }
                Ok(())
            }
            CBinder::Box {
                slot,
                low,
                high,
                inclusive,
                end_span,
                span,
                xor_zero,
            } => {
                let low = eval(low, rt)?;
                let mut highs = rt.lists[*high].clone();
                if !*inclusive {
                    for h in highs.iter_mut() {
                        *h = h
                            .checked_sub(1)
                            .ok_or_else(|| Error::overflow("range end - 1", *end_span))?;
                    }
                }
                if highs.iter().any(|&h| low > h) {
                    return Ok(());
                }
                let size = highs.iter().fold(1i128, |acc, h| {
                    acc.saturating_mul(*h as i128 - low as i128 + 1)
                });
                if size > env.max_elements as i128 {
                    return Err(Box::new(Error::TooLarge {
                        what: "this box".into(),
                        size: size.to_string(),
                        limit: env.max_elements,
                        span: *span,
                    }));
                }
                let n = highs.len();
                let mut current = vec![low; n];
                if *xor_zero && n > 0 {
                    // The last coordinate is the xor of the others.
                    loop {
                        let x = current[..n - 1].iter().fold(0, |a, &b| a ^ b);
                        if low <= x && x <= highs[n - 1] {
                            current[n - 1] = x;
                            self.tick(env, rt)?;
                            rt.lists[*slot].clone_from(&current);
                            self.binders(env, rest, rt, body)?;
                        }
                        if !advance(&mut current[..n - 1], &highs[..n - 1], low) {
                            return Ok(());
                        }
                    }
                }
                loop {
                    self.tick(env, rt)?;
                    rt.lists[*slot].clone_from(&current);
                    self.binders(env, rest, rt, body)?;
                    if !advance(&mut current, &highs, low) {
                        return Ok(());
                    }
                }
            }
        }
    }

    fn body(&self, env: &Env<'_>, rule: &CRule, rt: &mut Rt, emit: &mut Emit<'_>) -> R<()> {
        if let Some(condition) = &rule.condition {
            if eval(condition, rt)? == 0 {
                return Ok(());
            }
        }
        let result = self
            .updates(env, &rule.updates, rt)
            .and_then(|()| self.emit(env, rule, rt, emit));
        // Put the state back.
        match self.kind {
            Kind::Heap | Kind::Tuple(_) => {
                let n = rt.base.len();
                rt.ints[..n].copy_from_slice(rt.base);
            }
            Kind::List => {
                let Rt { lists, base, .. } = rt;
                lists[0].clear();
                lists[0].extend_from_slice(base);
            }
        }
        rt.split = None;
        result
    }

    /// Checks the option for negative counters, and emits it.
    fn emit(&self, env: &Env<'_>, rule: &CRule, rt: &mut Rt, emit: &mut Emit<'_>) -> R<()> {
        let option: &[i64] = match (&rt.split, self.kind) {
            (Some(heaps), _) => heaps,
            (None, Kind::List) => &rt.lists[0],
            (None, Kind::Heap) => &rt.ints[..1],
            (None, Kind::Tuple(n)) => &rt.ints[..n],
        };
        if option.iter().any(|&x| x < 0) {
            return Err(Box::new(Error::NegativeCounter {
                state: format!("{}[{}]", env.display, super::join(option)),
                span: rule.span,
            }));
        }
        if emit(option).is_break() {
            rt.stopped = true;
            return Err(Box::new(Error::Interrupted));
        }
        Ok(())
    }

    fn updates(&self, env: &Env<'_>, updates: &[CUpdate], rt: &mut Rt) -> R<()> {
        for update in updates {
            match update {
                CUpdate::Loop { binders, body } => {
                    let mut run = |this: &Self, rt: &mut Rt| this.updates(env, body, rt);
                    self.binders(env, binders, rt, &mut run)?;
                }
                CUpdate::Int {
                    slot,
                    op,
                    value,
                    span,
                    target_span,
                    value_span,
                } => {
                    let v = eval(value, rt)?;
                    let old = rt.ints[*slot];
                    rt.ints[*slot] = step(*op, old, v, *span, *target_span, *value_span)?;
                }
                CUpdate::Index {
                    op,
                    value,
                    index,
                    index_span,
                    span,
                    target_span,
                    value_span,
                } => {
                    let v = eval(value, rt)?;
                    let i = eval(index, rt)?;
                    let len = rt.lists[0].len();
                    let i = usize::try_from(i)
                        .ok()
                        .filter(|&u| u < len)
                        .ok_or(Error::Index {
                            index: i,
                            len,
                            span: *index_span,
                        })?;
                    let old = rt.lists[0][i];
                    rt.lists[0][i] = step(*op, old, v, *span, *target_span, *value_span)?;
                }
                CUpdate::List {
                    op,
                    list,
                    span,
                    target_span,
                    value_span,
                } => {
                    let (state, rest) = rt.lists.split_at_mut(1);
                    let (xs, ys) = (&mut state[0], &rest[*list - 1]);
                    let sub = *op == UpdateOp::Sub;
                    let ok = xs.len() == ys.len()
                        && xs.iter().zip(ys.iter()).all(|(&x, &y)| {
                            if sub {
                                x.checked_sub(y).is_some()
                            } else {
                                x.checked_add(y).is_some()
                            }
                        });
                    if !ok {
                        // The interpreter's own error.
                        let values =
                            |v: &[i64]| Value::list(v.iter().map(|&x| Value::Int(x)).collect());
                        let bop = if sub { BinaryOp::Sub } else { BinaryOp::Add };
                        return Err(Box::new(
                            combine(
                                bop,
                                &values(xs),
                                &values(ys),
                                *span,
                                *target_span,
                                *value_span,
                            )
                            .expect_err("the interpreter fails too"),
                        ));
                    }
                    for (x, &y) in xs.iter_mut().zip(ys.iter()) {
                        *x = if sub { *x - y } else { *x + y };
                    }
                }
                CUpdate::Whole { list, span } => {
                    let mut out = std::mem::take(&mut rt.scratch);
                    out.clear();
                    let (ledger, limit) = env.memory;
                    let held = rt.held.take().unwrap_or_else(|| ledger.charge(*limit));
                    let mut grow = Grow {
                        beside: rt.lists.iter().map(|l| budget::vector(l, 0)).sum(),
                        held,
                        span: *span,
                    };
                    // The buffers held already count, whether or not they fit.
                    grow.held.hold(grow.beside + budget::vector(&out, 0));
                    let result = list_into(env, list, rt, &mut out, &mut grow);
                    rt.held = Some(grow.held);
                    if result.is_ok() {
                        std::mem::swap(&mut rt.lists[0], &mut out);
                    }
                    rt.scratch = out;
                    result?;
                }
                CUpdate::Split(items) => {
                    let mut heaps = Vec::with_capacity(items.len());
                    for item in items {
                        heaps.push(eval(item, rt)?);
                    }
                    rt.split = Some(heaps);
                }
            }
        }
        Ok(())
    }
}

fn step(op: UpdateOp, old: i64, new: i64, span: Span, _target: Span, value: Span) -> R<i64> {
    match op {
        UpdateOp::Assign => Ok(new),
        UpdateOp::Add => int_op(BinaryOp::Add, old, new, span, value).map_err(Box::new),
        UpdateOp::Sub => int_op(BinaryOp::Sub, old, new, span, value).map_err(Box::new),
    }
}

/// The value of `e`: a constant or a slot read in place, the rest by [`eval_node`].
#[inline(always)]
fn eval(e: &CExpr, rt: &Rt) -> R<i64> {
    match e {
        CExpr::Const(n) => Ok(*n),
        CExpr::Int(slot) => Ok(rt.ints[*slot]),
        _ => eval_node(e, rt),
    }
}

fn eval_node(e: &CExpr, rt: &Rt) -> R<i64> {
    Ok(match e {
        CExpr::Const(n) => *n,
        CExpr::Int(slot) => rt.ints[*slot],
        CExpr::Index { list, index, span } => {
            let items = &rt.lists[*list];
            let i = eval(index, rt)?;
            match usize::try_from(i).ok().and_then(|u| items.get(u)) {
                Some(&x) => x,
                None => {
                    return Err(Box::new(Error::Index {
                        index: i,
                        len: items.len(),
                        span: *span,
                    }))
                }
            }
        }
        CExpr::Len(list) => rt.lists[*list].len() as i64,
        CExpr::Xor(list) => rt.lists[*list].iter().fold(0, |a, &b| a ^ b),
        CExpr::Count(list) => rt.lists[*list].iter().filter(|&&x| x != 0).count() as i64,
        CExpr::Sum { list, span } => rt.lists[*list]
            .iter()
            .try_fold(0i64, |acc, &x| acc.checked_add(x))
            .ok_or_else(|| Error::overflow("sum", *span))?,
        CExpr::MinMaxList { list, max, span } => {
            let items = &rt.lists[*list];
            let best = if *max {
                items.iter().max()
            } else {
                items.iter().min()
            };
            match best {
                Some(&x) => x,
                None => {
                    let name = if *max { "max" } else { "min" };
                    return Err(Box::new(Error::invalid(
                        format!("`{name}` of an empty list"),
                        *span,
                        "give at least one element",
                    )));
                }
            }
        }
        CExpr::MinMax(max, a, b) => {
            let (x, y) = (eval(a, rt)?, eval(b, rt)?);
            if *max {
                x.max(y)
            } else {
                x.min(y)
            }
        }
        CExpr::Abs(a, span) => {
            let n = eval(a, rt)?;
            n.checked_abs()
                .ok_or_else(|| Error::overflow(format!("abs({n})"), *span))?
        }
        CExpr::Neg(a, span) => {
            let n = eval(a, rt)?;
            n.checked_neg()
                .ok_or_else(|| Error::overflow(format!("-({n})"), *span))?
        }
        CExpr::Not(a) => (eval(a, rt)? == 0) as i64,
        CExpr::And(a, b) => (eval(a, rt)? != 0 && eval(b, rt)? != 0) as i64,
        CExpr::Or(a, b) => (eval(a, rt)? != 0 || eval(b, rt)? != 0) as i64,
        CExpr::Eq(ne, a, b) => ((eval(a, rt)? == eval(b, rt)?) != *ne) as i64,
        CExpr::Arith {
            op,
            left,
            right,
            span,
            right_span,
        } => {
            let (x, y) = (eval(left, rt)?, eval(right, rt)?);
            match op {
                BinaryOp::Add => match x.checked_add(y) {
                    Some(v) => v,
                    None => int_op(*op, x, y, *span, *right_span)?,
                },
                BinaryOp::Sub => match x.checked_sub(y) {
                    Some(v) => v,
                    None => int_op(*op, x, y, *span, *right_span)?,
                },
                BinaryOp::Lt => (x < y) as i64,
                BinaryOp::Le => (x <= y) as i64,
                BinaryOp::Gt => (x > y) as i64,
                BinaryOp::Ge => (x >= y) as i64,
                _ => int_op(*op, x, y, *span, *right_span)?,
            }
        }
        CExpr::If(c, a, b) => {
            if eval(c, rt)? != 0 {
                eval(a, rt)?
            } else {
                eval(b, rt)?
            }
        }
        CExpr::Param(slot) => rt.params[*slot].get(),
        CExpr::Call { args, body, origin } => {
            for (slot, arg) in args {
                let x = eval(arg, rt)?;
                rt.params[*slot].set(x);
            }
            eval(body, rt).map_err(|e| Box::new(e.declared_in(origin)))?
        }
    })
}

/// The memory of a list being built by a whole-state assignment: what the other lists of the
/// run hold beside it, and the charge of both, grown before the list grows.
struct Grow {
    beside: usize,
    held: Charge,
    span: Span,
}

impl Grow {
    /// Makes room in `out` for `extra` more items: charged first, its old and new buffers
    /// both (as while it moves), so that a list the limit cannot hold is never allocated.
    fn reserve(&mut self, out: &mut Vec<i64>, extra: usize) -> R<()> {
        let need = out.len().saturating_add(extra);
        if need > out.capacity() {
            self.held
                .set(self.beside + budget::vector(out, extra))
                .map_err(|over| Box::new(over_memory(over, self.span)))?;
            out.reserve_exact(need.max(2 * out.capacity()).max(4) - out.len());
            self.held.hold(self.beside + budget::vector(out, 0));
        }
        Ok(())
    }
}

/// Appends the items of `list` to `out`, as the interpreter computes the list.
fn list_into(env: &Env<'_>, list: &CList, rt: &Rt, out: &mut Vec<i64>, grow: &mut Grow) -> R<()> {
    match list {
        CList::Slot(slot) => {
            grow.reserve(out, rt.lists[*slot].len())?;
            out.extend_from_slice(&rt.lists[*slot]);
        }
        CList::Consts(items) => {
            grow.reserve(out, items.len())?;
            out.extend_from_slice(items);
        }
        CList::Items(items) => {
            for item in items {
                let x = eval(item, rt)?;
                grow.reserve(out, 1)?;
                out.push(x);
            }
        }
        CList::Concat { left, right, span } => {
            let base = out.len();
            list_into(env, left, rt, out, grow)?;
            list_into(env, right, rt, out, grow)?;
            let size = out.len() - base;
            if size > env.max_elements {
                return Err(Box::new(Error::TooLarge {
                    what: "this list".into(),
                    size: size.to_string(),
                    limit: env.max_elements,
                    span: *span,
                }));
            }
        }
        CList::Slice {
            list,
            start,
            end,
            inclusive,
            arg_span,
        } => {
            let base = out.len();
            list_into(env, list, rt, out, grow)?;
            let start = eval(start, rt)?;
            // The range as the interpreter makes it: an empty one when `end - 1` overflows.
            let (start, last) = match end {
                None => (start, None),
                Some(end) => {
                    let end = eval(end, rt)?;
                    match if *inclusive {
                        Some(end)
                    } else {
                        end.checked_sub(1)
                    } {
                        Some(last) => (start, Some(last)),
                        None => (0, Some(-1)),
                    }
                }
            };
            let len = out.len() - base;
            let range = slice_range(start, last, len).map_err(|index| {
                Box::new(Error::Index {
                    index,
                    len,
                    span: *arg_span,
                })
            })?;
            out.truncate(base + range.end);
            out.drain(base..base + range.start);
        }
        CList::Repeat {
            value,
            copies,
            span,
        } => {
            let x = eval(value, rt)?;
            let copies = eval(copies, rt)?;
            if copies < 0 {
                return Err(Box::new(Error::invalid(
                    format!("`repeat` of {copies} copies"),
                    *span,
                    "the number of copies is 0 or more",
                )));
            }
            if copies as u64 > env.max_elements as u64 {
                return Err(Box::new(Error::TooLarge {
                    what: "this list".into(),
                    size: copies.to_string(),
                    limit: env.max_elements,
                    span: *span,
                }));
            }
            grow.reserve(out, copies as usize)?;
            out.resize(out.len() + copies as usize, x);
        }
        CList::If(condition, then, otherwise) => {
            if eval(condition, rt)? != 0 {
                list_into(env, then, rt, out, grow)?;
            } else {
                list_into(env, otherwise, rt, out, grow)?;
            }
        }
    }
    Ok(())
}

/// Steps `current` to the next list of the box `low..=highs`, the last coordinate fastest;
/// false once every list has been visited.
fn advance(current: &mut [i64], highs: &[i64], low: i64) -> bool {
    for i in (0..current.len()).rev() {
        if current[i] < highs[i] {
            current[i] += 1;
            return true;
        }
        current[i] = low;
    }
    false
}
