//! Heap sequences far out (issue 13): the interpreter at 2^22 heaps against the research
//! solvers, in the same run, and the peak memory at 2^24.
//!
//! - tczajka's analyzer (`github.com/tczajka/octal-games`, `old/src/analyze_exec.cc`): built
//!   outside this repository (see BENCHMARKS.md), run as a process on `grundy N`; its path is
//!   `$TCZAJKA_ANALYZE`, by default `/work/baselines/octal-games/old/bin/analyze`;
//! - the `ogs` crate's RC2 solver (Piotr Beling's `impartial-games`), in process, for Officers;
//! - the bench's own sparse-space solver for Grundy's game (`sparse_space_grundys`).

use std::time::{Duration, Instant};

use super::{best_of, sparse_space_grundys, Against, Case};
use grundy::game::heap::HeapSequence;
use grundy::game::vocabulary::{HeapRules, Take};
use ogs::Solver;

/// The heaps of the far cases.
const FAR: usize = 1 << 22;

/// The heaps of the far peak-memory case.
const FAR_MEMORY: usize = 1 << 24;

pub fn far_cases(quick: bool) -> Vec<Case> {
    let n = if quick { 1 << 14 } else { FAR };
    let grundys = |against: &str, baseline: Box<dyn Fn() -> (Duration, String)>| Case {
        name: format!("far: grundys (rule form) to {n}, vs {against}"),
        source: format!("print grundy(grundys[{}])", n - 1),
        reps: 1,
        walker: false,
        heaps: Some(n),
        against: Against::Rust(baseline),
    };
    let memory = if quick { 1 << 16 } else { FAR_MEMORY };
    vec![
        grundys(
            "tczajka",
            Box::new(move || {
                let path = std::env::var("TCZAJKA_ANALYZE")
                    .unwrap_or_else(|_| "/work/baselines/octal-games/old/bin/analyze".into());
                let start = Instant::now();
                let run = std::process::Command::new(&path)
                    .args(["grundy", &n.to_string()])
                    .output();
                let time = start.elapsed();
                match run {
                    Ok(out) if out.status.success() => {
                        let text = String::from_utf8_lossy(&out.stdout);
                        let last = text.lines().last().unwrap_or("").to_string();
                        (time, format!("tczajka's analyzer, a process: {last}"))
                    }
                    _ => (
                        Duration::ZERO,
                        format!("SKIPPED: no tczajka analyzer at {path} (see BENCHMARKS.md)"),
                    ),
                }
            }),
        ),
        grundys(
            "solver",
            Box::new(move || {
                let sum = std::cell::Cell::new(0);
                let time = best_of(1, || sum.set(sparse_space_grundys(n)));
                (
                    time,
                    format!(
                        "the bench's sparse-space solver, sum of values {}",
                        sum.get()
                    ),
                )
            }),
        ),
        Case {
            name: format!("far: officers (octal 0.6) to {n}, vs ogs rc2"),
            source: format!("print grundy(officers[{}])", n - 1),
            reps: 1,
            walker: false,
            heaps: Some(n),
            against: Against::Rust(Box::new(move || {
                let game: ogs::Game = "0.6".parse().expect("an octal code");
                let last = std::cell::Cell::new(0);
                let sum = std::cell::Cell::new(0u64);
                let time = best_of(1, || {
                    let mut solver = ogs::RC2Solver::<true, ()>::with_capacity(game.clone(), n);
                    last.set(solver.by_ref().take(n).last().unwrap_or(0));
                    sum.set(solver.nimbers().iter().map(|&v| u64::from(v)).sum());
                    std::hint::black_box(solver.nimbers().len())
                });
                // The interpreter's values of the same heaps, untimed, from the engine.
                let mut officers = HeapSequence::new(HeapRules {
                    takes: vec![Take {
                        take: 1,
                        none: false,
                        one: true,
                        two: true,
                        three: false,
                        unequal: false,
                    }],
                    ranges: vec![],
                });
                officers
                    .value(n as u64 - 1, &super::bench_limits())
                    .expect("room for the values");
                let ours: u64 = officers.values().map(u64::from).sum();
                assert_eq!(ours, sum.get(), "grundy and ogs differ on Officers' values");
                (
                    time,
                    format!(
                        "ogs 0.0.6 RC2Solver in process, G({}) = {}, sums of values equal ({})",
                        n - 1,
                        last.get(),
                        sum.get()
                    ),
                )
            })),
        },
        Case {
            name: format!("peak memory, far: grundys to {memory}"),
            source: format!("print grundy(grundys[{}])", memory - 1),
            reps: 1,
            walker: false,
            heaps: None,
            against: Against::PeakMemory { values: memory },
        },
    ]
}
