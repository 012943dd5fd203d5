//! Misère quotients (issue 14): `quotient dawson 0..=N` against Siegel's MisereSolver on the same
//! game and heaps, run as a process. MisereSolver is built outside this repository (see
//! BENCHMARKS.md); its classes folder is `$MISERESOLVER`, by default
//! `/work/baselines/miseresolver/classes`. Without it (or without `java`) the case is skipped.

use std::time::{Duration, Instant};

use super::{time_interpreter, Against, Case};

/// The order a `quotient` statement printed.
fn order_of(printed: &str) -> Option<usize> {
    let rest = printed.split("order ").nth(1)?;
    rest.split(',').next()?.trim().parse().ok()
}

/// `|Q| = 360` in MisereSolver's last line.
fn miseresolver_order(line: &str) -> Option<usize> {
    let rest = line.split("|Q| = ").nth(1)?;
    rest.split(',').next()?.trim().parse().ok()
}

pub fn quotient_cases(quick: bool) -> Vec<Case> {
    let last = if quick { 20 } else { 32 };
    let source = format!("quotient dawson 0..={last}");
    let checked = source.clone();
    vec![Case {
        name: format!("quotient dawson 0..={last}, vs MisereSolver"),
        source,
        reps: 1,
        walker: false,
        heaps: None,
        against: Against::Rust(Box::new(move || {
            let classes = std::env::var("MISERESOLVER")
                .unwrap_or_else(|_| "/work/baselines/miseresolver/classes".into());
            let start = Instant::now();
            let run = std::process::Command::new("java")
                .args(["-Xss64m", "-cp", &classes])
                .args([
                    "org.cgsuite.core.misere.solver.Main",
                    "0.07",
                    &last.to_string(),
                ])
                .output();
            let time = start.elapsed();
            let out = match run {
                Ok(out) if out.status.success() => out,
                _ => {
                    return (
                        Duration::ZERO,
                        format!("SKIPPED: no MisereSolver at {classes} (see BENCHMARKS.md)"),
                    )
                }
            };
            let text = String::from_utf8_lossy(&out.stdout);
            let line = text.lines().last().unwrap_or("").to_string();
            let (_, printed) = time_interpreter(&checked, 1, false);
            assert_eq!(
                order_of(&printed),
                miseresolver_order(&line),
                "grundy and MisereSolver differ: {line}"
            );
            (
                time,
                format!("MisereSolver, a process (JVM start included): {line}"),
            )
        })),
    }]
}
