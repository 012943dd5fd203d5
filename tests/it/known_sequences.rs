//! Grundy sequences against published values (OEIS A002186, A002187, A002188) and closed forms.

use crate::support::printed;

fn sequence(decls: &str, game: &str, last: usize) -> Vec<u64> {
    let source = format!("{decls}\nsequence {game} 0..={last}");
    let out = grundy::run_to_string("test", &source).unwrap_or_else(|e| panic!("{e}"));
    printed::sequence_values(&out)
}

/// A002186: Kayles, octal .77.
const KAYLES: [u64; 105] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
    4, 1, 2, 8, 1, 4, 7, 2, 1,
];

/// A002187: Dawson's Chess, octal .137; Dawson's Kayles (.07) has values a(n-1).
const DAWSONS_CHESS: [u64; 71] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2,
    7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
    5, 3, 7, 4, 8, 1, 1,
];

/// A002188: Grundy's game.
const GRUNDYS: [u64; 40] = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1,
    2, 4, 1, 2, 4, 1, 2, 4,
];

const KAYLES_RULES: &str = "game kayles_rules on n {
    for t in 1..=min(2, n), a in 0..=(n - t) / 2 { n = [a, n - t - a] }
}";

#[test]
fn kayles_octal_and_rule_form_match_a002186() {
    assert_eq!(sequence("", "kayles", 83), KAYLES[..=83]);
    assert_eq!(sequence(KAYLES_RULES, "kayles_rules", 83), KAYLES[..=83]);
    assert_eq!(sequence("game k = octal 0.77", "k", 104), KAYLES);
}

#[test]
fn dawsons_kayles_and_chess_match_a002187() {
    let dawson = sequence("", "dawson", 69);
    assert_eq!(dawson[0], 0);
    assert_eq!(dawson[1..], DAWSONS_CHESS[..69]);
    assert_eq!(sequence("", "dawsons_chess", 70), DAWSONS_CHESS);
}

#[test]
fn grundys_game_matches_a002188() {
    assert_eq!(sequence("", "grundys", 39), GRUNDYS);
}

#[test]
fn subtraction_134_has_period_7() {
    let values = sequence("game s = subtraction {1, 3, 4}", "s", 100);
    let period = [0, 1, 0, 1, 2, 3, 2];
    for (n, v) in values.iter().enumerate() {
        assert_eq!(*v, period[n % 7], "heap {n}");
    }
}

#[test]
fn laskers_nim_closed_form() {
    for (n, v) in sequence("", "lasker", 200).into_iter().enumerate() {
        let n = n as u64;
        let expected = match n % 4 {
            0 if n > 0 => n - 1,
            3 => n + 1,
            _ => n,
        };
        assert_eq!(v, expected, "heap {n}");
    }
}

#[test]
fn nim_bash_and_subtraction_forms() {
    let nim: Vec<u64> = (0..=60).collect();
    assert_eq!(sequence("", "nim", 60), nim);
    assert_eq!(sequence("game anynim = subtraction 1..", "anynim", 60), nim);
    let bash4: Vec<u64> = (0..=60).map(|n| n % 5).collect();
    assert_eq!(
        sequence("game bash4 = subtraction 1..=4", "bash4", 60),
        bash4
    );
    assert_eq!(sequence("", "bash(4)", 60), bash4);
}

#[test]
fn wythoff_corner() {
    let out = grundy::run_to_string("test", "table wythoff 0..4, 0..4").unwrap();
    let rows: Vec<Vec<u64>> = out
        .lines()
        .skip(2)
        .map(|l| {
            l.split('|')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            vec![0, 1, 2, 3],
            vec![1, 2, 0, 4],
            vec![2, 0, 1, 5],
            vec![3, 4, 5, 6],
        ]
    );
}
