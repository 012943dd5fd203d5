//! Running the built-in functions (the table of what they are is [`crate::builtins`]):
//! `min`, `max`, `abs`, `len`, `sum`, `xor`, `count`, `mex`, `read`, `repeat`, and on positions
//! `grundy`, `outcome`, `options`, `wins` and `state`.

use std::sync::Arc;

use super::boards::BoardValue;
use super::expr::{solve_error, Eval};
use super::read::{self, ReadLimits};
use super::value::{PositionValue, Shape, Value};
use crate::builtins::{Builtin, Function};
use crate::error::Error;
use crate::game::{mex, Engine, Limits, Move, SolveError, Wanted};
use crate::span::Span;
use crate::syntax::ast::{Expr, ExprKind};

/// Calls `builtin` on `args`; `callee` is the span of its name, `span` of the whole call.
pub fn call<'a>(
    eval: &mut Eval<'_, 'a>,
    builtin: &Builtin,
    args: &'a [Expr],
    callee: Span,
    span: Span,
) -> Result<Value, Error> {
    if builtin.form(args.len()).is_none() {
        return Err(Error::Arity {
            name: builtin.name.to_string(),
            expected: builtin.describe_arity(),
            found: args.len(),
            span,
            help: builtin.usage.to_string(),
        });
    }
    let function = builtin.function;
    let arg = &args[0];
    match function {
        Function::Min | Function::Max => {
            let items = if let [a, b] = args {
                vec![eval.int(a)?, eval.int(b)?]
            } else {
                ints(eval, arg)?
            };
            let items = items.into_iter();
            let best = if function == Function::Min {
                items.min()
            } else {
                items.max()
            };
            best.map(Value::Int).ok_or_else(|| {
                Error::invalid(
                    format!("`{}` of an empty list", builtin.name),
                    arg.span,
                    "give at least one element",
                )
            })
        }
        Function::Repeat => repeat(eval, arg, &args[1]),
        Function::Abs => {
            let n = eval.int(arg)?;
            n.checked_abs()
                .map(Value::Int)
                .ok_or_else(|| Error::overflow(format!("abs({n})"), span))
        }
        Function::Len => len(eval, builtin, arg),
        Function::State => Ok(state(&*eval.position(arg)?)),
        Function::Read => read(eval, arg),
        Function::Grundy => on_position(eval, arg, callee, span, |engine, p| {
            engine.value(&p.position).map(|v| Value::Int(v as i64))
        }),
        Function::Outcome => on_position(eval, arg, callee, span, |engine, p| {
            engine.outcome(&p.position).map(|v| Value::str(v.letter()))
        }),
        Function::Options => on_position(eval, arg, callee, span, |engine, p| {
            engine
                .all_moves(&p.position, Wanted::Every)
                .map(|m| results(p, m))
        }),
        Function::Wins => on_position(eval, arg, callee, span, |engine, p| {
            engine
                .all_moves(&p.position, Wanted::Winning)
                .map(|m| results(p, m))
        }),
        Function::Sum => ints(eval, arg)?
            .iter()
            .try_fold(0i64, |acc, &x| acc.checked_add(x))
            .map(Value::Int)
            .ok_or_else(|| Error::overflow("sum", span)),
        Function::Xor => Ok(Value::Int(
            ints(eval, arg)?.iter().fold(0, |acc, &x| acc ^ x),
        )),
        Function::Count => Ok(Value::Int(
            ints(eval, arg)?.iter().filter(|&&x| x != 0).count() as i64,
        )),
        Function::Grid => {
            let board = if let [w, h] = args {
                BoardValue::grid(eval.int(w)?, eval.int(h)?, span)?
            } else {
                match eval.eval(arg)? {
                    Value::List(rows) => BoardValue::grid_of_rows(&rows, arg.span)?,
                    other => {
                        return Err(Error::type_mismatch(
                            "a list of strings",
                            other.type_name(),
                            arg.span,
                            builtin.usage,
                        ))
                    }
                }
            };
            Ok(Value::Board(Arc::new(board)))
        }
        Function::Vertices => {
            let n = eval.int(arg)?;
            let edges = eval.eval(&args[1])?;
            let board = BoardValue::vertices(n, &edges, args[1].span)?;
            Ok(Value::Board(Arc::new(board)))
        }
        Function::Neighbours | Function::Degree | Function::Row | Function::Column => {
            let board = match eval.eval(arg)? {
                Value::Board(board) => board,
                other => {
                    return Err(Error::type_mismatch(
                        "a board",
                        other.type_name(),
                        arg.span,
                        builtin.usage,
                    ))
                }
            };
            let cell = &args[1];
            let x = eval.int(cell)?;
            if function == Function::Neighbours {
                board.neighbours(x, cell.span)
            } else if function == Function::Degree {
                board.degree(x, cell.span).map(Value::Int)
            } else {
                board
                    .place(x, function == Function::Column, cell.span)
                    .map(Value::Int)
            }
        }
        Function::Preperiod | Function::Period | Function::Saltus | Function::Solved => {
            periodic(eval, function, args, span)
        }
        Function::Mex => {
            let mut values: Vec<u64> = ints(eval, arg)?
                .iter()
                .filter(|&&x| x >= 0)
                .map(|&x| x as u64)
                .collect();
            Ok(Value::Int(mex(&mut values) as i64))
        }
    }
}

