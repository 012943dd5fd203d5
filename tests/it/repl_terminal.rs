//! The REPL on a real pseudo-terminal: the binary is started with no arguments (or `-i FILE`)
//! and driven by keystrokes, with its history in a temporary folder.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use rexpect::process::{Signal, WaitStatus};
use rexpect::session::{spawn_command, PtySession};

/// How long any one expected text may take to appear; generous for a slow, shared machine.
const TIMEOUT_MS: u64 = 15_000;

fn command(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .env("HOME", data)
        .env("XDG_DATA_HOME", data.join("data"))
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS");
    command
}

fn start(command: Command) -> PtySession {
    let mut repl = spawn_command(command, Some(TIMEOUT_MS)).expect("the binary starts");
    repl.exp_string("grundy> ").expect("the first prompt");
    repl
}

fn repl(data: &Path) -> PtySession {
    start(command(data))
}

/// Sends a line and waits until `answer` has appeared and the next prompt is shown.
fn ask(repl: &mut PtySession, line: &str, answer: &str) {
    repl.send_line(line).unwrap();
    let seen = repl
        .exp_string(answer)
        .unwrap_or_else(|e| panic!("no `{answer}` after `{line}`: {e}"));
    let _ = seen;
    repl.exp_string("grundy> ")
        .unwrap_or_else(|e| panic!("no prompt after `{line}`: {e}"));
}

fn quit(mut repl: PtySession) {
    repl.send_control('d').unwrap();
    repl.exp_eof().expect("the process ends on Ctrl-D");
    match repl.process().wait().unwrap() {
        WaitStatus::Exited(_, code) => assert_eq!(code, 0, "exit status after Ctrl-D"),
        other => panic!("the REPL did not exit normally: {other:?}"),
    }
}

#[test]
fn prelude_query() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    ask(&mut repl, "nim[3, 4, 5]", "nim[3, 4, 5]: grundy 2, N");
    ask(&mut repl, "outcome wythoff[3, 5]", "P\r\n");
    quit(repl);
}

#[test]
fn three_line_definition() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    repl.send_line("game g on n {").unwrap();
    repl.exp_string("   ...> ").unwrap();
    repl.send_line("    for k in 1..=min(3, n) { n -= k }")
        .unwrap();
    repl.exp_string("   ...> ").unwrap();
    repl.send_line("}").unwrap();
    repl.exp_string("grundy> ").unwrap();
    ask(&mut repl, "g[7]", "g[7]: grundy 3, N");
    quit(repl);
}

#[test]
fn error_then_good_query() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    ask(&mut repl, "grundy nmi[3]", "did you mean `nim`?");
    ask(&mut repl, "print 1 +* 2", "syntax error");
    ask(&mut repl, "kayles[10]", "kayles[10]: grundy 2, N");
    quit(repl);
}

#[test]
fn ctrl_c_at_the_prompt_abandons_the_entry() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    repl.send_line("game g on n {").unwrap();
    repl.exp_string("   ...> ").unwrap();
    repl.send("for k in 1..=n").unwrap();
    repl.send_control('c').unwrap();
    repl.exp_string("grundy> ").unwrap();
    ask(&mut repl, "print 6 * 7", "42\r\n");
    quit(repl);
}

#[test]
fn ctrl_c_interrupts_a_long_check() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    repl.send_line("check grundy(nim[n]) >= 0 for n in 0..=100000000")
        .unwrap();
    repl.exp_regex("check: [0-9,]+ of 100,000,001 cases, [0-9,]+/s")
        .expect("the progress line after half a second");
    repl.exp_string(" left (Ctrl-C")
        .expect("the time left, after a second");
    // Typed ahead: not echoed over the progress line, and read at the next prompt.
    repl.send_line("print 6 * 7").unwrap();
    let sent = Instant::now();
    repl.send_control('c').unwrap();
    repl.exp_regex("interrupted after [0-9,]+ of 100,000,001 cases")
        .unwrap();
    repl.exp_string("42\r\n").expect("the line typed ahead ran");
    repl.exp_string("grundy> ").unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "the interrupt took {:?}",
        sent.elapsed()
    );
    ask(&mut repl, "grundy nim[3, 4, 5] + nim[7]", "5\r\n");
    quit(repl);
}

#[test]
fn ctrl_c_interrupts_recursion_rules_check_a_fifo_and_printing() {
    let data = tempfile::tempdir().unwrap();
    let made = Command::new("mkfifo")
        .arg(data.path().join("fifo"))
        .status()
        .unwrap();
    assert!(made.success());
    let mut command = command(data.path());
    command.current_dir(data.path());
    let mut repl = start(command);
    ask(
        &mut repl,
        "let fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)",
        "",
    );
    ask(
        &mut repl,
        "game slow on n { if n > 0 and fib(60) > 0 { n -= 1 } }",
        "",
    );
    for long in [
        "print fib(60)",
        "grundy slow[3]",
        "check fib(n) >= 0 for n in 50..60",
        // Nobody writes to the FIFO: its open and its reads would wait for ever.
        "print read(\"fifo\")",
    ] {
        repl.send_line(long).unwrap();
        repl.exp_string("(Ctrl-C")
            .unwrap_or_else(|e| panic!("no progress line for `{long}`: {e}"));
        repl.send_control('c').unwrap();
        repl.exp_string("interrupted")
            .unwrap_or_else(|e| panic!("`{long}` not interrupted: {e}"));
        repl.exp_string("grundy> ").unwrap();
        ask(&mut repl, "print 6 * 7", "42\r\n");
    }
    // 0..=9,999,999 is 88,888,890 bytes printed: Ctrl-C stops it where it is. The REPL is
    // stopped while the key is sent, so that what it prints after the key is counted apart from
    // what it printed while this test was still waking up to the first numbers (rexpect looks
    // every 100 ms, and a fast machine prints tens of MB in that time).
    repl.send_line("print [n for n in 0..=9999999]").unwrap();
    repl.exp_string("[0, 1, 2, 3, 4, ").unwrap();
    repl.process_mut().signal(Signal::SIGSTOP).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let (_, before) = repl.exp_regex("(?s).+").unwrap();
    assert!(
        !before.contains("9999999]"),
        "the whole list was printed before the key could be sent"
    );
    repl.send_control('c').unwrap();
    std::thread::sleep(Duration::from_millis(100));
    repl.process_mut().signal(Signal::SIGCONT).unwrap();
    let (after, _) = repl.exp_regex("\r?\ninterrupted\r\n").unwrap();
    assert!(
        !after.contains("9999999]") && after.len() < 40 << 20,
        "{} bytes printed after the interrupt ({} before it)",
        after.len(),
        before.len()
    );
    repl.exp_string("grundy> ").unwrap();
    ask(&mut repl, "print 6 * 7", "42\r\n");
    quit(repl);
}

