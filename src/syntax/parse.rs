//! Source text to [`Program`]: the pest grammar in `grammar/grundy.pest`, one function per
//! grammar rule, and one Pratt parser for every operator's precedence.

use std::cell::Cell;
use std::sync::LazyLock;

use pest::error::InputLocation;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use pest_derive::Parser;

use super::ast::Rule as GameRule;
use super::ast::{
    Axis, BinaryOp, Binder, BinderKind, Expr, ExprKind, FunctionDecl, GameDecl, GameDef, GraphLine,
    Ident, Output, Plot, PlotOptions, Program, Query, StateShape, Step, Stmt, StmtKind,
    SurveyFamily, UnaryOp, Update, UpdateOp,
};
use super::pest_error;
use crate::error::Error;
use crate::span::Span;

/// The parser generated from `grammar/grundy.pest`.
#[derive(Parser)]
#[grammar = "../grammar/grundy.pest"]
pub struct GrundyParser;

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    use Assoc::{Left, Right};
    PrattParser::new()
        .op(Op::infix(Rule::kw_or, Left))
        .op(Op::infix(Rule::kw_and, Left))
        .op(Op::prefix(Rule::kw_not) | Op::prefix(Rule::kw_misere))
        .op(Op::infix(Rule::eq, Left)
            | Op::infix(Rule::kw_in, Left)
            | Op::infix(Rule::ne, Left)
            | Op::infix(Rule::lt, Left)
            | Op::infix(Rule::le, Left)
            | Op::infix(Rule::gt, Left)
            | Op::infix(Rule::ge, Left))
        .op(Op::infix(Rule::range_excl, Left)
            | Op::infix(Rule::range_incl, Left)
            | Op::postfix(Rule::open_range))
        .op(Op::infix(Rule::bit_or, Left))
        .op(Op::infix(Rule::kw_xor, Left))
        .op(Op::infix(Rule::bit_and, Left))
        .op(Op::infix(Rule::shl, Left) | Op::infix(Rule::shr, Left))
        .op(Op::infix(Rule::concat, Left))
        .op(Op::infix(Rule::add, Left) | Op::infix(Rule::sub, Left))
        .op(Op::infix(Rule::mul, Left) | Op::infix(Rule::div, Left) | Op::infix(Rule::rem, Left))
        .op(Op::prefix(Rule::neg))
        .op(Op::infix(Rule::pow, Right))
        .op(Op::postfix(Rule::call_args) | Op::postfix(Rule::index_args))
});

/// Parses a whole program (a file, a one-liner or one REPL entry), one statement after the
/// other ([`super::Statements`] without a memory bound).
///
/// Input that stops in the middle of a statement gives [`Error::Unfinished`], any other input
/// outside the grammar [`Error::Syntax`], and an integer literal beyond 64 bits
/// [`Error::Literal`].
pub fn parse(source: &str) -> Result<Program, Error> {
    let statements = super::Statements::new(source, usize::MAX).collect::<Result<_>>()?;
    Ok(Program { statements })
}

thread_local! {
    /// Where the text pest is parsing starts in the source. A statement is parsed from the
    /// slice of the source that begins with it, so pest's positions count from the slice;
    /// [`span`] adds this, so that every span counts from the start of the source.
    static BASE: Cell<usize> = const { Cell::new(0) };
}

/// The statement that starts at byte `at` of `source` (after any separators), and where the
/// next one starts; `None` at the end of the source.
pub(super) fn next_statement(source: &str, at: usize) -> Result<Option<(Stmt, usize)>> {
    let rest = &source[at..];
    let mut pairs = GrundyParser::parse(Rule::next_statement, rest).map_err(|mut error| {
        error.location = match error.location {
            InputLocation::Pos(pos) => InputLocation::Pos(at + pos),
            InputLocation::Span((start, end)) => InputLocation::Span((at + start, at + end)),
        };
        pest_error::convert(&error, source)
    })?;
    let pair = pairs.next().expect("the rule matched");
    let next = at + pair.as_span().end();
    let Some(inner) = parts(pair).next() else {
        return Ok(None);
    };
    let before = BASE.replace(at);
    let parsed = statement(inner);
    BASE.set(before);
    Ok(Some((parsed?, next)))
}

