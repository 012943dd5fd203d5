//! Source text to [`Program`]: the pest grammar in `grammar/grundy.pest`, one function per
//! grammar rule, and one Pratt parser for every operator's precedence.

use std::sync::LazyLock;

use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use pest_derive::Parser;

use super::ast::Rule as GameRule;
use super::ast::{
    BinaryOp, Binder, BinderKind, Expr, ExprKind, GameDecl, GameDef, GraphLine, Ident, Program,
    Query, StateShape, Stmt, StmtKind, UnaryOp, Update, UpdateOp,
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
        .op(Op::infix(Rule::add, Left) | Op::infix(Rule::sub, Left))
        .op(Op::infix(Rule::mul, Left) | Op::infix(Rule::div, Left) | Op::infix(Rule::rem, Left))
        .op(Op::prefix(Rule::neg))
        .op(Op::infix(Rule::pow, Right))
        .op(Op::postfix(Rule::call_args) | Op::postfix(Rule::index_args))
});

/// Parses a whole program (a file, a one-liner or one REPL entry).
///
/// Input that stops in the middle of a statement gives [`Error::Unfinished`], any other input
/// outside the grammar [`Error::Syntax`], and an integer literal beyond 64 bits
/// [`Error::Literal`].
pub fn parse(source: &str) -> Result<Program, Error> {
    let mut pairs = GrundyParser::parse(Rule::program, source)
        .map_err(|error| pest_error::convert(&error, source))?;
    match pairs.next() {
        Some(pair) => program(pair),
        None => Ok(Program {
            statements: Vec::new(),
        }),
    }
}

type Result<T, E = Error> = std::result::Result<T, E>;

/// The span of `pair` without the whitespace that pest lets a rule ending in `x*` or `x?`
/// swallow: it ends where its last token ends.
fn span(pair: &Pair<Rule>) -> Span {
    let mut last = pair.clone();
    while let Some(child) = last.clone().into_inner().last() {
        last = child;
    }
    Span::new(pair.as_span().start(), last.as_span().end())
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
                | Rule::kw_check
                | Rule::kw_assert
                | Rule::kw_print
                | Rule::kw_octal
                | Rule::kw_subtraction
                | Rule::kw_graph
        )
    })
}

fn next<'i>(parts: &mut impl Iterator<Item = Pair<'i, Rule>>) -> Pair<'i, Rule> {
    parts.next().expect("grammar guarantees this part")
}

fn program(pair: Pair<Rule>) -> Result<Program> {
    let statements = parts(pair).map(statement).collect::<Result<_>>()?;
    Ok(Program { statements })
}

fn statement(pair: Pair<Rule>) -> Result<Stmt> {
    let span = span(&pair);
    let inner = next(&mut pair.into_inner());
    let kind = match inner.as_rule() {
        Rule::let_stmt => let_stmt(inner)?,
        Rule::game_decl => StmtKind::Game(game_decl(inner)?),
        Rule::query_stmt => query_stmt(inner)?,
        Rule::sequence_stmt => sequence_stmt(inner)?,
        Rule::table_stmt | Rule::ppos_stmt => table_stmt(inner)?,
        Rule::check_stmt => check_stmt(inner)?,
        Rule::assert_stmt => StmtKind::Assert(expr(next(&mut parts(inner)))?),
        Rule::print_stmt => StmtKind::Print(expr(next(&mut parts(inner)))?),
        Rule::expr_stmt => StmtKind::Expr(expr(next(&mut parts(inner)))?),
        _ => unexpected(&inner),
    };
    Ok(Stmt { kind, span })
}

fn let_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let mut parts = parts(pair);
    let name = ident(next(&mut parts));
    let value = expr(next(&mut parts))?;
    Ok(StmtKind::Let { name, value })
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
    let game = game_expr(next(&mut parts))?;
    let range = expr(next(&mut parts))?;
    Ok(StmtKind::Sequence { game, range })
}

