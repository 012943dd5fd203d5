//! Speed of the interpreter against hand-written Rust and pycgt, in the same run, and the peak
//! memory of heap sequences.
//!
//! `cargo bench --bench speed` runs every case; `cargo bench --bench speed -- NAME...` runs the
//! cases whose names contain one of the words; `--quick` uses small sizes (a smoke test).
//!
//! Each case times the interpreter on real grundy source (a fresh `Session` each time, the
//! prelude loaded before the clock starts) and a baseline in the same run:
//!
//! - written plainly in Rust here: naive mex loops for heap sequences, a triple loop for
//!   Wythoff, a memoized search for the xor game and staircase Nim. Where the naive baseline is
//!   quadratic and the full size would take hours, it runs at a smaller size and its time is
//!   scaled by (n / n_small)^2, which the report says;
//! - the `pycgt` Python package (`pip install pycgt==0.2.0`) where it covers the game: an inline
//!   script run by `python3`, timed inside Python (start-up and imports excluded), whose answer
//!   must equal what the grundy source printed. Without pycgt these cases say so and are skipped.
//!
//! The ratio is interpreter time / baseline time: lower is faster. The `peak memory` cases have
//! no baseline: they report the growth of the peak of allocated bytes during the computation
//! (counted by the global allocator below), divided by the number of heap values asked for.

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use grundy::game::Limits;
use grundy::Session;

mod baselines;
mod components;
mod far;
mod quotient;
use baselines::*;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The system allocator, counting the bytes allocated while a [`peak_growth`] measurement is
/// open (outside one it only forwards, so the timed cases pay one relaxed load per call).
struct CountingAllocator;

/// Whether a measurement is open.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Bytes allocated minus bytes freed since the measurement opened (negative when it frees
/// blocks allocated before).
static CURRENT: AtomicIsize = AtomicIsize::new(0);
/// The largest value `CURRENT` has had since the measurement opened.
static PEAK: AtomicIsize = AtomicIsize::new(0);

