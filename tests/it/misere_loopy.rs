//! Misère play of loopy games: `outcome` and `win` of misère loopy positions and sums against a
//! retrograde analysis written here (a sum with no move is won by the player to move), and the
//! refusals of their misère values and genus.

use std::collections::HashMap;

use crate::support::reach;
use reach::reachable;

use proptest::prelude::*;

/// The misère outcome ('N', 'P' or 'D') of every sum reachable from `start`: a sum is N when it
/// has no move or a move to a P sum, P when every move leads to an N sum, and D otherwise. Found
/// by rounds over all the sums until nothing changes.
fn misere_outcomes<S: Clone + Eq + std::hash::Hash>(
    start: S,
    moves: impl Fn(&S) -> Vec<S>,
) -> HashMap<S, char> {
    let (states, options) = reachable(&[start], moves);
    let mut label = vec!['?'; states.len()];
    loop {
        let mut changed = false;
        for u in 0..states.len() {
            if label[u] != '?' {
                continue;
            }
            let o = &options[u];
            let new = if o.is_empty() || o.iter().any(|&v| label[v] == 'P') {
                'N'
            } else if o.iter().all(|&v| label[v] == 'N') {
                'P'
            } else {
                continue;
            };
            label[u] = new;
            changed = true;
        }
        if !changed {
            break;
        }
    }
    states
        .into_iter()
        .zip(label)
        .map(|(s, l)| (s, if l == '?' { 'D' } else { l }))
        .collect()
}

/// The sums of tokens on a graph: sorted token lists; a move plays one token along an edge.
fn token_moves(edges: &[Vec<usize>]) -> impl Fn(&Vec<usize>) -> Vec<Vec<usize>> + '_ {
    move |tokens| {
        let mut out = Vec::new();
        for (i, &t) in tokens.iter().enumerate() {
            for &to in &edges[t] {
                let mut next = tokens.clone();
                next[i] = to;
                next.sort_unstable();
                out.push(next);
            }
        }
        out
    }
}

fn run(program: &str) -> String {
    grundy::run_to_string("misere_loopy.game", program).unwrap_or_else(|e| panic!("{program}\n{e}"))
}

/// A graph game over nodes `v0`, `v1`, ... with these edges, declared as `g`.
fn graph_game(edges: &[Vec<usize>]) -> String {
    let nodes: Vec<String> = edges
        .iter()
        .enumerate()
        .map(|(from, to)| {
            let to: Vec<String> = to.iter().map(|t| format!("v{t}")).collect();
            if to.is_empty() {
                format!("v{from}")
            } else {
                format!("v{from} -> {}", to.join(", "))
            }
        })
        .collect();
    format!("game g = graph {{ {} }}\n", nodes.join("; "))
}

#[test]
fn a_two_cycle_with_an_exit_is_drawn_under_misere_play() {
    // a -> b -> a, and b -> c: under misère play c (no move) is won by the player to move, so
    // moving there from b loses; from b the only other move returns to a, whose only move is
    // back to b: neither player can force a win from a or b.
    let program = "game g = graph { a -> b; b -> a, c }\n\
        print [outcome(misere g[a]), outcome(misere g[b]), outcome(misere g[c])]\n\
        print [outcome(g[a]), outcome(g[b]), outcome(g[c])]\n\
        win misere g[b]";
    let out = run(program);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], r#"["D", "D", "N"]"#);
    assert_eq!(lines[1], r#"["P", "N", "P"]"#);
    assert!(lines[2].contains("draw"), "{out}");
}

#[test]
fn a_cycle_with_a_losing_exit_has_a_winning_move() {
    // a -> b, c; b -> a; c -> d: d is N (no move), so c is P, a is N (move to c) and b is P.
    let program = "game g = graph { a -> b, c; b -> a; c -> d }\n\
        print [outcome(misere g[a]), outcome(misere g[b]), outcome(misere g[c]), outcome(misere g[d])]\n\
        print len(wins(misere g[a]))\n\
        win misere g[b]";
    let out = run(program);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], r#"["N", "P", "P", "N"]"#);
    // Both moves from a leave a P position (b and c).
    assert_eq!(lines[1], "2");
    assert!(lines[2].contains("P-position"), "{out}");
}

