use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use std::sync::Arc;

use clap::Parser;
use grundy::error::{render, Error, Origin};
use grundy::files::Root;
use grundy::game::cache_folder::Cache;
use grundy::game::Limits;
use grundy::game::{Shard, SurveyPart};
use grundy::repl::{terminal, Backend};
use grundy::Order::{Each, Whole};
use grundy::Session;

/// An interpreter for a small language of impartial combinatorial games. With no file and no
/// `-e`, it opens an interactive prompt (or, when standard input is not a terminal, runs it).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Game files to run, in order, in one session; `-` reads a program from standard input.
    /// Each file is checked whole before it runs; standard input runs statement by statement.
    files: Vec<std::path::PathBuf>,

    /// Statements to run (after the files, if given), e.g. `grundy -e 'win nim[3, 4, 5]'`.
    /// May be repeated: the statements run in order, one line each, statement by statement.
    #[arg(short = 'e', long = "eval", value_name = "STATEMENTS")]
    eval: Vec<String>,

    /// Runs FILE, then opens the interactive prompt.
    #[arg(
        short = 'i',
        long = "interactive",
        value_name = "FILE",
        conflicts_with_all = ["files", "eval"]
    )]
    interactive: Option<std::path::PathBuf>,

    /// The most states one search may store (and the most elements of a list built from a range).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_states)]
    max_states: usize,

    /// The most memory, in MiB, the session may hold (estimated before it grows) [default: 4096,
    /// or half the address space the process may take (`ulimit -v`) when that is less]
    #[arg(long, value_name = "MIB")]
    max_memory: Option<usize>,

    /// Threads for large `check`, `table` and `ppos` sweeps: 0 for every core (or
    /// `RAYON_NUM_THREADS`), 1 to run everything on one thread; at most 4 a core.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = threads_in_reach)]
    threads: usize,

    /// A folder (created if missing) where heap sequences are kept as they grow, every few
    /// seconds and when stopped; a later run resumes from them.
    #[arg(long, value_name = "DIR")]
    cache: Option<std::path::PathBuf>,

    /// Computes only part I of N of each `survey` (the games g with g % N = I - 1), kept in the
    /// `--cache` folder; `--merge` then makes the table from the parts.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse, requires = "cache")]
    shard: Option<Shard>,

    /// Makes each `survey`'s table (and file) from the parts that runs with `--shard I/N` kept
    /// in the `--cache` folder, computing nothing: every part must be there, whole and sound.
    #[arg(long, requires = "cache", conflicts_with = "shard")]
    merge: bool,

    /// The folder under which programs may read and write files (`read`, `to "FILE"`, `:load`);
    /// by default the folder of the file run, or the working folder at the prompt and for `-e`.
    #[arg(long, value_name = "DIR")]
    root: Option<std::path::PathBuf>,
}

/// The exit status after Ctrl-C, as shells report a process ended by SIGINT.
const INTERRUPTED: i32 = 130;

/// Makes freed memory go back to the system: glibc raises its threshold for mapping a buffer
/// alone each time such a buffer is freed (up to 32 MiB), after which tables and stacks that
/// grow and are freed stay in the heaps of each thread, held though unused. A fixed threshold
/// keeps the process's peak near what it holds (a parallel `check` over the limit peaked at
/// 84 MiB under `--max-memory 64`, 72 MiB with it).
fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a parameter of the allocator, before any thread starts.
    unsafe {
        // Buffers of 128 KiB and more are mapped alone, and unmapped when freed.
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
}

/// The memory limit when none is given: 4 GiB, or half the address space the process may map
/// when that is less. Past that the kernel refuses a mapping and the allocator aborts the
/// process, before any limit could say so.
fn default_max_memory() -> usize {
    let default = Limits::default().max_memory;
    #[cfg(unix)]
    {
        // SAFETY: an all-zero `rlimit` is a valid value, and `getrlimit` writes one.
        let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
        let got = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) };
        if got == 0 && limit.rlim_cur != libc::RLIM_INFINITY {
            return default.min(usize::try_from(limit.rlim_cur / 2).unwrap_or(usize::MAX));
        }
    }
    default
}

