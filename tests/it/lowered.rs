//! Rule games are lowered once and every fast path reads the lowered form: an octal code written
//! as rules, in any of several spellings generated here, has the values, the method and the
//! `period` claim of `octal CODE`; the AST walker (`interpret_only`, the plain method) is the
//! oracle of the values. Also the spellings the issue names, and `:method` / `:time`.

use crate::support::printed;
use crate::support::random::Random;

use grundy::game::method::Proof;
use grundy::game::{Limits, Method};
use grundy::repl::{Backend, Reply};
use grundy::Session;
use proptest::prelude::*;

/// A session that ran `source`.
fn session(source: &str) -> Session {
    let mut session = Session::new(Limits::default());
    let mut out = Vec::new();
    if let Err(e) = session.run("lowered", source, &mut out) {
        panic!("{source}\n{e:?}");
    }
    session
}

/// What `statement` prints in `session`.
fn printed(session: &mut Session, statement: &str) -> String {
    let mut out = Vec::new();
    if let Err(e) = session.run("lowered", statement, &mut out) {
        panic!("{statement}\n{e:?}");
    }
    String::from_utf8(out).unwrap()
}

/// The values of heaps `0..=last`, read from `sequence`.
fn values(session: &mut Session, game: &str, last: u64) -> Vec<u64> {
    printed::sequence_values(&printed(session, &format!("sequence {game} 0..={last}")))
}

/// The claim of `period G`, without the game's name.
fn period_claim(session: &mut Session, game: &str) -> String {
    let text = printed(session, &format!("period {game} up to 65536"));
    text.split_once(": ").unwrap().1.to_string()
}

fn method(session: &mut Session, game: &str) -> Method {
    session
        .method(game)
        .unwrap_or_else(|e| panic!("{game}: {e:?}"))
        .1
}

/// Rules that take `j` tokens and leave no heap (the heap was exactly `j`).
fn none_rule(j: usize, c: &mut Random) -> String {
    match c.below(3) {
        0 => format!("if n == {j} {{ n -= {j} }}"),
        1 => format!("if n <= {j} and {j} <= n {{ n = 0 }}"),
        _ => format!("for k in {{{j}}} if k == n {{ n -= k }}"),
    }
}

/// Rules that take `j` tokens and leave one non-empty heap.
fn one_rule(j: usize, c: &mut Random) -> String {
    match c.below(3) {
        0 => format!("if n > {j} {{ n -= {j} }}"),
        1 => format!("for k in {j}..={j} if k < n {{ n -= k }}"),
        _ => format!("if n >= {j} + 1 {{ n = n - {j} }}"),
    }
}

/// Rules that take `j` tokens and leave what is left, one heap or none.
fn none_or_one_rule(j: usize, c: &mut Random) -> String {
    match c.below(4) {
        0 => format!("for k in {j}..=min({j}, n) {{ n -= k }}"),
        1 => format!("if {j} <= n {{ n -= {j} }}"),
        2 => format!("for k in {{{j}}} if k <= n {{ n -= k }}"),
        _ => format!("for m in 0..=n - {j} if m == n - {j} {{ n = m }}"),
    }
}

/// Rules that take `j` tokens and split the rest into two non-empty heaps.
fn two_rule(j: usize, c: &mut Random) -> String {
    match c.below(5) {
        0 => format!("for a in 1..=(n - {j}) / 2 {{ n = [a, n - {j} - a] }}"),
        1 => format!("for a in 1..n - {j} if a <= n - {j} - a {{ n = [a, n - {j} - a] }}"),
        // Ordered: every unordered pair twice, the same values.
        2 => format!("for a in 1..n - {j} {{ n = [n - {j} - a, a] }}"),
        3 => format!("for t in {j}..={j}, a in 1..=(n - t) / 2 {{ n = [a, n - t - a] }}"),
        _ => format!("for a in 1..=n if 2 * a + {j} <= n {{ n = [a, n - {j} - a] }}"),
    }
}