type Result<T, E = Error> = std::result::Result<T, E>;

/// The span of `pair` without the whitespace that pest lets a rule ending in `x*` or `x?`
/// swallow: it ends where its last token ends.
fn span(pair: &Pair<Rule>) -> Span {
    let mut last = pair.clone();
    while let Some(child) = last.clone().into_inner().last() {
        last = child;
    }
    let base = BASE.get();
    Span::new(base + pair.as_span().start(), base + last.as_span().end())
}

fn unexpected(pair: &Pair<Rule>) -> ! {
    unreachable!(
        "grammar produced {:?} at {:?}",
        pair.as_rule(),
        pair.as_span()
    )
}

/// The children of `pair` that carry meaning: punctuation and fixed keywords are dropped.
fn parts<'i>(pair: Pair<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::lparen
                | Rule::rparen
                | Rule::lbracket
                | Rule::rbracket
                | Rule::lbrace
                | Rule::rbrace
                | Rule::comma
                | Rule::assign
                | Rule::arrow
                | Rule::sep
                | Rule::EOI
                | Rule::kw_let
                | Rule::kw_game
                | Rule::kw_on
                | Rule::kw_for
                | Rule::kw_if
                | Rule::kw_then
                | Rule::kw_else
                | Rule::kw_sequence
                | Rule::kw_table
                | Rule::kw_ppos
                | Rule::kw_period
                | Rule::kw_genus
                | Rule::kw_quotient
                | Rule::kw_compare
                | Rule::kw_survey
                | Rule::kw_dot
                | Rule::kw_plot
                | Rule::kw_to
                | Rule::word_size
                | Rule::word_up
                | Rule::word_x
                | Rule::kw_check
                | Rule::kw_assert
                | Rule::kw_print
                | Rule::kw_octal
                | Rule::kw_hex
                | Rule::kw_subtraction
                | Rule::kw_graph
        )
    })
}

fn next<'i>(parts: &mut impl Iterator<Item = Pair<'i, Rule>>) -> Pair<'i, Rule> {
    parts.next().expect("grammar guarantees this part")
}

fn statement(pair: Pair<Rule>) -> Result<Stmt> {
    let span = span(&pair);
    let inner = next(&mut pair.into_inner());
    let kind = match inner.as_rule() {
        Rule::let_stmt => let_stmt(inner, span)?,
        Rule::game_decl => StmtKind::Game(game_decl(inner)?),
        Rule::query_stmt => query_stmt(inner)?,
        Rule::sequence_stmt => sequence_stmt(inner)?,
        Rule::genus_stmt => genus_stmt(inner)?,
        Rule::quotient_stmt => {
            let mut parts = parts(inner);
            StmtKind::Quotient {
                game: game_expr(next(&mut parts))?,
                range: expr(next(&mut parts))?,
            }
        }
        Rule::table_stmt | Rule::ppos_stmt => table_stmt(inner)?,
        Rule::check_stmt => check_stmt(inner)?,
        Rule::period_stmt => {
            let mut parts = parts(inner);
            let what = next(&mut parts);
            match swept(&what)? {
                Some((value, axis, _)) => StmtKind::PeriodOf { value, axis },
                None => StmtKind::Period {
                    game: game_expr(what)?,
                    bound: match parts.next() {
                        Some(bound) => Some(expr(next(&mut self::parts(bound)))?),
                        None => None,
                    },
                },
            }
        }
        Rule::compare_stmt => compare_stmt(inner)?,
        Rule::survey_stmt => survey_stmt(inner)?,
        Rule::dot_stmt => {
            let mut parts = parts(inner);
            StmtKind::Dot {
                target: expr(next(&mut parts))?,
                output: output(parts.next())?,
            }
        }
        Rule::plot_stmt => plot_stmt(inner)?,
        Rule::assert_stmt => StmtKind::Assert(expr(next(&mut parts(inner)))?),
        Rule::print_stmt => StmtKind::Print(expr(next(&mut parts(inner)))?),
        Rule::expr_stmt => StmtKind::Expr(expr(next(&mut parts(inner)))?),
        _ => unexpected(&inner),
    };
    Ok(Stmt { kind, span })
}

