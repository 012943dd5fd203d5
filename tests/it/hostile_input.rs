//! Hostile input: random well-formed and mutated programs, deep nesting, long lines, empty
//! and non-UTF-8 input. Nothing may panic, overflow the stack, or run past its limits; a
//! watchdog interrupts any run that goes on for more than a few seconds, as Ctrl-C would.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use grundy::game::Limits;
use proptest::prelude::*;

/// Runs `source` with small limits and a watchdog; returns whether it succeeded.
fn run_guarded(source: &str) -> bool {
    let limits = Limits {
        max_states: 20_000,
        max_memory: 64 << 20,
        // Every sweep spreads over two workers at once, so that hostile programs reach the
        // parallel paths too.
        threads: 2,
        spread_after: Duration::ZERO,
        ..Limits::default()
    };
    run_guarded_with(source, limits, Duration::from_secs(3)).is_ok()
}

/// Runs `source` with these limits and a watchdog that interrupts it after `patience`.
fn run_guarded_with(
    source: &str,
    mut limits: Limits,
    patience: Duration,
) -> Result<String, String> {
    let interrupt = Arc::new(AtomicBool::new(false));
    let (done, wait) = mpsc::channel::<()>();
    let flag = interrupt.clone();
    let watchdog = std::thread::spawn(move || {
        if wait.recv_timeout(patience).is_err() {
            flag.store(true, Ordering::Relaxed);
        }
    });
    limits.interrupt = interrupt;
    let result = grundy::run_to_string_with("hostile", source, limits);
    let _ = done.send(());
    watchdog.join().unwrap();
    result.map_err(|e| e.to_string())
}

#[test]
fn huge_ranges_of_takes_are_answered_or_refused_at_once() {
    // Each of these once aborted on a huge allocation, or ran for minutes.
    for (source, expected) in [
        // No period is proved for a set this large, so the heap has no value to list with.
        ("moves bash(10^15)[10^18]", Err("no period is")),
        ("print options(bash(10^15)[10^18])", Err("no period is")),
        (
            "print len(options(bash(10^15)[10^18]))",
            Err("no period is"),
        ),
        ("print grundy(bash(200000)[10^18])", Ok("199876")),
        ("print grundy(bash(100000)[99999])", Ok("99999")),
        (
            "game s = subtraction {1, 9223372036854775807}\nperiod s",
            Ok("not proved: the theorem needs heaps"),
        ),
        (
            "game p on n {\n  for k in 3..=min(10^15, n) { n -= k }\n  \
             for a in 1..=n / 2 { n = [a, n - a] }\n}\nprint grundy(p[40])",
            Ok(""),
        ),
    ] {
        // Minutes once; a second or two now, so the watchdog only tells the two apart (a few
        // seconds flaked on a loaded machine).
        let got = run_guarded_with(source, Limits::default(), Duration::from_secs(30));
        match (&got, expected) {
            (Ok(out), Ok(text)) => assert!(out.contains(text), "{source}\n{out}"),
            (Err(e), Err(text)) => assert!(e.contains(text), "{source}\n{e}"),
            _ => panic!("{source}\n{got:?}"),
        }
    }
}

fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        (0i64..20).prop_map(|n| n.to_string()),
        Just("10^18".to_string()),
        Just("9223372036854775807".to_string()),
        Just("-3".to_string()),
        Just("true".to_string()),
        Just("\"P\"".to_string()),
        prop::sample::select(vec!["x", "n", "h", "nmi", "kayles", "nim", "wythoff", "g"])
            .prop_map(String::from),
        Just("[1, 2, 3]".to_string()),
        Just("{1, 3, 4}".to_string()),
        Just("nim[3, 4, 5]".to_string()),
        Just("kayles[7]".to_string()),
        Just("wythoff[2, 3]".to_string()),
        Just("xor_nim[1, 2, 3]".to_string()),
        Just("staircase[1, 0, 2]".to_string()),
        Just("bash(3)[9]".to_string()),
        Just("g[a]".to_string()),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    atom().prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec![
                    "+", "-", "*", "/", "%", "^", "xor", "&", "|", "<<", ">>", "==", "!=", "<",
                    "<=", "and", "or", "..", "..="
                ]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("{a} {op} {b}")),
            (
                prop::sample::select(vec![
                    "grundy", "outcome", "options", "wins", "state", "len", "sum", "xor", "count",
                    "mex", "min", "max", "abs"
                ]),
                inner.clone()
            )
                .prop_map(|(f, a)| format!("{f}({a})")),
            inner.clone().prop_map(|a| format!("({a})")),
            inner.clone().prop_map(|a| format!("-{a}")),
            inner.clone().prop_map(|a| format!("not {a}")),
            inner.clone().prop_map(|a| format!("misere {a}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[{a}, {b}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a}[{b}]")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("if {c} then {a} else {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} + {b}")),
        ]
    })
}

