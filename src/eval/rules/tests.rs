//! The compiled rules against the AST walker: the same options, in the same order, and the
//! same errors, for the prelude's games and for randomly generated rule games.

use std::sync::Arc;

use proptest::prelude::*;

use super::{interpret_only, RuleGame};
use crate::error::Origin;
use crate::eval::value::Value;
use crate::eval::Globals;
use crate::game::vocabulary::Structure;
use crate::game::{Game, SolveError};
use crate::syntax::ast::{GameDecl, StmtKind};

fn decls(source: &str) -> Option<Vec<GameDecl>> {
    let program = crate::syntax::parse(source).ok()?;
    Some(
        program
            .statements
            .into_iter()
            .filter_map(|s| match s.kind {
                StmtKind::Game(decl) => Some(decl),
                _ => None,
            })
            .collect(),
    )
}

fn game(source: &str, decl: GameDecl, params: Vec<Value>, max_elements: usize) -> RuleGame {
    game_with_globals(source, decl, params, Globals::default(), max_elements)
}

fn game_with_globals(
    source: &str,
    decl: GameDecl,
    params: Vec<Value>,
    globals: Globals,
    max_elements: usize,
) -> RuleGame {
    RuleGame::new(
        decl.name.name.clone(),
        Arc::new(decl),
        Arc::new(Origin {
            name: "<test>".into(),
            text: source.into(),
        }),
        params,
        Arc::new(globals),
        &crate::game::Limits {
            max_states: max_elements,
            ..crate::game::Limits::default()
        },
    )
}

type Options = (Vec<Vec<i64>>, Option<SolveError>);

fn options(game: &RuleGame, state: &[i64], interpreted: bool) -> Options {
    interpret_only(interpreted);
    let mut out = Vec::new();
    let result = game.options(state, &mut |o| {
        out.push(o.to_vec());
        std::ops::ControlFlow::Continue(())
    });
    interpret_only(false);
    (out, result.err())
}

fn same(game: &RuleGame, state: &[i64]) -> Result<(), TestCaseError> {
    let interpreted = options(game, state, true);
    let compiled = options(game, state, false);
    prop_assert_eq!(&compiled, &interpreted, "state {:?}", state);
    Ok(())
}

const PRELUDE: &str = include_str!("../../prelude.game");

fn prelude_game(name: &str, params: Vec<Value>) -> RuleGame {
    let decl = decls(PRELUDE)
        .unwrap()
        .into_iter()
        .find(|d| d.name.name == name)
        .unwrap();
    game(PRELUDE, decl, params, 100_000)
}

#[test]
fn the_prelude_rule_games_are_compiled() {
    for (name, params) in [
        ("nim", vec![]),
        ("bash", vec![Value::Int(3)]),
        ("grundys", vec![]),
        ("lasker", vec![]),
        ("wythoff", vec![]),
        ("staircase", vec![]),
        ("xor_nim", vec![]),
        ("moore", vec![Value::Int(2)]),
    ] {
        assert!(prelude_game(name, params).compiled.is_some(), "{name}");
    }
}

/// Chomp as the reference writes it (a loop in its update) and a guard between binders
/// are compiled, and answer as walked.
#[test]
fn loops_and_guards_are_compiled() {
    let source = "game chomp on s[] {
        for i in 0..len(s), k in 0..s[i] if i > 0 or k > 0 {
            for j in i..len(s) { s[j] = min(s[j], k) }
        }
        for i in 0..len(s) if s[i] > 1, k in 1..s[i] { s[i] -= k }
    }";
    let decl = decls(source).and_then(|mut d| d.pop()).expect("parsed");
    let chomp = game(source, decl, vec![], 300);
    assert!(chomp.compiled.is_some());
    for state in [vec![], vec![3, 3, 2], vec![4, 1, 1, 0], vec![1]] {
        same(&chomp, &state).unwrap();
    }
}

/// Whole-state assignments of a list game (literals, `++`, slices, `repeat`, `if`) are
/// compiled, and answer as walked, errors included.
#[test]
fn whole_state_assignments_are_compiled() {
    let source = "game g on s[] {
        if len(s) > 0 and s[0] > 0 { s = [s[0] - 1] ++ s[1..] }
        for i in 0..len(s), k in 0..s[i] { s = s[0..i] ++ [k] ++ repeat(k, len(s) - i - 1) }
        for i in 0..=len(s) { s = (if i > 1 then s[1..=i - 1] else s[i..]) ++ [] }
        for i in 0..3 { s = repeat(1, 299 + i) }
    }";
    let decl = decls(source).and_then(|mut d| d.pop()).expect("parsed");
    let g = game(source, decl, vec![], 300);
    assert!(g.compiled.is_some());
    for state in [vec![], vec![3, 3, 2], vec![4, 1, 1, 0], vec![1]] {
        same(&g, &state).unwrap();
    }
    let (options, error) = options(&g, &[2, 1], false);
    assert!(options.contains(&vec![1, 1]) && options.contains(&vec![2, 0]));
    assert!(error.is_some());
}