fn let_stmt(pair: Pair<Rule>, span: Span) -> Result<StmtKind> {
    let mut parts = parts(pair);
    let name = ident(next(&mut parts));
    let value = next(&mut parts);
    if value.as_rule() != Rule::params {
        let value = expr(value)?;
        return Ok(StmtKind::Let { name, value });
    }
    let params = self::parts(value).map(ident).collect();
    let body = expr(next(&mut parts))?;
    Ok(StmtKind::Function(FunctionDecl {
        name,
        params,
        body,
        span,
    }))
}

fn query_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let mut parts = parts(pair);
    let word = next(&mut parts);
    let query = match word.as_rule() {
        Rule::kw_grundy => Query::Grundy,
        Rule::kw_outcome => Query::Outcome,
        Rule::kw_moves => Query::Moves,
        Rule::kw_win => Query::Win,
        _ => unexpected(&word),
    };
    let target = expr(next(&mut parts))?;
    Ok(StmtKind::Query { query, target })
}

fn sequence_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let mut parts = parts(pair);
    let first = next(&mut parts);
    if let Some((value, axis, _)) = swept(&first)? {
        let output = output(parts.next())?;
        return Ok(StmtKind::SequenceOf {
            value,
            axis,
            output,
        });
    }
    let (misere, game) = misere_and_game(first, &mut parts)?;
    let range = expr(next(&mut parts))?;
    let output = output(parts.next())?;
    Ok(StmtKind::Sequence {
        game,
        range,
        misere,
        output,
    })
}

fn genus_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let what = next(&mut parts(pair));
    if what.as_rule() == Rule::genus_heaps {
        let mut parts = parts(what);
        let target = game_expr(next(&mut parts))?;
        let range = Some(expr(next(&mut parts))?);
        return Ok(StmtKind::Genus { target, range });
    }
    Ok(StmtKind::Genus {
        target: expr(what)?,
        range: None,
    })
}

fn table_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let ppos = pair.as_rule() == Rule::ppos_stmt;
    let mut parts = parts(pair);
    let first = next(&mut parts);
    if let Some((value, rows, Some(cols))) = swept(&first)? {
        let output = output(parts.next())?;
        return Ok(StmtKind::TableOf {
            value,
            rows,
            cols,
            ppos,
            output,
        });
    }
    let (misere, game) = misere_and_game(first, &mut parts)?;
    let rows = expr(next(&mut parts))?;
    let cols = expr(next(&mut parts))?;
    let output = output(parts.next())?;
    Ok(if ppos {
        StmtKind::Ppos {
            game,
            rows,
            cols,
            misere,
            output,
        }
    } else {
        StmtKind::Table {
            game,
            rows,
            cols,
            misere,
            output,
        }
    })
}

/// An optional `misere` (already read as `first`) and the game after it.
fn misere_and_game<'i>(
    first: Pair<'i, Rule>,
    parts: &mut impl Iterator<Item = Pair<'i, Rule>>,
) -> Result<(bool, Expr)> {
    if first.as_rule() == Rule::kw_misere {
        Ok((true, game_expr(next(parts))?))
    } else {
        Ok((false, game_expr(first)?))
    }
}

/// `EXPR for n in R` (`swept_value`) or `EXPR for a in R, b in S` (`swept_grid`): the
/// expression and its axes; `None` for any other part.
fn swept(pair: &Pair<Rule>) -> Result<Option<(Expr, Axis, Option<Axis>)>> {
    if !matches!(pair.as_rule(), Rule::swept_value | Rule::swept_grid) {
        return Ok(None);
    }
    let mut inner = parts(pair.clone());
    let value = expr(next(&mut inner))?;
    let first = axis(next(&mut inner))?;
    let second = inner.next().map(axis).transpose()?;
    Ok(Some((value, first, second)))
}

fn axis(pair: Pair<Rule>) -> Result<Axis> {
    let mut parts = parts(pair).filter(|p| p.as_rule() != Rule::kw_in);
    let name = ident(next(&mut parts));
    let range = expr(next(&mut parts))?;
    Ok(Axis { name, range })
}

