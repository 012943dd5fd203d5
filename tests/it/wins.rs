//! Winning moves counted without listing, and positions that share their components: counts by
//! arithmetic on a proved period against brute-force counts written here (naive values by mex,
//! splits counted one by one), listed moves against brute-force lists, huge heaps against counts
//! from the period this file finds in its own values, and the notes' 200,000-heap input.

use grundy::game::splits::Periodic;
use grundy::game::Limits;

fn run(source: &str) -> String {
    grundy::run_to_string("wins", source).unwrap_or_else(|e| panic!("{source}\n{e}"))
}

/// Octal moves by definition: digit j, bit 1 takes a whole heap of j, bit 2 leaves one heap,
/// bit 4 leaves two non-empty heaps (the smaller first, each split once). Calls `f` with the
/// heaps each move leaves.
fn for_each_octal_move(digits: &[u8], n: u64, f: &mut dyn FnMut(&[u64])) {
    for (j, &d) in digits.iter().enumerate() {
        let j = j as u64;
        if j > n {
            continue;
        }
        let rest = n - j;
        if j > 0 && d & 1 != 0 && rest == 0 {
            f(&[]);
        }
        if j > 0 && d & 2 != 0 && rest > 0 {
            f(&[rest]);
        }
        if d & 4 != 0 {
            for a in 1..=rest / 2 {
                f(&[a, rest - a]);
            }
        }
    }
}

fn octal_moves(digits: &[u8], n: u64) -> Vec<Vec<u64>> {
    let mut moves = Vec::new();
    for_each_octal_move(digits, n, &mut |m| moves.push(m.to_vec()));
    moves
}

fn digits(code: &str) -> Vec<u8> {
    let (whole, fraction) = code.split_once('.').unwrap();
    let mut digits = vec![whole.parse::<u8>().unwrap()];
    digits.extend(fraction.bytes().map(|b| b - b'0'));
    digits
}

/// The values of heaps `0..=last` by the plain mex of every option.
fn naive_values(digits: &[u8], last: u64) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    let mut seen = Vec::new();
    for n in 0..=last {
        seen.clear();
        for_each_octal_move(digits, n, &mut |m| {
            let v = m.iter().fold(0, |acc, &h| acc ^ g[h as usize]) as usize;
            if seen.len() <= v {
                seen.resize(v + 1, false);
            }
            seen[v] = true;
        });
        g.push(seen.iter().position(|s| !s).unwrap_or(seen.len()) as u64);
    }
    g
}

/// Enough values for every game of [`CODES`] to show its period (0.156 has a preperiod of
/// 3479 and a period of 349), and heaps past 4096 with thousands of values beyond the preperiod.
const NAIVE_LAST: u64 = 9000;

/// The shortest period, then the shortest preperiod, that the values show over their whole
/// length, with at least three periods after the preperiod.
fn own_period(values: &[u64]) -> (usize, usize) {
    for p in 1..values.len() / 4 {
        let mut n0 = values.len() - p;
        while n0 > 0 && values[n0 - 1] == values[n0 - 1 + p] {
            n0 -= 1;
        }
        if values.len() - n0 >= 3 * p + 8 {
            return (n0, p);
        }
    }
    panic!("no period in {} values", values.len());
}

/// How many options of a heap of `n` have the value `target`, one by one.
fn brute_count(digits: &[u8], g: &[u64], n: u64, target: u64) -> u64 {
    octal_moves(digits, n)
        .iter()
        .filter(|m| m.iter().fold(0, |acc, &h| acc ^ g[h as usize]) == target)
        .count() as u64
}

/// Octal games with proved periods: short and long preperiods, splits at one take or several,
/// a split without taking (`4.07`).
const CODES: &[&str] = &[
    "0.07", "0.77", "0.137", "0.44", "0.47", "4.07", "0.714", "0.156",
];

