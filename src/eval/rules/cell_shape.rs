//! The rules of a game on cells (`on cells c`) read as [`CellMove`]s, to route the game to the
//! engine's bit-set solver ([`crate::game::cells`]).
//!
//! A rule is read as a move when it has the shape of one, whatever the spelling: its binders
//! are `x in c` and, for a pair, `y in neighbours(c, x)`; its guards and condition are a
//! conjunction of memberships (`y in c`) and orderings of the pair (`y > x`, `x < y`,
//! `x != y`); its updates remove cells from `c` (`c -= {x, y}`, `c -= x`,
//! `c -= neighbours(c, x)`, in any order and grouping, or as `c = c - {x} - y`).
//! What it removes, as a set of atoms
//! (`x`, `y`, the neighbours of `x`), says the move:
//!
//! - `{x}` with one binder: remove a cell ([`CellMove::RemoveOne`]);
//! - `{x, neighbours of x}` with one binder: a cell and its neighbours (Node Kayles,
//!   [`CellMove::RemoveWithNeighbours`]);
//! - `{x, y}` with `y` a neighbour of `x` asked to be in `c`: two adjacent cells (Cram,
//!   [`CellMove::RemoveAdjacentPair`]); an ordering `y > x` only lists each pair once.
//!
//! Anything else (another built-in, a parameter, a guard on degrees or rows) is not read, and
//! the walker plays the game.
//!
//! Why the solver may split and fold: each of the three moves is defined by adjacency alone
//! and removes cells of one connected part (a cell, a cell with its neighbours, or two adjacent
//! cells all lie in the part of the first cell). So the options of a set of disconnected parts
//! are those of one part with the others unchanged, and the set is the disjunctive sum of its
//! parts (its value the XOR of theirs, by the Sprague–Grundy theorem). And a map of cells that
//! keeps adjacency (a reflection or rotation of a grid, a relabelling of a graph) maps the
//! options of a set onto the options of its image, so both have the same value.

use crate::game::vocabulary::{CellMove, CellRules};
use crate::syntax::ast::{BinaryOp, Binder, BinderKind, Expr, ExprKind, Rule, UpdateOp};

/// What one update or condition names: the state, the first binder, the second.
#[derive(Clone, Copy)]
struct Names<'a> {
    state: &'a str,
    x: &'a str,
    y: Option<&'a str>,
}

/// The cells a rule removes.
#[derive(Default, PartialEq, Eq, Debug)]
struct Removed {
    x: bool,
    y: bool,
    neighbours_of_x: bool,
}

/// What the guards and condition of a rule ask.
#[derive(Default)]
struct Asked {
    y_present: bool,
    y_above: bool,
    y_below: bool,
}

/// The moves of these rules, when every rule is one of the three moves (`None` otherwise, or
/// when there are no rules). `shadowed` says whether a name is bound outside the rules (a
/// global or a parameter), which a built-in's name must not be.
pub fn cell_rules(
    state: &str,
    rules: &[Rule],
    shadowed: &dyn Fn(&str) -> bool,
) -> Option<CellRules> {
    if rules.is_empty() || shadowed("neighbours") {
        return None;
    }
    let mut moves = Vec::new();
    for rule in rules {
        let kind = cell_move(state, rule)?;
        if !moves.contains(&kind) {
            moves.push(kind);
        }
    }
    Some(CellRules {
        moves,
        split: true,
        symmetric: true,
    })
}

fn cell_move(state: &str, rule: &Rule) -> Option<CellMove> {
    if !rule.steps.is_empty() || rule.updates.is_empty() {
        return None;
    }
    let (first, second) = match rule.binders.as_slice() {
        [first] => (first, None),
        [first, second] => (first, Some(second)),
        _ => return None,
    };
    let x = binder_over(first, |e| is_var(e, state))?;
    let y = match second {
        Some(b) => Some(binder_over(b, |e| is_neighbours(e, state, x))?),
        None => None,
    };
    if y == Some(x) {
        return None;
    }
    let names = Names { state, x, y };
    let mut asked = Asked::default();
    // The guard of the first binder is read before `y` is bound.
    if let Some(guard) = &first.guard {
        let before = Names { y: None, ..names };
        conjuncts(guard, &before, &mut asked)?;
    }
    let conditions = second
        .and_then(|b| b.guard.as_ref())
        .into_iter()
        .chain(&rule.condition);
    for condition in conditions {
        conjuncts(condition, &names, &mut asked)?;
    }
    let mut removed = Removed::default();
    for update in &rule.updates {
        if update.target.name != state || update.index.is_some() {
            return None;
        }
        match update.op {
            UpdateOp::Sub => removes(&update.value, &names, &mut removed, true)?,
            // Updates apply in order, each to the state the ones before it left, so
            // `c = c - A - B` is `c -= A; c -= B` wherever it stands.
            UpdateOp::Assign => differences(&update.value, &names, &mut removed)?,
            UpdateOp::Add => return None,
        }
    }
    if asked.y_above && asked.y_below {
        return None;
    }
    let one = |x, neighbours_of_x| Removed {
        x,
        y: false,
        neighbours_of_x,
    };
    match y {
        None if removed == one(true, false) => Some(CellMove::RemoveOne),
        None if removed == one(true, true) => Some(CellMove::RemoveWithNeighbours),
        Some(_)
            if asked.y_present
                && removed
                    == (Removed {
                        y: true,
                        ..one(true, false)
                    }) =>
        {
            Some(CellMove::RemoveAdjacentPair)
        }
        _ => None,
    }
}