/// Functions the random rule games call: one that can fail (a division by zero), one that
/// calls another, one that calls itself (left to the interpreter).
const FUNCTIONS: &str = "let fa(p, q) = if p > q then p - q else q / (p + 1)
let fb(p) = fa(p, 2) * 2 - p
let fc(p) = if p > 0 then fc(p - 1) + 1 else 0
let fd(p, c) = if c then p else -p";

/// The globals `FUNCTIONS` declares, each defined as the interpreter defines it.
fn functions() -> Globals {
    let origin = Arc::new(Origin {
        name: "<functions>".into(),
        text: FUNCTIONS.into(),
    });
    let program = crate::syntax::parse(FUNCTIONS).expect("parsed");
    let mut globals = Globals::default();
    for statement in program.statements {
        if let StmtKind::Function(decl) = statement.kind {
            let value = crate::eval::function::define(&decl, &origin, &globals);
            globals.insert(decl.name.name.clone(), value);
        }
    }
    globals
}

/// Calls of declared functions are compiled in place, and answer as walked, errors included
/// (the function's own, declared where it was); a function that calls itself is not.
#[test]
fn calls_of_functions_are_compiled_in_place() {
    let source = "game g on s[] {
        for i in 0..len(s) if fb(s[i]) > 0 and fd(1, i > 0) > 0 { s[i] = fa(s[i], i) }
        for i in 0..len(s) if i > 0 { s[i] -= fa(-1, s[i]) }
    }";
    let decl = decls(source).and_then(|mut d| d.pop()).expect("parsed");
    let g = game_with_globals(source, decl, vec![], functions(), 300);
    assert!(g.compiled.is_some());
    for state in [vec![], vec![3, 3, 2], vec![4, 1, 1, 0], vec![1], vec![7, 0]] {
        same(&g, &state).unwrap();
    }
    let source = "game r on n { for k in 1..=n if fc(k) == k { n -= k } }";
    let decl = decls(source).and_then(|mut d| d.pop()).expect("parsed");
    assert!(game_with_globals(source, decl, vec![], functions(), 300)
        .compiled
        .is_none());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn prelude_games_compiled_as_interpreted(
        heap in 0i64..40,
        pair in (0i64..12, 0i64..12),
        list in prop::collection::vec(0i64..7, 0..=5),
        k in 0i64..4,
    ) {
        for (name, params) in [("nim", vec![]), ("bash", vec![Value::Int(k)]),
            ("grundys", vec![]), ("lasker", vec![])] {
            same(&prelude_game(name, params), &[heap])?;
        }
        same(&prelude_game("wythoff", vec![]), &[pair.0, pair.1])?;
        for (name, params) in [("staircase", vec![]), ("xor_nim", vec![]),
            ("moore", vec![Value::Int(k)])] {
            same(&prelude_game(name, params), &list)?;
        }
    }
}

/// A small random source of choices.
struct Gen(u64);

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next(items.len() as u64) as usize]
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Heap,
    Tuple,
    List,
}

/// A random integer expression over the integer variables `ints` (and the list `s`).
fn int_expr(g: &mut Gen, ints: &[String], list: bool, depth: u32) -> String {
    let leaf = depth == 0 || g.next(3) == 0;
    if leaf {
        return match g.next(4) {
            0 | 1 if !ints.is_empty() => ints[g.next(ints.len() as u64) as usize].clone(),
            2 if list => g
                .pick(&["len(s)", "xor(s)", "count(s)", "sum(s)", "max(s)"])
                .into(),
            _ => (g.next(7) as i64 - 2).to_string(),
        };
    }
    let a = int_expr(g, ints, list, depth - 1);
    let b = int_expr(g, ints, list, depth - 1);
    match g.next(9) {
        0 if list => format!("s[{a}]"),
        1 => format!("min({a}, {b})"),
        2 => format!("abs({a})"),
        3 => format!("-{a}"),
        4 => format!("(if {} then {a} else {b})", cond(g, ints, list, depth - 1)),
        5 => match g.next(8) {
            0..=2 => format!("fa({a}, {b})"),
            3..=5 => format!("fb({a})"),
            6 => format!("fd({a}, {})", cond(g, ints, list, 0)),
            _ if g.next(4) == 0 => format!("fc(min({a}, 3))"),
            _ => format!("fa({b}, {a})"),
        },
        _ => {
            let op = g.pick(&["+", "-", "*", "/", "%", "^", "+", "-"]);
            format!("({a} {op} {b})")
        }
    }
}

