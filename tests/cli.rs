//! The command line: exit codes, diagnostics on stderr, and Ctrl-C during a file run.

use std::process::{Command, Stdio};
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