#[test]
fn misere_sums_of_a_loopy_rule_game_follow_retrograde_analysis() {
    let bounce = |n: &i64| {
        let mut out = Vec::new();
        if *n > 0 {
            out.push(n - 1);
        }
        if *n == 1 {
            out.push(n + 1);
        }
        out
    };
    let sum_moves = |heaps: &Vec<i64>| {
        let mut out = Vec::new();
        for (i, h) in heaps.iter().enumerate() {
            for to in bounce(h) {
                let mut next = heaps.clone();
                next[i] = to;
                next.sort_unstable();
                out.push(next);
            }
        }
        out
    };
    let game = "game bounce on n { if n > 0 { n -= 1 }; if n == 1 { n += 1 } }\n";
    for a in 0..=5i64 {
        for b in a..=5 {
            let truth = misere_outcomes(vec![a, b], sum_moves)[&vec![a, b]];
            let out = run(&format!("{game}outcome misere bounce[{a}] + bounce[{b}]"));
            assert_eq!(out.trim(), truth.to_string(), "bounce[{a}] + bounce[{b}]");
        }
    }
}

#[test]
fn misere_values_and_genus_of_a_loop_are_refused_and_its_outcome_is_answered() {
    let game = "game g = graph { a -> b; b -> a }\n";
    for (statement, code) in [
        ("grundy misere g[a]", "grundy::misere_loopy_value"),
        ("moves misere g[a]", "grundy::misere_loopy_value"),
        ("genus g[a]", "grundy::loopy_genus"),
        ("genus misere g[a, b]", "grundy::loopy_genus"),
    ] {
        let err = grundy::run_to_string("t", &format!("{game}{statement}")).unwrap_err();
        assert!(err.contains(code), "{statement}: {err}");
    }
    assert_eq!(run(&format!("{game}outcome misere g[a]")).trim(), "D");
}

fn graphs() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (2usize..=6).prop_flat_map(|n| {
        proptest::collection::vec(proptest::collection::btree_set(0..n, 0..=3), n)
            .prop_map(|sets| sets.into_iter().map(|s| s.into_iter().collect()).collect())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// `outcome(misere g[...])` of sums of up to three tokens, and how many winning moves they
    /// have, against the retrograde analysis of the sum's graph written here.
    #[test]
    fn misere_outcomes_of_token_sums_on_random_graphs(
        edges in graphs(),
        tokens in proptest::collection::vec(0usize..6, 1..=3),
    ) {
        let n = edges.len();
        let mut tokens: Vec<usize> = tokens.into_iter().map(|t| t % n).collect();
        tokens.sort_unstable();
        let moves = token_moves(&edges);
        let truth = misere_outcomes(tokens.clone(), &moves);
        let winning = moves(&tokens).iter().filter(|m| truth[*m] == 'P').count();
        let names: Vec<String> = tokens.iter().map(|t| format!("v{t}")).collect();
        let position = format!("misere g[{}]", names.join(", "));
        let out = run(&format!(
            "{}print outcome({position})\nprint len(wins({position}))",
            graph_game(&edges)
        ));
        let lines: Vec<&str> = out.lines().collect();
        prop_assert_eq!(lines[0], truth[&tokens].to_string());
        prop_assert_eq!(lines[1], winning.to_string());
    }
}

/// A loop met in a mixed misère sum marks only the game that loops: Kayles keeps its quotient,
/// so 200,000 heaps of 1 are still answered under a state limit of 200,000 (the least that holds
/// the list), below the 200,001 sums a retrograde analysis would list. Truths: the brute force above for the mixed sum; for k heaps
/// of 1, the sum with no heap is N and each heap more flips P and N (its only move removes one).
#[test]
fn a_loop_in_a_mixed_sum_leaves_the_quotient_of_the_game_that_does_not_loop() {
    let edges = vec![vec![1], vec![0]];
    let mixed_moves = |(pins, node): &(u8, usize)| {
        let mut out: Vec<(u8, usize)> = edges[*node].iter().map(|&to| (*pins, to)).collect();
        if *pins == 1 {
            out.push((0, *node));
        }
        out
    };
    let mixed = misere_outcomes((1u8, 0usize), mixed_moves)[&(1, 0)];
    let k = 200_000;
    let mut ones = 'N';
    for _ in 0..k {
        ones = if ones == 'P' { 'N' } else { 'P' };
    }
    let program = format!(
        "{}outcome misere kayles[1] + g[v0]\noutcome misere kayles[repeat(1, {k})]",
        graph_game(&edges)
    );
    let limits = grundy::game::Limits {
        max_states: k,
        ..grundy::game::Limits::default()
    };
    let out = grundy::run_to_string_with("misere_loopy.game", &program, limits)
        .unwrap_or_else(|e| panic!("{program}\n{e}"));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, [mixed.to_string(), ones.to_string()]);
}
