//! Searches that grow without end stop at a small memory limit with that limit's diagnostic,
//! and the peak memory of the process, as the kernel measured it (`wait4`), stays within the
//! limit plus a small constant above the interpreter's own footprint.

use crate::support::measured;

/// The memory limit the runaways run under, in MiB.
const LIMIT_MIB: usize = 64;

/// What the process may hold beyond its own footprint and the limit: the allocator's slack
/// and the buffers of one listing step, in KiB.
const SLACK_KIB: usize = 8 << 10;

/// Runs the interpreter on `source` with `--max-memory`, and measures its peak memory.
fn run(source: &str) -> measured::Run {
    measured::run_measured(&["--max-memory", &LIMIT_MIB.to_string()], source)
}

/// Runs a runaway and checks that it ends with `code`'s diagnostic within the memory bound.
fn stops_within_the_limit(source: &str, code: &str) {
    stops_within_the_limit_with(&[], source, code);
}

/// [`stops_within_the_limit`] with more arguments for the runaway.
fn stops_within_the_limit_with(args: &[&str], source: &str, code: &str) {
    stops_within_a_limit_of(LIMIT_MIB, args, source, code);
}

/// [`stops_within_the_limit_with`] under a limit of `limit_mib` MiB.
fn stops_within_a_limit_of(limit_mib: usize, args: &[&str], source: &str, code: &str) {
    let baseline = run("print 1");
    assert_eq!(baseline.code, Some(0));
    let limit = limit_mib.to_string();
    let runaway = measured::run_measured(&[&["--max-memory", &limit], args].concat(), source);
    assert_eq!(runaway.code, Some(1), "{source}: {}", runaway.stderr);
    assert!(
        runaway.stderr.contains(code),
        "{source}: wanted {code}, got {}",
        runaway.stderr
    );
    let bound = baseline.peak_kib + (limit_mib << 10) + SLACK_KIB;
    assert!(
        runaway.peak_kib <= bound,
        "{source}: peak {} KiB, more than {} KiB (baseline {} KiB + {limit_mib} MiB + {SLACK_KIB} KiB)",
        runaway.peak_kib,
        bound,
        baseline.peak_kib,
    );
}

#[test]
fn an_exploding_list_game_stops_at_the_memory_limit() {
    stops_within_the_limit(
        "game blow on h[] { for i in 0..len(h) { h[i] += 1 } }\ngrundy blow[0, 0, 0]",
        "grundy::memory_limit",
    );
}

/// Chomp's table of the 16 by 16 box, 601 million diagrams a byte each, is refused before it
/// is made.
#[test]
fn a_chomp_board_whose_table_passes_the_limit_is_refused() {
    stops_within_the_limit(
        "game chomp on s[] { for i in 0..len(s), k in 0..s[i] if i > 0 or k > 0 { \
         for j in i..len(s) { s[j] = min(s[j], k) } } }\ngrundy chomp[repeat(16, 16)]",
        "grundy::memory_limit",
    );
}

#[test]
fn a_counter_chain_10_to_the_18_deep_stops_at_the_memory_limit() {
    stops_within_the_limit(
        "game ch on (n, t) { if n > 0 { n -= 1 } }\ngrundy ch[10^18, 0]",
        "grundy::memory_limit",
    );
}

#[test]
fn staircase_with_10_to_the_18_coins_stops_at_the_memory_limit() {
    stops_within_the_limit("grundy staircase[10^18, 1]", "grundy::memory_limit");
}

#[test]
fn a_misere_chain_stops_at_the_memory_limit() {
    stops_within_the_limit(
        "game ch on (n, t) { if n > 0 { n -= 1 } }\nprint outcome(misere ch[10^18, 0])",
        "grundy::memory_limit",
    );
}