fn output(pair: Option<Pair<Rule>>) -> Result<Option<Output>> {
    let Some(pair) = pair else {
        return Ok(None);
    };
    let path = next(&mut parts(pair));
    Ok(Some(Output {
        path: string(&path)?,
        span: span(&path),
    }))
}

fn compare_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let mut parts = parts(pair);
    let left = game_expr(next(&mut parts))?;
    let right = game_expr(next(&mut parts))?;
    let range = parts.next().map(expr).transpose()?;
    Ok(StmtKind::Compare { left, right, range })
}

fn survey_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let mut parts = parts(pair);
    let family = survey_family(next(&mut parts))?;
    let (mut bound, mut output) = (None, None);
    for part in parts {
        match part.as_rule() {
            Rule::period_bound => bound = Some(expr(next(&mut self::parts(part)))?),
            Rule::output => output = self::output(Some(part))?,
            _ => unexpected(&part),
        }
    }
    Ok(StmtKind::Survey {
        family,
        bound,
        output,
    })
}

/// The family of a `survey`: one of the `survey_*` rules, or the expression of a list of games.
fn survey_family(pair: Pair<Rule>) -> Result<SurveyFamily> {
    Ok(match pair.as_rule() {
        Rule::survey_octal => SurveyFamily::Octal(expr(next(&mut parts(pair)))?),
        Rule::survey_hex => SurveyFamily::Hex(expr(next(&mut parts(pair)))?),
        Rule::survey_subtraction => SurveyFamily::Subtraction(expr(next(&mut parts(pair)))?),
        Rule::expr => SurveyFamily::Games(expr(pair)?),
        _ => unexpected(&pair),
    })
}

fn plot_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let mut parts = parts(pair);
    let what = next(&mut parts);
    let is_sequence = what.as_rule() == Rule::plot_sequence;
    let mut inner = self::parts(what);
    let first = next(&mut inner);
    let plot = if let Some(swept) = swept(&first)? {
        match swept {
            (value, axis, None) => Plot::SequenceOf { value, axis },
            (value, rows, Some(cols)) => Plot::TableOf { value, rows, cols },
        }
    } else if is_sequence {
        let (misere, game) = misere_and_game(first, &mut inner)?;
        Plot::Sequence {
            game,
            range: expr(next(&mut inner))?,
            misere,
        }
    } else {
        let (misere, game) = misere_and_game(first, &mut inner)?;
        Plot::Table {
            game,
            rows: expr(next(&mut inner))?,
            cols: expr(next(&mut inner))?,
            misere,
        }
    };
    let path = next(&mut parts);
    let file = string(&path)?;
    let mut options = PlotOptions::default();
    for option in parts {
        let at = span(&option);
        let once = |given: bool| {
            let word = option
                .as_str()
                .split_whitespace()
                .next()
                .unwrap_or_default();
            match given {
                true => Err(Error::syntax(
                    format!("`{word}` is given twice"),
                    "give each option of a `plot` once",
                    at,
                )),
                false => Ok(()),
            }
        };
        match option.as_rule() {
            Rule::plot_size => {
                once(options.size.is_some())?;
                let mut sides = self::parts(option);
                options.size = Some((expr(next(&mut sides))?, expr(next(&mut sides))?));
            }
            Rule::plot_colours => {
                once(options.colours.is_some())?;
                options.colours = self::parts(option).last().map(ident);
            }
            Rule::plot_text => {
                let mut inner = self::parts(option.clone());
                let word = next(&mut inner);
                let text = string(&next(&mut inner))?;
                match word.as_rule() {
                    Rule::word_title => once(options.title.replace(text).is_some())?,
                    Rule::word_xlabel => once(options.xlabel.replace(text).is_some())?,
                    Rule::word_ylabel => once(options.ylabel.replace(text).is_some())?,
                    Rule::word_barlabel => once(options.barlabel.replace((text, at)).is_some())?,
                    _ => unexpected(&word),
                }
            }
            _ => unexpected(&option),
        }
    }
    Ok(StmtKind::Plot {
        plot,
        file,
        file_span: span(&path),
        options: Box::new(options),
    })
}

