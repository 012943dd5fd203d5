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

/// What `f` gives with rule games on the AST walker (and so the plain method) only.
fn walked<T>(f: impl FnOnce() -> T) -> T {
    grundy::interpret_only(true);
    let out = f();
    grundy::interpret_only(false);
    out
}

/// The lines of `sequence G 0..=last` after its header.
fn sequence(source: &str, game: &str, last: u64) -> Vec<String> {
    let program = format!("{source}\nsequence {game} 0..={last}");
    let out =
        grundy::run_to_string("property", &program).unwrap_or_else(|e| panic!("{program}\n{e}"));
    let lines: Vec<String> = out.lines().map(String::from).collect();
    let start = lines.iter().rposition(|l| l.starts_with(game)).unwrap();
    lines[start + 1..].to_vec()
}

/// A random heap game in rule form, in shapes the interpreter recognises (and computes by the
/// engine's fast methods); the AST walker (`interpret_only`), which computes by the plain
/// method, is the oracle.
#[derive(Debug, Clone)]
struct RuleHeap {
    set: Vec<u64>,
    open: Option<u64>,
    /// `for k in lo..=min(hi, n)`: long ones are ranges to the engine, short ones single takes.
    range: Option<(u64, u64)>,
    take_split: Option<(u64, u64, u8)>,
    split: Option<bool>,
}

impl RuleHeap {
    fn source(&self, name: &str) -> String {
        let mut rules = Vec::new();
        if !self.set.is_empty() {
            rules.push(format!(
                "for k in {{{}}} if k <= n {{ n -= k }}",
                list(&self.set)
            ));
        }
        if let Some(lo) = self.open {
            rules.push(format!("for k in {lo}..=n {{ n -= k }}"));
        }
        if let Some((lo, hi)) = self.range {
            rules.push(format!("for k in {lo}..=min({hi}, n) {{ n -= k }}"));
        }
        if let Some((lo, hi, a)) = self.take_split {
            rules.push(format!(
                "for t in {lo}..=min({hi}, n), a in {a}..=(n - t) / 2 {{ n = [a, n - t - a] }}"
            ));
        }
        match self.split {
            Some(true) => rules.push("for a in 1..n if a < n - a { n = [a, n - a] }".to_string()),
            Some(false) => rules.push("for a in 1..=n / 2 { n = [a, n - a] }".to_string()),
            None => {}
        }
        if rules.is_empty() {
            rules.push("for k in 1..=min(1, n) { n -= k }".to_string());
        }
        format!("game {name} on n {{\n    {}\n}}", rules.join("\n    "))
    }
}

