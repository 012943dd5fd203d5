//! Exploring variants: periods and their proofs, huge heaps, loopy games, `compare`, `dot`,
//! `plot` and `read`, checked against known values and independent brute force.

use std::collections::HashMap;

use proptest::prelude::*;

fn run(source: &str) -> String {
    grundy::run_to_string("explore", source).unwrap_or_else(|e| panic!("{source}\n{e}"))
}

fn last_line(source: &str) -> String {
    run(source).lines().last().unwrap().to_string()
}

#[test]
fn periods_of_classic_games() {
    assert!(run("period kayles").contains("preperiod 71, period 12, proved"));
    assert!(run("period dawson").contains("preperiod 53, period 34, proved"));
    assert!(run("period sub({1, 3, 4})").contains("preperiod 0, period 7, proved"));
    // The rules of bash(m) are recognised as a subtraction game, so its period is proved.
    assert!(run("period bash(5)").contains("preperiod 0, period 6, proved"));
    assert!(run("game b5 = subtraction 1..=5\nperiod b5").contains("preperiod 0, period 6, proved"));
    let nim = run("period nim");
    assert!(nim.contains("period 1, saltus 1, proved"), "{nim}");
    let anynim = run("game anynim = subtraction 1..\nperiod anynim");
    assert!(anynim.contains("saltus 1, proved"), "{anynim}");
    let lasker = run("period lasker");
    assert!(lasker.contains("period 4, saltus 4, proved"), "{lasker}");
}

#[test]
fn an_early_pattern_that_breaks_is_never_proved() {
    // Taking 1 or 100: values alternate 0, 1 for a hundred heaps, then change.
    // Recognised as the subtraction game {1, 100}: proved, like the set form.
    let rules = run("game g on n { for k in {1, 100} if k <= n { n -= k } }\nperiod g");
    assert!(rules.contains("proved"), "{rules}");
    assert!(!rules.contains("period 2,"), "{rules}");
    // Rules the interpreter does not recognise get an apparent period only.
    let rules =
        run("game g on n { for k in {1, 100} if k <= n and n % 1 == 0 { n -= k } }\nperiod g");
    assert!(rules.contains("apparent"), "{rules}");
    assert!(!rules.contains("period 2,"), "{rules}");
    let set = run("game s = subtraction {1, 100}\nperiod s");
    assert!(
        set.contains("proved") && !set.contains("period 2,"),
        "{set}"
    );
}

#[test]
fn huge_heaps_come_from_the_proved_period() {
    for (game, n0, p) in [("kayles", 71u64, 12u64), ("dawson", 53, 34)] {
        let huge = 10u64.pow(18);
        let small = n0 + (huge - n0) % p;
        let got = last_line(&format!(
            "print grundy({game}[10^18]) == grundy({game}[{small}])"
        ));
        assert_eq!(got, "true", "{game}");
    }
    assert_eq!(
        last_line("print grundy(nim[10^18] + nim[7])"),
        (10u64.pow(18) ^ 7).to_string()
    );
    let win = run("win kayles[10^18] + kayles[9]");
    assert!(win.contains("winning move"), "{win}");
    assert_eq!(last_line("print len(wins(nim[10^18, 10^17, 5]))"), "1");
    let err = grundy::run_to_string("explore", "grundy grundys[10^18]").unwrap_err();
    assert!(err.contains("grundy::heap_memory"), "{err}");
    assert!(err.contains("--max-memory 953674316407"), "{err}");
}

#[test]
fn read_answers_the_nim_notes_format() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("heaps.txt");
    let heaps: Vec<u64> = (0..2000u64)
        .map(|i| (i * 7919 + 13) % 1_000_000_000_000_000_000)
        .collect();
    let text = format!(
        "{}\n{}\n",
        heaps.len(),
        heaps
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    std::fs::write(&path, text).unwrap();
    let source = format!(
        "let h = read({:?})\nassert h[0] == {}\nprint grundy(nim[h[1..]])",
        path.display().to_string(),
        heaps.len()
    );
    let expected = heaps.iter().fold(0, |a, h| a ^ h);
    let limits = grundy::game::Limits {
        root: grundy::files::Root::folder(folder.path().to_path_buf()),
        ..grundy::game::Limits::default()
    };
    let out = grundy::run_to_string_with("explore", &source, limits).unwrap();
    assert_eq!(out.lines().last().unwrap(), expected.to_string());
}

