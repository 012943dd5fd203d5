//! The REPL's back end driven without a terminal: lines in, a transcript out, as a terminal
//! would show it (prompts, the lines typed, answers and colour-free diagnostics).

use grundy::game::Limits;
use grundy::repl::{Backend, Reply, CONTINUATION, PROMPT};

fn transcript(lines: &[&str]) -> String {
    let mut repl = Backend::new(Limits::default());
    let mut text = String::new();
    for line in lines {
        let prompt = if repl.is_continuing() {
            CONTINUATION
        } else {
            PROMPT
        };
        text.push_str(&format!("{prompt}{line}\n"));
        match repl.feed(line) {
            Reply::More => {}
            Reply::Done(answer) => text.push_str(&answer.text()),
            Reply::Quit => text.push_str("(quit)\n"),
        }
    }
    text
}

fn answer(repl: &mut Backend, line: &str) -> String {
    match repl.feed(line) {
        Reply::Done(answer) => answer.text(),
        other => panic!("`{line}` gave {other:?}"),
    }
}

#[test]
fn prelude_query() {
    insta::assert_snapshot!(transcript(&["grundy nim[3, 4, 5]", "win nim[3, 4, 5]"]));
}

#[test]
fn three_line_definition_then_query() {
    insta::assert_snapshot!(transcript(&[
        "game g on n {",
        "    for k in 1..=min(3, n) { n -= k }",
        "}",
        "sequence g 0..=12",
        "moves g[5]",
    ]));
}

#[test]
fn continuation_after_trailing_operator_and_open_bracket() {
    insta::assert_snapshot!(transcript(&[
        "let x = 3 xor",
        "  5",
        "print [x,",
        "  x + 1]"
    ]));
}

#[test]
fn error_then_good_query() {
    insta::assert_snapshot!(transcript(&[
        "let heaps = [3, 4, 5]",
        "grundy nmi[heaps]",
        "print 1 / (heaps[0] - 3)",
        "grundy nim[heaps]",
    ]));
}

#[test]
fn failed_entry_leaves_the_session_as_it_was() {
    let mut repl = Backend::new(Limits::default());
    answer(&mut repl, "let x = 1");
    let failed = answer(&mut repl, "let x = 2\nprint nope");
    assert!(failed.contains("unknown name `nope`"), "{failed}");
    assert_eq!(answer(&mut repl, "print x"), "1\n");
}

#[test]
fn entries_are_numbered() {
    let mut repl = Backend::new(Limits::default());
    answer(&mut repl, "print 1");
    answer(&mut repl, ":games");
    let error = answer(&mut repl, "print )");
    assert!(error.contains("<repl:2>"), "{error}");
}

#[test]
fn games_lists_the_prelude_with_descriptions_and_yours() {
    let mut repl = Backend::new(Limits::default());
    answer(
        &mut repl,
        "game tri = subtraction {1, 3, 4}   # take 1, 3 or 4",
    );
    answer(&mut repl, "game kayles = octal 0.07");
    answer(
        &mut repl,
        "game moves2(m) on (a, b) {\n  for k in 1..=min(a, m) { a -= k }\n}",
    );
    let games = answer(&mut repl, ":games");
    assert!(
        games.contains("dawson         Dawson's Kayles"),
        "prelude game with its description:\n{games}"
    );
    insta::assert_snapshot!(games);
}

#[test]
fn games_shows_kayles_with_its_description() {
    let mut repl = Backend::new(Limits::default());
    let games = answer(&mut repl, ":games");
    let kayles = games.lines().find(|l| l.trim_start().starts_with("kayles"));
    assert_eq!(
        kayles
            .map(str::split_whitespace)
            .map(Iterator::collect::<Vec<_>>),
        Some(vec![
            "kayles", "knock", "down", "1", "or", "2", "adjacent", "pins"
        ])
    );
}