fn main() -> ExitCode {
    return_freed_memory();
    let cli = Cli::parse();
    let cache = match cli.cache.as_deref().map(Cache::open).transpose() {
        Ok(cache) => cache.map(Arc::new),
        Err(e) => {
            let error = Error::Io {
                path: cli.cache.unwrap_or_default().display().to_string(),
                reason: e.to_string(),
            };
            eprint!("{}", render(&[error], "", "", width(), colour()));
            return ExitCode::FAILURE;
        }
    };
    let root = match cli.root.as_deref().map(folder).transpose() {
        Ok(root) => root,
        Err(error) => {
            eprint!("{}", render(&[error], "", "", width(), colour()));
            return ExitCode::FAILURE;
        }
    };
    // The root at the prompt and for `-e`: `--root DIR`, relative paths from the working folder.
    let prompt = match root {
        Some(root) => Root::new(root, std::env::current_dir().unwrap_or_default()),
        None => Root::working_folder(),
    };
    let limits = Limits {
        max_states: cli.max_states,
        max_memory: (cli.max_memory).map_or_else(default_max_memory, |m| m.saturating_mul(1 << 20)),
        threads: cli.threads,
        cache,
        root: prompt.clone(),
        survey_part: match (cli.shard, cli.merge) {
            (Some(shard), _) => SurveyPart::Shard(shard),
            (None, true) => SurveyPart::Merge,
            (None, false) => SurveyPart::Whole,
        },
        ..Limits::default()
    };
    let mut files = cli.files;
    if files.is_empty() && cli.eval.is_empty() {
        if std::io::stdin().is_terminal() || cli.interactive.is_some() {
            let mut backend = Backend::new(limits);
            backend.set_style(width(), colour());
            return terminal::run(backend, cli.interactive.as_deref());
        }
        files.push("-".into());
    }
    let interrupt = limits.interrupt.clone();
    let _ = ctrlc::set_handler(move || {
        if interrupt.swap(true, std::sync::atomic::Ordering::Relaxed) {
            std::process::exit(INTERRUPTED);
        }
    });
    let progress = limits.progress.clone();
    let longest = grundy::longest_program(&limits);
    let mut session = Session::new(limits);
    let eval = (!cli.eval.is_empty()).then(|| cli.eval.join("\n"));
    let programs = files.iter().map(Some).chain(eval.iter().map(|_| None));
    for file in programs {
        let (order, read) = match file {
            Some(path) if path.as_os_str() == "-" => (
                Each,
                grundy::read_program("<stdin>", std::io::stdin().lock(), longest)
                    .map(|text| ("<stdin>".to_string(), text)),
            ),
            Some(path) => (
                Whole,
                grundy::read_program_file(path, longest)
                    .map(|text| (path.display().to_string(), text)),
            ),
            None => (
                Each,
                Ok((
                    "<command line>".to_string(),
                    eval.clone().unwrap_or_default(),
                )),
            ),
        };
        let base = match file {
            Some(path) if path.as_os_str() != "-" => match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => Some(parent),
                _ => Some(std::path::Path::new(".")),
            },
            _ => None,
        };
        let origin = match read.and_then(|read| Ok((read, base.map(folder).transpose()?))) {
            Ok(((name, text), base)) => {
                session.set_root(match base {
                    Some(base) => prompt.for_file(base),
                    None => prompt.clone(),
                });
                Arc::new(Origin { name, text })
            }
            Err(error) => {
                eprint!("{}", render(&[error], "", "", width(), colour()));
                return ExitCode::FAILURE;
            }
        };
        let result = terminal::with_spinner(&progress, |spinner| {
            let mut out = spinner.writer(std::io::stdout().lock());
            let result = session.run_origin(&origin, order, &mut out);
            let _ = out.flush();
            result
        });
        let (name, source) = (&origin.name, &origin.text);
        let warnings = session.take_warnings();
        eprint!("{}", render(&warnings, name, source, width(), colour()));
        match result {
            Ok(()) => {}
            Err(errors) if errors.contains(&Error::Interrupted) => {
                eprintln!("{}", progress.interrupted());
                return ExitCode::from(INTERRUPTED as u8);
            }
            Err(errors) => {
                eprint!("{}", render(&errors, name, source, width(), colour()));
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// A folder named on the command line, resolved.
fn folder(path: &std::path::Path) -> Result<std::path::PathBuf, Error> {
    let cannot = |reason: String| Error::Io {
        path: path.display().to_string(),
        reason,
    };
    let resolved = path.canonicalize().map_err(|e| cannot(e.to_string()))?;
    match resolved.is_dir() {
        true => Ok(resolved),
        false => Err(cannot("it is not a folder".into())),
    }
}

/// `--threads N`, refused past [`Limits::most_threads`]: more threads than that only take turns
/// on the cores, each with an engine to feed, and make a sweep slower.
fn threads_in_reach(text: &str) -> Result<usize, String> {
    let n: usize = text.parse().map_err(|e| format!("{e}"))?;
    let most = Limits::most_threads();
    if n > most {
        return Err(format!(
            "at most {most} on this machine ({} a core): more only take turns on the cores",
            grundy::game::MOST_THREADS_A_CORE
        ));
    }
    Ok(n)
}

fn colour() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

fn width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100)
}
