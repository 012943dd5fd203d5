//! Lowering a rule game's declaration to the compiled form of [`super`]: a scope of slots and
//! constants, and static types for every expression.

use std::sync::Arc;

use super::{CBinder, CExpr, CList, CRule, CUpdate, Compiled, Kind, Ty};
use crate::eval::value::{FunctionValue, Value};
use crate::eval::Globals;
use crate::syntax::ast::{
    BinaryOp, Binder, BinderKind, Expr, ExprKind, GameDecl, GameDef, Rule, StateShape, Step,
    UnaryOp, Update, UpdateOp,
};

#[derive(Clone)]
enum Local<'d> {
    Int(usize),
    List(usize),
    Const(Value),
    /// A parameter of a function compiled in place, and its type.
    Param(usize, Ty),
    /// A function declared in the program.
    Function(&'d FunctionValue),
}

impl<'d> Local<'d> {
    /// A global name's value: a function by reference (its body may be compiled in place).
    fn global(value: &'d Value) -> Local<'d> {
        match value {
            Value::Function(function) => Local::Function(function),
            other => Local::Const(other.clone()),
        }
    }
}

/// How deep calls of functions are compiled in place, and how many in all: past either the
/// rules run on the interpreter.
const MAX_INLINE_DEPTH: usize = 8;
const MAX_INLINED: usize = 256;

struct Compiler<'d> {
    scope: Vec<(&'d str, Local<'d>)>,
    ints: usize,
    lists: usize,
    params: usize,
    /// The functions whose bodies are being compiled, outermost first.
    inlining: Vec<*const FunctionValue>,
    inlined: usize,
    builtins: Vec<&'static str>,
    state_names: Vec<&'d str>,
}

/// Compiles the rules of `decl` with its parameters bound to `params` and the globals it
/// captured, or `None` when they use something the compiler does not handle.
pub fn compile(decl: &GameDecl, params: &[Value], globals: &Globals) -> Option<Compiled> {
    let GameDef::Rules { state, rules, .. } = &decl.def else {
        return None;
    };
    let mut c = Compiler {
        scope: Vec::new(),
        ints: 0,
        lists: 0,
        params: 0,
        inlining: Vec::new(),
        inlined: 0,
        builtins: Vec::new(),
        state_names: Vec::new(),
    };
    for (name, value) in globals {
        c.scope.push((name.as_str(), Local::global(value)));
    }
    for (param, value) in decl.params.iter().zip(params) {
        c.scope
            .push((param.name.as_str(), Local::Const(value.clone())));
    }
    let kind = match state {
        StateShape::Heap(n) => {
            c.state_names.push(&n.name);
            let slot = c.new_int();
            c.scope.push((&n.name, Local::Int(slot)));
            Kind::Heap
        }
        StateShape::Tuple(names) => {
            for n in names {
                c.state_names.push(&n.name);
                let slot = c.new_int();
                c.scope.push((&n.name, Local::Int(slot)));
            }
            Kind::Tuple(names.len())
        }
        StateShape::List(s) => {
            c.state_names.push(&s.name);
            let slot = c.new_list();
            c.scope.push((&s.name, Local::List(slot)));
            Kind::List
        }
        // A set of cells is not integers: its own recogniser reads it (`rules/cell_shape.rs`).
        StateShape::Cells(_) => return None,
    };
    let mut compiled = Vec::new();
    for rule in rules {
        compiled.push(c.rule(rule, kind)?);
    }
    Some(Compiled {
        kind,
        rules: compiled,
        ints: c.ints,
        lists: c.lists,
        params: c.params,
        builtins: c.builtins,
    })
}

impl<'d> Compiler<'d> {
    fn new_int(&mut self) -> usize {
        self.ints += 1;
        self.ints - 1
    }

    fn new_list(&mut self) -> usize {
        self.lists += 1;
        self.lists - 1
    }

