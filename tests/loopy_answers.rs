//! `sequence`, `table`, `ppos`, `moves` and `dot` of loopy games, against generalized Grundy
//! values found by a retrograde labelling written here (Smith; Fraenkel and Yesha).

use std::collections::HashMap;

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
    let mut states: Vec<S> = starts.to_vec();
    let mut seen: HashMap<S, usize> = HashMap::new();
    for (i, s) in states.iter().enumerate() {
        seen.entry(s.clone()).or_insert(i);
    }
    let mut options: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    while next < states.len() {
        let mut these = Vec::new();
        for m in moves(&states[next]) {
            let len = states.len();
            let i = *seen.entry(m.clone()).or_insert(len);
            if i == len {
                states.push(m);
            }
            these.push(i);
        }
        options.push(these);
        next += 1;
    }
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