#[test]
fn a_loopy_game_reaching_every_heap_stops_at_the_memory_limit() {
    stops_within_the_limit(
        "game up on n { if n > 0 { n -= 1 }\n { n += 1 } }\nprint outcome(up[0])",
        "grundy::memory_limit",
    );
}

#[test]
fn reading_a_file_without_end_stops_at_the_memory_limit() {
    // `/dev/zero` is outside the working folder: `--root /` allows it.
    stops_within_the_limit_with(
        &["--root", "/"],
        "let h = read(\"/dev/zero\")",
        "grundy::memory_limit",
    );
}

#[test]
fn a_huge_heap_of_sparse_reach_answers_in_little_memory() {
    let answered = run("game halve on n { if n > 0 { n = n / 2 } }\ngrundy halve[10^18]");
    assert_eq!(answered.code, Some(0), "{}", answered.stderr);
    // 10^18 has 60 binary digits: 60 moves to 0, an even number, so the value is 0.
    assert_eq!(answered.stdout.trim(), "0");
    assert!(answered.peak_kib < run("print 1").peak_kib + SLACK_KIB);
}

/// Runs the interpreter on the program `text`, written to a file, under the memory limit.
fn run_file(name: &str, text: &str) -> measured::Run {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    let limit = LIMIT_MIB.to_string();
    let run = measured::run_measured_args(&["--max-memory", &limit, path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    run
}

fn within_the_limit(run: &measured::Run, what: &str) {
    let baseline = self::run("print 1");
    let bound = baseline.peak_kib + (LIMIT_MIB << 10) + SLACK_KIB;
    assert!(
        run.peak_kib <= bound,
        "{what}: peak {} KiB, more than {bound} KiB",
        run.peak_kib
    );
}

#[test]
fn a_long_program_is_parsed_statement_by_statement_within_the_limit() {
    // 2 MB of statements: parsed whole, pest's tokens alone took about 250 MB.
    let text = format!("{}let y = 2\nprint x + y\n", "let x = 1\n".repeat(200_000));
    let ran = run_file("runaway_long_program.game", &text);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(ran.stdout, "3\n");
    within_the_limit(&ran, "200,000 statements");
}

#[test]
fn a_program_of_10_mb_is_run_within_the_limit() {
    // A million statements: parsed whole, 1.2 GiB.
    let text = format!("{}print x\n", "let x = 1\n".repeat(1_000_000));
    let ran = run_file("runaway_10_mb.game", &text);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(ran.stdout, "1\n");
    within_the_limit(&ran, "a program of 10 MB");
}

#[test]
fn a_program_of_100_mb_is_refused_within_the_limit() {
    // It aborted inside the parser (an allocation of 10 GiB); now its size is checked first.
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("runaway_100_mb.game");
    std::fs::File::create(&path)
        .unwrap()
        .set_len(100 << 20)
        .unwrap();
    let limit = LIMIT_MIB.to_string();
    let refused = measured::run_measured_args(&["--max-memory", &limit, path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("grundy::program_memory"),
        "{}",
        refused.stderr
    );
    within_the_limit(&refused, "a program of 100 MB");
}

#[test]
fn a_statement_too_long_to_parse_within_the_limit_is_refused() {
    // A graph of 10^6 nodes took 864 MiB to parse.
    for count in [100_000, 1_000_000] {
        let edges: String = (0..count)
            .map(|i| format!("  n{i} -> n{}\n", i + 1))
            .collect();
        let text = format!("print 1\ngame g = graph {{\n{edges}}}\nprint grundy(g[\"n0\"])\n");
        let refused = run_file("runaway_long_statement.game", &text);
        assert_eq!(refused.code, Some(1), "{}", refused.stderr);
        assert!(
            refused.stderr.contains("grundy::statement_memory"),
            "{}",
            refused.stderr
        );
        assert_eq!(
            refused.stdout, "",
            "a file runs nothing when a statement is refused"
        );
        within_the_limit(
            &refused,
            &format!("a graph of {count} edges in one statement"),
        );
    }
}

#[test]
fn the_longest_statement_allowed_parses_within_the_limit() {
    // About 60 KB of the densest shape (six rules matched for each byte, as in `[-1,-1]`):
    // the longest statement the 64 MiB limit lets parse.
    let count = 20_000;
    let text = format!("print len([{}-1])\n", "-1,".repeat(count));
    let ran = run_file("runaway_dense_statement.game", &text);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(ran.stdout.trim(), (count + 1).to_string());
    within_the_limit(&ran, "a list of 20,001 elements in one statement");
}

#[test]
fn a_list_of_small_lists_stops_at_the_memory_limit() {
    // 20 million lists of four: some 3.5 GB when nothing counted them.
    stops_within_the_limit(
        "let x = [[a, b, a, b] for a in 0..4000, b in 0..4999]",
        "grundy::memory_limit",
    );
}

#[test]
fn a_list_of_long_lists_stops_at_the_memory_limit() {
    stops_within_the_limit(
        "let x = [[n for n in 0..10^6] for m in 0..1000]",
        "grundy::memory_limit",
    );
}

#[test]
fn lists_held_by_globals_count_together() {
    // Each list of 10^6 fits alone; together they pass the limit.
    let lists: Vec<String> = (0..6)
        .map(|i| format!("let x{i} = [n for n in 0..10^6]"))
        .collect();
    stops_within_the_limit(&lists.join("\n"), "grundy::memory_limit");
}

#[test]
fn a_sequence_too_long_to_hold_stops_at_the_memory_limit() {
    stops_within_the_limit("sequence nim 0..=10^7", "grundy::memory_limit");
}

#[test]
fn a_table_too_large_to_hold_stops_at_the_memory_limit() {
    // 9 million cells of 24 bytes.
    stops_within_the_limit(
        "table a * b for a in 0..3000, b in 0..3000",
        "grundy::memory_limit",
    );
}

#[test]
fn a_parallel_check_keeps_its_workers_within_the_limit() {
    // Each case builds a list of some 32 MB (48 MB as it last grows): one fits in the limit, two at once do not, so the
    // workers that meet the limit leave their cases to the main thread, which runs them alone.
    let source = "check len([n for n in 0..10^6]) == 10^6 for a in 0..30";
    let baseline = run("print 1");
    let swept = measured::run_measured(
        &["--max-memory", &LIMIT_MIB.to_string(), "--threads", "2"],
        source,
    );
    assert_eq!(swept.code, Some(0), "{}", swept.stderr);
    let bound = baseline.peak_kib + (LIMIT_MIB << 10) + SLACK_KIB;
    assert!(
        swept.peak_kib <= bound,
        "peak {} KiB, more than {bound} KiB",
        swept.peak_kib
    );
}

#[test]
fn several_reads_count_together() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("heaps.txt");
    let numbers: Vec<String> = (0..1_000_000)
        .map(|n: u32| (n % 1000).to_string())
        .collect();
    std::fs::write(&file, numbers.join("\n")).unwrap();
    let path = file.display().to_string();
    // One list of 10^6 integers fits in the limit; six do not.
    let reads: Vec<String> = (0..6)
        .map(|i| format!("let h{i} = read({path:?})"))
        .collect();
    let root = dir.path().display().to_string();
    stops_within_the_limit_with(
        &["--root", &root],
        &reads.join("\n"),
        "grundy::memory_limit",
    );
}

/// Plots `plot` (`FILE` standing for a file of the name `name` in a folder of its own), which
/// stops at the memory limit without writing the file.
fn a_picture_stops_at_the_memory_limit(name: &str, plot: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name).display().to_string();
    let root = dir.path().display().to_string();
    stops_within_the_limit_with(
        &["--root", &root],
        &plot.replace("FILE", &format!("{file:?}")),
        "grundy::memory_limit",
    );
    assert!(!std::path::Path::new(&file).exists());
}

#[test]
fn a_large_picture_stops_at_the_memory_limit() {
    a_picture_stops_at_the_memory_limit(
        "w.png",
        "plot table wythoff 0..100, 0..100 to FILE size 8192 x 8192",
    );
}

#[test]
fn the_text_of_a_large_svg_picture_stops_at_the_memory_limit() {
    // A million cells: 86 MB of text, built whole before it was written (111 MiB at a limit of
    // 64).
    a_picture_stops_at_the_memory_limit("w.svg", "plot table wythoff 0..1000, 0..1000 to FILE");
}

#[test]
fn a_sequence_written_to_a_file_is_streamed_and_said_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nim.csv").display().to_string();
    // Five million values held would take some 120 MB; written as found, almost nothing.
    let baseline = run("print 1");
    let root = dir.path().display().to_string();
    let limit = LIMIT_MIB.to_string();
    let written = measured::run_measured(
        &["--max-memory", &limit, "--root", &root],
        &format!("sequence nim 0..=4999999 to {file:?}"),
    );
    assert_eq!(written.code, Some(0), "{}", written.stderr);
    assert_eq!(
        written.stdout,
        format!("wrote 5000000 values of nim (n = 0..=4999999) to {file}\n")
    );
    assert!(
        written.peak_kib < baseline.peak_kib + SLACK_KIB,
        "peak {} KiB",
        written.peak_kib
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("n,value"));
    // Nim's heap n has value n.
    assert!(lines
        .enumerate()
        .all(|(i, line)| line == format!("{i},{i}")));
}

