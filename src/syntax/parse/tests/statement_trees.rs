//! Tests of the parser, continued: statements and their errors.

use super::*;

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
            ..
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