/// `preperiod(G)`, `period(G)`, `saltus(G)` of the period `period G` proves (`up to N` as a
/// second argument), an error when none is proved; `solved(G)`, whether one is. On a worker of a
/// parallel sweep the case is left to the main thread, whose engine grows the game's values.
fn periodic<'a>(
    eval: &mut Eval<'_, 'a>,
    function: Function,
    args: &'a [Expr],
    span: Span,
) -> Result<Value, Error> {
    let game = match eval.eval(&args[0])? {
        Value::Game(game) if game.shape == Shape::Heaps => game,
        other => {
            return Err(Error::type_mismatch(
                "a heap game",
                other.type_name(),
                args[0].span,
                "the period is of a game played on one heap, e.g. `period(kayles)`",
            ))
        }
    };
    let bound = match args.get(1) {
        Some(bound) => Some(super::explore::heaps_bound(eval.int(bound)?, bound.span)?),
        None => None,
    };
    eval.engine(span)?;
    let Some(interpreter) = eval.host.interpreter() else {
        return Err(Error::Deferred);
    };
    let proved = interpreter.proved_period(&game, bound, span)?;
    let period = match (function, proved) {
        (Function::Solved, proved) => return Ok(Value::Bool(proved.is_ok())),
        (_, Ok(period)) => period,
        (_, Err(why)) => {
            return Err(Error::NotProved {
                game: game.display.clone(),
                why,
                span,
            })
        }
    };
    let figure = match function {
        Function::Preperiod => period.preperiod as u64,
        Function::Period => period.period as u64,
        _ => period.saltus,
    };
    i64::try_from(figure)
        .map(Value::Int)
        .map_err(|_| Error::overflow(format!("the period's figure {figure}"), span))
}

/// A function of a position, asked of the engine; a solver's error is shown at `span`.
fn on_position<'a>(
    eval: &mut Eval<'_, 'a>,
    arg: &'a Expr,
    callee: Span,
    span: Span,
    ask: impl FnOnce(&mut Engine, &PositionValue) -> Result<Value, SolveError>,
) -> Result<Value, Error> {
    let p = eval.position(arg)?;
    let engine = eval.engine(callee)?;
    ask(engine, &p).map_err(|e| solve_error(e, span))
}

/// `repeat(x, k)`: `k` copies of `x`, at most as many as a list built from a range may hold.
fn repeat<'a>(eval: &mut Eval<'_, 'a>, x: &'a Expr, k: &'a Expr) -> Result<Value, Error> {
    let value = eval.eval(x)?;
    let copies = eval.int(k)?;
    if copies < 0 {
        return Err(Error::invalid(
            format!("`repeat` of {copies} copies"),
            k.span,
            "the number of copies is 0 or more",
        ));
    }
    let limit = eval.host.max_elements();
    if copies as u64 > limit as u64 {
        return Err(Error::TooLarge {
            what: "this list".into(),
            size: copies.to_string(),
            limit,
            span: k.span,
        });
    }
    super::expr::fits(&*eval.host, copies as usize, k.span)?;
    Ok(Value::list(vec![value; copies as usize]))
}

fn len<'a>(eval: &mut Eval<'_, 'a>, builtin: &Builtin, arg: &'a Expr) -> Result<Value, Error> {
    if let Some(count) = counted_moves(eval, arg)? {
        return Ok(count);
    }
    let value = eval.eval(arg)?;
    let len = match &value {
        Value::List(items) => items.len() as i64,
        Value::Set(items) => items.len() as i64,
        Value::Board(board) => board.len() as i64,
        Value::Str(s) => s.chars().count() as i64,
        Value::Range {
            start,
            last: Some(last),
        } => {
            if last < start {
                0
            } else {
                last.checked_sub(*start)
                    .and_then(|d| d.checked_add(1))
                    .ok_or_else(|| Error::overflow("len of range", arg.span))?
            }
        }
        other => {
            return Err(Error::type_mismatch(
                "a list, set, string or finite range",
                other.type_name(),
                arg.span,
                builtin.usage,
            ))
        }
    };
    Ok(Value::Int(len))
}