#[test]
fn compare_dot_and_pictures() {
    assert_eq!(
        last_line("compare kayles, dawson 0..=10"),
        "kayles and dawson first differ at heap 1: 1 and 0"
    );
    let same = "game k = octal 0.77\ngame r on n { for t in 1..=min(2, n), a in 0..=(n - t) / 2 { n = [a, n - t - a] } }";
    assert_eq!(
        last_line(&format!("{same}\ncompare k, r 0..=200")),
        "k and r agree on heaps 0..=200"
    );
    let dot = run("game g = graph { a -> b, c; b -> c }\ndot g[a]");
    assert!(dot.starts_with("digraph"), "{dot}");
    assert_eq!(dot.matches(" -> ").count(), 3, "{dot}");
    // A legend names the shapes, apart from the positions (no edge reaches it).
    assert!(dot.contains("subgraph cluster_legend"), "{dot}");
    assert!(
        dot.contains("[label=\"value 0: a P-position\\n(the player to move loses)\", shape=box]")
    );
    assert!(dot.contains("value above 0: an N-position"), "{dot}");
    assert!(!dot.contains("legend_loopy"), "{dot}");
    let loopy = run("game two = graph { a -> b; b -> a }\ndot two[a]");
    assert!(
        loopy.contains("value ∞: a loopy position\", style=dashed"),
        "{loopy}"
    );
    let refused = grundy::run_to_string("explore", "dot nim[40, 40]").unwrap_err();
    assert!(refused.contains("grundy::dot_limit"), "{refused}");

    let folder = tempfile::tempdir().unwrap();
    let png = folder.path().join("seq.png");
    let svg = folder.path().join("wythoff.svg");
    let limits = grundy::game::Limits {
        root: grundy::files::Root::folder(folder.path().to_path_buf()),
        ..grundy::game::Limits::default()
    };
    let source = format!(
        "plot sequence kayles 0..=100 to {:?}\nplot table wythoff 0..32, 0..16 to {:?}",
        png.display().to_string(),
        svg.display().to_string()
    );
    grundy::run_to_string_with("explore", &source, limits).unwrap();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (1200, 600));
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("width=\"1012\"") && svg.contains("height=\"506\""),
        "{}",
        &svg[..200]
    );
}

#[test]
fn loopy_games_with_known_outcomes() {
    let decls = "game two = graph { a -> b; b -> a }\ngame exit = graph { a -> b; b -> a, c; c }\n";
    let outcome = |p: &str| last_line(&format!("{decls}print outcome({p})"));
    assert_eq!(outcome("two[a]"), "D");
    assert_eq!(outcome("exit[a]"), "P");
    assert_eq!(outcome("exit[b]"), "N");
    assert_eq!(outcome("exit[c]"), "P");
    assert_eq!(outcome("two[a] + exit[b]"), "D");
    assert_eq!(outcome("two[a] + two[b]"), "D");
    assert_eq!(outcome("exit[b] + nim[1]"), "P");
    assert!(run(&format!("{decls}grundy two[a]")).contains("∞"));
    let wins = last_line(&format!("{decls}print wins(exit[a] + nim[1])"));
    // The emptied Nim heap is dropped, as a Kayles heap is.
    assert_eq!(wins, "[exit[b] + nim[1], exit[a]]");
}