#[test]
fn split_counts_by_period_match_brute_force_just_past_the_preperiod() {
    for code in CODES {
        let digits = digits(code);
        let g = naive_values(&digits, NAIVE_LAST);
        let (n0, p) = own_period(&g);
        let periodic = Periodic::new(g[..n0 + p].to_vec(), n0 as u64, p as u64);
        let top = (*g.iter().max().unwrap() as usize + 1).next_power_of_two();
        let last = (n0 + 3 * p + 3000).min(NAIVE_LAST as usize) as u64;
        for r in 1..=last {
            let mut by_value: Vec<Vec<u64>> = vec![Vec::new(); top];
            for a in 1..=r / 2 {
                by_value[(g[a as usize] ^ g[(r - a) as usize]) as usize].push(a);
            }
            assert_eq!(periodic.count_splits(r, None), (r / 2) as u128);
            let listed_too = r <= (n0 + 2 * p) as u64 + 100 || r % 97 == 0;
            for (t, brute) in by_value.iter().enumerate() {
                let t = t as u64;
                let count = periodic.count_splits(r, Some(t));
                assert_eq!(count, brute.len() as u128, "{code}: {r}, {t}");
                if listed_too {
                    let mut listed = Vec::new();
                    periodic
                        .visit_splits::<()>(r, Some(t), &mut |a| {
                            listed.push(a);
                            Ok(true)
                        })
                        .unwrap();
                    assert_eq!(&listed, brute, "{code}: {r}, {t}");
                }
            }
        }
    }
}

#[test]
fn interpreter_counts_of_winning_moves_match_brute_force() {
    for code in CODES {
        let digits = digits(code);
        let g = naive_values(&digits, NAIVE_LAST);
        let (n0, p) = own_period(&g);
        let last = NAIVE_LAST;
        let top = *g.iter().max().unwrap() + 1;
        let mut heaps: Vec<u64> = vec![n0 as u64 + 1, (n0 + p) as u64 + 7, n0 as u64 + 500];
        heaps.extend([4095, 4096, 4097, 4098, 4099, 4100, 4133, last - 1, last]);
        heaps.extend((0..8).map(|k| (4096 + n0 as u64 + 97 * k).min(last)));
        let mut source = format!("game o = octal {code}\n");
        let mut expected = Vec::new();
        for &n in &heaps {
            for t in 0..=top {
                source.push_str(&format!("print len(wins(o[{n}] + nim[{t}]))\n"));
                // In `o[n]`, the options of value t; in `nim[t]`, the move to G(n) if smaller.
                let count = brute_count(&digits, &g, n, t) + u64::from(g[n as usize] < t);
                expected.push(format!("{n}, {t}: {count}"));
            }
        }
        let got: Vec<String> = run(&source)
            .lines()
            .zip(heaps.iter().flat_map(|n| (0..=top).map(move |t| (n, t))))
            .map(|(line, (n, t))| format!("{n}, {t}: {line}"))
            .collect();
        assert_eq!(got, expected, "{code}");
    }
}

#[test]
fn listed_winning_moves_are_exactly_the_moves_to_p_positions() {
    for code in ["0.07", "0.156", "4.07"] {
        let digits = digits(code);
        let g = naive_values(&digits, 4400);
        let (n0, _) = own_period(&naive_values(&digits, NAIVE_LAST));
        assert!(n0 < 4400);
        for (n, t) in [
            (4100u64, 1u64),
            (4101, 2),
            (4321, 3),
            (4399, 0),
            (600, 1),
            (37, 2),
        ] {
            let mut expected: Vec<Vec<u64>> = octal_moves(&digits, n)
                .into_iter()
                .filter(|m| m.iter().fold(0, |acc, &h| acc ^ g[h as usize]) == t)
                .map(|mut m| {
                    m.push(t);
                    m.sort();
                    m
                })
                .collect();
            if g[n as usize] < t {
                let mut heaps = vec![n, g[n as usize]];
                heaps.sort();
                expected.push(heaps);
            }
            let mut source = format!("game o = octal {code}\nlet w = wins(o[{n}] + nim[{t}])\n");
            source.push_str("print len(w)\n");
            for i in 0..expected.len() {
                source.push_str(&format!("print state(w[{i}])\nprint outcome(w[{i}])\n"));
            }
            let out = run(&source);
            let mut lines = out.lines();
            assert_eq!(
                lines.next().unwrap(),
                expected.len().to_string(),
                "{code} {n} {t}"
            );
            let mut got = Vec::new();
            while let (Some(state), Some(outcome)) = (lines.next(), lines.next()) {
                assert_eq!(outcome, "P", "{code} {n} {t}: {state}");
                let mut heaps: Vec<u64> = state
                    .trim_matches(|c| c == '[' || c == ']')
                    .split(", ")
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse().unwrap())
                    .filter(|&h| h != 0 || t == 0)
                    .collect();
                heaps.sort();
                got.push(heaps);
            }
            expected
                .iter_mut()
                .for_each(|m| m.retain(|&h| h != 0 || t == 0));
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "{code} {n} {t}");
        }
    }
}

