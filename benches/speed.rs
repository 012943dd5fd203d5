//! Speed of the interpreter against hand-written Rust, in the same run.
//!
//! `cargo bench --bench speed` runs every case; `cargo bench --bench speed -- NAME...` runs the
//! cases whose names contain one of the words; `--quick` uses small sizes (a smoke test).
//!
//! Each case times the interpreter on real grundy source (a fresh `Session` each time, the
//! prelude loaded before the clock starts) and a baseline written plainly in Rust here: naive
//! mex loops for heap sequences, a triple loop for Wythoff, a memoized search for the xor game
//! and staircase Nim. The ratio is interpreter time / baseline time: lower is faster. Where the
//! naive baseline is quadratic and the full size would take hours, it runs at a smaller size
//! and its time is scaled by (n / n_small)^2, which the report says.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use grundy::game::Limits;
use grundy::Session;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let quick = args.iter().any(|a| a == "--quick");
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let mut cases = cases(quick);
    cases.extend(parallel_cases(quick));
    println!(
        "{:<44} {:>12} {:>14} {:>10}  baseline",
        "case", "grundy", "baseline", "ratio"
    );
    for case in cases {
        if !filters.is_empty() && !filters.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        let interpreter = time_interpreter(&case.source, case.reps, case.walker);
        let (baseline, how) = (case.baseline)();
        let ratio = interpreter.as_secs_f64() / baseline.as_secs_f64();
        let ratio = if ratio < 0.001 {
            format!("{ratio:.1e}")
        } else {
            format!("{ratio:.4}")
        };
        println!(
            "{:<44} {:>12} {:>14} {:>10}  {how}",
            case.name,
            show(interpreter),
            show(baseline),
            ratio
        );
    }
}

struct Case {
    name: String,
    source: String,
    reps: usize,
    /// Whether rule games run on the AST walker instead of their compiled rules.
    walker: bool,
    baseline: Box<dyn Fn() -> (Duration, String)>,
}

fn show(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else {
        format!("{:.2} ms", s * 1e3)
    }
}

/// The best of `reps` runs of `source`, each in a fresh session.
fn time_interpreter(source: &str, reps: usize, walker: bool) -> Duration {
    grundy::eval::interpret_only(walker);
    let mut best = Duration::MAX;
    for _ in 0..reps {
        let limits = Limits {
            max_states: 50_000_000,
            ..Limits::default()
        };
        let mut session = Session::new(limits);
        let mut out = Vec::new();
        let start = Instant::now();
        if let Err(e) = session.run("bench", source, &mut out) {
            panic!("{source}\n{e:?}");
        }
        best = best.min(start.elapsed());
        std::hint::black_box(out);
    }
    best
}

/// The best of `reps` timings of `f`.
fn best_of<T>(reps: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..reps {
        let start = Instant::now();
        std::hint::black_box(f());
        best = best.min(start.elapsed());
    }
    best
}