#[test]
fn threads_past_four_a_core_are_refused() {
    let refused = run_with_threads("100000");
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(refused.stderr.contains("a core"), "{}", refused.stderr);
    assert_eq!(run_with_threads("2").code, Some(0));
}

fn run_with_threads(threads: &str) -> measured::Run {
    measured::run_measured(&["--threads", threads], "print 1")
}

/// Wythoff's game written again under another name: a game of its own, with tables of its own.
const WYTHOFF_AGAIN: &str = "game w on (a, b) {
    for k in 1..=a { a -= k }
    for k in 1..=b { b -= k }
    for k in 1..=min(a, b) { a -= k; b -= k }
}";

#[test]
fn the_tables_of_several_games_count_together() {
    // Each sweep of 3001 x 3001 values (some 36 MB, and the sets of its lines) fits alone;
    // the second must see the first's tables, kept for the rest of the session.
    stops_within_the_limit(
        &format!("grundy wythoff[3000, 3000]\n{WYTHOFF_AGAIN}\ngrundy w[3000, 3000]"),
        "grundy::memory_limit",
    );
}

#[test]
fn a_list_sees_the_tables_a_game_keeps() {
    // The sweep's 36 MB and a list of 10^6 integers (32 MB) do not fit in 64 MiB together.
    stops_within_the_limit(
        "grundy wythoff[3000, 3000]\nlet x = [n for n in 0..10^6]",
        "grundy::memory_limit",
    );
}

