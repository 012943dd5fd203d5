//! Tests of the parser: tree shapes, every statement form, spans and errors.

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
        ExprKind::Comprehension { body, binders } => {
            let binders: Vec<String> = binders.iter().map(sx_binder).collect();
            format!("(for {} {})", sx(body), binders.join(" "))
        }
    }
}

fn sx_binder(b: &Binder) -> String {
    let kind = if b.kind == BinderKind::In { "in" } else { "=" };
    let guard = b.guard.as_ref().map(|g| format!(" if {}", sx(g)));
    format!(
        "({} {kind} {}{})",
        b.name.name,
        sx(&b.value),
        guard.unwrap_or_default()
    )
}

#[test]
fn comprehensions_guards_and_concatenation() {
    assert_eq!(
        sx(&expr_of("[a * b for a in 0..3 if a > 0, b = 6 / a]")),
        "(for (* a b) (a in (.. 0 3) if (> a 0)) (b = (/ 6 a)))"
    );
    assert_eq!(
        sx(&expr_of("[[x] for x in s if x > 1]")),
        "(for [x] (x in s if (> x 1)))"
    );
    assert_eq!(sx(&expr_of("[1, 2]")), "[1 2]");
    assert_eq!(sx(&expr_of("a ++ b + c ++ d")), "(++ (++ a (+ b c)) d)");
}

#[test]
fn sequences_and_tables_of_expressions_and_their_files() {
    let StmtKind::SequenceOf {
        value,
        axis,
        output,
    } = one("sequence grundy(kayles[n]) + 1 for n in 0..=9 to \"k.csv\"")
    else {
        panic!("not a sequence of an expression");
    };
    assert_eq!(sx(&value), "(+ (call grundy (index kayles n)) 1)");
    assert_eq!(axis.name.name, "n");
    assert_eq!(sx(&axis.range), "(..= 0 9)");
    assert_eq!(output.unwrap().path, "k.csv");
    let StmtKind::TableOf {
        rows, cols, ppos, ..
    } = one("ppos nim[a, b] for a in 0..3, b in 0..4")
    else {
        panic!("not a table of an expression");
    };
    assert!(ppos);
    assert_eq!(
        (rows.name.name.as_str(), cols.name.name.as_str()),
        ("a", "b")
    );
    let StmtKind::Sequence { output, .. } = one("sequence kayles 0..=9 to \"k.json\"") else {
        panic!("not a sequence");
    };
    assert_eq!(output.unwrap().path, "k.json");
}

#[test]
fn periods_and_plots_of_expressions() {
    let StmtKind::PeriodOf { value, axis } = one("period n % 3 for n in 0..=30") else {
        panic!("not a period of an expression");
    };
    assert_eq!(
        (sx(&value).as_str(), axis.name.name.as_str()),
        ("(% n 3)", "n")
    );
    assert!(matches!(one("period kayles"), StmtKind::Period { .. }));
    let StmtKind::Plot { plot, file, .. } = one("plot sequence n * 2 for n in 0..9 to \"f.png\"")
    else {
        panic!("not a plot");
    };
    assert!(matches!(plot, Plot::SequenceOf { .. }));
    assert_eq!(file, "f.png");
    let StmtKind::Plot { plot, .. } = one("plot table a + b for a in 0..3, b in 0..4 to \"t.png\"")
    else {
        panic!("not a plot");
    };
    let Plot::TableOf { rows, cols, .. } = plot else {
        panic!("not a table of an expression");
    };
    assert_eq!(
        (rows.name.name.as_str(), cols.name.name.as_str()),
        ("a", "b")
    );
    let StmtKind::Plot { plot, .. } = one("plot sequence kayles 0..=9 to \"k.png\"") else {
        panic!("not a plot");
    };
    assert!(matches!(plot, Plot::Sequence { .. }));
}

#[test]
fn loops_of_updates_are_steps() {
    let StmtKind::Game(decl) =
        one("game c on s[] { for i in 0..len(s) { for j in i..len(s) { s[j] = 0 }; s[i] += 1 } }")
    else {
        panic!("not a game");
    };
    let GameDef::Rules { rules, .. } = &decl.def else {
        panic!("not rules");
    };
    let rule = &rules[0];
    assert_eq!(rule.binders[0].name.name, "i");
    assert!(rule.updates.is_empty());
    let [Step::Loop { binders, body, .. }, Step::Update(_)] = rule.steps.as_slice() else {
        panic!("a loop, then an update: {:?}", rule.steps);
    };
    assert_eq!(binders[0].name.name, "j");
    assert!(matches!(body.as_slice(), [Step::Update(_)]));
    let StmtKind::Game(decl) = one("game d on n { for k in 1..=n { n -= k } }") else {
        panic!("not a game");
    };
    let GameDef::Rules { rules, .. } = &decl.def else {
        panic!("not rules");
    };
    assert_eq!(rules[0].updates.len(), 1);
    assert!(rules[0].steps.is_empty());
    let mut nested = "s[0] = 0".to_string();
    for _ in 0..17 {
        nested = format!("for i in 0..1 {{ {nested} }}");
    }
    let error = parse(&format!("game e on s[] {{ {{ {nested} }} }}")).unwrap_err();
    assert!(matches!(error, Error::Syntax { .. }), "{error:?}");
}