fn cases(quick: bool) -> Vec<Case> {
    let heap = |name: &str, game: &str, n: usize, small: usize, moves: Moves| -> Case {
        let n = if quick { n.min(4096) } else { n };
        let small = small.min(n);
        let source = format!("print grundy({game}[{}])", n - 1);
        Case {
            name: format!("{name} to {n}"),
            source,
            reps: 1,
            walker: false,
            baseline: Box::new(move || {
                let t = best_of(2, || naive_heap(small, moves));
                let scale = (n as f64 / small as f64).powi(2);
                let how = if small == n {
                    format!("naive mex loop, n = {n}")
                } else {
                    format!("naive mex loop at n = {small}, time x (n / {small})^2")
                };
                (t.mul_f64(scale), how)
            }),
        }
    };
    let wythoff_n = if quick { 200 } else { 1000 };
    let xor_h = if quick { 6 } else { 12 };
    let stair_h = if quick { 3 } else { 6 };
    let walker_xor_h = if quick { 4 } else { 8 };
    let xor_pruned = |h: i64| Case {
        name: format!("xor_nim (pruned baseline), 5 heaps <= {h}"),
        source: format!(
            "check grundy(xor_nim[a, b, c, d, e]) >= 0 for a in 0..={h}, \
             b in 0..={h}, c in 0..={h}, d in 0..={h}, e in 0..={h}"
        ),
        reps: 1,
        walker: false,
        baseline: Box::new(move || {
            (
                best_of(2, || memo_xor_nim_pruned(h)),
                "memoized search, last coordinate = xor of the others".into(),
            )
        }),
    };
    let xor_case = |h: i64, walker: bool| Case {
        name: if walker {
            format!("xor_nim (AST walker), 5 heaps <= {h}")
        } else {
            format!("xor_nim, 5 heaps <= {h}")
        },
        source: format!(
            "check grundy(xor_nim[a, b, c, d, e]) >= 0 for a in 0..={h}, \
             b in 0..={h}, c in 0..={h}, d in 0..={h}, e in 0..={h}"
        ),
        reps: 1,
        walker,
        baseline: Box::new(move || (best_of(1, || memo_xor_nim(h)), "memoized search".into())),
    };
    let stair_case = |h: i64, walker: bool| Case {
        name: if walker {
            format!("staircase (AST walker), 5 steps <= {h}")
        } else {
            format!("staircase, 5 steps <= {h}")
        },
        source: format!(
            "check grundy(staircase[a, b, c, d, e]) >= 0 for a in 0..={h}, \
             b in 0..={h}, c in 0..={h}, d in 0..={h}, e in 0..={h}"
        ),
        reps: 1,
        walker,
        baseline: Box::new(move || (best_of(2, || memo_staircase(h)), "memoized search".into())),
    };
    vec![
        heap(
            "grundys (rule form)",
            "grundys",
            1 << 20,
            1 << 14,
            Moves::Grundy,
        ),
        heap(
            "officers (octal 0.6)",
            "officers",
            1 << 20,
            1 << 14,
            Moves::Officers,
        ),
        heap(
            "kayles (octal 0.77)",
            "kayles",
            1_000_000,
            1 << 14,
            Moves::Kayles,
        ),
        heap(
            "kayles (rule form)",
            "kayles_rules",
            1_000_000,
            1 << 14,
            Moves::Kayles,
        ),
        heap(
            "dawson (octal 0.07)",
            "dawson",
            1_000_000,
            1 << 14,
            Moves::Dawson,
        ),
        heap(
            "lasker (rule form)",
            "lasker",
            1 << 12,
            1 << 12,
            Moves::Lasker,
        ),
        heap(
            "bash(7) (rule form)",
            "bash(7)",
            1_000_000,
            1_000_000,
            Moves::Bash7,
        ),
        Case {
            name: format!("wythoff, all a, b < {wythoff_n}"),
            source: format!("ppos wythoff 0..{wythoff_n}, 0..{wythoff_n}"),
            reps: 1,
            walker: false,
            baseline: Box::new(move || {
                (
                    best_of(2, || naive_wythoff(wythoff_n)),
                    "naive triple loop".into(),
                )
            }),
        },
        xor_case(xor_h, false),
        xor_case(walker_xor_h, true),
        xor_pruned(xor_h),
        stair_case(stair_h, false),
        stair_case(stair_h, true),
    ]
    .into_iter()
    .map(|mut case| {
        // The rule form of Kayles, as in the README.
        case.source = format!(
            "game kayles_rules on n {{\n    for t in 1..=min(2, n), a in 0..=(n - t) / 2 \
             {{ n = [a, n - t - a] }}\n}}\n{}",
            case.source
        );
        case
    })
    .collect()
}

#[derive(Clone, Copy)]
enum Moves {
    Grundy,
    Officers,
    Kayles,
    Dawson,
    Lasker,
    Bash7,
}

