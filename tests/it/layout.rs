//! The layout of answers: tables whose header lines up with the rows, padded sequences, `ppos`
//! wrapped in lines, `dot` labels, and the loopy note only where it adds something. Each is a
//! snapshot, and the numbers in it are checked against a brute force written here.

fn run(source: &str) -> String {
    grundy::run_to_string("layout", source).unwrap_or_else(|e| panic!("{source}:\n{e}"))
}

fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let seen: std::collections::BTreeSet<u64> = values.into_iter().collect();
    (0..).find(|v| !seen.contains(v)).unwrap()
}

/// Wythoff's game by brute force: take any number from one pile, or the same from both.
fn wythoff(size: usize) -> Vec<Vec<u64>> {
    let mut g = vec![vec![0u64; size]; size];
    for a in 0..size {
        for b in 0..size {
            let mut options = Vec::new();
            options.extend((0..a).map(|x| g[x][b]));
            options.extend((0..b).map(|y| g[a][y]));
            options.extend((1..=a.min(b)).map(|k| g[a - k][b - k]));
            g[a][b] = mex(options);
        }
    }
    g
}

#[test]
fn a_table_header_lines_up_with_its_rows() {
    let text = run("table wythoff 0..12, 0..12");
    insta::assert_snapshot!(text);
    let lines: Vec<&str> = text.lines().skip(1).collect();
    let bar = lines[0].find('|').unwrap();
    let length = lines[0].len();
    for line in &lines {
        assert_eq!(line.find('|'), Some(bar), "{line}");
        assert_eq!(line.len(), length, "{line}");
    }
    let truth = wythoff(12);
    for (a, line) in lines[1..].iter().enumerate() {
        let (label, cells) = line.split_once('|').unwrap();
        assert_eq!(label.trim(), a.to_string());
        let cells: Vec<u64> = cells
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(cells, truth[a]);
    }
}

#[test]
fn sequence_rows_are_padded_to_the_widest_value() {
    let text = run("sequence nim 5..=25");
    insta::assert_snapshot!(text);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows[0].len(), rows[1].len());
    let values: Vec<u64> = rows
        .iter()
        .flat_map(|r| r.split_once(':').unwrap().1.split_whitespace())
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(values, (5..=25).collect::<Vec<u64>>());
}

#[test]
fn ppos_wraps_its_pairs_in_lines() {
    let text = run("ppos wythoff 0..60, 0..60");
    insta::assert_snapshot!(text);
    let truth = wythoff(60);
    let mut expected = Vec::new();
    for (a, row) in truth.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            if v == 0 {
                expected.push(format!("({a}, {b})"));
            }
        }
    }
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        format!(
            "{} P-positions of wythoff in 0..=59, 0..=59:",
            expected.len()
        )
    );
    let mut found = Vec::new();
    for line in lines {
        assert!(line.len() <= 80 && line.starts_with("  ("), "{line}");
        found.extend(
            line.trim()
                .split(") ")
                .map(|p| p.trim_end_matches(')').to_string() + ")"),
        );
    }
    assert_eq!(found, expected);
    assert_eq!(
        run("ppos wythoff 1..2, 1..2"),
        "0 P-positions of wythoff in 1..=1, 1..=1\n"
    );
}

#[test]
fn dot_names_the_empty_position_after_its_game() {
    let text = run("dot kayles[2]");
    insta::assert_snapshot!(text);
    assert!(
        text.contains("[label=\"kayles[]\\n0\", shape=box]"),
        "{text}"
    );
}

#[test]
fn the_loopy_note_comes_only_with_an_infinite_value() {
    let text = run("game g = graph { a -> b; b -> a; b -> c; c -> d }\n\
         grundy g[c]\ngrundy g[a]\ng[c]\ng[a]");
    insta::assert_snapshot!(text);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "1");
    assert!(lines[1].contains("loopy"), "{text}");
    assert!(!lines[2].contains("loopy"), "{text}");
    assert!(lines[3].contains("loopy"), "{text}");
}

/// Kayles by brute force: knock down one pin or two adjacent ones, from a row of `n`.
fn kayles(n: usize) -> Vec<u64> {
    let mut g = vec![0u64; n + 1];
    for m in 1..=n {
        let mut options = Vec::new();
        for t in 1..=m.min(2) {
            options.extend((0..=m - t).map(|a| g[a] ^ g[m - t - a]));
        }
        g[m] = mex(options);
    }
    g
}

#[test]
fn win_says_each_thing_once() {
    let text = run("win kayles[8]\nwin kayles[5] + kayles[7] + kayles[9]");
    insta::assert_snapshot!(text);
    let g = kayles(9);
    let lines: Vec<&str> = text.lines().collect();
    // One heap: the move and what it leaves are one thing, said once, with no component number.
    assert_eq!(lines[1].trim(), "kayles[8] -> kayles[3, 3]");
    assert_eq!(g[3] ^ g[3], 0);
    let wins_of_8 = (1..=2)
        .flat_map(|t| (0..=8 - t).map(move |a| (a, 8 - t - a)))
        .filter(|&(a, b)| a <= b && g[a] ^ g[b] == 0)
        .count();
    assert_eq!(
        text.lines().next().unwrap(),
        format!("kayles[8] is an N-position: {wins_of_8} winning move")
    );
    // Several components: which one moves, and the whole position it leaves.
    assert!(
        lines[3].starts_with("  component 1: kayles[7] -> kayles[3, 3]  leaves kayles[5, 3, 3, 9]")
    );
    assert_eq!(g[5] ^ g[3] ^ g[3] ^ g[9], 0);
}
