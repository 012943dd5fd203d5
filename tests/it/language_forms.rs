//! The forms for exploring (functions, comprehensions, guards between binders, `++`, `repeat`,
//! ranges spread in positions), property-tested against the same computation written out here
//! in Rust: loops for comprehensions, recursion for functions, brute-force Grundy values for
//! games whose rules use them.

use proptest::prelude::*;

/// What the last line of `source` then `print EXPR` prints.
fn print(source: &str, expr: &str) -> String {
    let program = format!("{source}\nprint {expr}");
    grundy::run_to_string("forms", &program)
        .unwrap_or_else(|e| panic!("{program}\n{e}"))
        .lines()
        .last()
        .unwrap()
        .to_string()
}

fn list(xs: &[i64]) -> String {
    let shown: Vec<String> = xs.iter().map(i64::to_string).collect();
    format!("[{}]", shown.join(", "))
}

fn mex(values: &[u64]) -> u64 {
    (0..).find(|v| !values.contains(v)).unwrap()
}

/// Grundy values of heaps 0..=last for a game given by its moves (heap to heaps left).
fn heap_values(moves: impl Fn(u64) -> Vec<u64>, last: u64) -> Vec<u64> {
    let mut values: Vec<u64> = Vec::new();
    for n in 0..=last {
        let options: Vec<u64> = moves(n).iter().map(|&m| values[m as usize]).collect();
        values.push(mex(&options));
    }
    values
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn comprehensions_match_loops_written_out(
        rows in 0i64..6, cols in 0i64..5, k in 1i64..20, m in 1i64..4, r in 0i64..4
    ) {
        let source = format!(
            "[a * {k} + b for a in 0..{rows} if a % {m} != {r}, b in 0..({cols} + a) if (a + b) % 2 == 0]"
        );
        let mut expected = Vec::new();
        for a in 0..rows {
            if a % m == r {
                continue;
            }
            for b in 0..cols + a {
                if (a + b) % 2 == 0 {
                    expected.push(a * k + b);
                }
            }
        }
        prop_assert_eq!(print("", &source), list(&expected));
    }

    #[test]
    fn a_let_binder_with_a_guard_filters(xs in prop::collection::vec(-5i64..5, 0..8)) {
        let source = format!("[y for x in {}, y = x * x if y > 3]", list(&xs));
        let expected: Vec<i64> = xs.iter().map(|x| x * x).filter(|&y| y > 3).collect();
        prop_assert_eq!(print("", &source), list(&expected));
    }

    #[test]
    fn concatenation_and_repeat_match_vectors(
        xs in prop::collection::vec(0i64..9, 0..5),
        ys in prop::collection::vec(0i64..9, 0..5),
        x in 0i64..9,
        k in 0usize..5,
    ) {
        let source = format!("{} ++ repeat({x}, {k}) ++ {}", list(&xs), list(&ys));
        let mut expected = xs.clone();
        expected.extend(std::iter::repeat_n(x, k));
        expected.extend(&ys);
        prop_assert_eq!(print("", &source), list(&expected));
    }

    #[test]
    fn a_range_in_position_brackets_is_spread(lo in 0i64..20, len in 0i64..12, extra in 0i64..9) {
        let hi = lo + len;
        let expected = (lo..=hi).fold(extra, |acc, n| acc ^ n);
        let source = format!("grundy(nim[{lo}..={hi}, {extra}])");
        prop_assert_eq!(print("", &source), expected.to_string());
    }

    #[test]
    fn recursive_functions_match_rust_recursion(n in 0i64..25, a in 1i64..200, b in 1i64..200) {
        let source = "let fib(n) = if n < 2 then n else (fib(n - 1) + fib(n - 2)) % 1000
let gcd(a, b) = if b == 0 then a else gcd(b, a % b)";
        let mut fib = vec![0i64, 1];
        for i in 2..=25 {
            fib.push((fib[i - 1] + fib[i - 2]) % 1000);
        }
        let gcd = |mut a: i64, mut b: i64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        prop_assert_eq!(
            print(source, &format!("[fib({n}), gcd({a}, {b})]")),
            list(&[fib[n as usize], gcd(a, b)])
        );
    }

    /// A guard between binders (the second binder divides by the first) and a function called
    /// by the rules, against the moves written out.
    #[test]
    fn rules_with_guards_and_functions_match_brute_force(skip in 1u64..=4, modulus in 2u64..=5) {
        let source = format!(
            "let allowed(k) = k % {modulus} != 0
game g on n {{ for b in 0..=4 if b != {skip} and b > 0, k in 1..=n / b if allowed(k) {{ n -= k * b }} }}"
        );
        let moves = |n: u64| {
            let mut left = Vec::new();
            for b in (1..=4).filter(|&b| b != skip) {
                for k in (1..=n / b).filter(|k| k % modulus != 0) {
                    left.push(n - k * b);
                }
            }
            left
        };
        let expected: Vec<i64> = heap_values(moves, 30).iter().map(|&v| v as i64).collect();
        prop_assert_eq!(print(&source, "[grundy(g[n]) for n in 0..=30]"), list(&expected));
    }
}