fn check_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let mut parts = parts(pair);
    let condition = expr(next(&mut parts))?;
    let binders = parts.map(binder).collect::<Result<_>>()?;
    Ok(StmtKind::Check { condition, binders })
}

fn game_decl(pair: Pair<Rule>) -> Result<GameDecl> {
    let span = span(&pair);
    let mut parts = parts(pair);
    let name = ident(next(&mut parts));
    let mut def = next(&mut parts);
    let mut params = Vec::new();
    if def.as_rule() == Rule::params {
        params = self::parts(def).map(ident).collect();
        def = next(&mut parts);
    }
    let def = match def.as_rule() {
        Rule::rules_def => rules_def(def)?,
        Rule::octal_def => octal_def(def),
        Rule::subtraction_def => GameDef::Subtraction {
            set: expr(next(&mut self::parts(def)))?,
        },
        Rule::graph_def => GameDef::Graph {
            lines: self::parts(def).map(graph_line).collect(),
        },
        _ => unexpected(&def),
    };
    Ok(GameDecl {
        name,
        params,
        def,
        span,
    })
}

fn rules_def(pair: Pair<Rule>) -> Result<GameDef> {
    let mut parts = parts(pair).peekable();
    let state = state(next(&mut parts));
    let unordered = parts
        .next_if(|p| p.as_rule() == Rule::kw_unordered)
        .is_some();
    let rules = parts.map(rule).collect::<Result<_>>()?;
    Ok(GameDef::Rules {
        state,
        unordered,
        rules,
    })
}

fn state(pair: Pair<Rule>) -> StateShape {
    match pair.as_rule() {
        Rule::heap_state => StateShape::Heap(ident(next(&mut parts(pair)))),
        Rule::cells_state => StateShape::Cells(ident(
            parts(pair)
                .find(|p| p.as_rule() == Rule::ident)
                .expect("a name"),
        )),
        Rule::list_state => StateShape::List(ident(next(&mut parts(pair)))),
        Rule::tuple_state => StateShape::Tuple(parts(pair).map(ident).collect()),
        _ => unexpected(&pair),
    }
}

fn rule(pair: Pair<Rule>) -> Result<GameRule> {
    let span = span(&pair);
    let mut binders = Vec::new();
    let mut condition = None;
    let mut steps = Vec::new();
    for part in parts(pair) {
        match part.as_rule() {
            Rule::binder => binders.push(binder(part)?),
            Rule::expr => condition = Some(expr(part)?),
            Rule::updates => steps = block(part, 0)?,
            _ => unexpected(&part),
        }
    }
    let mut updates = Vec::new();
    if steps.iter().all(|s| matches!(s, Step::Update(_))) {
        for step in steps.drain(..) {
            if let Step::Update(update) = step {
                updates.push(update);
            }
        }
    }
    // The guard of the last binder is the rule's condition: both filter the finished bindings.
    if let (None, Some(last)) = (&condition, binders.last_mut()) {
        if let Some(guard) = last.guard.take() {
            last.span.end = last.value.span.end;
            condition = Some(guard);
        }
    }
    Ok(GameRule {
        binders,
        condition,
        updates,
        steps,
        span,
    })
}

fn binder(pair: Pair<Rule>) -> Result<Binder> {
    Ok(binder_at(pair, 0)?.0)
}

/// A binder inside `nesting` brackets, and the depth of its deepest expression.
fn binder_at(pair: Pair<Rule>, nesting: usize) -> Result<(Binder, usize)> {
    let span = span(&pair);
    let mut inner = pair.into_inner();
    let name = ident(next(&mut inner));
    let kind = match next(&mut inner).as_rule() {
        Rule::kw_in => BinderKind::In,
        _ => BinderKind::Let,
    };
    let value = nested(next(&mut inner), nesting)?;
    let mut depth = value.depth;
    let guard = match inner.next() {
        Some(guard) => {
            let guard = nested(next(&mut parts(guard)), nesting)?;
            depth = depth.max(guard.depth);
            Some(guard.expr)
        }
        None => None,
    };
    let binder = Binder {
        name,
        kind,
        value: value.expr,
        guard,
        span,
    };
    Ok((binder, depth))
}

