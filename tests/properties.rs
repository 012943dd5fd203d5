//! Game laws, property-tested against brute force written independently here: subtraction
//! and octal games by definition, sums searched as whole games, winning moves, misère play.

use std::collections::HashMap;

use proptest::prelude::*;

fn print(source: &str, expr: &str) -> String {
    let program = format!("{source}\nprint {expr}");
    grundy::run_to_string("property", &program)
        .unwrap_or_else(|e| panic!("{program}\n{e}"))
        .lines()
        .last()
        .unwrap()
        .to_string()
}

fn ints(text: &str) -> Vec<u64> {
    text.trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect()
}

fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let values: Vec<u64> = values.into_iter().collect();
    (0..).find(|v| !values.contains(v)).unwrap()
}

fn subtraction_values(set: &[u64], last: u64) -> Vec<u64> {
    let mut g = Vec::new();
    for n in 0..=last {
        g.push(mex(set
            .iter()
            .filter(|&&s| s <= n)
            .map(|&s| g[(n - s) as usize])));
    }
    g
}

/// Octal moves by definition: digit j, bit 1 takes a whole heap of j, bit 2 leaves one heap,
/// bit 4 leaves two non-empty heaps (both orders listed).
fn octal_moves(digits: &[u8], n: u64) -> Vec<Vec<u64>> {
    let mut moves = Vec::new();
    for (j, &d) in digits.iter().enumerate() {
        let j = j as u64;
        if j > n {
            continue;
        }
        let rest = n - j;
        if j > 0 && d & 1 != 0 && rest == 0 {
            moves.push(vec![]);
        }
        if j > 0 && d & 2 != 0 && rest > 0 {
            moves.push(vec![rest]);
        }
        if d & 4 != 0 && rest >= 2 {
            for a in 1..rest {
                moves.push(vec![a, rest - a]);
            }
        }
    }
    moves
}

fn heap_values(moves: &dyn Fn(u64) -> Vec<Vec<u64>>, last: u64) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=last {
        let v = mex(moves(n)
            .iter()
            .map(|m| m.iter().fold(0, |acc, &h| acc ^ g[h as usize])));
        g.push(v);
    }
    g
}

fn kayles_moves(n: u64) -> Vec<Vec<u64>> {
    octal_moves(&[0, 7, 7], n)
}

/// Normal-play value of a whole sum, searched as one game (no XOR used).
fn sum_value(heaps: Vec<u64>, memo: &mut HashMap<Vec<u64>, u64>) -> u64 {
    let mut key = heaps.clone();
    key.sort();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut values = Vec::new();
    for option in sum_options(&key) {
        values.push(sum_value(option, memo));
    }
    let v = mex(values);
    memo.insert(key, v);
    v
}

fn sum_options(heaps: &[u64]) -> Vec<Vec<u64>> {
    let mut options = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        for m in kayles_moves(h) {
            let mut next: Vec<u64> = heaps.to_vec();
            next.remove(i);
            next.extend(m);
            next.sort();
            options.push(next);
        }
    }
    options
}

/// Misère outcome by plain search: with no move the player to move wins.
fn misere_wins(heaps: Vec<u64>, memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key = heaps;
    key.sort();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let options = sum_options(&key);
    let wins = options.is_empty() || options.into_iter().any(|o| !misere_wins(o, memo));
    memo.insert(key, wins);
    wins
}

fn list(xs: &[u64]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn subtraction_games_match_brute_force(set in prop::collection::btree_set(1u64..=9, 1..=4)) {
        let set: Vec<u64> = set.into_iter().collect();
        let expected = subtraction_values(&set, 60);
        let decl = format!(
            "game s = subtraction {{{}}}\ngame r on n {{ for k in {{{}}} if k <= n {{ n -= k }} }}",
            list(&set), list(&set)
        );
        let seq = print(&decl, "[grundy(s[0]), grundy(s[60])]");
        prop_assert_eq!(ints(&seq), vec![expected[0], expected[60]]);
        for n in [1u64, 7, 13, 29, 47, 59] {
            let got = print(&decl, &format!("[grundy(s[{n}]), grundy(r[{n}])]"));
            prop_assert_eq!(ints(&got), vec![expected[n as usize], expected[n as usize]]);
        }
    }

    #[test]
    fn octal_games_match_brute_force(
        first in prop::sample::select(vec![0u8, 4]),
        rest in prop::collection::vec(0u8..=7, 1..=3),
    ) {
        let mut digits = vec![first];
        digits.extend(&rest);
        let code = format!("{first}.{}", rest.iter().map(|d| d.to_string()).collect::<String>());
        let expected = heap_values(&|n| octal_moves(&digits, n), 40);
        let decl = format!("game o = octal {code}");
        let heaps: Vec<String> = (0..=40).map(|n| format!("grundy(o[{n}])")).collect();
        let got = print(&decl, &format!("[{}]", heaps.join(", ")));
        prop_assert_eq!(ints(&got), expected, "octal {}", code);
    }

    #[test]
    fn sum_is_xor_of_components(heaps in prop::collection::vec(0u64..=7, 1..=3)) {
        let mut memo = HashMap::new();
        let expected = sum_value(heaps.clone(), &mut memo);
        let got = print("", &format!("grundy(kayles[{}])", list(&heaps)));
        prop_assert_eq!(got.parse::<u64>().unwrap(), expected);
        let singles: Vec<String> = heaps.iter().map(|h| format!("kayles[{h}]")).collect();
        let got = print("", &format!("grundy({})", singles.join(" + ")));
        prop_assert_eq!(got.parse::<u64>().unwrap(), expected);
    }

    #[test]
    fn winning_moves_are_exactly_the_moves_to_p_positions(heaps in prop::collection::vec(0u64..=7, 1..=3)) {
        let mut memo = HashMap::new();
        let mut key = heaps.clone();
        key.sort();
        let mut expected: Vec<Vec<u64>> = sum_options(&key)
            .into_iter()
            .filter(|o| sum_value(o.clone(), &mut memo) == 0)
            .collect();
        expected.sort();
        expected.dedup();
        let source = format!("let p = kayles[{}]", list(&heaps));
        let count: usize = print(&source, "len(wins(p))").parse().unwrap();
        let mut got = Vec::new();
        for i in 0..count {
            let mut state = ints(&print(&source, &format!("state(wins(p)[{i}])")));
            state.sort();
            got.push(state);
            prop_assert_eq!(print(&source, &format!("outcome(wins(p)[{i}])")), "P");
        }
        got.sort();
        got.dedup();
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn misere_outcomes_match_plain_search(heaps in prop::collection::vec(0u64..=6, 1..=4)) {
        let mut memo = HashMap::new();
        let wins = misere_wins(heaps.clone(), &mut memo);
        let got = print("", &format!("outcome(misere kayles[{}])", list(&heaps)));
        prop_assert_eq!(got, if wins { "N" } else { "P" });
    }
}