/// The number of `a` in `lo..=hi` for which `f(a)` holds, where `f` repeats with period `p`:
/// whole blocks of `p` counted once and multiplied, the rest one by one.
fn periodic_count(lo: u64, hi: u64, p: u64, f: impl Fn(u64) -> bool) -> u128 {
    if lo > hi {
        return 0;
    }
    let len = hi - lo + 1;
    let block = (lo..lo + p.min(len)).filter(|&a| f(a)).count() as u128;
    let rest = (lo..lo + len % p).filter(|&a| f(a)).count() as u128;
    block * (len / p) as u128 + rest
}

/// The number of options of value `t` of a huge heap `n`, from the naive values `g` and their
/// period: splits whose parts are both past the preperiod repeat with the period in `a`.
fn huge_count(digits: &[u8], g: &[u64], n0: u64, p: u64, n: u64, t: u64) -> u128 {
    let value = |h: u64| g[if h < n0 { h } else { n0 + (h - n0) % p } as usize];
    let mut count = 0u128;
    for (j, &d) in digits.iter().enumerate() {
        let rest = n - j as u64;
        if j > 0 && d & 2 != 0 {
            count += u128::from(value(rest) == t);
        }
        if d & 4 != 0 {
            let f = |a: u64| value(a) ^ value(rest - a) == t;
            let small = (1..n0.max(1)).filter(|&a| f(a)).count() as u128;
            count += small + periodic_count(n0.max(1), rest / 2, p, f);
        }
    }
    count
}

#[test]
fn huge_heaps_count_from_the_period_of_naive_values() {
    for (code, n, other) in [
        ("0.07", 10u64.pow(12) + 3, 2u64),
        ("0.07", 10u64.pow(18), 5),
        ("0.77", 10u64.pow(18), 3),
        ("0.137", 10u64.pow(15) + 11, 1),
        ("0.156", 10u64.pow(18) - 1, 7),
        ("4.07", 10u64.pow(12), 0),
    ] {
        let digits = digits(code);
        let g = naive_values(&digits, NAIVE_LAST);
        let (n0, p) = own_period(&g);
        let (n0, p) = (n0 as u64, p as u64);
        let value = g[(n0 + (n - n0) % p) as usize];
        let expected = huge_count(&digits, &g, n0, p, n, other) + u128::from(value < other);
        let game = format!("game o = octal {code}\n");
        let got = run(&format!("{game}print len(wins(o[{n}] + nim[{other}]))"));
        assert_eq!(got.trim(), expected.to_string(), "{code} {n}");
        let every: u128 = digits
            .iter()
            .enumerate()
            .map(|(j, &d)| {
                let rest = n - j as u64;
                u128::from(j > 0 && d & 2 != 0) + if d & 4 != 0 { (rest / 2) as u128 } else { 0 }
            })
            .sum();
        let got = run(&format!("{game}print len(options(o[{n}]))"));
        assert_eq!(got.trim(), every.to_string(), "{code} {n}");
    }
    // The example: the split (126, 10^12 - 125) wins, and `win` says how many there are.
    let win =
        run("win dawson[10^12 + 3] + nim[2]\nprint outcome(dawson[126, 10^12 - 125] + nim[2])");
    let digits = digits("0.07");
    let g = naive_values(&digits, NAIVE_LAST);
    let (n0, p) = own_period(&g);
    let n = 10u64.pow(12) + 3;
    let count = huge_count(&digits, &g, n0 as u64, p as u64, n, 2);
    assert!(win.contains(&format!("{count} winning moves")), "{win}");
    assert!(
        win.contains("dawson[1000000000003] -> dawson[126, 999999999875]"),
        "{win}"
    );
    assert!(win.contains(&format!("and {} more", count - 50)), "{win}");
    assert!(
        win.contains("`len(wins(dawson[10^12 + 3] + nim[2]))` counts them"),
        "{win}"
    );
    assert_eq!(win.lines().last(), Some("P"));
}