/// Win, loss or draw of every position of a finite graph by retrograde analysis.
fn retrograde(followers: &[Vec<usize>]) -> Vec<char> {
    let n = followers.len();
    let mut outcome = vec!['D'; n];
    loop {
        let mut changed = false;
        for u in 0..n {
            if outcome[u] != 'D' {
                continue;
            }
            if followers[u].iter().any(|&v| outcome[v] == 'P') {
                outcome[u] = 'N';
                changed = true;
            } else if followers[u].iter().all(|&v| outcome[v] == 'N') {
                outcome[u] = 'P';
                changed = true;
            }
        }
        if !changed {
            return outcome;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Smith's values for a graph and for sums of two tokens, against retrograde analysis of
    /// the graph and of its product.
    #[test]
    fn loopy_sums_match_retrograde_analysis(edges in prop::collection::vec((0usize..6, 0usize..6), 0..14)) {
        let n = 6;
        let mut followers = vec![Vec::new(); n];
        for &(a, b) in &edges {
            if !followers[a].contains(&b) {
                followers[a].push(b);
            }
        }
        let mut lines: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        for &(a, b) in &edges {
            lines.push(format!("v{a} -> v{b}"));
        }
        let decl = format!("game g = graph {{ {} }}", lines.join("; "));
        let single = retrograde(&followers);
        let pairs: Vec<(usize, usize)> = (0..n).flat_map(|x| (0..n).map(move |y| (x, y))).collect();
        let index: HashMap<(usize, usize), usize> = pairs.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let product: Vec<Vec<usize>> = pairs
            .iter()
            .map(|&(x, y)| {
                let mut f: Vec<usize> = followers[x].iter().map(|&x2| index[&(x2, y)]).collect();
                f.extend(followers[y].iter().map(|&y2| index[&(x, y2)]));
                f
            })
            .collect();
        let double = retrograde(&product);
        let singles: Vec<String> = (0..n).map(|i| format!("outcome(g[v{i}])")).collect();
        let got = last_line(&format!("{decl}\nprint [{}]", singles.join(", ")));
        let expected: Vec<String> = single.iter().map(|c| format!("\"{c}\"")).collect();
        prop_assert_eq!(got, format!("[{}]", expected.join(", ")));
        let sums: Vec<String> = pairs.iter().map(|(x, y)| format!("outcome(g[v{x}, v{y}])")).collect();
        let got = last_line(&format!("{decl}\nprint [{}]", sums.join(", ")));
        let expected: Vec<String> = double.iter().map(|c| format!("\"{c}\"")).collect();
        prop_assert_eq!(got, format!("[{}]", expected.join(", ")));
    }

    /// A period said to be proved holds far beyond where it was found (brute force to 1500).
    #[test]
    fn proved_periods_hold(set in prop::collection::btree_set(1u64..=12, 1..=3)) {
        let set: Vec<u64> = set.into_iter().collect();
        let list = set.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
        let out = run(&format!("game s = subtraction {{{list}}}\nperiod s"));
        prop_assert!(out.contains("proved"), "{}", out);
        let numbers: Vec<usize> = out
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().unwrap())
            .collect();
        let (n0, p) = (numbers[numbers.len() - 2], numbers[numbers.len() - 1]);
        let mut g: Vec<u64> = Vec::new();
        for n in 0..1500u64 {
            let mut seen: Vec<u64> = set.iter().filter(|&&s| s <= n).map(|&s| g[(n - s) as usize]).collect();
            seen.sort();
            g.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        for n in n0..1500 - p {
            prop_assert_eq!(g[n + p], g[n], "heap {}", n);
        }
    }
}

#[test]
fn small_answers_say_what_they_mean() {
    // The theorem's bound is named, not a bare `t`.
    let period = run("game twofer = subtraction {1, 2}\nperiod twofer");
    assert!(
        period.contains("once as many consecutive values repeat as its largest take"),
        "{period}"
    );
    // A range with no end is called so.
    let open = grundy::run_to_string("explore", "sequence kayles 0..").unwrap_err();
    assert!(
        open.contains("expected a finite range, found a range with no end")
            && open.contains("`0..=83`"),
        "{open}"
    );
    // An emptied Nim heap is dropped from the position, as a Kayles heap is: the options of
    // (2, 1), taking from one heap, written here without the zeros.
    let heaps = [2u64, 1];
    let mut options = Vec::new();
    for i in 0..heaps.len() {
        for left in (0..heaps[i]).rev() {
            let mut after = heaps;
            after[i] = left;
            let shown: Vec<String> = (after.iter().filter(|&&h| h > 0))
                .map(|h| h.to_string())
                .collect();
            options.push(format!("nim[{}]", shown.join(", ")));
        }
    }
    let moves = run("moves nim[2, 1]");
    let listed: Vec<&str> = (moves.lines().skip(1))
        .map(|l| l.trim().split("  ").next().unwrap())
        .collect();
    let (mut listed, mut options) = (
        listed,
        options.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    listed.sort_unstable();
    options.sort_unstable();
    assert_eq!(listed, options, "{moves}");
    let kayles = run("moves kayles[2]");
    assert!(!kayles.contains("kayles[0"), "{kayles}");
}

#[test]
fn dot_to_a_file_writes_the_graph_it_would_print() {
    let folder = tempfile::tempdir().unwrap();
    let run = |source: &str| {
        let limits = grundy::game::Limits {
            root: grundy::files::Root::folder(folder.path().to_path_buf()),
            ..grundy::game::Limits::default()
        };
        grundy::run_to_string_with("explore", source, limits).unwrap()
    };
    let path = folder.path().join("g.dot");
    let game = "game g = graph { a -> b, c; b -> c; c -> d }";
    let printed = run(&format!("{game}\ndot g[a]"));
    let said = run(&format!(
        "{game}\ndot g[a] to {:?}",
        path.display().to_string()
    ));
    // The graph declared above: four nodes, a to b and c, b to c, c to d.
    assert_eq!(said, format!("wrote {} (4 positions)\n", path.display()));
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written, printed);
    assert_eq!(written.matches(" -> ").count(), 4, "{written}");
    assert_eq!(written.matches("[label=\"g[").count(), 4, "{written}");
    let gv = folder.path().join("g.gv");
    run(&format!(
        "{game}\ndot g[b] to {:?}",
        gv.display().to_string()
    ));
    assert_eq!(
        std::fs::read_to_string(&gv)
            .unwrap()
            .matches(" -> ")
            .count(),
        2
    );
}

/// What `query` prints in a session where `before` ran first (its output dropped), or its
/// errors' codes.
fn answer_after(declare: &str, before: &[&str], query: &str) -> Result<String, String> {
    let mut session = grundy::Session::new(grundy::game::Limits::default());
    session
        .run("declare", declare, &mut std::io::sink())
        .unwrap();
    for (i, statement) in before.iter().enumerate() {
        let _ = session.run(&format!("before {i}"), statement, &mut std::io::sink());
    }
    let mut out = Vec::new();
    match session.run("query", query, &mut out) {
        Ok(()) => Ok(String::from_utf8(out).unwrap()),
        Err(errors) => Err(errors
            .iter()
            .map(|e| miette::Diagnostic::code(e).map_or("?".into(), |c| format!("{c} ")))
            .collect()),
    }
}

#[test]
fn an_answer_does_not_depend_on_the_statements_before_it() {
    // halve: n -> n / 2, so G(n) is 1 exactly when n has an odd number of binary digits.
    let halve = |n: u64| (64 - n.leading_zeros()) % 2;
    // hd: n -> n / 2, and n -> n - 1 up to 10^6; bottom-up to 10^6, then halving.
    let mut low = vec![0u64; 1_000_001];
    for n in 1..low.len() {
        let options = [low[n / 2], low[n - 1]];
        low[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let hd = |mut n: u64| {
        let mut halvings = 0;
        while n > 1_000_000 {
            n /= 2;
            halvings += 1;
        }
        // Above 10^6 the one option is the half: each halving flips 0 and not 0.
        (0..halvings).fold(low[n as usize], |v, _| u64::from(v == 0))
    };
    let cases: &[(&str, &str, &[&str], &[&str])] = &[
        (
            "halve",
            "game halve on n { if n > 0 { n = n / 2 } }",
            &[
                "period halve",
                "sequence halve 0..=70000",
                "grundy halve[70000]",
                "moves halve[70000]",
                "compare halve, nim 0..=70000",
            ],
            &[
                "grundy halve[10^18]",
                "outcome halve[10^18 + 1] + nim[1]",
                "moves halve[10^18]",
                "sequence halve 10^15..=10^15 + 3",
            ],
        ),
        (
            // From 10^18, 40 halvings reach the heaps to 10^6, every one of which it reaches
            // (n - 1): once a table holds them, or in a fresh session, the same answer.
            "hd",
            "game hd on n { if n > 0 { n = n / 2 }; if n > 0 and n <= 1000000 { n -= 1 } }",
            &["grundy hd[1000000]", "period hd"],
            &["grundy hd[10^18]"],
        ),
        (
            // A heap sequence, whose own period and `period`'s answer huge heaps.
            "kayles",
            "",
            &[
                "period kayles",
                "sequence kayles 0..=5000",
                "grundy kayles[70000]",
                "compare kayles, dawson 0..=3000",
            ],
            &["grundy kayles[10^18]", "moves kayles[10^12]"],
        ),
    ];
    for (name, declare, befores, queries) in cases {
        for query in *queries {
            let fresh = answer_after(declare, &[], query);
            if query.starts_with("grundy halve") {
                assert_eq!(fresh, Ok(format!("{}\n", halve(10u64.pow(18)))));
            }
            if query.starts_with("grundy hd") {
                assert_eq!(fresh, Ok(format!("{}\n", hd(10u64.pow(18)))));
            }
            for before in *befores {
                assert_eq!(
                    answer_after(declare, &[before], query),
                    fresh,
                    "{name}: `{query}` after `{before}`"
                );
                assert_eq!(
                    answer_after(declare, &[query], before),
                    answer_after(declare, &[], before),
                    "{name}: `{before}` after `{query}`"
                );
            }
        }
    }
}