fn cond(g: &mut Gen, ints: &[String], list: bool, depth: u32) -> String {
    let a = int_expr(g, ints, list, depth);
    let b = int_expr(g, ints, list, depth);
    let op = g.pick(&["<", "<=", ">", ">=", "==", "!="]);
    let c = format!("{a} {op} {b}");
    match g.next(5) {
        0 if depth > 0 => format!("{c} and {}", cond(g, ints, list, depth - 1)),
        1 if depth > 0 => format!("{c} or not {}", cond(g, ints, list, depth - 1)),
        _ => c,
    }
}

/// One update of a counter or of the list state, no split.
fn update(g: &mut Gen, shape: Shape, ints: &[String], boxes: &[String]) -> String {
    let list = shape == Shape::List;
    let e = int_expr(g, ints, list, 2);
    let op = g.pick(&["-=", "+=", "="]);
    match shape {
        Shape::Heap => format!("n {op} {e}"),
        Shape::Tuple => format!("{} {op} {e}", g.pick(&["a", "b"])),
        Shape::List => match boxes.last() {
            Some(b) if g.next(2) == 0 => format!("s {} {b}", g.pick(&["-=", "+="])),
            _ if g.next(3) == 0 => format!("s = {}", list_expr(g, ints, boxes, 2)),
            _ => format!("s[{}] {op} {e}", int_expr(g, ints, list, 1)),
        },
    }
}

/// A random list expression (the right side of `s = ...`): the state, a box, literals,
/// `++`, slices, `repeat`, `if`.
fn list_expr(g: &mut Gen, ints: &[String], boxes: &[String], depth: u32) -> String {
    let e = |g: &mut Gen| int_expr(g, ints, true, 1);
    if depth == 0 || g.next(3) == 0 {
        return match g.next(6) {
            0 | 1 => "s".into(),
            2 if !boxes.is_empty() => boxes[g.next(boxes.len() as u64) as usize].clone(),
            2 | 3 => {
                let items: Vec<String> = (0..g.next(3)).map(|_| e(g)).collect();
                format!("[{}]", items.join(", "))
            }
            4 => format!("repeat({}, {})", e(g), e(g)),
            _ => format!("repeat({}, {})", e(g), g.pick(&["299", "300", "301"])),
        };
    }
    let a = list_expr(g, ints, boxes, depth - 1);
    match g.next(5) {
        0 | 1 => format!("{a} ++ {}", list_expr(g, ints, boxes, depth - 1)),
        2 => format!("{a}[{}..]", e(g)),
        3 => format!("{a}[{}{}{}]", e(g), g.pick(&["..", "..="]), e(g)),
        _ => format!(
            "(if {} then {a} else {})",
            cond(g, ints, true, 0),
            list_expr(g, ints, boxes, depth - 1)
        ),
    }
}

/// A loop of updates, `for y in ... [if ...] { ... }`, its bounds read from the state as the
/// updates before it left it; loops nest up to `depth` more levels.
fn update_loop(g: &mut Gen, shape: Shape, ints: &[String], boxes: &[String], depth: u32) -> String {
    let list = shape == Shape::List;
    let mut ints = ints.to_vec();
    let name = format!("y{}", ints.len());
    let lo = int_expr(g, &ints, list, 1);
    let hi = if list && g.next(2) == 0 {
        "len(s)".to_string()
    } else {
        format!("min({}, 4)", int_expr(g, &ints, list, 1))
    };
    let mut binder = format!("{name} in {lo}{}{hi}", g.pick(&["..", "..="]));
    ints.push(name);
    if g.next(3) == 0 {
        binder += &format!(" if {}", cond(g, &ints, list, 1));
    }
    let mut body = Vec::new();
    for _ in 0..1 + g.next(2) {
        if depth > 0 && g.next(3) == 0 {
            body.push(update_loop(g, shape, &ints, boxes, depth - 1));
        } else {
            body.push(update(g, shape, &ints, boxes));
        }
    }
    format!("for {binder} {{ {} }}", body.join("; "))
}