fn rule_heap() -> impl Strategy<Value = RuleHeap> {
    (
        prop::collection::btree_set(1u64..=6, 0..=3),
        prop::option::weighted(0.2, 1u64..=3),
        prop::option::weighted(0.3, (1u64..=5, 25u64..=45)),
        prop::option::weighted(0.6, (0u64..=2, 0u64..=3, 0u8..=1)),
        prop::option::weighted(0.4, any::<bool>()),
    )
        .prop_map(|(set, open, range, take_split, split)| RuleHeap {
            set: set.into_iter().collect(),
            open,
            range: range.map(|(lo, span)| (lo, lo + span)),
            // Taking nothing and leaving the heap whole is a move to itself.
            take_split: take_split.map(|(lo, hi, a)| {
                let lo = if a == 0 { lo.max(1) } else { lo };
                (lo, lo + hi, a)
            }),
            split,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn octal_games_match_brute_force_on_long_sequences(
        first in prop::sample::select(vec![0u8, 4]),
        rest in prop::collection::vec(0u8..=7, 1..=3),
    ) {
        let mut digits = vec![first];
        digits.extend(&rest);
        let code = format!("{first}.{}", rest.iter().map(|d| d.to_string()).collect::<String>());
        let expected = heap_values(&|n| octal_moves(&digits, n), 400);
        let got: Vec<u64> = sequence(&format!("game o = octal {code}"), "o", 400)
            .iter()
            .flat_map(|l| l.split(':').nth(1).unwrap().split_whitespace().map(|v| v.parse::<u64>().unwrap()).collect::<Vec<_>>())
            .collect();
        prop_assert_eq!(got, expected, "octal {}", code);
    }

    #[test]
    fn recognised_rule_games_match_the_plain_method(game in rule_heap()) {
        let source = game.source("g");
        let fast = sequence(&source, "g", 300);
        let plain = walked(|| sequence(&source, "g", 300));
        prop_assert_eq!(fast, plain, "{}", source);
    }
}

#[test]
fn rule_form_heap_games_reach_large_heaps() {
    // By the plain method these would take hours; recognised, they take a moment.
    let source = "
        game kayles_rules on n {
            for t in 1..=min(2, n), a in 0..=(n - t) / 2 { n = [a, n - t - a] }
        }
        assert grundy(kayles_rules[1000000]) == grundy(kayles[1000000])
        assert grundy(kayles_rules[10^18]) == grundy(kayles[10^18])
        print grundy(grundys[100000])
        assert grundy(nim[10^6]) == 10^6
        assert grundy(bash(5)[10^6]) == 10^6 % 6
    ";
    grundy::run_to_string("large", source).unwrap_or_else(|e| panic!("{e}"));
}

/// A two-counter game whose rules take along lines, in a recognised shape: the sweep and the
/// plain search (on the AST walker) must agree.
fn line_game(lines: &[(u8, u64)]) -> String {
    let rules: Vec<String> = lines
        .iter()
        .map(|&(d, from)| match d {
            0 => format!("for k in {from}..=a {{ a -= k }}"),
            1 => format!("for k in {from}..=b {{ b -= k }}"),
            _ => format!("for k in {from}..=min(b, a) {{ a -= k; b -= k }}"),
        })
        .collect();
    format!("game g on (a, b) {{\n    {}\n}}", rules.join("\n    "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn line_games_match_the_plain_method(
        lines in prop::collection::vec((0u8..=2, 1u64..=3), 1..=4),
        rows in 1u64..=25,
        cols in 1u64..=25,
    ) {
        let program = format!("{}\ntable g 0..{rows}, 0..{cols}", line_game(&lines));
        let table = || {
            grundy::run_to_string("lines", &program).unwrap_or_else(|e| panic!("{program}\n{e}"))
        };
        prop_assert_eq!(table(), walked(table), "{}", program);
    }
}

/// The Grundy value of a Chomp board, given as a set of cells (bit `8 r + c` for row `r` and
/// column `c`), by definition: a move eats a cell other than the poisoned corner and every cell
/// at or beyond it in both directions.
fn chomp_value(board: u64, memo: &mut HashMap<u64, u64>) -> u64 {
    if let Some(&v) = memo.get(&board) {
        return v;
    }
    let mut values = Vec::new();
    for cell in 1..64 {
        if board >> cell & 1 == 0 {
            continue;
        }
        let (r, c) = (cell / 8, cell % 8);
        let mut eaten = 0u64;
        for r2 in r..8 {
            for c2 in c..8 {
                eaten |= 1 << (r2 * 8 + c2);
            }
        }
        values.push(chomp_value(board & !eaten, memo));
    }
    let v = mex(values);
    memo.insert(board, v);
    v
}

/// Every non-increasing list of at most `rows` lengths, each at most `cols`.
fn chomp_boards(rows: usize, cols: u64) -> Vec<Vec<u64>> {
    let mut boards = vec![vec![]];
    let mut last = vec![vec![]];
    for _ in 0..rows {
        let mut next = Vec::new();
        for board in &last {
            let top = board.last().copied().unwrap_or(cols);
            for x in 0..=top {
                let mut b: Vec<u64> = board.clone();
                b.push(x);
                next.push(b);
            }
        }
        boards.extend(next.iter().cloned());
        last = next;
    }
    boards
}

#[test]
fn chomp_as_the_reference_writes_it_matches_a_brute_force() {
    const CHOMP: &str = "game chomp on s[] {
    for i in 0..len(s), k in 0..s[i] if i > 0 or k > 0 {
        for j in i..len(s) { s[j] = min(s[j], k) }
    }
}";
    let boards = chomp_boards(5, 6);
    let mut program = String::from(CHOMP);
    for board in &boards {
        program.push_str(&format!("\nprint grundy(chomp[{}])", list(board)));
    }
    let out = grundy::run_to_string("chomp", &program).unwrap_or_else(|e| panic!("{e}"));
    let printed: Vec<u64> = out.lines().map(|l| l.trim().parse().unwrap()).collect();
    let mut memo = HashMap::new();
    let expected: Vec<u64> = boards
        .iter()
        .map(|rows| {
            let mut board = 0u64;
            for (r, &len) in rows.iter().enumerate() {
                for c in 0..len {
                    board |= 1 << (r * 8 + c as usize);
                }
            }
            chomp_value(board, &mut memo)
        })
        .collect();
    assert_eq!(printed, expected);
    // Not only zeros and ones: the values reach past 1.
    assert!(expected.iter().any(|&v| v > 3));
}