/// Loops of updates nest at most this deep.
const MAX_LOOP_NESTING: usize = 16;

/// The steps of a block `{ ... }` inside `loops` loops.
fn block(pair: Pair<Rule>, loops: usize) -> Result<Vec<Step>> {
    let mut steps = Vec::new();
    for part in parts(pair) {
        if part.as_rule() == Rule::update {
            steps.push(Step::Update(update(part)?));
            continue;
        }
        let span = span(&part);
        if loops >= MAX_LOOP_NESTING {
            let label = format!("more than {MAX_LOOP_NESTING} loops inside one another");
            return Err(Error::syntax(
                "loops of updates nested too deeply",
                label,
                span,
            ));
        }
        let mut binders = Vec::new();
        let mut body = Vec::new();
        for piece in parts(part) {
            match piece.as_rule() {
                Rule::binder => binders.push(binder(piece)?),
                _ => body = block(piece, loops + 1)?,
            }
        }
        steps.push(Step::Loop {
            binders,
            body,
            span,
        });
    }
    Ok(steps)
}

fn update(pair: Pair<Rule>) -> Result<Update> {
    let span = span(&pair);
    let mut parts = parts(pair);
    let target = ident(next(&mut parts));
    let mut op = next(&mut parts);
    let mut index = None;
    if op.as_rule() == Rule::expr {
        index = Some(expr(op)?);
        op = next(&mut parts);
    }
    let op = match op.as_str() {
        "+=" => UpdateOp::Add,
        "-=" => UpdateOp::Sub,
        _ => UpdateOp::Assign,
    };
    let value = expr(next(&mut parts))?;
    Ok(Update {
        target,
        index,
        op,
        value,
        span,
    })
}

fn octal_def(pair: Pair<Rule>) -> GameDef {
    let hex = pair
        .clone()
        .into_inner()
        .any(|p| p.as_rule() == Rule::kw_hex);
    let code = next(&mut parts(pair));
    GameDef::Octal {
        code: code.as_str().to_string(),
        hex,
        span: span(&code),
    }
}

fn graph_line(pair: Pair<Rule>) -> GraphLine {
    let span = span(&pair);
    let mut parts = parts(pair);
    let from = ident(next(&mut parts));
    let to = parts.map(ident).collect();
    GraphLine { from, to, span }
}

fn ident(pair: Pair<Rule>) -> Ident {
    Ident {
        name: pair.as_str().to_string(),
        span: span(&pair),
    }
}

/// Expressions deeper than this are a syntax error: the passes over the tree recurse, and a
/// deeper tree could overflow the stack.
const MAX_DEPTH: usize = 256;

/// An expression being built, with the depth of its tree.
struct Node {
    expr: Expr,
    depth: usize,
}

fn node(kind: ExprKind, span: Span, depth: usize) -> Result<Node> {
    if depth > MAX_DEPTH {
        return Err(too_deep(span));
    }
    Ok(Node {
        expr: Expr { kind, span },
        depth,
    })
}

fn too_deep(span: Span) -> Error {
    Error::syntax(
        "expression nested too deeply",
        format!("more than {MAX_DEPTH} levels"),
        span,
    )
}

fn expr(pair: Pair<Rule>) -> Result<Expr> {
    Ok(nested(pair, 0)?.expr)
}

/// An expression inside `nesting` brackets.
fn nested(pair: Pair<Rule>, nesting: usize) -> Result<Node> {
    let span = span(&pair);
    let mut flat = Vec::new();
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::operand => {
                for piece in part.into_inner() {
                    match piece.as_rule() {
                        Rule::prefix => flat.extend(piece.into_inner()),
                        _ => flat.push(piece),
                    }
                }
            }
            Rule::infix => flat.extend(part.into_inner()),
            _ => flat.push(part),
        }
    }
    pratt(span, flat, nesting)
}

fn game_expr(pair: Pair<Rule>) -> Result<Expr> {
    let span = span(&pair);
    Ok(pratt(span, pair.into_inner().collect(), 0)?.expr)
}