    fn lookup(&self, name: &str) -> Option<&Local<'d>> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, l)| l)
    }

    fn rule(&mut self, rule: &'d Rule, kind: Kind) -> Option<CRule> {
        let depth = self.scope.len();
        let mut binders = self.binders(&rule.binders)?;
        let condition = match &rule.condition {
            Some(cond) => {
                let (e, ty) = self.expr(cond)?;
                if ty != Ty::Bool {
                    return None;
                }
                Some(e)
            }
            None => None,
        };
        // The pruning of a last box binder by `xor(b) == 0`.
        if let (Some(CBinder::Box { slot, xor_zero, .. }), Some(cond)) =
            (binders.last_mut(), &condition)
        {
            let mut conjuncts = Vec::new();
            flatten_and(cond, &mut conjuncts);
            for c in conjuncts {
                let is_xor_zero = |a: &CExpr, b: &CExpr| matches!((a, b), (CExpr::Xor(l), CExpr::Const(0)) if l == slot);
                if let CExpr::Eq(false, a, b) = c {
                    if is_xor_zero(a, b) || is_xor_zero(b, a) {
                        *xor_zero = true;
                        break;
                    }
                }
                if !c.infallible() {
                    break;
                }
            }
        }
        let mut updates = Vec::new();
        if rule.steps.is_empty() {
            for (i, update) in rule.updates.iter().enumerate() {
                let last = i + 1 == rule.updates.len();
                updates.push(self.update(update, kind, last)?);
            }
        } else {
            updates = self.steps(&rule.steps, kind)?;
        }
        self.scope.truncate(depth);
        Some(CRule {
            binders,
            condition,
            updates,
            span: rule.span,
        })
    }

    /// Binders in order, each followed by its guard; their names stay in scope.
    fn binders(&mut self, binders: &'d [Binder]) -> Option<Vec<CBinder>> {
        let mut out = Vec::new();
        for binder in binders {
            if self.state_names.contains(&binder.name.name.as_str()) {
                return None;
            }
            out.push(self.binder(binder)?);
            if let Some(guard) = &binder.guard {
                out.push(CBinder::Guard(self.boolean(guard)?));
            }
        }
        Some(out)
    }

    /// The steps of a rule with loops; a split (`n = [a, b]`) only as the very last update,
    /// outside every loop.
    fn steps(&mut self, steps: &'d [Step], kind: Kind) -> Option<Vec<CUpdate>> {
        let mut out = Vec::new();
        for step in steps {
            match step {
                Step::Update(update) => out.push(self.update(update, kind, false)?),
                Step::Loop { binders, body, .. } => {
                    let depth = self.scope.len();
                    let binders = self.binders(binders)?;
                    let body = self.steps(body, kind)?;
                    self.scope.truncate(depth);
                    out.push(CUpdate::Loop { binders, body });
                }
            }
        }
        Some(out)
    }

    fn binder(&mut self, binder: &'d Binder) -> Option<CBinder> {
        let name = binder.name.name.as_str();
        if binder.kind == BinderKind::Let {
            let (value, ty) = self.expr(&binder.value)?;
            if ty != Ty::Int {
                return None;
            }
            let slot = self.new_int();
            self.scope.push((name, Local::Int(slot)));
            return Some(CBinder::Let { slot, value });
        }
        let compiled = match &binder.value.kind {
            ExprKind::Range {
                start,
                end: Some(end),
                inclusive,
            } => {
                let (start, ty) = self.expr(start)?;
                if ty != Ty::Int {
                    return None;
                }
                if let ExprKind::Var(v) = &end.kind {
                    if let Some(Local::List(high)) = self.lookup(v) {
                        let high = *high;
                        let slot = self.new_list();
                        self.scope.push((name, Local::List(slot)));
                        return Some(CBinder::Box {
                            slot,
                            low: start,
                            high,
                            inclusive: *inclusive,
                            end_span: end.span,
                            span: binder.value.span,
                            xor_zero: false,
                        });
                    }
                }
                let (end, ty) = self.expr(end)?;
                if ty != Ty::Int {
                    return None;
                }
                let slot = self.new_int();
                CBinder::Range {
                    slot,
                    start,
                    end,
                    inclusive: *inclusive,
                }
            }
            ExprKind::Set(items) => {
                let mut compiled = Vec::new();
                for item in items {
                    let (e, ty) = self.expr(item)?;
                    if ty != Ty::Int {
                        return None;
                    }
                    compiled.push(e);
                }
                CBinder::SetExpr {
                    slot: self.new_int(),
                    items: compiled,
                }
            }
            ExprKind::List(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    match self.expr(item)? {
                        (CExpr::Const(x), Ty::Int) => values.push(x),
                        _ => return None,
                    }
                }
                CBinder::Consts {
                    slot: self.new_int(),
                    items: Arc::new(values),
                }
            }
            ExprKind::Var(v) => match self.lookup(v)? {
                Local::Const(Value::List(items)) => {
                    let values = items
                        .iter()
                        .map(|x| match x {
                            Value::Int(x) => Some(*x),
                            _ => None,
                        })
                        .collect::<Option<Vec<i64>>>()?;
                    CBinder::Consts {
                        slot: self.new_int(),
                        items: Arc::new(values),
                    }
                }
                Local::Const(Value::Set(items)) => {
                    let items = items.clone();
                    CBinder::Consts {
                        slot: self.new_int(),
                        items,
                    }
                }
                Local::Const(Value::Range {
                    start,
                    last: Some(last),
                }) => {
                    let (start, last) = (*start, *last);
                    CBinder::Range {
                        slot: self.new_int(),
                        start: CExpr::Const(start),
                        end: CExpr::Const(last),
                        inclusive: true,
                    }
                }
                _ => return None,
            },
            _ => return None,
        };
        let slot = match &compiled {
            CBinder::Range { slot, .. }
            | CBinder::Consts { slot, .. }
            | CBinder::SetExpr { slot, .. } => *slot,
            _ => unreachable!(),
        };
        self.scope.push((name, Local::Int(slot)));
        Some(compiled)
    }

    fn update(&mut self, update: &'d Update, kind: Kind, last: bool) -> Option<CUpdate> {
        let target = self.lookup(&update.target.name)?.clone();
        if !self.state_names.contains(&update.target.name.as_str()) {
            return None;
        }
        match (kind, target, &update.index) {
            (Kind::Heap, Local::Int(_), None) if update.op == UpdateOp::Assign => {
                if let ExprKind::List(items) = &update.value.kind {
                    if !last {
                        return None;
                    }
                    let mut heaps = Vec::new();
                    for item in items {
                        let (e, ty) = self.expr(item)?;
                        if ty != Ty::Int {
                            return None;
                        }
                        heaps.push(e);
                    }
                    return Some(CUpdate::Split(heaps));
                }
                self.int_update(update)
            }
            (Kind::Heap | Kind::Tuple(_), Local::Int(_), None) => self.int_update(update),
            (Kind::List, Local::List(_), Some(index)) => {
                let (value, ty) = self.expr(&update.value)?;
                let (index_e, ity) = self.expr(index)?;
                if ty != Ty::Int || ity != Ty::Int {
                    return None;
                }
                Some(CUpdate::Index {
                    op: update.op,
                    value,
                    index: index_e,
                    index_span: index.span,
                    span: update.span,
                    target_span: update.target.span,
                    value_span: update.value.span,
                })
            }
            (Kind::List, Local::List(_), None) if update.op == UpdateOp::Assign => {
                Some(CUpdate::Whole {
                    list: self.list_expr(&update.value)?,
                    span: update.value.span,
                })
            }
            (Kind::List, Local::List(_), None) => {
                let ExprKind::Var(v) = &update.value.kind else {
                    return None;
                };
                let Some(&Local::List(list)) = self.lookup(v) else {
                    return None;
                };
                if list == 0 {
                    return None;
                }
                Some(CUpdate::List {
                    op: update.op,
                    list,
                    span: update.span,
                    target_span: update.target.span,
                    value_span: update.value.span,
                })
            }
            _ => None,
        }
    }

    fn int_update(&mut self, update: &'d Update) -> Option<CUpdate> {
        let Some(Local::Int(slot)) = self.lookup(&update.target.name).cloned() else {
            return None;
        };
        let (value, ty) = self.expr(&update.value)?;
        if ty != Ty::Int {
            return None;
        }
        Some(CUpdate::Int {
            slot,
            op: update.op,
            value,
            span: update.span,
            target_span: update.target.span,
            value_span: update.value.span,
        })
    }

    fn int(&mut self, expr: &'d Expr) -> Option<CExpr> {
        match self.expr(expr)? {
            (e, Ty::Int) => Some(e),
            _ => None,
        }
    }

    fn boolean(&mut self, expr: &'d Expr) -> Option<CExpr> {
        match self.expr(expr)? {
            (e, Ty::Bool) => Some(e),
            _ => None,
        }
    }

    fn list(&self, expr: &Expr) -> Option<usize> {
        match &expr.kind {
            ExprKind::Var(v) => match self.lookup(v)? {
                Local::List(slot) => Some(*slot),
                _ => None,
            },
            _ => None,
        }
    }

    /// A list-valued expression: a list variable or constant, a literal of integers, `++`, a
    /// slice by a range written in place, `repeat` of an integer, `if`.
    fn list_expr(&mut self, expr: &'d Expr) -> Option<CList> {
        let b = Box::new;
        Some(match &expr.kind {
            ExprKind::Var(v) => match self.lookup(v)? {
                Local::List(slot) => CList::Slot(*slot),
                Local::Const(Value::List(items)) => CList::Consts(Arc::new(
                    items
                        .iter()
                        .map(|x| match x {
                            Value::Int(x) => Some(*x),
                            _ => None,
                        })
                        .collect::<Option<Vec<i64>>>()?,
                )),
                _ => return None,
            },
            ExprKind::List(items) => CList::Items(
                items
                    .iter()
                    .map(|item| self.int(item))
                    .collect::<Option<Vec<_>>>()?,
            ),
            ExprKind::Binary(BinaryOp::Concat, left, right) => CList::Concat {
                left: b(self.list_expr(left)?),
                right: b(self.list_expr(right)?),
                span: expr.span,
            },
            ExprKind::Index { target, args } => {
                let [arg] = args.as_slice() else {
                    return None;
                };
                let ExprKind::Range {
                    start,
                    end,
                    inclusive,
                } = &arg.kind
                else {
                    return None;
                };
                let list = b(self.list_expr(target)?);
                let start = self.int(start)?;
                let end = match end {
                    Some(end) => Some(self.int(end)?),
                    None => None,
                };
                CList::Slice {
                    list,
                    start,
                    end,
                    inclusive: *inclusive,
                    arg_span: arg.span,
                }
            }
            ExprKind::Call { callee, args } => {
                let ExprKind::Var(name) = &callee.kind else {
                    return None;
                };
                let ("repeat", [x, k]) = (name.as_str(), args.as_slice()) else {
                    return None;
                };
                if self.lookup(name).is_some() {
                    return None;
                }
                let (value, copies) = (self.int(x)?, self.int(k)?);
                if !self.builtins.contains(&"repeat") {
                    self.builtins.push("repeat");
                }
                CList::Repeat {
                    value,
                    copies,
                    span: k.span,
                }
            }
            ExprKind::If {
                condition,
                then,
                otherwise,
            } => CList::If(
                self.boolean(condition)?,
                b(self.list_expr(then)?),
                b(self.list_expr(otherwise)?),
            ),
            _ => return None,
        })
    }

    fn expr(&mut self, expr: &'d Expr) -> Option<(CExpr, Ty)> {
        let b = Box::new;
        Some(match &expr.kind {
            ExprKind::Int(n) => (CExpr::Const(*n), Ty::Int),
            ExprKind::Bool(v) => (CExpr::Const(*v as i64), Ty::Bool),
            ExprKind::Var(name) => match self.lookup(name)? {
                Local::Int(slot) => (CExpr::Int(*slot), Ty::Int),
                Local::Param(slot, ty) => (CExpr::Param(*slot), *ty),
                Local::Const(Value::Int(n)) => (CExpr::Const(*n), Ty::Int),
                Local::Const(Value::Bool(v)) => (CExpr::Const(*v as i64), Ty::Bool),
                _ => return None,
            },
            ExprKind::Unary(UnaryOp::Neg, a) => (CExpr::Neg(b(self.int(a)?), expr.span), Ty::Int),
            ExprKind::Unary(UnaryOp::Not, a) => (CExpr::Not(b(self.boolean(a)?)), Ty::Bool),
            ExprKind::Binary(op, left, right) => match op {
                BinaryOp::And | BinaryOp::Or => {
                    let (l, r) = (self.boolean(left)?, self.boolean(right)?);
                    if *op == BinaryOp::And {
                        (CExpr::And(b(l), b(r)), Ty::Bool)
                    } else {
                        (CExpr::Or(b(l), b(r)), Ty::Bool)
                    }
                }
                BinaryOp::Eq | BinaryOp::Ne => {
                    let (l, lt) = self.expr(left)?;
                    let (r, rt) = self.expr(right)?;
                    if lt != rt {
                        return None;
                    }
                    (CExpr::Eq(*op == BinaryOp::Ne, b(l), b(r)), Ty::Bool)
                }
                // Lists are not compiled: the walker gives `++` its type error.
                BinaryOp::Concat | BinaryOp::In => return None,
                _ => {
                    let (l, r) = (self.int(left)?, self.int(right)?);
                    let ty = match op {
                        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => Ty::Bool,
                        _ => Ty::Int,
                    };
                    let e = CExpr::Arith {
                        op: *op,
                        left: b(l),
                        right: b(r),
                        span: expr.span,
                        right_span: right.span,
                    };
                    (e, ty)
                }
            },
            ExprKind::If {
                condition,
                then,
                otherwise,
            } => {
                let c = self.boolean(condition)?;
                let (t, tt) = self.expr(then)?;
                let (o, ot) = self.expr(otherwise)?;
                if tt != ot {
                    return None;
                }
                (CExpr::If(b(c), b(t), b(o)), tt)
            }
            ExprKind::Index { target, args } => {
                let list = self.list(target)?;
                let [arg] = args.as_slice() else {
                    return None;
                };
                let index = self.int(arg)?;
                (
                    CExpr::Index {
                        list,
                        index: b(index),
                        span: arg.span,
                    },
                    Ty::Int,
                )
            }
            ExprKind::Call { callee, args } => {
                let ExprKind::Var(name) = &callee.kind else {
                    return None;
                };
                if let Some(&Local::Function(function)) = self.lookup(name) {
                    return self.inline(function, args);
                }
                if self.lookup(name).is_some() {
                    return None;
                }
                let (builtin, e) = match (name.as_str(), args.as_slice()) {
                    ("min", [x, y]) => (
                        "min",
                        CExpr::MinMax(false, b(self.int(x)?), b(self.int(y)?)),
                    ),
                    ("max", [x, y]) => {
                        ("max", CExpr::MinMax(true, b(self.int(x)?), b(self.int(y)?)))
                    }
                    ("abs", [x]) => ("abs", CExpr::Abs(b(self.int(x)?), expr.span)),
                    ("len", [x]) => ("len", CExpr::Len(self.list(x)?)),
                    ("xor", [x]) => ("xor", CExpr::Xor(self.list(x)?)),
                    ("count", [x]) => ("count", CExpr::Count(self.list(x)?)),
                    ("sum", [x]) => (
                        "sum",
                        CExpr::Sum {
                            list: self.list(x)?,
                            span: expr.span,
                        },
                    ),
                    (m @ ("min" | "max"), [x]) => (
                        if m == "min" { "min" } else { "max" },
                        CExpr::MinMaxList {
                            list: self.list(x)?,
                            max: m == "max",
                            span: x.span,
                        },
                    ),
                    _ => return None,
                };
                if !self.builtins.contains(&builtin) {
                    self.builtins.push(builtin);
                }
                (e, Ty::Int)
            }
            _ => return None,
        })
    }
}