#[test]
fn history_is_written_after_each_entry() {
    let data = tempfile::tempdir().unwrap();
    let history = data.path().join("data/grundy/history");
    let mut repl = repl(data.path());
    ask(&mut repl, "let remembered = 12345", "");
    let deadline = Instant::now() + Duration::from_millis(TIMEOUT_MS);
    while !std::fs::read_to_string(&history).is_ok_and(|h| h.contains("let remembered = 12345")) {
        assert!(
            Instant::now() < deadline,
            "the history file was not written"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    quit(repl);

    let mut again = self::repl(data.path());
    again.send_control('p').unwrap();
    again.exp_string("let remembered = 12345").unwrap();
    again.send_control('u').unwrap();
    quit(again);
}

#[test]
fn unwritable_history_folder_is_a_warning() {
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("data"), "a file, not a folder").unwrap();
    let mut repl = spawn_command(command(data.path()), Some(TIMEOUT_MS)).unwrap();
    repl.exp_string("warning: the history will not be kept")
        .unwrap();
    repl.exp_string("grundy> ").unwrap();
    ask(&mut repl, "print 2 ^ 10", "1024\r\n");
    quit(repl);
}

#[test]
fn interactive_file_then_prompt() {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("mine.game");
    std::fs::write(
        &file,
        "game two = subtraction {1, 2}\nlet h = 4\nprint \"loaded\"\n",
    )
    .unwrap();
    let mut command = command(data.path());
    command.arg("-i").arg(&file);
    let mut repl = spawn_command(command, Some(TIMEOUT_MS)).unwrap();
    repl.exp_string("loaded").unwrap();
    repl.exp_string("grundy> ").unwrap();
    ask(&mut repl, "two[h]", "two[4]: grundy 1, N");
    quit(repl);
}

#[test]
fn quit_command_exits_zero() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    repl.send_line(":quit").unwrap();
    repl.exp_eof().unwrap();
    match repl.process().wait().unwrap() {
        WaitStatus::Exited(_, code) => assert_eq!(code, 0),
        other => panic!("the REPL did not exit normally: {other:?}"),
    }
}

#[test]
fn a_multi_line_entry_is_recalled_whole() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    repl.send_line("print 40 +").unwrap();
    repl.exp_string("...> ").unwrap();
    ask(&mut repl, "  2", "42");
    // The previous entry (Ctrl-P, as up-arrow) comes back with both lines; run again, they
    // print 42 again at once.
    repl.send_control('p').unwrap();
    repl.exp_string("print 40 +").unwrap();
    ask(&mut repl, "", "42");
    quit(repl);
    let history = std::fs::read_to_string(data.path().join("data/grundy/history")).unwrap();
    let mut again = self::repl(data.path());
    again.send_control('p').unwrap();
    ask(&mut again, "", "42");
    quit(again);
    assert!(history.contains("print 40 +"), "{history}");
}

#[test]
fn a_blank_line_ends_an_unfinished_entry() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    repl.send_line("table wythoff 0..10").unwrap();
    repl.exp_string("...> ").unwrap();
    ask(&mut repl, "", "was unfinished");
    ask(&mut repl, "print 7", "7");
    quit(repl);
}

#[test]
fn a_bare_game_name_describes_it() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    ask(
        &mut repl,
        "wythoff",
        "take from one pile, or the same from both",
    );
    quit(repl);
}

#[test]
fn help_on_a_topic() {
    let data = tempfile::tempdir().unwrap();
    let mut repl = repl(data.path());
    ask(
        &mut repl,
        ":help period",
        "section \"Sequences and periods\"",
    );
    ask(&mut repl, ":help perod", "did you mean `:help period`?");
    quit(repl);
}

#[test]
fn a_file_run_on_a_terminal_shows_the_progress_line() {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("long.game");
    std::fs::write(
        &file,
        "print 1\ncheck grundy(nim[n]) >= 0 for n in 0..=100000000\n",
    )
    .unwrap();
    let mut command = command(data.path());
    command.arg(&file);
    let mut run = spawn_command(command, Some(TIMEOUT_MS)).expect("the binary starts");
    run.exp_string("1\r\n")
        .expect("the answer before the check");
    run.exp_regex("check: [0-9,]+ of 100,000,001 cases")
        .expect("the progress line");
    run.send_control('c').unwrap();
    run.exp_regex("interrupted after [0-9,]+ of 100,000,001 cases")
        .unwrap();
    run.exp_eof().unwrap();
}