#[test]
fn load_runs_a_file_into_the_session() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/nim.game");
    let mut repl = Backend::new(Limits::default());
    let loaded = answer(&mut repl, &format!(":load {path}"));
    assert!(!loaded.contains('×'), "{loaded}");
    insta::assert_snapshot!(loaded);
}

#[test]
fn load_reports_errors_against_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.game");
    std::fs::write(&path, "let a = 1\nassert a == 2\n").unwrap();
    let mut repl = Backend::new(Limits {
        root: grundy::files::Root::folder(dir.path().to_path_buf()),
        ..Limits::default()
    });
    let text = answer(&mut repl, &format!(":load {}", path.display()));
    assert!(text.contains("assertion failed"), "{text}");
    assert!(text.contains("bad.game:2:8"), "{text}");
    let rolled_back = answer(&mut repl, "print a");
    assert!(rolled_back.contains("unknown name `a`"), "{rolled_back}");
    let missing = answer(&mut repl, ":load no-such-file.game");
    assert!(
        missing.contains("cannot read `no-such-file.game`"),
        "{missing}"
    );
}

#[test]
fn reset_forgets_a_definition() {
    insta::assert_snapshot!(transcript(&[
        "game g = subtraction {1, 2}",
        "let x = 5",
        "grundy g[x]",
        ":reset",
        "grundy g[x]",
        "grundy kayles[x]",
    ]));
}

#[test]
fn limit_makes_a_big_query_fail() {
    insta::assert_snapshot!(transcript(&[
        // A game searched state by state (`n % 1` keeps it from the heap sequences, which
        // only memory bounds).
        "game chain on n { if n > 0 { n -= 1 + n % 1 } }",
        ":limit 100",
        "grundy chain[500]",
        ":limit",
        "grundy chain[90]",
        ":limit 2_000",
        "grundy chain[500]",
        ":limit many",
    ]));
}

#[test]
fn limit_survives_a_reset() {
    let mut repl = Backend::new(Limits::default());
    answer(&mut repl, ":limit 100");
    answer(&mut repl, ":reset");
    let refused = answer(&mut repl, "grundy staircase[6, 6, 6, 6]");
    assert!(refused.contains("state limit of 100"), "{refused}");
}

#[test]
fn commands() {
    insta::assert_snapshot!(transcript(&[
        ":help",
        ":tiem",
        ":frobnicate",
        ":l",
        ":re",
        ":load",
        ":quit"
    ]));
}

#[test]
fn time_toggles() {
    let mut repl = Backend::new(Limits::default());
    assert_eq!(answer(&mut repl, ":time"), "timing on\n");
    let timed = answer(&mut repl, "grundy kayles[7]");
    assert!(timed.starts_with("2\ntime: "), "{timed}");
    // With the time, the method of each game the entry computed.
    assert!(
        timed.ends_with(&format!(
            "s\n  kayles: heap sequence: sparse space (no mask chosen yet: every pair; {} \
             kernels), takes and splits; periods proved by Guy–Smith\n",
            grundy::game::heap::Kernels::detect().name()
        )),
        "{timed}"
    );
    // The time is the last word on an entry: after its answer, and after its error too.
    let failed = answer(&mut repl, "print 1; grundy kayles[0 - 1]");
    let (error, time) = (
        failed.find("grundy::").unwrap(),
        failed.find("time: ").unwrap(),
    );
    assert!(failed.starts_with("1\n") && error < time, "{failed}");
    assert_eq!(answer(&mut repl, ":t"), "timing off\n");
    assert_eq!(answer(&mut repl, "grundy kayles[7]"), "2\n");
}