impl<'d> Compiler<'d> {
    /// A call of a declared function, its body compiled in place with the scope the
    /// interpreter gives it: its captured globals, itself, its parameters. A function already
    /// being compiled (recursion), a wrong number of arguments or an argument that is not an
    /// integer or a boolean leave the rules to the interpreter.
    fn inline(&mut self, function: &'d FunctionValue, args: &'d [Expr]) -> Option<(CExpr, Ty)> {
        let me = function as *const FunctionValue;
        let decl = &*function.decl;
        if args.len() != decl.params.len()
            || self.inlining.contains(&me)
            || self.inlining.len() >= MAX_INLINE_DEPTH
            || self.inlined >= MAX_INLINED
        {
            return None;
        }
        self.inlined += 1;
        let mut compiled = Vec::with_capacity(args.len());
        for arg in args {
            compiled.push(self.expr(arg)?);
        }
        let mut scope: Vec<(&'d str, Local<'d>)> = Vec::new();
        for (name, value) in &function.captured {
            scope.push((name.as_str(), Local::global(value)));
        }
        scope.push((decl.name.name.as_str(), Local::Function(function)));
        let caller = std::mem::replace(&mut self.scope, scope);
        let caller_states = std::mem::take(&mut self.state_names);
        let mut lets = Vec::with_capacity(args.len());
        for (param, (arg, ty)) in decl.params.iter().zip(compiled) {
            let slot = self.params;
            self.params += 1;
            lets.push((slot, arg));
            self.scope
                .push((param.name.as_str(), Local::Param(slot, ty)));
        }
        self.inlining.push(me);
        let body = self.expr(&decl.body);
        self.inlining.pop();
        self.scope = caller;
        self.state_names = caller_states;
        let (body, ty) = body?;
        Some((
            CExpr::Call {
                args: lets,
                body: Box::new(body),
                origin: function.origin.clone(),
            },
            ty,
        ))
    }
}

fn flatten_and<'e>(e: &'e CExpr, out: &mut Vec<&'e CExpr>) {
    if let CExpr::And(a, b) = e {
        flatten_and(a, out);
        flatten_and(b, out);
    } else {
        out.push(e);
    }
}
