//! Equal games: `compare G, H` (the same values, or the same with an offset, proved when both
//! periods are) against the plain mex over the definition of each octal code
//! (`support/octal_values.rs`).

use crate::support::octal_values;

fn run(source: &str) -> String {
    let out = grundy::run_to_string("equal_games", source);
    out.unwrap_or_else(|e| panic!("{source}\n{e}"))
        .trim_end()
        .to_string()
}

/// The first `n` where `g[n + a]` and `h[n + b]` differ among the values given, with the two
/// values.
fn first_difference(g: &[u64], h: &[u64], a: usize, b: usize) -> Option<(usize, u64, u64)> {
    (0..(g.len() - a).min(h.len() - b))
        .find(|&n| g[n + a] != h[n + b])
        .map(|n| (n, g[n + a], h[n + b]))
}

/// Checks one clause of a `compare` answer (`G and H ...`, `G[n] and H[n + d] ...`, `G is H
/// with every heap d larger ...`) against the brute-force values `g` and `h`, extending them
/// when the clause names a heap beyond them. Returns the offset it is about and whether it says
/// the games are the same.
fn check_clause(
    clause: &str,
    [a, b]: [&str; 2],
    [g_code, h_code]: [&str; 2],
    [g, h]: [&[u64]; 2],
) -> (i64, bool) {
    let shift = |after: &str| {
        let after = clause.split_once(after).map_or("", |(_, d)| d);
        after[..1].parse::<i64>().unwrap()
    };
    let offset = match clause {
        c if c.starts_with(&format!("{a}[n] and {b}[n + "))
            || c.starts_with(&format!("{a} is {b} with every heap ")) =>
        {
            shift(&format!("{b}[n + "))
        }
        c if c.starts_with(&format!("{a}[n + "))
            || c.starts_with(&format!("{b} is {a} with every heap ")) =>
        {
            -shift(&format!("{a}[n + "))
        }
        c if c.starts_with(&format!("{a} and {b} ")) => 0,
        c => panic!("{g_code}, {h_code}: cannot read `{c}`"),
    };
    let (a, b) = ((-offset).max(0) as usize, offset.max(0) as usize);
    if let Some((_, rest)) = clause.split_once("first differ at ") {
        let rest = rest.trim_start_matches("heap ").trim_start_matches("n = ");
        let (at, values) = rest.split_once(": ").unwrap();
        let at: usize = at.parse().unwrap();
        let (x, y) = values.split_once(" and ").unwrap();
        let (x, y): (u64, u64) = (x.parse().unwrap(), y.parse().unwrap());
        let len = g.len().max(at + 5 + a + b);
        let (g, h) = if len > g.len() {
            (
                octal_values::of_code(g_code, len),
                octal_values::of_code(h_code, len),
            )
        } else {
            (g.to_vec(), h.to_vec())
        };
        assert_eq!(
            first_difference(&g, &h, a, b),
            Some((at, x, y)),
            "{g_code}, {h_code}: {clause}"
        );
        return (offset, false);
    }
    let same = clause.contains("(proved: ") || clause.contains("as far as both are known");
    assert!(same, "{g_code}, {h_code}: cannot read `{clause}`");
    let upto = clause
        .split_once(" 0..")
        .map(|(_, rest)| rest.split([',', ' ']).next().unwrap())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    let (g, h) = (&g[..g.len().min(upto + a)], &h[..h.len().min(upto + b)]);
    assert_eq!(
        first_difference(g, h, a, b),
        None,
        "{g_code}, {h_code}: {clause}"
    );
    (offset, true)
}

#[test]
fn the_161_and_36_games_first_differ_at_heap_519() {
    let g = octal_values::of_code("0.161", 600);
    let h = octal_values::of_code("0.36", 600);
    let (at, x, y) = first_difference(&g, &h, 0, 0).unwrap();
    // The brute force finds the published heap.
    assert_eq!(at, 519);
    let out = run("game a = octal 0.161\ngame b = octal 0.36\ncompare a, b");
    let plain = out.split("; ").next().unwrap();
    assert_eq!(
        plain,
        format!("a and b first differ at heap {at}: {x} and {y}")
    );
}

#[test]
fn dawsons_chess_is_dawsons_kayles_with_every_heap_one_larger() {
    let out = run("game a = octal 0.137\ngame b = octal 0.07\ncompare a, b");
    let shifted = out.split("; ").nth(1).unwrap_or_else(|| panic!("{out}"));
    assert!(
        shifted.starts_with("a is b with every heap 1 larger: a[n] = b[n + 1] (proved:"),
        "{out}"
    );
    let g = octal_values::of_code("0.137", 2000);
    let h = octal_values::of_code("0.07", 2001);
    assert_eq!(first_difference(&g, &h, 0, 1), None);
    check_clause(shifted, ["a", "b"], ["0.137", "0.07"], [&g, &h]);
}

/// Every pair of a family of small codes: each clause of each answer holds for the brute force
/// on its first heaps, and every offset under which the brute force finds the two the same on
/// all of those heaps is one the answer names (or the answer names a difference past them).
#[test]
fn pairs_of_small_codes_are_related_as_the_definition_says() {
    let mut codes: Vec<String> = Vec::new();
    for first in 1..8 {
        codes.push(format!("0.{first}"));
        for second in 1..8 {
            codes.push(format!("0.{first}{second}"));
        }
    }
    codes.extend(
        [
            "4.7", "4.3", "0.07", "0.137", "0.0137", "0.007", "0.6", "0.16", "0.36",
        ]
        .map(String::from),
    );
    const HEAPS: usize = 400;
    let values: Vec<Vec<u64>> = codes
        .iter()
        .map(|c| octal_values::of_code(c, HEAPS))
        .collect();
    let mut program = String::new();
    for (i, code) in codes.iter().enumerate() {
        program.push_str(&format!("game g{i} = octal {code}\n"));
    }
    let mut pairs = Vec::new();
    for i in 0..codes.len() {
        for j in i + 1..codes.len() {
            program.push_str(&format!("compare g{i}, g{j}\n"));
            pairs.push((i, j));
        }
    }
    let out = run(&program);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), pairs.len(), "{out}");
    let mut equal = 0;
    for (line, &(i, j)) in lines.iter().zip(&pairs) {
        let (g, h) = (&values[i], &values[j]);
        let said: Vec<(i64, bool)> = line
            .split("; ")
            .map(|clause| {
                let names = [format!("g{i}"), format!("g{j}")];
                check_clause(
                    clause,
                    [&names[0], &names[1]],
                    [&codes[i], &codes[j]],
                    [g, h],
                )
            })
            .collect();
        for offset in -4i64..=4 {
            let (a, b) = ((-offset).max(0) as usize, offset.max(0) as usize);
            if first_difference(g, h, a, b).is_none() {
                equal += 1;
                let named = said
                    .iter()
                    .any(|&(o, same)| same && (o == offset || o == 0));
                let beyond = line.contains("first differ at");
                assert!(named || beyond, "{} and {}: {line}", codes[i], codes[j]);
            }
        }
    }
    // The family holds equal games, with and without offsets.
    assert!(equal > 10, "{equal}");
}
