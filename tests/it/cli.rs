//! The command line: a file, `-e` statements, standard input, exit codes, diagnostics on
//! stderr, and Ctrl-C during a file run.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn grundy() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
}

#[test]
fn one_liners_answer_and_exit_0() {
    let out = grundy().args(["-e", "win nim[3, 4, 5]"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("nim[3] -> nim[1]"), "{text}");
}

#[test]
fn errors_exit_1_with_a_diagnostic_on_stderr() {
    for source in ["grundy nmi[3]", "assert 1 == 2", "let = 3", "print 1 / 0"] {
        let out = grundy().args(["-e", source]).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{source}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("grundy::"), "{source}: {err}");
        assert!(err.contains("<command line>:1:"), "{source}: {err}");
    }
    let out = grundy().arg("no/such/file.game").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("cannot read"));
}

#[test]
fn ctrl_c_stops_a_file_run_with_status_130() {
    let child = grundy()
        .args([
            "-e",
            "check grundy(bash(3)[n % 50]) >= 0 for n in 0..=10^15",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("interrupted"));
}

/// A function that runs for hours unless something stops it: no loop, only calls.
const FIB: &str = "let fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)";

/// Sends one SIGINT to a running child.
fn interrupt(child: &std::process::Child) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: `kill` takes any pid and signal number; this is our own child, still unwaited.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
}