/// The name a binder `name in DOMAIN` binds, when its domain is what `domain` accepts.
fn binder_over(binder: &Binder, domain: impl Fn(&Expr) -> bool) -> Option<&str> {
    (binder.kind == BinderKind::In && domain(&binder.value)).then_some(binder.name.name.as_str())
}

fn is_var(expr: &Expr, name: &str) -> bool {
    matches!(&expr.kind, ExprKind::Var(v) if v == name)
}

/// `neighbours(STATE, CELL)`.
fn is_neighbours(expr: &Expr, state: &str, cell: &str) -> bool {
    let ExprKind::Call { callee, args } = &expr.kind else {
        return false;
    };
    is_var(callee, "neighbours")
        && matches!(args.as_slice(), [b, c] if is_var(b, state) && is_var(c, cell))
}

/// Reads a condition as a conjunction of what [`Asked`] holds; `None` for anything else.
fn conjuncts(expr: &Expr, names: &Names<'_>, asked: &mut Asked) -> Option<()> {
    let ExprKind::Binary(op, left, right) = &expr.kind else {
        return None;
    };
    let var = |e: &Expr| match &e.kind {
        ExprKind::Var(v) if v == names.x => Some('x'),
        ExprKind::Var(v) if Some(v.as_str()) == names.y => Some('y'),
        _ => None,
    };
    match op {
        BinaryOp::And => {
            conjuncts(left, names, asked)?;
            conjuncts(right, names, asked)
        }
        BinaryOp::In if is_var(right, names.state) => {
            // Every `x` bound by `x in c` is present.
            if var(left)? == 'y' {
                asked.y_present = true;
            }
            Some(())
        }
        BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Ne => {
            let (l, r) = (var(left)?, var(right)?);
            match (op, l, r) {
                // A neighbour is never the cell itself.
                (BinaryOp::Ne, 'x', 'y') | (BinaryOp::Ne, 'y', 'x') => {}
                (BinaryOp::Gt, 'y', 'x') | (BinaryOp::Lt, 'x', 'y') => asked.y_above = true,
                (BinaryOp::Lt, 'y', 'x') | (BinaryOp::Gt, 'x', 'y') => asked.y_below = true,
                _ => return None,
            }
            Some(())
        }
        _ => None,
    }
}

/// Reads the value of `c = c - A - B` as the cells `A` and `B` removed (each read as the value
/// of `c -= A` is); `None` for anything else.
fn differences(expr: &Expr, names: &Names<'_>, removed: &mut Removed) -> Option<()> {
    let ExprKind::Binary(BinaryOp::Sub, left, right) = &expr.kind else {
        return None;
    };
    if !is_var(left, names.state) {
        differences(left, names, removed)?;
    }
    removes(right, names, removed, true)
}

/// Reads the value of `c -= VALUE` as cells removed: a cell (`x`, `y`), a set of cells
/// (`{x, y}`), or the neighbours of `x`; `None` for anything else.
fn removes(expr: &Expr, names: &Names<'_>, removed: &mut Removed, top: bool) -> Option<()> {
    match &expr.kind {
        ExprKind::Var(v) if v == names.x => removed.x = true,
        ExprKind::Var(v) if Some(v.as_str()) == names.y => removed.y = true,
        ExprKind::Set(items) if top => {
            for item in items {
                removes(item, names, removed, false)?;
            }
        }
        _ if top && is_neighbours(expr, names.state, names.x) => removed.neighbours_of_x = true,
        _ => return None,
    }
    Some(())
}