impl CountingAllocator {
    /// Records a change of `delta` bytes in the live total.
    fn record(delta: isize) {
        if COUNTING.load(Ordering::Relaxed) {
            let now = CURRENT.fetch_add(delta, Ordering::Relaxed) + delta;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
    }
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            Self::record(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            Self::record(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        Self::record(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = System.realloc(p, layout, new_size);
        if !q.is_null() {
            Self::record(new_size as isize - layout.size() as isize);
        }
        q
    }
}

/// Runs `f` and returns its result with the growth of the peak of allocated bytes while it
/// ran: the most bytes live at once, less those live when it started.
fn peak_growth<T>(f: impl FnOnce() -> T) -> (T, usize) {
    CURRENT.store(0, Ordering::SeqCst);
    PEAK.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    let result = f();
    COUNTING.store(false, Ordering::SeqCst);
    (result, PEAK.load(Ordering::SeqCst).max(0) as usize)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let quick = args.iter().any(|a| a == "--quick");
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let mut cases = cases(quick);
    cases.extend(parallel_cases(quick));
    cases.extend(far::far_cases(quick));
    cases.extend(quotient::quotient_cases(quick));
    cases.extend(components::component_cases(quick));
    println!(
        "{:<44} {:>12} {:>14} {:>10}  baseline",
        "case", "grundy", "baseline", "ratio"
    );
    for case in cases {
        if !filters.is_empty() && !filters.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        match &case.against {
            Against::Rust(baseline) => {
                let (interpreter, _) = time_interpreter(&case.source, case.reps, case.walker);
                let (baseline, mut how) = baseline();
                if let Some(n) = case.heaps {
                    let rate = n as f64 / interpreter.as_secs_f64();
                    how = format!("{how}; grundy {rate:.3e} values/s");
                }
                print_row(&case.name, interpreter, baseline, &how);
            }
            Against::Pycgt { script, answer } => {
                let Some(version) = pycgt_version() else {
                    println!(
                        "{:<44} skipped: python3 cannot import pycgt \
                         (install it with `pip install pycgt==0.2.0`)",
                        case.name
                    );
                    continue;
                };
                let (interpreter, out) = time_interpreter(&case.source, case.reps, case.walker);
                let (baseline, python_answer) = time_pycgt(script, case.reps);
                let grundy_answer = answer(&out);
                assert_eq!(
                    grundy_answer, python_answer,
                    "{}: grundy and pycgt answer differently",
                    case.name
                );
                let how = if python_answer.len() <= 4 {
                    format!("pycgt {version}, same answer: {}", python_answer.join(" "))
                } else {
                    format!("pycgt {version}, same {} values", python_answer.len())
                };
                print_row(&case.name, interpreter, baseline, &how);
            }
            Against::PeakMemory { values } => {
                let (interpreter, peak) = interpreter_peak_memory(&case.source);
                println!(
                    "{:<44} {:>12} {:>14} {:>10}  peak growth of allocated bytes / {values} values",
                    case.name,
                    show(interpreter),
                    show_bytes(peak),
                    format!("{:.2} B", peak as f64 / *values as f64),
                );
            }
        }
    }
}

/// One line of the report: both times and their ratio.
fn print_row(name: &str, interpreter: Duration, baseline: Duration, how: &str) {
    let ratio = interpreter.as_secs_f64() / baseline.as_secs_f64();
    let ratio = if ratio < 0.001 {
        format!("{ratio:.1e}")
    } else {
        format!("{ratio:.4}")
    };
    println!(
        "{:<44} {:>12} {:>14} {:>10}  {how}",
        name,
        show(interpreter),
        show(baseline),
        ratio
    );
}

struct Case {
    name: String,
    source: String,
    reps: usize,
    /// Whether rule games run on the AST walker instead of their compiled rules.
    walker: bool,
    /// For a heap sequence, how many values it computes (the report gives values a second).
    heaps: Option<usize>,
    against: Against,
}

/// What a case's interpreter run is compared with.
enum Against {
    /// A baseline written in Rust here: its time and how it computes.
    Rust(Box<dyn Fn() -> (Duration, String)>),
    /// A Python script using pycgt (after [`PYCGT_PRELUDE`]) that prints its time in seconds on
    /// one line and its answer as words on the next; `answer` reads the same words out of what
    /// the grundy source printed.
    Pycgt {
        script: String,
        answer: fn(&str) -> Vec<String>,
    },
    /// No baseline: the peak memory of the computation, per heap value.
    PeakMemory { values: usize },
}

fn show(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else {
        format!("{:.2} ms", s * 1e3)
    }
}

fn show_bytes(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.2} MiB", bytes as f64 / (1 << 20) as f64)
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

/// The limits of every session here: room for 2^20 heaps and more.
/// One thread: the cases compare single-threaded baselines; the `parallel:` cases compare the
/// threads with each other.
fn bench_limits() -> Limits {
    Limits {
        max_states: 50_000_000,
        threads: 1,
        ..Limits::default()
    }
}

/// The best of `reps` runs of `source`, each in a fresh session, and what the last one printed.
fn time_interpreter(source: &str, reps: usize, walker: bool) -> (Duration, String) {
    grundy::interpret_only(walker);
    let mut best = Duration::MAX;
    let mut printed = String::new();
    for _ in 0..reps {
        let mut session = Session::new(bench_limits());
        let mut out = Vec::new();
        let start = Instant::now();
        if let Err(e) = session.run("bench", source, &mut out) {
            panic!("{source}\n{e:?}");
        }
        best = best.min(start.elapsed());
        printed = String::from_utf8(out).expect("grundy prints UTF-8");
    }
    (best, printed)
}

/// One run of `source` in a fresh session (the prelude loaded before the measurement): its
/// time and the growth of the peak of allocated bytes while it ran.
fn interpreter_peak_memory(source: &str) -> (Duration, usize) {
    grundy::interpret_only(false);
    let mut session = Session::new(bench_limits());
    let mut out = Vec::with_capacity(1024);
    let ((elapsed, result), peak) = peak_growth(|| {
        let start = Instant::now();
        let result = session.run("bench", source, &mut out);
        (start.elapsed(), result)
    });
    if let Err(e) = result {
        panic!("{source}\n{e:?}");
    }
    (elapsed, peak)
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

/// The pycgt version `python3` imports, or `None` when it cannot (asked once).
fn pycgt_version() -> Option<&'static str> {
    static VERSION: OnceLock<Option<String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            let out = Command::new("python3")
                .args(["-c", "import pycgt; print(pycgt.__version__)"])
                .output()
                .ok()?;
            out.status
                .success()
                .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        })
        .as_deref()
}

/// Helpers of every pycgt script. A heap game's heaps are pycgt games built from their options
/// (the canonical games of the heaps, or sums of them, a move leaves); an impartial game's
/// canonical form is a nimber `*v`, whose Left options are `*0 .. *(v-1)`.
const PYCGT_PRELUDE: &str = r#"
import time
from functools import reduce
from pycgt import Outcome, add, game, nimber, outcome
from pycgt.rulesets.nim import heaps

def heap_games(n, options):
    """The games of heaps 0..n-1; options(h) lists the heaps each move from h leaves."""
    games = []
    for h in range(n):
        moves = [reduce(add, (games[p] for p in parts)) for parts in options(h)]
        games.append(game(moves, moves))
    return games

def nim_value(g):
    """The Grundy value of an impartial game: its canonical form is *v."""
    v = len(g.left)
    assert g == nimber(v), g
    return v

def kayles_options(h):
    return [(a, h - t - a) for t in (1, 2) if t <= h for a in range((h - t) // 2 + 1)]

def grundys_options(h):
    return [(a, h - a) for a in range(1, h) if a < h - a]

def subtraction_options(s):
    return lambda h: [(h - t,) for t in s if t <= h]

def value_and_outcome(g):
    return [nim_value(g), {Outcome.SECOND: "P", Outcome.FIRST: "N"}[outcome(g)]]

def report(compute):
    """Prints the seconds compute() takes, then its answer."""
    start = time.perf_counter()
    answer = compute()
    print(time.perf_counter() - start)
    print(*answer)
"#;

/// The best of `reps` runs of a pycgt script (each a fresh `python3`, timed inside Python) and
/// its answer. The hash seed is fixed: it orders pycgt's sets of options, and with them how much
/// work its canonical forms take (up to 2x between seeds).
fn time_pycgt(script: &str, reps: usize) -> (Duration, Vec<String>) {
    let program = format!("{PYCGT_PRELUDE}\n{script}\n");
    let mut best = Duration::MAX;
    let mut answer = Vec::new();
    for _ in 0..reps {
        let out = Command::new("python3")
            .args(["-c", &program])
            .env("PYTHONHASHSEED", "0")
            .output()
            .expect("python3 runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "pycgt script failed:\n{program}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut lines = stdout.lines();
        let seconds: f64 = lines
            .next()
            .and_then(|l| l.trim().parse().ok())
            .expect("the script prints its seconds first");
        best = best.min(Duration::from_secs_f64(seconds));
        answer = lines
            .flat_map(str::split_whitespace)
            .map(String::from)
            .collect();
    }
    (best, answer)
}

/// The words grundy printed.
fn printed_words(out: &str) -> Vec<String> {
    out.split_whitespace().map(String::from).collect()
}

/// The values a `sequence` statement printed: its heading, then lines `n: v v v ...`.
fn sequence_values(out: &str) -> Vec<String> {
    out.lines()
        .skip(1)
        .filter_map(|line| line.split_once(':'))
        .flat_map(|(_, values)| values.split_whitespace())
        .map(String::from)
        .collect()
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
            heaps: Some(n),
            against: Against::Rust(Box::new(move || {
                let t = best_of(2, || naive_heap(small, moves));
                let scale = (n as f64 / small as f64).powi(2);
                let how = if small == n {
                    format!("naive mex loop, n = {n}")
                } else {
                    format!("naive mex loop at n = {small}, time x (n / {small})^2")
                };
                (t.mul_f64(scale), how)
            })),
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
        heaps: None,
        against: Against::Rust(Box::new(move || {
            (
                best_of(2, || memo_xor_nim_pruned(h)),
                "memoized search, last coordinate = xor of the others".into(),
            )
        })),
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
        heaps: None,
        against: Against::Rust(Box::new(move || {
            (best_of(1, || memo_xor_nim(h)), "memoized search".into())
        })),
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
        heaps: None,
        against: Against::Rust(Box::new(move || {
            (best_of(2, || memo_staircase(h)), "memoized search".into())
        })),
    };
    let pycgt = |name: String, source: String, script: String, answer| Case {
        name: format!("{name} (pycgt)"),
        source,
        reps: 2,
        walker: false,
        heaps: None,
        against: Against::Pycgt { script, answer },
    };
    let nim_heaps = if quick { [1, 4, 7] } else { [2, 5, 6] };
    let kayles_sum = if quick { [5, 7, 9] } else { [12, 15, 19] };
    let pycgt_sequence = |name: &str, game: &str, n: usize, options: &str| {
        pycgt(
            format!("{name}, sequence 0..{n}"),
            format!("sequence {game} 0..{n}"),
            format!("report(lambda: map(nim_value, heap_games({n}, {options})))"),
            sequence_values,
        )
    };
    let peak_memory = |name: &str, game: &str, n: usize| Case {
        name: format!("peak memory, {name} to {n}"),
        source: format!("print grundy({game}[{}])", n - 1),
        reps: 1,
        walker: false,
        heaps: None,
        against: Against::PeakMemory { values: n },
    };
    let quick_or = |full: usize| if quick { full.min(4096) } else { full };
    let misere_sums: Vec<Vec<u8>> = if quick {
        vec![vec![5, 7, 9, 10]]
    } else {
        vec![
            vec![10, 12, 15, 20],
            vec![22, 19, 17, 14],
            vec![21, 20, 18, 11, 9],
            vec![22, 21, 16, 13, 8],
        ]
    };
    let misere_source: String = misere_sums
        .iter()
        .map(|s| {
            let parts: Vec<String> = s.iter().map(|h| format!("kayles[{h}]")).collect();
            format!("print outcome(misere {})\n", parts.join(" + "))
        })
        .collect();
    let misere_quotient = Case {
        name: format!("misère kayles sums (quotient), {} sums", misere_sums.len()),
        source: misere_source.clone(),
        reps: 1,
        walker: false,
        heaps: None,
        against: Against::Rust(Box::new(move || {
            let (_, printed) = time_interpreter(&misere_source, 1, false);
            let mut answers = Vec::new();
            let time = best_of(1, || answers = memo_misere_kayles_outcomes(&misere_sums));
            let expected: Vec<&str> = answers.iter().map(|&p| if p { "P" } else { "N" }).collect();
            assert_eq!(
                printed_words(&printed),
                expected,
                "grundy and the baseline differ"
            );
            (time, "memoized whole-sum search, same answers".into())
        })),
    };
    let grundys_n = quick_or(1 << 20);
    let against_sparse_solver = Case {
        name: format!("grundys (rule form) to {grundys_n}, vs solver"),
        source: format!("print grundy(grundys[{}])", grundys_n - 1),
        reps: 1,
        walker: false,
        heaps: Some(grundys_n),
        against: Against::Rust(Box::new(move || {
            (
                best_of(2, || sparse_space_grundys(grundys_n)),
                "Grundy's game alone, by the sparse space (as research solvers do)".into(),
            )
        })),
    };
    let prelude_grundys = format!("print grundy(grundys[{}])", grundys_n - 1);
    let respelled_grundys = Case {
        name: format!("grundys spelled 1..=(n - 1) / 2 to {grundys_n}, vs prelude spelling"),
        source: format!(
            "game grundys2 on n {{ for a in 1..=(n - 1) / 2 {{ n = [a, n - a] }} }}\n\
             print grundy(grundys2[{}])",
            grundys_n - 1
        ),
        reps: 2,
        walker: false,
        heaps: Some(grundys_n),
        against: Against::Rust(Box::new(move || {
            let (time, _) = time_interpreter(&prelude_grundys, 2, false);
            (
                time,
                "the prelude's spelling `for a in 1..n if a < n - a`, in the same run".into(),
            )
        })),
    };
    vec![
        misere_quotient,
        respelled_grundys,
        heap(
            "grundys (rule form)",
            "grundys",
            1 << 20,
            1 << 14,
            Moves::Grundy,
        ),
        against_sparse_solver,
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
            heaps: None,
            against: Against::Rust(Box::new(move || {
                (
                    best_of(2, || naive_wythoff(wythoff_n)),
                    "naive triple loop".into(),
                )
            })),
        },
        misere_kayles(if quick {
            &[4, 5, 6, 7]
        } else {
            &[8, 11, 14, 17]
        }),
        misere_kayles(if quick {
            &[5, 6, 7, 8]
        } else {
            &[10, 12, 15, 20]
        }),
        misere_kayles(if quick {
            &[4, 5, 6, 8]
        } else {
            &[8, 11, 14, 16]
        }),
        xor_case(xor_h, false),
        xor_case(walker_xor_h, true),
        xor_pruned(xor_h),
        stair_case(stair_h, false),
        stair_case(stair_h, true),
        pycgt(
            format!("nim{nim_heaps:?}"),
            format!("let p = nim{nim_heaps:?}\nprint grundy(p)\nprint outcome(p)"),
            format!(
                "report(lambda: value_and_outcome(heaps({}, {}, {})))",
                nim_heaps[0], nim_heaps[1], nim_heaps[2]
            ),
            printed_words,
        ),
        pycgt(
            format!(
                "kayles[{}] + kayles[{}] + kayles[{}]",
                kayles_sum[0], kayles_sum[1], kayles_sum[2]
            ),
            format!(
                "let p = kayles_rules[{0}] + kayles_rules[{1}] + kayles_rules[{2}]\n\
                 print grundy(p)\nprint outcome(p)",
                kayles_sum[0], kayles_sum[1], kayles_sum[2]
            ),
            format!(
                "report(lambda: (lambda g: value_and_outcome(add(add(g[{0}], g[{1}]), g[{2}])))\
                 (heap_games({3}, kayles_options)))",
                kayles_sum[0],
                kayles_sum[1],
                kayles_sum[2],
                kayles_sum[2] + 1
            ),
            printed_words,
        ),
        pycgt_sequence(
            "sub({1, 3, 4})",
            "sub({1, 3, 4})",
            if quick { 2000 } else { 20_000 },
            "subtraction_options((1, 3, 4))",
        ),
        pycgt_sequence(
            "kayles (rule form)",
            "kayles_rules",
            if quick { 20 } else { 30 },
            "kayles_options",
        ),
        pycgt_sequence(
            "grundys (rule form)",
            "grundys",
            if quick { 60 } else { 120 },
            "grundys_options",
        ),
        notes_nim("notes' Nim task: win", "win nim[h[1..]]", quick),
        notes_nim(
            "notes' Nim task: len(wins(...))",
            "print len(wins(nim[h[1..]]))",
            quick,
        ),
        peak_memory("grundys (rule form)", "grundys", quick_or(1 << 20)),
        // One heap past a power of two: the values' vector has just doubled its capacity. (Heaps
        // from 2^20 on are answered only from a period, so 2^19 + 1 is the last such size.)
        peak_memory(
            "grundys (rule form)",
            "grundys",
            if quick { 4097 } else { (1 << 19) + 1 },
        ),
        peak_memory("officers (octal 0.6)", "officers", quick_or(1 << 20)),
        peak_memory("kayles (octal 0.77)", "kayles", quick_or(1_000_000)),
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

/// The notes' Nim task on their largest input (200,000 heaps up to 10^18, 2,000 with
/// `--quick`), written to a file that both read: `let h = read(...)` then `statement`, against
/// [`baselines::notes_nim`].
/// The misère Grundy value of a sum of Kayles heaps, against a plain memoized search of the
/// same value: from the quotient when it is 0 or 1 (`8 11 14 17` is 1, `10 12 15 20` is 0),
/// else searched on the whole sum (`8 11 14 16` is 6).
fn misere_kayles(heaps: &'static [u8]) -> Case {
    let written: Vec<String> = heaps.iter().map(|h| format!("kayles[{h}]")).collect();
    let written = written.join(" + ");
    Case {
        name: format!("misère {written}"),
        source: format!("grundy misere {written}"),
        reps: 1,
        walker: false,
        heaps: None,
        against: Against::Rust(Box::new(move || {
            (
                best_of(1, || memo_misere_kayles(heaps)),
                "memoized search, HashMap of sorted Vec<u8> keys, recursive".into(),
            )
        })),
    }
}

fn notes_nim(name: &str, statement: &str, quick: bool) -> Case {
    let count = if quick { 2000 } else { 200_000 };
    let path = std::env::temp_dir().join(format!("grundy-bench-heaps-{count}.txt"));
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let heaps: Vec<String> = (0..count)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 4) % (10u64.pow(18) + 1)).to_string()
        })
        .collect();
    std::fs::write(&path, format!("{count}\n{}\n", heaps.join(" "))).expect("a temporary file");
    Case {
        name: format!("{name}, {count} heaps"),
        source: format!(
            "let h = read({:?})\n{statement}",
            path.display().to_string()
        ),
        reps: 5,
        walker: false,
        heaps: None,
        against: Against::Rust(Box::new(move || {
            (
                best_of(5, || baselines::notes_nim(&path)),
                "hand-written Rust: read, xor, first heap the xor lowers".into(),
            )
        })),
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
                heaps: None,
                against: Against::Rust(Box::new(move || {
                    let one = (0..2).map(|_| run_with_threads(&sequential, 1)).min();
                    (one.unwrap_or_default(), "the same on one thread".into())
                })),
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