/// A random rule game and a state for it.
fn rule_game(g: &mut Gen) -> (String, Shape) {
    let shape = match g.next(3) {
        0 => Shape::Heap,
        1 => Shape::Tuple,
        _ => Shape::List,
    };
    let (head, state_ints): (&str, Vec<String>) = match shape {
        Shape::Heap => ("on n", vec!["n".into()]),
        Shape::Tuple => ("on (a, b)", vec!["a".into(), "b".into()]),
        Shape::List => (
            if g.next(2) == 0 {
                "on s[]"
            } else {
                "on s[] unordered"
            },
            vec![],
        ),
    };
    let list = shape == Shape::List;
    let mut source = format!("game g(m) {head} {{\n");
    for _ in 0..1 + g.next(3) {
        let mut ints: Vec<String> = state_ints.clone();
        ints.push("m".into());
        let mut binders = Vec::new();
        let mut boxes = Vec::new();
        for k in 0..g.next(3) {
            let name = format!("x{k}");
            let lo = int_expr(g, &ints, list, 1);
            let hi = int_expr(g, &ints, list, 1);
            match g.next(5) {
                0 => binders.push(format!("{name} = {lo}")),
                1 => binders.push(format!("{name} in {{{lo}, {hi}, 1}}")),
                2 if list => {
                    binders.push(format!("{name} in {} s", g.pick(&["0..=", "0..", "1..="])));
                    boxes.push(name.clone());
                    continue;
                }
                _ => {
                    let dots = g.pick(&["..", "..="]);
                    binders.push(format!("{name} in {lo}{dots}min({hi}, 5)"))
                }
            }
            ints.push(name);
            if g.next(3) == 0 {
                // A guard between binders (the last one's is the rule's condition).
                let guard = cond(g, &ints, list, 1);
                if let Some(b) = binders.last_mut() {
                    *b += &format!(" if {guard}");
                }
            }
        }
        let mut conds = Vec::new();
        if g.next(4) == 0 {
            // Before the box's own conjuncts: pruning must not skip its errors.
            conds.push(cond(g, &ints, list, 1));
        }
        if let Some(b) = boxes.last() {
            if g.next(2) == 0 {
                conds.push(format!("count({b}) > 0"));
            }
            conds.push(format!("xor({b}) == 0"));
        }
        if g.next(2) == 0 {
            conds.push(cond(g, &ints, list, 1));
        }
        let mut updates = Vec::new();
        for _ in 0..1 + g.next(2) {
            if g.next(3) == 0 {
                updates.push(update_loop(g, shape, &ints, &boxes, 1));
                continue;
            }
            let e = int_expr(g, &ints, list, 2);
            if shape == Shape::Heap && g.next(3) == 0 {
                updates.clear();
                let f = int_expr(g, &ints, list, 1);
                updates.push(format!("n = [{e}, {f}]"));
                break;
            }
            updates.push(update(g, shape, &ints, &boxes));
        }
        let binders = if binders.is_empty() {
            String::new()
        } else {
            format!("for {} ", binders.join(", "))
        };
        let condition = if conds.is_empty() {
            String::new()
        } else {
            format!("if {} ", conds.join(" and "))
        };
        source += &format!("    {binders}{condition}{{ {} }}\n", updates.join("; "));
    }
    source += "}\n";
    (source, shape)
}

proptest! {
    // The debug run of the unit tests (overflow checks) walks and compiles far slower: fewer
    // games there, all of them in release.
    #![proptest_config(ProptestConfig {
        cases: if cfg!(debug_assertions) { 200 } else { 2000 },
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_rule_games_compiled_as_interpreted(
        seed in 1u64..,
        m in -2i64..5,
        states in prop::collection::vec(prop::collection::vec(0i64..5, 0..=4), 4),
    ) {
        let mut g = Gen(seed);
        let (source, shape) = rule_game(&mut g);
        let Some(mut found) = decls(&source) else {
            return Ok(());
        };
        let Some(decl) = found.pop() else {
            return Ok(());
        };
        let game = game_with_globals(&source, decl, vec![Value::Int(m)], functions(), 300);
        // The same rules with `m` a global the game captured instead of a parameter.
        let global_source = source.replacen("game g(m)", "game g", 1);
        let global_decl = decls(&global_source).and_then(|mut d| d.pop()).expect("parsed");
        let mut globals = functions();
        globals.insert("m".to_string(), Value::Int(m));
        let global_game = game_with_globals(&global_source, global_decl, vec![], globals, 300);
        prop_assert_eq!(game.compiled.is_some(), global_game.compiled.is_some());
        for state in &states {
            let state: Vec<i64> = match shape {
                Shape::Heap => vec![state.first().copied().unwrap_or(3)],
                Shape::Tuple => vec![state.first().copied().unwrap_or(1), state.len() as i64],
                Shape::List => state.clone(),
            };
            let interpreted = options(&game, &state, true);
            let compiled = options(&game, &state, false);
            prop_assert_eq!(&compiled, &interpreted, "{}\nstate {:?}", source, state);
            let (global_options, global_error) = options(&global_game, &state, false);
            prop_assert_eq!(&global_options, &compiled.0, "{}\nstate {:?}", global_source, state);
            prop_assert_eq!(global_error.is_some(), compiled.1.is_some());
        }
    }
}

