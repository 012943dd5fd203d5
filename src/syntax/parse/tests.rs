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

#[test]
fn family_games() {
    for code in ["0.07", "4.07", "0.137", ".07", "0.", "7", "0.08"] {
        let source = format!("game dawson = octal {code}");
        let GameDef::Octal {
            code: got,
            hex: false,
            span,
        } = game(&source).def
        else {
            panic!()
        };
        assert_eq!(got, code);
        assert_eq!(text(&source, span), code);
    }
    for code in ["0.3F", "0.8", "C.1", "0.3f", "0.3G"] {
        let source = format!("game g = hex {code}");
        let GameDef::Octal {
            code: got,
            hex: true,
            ..
        } = game(&source).def
        else {
            panic!("{code}")
        };
        assert_eq!(got, code);
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
    assert_eq!(syntax("let if = 3").2, "`if` is a reserved word");
    assert_eq!(syntax("game in on n {}").2, "`in` is a reserved word");
    assert_eq!(syntax("let x = then").2, "`then` is a reserved word");
    assert_eq!(syntax("let x = 1 then").2, "unexpected `then`");
    let (_, at, label) = syntax("let x = 1\n+ 2");
    assert_eq!((at.as_str(), label.as_str()), ("+", "unexpected `+`"));
    let (_, at, label) = syntax("game g on n {\n  for k in 1..=n\n  { n -= k }\n}");
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
        "plot sequence kayles 0..10 to 3",
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
fn strings() {
    assert_eq!(shape(r#""N""#), r#""N""#);
    assert_eq!(shape(r#""a\"b\\c\nd""#), r#""a\"b\\c\nd""#);
    assert_eq!(shape(r#""""#), r#""""#);
    for (source, message, at) in [
        (r#"print "open"#, "unterminated string", r#""open"#),
        ("print \"open\nprint 1", "unterminated string", "\"open"),
        (
            r#"print "ends in \""#,
            "unterminated string",
            r#""ends in \""#,
        ),
        (r#"print "a\qb""#, "unknown escape in a string", r#"\q"#),
    ] {
        let (got, got_at, _) = syntax(source);
        assert_eq!((got.as_str(), got_at.as_str()), (message, at), "{source}");
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
fn unfinished_points_at_the_last_token() {
    for (source, last) in [
        ("let x = 1 +", "+"),
        ("let x = 1 + # comment\n\n  # more\n", "+"),
        ("print \"a#b\" +  ", "+"),
        ("print \"a\\\"#b\" + # \"c\"", "+"),
        ("game g on n {\r\n", "{"),
        ("f(x,", ","),
    ] {
        let Error::Unfinished { span, .. } = error(source) else {
            panic!("{source:?}")
        };
        assert_eq!(text(source, span), last, "{source:?}");
    }
}

#[test]
fn names_may_start_with_keywords() {
    assert_eq!(
        shape("android or notes and index != order + inx - letx * iffy"),
        "(or android (and notes (!= index (- (+ order inx) (* letx iffy)))))"
    );
    assert_eq!(
        shape("xor_nim[1] + misere_nim + trueish + gamer + online"),
        "(+ (+ (+ (+ (index xor_nim 1) misere_nim) trueish) gamer) online)"
    );
    assert_eq!(
        shape("grundy_value + tables + checks + winner"),
        "(+ (+ (+ grundy_value tables) checks) winner)"
    );
    for word in [
        "and",
        "or",
        "not",
        "xor",
        "if",
        "then",
        "else",
        "for",
        "in",
        "let",
        "game",
        "on",
        "unordered",
        "misere",
        "true",
        "false",
    ] {
        assert!(parse(&format!("let {word} = 1")).is_err(), "{word}");
    }
    for word in [
        "grundy",
        "outcome",
        "moves",
        "win",
        "sequence",
        "table",
        "ppos",
        "check",
        "assert",
        "print",
        "octal",
        "hex",
        "subtraction",
        "graph",
    ] {
        assert!(
            parse(&format!("let {word} = 1\nprint {word} + 1")).is_ok(),
            "{word}"
        );
    }
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

    let source = "let x = [1, 2]\nprint x +\n\n";
    let out = render(&[error(source)], "test", source, 80, false);
    assert!(out.contains("input ends here"), "{out}");

    let source = "game g on n {\n  for k in 1..=n\n  { n -= k }\n}";
    let out = render(&[error(source)], "test", source, 80, false);
    assert!(out.contains("unexpected end of line"), "{out}");

    let source = "99999999999999999999";
    let out = render(&[error(source)], "test", source, 80, false);
    assert!(out.contains("too large"), "{out}");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let parens = |depth| format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
    let lists = |depth| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let negs = |depth| format!("{}1", "-".repeat(depth));
    let powers = |depth| format!("1{}", "^1".repeat(depth));
    let sums = |depth| format!("1{}", "+1".repeat(depth));
    for build in [parens, lists, negs, powers, sums] {
        assert!(parse(&build(MAX_DEPTH - 10)).is_ok());
        for depth in [MAX_DEPTH + 10, 100_000] {
            match error(&build(depth)) {
                Error::Syntax { message, .. } => assert!(message.contains("deep"), "{message}"),
                other => panic!("{other:?}"),
            }
        }
    }
}

proptest::proptest! {
    #[test]
    fn any_token_soup_parses_or_fails_cleanly(
        tokens in proptest::collection::vec(
            proptest::sample::select(vec![
                "game", "g", "on", "n", "s[]", "(a, b)", "unordered", "{", "}", "(", ")", "[", "]",
                "for", "k", "in", "=", "+=", "-=", "if", "then", "else", "..", "..=", "+", "-",
                "*", "^", "xor", "not", "misere", "and", "or", "==", "<", "1", "99999999999999999999",
                ",", ";", "\n", "# c\n", "\"s\"", "\"", "grundy", "sequence", "table", "check",
                "octal", "0.07", "subtraction", "graph", "->", "let", "print", "é",
            ]),
            0..40,
        )
    ) {
        let source = tokens.join(" ");
        let within = |span: Span| {
            let (start, end) = (span.start as usize, span.end as usize);
            start <= end && end <= source.len()
                && source.is_char_boundary(start) && source.is_char_boundary(end)
        };
        match parse(&source) {
            Ok(program) => {
                for stmt in &program.statements {
                    proptest::prop_assert!(within(stmt.span));
                }
            }
            Err(Error::Syntax { span, .. } | Error::Unfinished { span, .. } | Error::Literal { span }) => {
                proptest::prop_assert!(within(span), "{source:?}: {span:?}");
                let _ = render(&[parse(&source).unwrap_err()], "test", &source, 80, false);
            }
            Err(other) => proptest::prop_assert!(false, "{other:?}"),
        }
    }
}

#[test]
fn misere_sequence_and_genus_statements() {
    let StmtKind::Sequence {
        game,
        range,
        misere: true,
        ..
    } = one("sequence misere kayles 0..=20")
    else {
        panic!()
    };
    assert_eq!(
        (sx(&game), sx(&range)),
        ("kayles".into(), "(..= 0 20)".into())
    );
    let StmtKind::Sequence { game, .. } = one("sequence misere_nim 0..=20") else {
        panic!()
    };
    assert_eq!(sx(&game), "misere_nim");
    let StmtKind::Genus { target, range } = one("genus bash(3) 0..=20") else {
        panic!()
    };
    assert_eq!(sx(&target), "(call bash 3)");
    assert_eq!(range.map(|r| sx(&r)).as_deref(), Some("(..= 0 20)"));
    for (source, shape) in [
        ("genus kayles[3]", "(index kayles 3)"),
        (
            "genus kayles[3] + kayles[4]",
            "(+ (index kayles 3) (index kayles 4))",
        ),
        ("genus misere nim[2, 3]", "(misere (index nim 2 3))"),
    ] {
        let StmtKind::Genus { target, range } = one(source) else {
            panic!("{source}")
        };
        assert_eq!((sx(&target).as_str(), range), (shape, None), "{source}");
    }
    assert!(parse("let genus = 1\nprint genus + 1").is_ok());
    let StmtKind::Table {
        game, misere: true, ..
    } = one("table misere wythoff 0..10, 0..10")
    else {
        panic!()
    };
    assert_eq!(sx(&game), "wythoff");
    let StmtKind::Ppos { misere: true, .. } = one("ppos misere moore(2) 0..=9, 0..=9") else {
        panic!()
    };
    let StmtKind::Table { misere: false, .. } = one("table misere_game 0..3, 0..3") else {
        panic!()
    };
}