/// Every integer in a text file under the program's root, as a list.
fn read<'a>(eval: &mut Eval<'_, 'a>, arg: &'a Expr) -> Result<Value, Error> {
    let path = match eval.eval(arg)? {
        Value::Str(path) => path,
        other => {
            return Err(Error::type_mismatch(
                "a string",
                other.type_name(),
                arg.span,
                "`read` takes the path of a file, e.g. `read(\"heaps.txt\")`",
            ))
        }
    };
    let max_elements = eval.host.max_elements();
    let root = eval
        .host
        .engine()
        .map_or_else(|| Limits::default().root, |e| e.limits.root.clone());
    let host = &*eval.host;
    let mut limits = ReadLimits {
        max_elements,
        charge: host.charge().unwrap_or_else(|| Limits::default().charge()),
        interrupted: &|| host.interrupted(),
        root: &root,
    };
    let numbers = read::integers(&path, arg.span, &mut limits)?;
    Ok(Value::list(numbers))
}

/// The heaps of a heap game's position, the nodes of a graph game's tokens, or the counters of
/// a one-component position; a list of such lists for a sum of several tuple or list games.
fn state(p: &PositionValue) -> Value {
    let part_state = |part: &crate::game::Part| -> Vec<Value> {
        let game = p
            .games
            .iter()
            .find(|g| g.id == part.game)
            .expect("known game");
        match &game.shape {
            Shape::Nodes(names) => vec![Value::str(&names[part.state[0] as usize])],
            Shape::Cells => vec![Value::Board(Arc::new(BoardValue::decode(&part.state)))],
            _ => part.state.iter().map(|&x| Value::Int(x)).collect(),
        }
    };
    let heap_like = |part: &crate::game::Part| {
        p.games
            .iter()
            .any(|g| g.id == part.game && matches!(g.shape, Shape::Heaps | Shape::Nodes(_)))
    };
    let position = &p.position;
    if position.parts().all(heap_like) {
        Value::list(position.parts().flat_map(part_state).collect())
    } else if position.len() == 1 {
        Value::list(part_state(position.part(0)))
    } else {
        Value::list(
            position
                .parts()
                .map(|part| Value::list(part_state(part)))
                .collect(),
        )
    }
}

/// `len(wins(p))` and `len(options(p))`, counted without building the list (exact where the
/// list could never be built: huge heaps, long sums); `None` for any other argument.
fn counted_moves<'a>(eval: &mut Eval<'_, 'a>, arg: &'a Expr) -> Result<Option<Value>, Error> {
    let ExprKind::Call { callee, args } = &arg.kind else {
        return Ok(None);
    };
    let ExprKind::Var(name) = &callee.kind else {
        return Ok(None);
    };
    let wanted = match name.as_str() {
        "wins" => Wanted::Winning,
        "options" => Wanted::Every,
        _ => return Ok(None),
    };
    let [position] = &args[..] else {
        return Ok(None);
    };
    if eval.lookup(name).is_some() {
        return Ok(None);
    }
    let p = eval.position(position)?;
    let count = eval
        .engine(callee.span)?
        .count_moves(&p.position, wanted)
        .map_err(|e| solve_error(e, arg.span))?;
    let count = i64::try_from(count)
        .map_err(|_| Error::overflow(format!("len({name}(...)) = {count}"), arg.span))?;
    Ok(Some(Value::Int(count)))
}

fn results(p: &PositionValue, moves: Vec<Move>) -> Value {
    let from = p.position.flattened();
    Value::list(
        moves
            .into_iter()
            .map(|m| {
                Value::Position(Arc::new(PositionValue {
                    position: m.result(&from),
                    games: p.games.clone(),
                }))
            })
            .collect(),
    )
}

/// A list, set or finite range of integers, as a vector.
pub fn ints<'a>(eval: &mut Eval<'_, 'a>, arg: &'a Expr) -> Result<Vec<i64>, Error> {
    match eval.eval(arg)? {
        Value::List(items) => items
            .iter()
            .map(|v| match v {
                Value::Int(n) => Ok(*n),
                other => Err(Error::type_mismatch(
                    "a list of integers",
                    format!("a list holding {}", other.type_name()),
                    arg.span,
                    "these functions work on integers",
                )),
            })
            .collect(),
        Value::Set(items) => Ok(items.to_vec()),
        Value::Range {
            start,
            last: Some(last),
        } => {
            let size = (last as i128 - start as i128 + 1).max(0);
            let limit = eval.host.max_elements();
            if size > limit as i128 {
                return Err(Error::TooLarge {
                    what: "this range".into(),
                    size: size.to_string(),
                    limit,
                    span: arg.span,
                });
            }
            Ok((start..=last).collect())
        }
        other => Err(Error::type_mismatch(
            "a list, set or finite range of integers",
            other.type_name(),
            arg.span,
            "these functions work on integers",
        )),
    }
}