/// The values of a subtraction game by the plain mex.
fn subtraction_values(set: &[u64], last: u64) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=last {
        let options: Vec<u64> = set
            .iter()
            .filter(|&&s| s <= n)
            .map(|&s| g[(n - s) as usize])
            .collect();
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    g
}

#[test]
fn subtraction_games_and_nim_count_exactly_on_huge_heaps() {
    for (set, n) in [
        (vec![1u64, 3, 4], 10u64.pow(18) + 5),
        (vec![2, 5, 7, 11], 10u64.pow(17) + 3),
    ] {
        let g = subtraction_values(&set, 3000);
        let (n0, p) = own_period(&g);
        let (n0, p) = (n0 as u64, p as u64);
        let value = |h: u64| g[if h < n0 { h } else { n0 + (h - n0) % p } as usize];
        let shown: Vec<String> = set.iter().map(|s| s.to_string()).collect();
        let decl = format!("game s = subtraction {{{}}}\n", shown.join(", "));
        for t in 0..=*g.iter().max().unwrap() + 1 {
            let expected =
                set.iter().filter(|&&s| value(n - s) == t).count() as u64 + u64::from(value(n) < t);
            let got = run(&format!("{decl}print len(wins(s[{n}] + nim[{t}]))"));
            assert_eq!(got.trim(), expected.to_string(), "{set:?} {t}");
        }
        let got = run(&format!("{decl}print len(options(s[{n}]))"));
        assert_eq!(got.trim(), set.len().to_string());
    }
    // Nim: every smaller heap is an option; a winning move in each heap holding the top bit.
    let heaps = [10u64.pow(18), 10u64.pow(17) + 12345, 999_999_999_999, 77];
    let x = heaps.iter().fold(0, |a, h| a ^ h);
    let wins = heaps.iter().filter(|&&h| h ^ x < h).count();
    let list: Vec<String> = heaps.iter().map(|h| h.to_string()).collect();
    let p = format!("nim[{}]", list.join(", "));
    let out = run(&format!("print len(wins({p}))\nprint len(options({p}))"));
    let total: u128 = heaps.iter().map(|&h| h as u128).sum();
    assert_eq!(out, format!("{wins}\n{total}\n"));
}

/// A deterministic stream of heaps in `0..=10^18`.
fn heaps(count: usize) -> Vec<u64> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..count)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 4) % (10u64.pow(18) + 1)
        })
        .collect()
}