#[test]
fn a_game_keeps_the_functions_it_calls() {
    let source = "let step(n) = 1
game g on n { for k in 1..=min(step(n), n) { n -= k } }
let step(n) = 2";
    // The game takes exactly 1 token: a later `step` does not change it.
    let take_one = |n: u64| if n > 0 { vec![n - 1] } else { Vec::new() };
    let expected: Vec<i64> = heap_values(take_one, 5).iter().map(|&v| v as i64).collect();
    assert_eq!(
        print(source, "[grundy(g[n]) for n in 0..6]"),
        list(&expected)
    );
}

#[test]
fn deep_recursion_is_an_error_not_a_crash() {
    let program =
        "let down(n) = if n == 0 then 0 else down(n - 1) + 1\nprint down(9999)\nprint down(10000)";
    let out = grundy::run_to_string("forms", program).unwrap_err();
    assert!(out.starts_with("9999\n"), "{out}");
    assert!(out.contains("grundy::recursion"), "{out}");
    // A deeply nested body: fewer calls, still an error and not a stack overflow.
    let mut body = "f(n - 1)".to_string();
    for _ in 0..200 {
        body = format!("(0 + {body})");
    }
    let program = format!("let f(n) = if n == 0 then 0 else {body}\nprint f(100000)");
    let out = grundy::run_to_string("forms", &program).unwrap_err();
    assert!(out.contains("grundy::recursion"), "{out}");
}

#[test]
fn deep_recursion_on_a_worker_thread_is_an_error() {
    // A large `check` may run its cases on the sweep's workers, whose stacks are smaller.
    let program = "let down(n) = if n == 0 then 0 else down(n - 1) + 1
check down(2000 + n % 7) == 2000 + n % 7 for n in 0..300";
    let out = grundy::run_to_string("forms", program).unwrap();
    assert_eq!(out.trim(), "check: 300 cases held");
}

/// Every integer of a file, in order.
fn integers(text: &str) -> Vec<i64> {
    text.split(|c: char| !c.is_ascii_digit() && c != '-')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Results written to `.csv`, `.json` and `.txt`, read back, hold the values computed
    /// here: `a * k + b` over the two ranges, and the cells where it is 0 for `ppos`.
    #[test]
    fn files_written_then_read_back(rows in 1i64..6, cols in 1i64..6, k in -3i64..4) {
        let dir = tempfile::tempdir().unwrap();
        let path = |name: &str| dir.path().join(name).display().to_string();
        let value = format!("a * {k} + b - 2");
        let program = format!(
            "sequence n * {k} for n in 0..{rows} to \"{}\"\n\
             table {value} for a in 0..{rows}, b in 0..{cols} to \"{}\"\n\
             table {value} for a in 0..{rows}, b in 0..{cols} to \"{}\"\n\
             ppos {value} for a in 0..{rows}, b in 0..{cols} to \"{}\"",
            path("s.csv"), path("t.csv"), path("t.json"), path("p.txt"),
        );
        let limits = grundy::game::Limits {
            root: grundy::files::Root::folder(dir.path().to_path_buf()),
            ..grundy::game::Limits::default()
        };
        let printed = grundy::run_to_string_with("forms", &program, limits).unwrap();
        let read = |name: &str| std::fs::read_to_string(path(name)).unwrap();
        let cell = |a: i64, b: i64| a * k + b - 2;

        let sequence = read("s.csv");
        prop_assert_eq!(sequence.lines().next(), Some("n,value"));
        let expected: Vec<i64> = (0..rows).flat_map(|n| [n, n * k]).collect();
        prop_assert_eq!(integers(&sequence), expected);

        let table = read("t.csv");
        prop_assert_eq!(table.lines().next(), Some("a,b,value"));
        let mut expected = Vec::new();
        for a in 0..rows {
            for b in 0..cols {
                expected.extend([a, b, cell(a, b)]);
            }
        }
        prop_assert_eq!(integers(&table), expected.clone());

        // JSON: one record a cell, as the CSV's rows.
        let json = read("t.json");
        let records: serde_json::Value = serde_json::from_str(&json).unwrap();
        let cells: Vec<i64> = records
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| ["a", "b", "value"].map(|key| r[key].as_i64().unwrap()))
            .collect();
        prop_assert_eq!(cells, expected);

        // Each file is said in one line, and a `.txt` file is the answer as printed without `to`.
        prop_assert_eq!(printed.lines().count(), 4, "{}", printed);
        prop_assert!(printed.lines().all(|line| line.starts_with("wrote ")), "{}", printed);
        let text = read("p.txt");
        let shown = grundy::run_to_string(
            "forms",
            &format!("ppos {value} for a in 0..{rows}, b in 0..{cols}"),
        )
        .unwrap();
        prop_assert_eq!(&text, &shown);
        let zeros: Vec<i64> = (0..rows)
            .flat_map(|a| (0..cols).map(move |b| (a, b)))
            .filter(|&(a, b)| cell(a, b) == 0)
            .flat_map(|(a, b)| [a, b])
            .collect();
        // A header line, then the pairs in lines below it when there are any.
        let listed = text.split_once('\n').map_or("", |(_, pairs)| pairs);
        prop_assert_eq!(integers(listed), zeros);
    }
}