/// Grundy values of heaps 0..n by the definition: every option's value, then the mex.
fn naive_heap(n: usize, moves: Moves) -> u64 {
    let mut g: Vec<u32> = vec![0; n];
    let mut seen: Vec<bool> = Vec::new();
    let mut values: Vec<u32> = Vec::new();
    for h in 0..n {
        values.clear();
        let split = |rest: usize, unequal: bool, values: &mut Vec<u32>| {
            for a in 1..=rest / 2 {
                if unequal && 2 * a == rest {
                    continue;
                }
                values.push(g[a] ^ g[rest - a]);
            }
        };
        match moves {
            Moves::Grundy => split(h, true, &mut values),
            Moves::Officers => {
                if h > 1 {
                    values.push(g[h - 1]);
                    split(h - 1, false, &mut values);
                }
            }
            Moves::Kayles | Moves::Dawson => {
                let takes: &[usize] = if matches!(moves, Moves::Kayles) {
                    &[1, 2]
                } else {
                    &[2]
                };
                for &t in takes {
                    if h >= t {
                        values.push(g[h - t]);
                        split(h - t, false, &mut values);
                    }
                }
            }
            Moves::Lasker => {
                for k in 1..=h {
                    values.push(g[h - k]);
                }
                split(h, false, &mut values);
            }
            Moves::Bash7 => {
                for k in 1..=h.min(7) {
                    values.push(g[h - k]);
                }
            }
        }
        seen.clear();
        seen.resize(values.len() + 1, false);
        for &v in &values {
            if (v as usize) < seen.len() {
                seen[v as usize] = true;
            }
        }
        g[h] = seen.iter().position(|s| !s).unwrap() as u32;
    }
    g.iter().map(|&v| v as u64).sum()
}

/// Wythoff's game for all a, b < n: the mex over the row, the column and the diagonal.
fn naive_wythoff(n: usize) -> usize {
    let mut g = vec![vec![0u32; n]; n];
    let mut seen = Vec::new();
    for a in 0..n {
        for b in 0..n {
            seen.clear();
            seen.resize(a + b + 2, false);
            for k in 1..=a {
                seen[g[a - k][b] as usize] = true;
            }
            for k in 1..=b {
                seen[g[a][b - k] as usize] = true;
            }
            for k in 1..=a.min(b) {
                seen[g[a - k][b - k] as usize] = true;
            }
            g[a][b] = seen.iter().position(|s| !s).unwrap() as u32;
        }
    }
    g.iter().flatten().filter(|&&v| v == 0).count()
}

fn mex(values: &mut [u32]) -> u32 {
    values.sort_unstable();
    let mut next = 0;
    for &v in values.iter() {
        if v == next {
            next += 1;
        } else if v > next {
            break;
        }
    }
    next
}

/// The xor game by memoized search over sorted heaps: every b in the box 0..=h with
/// count(b) > 0 and xor(b) == 0 is a move h -> h - b.
fn memo_xor_nim(h: i64) -> u64 {
    fn value(state: Vec<i64>, memo: &mut HashMap<Vec<i64>, u32>) -> u32 {
        if let Some(&v) = memo.get(&state) {
            return v;
        }
        let mut values = Vec::new();
        let mut b = vec![0i64; state.len()];
        loop {
            let mut i = b.len();
            loop {
                if i == 0 {
                    let v = mex(&mut values);
                    memo.insert(state, v);
                    return v;
                }
                i -= 1;
                if b[i] < state[i] {
                    b[i] += 1;
                    break;
                }
                b[i] = 0;
            }
            if b.iter().fold(0, |x, &y| x ^ y) == 0 {
                let mut next: Vec<i64> = state.iter().zip(&b).map(|(s, d)| s - d).collect();
                next.sort_unstable();
                values.push(value(next, memo));
            }
        }
    }
    let mut memo = HashMap::new();
    let mut total = 0u64;
    for_box(5, h, &mut |s| {
        let mut s = s.to_vec();
        s.sort_unstable();
        total += value(s, &mut memo) as u64;
    });
    total
}

/// The xor game as [`memo_xor_nim`], but enumerating only the boxes with xor 0: every
/// coordinate but the last, the last being the xor of the others when it is within its bound.
fn memo_xor_nim_pruned(h: i64) -> u64 {
    fn value(state: Vec<i64>, memo: &mut HashMap<Vec<i64>, u32>) -> u32 {
        if let Some(&v) = memo.get(&state) {
            return v;
        }
        let n = state.len();
        let mut values = Vec::new();
        let mut b = vec![0i64; n];
        loop {
            let last = b[..n - 1].iter().fold(0, |x, &y| x ^ y);
            if last <= state[n - 1] && (last != 0 || b[..n - 1].iter().any(|&x| x != 0)) {
                b[n - 1] = last;
                let mut next: Vec<i64> = state.iter().zip(&b).map(|(s, d)| s - d).collect();
                next.sort_unstable();
                values.push(value(next, memo));
            }
            let mut i = n - 1;
            loop {
                if i == 0 {
                    let v = mex(&mut values);
                    memo.insert(state, v);
                    return v;
                }
                i -= 1;
                if b[i] < state[i] {
                    b[i] += 1;
                    break;
                }
                b[i] = 0;
            }
        }
    }
    let mut memo = HashMap::new();
    let mut total = 0u64;
    for_box(5, h, &mut |s| {
        let mut s = s.to_vec();
        s.sort_unstable();
        total += value(s, &mut memo) as u64;
    });
    total
}