#[test]
fn the_notes_input_of_200000_heaps() {
    let heaps = heaps(200_000);
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("heaps.txt");
    let shown: Vec<String> = heaps.iter().map(|h| h.to_string()).collect();
    std::fs::write(&path, format!("{}\n{}\n", heaps.len(), shown.join(" "))).unwrap();
    let x = heaps.iter().fold(0, |a, h| a ^ h);
    let winning: Vec<usize> = (0..heaps.len())
        .filter(|&i| heaps[i] ^ x < heaps[i])
        .collect();
    let source = format!(
        "let h = read({:?})\nlet p = nim[h[1..]]\nprint grundy(p)\nprint len(wins(p))\n\
         let w = wins(p)\nprint len(w)\nprint outcome(w[{last}])\nprint len(options(nim[h[1..9]]))\nwin p",
        path.display().to_string(),
        last = winning.len() - 1,
    );
    let limits = grundy::game::Limits {
        root: grundy::files::Root::folder(folder.path().to_path_buf()),
        ..grundy::game::Limits::default()
    };
    let out = grundy::run_to_string_with("wins", &source, limits).unwrap();
    let mut lines = out.lines();
    assert_eq!(lines.next().unwrap(), x.to_string());
    assert_eq!(lines.next().unwrap(), winning.len().to_string());
    assert_eq!(lines.next().unwrap(), winning.len().to_string());
    assert_eq!(lines.next().unwrap(), "P");
    let options: u128 = heaps[..8].iter().map(|&h| h as u128).sum();
    assert_eq!(lines.next().unwrap(), options.to_string());
    let head = lines.next().unwrap();
    assert!(
        head.ends_with(&format!(
            "is an N-position: {} winning moves",
            winning.len()
        )),
        "{head}"
    );
    assert!(head.contains("... (200000 in all)"), "{head}");
    for &i in &winning[..50] {
        let row = lines.next().unwrap();
        let expected = format!("component {i}: nim[{}] -> nim[{}]", heaps[i], heaps[i] ^ x);
        assert!(row.trim_start().starts_with(&expected), "{row}\n{expected}");
        assert!(
            row.contains("leaves nim[") && row.ends_with("(200000 in all)]"),
            "{row}"
        );
    }
    let more = lines.next().unwrap();
    assert_eq!(
        more,
        format!(
            "  ... and {} more: `wins(p)[50..]` lists them",
            winning.len() - 50
        )
    );
}

#[test]
fn lists_past_the_limit_are_an_error_with_the_count() {
    let limits = Limits {
        max_states: 1000,
        ..Limits::default()
    };
    // Heaps 8192 + k, k in 1..=2046, have the nim-sum 2047: the 1023 with k >= 1024 hold its
    // top bit. (Past 4096, Nim's values come from its closed form, not a table.)
    let heaps: Vec<String> = (1..=2046).map(|k: u64| (8192 + k).to_string()).collect();
    let p = format!("nim[{}]", heaps.join(", "));
    let source = format!("print len(wins({p}))\nprint wins({p})");
    let err = grundy::run_to_string_with("wins", &source, limits.clone()).unwrap_err();
    assert!(err.starts_with("1023\n"), "{err}");
    assert!(
        err.contains("would be 1023 positions, more than the list limit of 1000"),
        "{err}"
    );
    assert!(err.contains("len(wins(p))"), "{err}");
    let ok =
        grundy::run_to_string_with("wins", "print len(options(kayles[5000]))", limits).unwrap();
    // Kayles: take 1 or 2, leaving one heap, or two (each split once).
    assert_eq!(ok.trim(), (2 + 4999 / 2 + 4998 / 2).to_string());
}

/// A list game's state may be empty: such a component has no move (its value is 0 by the
/// definition of mex), and asking for its moves or winning moves must not fail.
#[test]
fn an_empty_list_state_has_no_moves() {
    let program = "game lst on s[] { for i in 0..len(s) if s[i] > 0 { s[i] -= 1 } }
print grundy(lst[])
print len(wins(lst[] + nim[1]))
print options(lst[])
print len(options(lst[] + nim[2]))";
    let out = grundy::run_to_string("empty", program).unwrap();
    assert_eq!(out, "0\n1\n[]\n2\n");
}

/// The values of a game that takes any amount or splits in the ways `splits` (take, unequal),
/// by mex over every move.
fn take_or_split_values(splits: &[(u64, bool)], last: u64) -> Vec<u64> {
    let mut g = vec![0u64; last as usize + 1];
    for n in 1..=last {
        let mut seen: Vec<u64> = (0..n).map(|m| g[m as usize]).collect();
        for &(take, unequal) in splits {
            let Some(rest) = n.checked_sub(take) else {
                continue;
            };
            for a in (1..=rest / 2).filter(|&a| !unequal || 2 * a != rest) {
                seen.push(g[a as usize] ^ g[(rest - a) as usize]);
            }
        }
        seen.sort_unstable();
        seen.dedup();
        g[n as usize] = seen
            .iter()
            .enumerate()
            .take_while(|(i, &v)| *i as u64 == v)
            .count() as u64;
    }
    g
}

