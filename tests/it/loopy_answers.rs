//! `sequence`, `table`, `ppos`, `moves` and `dot` of loopy games, against generalized Grundy
//! values found by a retrograde labelling written here (Smith; Fraenkel and Yesha).

use std::collections::HashMap;

use crate::support::reach;
use reach::reachable;

const GAMES: &str = "game bounce on n { if n > 0 { n -= 1 }; if n == 1 { n += 1 } }\n\
    game hop on (a, b) { if a > 0 { a -= 1 }; if b > 0 { b -= 1 }; if a == 1 { a += 1 } }\n\
    game back on n { for k in 1..=n { n -= k }; if n < 3 { n += 1 } }\n";

/// A generalized value: `Some(v)` finite, `None` infinite.
type Label = Option<u64>;

/// Labels every state reachable from `starts`: for i = 0, 1, ...: a state is labelled i while
/// no option has i and every option that is unlabelled or infinite has an option labelled i;
/// then every unlabelled state with no option labelled i is infinite.
fn labels<S: Clone + Eq + std::hash::Hash>(
    starts: &[S],
    moves: impl Fn(&S) -> Vec<S>,
) -> HashMap<S, Label> {
    let (states, options) = reachable(starts, moves);
    // 0: unlabelled; 1: finite (value in `value`); 2: infinite.
    let mut kind = vec![0u8; states.len()];
    let mut value = vec![0u64; states.len()];
    let mut i = 0;
    while kind.contains(&0) {
        loop {
            let mut changed = false;
            for u in 0..states.len() {
                if kind[u] != 0 {
                    continue;
                }
                let has_i = |v: usize| kind[v] == 1 && value[v] == i;
                let ok = options[u].iter().all(|&v| !has_i(v))
                    && options[u]
                        .iter()
                        .filter(|&&v| kind[v] != 1)
                        .all(|&v| options[v].iter().any(|&w| has_i(w)));
                if ok {
                    kind[u] = 1;
                    value[u] = i;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for u in 0..states.len() {
            if kind[u] == 0 && !options[u].iter().any(|&v| kind[v] == 1 && value[v] == i) {
                kind[u] = 2;
            }
        }
        i += 1;
    }
    states
        .into_iter()
        .enumerate()
        .map(|(u, s)| (s, (kind[u] == 1).then_some(value[u])))
        .collect()
}

fn bounce(n: &i64) -> Vec<i64> {
    let mut out = Vec::new();
    if *n > 0 {
        out.push(n - 1);
    }
    if *n == 1 {
        out.push(n + 1);
    }
    out
}

fn hop(&(a, b): &(i64, i64)) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    if a > 0 {
        out.push((a - 1, b));
    }
    if b > 0 {
        out.push((a, b - 1));
    }
    if a == 1 {
        out.push((a + 1, b));
    }
    out
}

fn back(n: &i64) -> Vec<i64> {
    let mut out: Vec<i64> = (1..=*n).map(|k| n - k).collect();
    if *n < 3 {
        out.push(n + 1);
    }
    out
}

fn run(statement: &str) -> String {
    grundy::run_to_string("loopy.game", &format!("{GAMES}{statement}"))
        .unwrap_or_else(|e| panic!("{statement}: {e}"))
}

/// The numbers after `separator` on each row of an answer, in order, after its `head` lines.
fn row_values(text: &str, head: usize, separator: char) -> Vec<u64> {
    text.lines()
        .skip(head)
        .filter_map(|line| line.split_once(separator))
        .flat_map(|(_, values)| values.split_whitespace().map(|v| v.parse().unwrap()))
        .collect()
}

#[test]
fn a_sequence_of_a_loopy_game_is_its_generalized_values() {
    let starts: Vec<i64> = (0..=30).collect();
    let truth = labels(&starts, bounce);
    let expected: Vec<u64> = starts.iter().map(|n| truth[n].unwrap()).collect();
    assert_eq!(row_values(&run("sequence bounce 0..=30"), 1, ':'), expected);
}

#[test]
fn a_table_and_ppos_of_a_loopy_game_are_its_generalized_values() {
    let starts: Vec<(i64, i64)> = (0..8).flat_map(|a| (0..8).map(move |b| (a, b))).collect();
    let truth = labels(&starts, hop);
    let expected: Vec<u64> = starts.iter().map(|s| truth[s].unwrap()).collect();
    assert_eq!(row_values(&run("table hop 0..8, 0..8"), 2, '|'), expected);
    let p_positions = starts.iter().filter(|s| truth[s] == Some(0)).count();
    let ppos = run("ppos hop 0..8, 0..8");
    assert!(
        ppos.starts_with(&format!("{p_positions} P-positions of hop")),
        "{ppos}"
    );
}

#[test]
fn ppos_of_a_loopy_game_leaves_out_the_infinite_cells() {
    let starts: Vec<i64> = (0..10).collect();
    let truth = labels(&starts, back);
    assert!(
        truth.values().all(Option::is_none),
        "back is a draw everywhere"
    );
    let text = grundy::run_to_string(
        "loopy.game",
        &format!("{GAMES}game backs on (a, b) {{ for k in 1..=a {{ a -= k }}; if a < 3 {{ a += 1 }} }}\nppos backs 0..4, 0..2"),
    )
    .unwrap();
    assert!(text.starts_with("0 P-positions of backs"), "{text}");
}

#[test]
fn moves_of_an_infinite_position_say_so_instead_of_a_mex() {
    let truth = labels(&[2], back);
    assert_eq!(truth[&2], None);
    insta::assert_snapshot!(run("moves back[2]\nmoves bounce[2]"));
}

#[test]
fn dot_of_a_loopy_game_labels_infinite_values() {
    insta::assert_snapshot!(run("dot back[1]"));
}

/// A heap game with infinite values that have finite options: heaps 1 and 2 move to each other
/// (a draw), a heap of 3 or more may take 3 or 4; and a game of two counters whose first is
/// such a heap, and whose second may go down by 1.
const ESCAPE: &str = "game esc on n { if n == 1 { n += 1 }; if n == 2 { n -= 1 }; \
    if n >= 3 { n -= 3 }; if n >= 4 { n -= 4 } }\n\
    game hop2 on (a, b) { if a == 1 { a += 1 }; if a == 2 { a -= 1 }; if a >= 3 { a -= 3 }; \
    if a >= 4 { a -= 4 }; if b > 0 { b -= 1 } }\n";

fn esc(n: &i64) -> Vec<i64> {
    let mut out = Vec::new();
    match n {
        1 => out.push(2),
        2 => out.push(1),
        _ => {}
    }
    out.extend([3, 4].iter().filter(|&&t| *n >= t).map(|t| n - t));
    out
}

fn hop2(&(a, b): &(i64, i64)) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    match a {
        1 => out.push((2, b)),
        2 => out.push((1, b)),
        _ => {}
    }
    out.extend([3, 4].iter().filter(|&&t| a >= t).map(|t| (a - t, b)));
    if b > 0 {
        out.push((a, b - 1));
    }
    out
}

/// Each state's generalized value as the CSV of a result writes it: the value, or for an
/// infinite one `"inf{K}"` with K the finite values of its options.
fn csv_values<S: Clone + Eq + std::hash::Hash>(
    states: &[S],
    moves: impl Fn(&S) -> Vec<S>,
) -> Vec<String> {
    let truth = labels(states, &moves);
    states
        .iter()
        .map(|s| match truth[s] {
            Some(v) => v.to_string(),
            None => {
                let mut k: Vec<u64> = moves(s).iter().filter_map(|o| truth[o]).collect();
                k.sort_unstable();
                k.dedup();
                let k: Vec<String> = k.iter().map(u64::to_string).collect();
                format!("\"inf{{{}}}\"", k.join(","))
            }
        })
        .collect()
}

fn run_escape(statements: &str) -> String {
    grundy::run_to_string("escape.game", &format!("{ESCAPE}{statements}"))
        .unwrap_or_else(|e| panic!("{statements}: {e}"))
}

fn scratch(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn infinite_values_in_a_sequence_are_shown_and_saved() {
    let heaps: Vec<i64> = (0..=40).collect();
    let expected = csv_values(&heaps, esc);
    assert!(expected.iter().any(|v| v == "\"inf{0}\""), "{expected:?}");
    let csv = scratch("esc.csv");
    let json = scratch("esc.json");
    run_escape(&format!(
        "sequence esc 0..=40 to {:?}\nsequence esc 0..=6 to {:?}",
        csv.display().to_string(),
        json.display().to_string()
    ));
    let saved = std::fs::read_to_string(&csv).unwrap();
    let mut lines = saved.lines();
    assert_eq!(lines.next(), Some("n,value"));
    let rows: Vec<String> = lines.map(str::to_string).collect();
    let wanted: Vec<String> = (heaps.iter().zip(&expected))
        .map(|(n, v)| format!("{n},{v}"))
        .collect();
    assert_eq!(rows, wanted);
    // JSON: records of the heap and its value, a number or {"infinite": [K]}.
    let json_values: Vec<String> = expected[..7]
        .iter()
        .map(|v| match v.strip_prefix("\"inf{") {
            Some(k) => format!("{{\"infinite\":[{}]}}", k.trim_end_matches("}\"")),
            None => v.clone(),
        })
        .collect();
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let records = saved.as_array().expect("an array of records");
    let read: Vec<String> = records.iter().map(|r| r["value"].to_string()).collect();
    assert_eq!(read, json_values);
    let heaps: Vec<i64> = records.iter().map(|r| r["n"].as_i64().unwrap()).collect();
    assert_eq!(heaps, (0..=6).collect::<Vec<_>>());
    // The printed layout: every value in a column of the same width.
    insta::assert_snapshot!(run_escape("sequence esc 0..=25"));
}

#[test]
fn infinite_values_in_a_table_are_shown_and_saved() {
    let cells: Vec<(i64, i64)> = (0..10).flat_map(|a| (0..6).map(move |b| (a, b))).collect();
    let expected = csv_values(&cells, hop2);
    let csv = scratch("hop2.csv");
    run_escape(&format!(
        "table hop2 0..10, 0..6 to {:?}",
        csv.display().to_string()
    ));
    let saved = std::fs::read_to_string(&csv).unwrap();
    let wanted: Vec<String> = (cells.iter().zip(&expected))
        .map(|((a, b), v)| format!("{a},{b},{v}"))
        .collect();
    assert_eq!(saved.lines().skip(1).collect::<Vec<_>>(), wanted);
    let p_positions = expected.iter().filter(|v| *v == "0").count();
    let ppos = run_escape("ppos hop2 0..10, 0..6");
    assert!(
        ppos.starts_with(&format!("{p_positions} P-positions of hop2")),
        "{ppos}"
    );
    insta::assert_snapshot!(run_escape("table hop2 0..8, 0..4"));
}

/// The shortest exact period of `values` by the definition, with the rule of an apparent
/// period (held over at least 3 periods and 12 values, and more than the preperiod plus 3
/// periods).
fn apparent_period(values: &[String]) -> Option<(usize, usize)> {
    let len = values.len();
    (1..=len / 3).find_map(|p| {
        let mut n0 = len - p;
        while n0 > 0 && values[n0 - 1] == values[n0 - 1 + p] {
            n0 -= 1;
        }
        let stretch = len - n0;
        (stretch >= 3 * p.max(4) && stretch > n0 + 3 * p).then_some((n0, p))
    })
}

#[test]
fn period_of_a_loopy_game_is_the_apparent_period_of_its_generalized_values() {
    let heaps: Vec<i64> = (0..64).collect();
    let (n0, p) = apparent_period(&csv_values(&heaps, esc)).unwrap();
    let answer = run_escape("period esc");
    assert_eq!(
        answer.trim_end(),
        format!(
            "esc: preperiod {n0}, period {p} (apparent, not proved: the generalized values of a \
             loopy game, which no theorem covers; seen on heaps 0..64)"
        )
    );
    // A game whose values settle only late: the window grows until a period shows.
    let late = "game late on n { for k in 1..=min(n, 5) { n -= k }; if n % 7 == 3 { n += 2 }; \
                if n % 11 == 5 { n += 1 } }\nperiod late";
    let moves = |n: &i64| {
        let mut out: Vec<i64> = (1..=(*n).min(5)).map(|k| n - k).collect();
        if n % 7 == 3 {
            out.push(n + 2);
        }
        if n % 11 == 5 {
            out.push(n + 1);
        }
        out
    };
    let heaps: Vec<i64> = (0..64).collect();
    let (n0, p) = apparent_period(&csv_values(&heaps, moves)).unwrap();
    let answer = grundy::run_to_string("late.game", late).unwrap();
    assert!(
        answer.starts_with(&format!("late: preperiod {n0}, period {p} (apparent")),
        "{answer}"
    );
}

#[test]
fn period_of_a_loopy_game_that_splits_heaps_says_why_it_has_none() {
    let text = grundy::run_to_string(
        "split.game",
        "game s on n { if n >= 2 { n = [1, n - 1] }; if n == 1 { n += 1 } }\nperiod s",
    )
    .unwrap_err();
    assert!(text.contains("grundy::"), "{text}");
    insta::assert_snapshot!(text);
}