fn pratt(span: Span, flat: Vec<Pair<Rule>>, nesting: usize) -> Result<Node> {
    if nesting > MAX_DEPTH || flat.len() > 4 * MAX_DEPTH {
        return Err(too_deep(span));
    }
    PRATT
        .map_primary(|pair| primary(pair, nesting))
        .map_prefix(prefix)
        .map_postfix(|target, op| postfix(target, op, nesting))
        .map_infix(infix)
        .parse(flat.into_iter())
}

fn primary(pair: Pair<Rule>, nesting: usize) -> Result<Node> {
    let pair = next(&mut pair.into_inner());
    let span = span(&pair);
    let (kind, depth) = match pair.as_rule() {
        Rule::int => (ExprKind::Int(int(&pair)?), 1),
        Rule::string => (ExprKind::Str(string(&pair)?), 1),
        Rule::kw_true => (ExprKind::Bool(true), 1),
        Rule::kw_false => (ExprKind::Bool(false), 1),
        Rule::ident => (ExprKind::Var(pair.as_str().to_string()), 1),
        Rule::xor_name => (ExprKind::Var("xor".to_string()), 1),
        Rule::if_expr => if_expr(pair, nesting + 1)?,
        Rule::paren => {
            let inner = nested(next(&mut parts(pair)), nesting + 1)?;
            let expr = Expr { span, ..inner.expr };
            return Ok(Node { expr, ..inner });
        }
        Rule::list => list(pair, nesting + 1)?,
        Rule::set => {
            let (items, depth) = items(pair, nesting + 1)?;
            (ExprKind::Set(items), depth + 1)
        }
        _ => unexpected(&pair),
    };
    node(kind, span, depth)
}

fn int(pair: &Pair<Rule>) -> Result<i64> {
    let digits: String = pair.as_str().chars().filter(|&c| c != '_').collect();
    digits
        .parse()
        .map_err(|_| Error::Literal { span: span(pair) })
}

fn string(pair: &Pair<Rule>) -> Result<String> {
    let start = span(pair).start as usize;
    let mut out = String::new();
    let mut chars = pair.as_str().char_indices().skip(1);
    loop {
        match chars.next() {
            None => break,
            Some((_, '"')) => return Ok(out),
            Some((at, '\\')) => match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, c @ ('"' | '\\'))) => out.push(c),
                Some((end, c)) => {
                    let span = Span::new(start + at, start + end + c.len_utf8());
                    let label = "use `\\\\`, `\\\"`, `\\n` or `\\t`";
                    return Err(Error::syntax("unknown escape in a string", label, span));
                }
                None => break,
            },
            Some((_, c)) => out.push(c),
        }
    }
    let label = "no closing `\"` on this line";
    Err(Error::syntax("unterminated string", label, span(pair)))
}

fn if_expr(pair: Pair<Rule>, nesting: usize) -> Result<(ExprKind, usize)> {
    let mut parts = parts(pair);
    let mut branch = || nested(next(&mut parts), nesting);
    let (condition, then, otherwise) = (branch()?, branch()?, branch()?);
    let depth = 1 + condition.depth.max(then.depth).max(otherwise.depth);
    let kind = ExprKind::If {
        condition: Box::new(condition.expr),
        then: Box::new(then.expr),
        otherwise: Box::new(otherwise.expr),
    };
    Ok((kind, depth))
}

/// A list `[a, b]` or a comprehension `[EXPR for BINDER, ...]`, and its depth.
fn list(pair: Pair<Rule>, nesting: usize) -> Result<(ExprKind, usize)> {
    let mut depth = 0;
    let mut items = Vec::new();
    for part in parts(pair) {
        if part.as_rule() == Rule::for_clause {
            let mut binders = Vec::new();
            for pair in parts(part) {
                let (binder, binder_depth) = binder_at(pair, nesting)?;
                depth = depth.max(binder_depth);
                binders.push(binder);
            }
            let body = Box::new(items.pop().expect("a comprehension has a body"));
            return Ok((ExprKind::Comprehension { body, binders }, depth + 1));
        }
        let item = nested(part, nesting)?;
        depth = depth.max(item.depth);
        items.push(item.expr);
    }
    Ok((ExprKind::List(items), depth + 1))
}