fn table_stmt(pair: Pair<Rule>) -> Result<StmtKind> {
    let is_table = pair.as_rule() == Rule::table_stmt;
    let mut parts = parts(pair);
    let game = game_expr(next(&mut parts))?;
    let rows = expr(next(&mut parts))?;
    let cols = expr(next(&mut parts))?;
    Ok(if is_table {
        StmtKind::Table { game, rows, cols }
    } else {
        StmtKind::Ppos { game, rows, cols }
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
        Rule::list_state => StateShape::List(ident(next(&mut parts(pair)))),
        Rule::tuple_state => StateShape::Tuple(parts(pair).map(ident).collect()),
        _ => unexpected(&pair),
    }
}

fn rule(pair: Pair<Rule>) -> Result<GameRule> {
    let span = span(&pair);
    let mut binders = Vec::new();
    let mut condition = None;
    let mut updates = Vec::new();
    for part in parts(pair) {
        match part.as_rule() {
            Rule::binder => binders.push(binder(part)?),
            Rule::expr => condition = Some(expr(part)?),
            Rule::updates => {
                updates = parts(part).map(update).collect::<Result<_>>()?;
            }
            _ => unexpected(&part),
        }
    }
    Ok(GameRule {
        binders,
        condition,
        updates,
        span,
    })
}

fn binder(pair: Pair<Rule>) -> Result<Binder> {
    let span = span(&pair);
    let mut inner = pair.into_inner();
    let name = ident(next(&mut inner));
    let kind = match next(&mut inner).as_rule() {
        Rule::kw_in => BinderKind::In,
        _ => BinderKind::Let,
    };
    let value = expr(next(&mut inner))?;
    Ok(Binder {
        name,
        kind,
        value,
        span,
    })
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
    let code = next(&mut parts(pair));
    GameDef::Octal {
        code: code.as_str().to_string(),
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

fn expr(pair: Pair<Rule>) -> Result<Expr> {
    let mut flat = Vec::new();
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::operand | Rule::infix => flat.extend(part.into_inner()),
            _ => flat.push(part),
        }
    }
    pratt(flat)
}

fn game_expr(pair: Pair<Rule>) -> Result<Expr> {
    pratt(pair.into_inner().collect())
}

fn pratt(flat: Vec<Pair<Rule>>) -> Result<Expr> {
    PRATT
        .map_primary(primary)
        .map_prefix(prefix)
        .map_postfix(postfix)
        .map_infix(infix)
        .parse(flat.into_iter())
}

fn primary(pair: Pair<Rule>) -> Result<Expr> {
    let span = span(&pair);
    let kind = match pair.as_rule() {
        Rule::int => ExprKind::Int(int(&pair)?),
        Rule::string => ExprKind::Str(string(&pair)),
        Rule::kw_true => ExprKind::Bool(true),
        Rule::kw_false => ExprKind::Bool(false),
        Rule::ident => ExprKind::Var(pair.as_str().to_string()),
        Rule::xor_name => {
            let word = next(&mut pair.into_inner());
            return Ok(Expr {
                kind: ExprKind::Var(word.as_str().to_string()),
                span: self::span(&word),
            });
        }
        Rule::if_expr => if_expr(pair)?,
        Rule::paren => {
            let inner = expr(next(&mut parts(pair)))?;
            return Ok(Expr { span, ..inner });
        }
        Rule::list => ExprKind::List(items(pair)?),
        Rule::set => ExprKind::Set(items(pair)?),
        _ => unexpected(&pair),
    };
    Ok(Expr { kind, span })
}

fn int(pair: &Pair<Rule>) -> Result<i64> {
    let digits: String = pair.as_str().chars().filter(|&c| c != '_').collect();
    digits
        .parse()
        .map_err(|_| Error::Literal { span: span(pair) })
}

fn string(pair: &Pair<Rule>) -> String {
    let text = pair.as_str();
    let mut out = String::new();
    let mut chars = text[1..text.len() - 1].chars();
    while let Some(c) = chars.next() {
        out.push(match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => '\n',
                Some('t') => '\t',
                Some(escaped) => escaped,
                None => break,
            },
            (c, false) => c,
        });
    }
    out
}

fn if_expr(pair: Pair<Rule>) -> Result<ExprKind> {
    let mut parts = parts(pair);
    let condition = Box::new(expr(next(&mut parts))?);
    let then = Box::new(expr(next(&mut parts))?);
    let otherwise = Box::new(expr(next(&mut parts))?);
    Ok(ExprKind::If {
        condition,
        then,
        otherwise,
    })
}

fn items(pair: Pair<Rule>) -> Result<Vec<Expr>> {
    parts(pair).map(expr).collect()
}

fn prefix(op: Pair<Rule>, operand: Result<Expr>) -> Result<Expr> {
    let operand = operand?;
    let unary = match op.as_rule() {
        Rule::neg => UnaryOp::Neg,
        Rule::kw_not => UnaryOp::Not,
        Rule::kw_misere => UnaryOp::Misere,
        _ => unexpected(&op),
    };
    Ok(Expr {
        span: span(&op).to(operand.span),
        kind: ExprKind::Unary(unary, Box::new(operand)),
    })
}

fn postfix(target: Result<Expr>, op: Pair<Rule>) -> Result<Expr> {
    let target = target?;
    let span = target.span.to(span(&op));
    let kind = match op.as_rule() {
        Rule::call_args => ExprKind::Call {
            callee: Box::new(target),
            args: items(op)?,
        },
        Rule::index_args => ExprKind::Index {
            target: Box::new(target),
            args: items(op)?,
        },
        Rule::open_range => {
            unchained(&target, &op)?;
            ExprKind::Range {
                start: Box::new(target),
                end: None,
                inclusive: false,
            }
        }
        _ => unexpected(&op),
    };
    Ok(Expr { kind, span })
}