fn statement() -> impl Strategy<Value = String> {
    prop_oneof![
        expr().prop_map(|e| format!("let x = {e}")),
        expr().prop_map(|e| format!("grundy {e}")),
        expr().prop_map(|e| format!("outcome {e}")),
        expr().prop_map(|e| format!("moves {e}")),
        expr().prop_map(|e| format!("win {e}")),
        expr().prop_map(|e| format!("print {e}")),
        expr().prop_map(|e| format!("assert {e}")),
        expr().prop_map(|e| e.to_string()),
        (expr(), 0i64..30).prop_map(|(e, n)| format!("check {e} for n in 0..{n}")),
        (0i64..50).prop_map(|n| format!("sequence kayles 0..{n}")),
        (expr(), expr())
            .prop_map(|(a, b)| format!("game g on n {{ for k in 1..={a} if {b} {{ n -= k }} }}")),
        (expr(), expr()).prop_map(|(a, b)| format!(
            "game g on (a, b) {{ for k in 0..{a} {{ a -= k; b += {b} }} }}"
        )),
        expr().prop_map(|a| format!(
            "game g on s[] unordered {{ for b in 0..=s if count(b) == {a} {{ s -= b }} }}"
        )),
        Just("game g = graph { a -> b, c; b -> a; c }".to_string()),
        Just("game g = octal 0.07".to_string()),
        expr().prop_map(|e| format!("game g = subtraction {e}")),
        expr().prop_map(|e| format!("period {e}")),
        (expr(), expr()).prop_map(|(a, b)| format!("compare {a}, {b} 0..20")),
        expr().prop_map(|e| format!("dot {e}")),
    ]
}

fn program() -> impl Strategy<Value = String> {
    prop::collection::vec(statement(), 1..6).prop_map(|s| s.join("\n"))
}

/// Deletes, duplicates or inserts pieces of a program.
fn mutate(source: &str, edits: &[(usize, usize, u8)]) -> String {
    let mut chars: Vec<char> = source.chars().collect();
    let noise = [
        '{', '}', '(', ')', '[', ']', ',', ';', '\n', '#', '"', '-', '=', '.', 'x', '9', ' ',
    ];
    for &(at, len, kind) in edits {
        if chars.is_empty() {
            break;
        }
        let at = at % chars.len();
        let end = (at + len % 8).min(chars.len());
        match kind % 3 {
            0 => {
                chars.drain(at..end);
            }
            1 => {
                let piece: Vec<char> = chars[at..end].to_vec();
                chars.splice(at..at, piece);
            }
            _ => chars.insert(at, noise[len % noise.len()]),
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_programs_never_panic(source in program()) {
        run_guarded(&source);
    }

    #[test]
    fn mutated_programs_never_panic(
        source in program(),
        edits in prop::collection::vec((0usize..10_000, 0usize..64, 0u8..3), 1..6),
    ) {
        run_guarded(&mutate(&source, &edits));
    }

    #[test]
    fn mutated_examples_never_panic(
        example in 0usize..64,
        edits in prop::collection::vec((0usize..100_000, 0usize..64, 0u8..3), 1..4),
    ) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        // The programs, not the pictures they draw beside themselves.
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "game")).collect();
        files.sort();
        let source = std::fs::read_to_string(&files[example % files.len()]).unwrap();
        let source = source.replace("plot ", "print ");
        run_guarded(&mutate(&source, &edits));
    }
}

#[test]
fn deep_nesting_and_long_lines_are_errors_not_crashes() {
    let deep = 10_000;
    for source in [
        format!("print {}1{}", "(".repeat(deep), ")".repeat(deep)),
        format!("print {}1{}", "[".repeat(deep), "]".repeat(deep)),
        format!("game g on n {}", "{".repeat(deep)),
        format!("print {}1", "-".repeat(deep)),
        format!("print {}true", "not ".repeat(deep)),
        format!("print 1{}", "^1".repeat(deep)),
        format!("print 1{}", " + 1".repeat(200_000)),
        format!("let s = [{}]", vec!["7"; 200_000].join(", ")),
        String::new(),
        "\n\n\n".to_string(),
        "# only a comment".to_string(),
    ] {
        run_guarded(&source);
    }
}

#[test]
fn non_utf8_files_get_a_diagnostic() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("bytes.game");
    std::fs::write(&path, [b'p', b'r', 0xff, 0xfe, b'\n']).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("grundy::not_utf8"), "{err}");
    assert!(err.contains("byte 0xFF at line 1, column 3"), "{err}");
}