/// Rules that take `j` tokens and leave nothing, one heap or two (digit 7).
fn seven_rule(j: usize, c: &mut Random) -> String {
    match c.below(3) {
        0 => format!("for a in 0..=(n - {j}) / 2 if {j} <= n {{ n = [a, n - {j} - a] }}"),
        1 => format!("for t in {j}..=min({j}, n), a in 0..=(n - t) / 2 {{ n = [a, n - t - a] }}"),
        _ => format!("for t in {j}..={j}, a in 0..=(n - t) / 2 if t <= n {{ n = [n - t - a, a] }}"),
    }
}

/// The rules of digit `d` for taking `j`, in a spelling `c` chooses.
fn digit_rules(j: usize, d: u8, c: &mut Random) -> Vec<String> {
    let mut rules = Vec::new();
    let whole = d & 3 == 3 && c.below(2) == 0;
    if d == 7 && c.below(2) == 0 {
        return vec![seven_rule(j, c)];
    }
    if whole {
        rules.push(none_or_one_rule(j, c));
    } else {
        if d & 1 != 0 {
            rules.push(none_rule(j, c));
        }
        if d & 2 != 0 {
            rules.push(one_rule(j, c));
        }
    }
    if d & 4 != 0 {
        rules.push(two_rule(j, c));
    }
    rules
}