/// The least preperiod and period (a power of two, equal to the saltus) that `g` shows over
/// its second half and beyond.
fn own_arithmetic_period(g: &[u64]) -> (u64, u64) {
    let len = g.len() as u64;
    (0..len / 2)
        .find_map(|n0| {
            [1u64, 2, 4, 8, 16, 32].into_iter().find_map(|p| {
                (n0..len - p)
                    .all(|n| g[(n + p) as usize] == g[n as usize] + p)
                    .then_some((n0, p))
            })
        })
        .expect("an arithmetic period")
}

#[test]
fn games_that_take_any_or_split_count_and_list_moves_of_huge_heaps() {
    let games = [
        ("lasker", "", vec![(0, false)]),
        (
            "unequal",
            "game unequal on n { for k in 1..=n { n -= k }; for a in 1..n if a < n - a { n = [a, n - a] } }",
            vec![(0, true)],
        ),
        (
            "take_one",
            "game take_one on n { for k in 1..=n { n -= k }; for a in 1..=(n - 1) / 2 { n = [a, n - 1 - a] } }",
            vec![(1, false)],
        ),
    ];
    for (name, declaration, splits) in games {
        let g = take_or_split_values(&splits, 1500);
        let (n0, p) = own_arithmetic_period(&g);
        let value = |h: u64| {
            if h < n0 + p {
                g[h as usize]
            } else {
                g[(n0 + (h - n0) % p) as usize] + (h - n0) / p * p
            }
        };
        // The moves of heap `n` that leave the value `t`, as lists of the heaps left.
        let moves_of = |n: u64, t: u64| {
            let mut moves: Vec<Vec<u64>> = (0..n)
                .rev()
                .filter(|&m| value(m) == t)
                .map(|m| vec![m])
                .collect();
            for &(take, unequal) in &splits {
                let rest = n - take;
                for a in (1..=rest / 2).filter(|&a| !unequal || 2 * a != rest) {
                    if value(a) ^ value(rest - a) == t {
                        moves.push(vec![a, rest - a]);
                    }
                }
            }
            moves
        };
        for n in [(1u64 << 20) + 3, (1 << 20) + 1000, (1 << 21) + 77] {
            let mut program = declaration.to_string();
            let targets: Vec<u64> = [1u64, 5, 321]
                .iter()
                .map(|&a| value(a) ^ value(n - splits[0].0 - a))
                .chain([3, value(n)])
                .collect();
            for &t in &targets {
                program += &format!("\nprint len(wins({name}[{n}] + nim[{t}]))");
                program += &format!("\nprint wins({name}[{n}] + nim[{t}])");
            }
            program += &format!("\nprint len(options({name}[{n}]))");
            let mut expected = String::new();
            for &t in &targets {
                let wins = if value(n) == t {
                    Vec::new()
                } else {
                    moves_of(n, t)
                };
                let mut listed: Vec<String> = wins
                    .iter()
                    .map(|heaps| {
                        let heaps: Vec<String> = heaps.iter().map(u64::to_string).collect();
                        format!("{name}[{}] + nim[{t}]", heaps.join(", "))
                    })
                    .collect();
                // The move in the Nim heap, to the big heap's value.
                if value(n) < t {
                    listed.push(format!("{name}[{n}] + nim[{}]", value(n)));
                }
                expected += &format!("{}\n", listed.len());
                expected += &format!("[{}]\n", listed.join(", "));
            }
            let splits_count: u64 = splits
                .iter()
                .map(|&(take, unequal)| {
                    let rest = n - take;
                    if unequal {
                        (rest - 1) / 2
                    } else {
                        rest / 2
                    }
                })
                .sum();
            expected += &format!("{}\n", n + splits_count);
            assert_eq!(run(&program), expected, "{name}[{n}]");
        }
    }
}