#[test]
fn interrupt_flag_cancels_an_entry_and_is_cleared_before_the_next() {
    let mut repl = Backend::new(Limits::default());
    let flag = repl.limits().interrupt.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let text = answer(
        &mut repl,
        "check grundy(nim[n]) >= 0 for n in 0..=100000000",
    );
    setter.join().unwrap();
    // How far it got: some cases, of the 100,000,001 the binder makes.
    let done = text
        .strip_prefix("interrupted after ")
        .and_then(|rest| rest.strip_suffix(" of 100,000,001 cases\n"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(done.replace(',', "").parse::<u64>().unwrap() > 0, "{text}");
    assert_eq!(answer(&mut repl, "grundy nim[3, 4, 5]"), "2\n");
}

#[test]
fn discard_forgets_an_unfinished_entry() {
    let mut repl = Backend::new(Limits::default());
    assert_eq!(repl.feed("game g on n {"), Reply::More);
    assert!(repl.is_continuing());
    repl.discard();
    assert!(!repl.is_continuing());
    assert_eq!(answer(&mut repl, "print 7"), "7\n");
}

#[test]
fn names_for_completion() {
    let mut repl = Backend::new(Limits::default());
    answer(&mut repl, "let my_heaps = [1, 2]");
    let names = repl.names();
    for name in [
        "my_heaps",
        "kayles",
        "bash",
        "mex",
        "grundy",
        "sequence",
        "unordered",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} missing");
    }
}

#[test]
fn a_failed_load_leaves_the_session_as_it_was() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("half.game");
    std::fs::write(
        &path,
        "game half on n { for k in 1..=n { n -= k } }\nlet x = 7\nassert grundy(half[3]) == 0\n",
    )
    .unwrap();
    let mut repl = Backend::new(Limits {
        root: grundy::files::Root::folder(folder.path().to_path_buf()),
        ..Limits::default()
    });
    answer(&mut repl, "let x = 1");
    let loaded = answer(&mut repl, &format!(":load {}", path.display()));
    assert!(loaded.contains("assertion failed"), "{loaded}");
    assert_eq!(answer(&mut repl, "print x"), "1\n");
    let missing = answer(&mut repl, "grundy half[3]");
    assert!(missing.contains("unknown name `half`"), "{missing}");
}

#[test]
fn a_game_keeps_the_globals_it_was_declared_with() {
    let mut repl = Backend::new(Limits::default());
    answer(&mut repl, "let m = 2");
    answer(
        &mut repl,
        "game capped on n { for k in 1..=min(m, n) { n -= k } }",
    );
    assert_eq!(answer(&mut repl, "print grundy(capped[5])"), "2\n");
    // Its values are remembered, so a later `let` does not change its moves...
    answer(&mut repl, "let m = 3");
    assert_eq!(answer(&mut repl, "print grundy(capped[5])"), "2\n");
    // ...and declaring it again reads the new value.
    answer(
        &mut repl,
        "game capped on n { for k in 1..=min(m, n) { n -= k } }",
    );
    assert_eq!(answer(&mut repl, "print grundy(capped[5])"), "1\n");
}

#[test]
fn moves_in_unordered_games_show_the_state_as_played() {
    // Three winning moves leave the same multiset; each is shown as the rules play it.
    insta::assert_snapshot!(transcript(&[
        "win xor_nim[1, 4, 5, 2, 6]",
        "moves xor_nim[1, 2, 3]"
    ]));
}

