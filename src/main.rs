use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use std::sync::Arc;

use clap::Parser;
use grundy::error::{render, Error};
use grundy::game::heap::Cache;
use grundy::game::Limits;
use grundy::repl::{terminal, Backend};
use grundy::Session;

/// An interpreter for a small language of impartial combinatorial games. With no file and no
/// `-e`, it opens an interactive prompt.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// A game file to run; `-` reads the program from standard input.
    file: Option<std::path::PathBuf>,

    /// Statements to run (after FILE, if given), e.g. `grundy -e 'win nim[3, 4, 5]'`. May be
    /// repeated: the statements run in order, one line each.
    #[arg(short = 'e', long = "eval", value_name = "STATEMENTS")]
    eval: Vec<String>,

    /// Runs FILE, then opens the interactive prompt.
    #[arg(
        short = 'i',
        long = "interactive",
        value_name = "FILE",
        conflicts_with_all = ["file", "eval"]
    )]
    interactive: Option<std::path::PathBuf>,

    /// The most states one search may store (and the most elements of a list built from a range).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_states)]
    max_states: usize,

    /// The most memory, in MiB, the memo tables of one game may take (estimated as they grow).
    #[arg(long, value_name = "MIB", default_value_t = Limits::default().max_memory >> 20)]
    max_memory: usize,

    /// Threads for large `check`, `table` and `ppos` sweeps: 0 for every core (or
    /// `RAYON_NUM_THREADS`), 1 to run everything on one thread; at most 4 a core.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = threads_in_reach)]
    threads: usize,

    /// A folder (created if missing) where heap sequences are kept as they grow, every few
    /// seconds and when stopped; a later run resumes from them.
    #[arg(long, value_name = "DIR")]
    cache: Option<std::path::PathBuf>,
}

/// The exit status after Ctrl-C, as shells report a process ended by SIGINT.
const INTERRUPTED: i32 = 130;

fn main() -> ExitCode {
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
    let limits = Limits {
        max_states: cli.max_states,
        max_memory: cli.max_memory.saturating_mul(1 << 20),
        threads: cli.threads,
        cache,
        ..Limits::default()
    };
    if cli.file.is_none() && cli.eval.is_empty() {
        let mut backend = Backend::new(limits);
        backend.set_style(width(), colour());
        return terminal::run(backend, cli.interactive.as_deref());
    }
    let mut sources = Vec::new();
    if let Some(path) = &cli.file {
        let read = if path.as_os_str() == "-" {
            grundy::read_program("<stdin>", std::io::stdin().lock()).map(|s| ("<stdin>".into(), s))
        } else {
            grundy::read_program_file(path).map(|s| (path.display().to_string(), s))
        };
        match read {
            Ok(source) => sources.push(source),
            Err(error) => {
                eprint!("{}", render(&[error], "", "", width(), colour()));
                return ExitCode::FAILURE;
            }
        }
    }
    if !cli.eval.is_empty() {
        sources.push(("<command line>".to_string(), cli.eval.join("\n")));
    }
    let interrupt = limits.interrupt.clone();
    let _ = ctrlc::set_handler(move || {
        if interrupt.swap(true, std::sync::atomic::Ordering::Relaxed) {
            std::process::exit(INTERRUPTED);
        }
    });
    let progress = limits.progress.clone();
    let mut session = Session::new(limits);
    for (name, source) in &sources {
        let result = terminal::with_spinner(&progress, |spinner| {
            let mut out = spinner.writer(std::io::stdout().lock());
            let result = session.run(name, source, &mut out);
            let _ = out.flush();
            result
        });
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