fn infix(left: Result<Expr>, op: Pair<Rule>, right: Result<Expr>) -> Result<Expr> {
    let (left, right) = (left?, right?);
    let span = left.span.to(right.span);
    let binary = match op.as_rule() {
        Rule::range_excl | Rule::range_incl => {
            unchained(&left, &op)?;
            let kind = ExprKind::Range {
                start: Box::new(left),
                end: Some(Box::new(right)),
                inclusive: op.as_rule() == Rule::range_incl,
            };
            return Ok(Expr { kind, span });
        }
        Rule::kw_or => BinaryOp::Or,
        Rule::kw_and => BinaryOp::And,
        Rule::eq => BinaryOp::Eq,
        Rule::ne => BinaryOp::Ne,
        Rule::lt => BinaryOp::Lt,
        Rule::le => BinaryOp::Le,
        Rule::gt => BinaryOp::Gt,
        Rule::ge => BinaryOp::Ge,
        Rule::bit_or => BinaryOp::BitOr,
        Rule::kw_xor => BinaryOp::Xor,
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
    Ok(Expr {
        kind: ExprKind::Binary(binary, Box::new(left), Box::new(right)),
        span,
    })
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
mod tests {
    use super::*;
    use crate::error::render;

    /// An expression as an S-expression, to check the shape of the tree.
    fn sx(e: &Expr) -> String {
        let list = |items: &[Expr]| items.iter().map(sx).collect::<Vec<_>>().join(" ");
        match &e.kind {
            ExprKind::Int(n) => n.to_string(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Str(s) => format!("{s:?}"),
            ExprKind::Var(v) => v.clone(),
            ExprKind::List(items) => format!("[{}]", list(items)),
            ExprKind::Set(items) => format!("{{{}}}", list(items)),
            ExprKind::Unary(op, x) => format!("({op:?} {})", sx(x)).to_lowercase(),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", op.symbol(), sx(a), sx(b)),
            ExprKind::Range {
                start,
                end,
                inclusive,
            } => match end {
                Some(end) => {
                    let op = if *inclusive { "..=" } else { ".." };
                    format!("({op} {} {})", sx(start), sx(end))
                }
                None => format!("(.. {})", sx(start)),
            },
            ExprKind::If {
                condition,
                then,
                otherwise,
            } => format!("(if {} {} {})", sx(condition), sx(then), sx(otherwise)),
            ExprKind::Call { callee, args } => format!("(call {} {})", sx(callee), list(args)),
            ExprKind::Index { target, args } => format!("(index {} {})", sx(target), list(args)),
        }
    }

    fn stmts(source: &str) -> Vec<StmtKind> {
        match parse(source) {
            Ok(program) => program.statements.into_iter().map(|s| s.kind).collect(),
            Err(error) => panic!(
                "{source:?}: {}",
                render(&[error], "test", source, 80, false)
            ),
        }
    }

    fn one(source: &str) -> StmtKind {
        let mut all = stmts(source);
        assert_eq!(all.len(), 1, "{source:?}: {all:?}");
        all.remove(0)
    }

    fn expr_of(source: &str) -> Expr {
        match one(source) {
            StmtKind::Expr(e) => e,
            other => panic!("{source:?} is not a bare expression: {other:?}"),
        }
    }

    fn shape(source: &str) -> String {
        sx(&expr_of(source))
    }

    fn error(source: &str) -> Error {
        match parse(source) {
            Ok(program) => panic!("{source:?} parsed: {program:?}"),
            Err(error) => error,
        }
    }

    fn text(source: &str, span: Span) -> &str {
        &source[span.start as usize..span.end as usize]
    }

    #[test]
    fn precedence() {
        let cases = [
            ("1 + 2 * 3", "(+ 1 (* 2 3))"),
            ("2^3^2", "(^ 2 (^ 3 2))"),
            ("-2^2", "(neg (^ 2 2))"),
            ("2^-1", "(^ 2 (neg 1))"),
            ("-x^2 * 3", "(* (neg (^ x 2)) 3)"),
            ("-3", "(neg 3)"),
            ("n - t - a", "(- (- n t) a)"),
            ("a - -b", "(- a (neg b))"),
            ("a--b", "(- a (neg b))"),
            ("a % b * c / d", "(/ (* (% a b) c) d)"),
            ("0..=(n - t) / 2", "(..= 0 (/ (- n t) 2))"),
            ("1..n + 1", "(.. 1 (+ n 1))"),
            ("1..2 | 3", "(.. 1 (| 2 3))"),
            ("a..b == c", "(== (.. a b) c)"),
            ("misere p + q", "(misere (+ p q))"),
            ("misere nim[1] == p", "(misere (== (index nim 1) p))"),
            ("not a == b and c", "(and (not (== a b)) c)"),
            ("a or b and c", "(or a (and b c))"),
            ("not not a or b", "(or (not (not a)) b)"),
            ("a < b <= c", "(<= (< a b) c)"),
            ("xor(b) == 0", "(== (call xor b) 0)"),
            ("xor (b)", "(call xor b)"),
            ("3 xor 4 xor 5 == 2", "(== (xor (xor 3 4) 5) 2)"),
            ("a xor (b)", "(xor a b)"),
            (
                "a | b xor c & d << 1 + 2",
                "(| a (xor b (& c (<< d (+ 1 2)))))",
            ),
            ("a >> 1 << 2", "(<< (>> a 1) 2)"),
            ("a != b >= c > d", "(> (>= (!= a b) c) d)"),
            ("s[1..]", "(index s (.. 1))"),
            ("s[i..j]", "(index s (.. i j))"),
            ("s[a + 1..]", "(index s (.. (+ a 1)))"),
            ("f(a, b)[0](c)", "(call (index (call f a b) 0) c)"),
            ("-f(x)[1]", "(neg (index (call f x) 1))"),
            ("nim[]", "(index nim )"),
            ("min()", "(call min )"),
            ("[1, 2,]", "[1 2]"),
            ("[]", "[]"),
            ("{}", "{}"),
            ("{1, 3, 4}", "{1 3 4}"),
            ("if c then 1 else 2 + 3", "(if c 1 (+ 2 3))"),
            ("1 + if c then 2 else 3 * 4", "(+ 1 (if c 2 (* 3 4)))"),
            ("if a then if b then 1 else 2 else 3", "(if a (if b 1 2) 3)"),
            ("(a..b)..c", "(.. (.. a b) c)"),
            ("(x)..b", "(.. x b)"),
            ("true and not false", "(and true (not false))"),
            ("1_000_000", "1000000"),
            ("9223372036854775807", "9223372036854775807"),
            (r#""a\"b\\c""#, r#""a\"b\\c""#),
            ("nim[3] + kayles[4]", "(+ (index nim 3) (index kayles 4))"),
            ("bash(3)[n]", "(index (call bash 3) n)"),
            ("grundy(p) + 1", "(+ (call grundy p) 1)"),
            ("outcome(p) == \"P\"", "(== (call outcome p) \"P\")"),
            ("options(p)", "(call options p)"),
            ("wins(p)", "(call wins p)"),
            (
                "len(wins(xor_nim[1, 4]))",
                "(call len (call wins (index xor_nim 1 4)))",
            ),
            ("_", "_"),
            ("2^3^2 == 512", "(== (^ 2 (^ 3 2)) 512)"),
            ("-2^2 == -4", "(== (neg (^ 2 2)) (neg 4))"),
        ];
        for (source, expected) in cases {
            assert_eq!(shape(source), expected, "{source}");
        }
    }

    #[test]
    fn newlines_inside_brackets() {
        let cases = [
            ("[1,\n 2,\n 3\n]", "[1 2 3]"),
            ("[\n  1, # one\n  2,  # two\n]", "[1 2]"),
            ("min(\n  a,\n  b\n)", "(call min a b)"),
            ("(1 +\n 2)", "(+ 1 2)"),
            ("{1,\n 3,\n 4}", "{1 3 4}"),
            ("nim[\n3, 4]", "(index nim 3 4)"),
            ("(if c\n then 1\n else 2)", "(if c 1 2)"),
        ];
        for (source, expected) in cases {
            assert_eq!(shape(source), expected, "{source:?}");
        }
        assert_eq!(stmts("f\n(x)").len(), 2);
        assert_eq!(stmts("x\n[1]").len(), 2);
        assert_eq!(stmts("let a = [1,\n2]\nlet b = 3").len(), 2);
    }

    #[test]
    fn separators() {
        assert_eq!(stmts("").len(), 0);
        assert_eq!(stmts("\n\n# only a comment\n;;\n").len(), 0);
        assert_eq!(stmts(";1;\n\n2 ; 3\n\n").len(), 3);
        assert_eq!(stmts("1 # comment\n2").len(), 2);
        assert_eq!(stmts("1\r\n2\r\n").len(), 2);
        let h = stmts("let h = [1,2,3]; win nim[h[1..]]");
        let StmtKind::Query { query, target } = &h[1] else {
            panic!("{h:?}")
        };
        assert_eq!(*query, Query::Win);
        assert_eq!(sx(target), "(index nim (index h (.. 1)))");
    }

    #[test]
    fn simple_statements() {
        let StmtKind::Let { name, value } = one("let heaps = [3, 4, 5]") else {
            panic!()
        };
        assert_eq!(name.name, "heaps");
        assert_eq!(sx(&value), "[3 4 5]");

        for (source, expected, shape) in [
            ("grundy nim[heaps]", Query::Grundy, "(index nim heaps)"),
            (
                "outcome wythoff[3, 5]",
                Query::Outcome,
                "(index wythoff 3 5)",
            ),
            ("moves kayles[5]", Query::Moves, "(index kayles 5)"),
            ("win nim[3, 4, 5]", Query::Win, "(index nim 3 4 5)"),
            (
                "grundy nim[3] + kayles[4]",
                Query::Grundy,
                "(+ (index nim 3) (index kayles 4))",
            ),
            ("grundy (p) + 1", Query::Grundy, "(+ p 1)"),
            ("moves(p)", Query::Moves, "p"),
            (
                "outcome misere nim[1, 1]",
                Query::Outcome,
                "(misere (index nim 1 1))",
            ),
        ] {
            let StmtKind::Query { query, target } = one(source) else {
                panic!("{source}")
            };
            assert_eq!((query, sx(&target).as_str()), (expected, shape), "{source}");
        }

        let StmtKind::Sequence { game, range } = one("sequence kayles 0..=83") else {
            panic!()
        };
        assert_eq!(
            (sx(&game), sx(&range)),
            ("kayles".into(), "(..= 0 83)".into())
        );
        let StmtKind::Sequence { game, range } = one("sequence bash(3)[0] 1..") else {
            panic!()
        };
        assert_eq!(sx(&game), "(index (call bash 3) 0)");
        assert_eq!(sx(&range), "(.. 1)");

        let StmtKind::Table { game, rows, cols } = one("table wythoff 0..10, 0..10") else {
            panic!()
        };
        assert_eq!(sx(&game), "wythoff");
        assert_eq!(
            (sx(&rows), sx(&cols)),
            ("(.. 0 10)".into(), "(.. 0 10)".into())
        );
        let StmtKind::Ppos { game, rows, cols } = one("ppos moore(2) 0..=20, 0..=n") else {
            panic!()
        };
        assert_eq!(sx(&game), "(call moore 2)");
        assert_eq!(
            (sx(&rows), sx(&cols)),
            ("(..= 0 20)".into(), "(..= 0 n)".into())
        );

        let source = "check grundy(bash(m)[n]) == n % (m + 1) for m in 1..=8, n in 0..=400";
        let StmtKind::Check { condition, binders } = one(source) else {
            panic!()
        };
        assert_eq!(
            sx(&condition),
            "(== (call grundy (index (call bash m) n)) (% n (+ m 1)))"
        );
        assert_eq!(binders.len(), 2);
        assert_eq!(binders[1].name.name, "n");
        assert_eq!(binders[1].kind, BinderKind::In);
        assert_eq!(sx(&binders[1].value), "(..= 0 400)");
        let StmtKind::Check { binders, .. } = one("check x > 0 for y = 3, x in [y]") else {
            panic!()
        };
        assert_eq!(binders[0].kind, BinderKind::Let);

        let StmtKind::Assert(e) = one("assert len(wins(xor_nim[1, 4, 5, 2, 6])) == 3") else {
            panic!()
        };
        assert_eq!(
            sx(&e),
            "(== (call len (call wins (index xor_nim 1 4 5 2 6))) 3)"
        );
        let StmtKind::Print(e) = one("print outcome(misere nim[1, 1, 1])") else {
            panic!()
        };
        assert_eq!(sx(&e), "(call outcome (misere (index nim 1 1 1)))");

        // Statement words are names anywhere else, and alone.
        assert_eq!(shape("print"), "print");
        assert_eq!(shape("table + 1"), "(+ table 1)");
        assert_eq!(shape("sequence"), "sequence");
        assert_eq!(shape("grundy"), "grundy");
        assert_eq!(shape("winner(p)"), "(call winner p)");
        assert_eq!(shape("printer"), "printer");
    }

    fn game(source: &str) -> GameDecl {
        match one(source) {
            StmtKind::Game(decl) => decl,
            other => panic!("{other:?}"),
        }
    }

    fn rules_of(decl: &GameDecl) -> &[GameRule] {
        match &decl.def {
            GameDef::Rules { rules, .. } => rules,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rule_games() {
        let g = game("game nim on n {\n    for k in 1..=n { n -= k }\n}");
        assert_eq!(g.name.name, "nim");
        assert!(g.params.is_empty());
        let GameDef::Rules {
            state,
            unordered,
            rules,
        } = &g.def
        else {
            panic!()
        };
        assert!(matches!(state, StateShape::Heap(n) if n.name == "n"));
        assert!(!unordered);
        assert_eq!(rules.len(), 1);
        let rule = &rules[0];
        assert_eq!(rule.binders[0].name.name, "k");
        assert_eq!(sx(&rule.binders[0].value), "(..= 1 n)");
        assert_eq!(rule.condition, None);
        let update = &rule.updates[0];
        assert_eq!(update.target.name, "n");
        assert_eq!((update.op, update.index.is_none()), (UpdateOp::Sub, true));
        assert_eq!(sx(&update.value), "k");

        let g = game("game kayles on n { for t in 1..=min(2, n), a in 0..=(n - t) / 2 { n = [a, n - t - a] } }");
        let rule = &rules_of(&g)[0];
        assert_eq!(sx(&rule.binders[0].value), "(..= 1 (call min 2 n))");
        assert_eq!(sx(&rule.binders[1].value), "(..= 0 (/ (- n t) 2))");
        assert_eq!(rule.updates[0].op, UpdateOp::Assign);
        assert_eq!(sx(&rule.updates[0].value), "[a (- (- n t) a)]");

        let g = game("game grundys on n { for a in 1..n if a < n - a { n = [a, n - a] } }");
        let rule = &rules_of(&g)[0];
        assert_eq!(sx(&rule.binders[0].value), "(.. 1 n)");
        assert_eq!(sx(rule.condition.as_ref().unwrap()), "(< a (- n a))");

        let g = game("game staircase on s[] {\n  for k in 1..=s[0] { s[0] -= k }\n  for i in 1..len(s), k in 1..=s[i] { s[i] -= k; s[i - 1] += k }\n}");
        assert!(
            matches!(&g.def, GameDef::Rules { state: StateShape::List(s), .. } if s.name == "s")
        );
        let rule = &rules_of(&g)[1];
        assert_eq!(rule.updates.len(), 2);
        assert_eq!(sx(rule.updates[1].index.as_ref().unwrap()), "(- i 1)");
        assert_eq!(rule.updates[1].op, UpdateOp::Add);

        let g = game("game moore(k) on h[] unordered {\n  for b in 0..=h if 1 <= count(b) and count(b) <= k { h -= b }\n}");
        assert_eq!(g.params[0].name, "k");
        assert!(matches!(
            &g.def,
            GameDef::Rules {
                unordered: true,
                ..
            }
        ));
        let rule = &rules_of(&g)[0];
        assert_eq!(
            sx(rule.condition.as_ref().unwrap()),
            "(and (<= 1 (call count b)) (<= (call count b) k))"
        );

        let g = game("game wythoff on (a, b) {\n for k in 1..=a { a -= k }\n\n for k in 1..=min(a, b) { a -= k; b -= k }\n}");
        assert!(
            matches!(&g.def, GameDef::Rules { state: StateShape::Tuple(v), .. } if v.len() == 2)
        );
        assert_eq!(rules_of(&g).len(), 2);

        let g = game("game g(a, b,) on n {\n  if n > 0 {\n    n -= 1\n  }\n  { n -= 1 }; for j = 2 { n -= j }\n}");
        assert_eq!(g.params.len(), 2);
        let all = rules_of(&g);
        assert_eq!(all.len(), 3);
        assert_eq!(sx(all[0].condition.as_ref().unwrap()), "(> n 0)");
        assert!(all[1].binders.is_empty() && all[1].condition.is_none());
        assert_eq!(all[2].binders[0].kind, BinderKind::Let);

        // An open range before `if` and `{`.
        let g = game("game g on n { for k in 1.. if k <= n { n -= k } }");
        let rule = &rules_of(&g)[0];
        assert_eq!(sx(&rule.binders[0].value), "(.. 1)");
        assert_eq!(sx(rule.condition.as_ref().unwrap()), "(<= k n)");
        assert!(rules_of(&game("game g on n {}")).is_empty());
        assert!(rules_of(&game("game g on n {\n\n}")).is_empty());
    }

    #[test]
    fn family_games() {
        for code in ["0.07", "4.07", "0.137", ".07", "0.", "7", "0.08"] {
            let source = format!("game dawson = octal {code}");
            let GameDef::Octal { code: got, span } = game(&source).def else {
                panic!()
            };
            assert_eq!(got, code);
            assert_eq!(text(&source, span), code);
        }
        let g = game("game sub(S) = subtraction S");
        assert_eq!(g.params[0].name, "S");
        for (source, expected) in [
            ("game sub134 = subtraction {1, 3, 4}", "{1 3 4}"),
            ("game bash4 = subtraction 1..=4", "(..= 1 4)"),
            ("game anynim = subtraction 1..", "(.. 1)"),
        ] {
            let GameDef::Subtraction { set } = game(source).def else {
                panic!()
            };
            assert_eq!(sx(&set), expected);
        }

        let lines = |source: &str| match game(source).def {
            GameDef::Graph { lines } => lines
                .iter()
                .map(|l| {
                    let to: Vec<_> = l.to.iter().map(|t| t.name.as_str()).collect();
                    format!("{}>{}", l.from.name, to.join(","))
                })
                .collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            lines("game g = graph { a -> b, c; b -> c }"),
            ["a>b,c", "b>c"]
        );
        assert_eq!(
            lines("game g = graph {\n  a -> b, c   # two\n  b -> c\n  c -> d\n  d\n}"),
            ["a>b,c", "b>c", "c>d", "d>"]
        );
        assert!(lines("game g = graph {}").is_empty());
    }

    const REFERENCE: &str = r#"
game nim on n {
    for k in 1..=n { n -= k }
}

game bash(m) on n {                       # take 1..=m from one heap
    for k in 1..=min(m, n) { n -= k }
}

game kayles on n {                        # knock down 1 or 2 adjacent pins;
    for t in 1..=min(2, n), a in 0..=(n - t) / 2 { n = [a, n - t - a] }   # the row may break in two
}

game grundys on n {                       # split a heap into two unequal heaps
    for a in 1..n if a < n - a { n = [a, n - a] }
}

game lasker on n {                        # take any, or split into two non-empty heaps
    for k in 1..=n       { n -= k }
    for a in 1..=n / 2   { n = [a, n - a] }
}

game wythoff on (a, b) {
    for k in 1..=a         { a -= k }
    for k in 1..=b         { b -= k }
    for k in 1..=min(a, b) { a -= k; b -= k }
}

game staircase on s[] {                   # coins on step i move down to step i-1;
    for k in 1..=s[0]                 { s[0] -= k }                  # from step 0 they leave
    for i in 1..len(s), k in 1..=s[i] { s[i] -= k; s[i - 1] += k }
}

game xor_nim on h[] unordered {           # take b[i] from every heap, with xor(b) == 0
    for b in 0..=h if count(b) > 0 and xor(b) == 0 { h -= b }
}

game moore(k) on h[] unordered {          # Moore's Nim: take from up to k heaps at once
    for b in 0..=h if 1 <= count(b) and count(b) <= k { h -= b }
}

game dawson   = octal 0.07                # octal code, digits as in Winning Ways
game kayles2  = octal 0.77
game sub134   = subtraction {1, 3, 4}
game bash4    = subtraction 1..=4
game anynim   = subtraction 1..           # take any positive number: Nim
game g = graph {                          # tokens on a directed graph; a token
    a -> b, c                             # moves along one edge; a node with no
    b -> c                                # moves may also be listed alone
    c -> d
    d
}

let heaps = [3, 4, 5]
grundy nim[heaps]                 # the Grundy value: 2
outcome wythoff[3, 5]             # P (the player to move loses) or N
moves kayles[5]                   # every option with its Grundy value, and the mex
win nim[3, 4, 5]                  # the winning moves: which component, from what to what
sequence kayles 0..=83            # Grundy values of single heaps
table wythoff 0..10, 0..10        # Grundy values of a two-counter game as a grid
ppos wythoff 0..=20, 0..=20       # the P-positions in a box
check grundy(bash(m)[n]) == n % (m + 1) for m in 1..=8, n in 0..=400
assert len(wins(xor_nim[1, 4, 5, 2, 6])) == 3
print outcome(misere nim[1, 1, 1])
win nim[h[1..]]
grundy kayles[10^18]
nim[3, 4] == nim[4, 3]
3 xor 4 xor 5 == 2
"#;

    #[test]
    fn reference_examples() {
        let all = stmts(REFERENCE);
        assert_eq!(all.len(), 30);
        let games = all
            .iter()
            .filter(|s| matches!(s, StmtKind::Game(_)))
            .count();
        assert_eq!(games, 15);
    }

    #[test]
    fn spans() {
        let source = "let x = (1 + 2) * f(3)";
        let program = parse(source).unwrap();
        let stmt = &program.statements[0];
        assert_eq!(text(source, stmt.span), source);
        let StmtKind::Let { name, value } = &stmt.kind else {
            panic!()
        };
        assert_eq!(text(source, name.span), "x");
        assert_eq!(text(source, value.span), "(1 + 2) * f(3)");
        let ExprKind::Binary(_, left, right) = &value.kind else {
            panic!()
        };
        assert_eq!(text(source, left.span), "(1 + 2)");
        assert_eq!(text(source, right.span), "f(3)");

        let source = "  -a ..= b[1]  # c";
        let e = expr_of(source);
        assert_eq!(text(source, e.span), "-a ..= b[1]");
        let ExprKind::Range { start, end, .. } = &e.kind else {
            panic!()
        };
        assert_eq!(text(source, start.span), "-a");
        assert_eq!(text(source, end.as_ref().unwrap().span), "b[1]");
        let source = "s[2.. ]";
        let ExprKind::Index { args, .. } = expr_of(source).kind else {
            panic!()
        };
        assert_eq!(text(source, args[0].span), "2..");
        let source = "xor (b)";
        let ExprKind::Call { callee, .. } = expr_of(source).kind else {
            panic!()
        };
        assert_eq!(text(source, callee.span), "xor");

        let source = "game g on n {\n  for k in 1..=n if k > 0 { n -= k }\n}";
        let g = game(source);
        assert_eq!(text(source, g.span), source);
        assert_eq!(text(source, g.name.span), "g");
        let rule = &rules_of(&g)[0];
        assert_eq!(
            text(source, rule.span),
            "for k in 1..=n if k > 0 { n -= k }"
        );
        assert_eq!(text(source, rule.binders[0].span), "k in 1..=n");
        assert_eq!(text(source, rule.updates[0].span), "n -= k");
        let source = "game g = graph { a -> b, c ; d }";
        let GameDef::Graph { lines } = game(source).def else {
            panic!()
        };
        assert_eq!(text(source, lines[0].span), "a -> b, c");
        assert_eq!(text(source, lines[1].span), "d");
    }

    #[test]
    fn unfinished() {
        for source in [
            "game g on n {",
            "game g on n {\n  for k in 1..=n { n -= k }\n",
            "game g on n { for k in 1..=n {",
            "grundy nim[3,",
            "let x = 1 +",
            "let x = 1 +\n",
            "let x = 1 + # more to come\n\n",
            "check x > 0 for",
            "check x > 0 for m in",
            "f(1,\n",
            "[1, 2",
            "let",
            "game",
            "game g =",
            "sequence kayles",
            "table wythoff 0..10,",
            "if c then 1",
            "game g = graph { a -> b,",
            "(",
        ] {
            let e = error(source);
            assert!(e.is_unfinished(), "{source:?}: {e:?}");
        }
    }

    fn syntax(source: &str) -> (String, String, String) {
        match error(source) {
            Error::Syntax {
                message,
                span,
                label,
            } => (message, text(source, span).to_string(), label),
            other => panic!("{source:?}: {other:?}"),
        }
    }

    #[test]
    fn syntax_errors() {
        let (message, at, label) = syntax("let = 3");
        assert_eq!((message.as_str(), at.as_str()), ("expected a name", "="));
        assert_eq!(label, "unexpected `=`");
        let (message, at, _) = syntax("game g on n { n -= }");
        assert_eq!(message, "expected a newline, `;`, a rule or `}`");
        assert_eq!(at, "n");
        let (message, at, _) = syntax("game g on n { { n -= } }");
        assert_eq!(message, "expected an expression");
        assert_eq!(at, "}");
        let (message, at, _) = syntax("1 +* 2");
        assert_eq!(
            (message.as_str(), at.as_str()),
            ("expected an expression", "*")
        );
        let (message, _, label) = syntax("f(1 2)");
        assert_eq!(message, "expected `)`, `,`, `(`, `[`, `..` or an operator");
        assert_eq!(label, "unexpected `2`");
        let (message, at, _) = syntax("a..b..c");
        assert_eq!(
            (message.as_str(), at.as_str()),
            ("ranges do not chain", "..")
        );
        assert!(matches!(error("s[1.. ..]"), Error::Syntax { .. }));
        let (message, at, _) = syntax("let if = 3");
        assert_eq!((message.as_str(), at.as_str()), ("expected a name", "if"));
        let (_, at, label) = syntax("let x = 1 +\n2");
        assert_eq!(
            (at.as_str(), label.as_str()),
            ("\n", "unexpected end of line")
        );
        let (message, _, _) = syntax("game g x");
        assert_eq!(message, "expected `(`, `=` or `on`");
        let (message, _, _) = syntax("game g = octal x");
        assert_eq!(message, "expected an octal code");
        let (message, _, _) = syntax("game g on n { n = 1 }");
        assert!(message.starts_with("expected"), "{message}");
        let (message, _, _) = syntax("game g on n { for k in 1..n { n == k } }");
        assert_eq!(message, "expected `=`, `+=`, `-=` or `[`");
        for source in [
            "x = 3",
            "let x == 3",
            "1 2",
            "nim[3])",
            "game g on n { for k 1..n { n -= k } }",
            "game g = graph { a -> }",
            "(1, 2)",
            "\"open",
            "period kayles",
            "a ? b",
        ] {
            assert!(
                matches!(error(source), Error::Syntax { .. }),
                "{source:?}: {:?}",
                error(source)
            );
        }
    }

    #[test]
    fn literals() {
        let source = "let x = 1 + 99999999999999999999";
        let Error::Literal { span } = error(source) else {
            panic!()
        };
        assert_eq!(text(source, span), "99999999999999999999");
        assert!(matches!(
            error("9_223_372_036_854_775_808"),
            Error::Literal { .. }
        ));
        assert_eq!(shape("9_223_372_036_854_775_807"), i64::MAX.to_string());
    }

    #[test]
    fn rendered_errors_show_their_labels() {
        let source = "let x = [1, 2] +* 3\n";
        let out = render(&[error(source)], "test", source, 80, false);
        assert!(out.contains("expected an expression"), "{out}");
        assert!(out.contains("unexpected `*`"), "{out}");

        let source = "game g on n {\n  for k in 1..=n { n -= k }\n\n";
        let err = error(source);
        assert!(err.is_unfinished());
        let out = render(&[err], "test", source, 80, false);
        assert!(out.contains("input ends here"), "{out}");
        assert!(out.contains("expected"), "{out}");

        let source = "let x = 1 +";
        let out = render(&[error(source)], "test", source, 80, false);
        assert!(out.contains("input ends here"), "{out}");

        let source = "let x = 1 +\n2";
        let out = render(&[error(source)], "test", source, 80, false);
        assert!(out.contains("unexpected end of line"), "{out}");

        let source = "99999999999999999999";
        let out = render(&[error(source)], "test", source, 80, false);
        assert!(out.contains("too large"), "{out}");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        for depth in [100, 10_000] {
            let source = format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
            let _ = parse(&source);
            let source = format!("{}1", "-".repeat(depth));
            let _ = parse(&source);
            let source = format!("1{}", "^1".repeat(depth));
            let _ = parse(&source);
        }
    }
}