/// Waits for a child that was sent one Ctrl-C, failing if it has not ended within ten seconds
/// (a second Ctrl-C would end it whatever it is doing: one must be enough).
fn ended_by_one_interrupt(mut child: std::process::Child, what: &str) -> Output {
    let sent = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if sent.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("{what}: still running 10 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let err = text(out.stderr.clone());
    assert_eq!(out.status.code(), Some(130), "{what}: {err}");
    assert!(err.contains("interrupted"), "{what}: {err}");
    out
}

#[test]
fn one_ctrl_c_stops_recursion_rules_check_and_a_fifo_in_a_file_run() {
    let folder = tempfile::tempdir().unwrap();
    let made = Command::new("mkfifo")
        .arg(folder.path().join("fifo"))
        .status()
        .unwrap();
    assert!(made.success());
    let cases = [
        format!("{FIB}\nprint fib(60)"),
        format!(
            "{FIB}\ngame slow on n {{ if n > 0 and fib(60) > 0 {{ n -= 1 }} }}\ngrundy slow[3]"
        ),
        format!("{FIB}\ncheck fib(n) >= 0 for n in 50..60"),
        // Nobody writes to the FIFO: its open and its reads would wait for ever.
        "print read(\"fifo\")".to_string(),
    ];
    for source in &cases {
        let path = folder.path().join("long.game");
        std::fs::write(&path, source).unwrap();
        let child = grundy()
            .arg("long.game")
            .current_dir(folder.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(700));
        interrupt(&child);
        ended_by_one_interrupt(child, source);
    }
}

#[test]
fn ctrl_c_stops_a_long_answer_while_it_is_printed() {
    use std::io::Read;
    // 0..=9,999,999 printed is 88,888,890 bytes.
    let mut child = grundy()
        .args(["-e", "print [n for n in 0..=9999999]"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"[0, 1, 2, 3, 4, ");
    // The pipe is full and not read: the answer waits in the middle of being printed.
    std::thread::sleep(Duration::from_millis(300));
    interrupt(&child);
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    ended_by_one_interrupt(child, "print");
    assert!(
        rest.len() < 1 << 20,
        "{} bytes printed after Ctrl-C",
        rest.len()
    );
}

/// Runs grundy with `args`, `stdin` as its standard input, in the test's scratch folder.
fn run_with_input(args: &[&str], stdin: &str) -> Output {
    let mut child = grundy()
        .args(args)
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn write_scratch(name: &str, bytes: &[u8]) {
    std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name),
        bytes,
    )
    .unwrap();
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

#[test]
fn a_file_runs_then_each_e_in_order_in_one_session() {
    write_scratch("cli_then_e.game", b"let x = 3\nprint x\n");
    let out = run_with_input(
        &["cli_then_e.game", "-e", "print x + 1", "-e", "print x * 10"],
        "",
    );
    assert!(out.status.success(), "{}", text(out.stderr));
    assert_eq!(text(out.stdout), "3\n4\n30\n");
}

#[test]
fn repeated_e_without_a_file_runs_each_and_errors_name_their_line() {
    let out = run_with_input(
        &["-e", "let y = 2", "-e", "print y", "-e", "print y / 0"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(out.stdout), "2\n");
    let err = text(out.stderr);
    assert!(err.contains("<command line>:3:"), "{err}");
    assert!(err.contains("grundy::division_by_zero"), "{err}");
}

#[test]
fn a_dash_reads_the_program_from_standard_input() {
    let out = run_with_input(&["-", "-e", "print z"], "let z = 5\nprint z + 1\n");
    assert!(out.status.success(), "{}", text(out.stderr));
    assert_eq!(text(out.stdout), "6\n5\n");
    let out = run_with_input(&["-"], "print 1\nassert 1 == 2\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(out.stdout), "1\n");
    assert!(text(out.stderr).contains("<stdin>:2:"));
}

#[test]
fn an_error_in_the_file_stops_before_the_e_statements() {
    write_scratch("cli_failing.game", b"print 1\nprint nmi[3]\n");
    fails_after(
        &["cli_failing.game", "-e", "print 2"],
        "",
        "cli_failing.game:2:",
    );
}

/// Runs grundy with `args`, and checks that it exits 1 after printing `printed`, with an error
/// at `located` (a `name:line:`).
fn fails_after(args: &[&str], printed: &str, located: &str) {
    let out = run_with_input(args, "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(out.stdout), printed);
    let err = text(out.stderr);
    assert!(err.contains(located), "{err}");
}

#[test]
fn a_file_that_is_not_utf8_is_located_at_its_first_bad_byte() {
    write_scratch("latin1.game", b"print 1\n# caf\xe9 au lait\n");
    let out = run_with_input(&["latin1.game"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(out.stdout), "");
    insta::assert_snapshot!(text(out.stderr));
    let out = run_with_input(&["-"], "print 1\n");
    assert!(out.status.success());
    let mut child = grundy()
        .arg("-")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"\xff").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(out.stderr).contains("`<stdin>` is not UTF-8 text: byte 0xFF at line 1, column 1"));
}

#[test]
fn interactive_still_excludes_a_file_and_e() {
    let out = run_with_input(&["-i", "x.game", "-e", "print 1"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_failed_assert_or_check_does_not_stop_the_run() {
    let source = "assert 1 == 2\nprint \"after the assert\"\ncheck n < 3 for n in 0..5\nprint \"after the check\"";
    let out = grundy().args(["-e", source]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, "after the assert\nafter the check\n");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("grundy::assert_failed"), "{err}");
    assert!(err.contains("2 of 5 cases failed"), "{err}");
    assert!(err.contains("2 of 2 asserts and checks failed"), "{err}");
}

#[test]
fn e_and_standard_input_run_statement_by_statement_and_a_file_is_checked_whole() {
    // A syntax error on line 2: `-e` and standard input have run line 1 before it.
    fails_after(
        &["-e", "print 1", "-e", "print 2 +* 3"],
        "1\n",
        "<command line>:2:",
    );
    let out = run_with_input(&["-"], "print 1\nprint nmi[3]\nprint 3\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(out.stdout), "1\n");
    assert!(text(out.stderr).contains("grundy::unknown_name"));
    // A file runs nothing when any statement is wrong, and reports every error.
    write_scratch(
        "cli_whole.game",
        b"print 1\nprint nmi[3]\nprint zzz\nprint 2 +* 3\n",
    );
    let out = run_with_input(&["cli_whole.game"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(out.stdout), "");
    let err = text(out.stderr);
    assert!(err.contains("cli_whole.game:2:"), "{err}");
    assert!(err.contains("cli_whole.game:3:"), "{err}");
    assert!(err.contains("cli_whole.game:4:"), "{err}");
}

#[test]
fn piped_input_without_arguments_runs_as_a_dash_without_banner_or_history() {
    let home = tempfile::tempdir().unwrap();
    let mut command = grundy();
    command
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path());
    let out = piped(&mut command, b"grundy nim[3]\n");
    assert!(out.status.success(), "{}", text(out.stderr));
    assert_eq!(text(out.stdout), "3\n");
    assert_eq!(text(out.stderr), "");
    assert!(
        !home.path().join("grundy").exists(),
        "a history was written"
    );
}

#[test]
fn several_files_run_in_order_in_one_session() {
    write_scratch("cli_first.game", b"let x = 2\nprint x\n");
    write_scratch("cli_second.game", b"print x * 3\n");
    let out = run_with_input(
        &["cli_first.game", "cli_second.game", "-e", "print x + 1"],
        "",
    );
    assert!(out.status.success(), "{}", text(out.stderr));
    assert_eq!(text(out.stdout), "2\n6\n3\n");
    // An error in the second file stops there; the first has run.
    write_scratch("cli_wrong.game", b"print nmi[3]\n");
    let files = ["cli_first.game", "cli_wrong.game", "cli_second.game"];
    fails_after(&files, "2\n", "cli_wrong.game:1:");
}

#[test]
fn a_diagnostic_on_a_line_past_column_65535_renders_cut() {
    let line = format!("print {}nosuchname\n", " ".repeat(70_000));
    write_scratch("cli_long_line.game", line.as_bytes());
    let out = run_with_input(&["cli_long_line.game"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(out.stderr);
    assert!(err.contains("grundy::unknown_name"), "{err}");
    // The column counted by hand: `print ` and the spaces before the name, from 1.
    assert!(err.contains("cli_long_line.game:1:70007]"), "{err}");
    assert!(err.contains("line 1 is shown cut"), "{err}");
    assert!(err.lines().all(|l| l.chars().count() < 300), "{err}");
}

#[test]
fn a_program_longer_than_the_memory_limit_is_refused_before_it_is_read() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_100mb.game");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(100 << 20).unwrap();
    let out = run_with_input(&["--max-memory", "64", "cli_100mb.game"], "");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(out.stderr);
    assert!(err.contains("grundy::program_memory"), "{err}");
    assert!(
        err.contains("is 100 MiB, more than the memory limit of 64 MiB"),
        "{err}"
    );
    // Standard input is read no further than the limit.
    let input = "print 1\n".repeat(200_000);
    let out = piped(grundy().args(["--max-memory", "1", "-"]), input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(out.stderr).contains("grundy::program_memory"));
}

/// Runs `command` with `input` piped to its standard input (a write that fails because it
/// stopped reading is ignored).
fn piped(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}
