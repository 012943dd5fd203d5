//! Built-in functions: `min`, `max`, `abs`, `len`, `sum`, `xor`, `count`, `mex`, and on
//! positions `grundy`, `outcome`, `options`, `wins` and `state`.

use std::sync::Arc;

use super::expr::{plural, solve_error, Eval};
use super::value::{PositionValue, Shape, Value};
use crate::error::Error;
use crate::game::{mex, Move, Wanted};
use crate::span::Span;
use crate::syntax::ast::{Expr, ExprKind};

/// Every built-in function with the numbers of arguments it takes.
pub const BUILTINS: &[(&str, &[usize])] = &[
    ("min", &[1, 2]),
    ("max", &[1, 2]),
    ("abs", &[1]),
    ("len", &[1]),
    ("sum", &[1]),
    ("xor", &[1]),
    ("count", &[1]),
    ("mex", &[1]),
    ("grundy", &[1]),
    ("outcome", &[1]),
    ("options", &[1]),
    ("wins", &[1]),
    ("state", &[1]),
    ("read", &[1]),
];

pub fn is_builtin(name: &str) -> bool {
    BUILTINS.iter().any(|(n, _)| *n == name)
}

pub fn arities(name: &str) -> Option<&'static [usize]> {
    BUILTINS.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
}

/// `min` and `max` in words: "1 or 2 arguments".
pub fn describe_arity(arities: &[usize]) -> String {
    match arities {
        [n] => plural(*n, "argument"),
        _ => format!(
            "{} arguments",
            arities
                .iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    }
}

pub fn call<'a>(
    eval: &mut Eval<'_, 'a>,
    name: &str,
    args: &'a [Expr],
    callee: Span,
    span: Span,
) -> Result<Value, Error> {
    let allowed = arities(name).expect("a built-in");
    if !allowed.contains(&args.len()) {
        return Err(Error::Arity {
            name: name.to_string(),
            expected: describe_arity(allowed),
            found: args.len(),
            span,
            help: usage(name).to_string(),
        });
    }
    if let ("min" | "max", [a, b]) = (name, args) {
        let (x, y) = (eval.int(a)?, eval.int(b)?);
        return Ok(Value::Int(if name == "min" { x.min(y) } else { x.max(y) }));
    }
    let arg = &args[0];
    match name {
        "state" => return Ok(state(&*eval.position(arg)?)),
        "read" => return read(eval, arg),
        "grundy" | "outcome" | "options" | "wins" => {
            let p = eval.position(arg)?;
            let engine = eval.engine(callee)?;
            let result = match name {
                "grundy" => engine.value(&p.position).map(|v| Value::Int(v as i64)),
                "outcome" => engine
                    .gvalue(&p.position)
                    .map(|v| Value::str(v.outcome().letter())),
                "options" => engine
                    .all_moves(&p.position, Wanted::Every)
                    .map(|m| results(&p, m)),
                _ => engine
                    .all_moves(&p.position, Wanted::Winning)
                    .map(|m| results(&p, m)),
            };
            return result.map_err(|e| solve_error(e, span));
        }
        "abs" => {
            let n = eval.int(arg)?;
            return n
                .checked_abs()
                .map(Value::Int)
                .ok_or_else(|| Error::overflow(format!("abs({n})"), span));
        }
        "len" => {
            if let Some(count) = counted_moves(eval, arg)? {
                return Ok(count);
            }
            let value = eval.eval(arg)?;
            let len = match &value {
                Value::List(items) => items.len() as i64,
                Value::Set(items) => items.len() as i64,
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
                        usage(name),
                    ))
                }
            };
            return Ok(Value::Int(len));
        }
        _ => {}
    }
    let items = ints(eval, arg)?;
    let result = match name {
        "min" | "max" => {
            let best = if name == "min" {
                items.iter().min()
            } else {
                items.iter().max()
            };
            *best.ok_or_else(|| {
                Error::invalid(
                    format!("`{name}` of an empty list"),
                    arg.span,
                    "give at least one element",
                )
            })?
        }
        "sum" => items
            .iter()
            .try_fold(0i64, |acc, &x| acc.checked_add(x))
            .ok_or_else(|| Error::overflow("sum", span))?,
        "xor" => items.iter().fold(0, |acc, &x| acc ^ x),
        "count" => items.iter().filter(|&&x| x != 0).count() as i64,
        "mex" => {
            let mut values: Vec<u64> = items
                .iter()
                .filter(|&&x| x >= 0)
                .map(|&x| x as u64)
                .collect();
            mex(&mut values) as i64
        }
        _ => unreachable!("every built-in is handled"),
    };
    Ok(Value::Int(result))
}

fn usage(name: &str) -> &'static str {
    match name {
        "min" | "max" => "of two integers or of a list: `min(a, b)`, `max([3, 1, 2])`",
        "abs" => "`abs(n)` of an integer",
        "len" => "`len(s)` of a list, set, string or finite range",
        "sum" | "xor" | "count" | "mex" => {
            "of a list, set or finite range of integers: `xor([3, 4, 5])`"
        }
        "state" => "`state(p)`: the heaps or counters of a position, as a list",
        "read" => "`read(\"heaps.txt\")`: every integer in a text file, as a list",
        _ => "of a position: `grundy(nim[3, 4])`",
    }
}

/// Every integer in a text file (a path relative to the working folder), as a list.
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
    let text = std::fs::read_to_string(&*path).map_err(|e| {
        Error::invalid(
            format!("cannot read `{path}`: {e}"),
            arg.span,
            "the path is relative to the folder grundy runs in",
        )
    })?;
    let mut numbers = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let negative = bytes[i] == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        if !(bytes[i].is_ascii_digit() || negative) {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let token = &text[start..i];
        let n: i64 = token.parse().map_err(|_| {
            Error::invalid(
                format!("`{path}` holds `{token}`, which does not fit in 64 bits"),
                arg.span,
                "integers are 64-bit signed",
            )
        })?;
        numbers.push(Value::Int(n));
    }
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