/// The quoted words of a piece of the grammar.
fn quoted(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_keywords_are_those_of_the_grammar() {
    let grammar = include_str!("../../grammar/grundy.pest");
    let mut in_grammar: Vec<String> = grammar
        .lines()
        .filter(|line| line.starts_with("kw_"))
        .map(|line| {
            let word = quoted(line).into_iter().next();
            word.unwrap_or_else(|| panic!("a keyword rule without its word: {line}"))
        })
        .collect();
    let reserved = grammar
        .split_once("keyword    = @{")
        .and_then(|(_, rest)| rest.split_once('}'))
        .expect("the grammar's `keyword` rule")
        .0;
    for word in quoted(reserved) {
        assert!(
            in_grammar.contains(&word),
            "the reserved word `{word}` has no kw_ rule"
        );
    }
    let mut in_repl: Vec<String> = grundy::repl::KEYWORDS
        .iter()
        .map(|k| k.to_string())
        .collect();
    in_grammar.sort();
    in_repl.sort();
    assert_eq!(in_repl, in_grammar, "the REPL's keywords and the grammar's");
}

#[test]
fn a_blank_line_ends_an_unfinished_entry_with_a_note() {
    let text = transcript(&[
        "table wythoff 0..10",
        "",
        "print 2",
        "game g on n {",
        "    for k in 1..=n { n -= k }",
        "",
        "g",
    ]);
    insta::assert_snapshot!(text);
    assert!(
        text.contains("not run: `table wythoff 0..10` was unfinished"),
        "{text}"
    );
    assert!(text.contains("grundy> print 2\n2\n"), "{text}");
    assert!(
        text.contains("not run: `game g on n { ...` was unfinished"),
        "{text}"
    );
    // The game was never declared.
    assert!(text.contains("unknown name `g`"), "{text}");
}

#[test]
fn a_bare_game_name_describes_the_game() {
    let text = transcript(&[
        "kayles",
        "bash",
        "game g on n {  # take one or two",
        "    for k in 1..=min(2, n) { n -= k }",
        "}",
        "g",
        "let k = kayles",
        "k",
    ]);
    insta::assert_snapshot!(text);
    let prelude = grundy::PRELUDE;
    let kayles = prelude
        .lines()
        .find(|l| l.starts_with("game kayles "))
        .unwrap()
        .split('#')
        .next()
        .unwrap()
        .trim_end();
    assert!(text.contains("grundy> kayles\nkayles is a game, from the prelude"));
    assert!(text.contains(kayles), "{text}");
    assert!(text.contains("bash(m) is a game family of 1 parameter, from the prelude"));
    assert!(
        text.contains("g is a game: take one or two\ngame g on n {"),
        "{text}"
    );
    // A `let` name is a value, printed as it is.
    assert!(text.ends_with("grundy> k\nkayles\n"), "{text}");
}

#[test]
fn help_topics_of_a_statement_a_function_and_commands() {
    insta::assert_snapshot!(transcript(&[
        ":help period",
        ":help len",
        ":help :limit",
        ":help limit",
    ]));
}

#[test]
fn help_of_a_word_that_is_a_statement_and_a_function_shows_both() {
    let mut repl = Backend::new(Limits::default());
    let text = answer(&mut repl, ":help grundy");
    let statement = text.find("section \"Queries\"").expect("the statement");
    let function = text
        .find("section \"Built-in functions\"")
        .expect("the function");
    assert!(statement < function, "{text}");
    assert!(text.contains("    grundy nim[3, 4, 5]"), "{text}");
}

#[test]
fn help_of_an_unknown_topic_suggests_the_nearest() {
    insta::assert_snapshot!(transcript(&[
        ":help perod",
        ":help mises",
        ":help :lmit",
        ":help zzzzzzzz"
    ]));
}

#[test]
fn help_of_misere_is_the_section_on_misere_play() {
    let mut repl = Backend::new(Limits::default());
    let text = answer(&mut repl, ":help misere");
    assert!(
        text.starts_with("misere  (docs/LANGUAGE.md, section \"Misère play\")\n\n`misere p` is"),
        "{text}"
    );
    assert!(
        text.contains("    grundy misere nim[1, 1]"),
        "its example: {text}"
    );
    assert!(
        !text.contains("genus"),
        "the genus is a topic of its own: {text}"
    );
}

/// A thread that presses Ctrl-C as soon as the running entry reports some progress, and gives
/// the reading it saw.
fn interrupt_once_progress_shows(
    repl: &Backend,
) -> std::thread::JoinHandle<grundy::game::progress::Reading> {
    let progress = repl.limits().progress.clone();
    let flag = repl.limits().interrupt.clone();
    std::thread::spawn(move || loop {
        if let Some(reading) = progress.read().filter(|r| r.done > 0) {
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
            return reading;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    })
}

#[test]
fn a_check_a_table_and_a_sequence_report_their_progress_while_they_run() {
    for (entry, what, unit, total) in [
        (
            "check grundy(nim[n]) >= 0 for m in 0..10, n in 0..=10000000",
            "check",
            "cases",
            100_000_010,
        ),
        (
            "table wythoff 0..4000, 0..4000",
            "table",
            "cells",
            16_000_000,
        ),
        (
            "sequence grundys 0..=10000000",
            "sequence",
            "heaps",
            10_000_001,
        ),
    ] {
        let mut repl = Backend::new(Limits::default());
        let watcher = interrupt_once_progress_shows(&repl);
        let text = answer(&mut repl, entry);
        let reading = watcher.join().unwrap();
        assert_eq!(
            (reading.task.what.as_str(), reading.task.unit, reading.total),
            (what, unit, total),
            "{entry}"
        );
        assert!(text.starts_with("interrupted after "), "{entry}: {text}");
        assert!(repl.limits().progress.read().is_none(), "the task ended");
    }
}

#[test]
fn a_check_whose_binders_depend_on_each_other_counts_without_a_total() {
    let mut repl = Backend::new(Limits::default());
    let watcher = interrupt_once_progress_shows(&repl);
    let text = answer(&mut repl, "check a <= b for b in 0..=100000000, a in 0..=b");
    let reading = watcher.join().unwrap();
    assert_eq!(reading.total, 0, "unknown before the cases run");
    assert!(
        text.starts_with("interrupted after ")
            && text.ends_with(" cases\n")
            && !text.contains(" of "),
        "{text}"
    );
}

#[test]
fn a_game_with_no_rules_is_declared_with_a_warning() {
    let mut repl = Backend::new(Limits::default());
    let Reply::Done(declared) = repl.feed("game empty on n { }") else {
        panic!()
    };
    assert!(declared.output.is_empty(), "{declared:?}");
    assert!(
        declared.errors.contains("grundy::no_rules")
            && declared.errors.contains("the game `empty` has no rules"),
        "{}",
        declared.errors
    );
    // Declared all the same: no position has a move, so each is a P-position.
    assert_eq!(answer(&mut repl, "grundy empty[5]"), "0\n");
    assert_eq!(
        answer(&mut repl, "game one on n { if n > 0 { n -= 1 } }"),
        ""
    );
}

#[test]
fn python_ways_of_asking_for_help_and_leaving_work_at_the_prompt() {
    let mut repl = Backend::new(Limits::default());
    let index = answer(&mut repl, ":help");
    let period = answer(&mut repl, ":help period");
    assert!(period.contains("period"), "{period}");
    for line in ["help", "help()", " help ", "?"] {
        assert_eq!(answer(&mut repl, line), index, "{line}");
    }
    for line in ["help(period)", "?period", "period?", "help( period )"] {
        assert_eq!(answer(&mut repl, line), period, "{line}");
    }
    assert_eq!(
        answer(&mut repl, "?:limit"),
        answer(&mut repl, ":help :limit")
    );
    for line in ["quit", "exit", "quit()", "exit()"] {
        assert_eq!(
            Backend::new(Limits::default()).feed(line),
            Reply::Quit,
            "{line}"
        );
    }
    // Declared, they are names like any other.
    answer(&mut repl, "let help = 7");
    answer(&mut repl, "let quit = 8");
    assert_eq!(answer(&mut repl, "help"), "7\n");
    assert_eq!(answer(&mut repl, "quit"), "8\n");
    // What is not a topic runs as an entry, and gets its diagnostic.
    let text = answer(&mut repl, "print 1 ?");
    assert!(text.contains("`?` is not part of the language"), "{text}");
}

#[test]
fn l_loads_and_reload_runs_the_loaded_files_again_in_a_fresh_session() {
    let folder = tempfile::tempdir().unwrap();
    let first = folder.path().join("first.game");
    let second = folder.path().join("second.game");
    std::fs::write(&first, "let a = 1\n").unwrap();
    std::fs::write(&second, "let b = a + 10\n").unwrap();
    let mut repl = Backend::new(Limits::default());
    repl.set_root(grundy::files::Root::folder(folder.path().to_path_buf()));
    assert_eq!(
        answer(&mut repl, ":reload"),
        "no file to reload: `:load FILE` first\n"
    );
    assert_eq!(answer(&mut repl, &format!(":l {}", first.display())), "");
    assert_eq!(
        answer(&mut repl, &format!(":load {}", second.display())),
        ""
    );
    answer(&mut repl, "let typed = 5");
    assert_eq!(answer(&mut repl, "print b"), "11\n");
    std::fs::write(&first, "let a = 2\n").unwrap();
    let reloaded = answer(&mut repl, ":r");
    assert_eq!(
        reloaded,
        format!(
            "reloaded {}\nreloaded {}\n",
            first.display(),
            second.display()
        )
    );
    assert_eq!(answer(&mut repl, "print b"), "12\n");
    // A fresh session: what was typed is forgotten, as ghci's `:reload` forgets it.
    assert!(answer(&mut repl, "print typed").contains("unknown name `typed`"));
    // A file that fails is reported, and the others still run.
    std::fs::write(&first, "let a = \n").unwrap();
    let failed = answer(&mut repl, ":reload");
    assert!(failed.contains("first.game"), "{failed}");
    assert!(failed.contains("unknown name `a`"), "{failed}");
    // `:reset` forgets the files too.
    answer(&mut repl, ":reset");
    assert!(answer(&mut repl, ":reload").starts_with("no file to reload"));
}

fn completions(repl: &Backend, line: &str) -> (usize, Vec<String>) {
    repl.words().complete(line, line.len())
}

#[test]
fn tab_completes_commands_help_topics_and_game_names() {
    let mut repl = Backend::new(Limits::default());
    answer(&mut repl, "game mine on n { for k in 1..=n { n -= k } }");
    answer(&mut repl, "let mine_too = 3");
    assert_eq!(
        completions(&repl, ":l"),
        (0, vec![":limit".to_string(), ":load".to_string()])
    );
    assert_eq!(completions(&repl, ":rel"), (0, vec![":reload".to_string()]));
    // After `:help` (or a prefix of it), the topics.
    let (start, topics) = completions(&repl, ":help per");
    assert_eq!((start, topics), (6, vec!["period".to_string()]));
    let (_, topics) = completions(&repl, ":h :li");
    assert_eq!(topics, vec![":limit".to_string()]);
    let (_, topics) = completions(&repl, ":help ");
    for topic in ["period", "len", "misere", ":limit"] {
        assert!(topics.iter().any(|t| t == topic), "{topic} in {topics:?}");
    }
    // After `:method`, the games and families only.
    let (start, games) = completions(&repl, ":method mi");
    assert_eq!((start, games), (8, vec!["mine".to_string()]));
    let (_, games) = completions(&repl, ":m ");
    for game in ["kayles", "bash", "wythoff", "mine"] {
        assert!(games.iter().any(|g| g == game), "{game} in {games:?}");
    }
    assert!(
        !games.iter().any(|g| g == "mex" || g == "mine_too"),
        "{games:?}"
    );
    // In an entry, every name, built-in function and keyword.
    let (start, names) = completions(&repl, "print min");
    assert_eq!(
        (start, names),
        (6, ["min", "mine", "mine_too"].map(String::from).to_vec())
    );
    assert_eq!(completions(&repl, "print 3").1, Vec::<String>::new());
}