/// The game `name` with the moves of the octal code `digits`, as rules spelled by `seed`.
fn as_rules(name: &str, digits: &[u8], seed: u64) -> String {
    let mut c = Random(seed | 1);
    let mut rules = Vec::new();
    // Digits of value 3 or 7 sometimes as one rule over a set of takes.
    for d in [3u8, 7] {
        let takes: Vec<usize> = (1..digits.len()).filter(|&j| digits[j] == d).collect();
        if takes.len() >= 2 && c.below(2) == 0 {
            let set = takes
                .iter()
                .map(|j| j.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            rules.push(if d == 3 {
                format!("for t in {{{set}}} if t <= n {{ n -= t }}")
            } else {
                format!(
                    "for t in {{{set}}}, a in 0..=(n - t) / 2 if t <= n {{ n = [a, n - t - a] }}"
                )
            });
        } else {
            for j in takes {
                rules.extend(digit_rules(j, d, &mut c));
            }
        }
    }
    for (j, &d) in digits.iter().enumerate() {
        if d != 3 && d != 7 && (j > 0 || d == 4) && d != 0 {
            rules.extend(digit_rules(j, d, &mut c));
        }
    }
    format!("game {name} on n {{\n    {}\n}}", rules.join("\n    "))
}

fn octal_code() -> impl Strategy<Value = (String, Vec<u8>)> {
    (
        prop::sample::select(vec![0u8, 4]),
        prop::collection::vec(0u8..=7, 1..=3),
    )
        .prop_filter("some move", |(_, rest)| rest.iter().any(|&d| d != 0))
        .prop_map(|(first, rest)| {
            let code = format!(
                "{first}.{}",
                rest.iter().map(|d| d.to_string()).collect::<String>()
            );
            let mut digits = vec![first];
            digits.extend(rest);
            (code, digits)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn octal_codes_as_rules_are_octal_codes((code, digits) in octal_code(), seed in any::<u64>()) {
        let spellings: Vec<String> = (0..3u64)
            .map(|i| as_rules(&format!("r{i}"), &digits, seed.wrapping_add(i * 7919)))
            .collect();
        let source = format!("game o = octal {code}\n{}", spellings.join("\n"));
        let mut s = session(&source);
        let expected = values(&mut s, "o", 300);
        let expected_method = method(&mut s, "o");
        let expected_claim = period_claim(&mut s, "o");
        prop_assert!(matches!(expected_method, Method::HeapSequence { .. }), "{}", expected_method);
        for i in 0..3 {
            let name = format!("r{i}");
            prop_assert_eq!(&values(&mut s, &name, 300), &expected, "{}", source);
            prop_assert_eq!(&method(&mut s, &name), &expected_method, "{}", source);
            prop_assert_eq!(&period_claim(&mut s, &name), &expected_claim, "{}", source);
        }
        // The walker, by the plain method, is the oracle of the values.
        grundy::interpret_only(true);
        let mut walked = session(&source);
        let plain_method = method(&mut walked, "r0");
        let plain = values(&mut walked, "r0", 300);
        grundy::interpret_only(false);
        prop_assert_eq!(plain_method, Method::Search);
        prop_assert_eq!(&plain, &expected, "{}", source);
    }
}

/// Mex by definition, for the brute force below.
fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let values: Vec<u64> = values.into_iter().collect();
    (0..).find(|v| !values.contains(v)).unwrap()
}

#[test]
fn the_spellings_of_the_issue_get_the_fast_methods_and_the_proofs() {
    let mut s = session(
        "game grundy2 on n { for a in 1..=(n - 1) / 2 { n = [a, n - a] } }
         game kayles2 on n { for t in 1..=2, a in 0..=(n - t) / 2 if t <= n { n = [a, n - t - a] } }
         game chess on n {
             if n == 1 { n -= 1 }
             for k in 2..=min(2, n) { n -= k }
             for a in 0..=(n - 3) / 2 if n >= 3 { n = [a, n - 3 - a] }
         }
         game nim2 on n { for m in 0..n { n = m } }
         game nim3 on n { for k in 1..n + 1 { n -= k } }
         game wythoff2 on (a, b) {
             for k in 1..=a { a -= k }
             for k in 1..b + 1 { b -= k }
             for k in 1..=a if k <= b { a -= k; b -= k }
         }",
    );
    assert_eq!(method(&mut s, "grundy2"), method(&mut s, "grundys"));
    assert_eq!(
        method(&mut s, "grundys").to_string(),
        format!(
            "heap sequence: sparse space (no mask chosen yet: every pair; {} kernels), splits; \
             periods apparent only",
            grundy::game::heap::Kernels::detect().name()
        )
    );
    // Grundy's game by definition: split a heap into two unequal heaps.
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=200usize {
        g.push(mex((1..n).filter(|&a| a < n - a).map(|a| g[a] ^ g[n - a])));
    }
    assert_eq!(values(&mut s, "grundy2", 200), g);
    for (rules, octal) in [("kayles2", "kayles"), ("chess", "dawsons_chess")] {
        assert_eq!(method(&mut s, rules), method(&mut s, octal), "{rules}");
        let claim = period_claim(&mut s, rules);
        assert!(
            claim.contains("proved: the periodicity theorem for octal games"),
            "{claim}"
        );
        assert_eq!(claim, period_claim(&mut s, octal));
    }
    assert_eq!(
        method(&mut s, "kayles2").to_string(),
        format!(
            "heap sequence: sparse space (the proved period gives the values; {} kernels), takes \
             and splits; periods proved by Guy–Smith",
            grundy::game::heap::Kernels::detect().name()
        )
    );
    for nim in ["nim2", "nim3"] {
        assert!(matches!(
            method(&mut s, nim),
            Method::HeapSequence {
                proof: Proof::Nim,
                ..
            }
        ));
        assert!(period_claim(&mut s, nim).contains("proved"));
    }
    assert_eq!(method(&mut s, "wythoff2"), Method::LineSweep);
    assert_eq!(method(&mut s, "wythoff"), Method::LineSweep);
    assert_eq!(
        printed(
            &mut s,
            "print grundy(wythoff2[300, 200]) == grundy(wythoff[300, 200])"
        ),
        "true\n"
    );
    assert_eq!(method(&mut s, "xor_nim"), Method::Search);
}

#[test]
fn rules_the_analysis_cannot_prove_keep_the_plain_method() {
    let mut s = session(
        "game modular on n { for k in 1..=n if k % 2 == 1 { n -= k } }
         game either on n { for k in 1..=n if k == 1 or k == 3 { n -= k } }
         game grows on n { for k in 1..=2 { n = n + k } }
         game unsafe on n { for k in 1..=3 { n -= k } }",
    );
    for game in ["modular", "either", "grows", "unsafe"] {
        assert_eq!(method(&mut s, game), Method::Search, "{game}");
    }
    // `unsafe` takes more than there is: the rules' own error, not a value.
    let mut out = Vec::new();
    assert!(s
        .run("lowered", "print grundy(unsafe[2])", &mut out)
        .is_err());
}

fn reply(repl: &mut Backend, line: &str) -> String {
    match repl.feed(line) {
        Reply::Done(answer) => answer.text(),
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn the_repl_says_which_method_runs() {
    let mut repl = Backend::new(Limits::default());
    assert_eq!(
        reply(&mut repl, ":method kayles"),
        format!(
            "kayles: heap sequence: sparse space (no mask chosen yet: every pair; {} kernels), \
             takes and splits; periods proved by Guy–Smith\n",
            grundy::game::heap::Kernels::detect().name()
        )
    );
    assert_eq!(
        reply(&mut repl, ":method bash(3)"),
        "bash(3): heap sequence: takes; periods proved (subtraction game)\n"
    );
    assert_eq!(
        reply(&mut repl, ":method staircase"),
        "staircase: plain memoized search\n"
    );
    assert!(reply(&mut repl, ":method bash").contains("needs parameters"));
    assert!(reply(&mut repl, ":method").contains("usage"));
    assert_eq!(reply(&mut repl, ":time"), "timing on\n");
    let timed = reply(&mut repl, "grundy grundys[300]");
    let lines: Vec<&str> = timed.lines().collect();
    assert!(lines[1].starts_with("time: "), "{timed}");
    assert_eq!(
        lines[2],
        format!(
            "  grundys: heap sequence: sparse space (byte blocks and scan; {} kernels), splits; \
             periods apparent only",
            grundy::game::heap::Kernels::detect().name()
        )
    );
}

/// A two-counter game taking along lines, each rule in a spelling `c` chooses.
fn line_game(lines: &[(u8, u64)], c: &mut Random) -> String {
    let rules: Vec<String> = lines
        .iter()
        .map(|&(d, from)| match (d, c.below(3)) {
            (0, 0) => format!("for k in {from}..=a {{ a -= k }}"),
            (0, 1) => format!("for k in {from}..a + 1 {{ a -= k }}"),
            (0, _) => format!("for k in max({from}, 1)..=a + b if k <= a {{ a = a - k }}"),
            (1, 0) => format!("for k in {from}..=b {{ b -= k }}"),
            (1, 1) => format!("for m in 0..=b - {from} {{ b = m }}"),
            (1, _) => format!("for k in 1..=b if k >= {from} {{ b -= k }}"),
            (_, 0) => format!("for k in {from}..=min(b, a) {{ a -= k; b -= k }}"),
            (_, 1) => format!("for k in {from}..=a if k <= b {{ b -= k; a -= k }}"),
            _ => format!("for k in {from}..=min(a, b + 7) if b >= k {{ a -= k; b -= k }}"),
        })
        .collect();
    format!("game g on (a, b) {{\n    {}\n}}", rules.join("\n    "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn line_games_in_any_spelling_are_swept(
        lines in prop::collection::vec((0u8..=2, 1u64..=3), 1..=4),
        seed in any::<u64>(),
    ) {
        let source = line_game(&lines, &mut Random(seed | 1));
        let table = "table g 0..20, 0..20";
        let mut s = session(&source);
        prop_assert_eq!(method(&mut s, "g"), Method::LineSweep, "{}", source);
        let swept = printed(&mut s, table);
        grundy::interpret_only(true);
        let mut walked = session(&source);
        let plain = printed(&mut walked, table);
        grundy::interpret_only(false);
        prop_assert_eq!(swept, plain, "{}", source);
    }
}