/// Staircase Nim by memoized search: coins on step i move down to step i - 1; from step 0
/// they leave.
fn memo_staircase(h: i64) -> u64 {
    fn value(state: Vec<i64>, memo: &mut HashMap<Vec<i64>, u32>) -> u32 {
        if let Some(&v) = memo.get(&state) {
            return v;
        }
        let mut values = Vec::new();
        for i in 0..state.len() {
            for k in 1..=state[i] {
                let mut next = state.clone();
                next[i] -= k;
                if i > 0 {
                    next[i - 1] += k;
                }
                values.push(value(next, memo));
            }
        }
        let v = mex(&mut values);
        memo.insert(state, v);
        v
    }
    let mut memo = HashMap::new();
    let mut total = 0u64;
    for_box(5, h, &mut |s| total += value(s.to_vec(), &mut memo) as u64);
    total
}

/// Calls `f` on every list of `len` counters, each 0..=h.
fn for_box(len: usize, h: i64, f: &mut dyn FnMut(&[i64])) {
    let mut s = vec![0i64; len];
    loop {
        f(&s);
        let mut i = len;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if s[i] < h {
                s[i] += 1;
                break;
            }
            s[i] = 0;
        }
    }
}

/// Parallel sweeps: the same source on every core (the default) against one thread
/// (`threads = 1`), in the same run. The ratio is all threads / one thread.
fn parallel_cases(quick: bool) -> Vec<Case> {
    let h = if quick { 6 } else { 12 };
    let steps = if quick { 4 } else { 6 };
    let side = if quick { 80 } else { 300 };
    let corner = "game corner on (a, b) {\n\
        for k in 1..=min(a, 3) { a -= k }\n\
        for k in 1..=b if k % 2 == 1 { b -= k }\n\
        for k in 1..=min(a, b) if k != 2 { a -= k; b -= k }\n\
    }\n";
    let sweeps = [
        (
            format!("parallel: check xor_nim, 5 heaps <= {h}"),
            format!(
                "check grundy(xor_nim[a, b, c, d, e]) >= 0 for a in 0..={h}, \
                 b in 0..={h}, c in 0..={h}, d in 0..={h}, e in 0..={h}"
            ),
        ),
        (
            format!("parallel: check staircase, 5 steps <= {steps}"),
            format!(
                "check grundy(staircase[a, b, c, d, e]) == a xor c xor e for a in 0..={steps}, \
                 b in 0..={steps}, c in 0..={steps}, d in 0..={steps}, e in 0..={steps}"
            ),
        ),
        (
            format!("parallel: ppos of a rule game, {side} x {side}"),
            format!("{corner}ppos corner 0..{side}, 0..{side}"),
        ),
    ];
    sweeps
        .into_iter()
        .map(|(name, source)| {
            let sequential = source.clone();
            Case {
                name,
                source,
                reps: 2,
                walker: false,
                baseline: Box::new(move || {
                    let one = (0..2).map(|_| run_with_threads(&sequential, 1)).min();
                    (one.unwrap_or_default(), "the same on one thread".into())
                }),
            }
        })
        .collect()
}

/// The time of `source` in a fresh session with `threads` sweep threads, the prelude loaded
/// before the clock starts.
fn run_with_threads(source: &str, threads: usize) -> Duration {
    let limits = Limits {
        max_states: 50_000_000,
        threads,
        ..Limits::default()
    };
    let mut session = Session::new(limits);
    let mut out = Vec::new();
    let start = Instant::now();
    if let Err(e) = session.run("bench", source, &mut out) {
        panic!("{source}\n{e:?}");
    }
    let elapsed = start.elapsed();
    std::hint::black_box(out);
    elapsed
}