/// How many random games the compiler handles (not a check of correctness, but a guard
/// against a generator that only exercises the fallback).
#[test]
fn most_random_rule_games_are_compiled() {
    let (mut parsed, mut compiled) = (0, 0);
    let (mut looped, mut looped_compiled) = (0, 0);
    let (mut whole, mut whole_compiled) = (0, 0);
    for seed in 1..500u64 {
        let mut g = Gen(seed * 7919);
        let (source, _) = rule_game(&mut g);
        let Some(decl) = decls(&source).and_then(|mut d| d.pop()) else {
            continue;
        };
        parsed += 1;
        let is = game_with_globals(&source, decl, vec![Value::Int(1)], functions(), 300)
            .compiled
            .is_some() as usize;
        compiled += is;
        if source.contains("for y") {
            looped += 1;
            looped_compiled += is;
        }
        if source.contains("s = ") {
            whole += 1;
            whole_compiled += is;
        }
    }
    assert!(
        looped > 100 && looped_compiled * 10 > looped * 8,
        "{looped_compiled} of {looped} with loops compiled"
    );
    assert!(
        whole > 50 && whole_compiled * 10 > whole * 8,
        "{whole_compiled} of {whole} with whole-state assignments compiled"
    );
    assert!(parsed > 400, "{parsed} parsed");
    assert!(
        compiled * 10 > parsed * 8,
        "{compiled} of {parsed} compiled"
    );
}

/// The heap rules the fast paths read from a game's compiled rules.
fn heap_rules_of(source: &str) -> Option<crate::game::vocabulary::HeapRules> {
    let decl = decls(source).and_then(|mut d| d.pop()).expect("parsed");
    game(source, decl, vec![], 1000).heap_rules()
}

#[test]
fn equivalent_spellings_give_the_same_heap_rules() {
    use crate::game::vocabulary::{HeapRules, Take};
    let split = |unequal| HeapRules {
        takes: vec![Take {
            take: 0,
            none: false,
            one: false,
            two: true,
            three: false,
            unequal,
        }],
        ranges: vec![],
    };
    for (rules, unequal) in [
        ("for a in 1..n if a < n - a { n = [a, n - a] }", true),
        ("for a in 1..=(n - 1) / 2 { n = [a, n - a] }", true),
        ("for a in 1..n if 2 * a < n { n = [n - a, a] }", true),
        ("for a in 1..=n / 2 { n = [a, n - a] }", false),
        ("for a in 1..n { n = [a, n - a] }", false),
        ("for a in 1..n if a <= n - a { n = [a, n - a] }", false),
    ] {
        let source = format!("game g on n {{ {rules} }}");
        assert_eq!(heap_rules_of(&source), Some(split(unequal)), "{rules}");
    }
    let kayles = heap_rules_of(
        "game g on n { for t in 1..=min(2, n), a in 0..=(n - t) / 2 { n = [a, n - t - a] } }",
    );
    for rules in [
        "for t in 1..=2, a in 0..=(n - t) / 2 if t <= n { n = [a, n - t - a] }",
        "for t in {1, 2}, a in 0..=(n - t) / 2 if n >= t { n = [n - t - a, a] }",
        "for t in 1..=min(n, 2), a in 0..=n - t { n = [a, n - t - a] }",
    ] {
        let source = format!("game g on n {{ {rules} }}");
        assert_eq!(heap_rules_of(&source), kayles, "{rules}");
    }
    assert_eq!(
        kayles.unwrap().structure(),
        Structure::Octal {
            digits: vec![0, 7, 7]
        }
    );
    // Not octal-like, or not provably: no heap rules.
    for rules in [
        "for a in 1..n if a != n - a { n = [a, n - a] }",
        "for a in 2..=n / 2 { n = [a, n - a] }",
        "for k in 1..=n { n -= k }\n for a in 0..n { n = [a, a] }",
        "for k in 1..=3 { n -= k }",
    ] {
        let source = format!("game g on n {{ {rules} }}");
        assert_eq!(heap_rules_of(&source), None, "{rules}");
    }
}
