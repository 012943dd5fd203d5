//! Searches that grow without end stop at a small memory limit with that limit's diagnostic,
//! and the peak memory of the process, as the kernel measured it (`wait4`), stays within the
//! limit plus a small constant above the interpreter's own footprint.

#[path = "support/measured.rs"]
mod measured;

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
    let baseline = run("print 1");
    assert_eq!(baseline.code, Some(0));
    let limit = LIMIT_MIB.to_string();
    let runaway = measured::run_measured(&[&["--max-memory", &limit], args].concat(), source);
    assert_eq!(runaway.code, Some(1), "{source}: {}", runaway.stderr);
    assert!(
        runaway.stderr.contains(code),
        "{source}: wanted {code}, got {}",
        runaway.stderr
    );
    let bound = baseline.peak_kib + (LIMIT_MIB << 10) + SLACK_KIB;
    assert!(
        runaway.peak_kib <= bound,
        "{source}: peak {} KiB, more than {} KiB (baseline {} KiB + {LIMIT_MIB} MiB + {SLACK_KIB} KiB)",
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