#[test]
fn p_positions_of_a_box_too_large_stop_at_once_on_two_threads() {
    // 4000 x 4000 values of four bytes are 64 MB alone. Swept row by row, the box grew a row
    // at a time once doubling no longer fitted, each time sweeping it all again (minutes).
    let started = std::time::Instant::now();
    for statement in ["ppos", "table"] {
        stops_within_the_limit_with(
            &["--threads", "2"],
            &format!("{statement} wythoff 0..4000, 0..4000"),
            "grundy::memory_limit",
        );
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_officers_sequence_of_10_to_the_7_stops_within_the_limit() {
    // Its values alone are 10^7 heaps; the answer held beside them does not fit.
    stops_within_the_limit("sequence officers 0..=10^7", "grundy::memory_limit");
}

/// A check each of whose cases searches a little further: the table of a million states and more
/// does not fit.
const GROWING_CHECK: &str = "game g on (a, b) {\n  if a > 0 { a -= 1 }\n  if b > 0 { b -= 1 }\n}\n\
                             check grundy(g[a, b]) >= 0 for a in 0..2, b in 0..600000";

#[test]
fn a_check_of_a_growing_search_stops_within_the_limit() {
    // Each case searches a little further: the table of a million states and more does not
    // fit. A value written over a state's mark in a full table made hashbrown grow it first
    // (it reserves before it looks), unchecked: 104 MiB under a limit of 64.
    stops_within_the_limit_with(&["--threads", "1"], GROWING_CHECK, "grundy::memory_limit");
}

#[test]
fn a_list_built_inside_a_rule_stops_at_the_memory_limit() {
    // Rules ran on a host with no ledger: a list of 10^7 in a rule reached 234 MiB under 64.
    stops_within_the_limit(
        "game big on n { if n > 0 and len([k for k in 0..10^7]) > 0 { n -= 1 } }\ngrundy big[3]",
        "grundy::memory_limit",
    );
}

#[test]
fn without_a_limit_given_a_list_stops_within_the_address_space_allowed() {
    // Under `ulimit -v` the default limit of 4 GiB was never reached: the allocator aborted
    // the process (SIGABRT, "memory allocation failed") with no diagnostic.
    let space: u64 = 512 << 20;
    let ran = measured::run_measured_in_address_space(
        space,
        &[],
        "let x = [[n for n in 0..10^6] for m in 0..1000]",
    );
    let stopped = ran.code == Some(1) && ran.stderr.contains("grundy::memory_limit");
    assert!(stopped, "{:?}: {}", ran.code, ran.stderr);
    assert!(
        ran.peak_kib < (space >> 10) as usize,
        "peak {} KiB",
        ran.peak_kib
    );
}

#[test]
fn the_misere_memos_kept_count_against_a_list() {
    // The misère search of 150,000 sums fits alone (49 MiB at its peak), and so does the list;
    // the memos kept after it leave no room for the list.
    stops_within_the_limit(
        "game ch on (n, t) { if n > 0 { n -= 1 } }\nprint outcome(misere ch[150000, 0])\n\
         let x = [n for n in 0..10^6]",
        "grundy::memory_limit",
    );
}

#[test]
fn the_loopy_values_kept_count_against_a_search() {
    // A loopy game of 100,001 states, labelled, and then the sweep of Wythoff's game, which
    // fits alone (48 MiB at its peak): the values kept leave it too little room.
    stops_within_the_limit(
        "game lp on (n, m) { if n > 0 { n -= 1 }\n if n < m { n += 1 } }\n\
         print outcome(lp[0, 100000])\ngrundy wythoff[3000, 3000]",
        "grundy::memory_limit",
    );
}

#[test]
fn a_check_of_a_growing_search_on_two_threads_stops_within_the_limit() {
    // The same on two workers: each one's stack was unseen by the other, the cases queued for
    // them and the shards taken back into the tables were not counted, and glibc kept freed
    // tables in its heaps: 112 MiB under a limit of 64.
    stops_within_the_limit_with(&["--threads", "2"], GROWING_CHECK, "grundy::memory_limit");
}

#[test]
fn cram_on_a_large_board_stops_at_the_memory_limit() {
    stops_within_the_limit(
        "game cram on cells c { for x in c, y in neighbours(c, x) if y > x and y in c { c -= {x, y} } }\ngrundy cram[grid(11, 11)]",
        "grundy::memory_limit",
    );
}

#[test]
fn a_state_list_built_by_compiled_rules_stops_at_the_memory_limit() {
    // The list of the whole-state assignment, the copy the rules change and the search's copy
    // of the child were not counted: 99 MiB under a limit of 64 (a list of 24 MB).
    stops_within_the_limit(
        "game rp on h[] { if len(h) < 2 { h = h ++ repeat(7, 3 * 10^6) } }\ngrundy rp[[]]",
        "grundy::memory_limit",
    );
}

#[test]
fn a_list_built_inside_a_function_stops_at_the_memory_limit() {
    stops_within_the_limit(
        "let f(n) = len([k for k in 0..n])\nprint f(10^8)",
        "grundy::memory_limit",
    );
}

#[test]
fn a_list_not_yet_assigned_stops_at_the_memory_limit() {
    stops_within_the_limit("print len([k for k in 0..10^8])", "grundy::memory_limit");
}

#[test]
fn two_finished_lists_not_assigned_count_together() {
    // Each list of 10^6 (32 MB) fits alone; both are held while they are compared.
    stops_within_the_limit(
        "let f(n) = [k for k in 0..n]\nprint f(10^6) == f(10^6)",
        "grundy::memory_limit",
    );
}

#[test]
fn lists_built_by_a_recursive_function_count_together() {
    // Each call's list of 10^5 fits; the lists of the calls still running do not.
    stops_within_the_limit(
        "let f(n) = if n == 0 then [] else f(n - 1) ++ [[k for k in 0..10^5]]\nprint len(f(100))",
        "grundy::memory_limit",
    );
}

#[test]
fn a_table_of_wythoff_too_large_stops_within_a_limit_of_256() {
    // The answer's rows and the sweep's values fill the limit; the cells queued for the
    // workers and their results were not counted: 270 MiB under a limit of 256.
    stops_within_a_limit_of(
        256,
        &["--threads", "2"],
        "table wythoff 0..4000, 0..4000",
        "grundy::memory_limit",
    );
}

#[test]
fn the_genera_kept_count_while_a_misere_outcome_is_searched() {
    // The genera of 490,000 sums fill most of the limit; while the outcome of other sums was
    // searched, they were not counted: it answered, at 78 MiB under a limit of 64.
    stops_within_the_limit(
        "game ch on (n, t) { if n > 0 { n -= 1 } }\ngenus ch[700, 0] + ch[700, 1]\n\
         print outcome(misere ch[500, 2] + ch[500, 3])",
        "grundy::memory_limit",
    );
}

#[test]
fn a_misere_sum_of_heaps_of_a_million_options_stops_within_the_limit() {
    // Each heap lists its million options (some 56 MB as states, 88 MB as parts, 56 MB more as
    // the keys of the sums they leave), none of them counted: 96 MiB under a limit of 64.
    stops_within_the_limit(
        "game t on n { for k in 0..n { n = k } }\nprint outcome(misere t[10^6] + t[10^6])",
        "grundy::memory_limit",
    );
}

#[test]
fn the_quotient_of_millions_of_heaps_stops_within_the_limit() {
    // The quotient of order 2 of a million heaps holds some 200 bytes a heap; it was not
    // counted as it grew, each heap tried copied them all, and the quotient kept was copied
    // once more: 446 MiB under a limit of 64. Ten million heaps stop in their closure, whose
    // list of heaps and marks were not counted either: 4.7 GiB.
    for last in ["10^6", "10^7"] {
        stops_within_the_limit(
            &format!("game s1 = subtraction {{1}}\nquotient s1 0..={last}"),
            "grundy::memory_limit",
        );
    }
}

#[test]
fn a_state_list_grown_by_walked_rules_stops_within_the_limit() {
    // A function that calls itself keeps the rules from being compiled: the walker runs. Its
    // copies of each state (the values bound, bound again for each rule, the state kept to
    // restore them) and each option read back were not counted: 88 MiB under a limit of 64.
    stops_within_the_limit(
        "let f(n) = if n == 0 then 0 else f(n - 1)\n\
         game rp on h[] { if len(h) < 10^7 and f(1) == 0 { h = h ++ repeat(7, 3 * 10^5) } }\n\
         grundy rp[[]]",
        "grundy::memory_limit",
    );
}
