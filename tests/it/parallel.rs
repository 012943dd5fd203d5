//! Parallel sweeps give exactly the sequential answers: the same output, the same first failure,
//! the same errors; and limits and Ctrl-C stop them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use grundy::game::Limits;
use grundy::Session;
use proptest::prelude::*;

/// One thread, or two that take over from the first case (small batches, many rounds).
fn limits(threads: usize) -> Limits {
    Limits {
        threads,
        spread_after: Duration::ZERO,
        ..Limits::default()
    }
}

fn run(source: &str, limits: Limits) -> Result<String, String> {
    grundy::run_to_string_with("sweep", source, limits)
}

/// Runs `source` with one thread and with two, and checks both give the same text.
fn same(source: &str) -> Result<String, String> {
    let sequential = run(source, limits(1));
    let parallel = run(source, limits(2));
    assert_eq!(sequential, parallel, "{source}");
    sequential
}

const XOR_HELD: &str = "check grundy(xor_nim[a, b, c, d, e]) >= 0 \
    for a in 0..=6, b in 0..=6, c in 0..=6, d in 0..=6, e in 0..=6";

#[test]
fn a_check_that_holds() {
    assert_eq!(same(XOR_HELD).unwrap(), "check: 16,807 cases held\n");
    same(
        "check grundy(staircase[a, b, c, d]) == a xor c \
         for a in 0..=5, b in 0..=5, c in 0..=5, d in 0..=5",
    )
    .unwrap();
}

#[test]
fn the_first_failure_deep_in_the_sweep() {
    let error = same(
        "check a + b + c + d + e < 26 or grundy(xor_nim[a, b, c, d, e]) < 6 \
         for a in 0..=6, b in 0..=6, c in 0..=6, d in 0..=6, e in 0..=6",
    )
    .unwrap_err();
    // 7^5 cases, grouped by thousands as the progress line counts them.
    assert_eq!(7 * 7 * 7 * 7 * 7, 16_807);
    assert!(error.contains("of 16,807 cases failed"), "{error}");
    assert!(
        error.contains("false first at a = 2, b = 6, c = 6, d = 6, e = 6"),
        "{error}"
    );
}

#[test]
fn a_runtime_error_deep_in_the_sweep() {
    let error = same(
        "check grundy(xor_nim[a, b, 3]) >= 0 and 100 / (a * 13 + b - 150) != 1000 \
         for a in 0..=12, b in 0..=12",
    )
    .unwrap_err();
    assert!(error.contains("division by zero"), "{error}");
}

#[test]
fn a_binder_error_after_a_failure_ends_the_check() {
    // The binder `m` fails at n = 3500, after the failing case n = 3000 was queued: a check
    // counts its failures to the end, and an error ends it.
    let error = same("check n != 3000 for n in 0..=5000, m in 0..=(10 / (3500 - n)), k in 0..=3")
        .unwrap_err();
    assert!(error.contains("division by zero"), "{error}");
    assert!(!error.contains("n = 3000"), "{error}");
    let error = same("check n >= 0 for n in 0..=5000, m in 0..=(10 / (3500 - n))").unwrap_err();
    assert!(error.contains("division by zero"), "{error}");
}

#[test]
fn sweeps_that_need_the_main_thread() {
    // New game instances, heap games, misère sums and loops are left to the main thread.
    same("check grundy(bash(m)[n]) == n % (m + 1) for m in 1..=8, n in 0..=400").unwrap();
    same("check grundy(kayles[n]) == grundy(octal 0.77 [n]) for n in 0..=10").unwrap_err();
    same("check outcome(misere nim[a, b]) == outcome(misere nim[b, a]) for a in 0..=5, b in 0..=5")
        .unwrap();
    same(
        "game back on (a, b) { if a > 0 { a -= 1; b += 1 }; if b > 0 { a += 1; b -= 1 } }\n\
         check grundy(back[a, b]) >= 0 for a in 0..=5, b in 0..=5",
    )
    .unwrap_err();
    same("let big = 10\ncheck len(options(nim[a, b])) == a + b and a < big for a in 0..=20, b in 0..=5")
        .unwrap_err();
}

#[test]
fn tables_and_p_positions() {
    let game = "game corner on (a, b) {\n\
        for k in 1..=min(a, 3) { a -= k }\n\
        for k in 1..=b if k % 2 == 1 { b -= k }\n\
        for k in 1..=min(a, b) if k != 2 { a -= k; b -= k }\n\
    }\n";
    same(&format!(
        "{game}table corner 0..40, 0..30\nppos corner 0..=60, 0..=60"
    ))
    .unwrap();
    same("ppos wythoff 0..=200, 0..=200\ntable wythoff 0..12, 0..12").unwrap();
}

#[test]
fn limits_hold_in_a_parallel_sweep() {
    let small = |threads| Limits {
        max_states: 500,
        ..limits(threads)
    };
    let sequential = run(XOR_HELD, small(1)).unwrap_err();
    let parallel = run(XOR_HELD, small(2)).unwrap_err();
    assert!(sequential.contains("500"), "{sequential}");
    assert_eq!(sequential, parallel);
    let tight = |threads| Limits {
        max_memory: 40_000,
        ..limits(threads)
    };
    assert_eq!(run(XOR_HELD, tight(1)), run(XOR_HELD, tight(2)));
}

#[test]
fn ctrl_c_stops_every_worker_and_the_session_goes_on() {
    let interrupt = Arc::new(AtomicBool::new(false));
    let mut session = Session::new(Limits {
        interrupt: interrupt.clone(),
        ..limits(2)
    });
    let flag = interrupt.clone();
    let presser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
    });
    let start = Instant::now();
    let long = "check grundy(xor_nim[a, b, c, d, e, f]) >= 0 \
        for a in 0..=20, b in 0..=20, c in 0..=20, d in 0..=20, e in 0..=20, f in 0..=20";
    let result = session.run("<repl:1>", long, &mut Vec::new());
    presser.join().unwrap();
    assert_eq!(result, Err(vec![grundy::error::Error::Interrupted]));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    interrupt.store(false, Ordering::Relaxed);
    let mut out = Vec::new();
    session.run("<repl:2>", XOR_HELD, &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "check: 16,807 cases held\n"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random thresholds put the first failure anywhere in the sweep, or nowhere.
    #[test]
    fn parallel_checks_match_sequential_ones(
        top in 1i64..=6,
        value in 0i64..=8,
        sum in 0i64..=18,
        divisor in 0i64..=40,
    ) {
        let source = format!(
            "check a + b + c < {sum} or grundy(xor_nim[a, b, c, d]) != {value} \
             or 7 / (a * b + c - {divisor}) >= -7 \
             for a in 0..={top}, b in 0..={top}, c in 0..={top}, d in 0..={top}"
        );
        let sequential = run(&source, limits(1));
        let parallel = run(&source, limits(2));
        prop_assert_eq!(sequential, parallel);
    }
}