/// The expressions of a list, set, call or index, and the depth of the deepest.
fn items(pair: Pair<Rule>, nesting: usize) -> Result<(Vec<Expr>, usize)> {
    let mut depth = 0;
    let mut items = Vec::new();
    for part in parts(pair) {
        let item = nested(part, nesting)?;
        depth = depth.max(item.depth);
        items.push(item.expr);
    }
    Ok((items, depth))
}

fn prefix(op: Pair<Rule>, operand: Result<Node>) -> Result<Node> {
    let operand = operand?;
    let unary = match op.as_rule() {
        Rule::neg => UnaryOp::Neg,
        Rule::kw_not => UnaryOp::Not,
        Rule::kw_misere => UnaryOp::Misere,
        _ => unexpected(&op),
    };
    let span = span(&op).to(operand.expr.span);
    let kind = ExprKind::Unary(unary, Box::new(operand.expr));
    node(kind, span, operand.depth + 1)
}

fn postfix(target: Result<Node>, op: Pair<Rule>, nesting: usize) -> Result<Node> {
    let Node {
        expr: target,
        depth,
    } = target?;
    let span = target.span.to(span(&op));
    let (kind, depth) = match op.as_rule() {
        Rule::call_args | Rule::index_args => {
            let is_call = op.as_rule() == Rule::call_args;
            let (args, args_depth) = items(op, nesting + 1)?;
            let target = Box::new(target);
            let kind = if is_call {
                ExprKind::Call {
                    callee: target,
                    args,
                }
            } else {
                ExprKind::Index { target, args }
            };
            (kind, depth.max(args_depth))
        }
        Rule::open_range => {
            unchained(&target, &op)?;
            let kind = ExprKind::Range {
                start: Box::new(target),
                end: None,
                inclusive: false,
            };
            (kind, depth)
        }
        _ => unexpected(&op),
    };
    node(kind, span, depth + 1)
}

fn infix(left: Result<Node>, op: Pair<Rule>, right: Result<Node>) -> Result<Node> {
    let (left, right) = (left?, right?);
    let depth = 1 + left.depth.max(right.depth);
    let (left, right) = (left.expr, right.expr);
    let span = left.span.to(right.span);
    let binary = match op.as_rule() {
        Rule::range_excl | Rule::range_incl => {
            unchained(&left, &op)?;
            let kind = ExprKind::Range {
                start: Box::new(left),
                end: Some(Box::new(right)),
                inclusive: op.as_rule() == Rule::range_incl,
            };
            return node(kind, span, depth);
        }
        Rule::kw_or => BinaryOp::Or,
        Rule::kw_and => BinaryOp::And,
        Rule::eq => BinaryOp::Eq,
        Rule::kw_in => BinaryOp::In,
        Rule::ne => BinaryOp::Ne,
        Rule::lt => BinaryOp::Lt,
        Rule::le => BinaryOp::Le,
        Rule::gt => BinaryOp::Gt,
        Rule::ge => BinaryOp::Ge,
        Rule::bit_or => BinaryOp::BitOr,
        Rule::kw_xor => BinaryOp::Xor,
        Rule::concat => BinaryOp::Concat,
        Rule::bit_and => BinaryOp::BitAnd,
        Rule::shl => BinaryOp::Shl,
        Rule::shr => BinaryOp::Shr,
        Rule::add => BinaryOp::Add,
        Rule::sub => BinaryOp::Sub,
        Rule::mul => BinaryOp::Mul,
        Rule::div => BinaryOp::Div,
        Rule::rem => BinaryOp::Rem,
        Rule::pow => BinaryOp::Pow,
        _ => unexpected(&op),
    };
    let kind = ExprKind::Binary(binary, Box::new(left), Box::new(right));
    node(kind, span, depth)
}

/// Ranges do not chain: `a..b..c` is an error, `(a..b)..c` is not (the parentheses widen the
/// inner range's span past its start operand).
fn unchained(start: &Expr, op: &Pair<Rule>) -> Result<()> {
    match &start.kind {
        ExprKind::Range { start: inner, .. } if inner.span.start == start.span.start => Err(
            Error::syntax("ranges do not chain", "a second range operator", span(op)),
        ),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