#[test]
fn functions_are_declared_with_let() {
    let StmtKind::Function(f) = one("let g(a, b) = a + b") else {
        panic!("not a function");
    };
    assert_eq!(f.name.name, "g");
    let params: Vec<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(params, ["a", "b"]);
    assert_eq!(sx(&f.body), "(+ a b)");
    assert!(matches!(one("let g = 3"), StmtKind::Let { .. }));
}

#[test]
fn a_guard_on_the_last_binder_of_a_rule_is_its_condition() {
    let StmtKind::Game(decl) =
        one("game g on n { for b in 1..3 if b > 1, k in 1..=n if k < b { n -= k } }")
    else {
        panic!("not a game");
    };
    let GameDef::Rules { rules, .. } = &decl.def else {
        panic!("not rules");
    };
    let rule = &rules[0];
    assert_eq!(sx(&rule.binders[0].guard.clone().unwrap()), "(> b 1)");
    assert!(rule.binders[1].guard.is_none());
    assert_eq!(sx(rule.condition.as_ref().unwrap()), "(< k b)");
}

#[test]
fn nested_comprehensions_are_bounded_in_depth() {
    let mut source = "x".to_string();
    for _ in 0..300 {
        source = format!("[{source} for x in [1]]");
    }
    let error = parse(&source).unwrap_err();
    assert!(matches!(error, Error::Syntax { .. }), "{error:?}");
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
fn statements_go_on_after_an_operator() {
    assert_eq!(shape("1 +\n  2 *   # more\n\n  3"), "(+ 1 (* 2 3))");
    assert_eq!(shape("a and\n b or\n c"), "(or (and a b) c)");
    assert_eq!(
        shape("p ==\n  (if c\n   then 1\n   else 2)"),
        "(== p (if c 1 2))"
    );
    assert_eq!(stmts("let a = 1..\nlet b = 2").len(), 2);
    assert_eq!(stmts("x\n- 1").len(), 2);
    let source = "check x == y\n    for x in 1..3,\n        y in [x]\nprint 1";
    let all = stmts(source);
    assert_eq!(all.len(), 2);
    let StmtKind::Check { binders, .. } = &all[0] else {
        panic!("{all:?}")
    };
    assert_eq!(binders.len(), 2);
    assert!(error("check x > 0\n").is_unfinished());
    assert!(error("let x = 1 +\n").is_unfinished());
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

    let StmtKind::Sequence { game, range, .. } = one("sequence kayles 0..=83") else {
        panic!()
    };
    assert_eq!(
        (sx(&game), sx(&range)),
        ("kayles".into(), "(..= 0 83)".into())
    );
    let StmtKind::Sequence { game, range, .. } = one("sequence bash(3)[0] 1..") else {
        panic!()
    };
    assert_eq!(sx(&game), "(index (call bash 3) 0)");
    assert_eq!(sx(&range), "(.. 1)");

    let StmtKind::Table {
        game, rows, cols, ..
    } = one("table wythoff 0..10, 0..10")
    else {
        panic!()
    };
    assert_eq!(sx(&game), "wythoff");
    assert_eq!(
        (sx(&rows), sx(&cols)),
        ("(.. 0 10)".into(), "(.. 0 10)".into())
    );
    let StmtKind::Ppos {
        game, rows, cols, ..
    } = one("ppos moore(2) 0..=20, 0..=n")
    else {
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

    let g = game(
        "game kayles on n { for t in 1..=min(2, n), a in 0..=(n - t) / 2 { n = [a, n - t - a] } }",
    );
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
    assert!(matches!(&g.def, GameDef::Rules { state: StateShape::List(s), .. } if s.name == "s"));
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
    assert!(matches!(&g.def, GameDef::Rules { state: StateShape::Tuple(v), .. } if v.len() == 2));
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

mod statement_trees;

#[test]
fn period_up_to_a_bound() {
    let StmtKind::Period { bound, .. } = one("period kayles up to 2^20") else {
        panic!("not a period");
    };
    assert!(bound.is_some());
    let StmtKind::Period { bound, .. } = one("period kayles") else {
        panic!("not a period");
    };
    assert!(bound.is_none());
}