/// Grundy values of Chomp by brute force: rows of lengths `s` (non-increasing), a move eats the
/// cell (i, k) and every cell at or beyond it in both directions; the cell (0, 0) is poisoned.
fn chomp_value(s: Vec<u64>, memo: &mut std::collections::HashMap<Vec<u64>, u64>) -> u64 {
    if let Some(&v) = memo.get(&s) {
        return v;
    }
    let mut options = Vec::new();
    for i in 0..s.len() {
        for k in 0..s[i] {
            if i == 0 && k == 0 {
                continue;
            }
            let mut t = s.clone();
            for row in t.iter_mut().skip(i) {
                *row = (*row).min(k);
            }
            options.push(chomp_value(t, memo));
        }
    }
    let v = mex(&options);
    memo.insert(s, v);
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// General Chomp, written with a loop inside its update, on three rows.
    #[test]
    fn chomp_on_three_rows_matches_brute_force(a in 0u64..=5, b in 0u64..=5, c in 0u64..=5) {
        let mut rows = [a, b, c];
        rows.sort_unstable_by(|x, y| y.cmp(x));
        let source = "game chomp on s[] {
    for i in 0..len(s), k in 0..s[i] if i > 0 or k > 0 { for j in i..len(s) { s[j] = min(s[j], k) } }
}";
        let expr = format!("grundy(chomp[{}, {}, {}])", rows[0], rows[1], rows[2]);
        let expected = chomp_value(rows.to_vec(), &mut Default::default());
        prop_assert_eq!(print(source, &expr), expected.to_string());
    }

    /// A whole-state assignment against the same move written with indexed updates.
    #[test]
    fn whole_state_assignment_matches_indexed_updates(s in prop::collection::vec(0i64..4, 1..4)) {
        let whole = "game whole on s[] { for i in 0..len(s) if s[i] > 0 { s = s[0..i] ++ [s[i] - 1] ++ s[i + 1..] } }";
        let indexed = "game indexed on s[] { for i in 0..len(s) if s[i] > 0 { s[i] -= 1 } }";
        let state: Vec<String> = s.iter().map(i64::to_string).collect();
        let state = state.join(", ");
        prop_assert_eq!(
            print(whole, &format!("grundy(whole[{state}])")),
            print(indexed, &format!("grundy(indexed[{state}])"))
        );
    }
}

/// The misère Grundy value of a position of Kayles (a multiset of rows), by searching the whole
/// position: a position with no move has value 1, any other the mex of its options' values.
fn misere_kayles(mut heaps: Vec<u64>, memo: &mut std::collections::HashMap<Vec<u64>, u64>) -> u64 {
    heaps.retain(|&h| h > 0);
    heaps.sort_unstable();
    if let Some(&v) = memo.get(&heaps) {
        return v;
    }
    let mut options = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        for t in 1..=h.min(2) {
            for a in 0..=(h - t) / 2 {
                let mut next = heaps.clone();
                next.remove(i);
                next.extend([a, h - t - a]);
                options.push(misere_kayles(next, memo));
            }
        }
    }
    let v = if options.is_empty() { 1 } else { mex(&options) };
    memo.insert(heaps, v);
    v
}

#[test]
fn misere_sequences_match_a_whole_position_search() {
    let out = grundy::run_to_string("forms", "sequence misere kayles 0..=14").unwrap();
    let shown: Vec<u64> = out
        .lines()
        .skip(1)
        .flat_map(|line| line.split(": ").nth(1).unwrap().split_whitespace())
        .map(|v| v.parse().unwrap())
        .collect();
    let mut memo = Default::default();
    let expected: Vec<u64> = (0..=14)
        .map(|n| misere_kayles(vec![n], &mut memo))
        .collect();
    assert_eq!(out.lines().next(), Some("misere kayles 0..=14:"));
    assert_eq!(shown, expected);
}

/// `++` of integers inside a rule (a parameter's type is not known to the checker) is the
/// walker's type error, never a panic of the compiled rules.
#[test]
fn concatenation_of_integers_in_a_rule_is_a_type_error() {
    let program = "game g(k) on n { if n > 0 and n >= k ++ k { n -= 1 } }\ngrundy g(1)[3]";
    let out = grundy::run_to_string("forms", program).unwrap_err();
    assert!(out.contains("grundy::type_mismatch"), "{out}");
}
