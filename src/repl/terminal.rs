//! The terminal front end: line editing, history, completion, colours, Ctrl-C and a spinner.

use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::Validator;
use rustyline::{ColorMode, CompletionType, Config, Context, Editor, Helper};

use super::{highlight::highlight, Answer, Backend, Reply, COMMANDS, CONTINUATION, PROMPT};

/// Runs the interactive session on the terminal until `:quit` or Ctrl-D, after loading `file`
/// if given. Ctrl-C interrupts the running entry, or clears the line at the prompt.
pub fn run(mut backend: Backend, file: Option<&Path>) -> ExitCode {
    let colour = std::env::var_os("NO_COLOR").is_none();
    let config = Config::builder()
        .auto_add_history(false)
        .completion_type(CompletionType::List)
        .color_mode(if colour {
            ColorMode::Enabled
        } else {
            ColorMode::Disabled
        })
        .max_history_size(10_000)
        .map(|b| b.build());
    let editor = config.and_then(Editor::<GrundyHelper, FileHistory>::with_config);
    let mut editor = match editor {
        Ok(editor) => editor,
        Err(e) => {
            eprintln!("error: cannot start the line editor: {e}");
            return ExitCode::FAILURE;
        }
    };
    editor.set_helper(Some(GrundyHelper {
        names: backend.names(),
        files: FilenameCompleter::new(),
        colour,
    }));
    let mut history = History::open(&mut editor);
    let flag = backend.limits().interrupt.clone();
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed)) {
        eprintln!("warning: Ctrl-C will not interrupt computations: {e}");
    }
    println!(
        "grundy {}: impartial games at a prompt. `:help` for help, Ctrl-D to leave.",
        env!("CARGO_PKG_VERSION")
    );
    if let Some(path) = file {
        let answer = with_spinner(|| backend.load(path));
        show(&answer);
    }
    // The lines of the entry being typed: stored in the history as one entry when it is done.
    let mut entry: Vec<String> = Vec::new();
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.names = backend.names();
        }
        let prompt = if backend.is_continuing() {
            CONTINUATION
        } else {
            PROMPT
        };
        match editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    entry.push(line.clone());
                }
                let reply = with_spinner(|| backend.feed(&line));
                if !matches!(reply, Reply::More) && !entry.is_empty() {
                    let _ = editor.add_history_entry(entry.join("\n"));
                    history.save(&mut editor);
                    entry.clear();
                }
                match reply {
                    Reply::More => {}
                    Reply::Done(answer) => show(&answer),
                    Reply::Quit => break,
                }
            }
            Err(ReadlineError::Interrupted) => {
                backend.discard();
                entry.clear();
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

fn show(answer: &Answer) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(answer.output.as_bytes());
    let _ = out.flush();
    eprint!("{}", answer.errors);
}

struct History {
    path: Option<PathBuf>,
}

impl History {
    fn open(editor: &mut Editor<GrundyHelper, FileHistory>) -> History {
        let Some(path) = history_path() else {
            eprintln!("warning: no data folder (is HOME set?): the history will not be kept");
            return History { path: None };
        };
        let mut history = History { path: None };
        if let Some(dir) = path.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                history.warn(&path, e);
                return history;
            }
        }
        if path.exists() {
            if let Err(e) = editor.load_history(&path) {
                history.warn(&path, e);
                return history;
            }
        }
        history.path = Some(path);
        history
    }

    fn save(&mut self, editor: &mut Editor<GrundyHelper, FileHistory>) {
        let Some(path) = &self.path else { return };
        let saved = if path.exists() {
            editor.append_history(path)
        } else {
            editor.save_history(path)
        };
        if let Err(e) = saved {
            let path = path.clone();
            self.warn(&path, e);
        }
    }

    fn warn(&mut self, path: &Path, error: impl std::fmt::Display) {
        eprintln!(
            "warning: the history will not be kept in {}: {error}",
            path.display()
        );
        self.path = None;
    }
}

fn history_path() -> Option<PathBuf> {
    dirs::data_dir().map(|dir| dir.join("grundy").join("history"))
}

/// Runs `work`, showing a spinner on standard error if it takes more than half a second.
fn with_spinner<T>(work: impl FnOnce() -> T) -> T {
    let spinner = std::io::stderr().is_terminal().then(Spinner::start);
    let result = work();
    drop(spinner);
    result
}

struct Spinner {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    fn start() -> Spinner {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            if stopped.recv_timeout(Duration::from_millis(500)) != Err(RecvTimeoutError::Timeout) {
                return;
            }
            let frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
            for frame in frames.iter().cycle() {
                let seconds = start.elapsed().as_secs();
                let mut err = std::io::stderr().lock();
                let _ = write!(
                    err,
                    "\r\x1b[2K{frame} working, {seconds} s (Ctrl-C cancels)"
                );
                let _ = err.flush();
                drop(err);
                if stopped.recv_timeout(Duration::from_millis(100))
                    != Err(RecvTimeoutError::Timeout)
                {
                    break;
                }
            }
            eprint!("\r\x1b[2K");
        });
        Spinner {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

struct GrundyHelper {
    names: Vec<String>,
    files: FilenameCompleter,
    colour: bool,
}

impl Helper for GrundyHelper {}

impl Completer for GrundyHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let trimmed = before.trim_start();
        if trimmed.starts_with(':') {
            if trimmed.starts_with(":load ") {
                return self.files.complete(line, pos, ctx);
            }
            if trimmed.contains(char::is_whitespace) {
                return Ok((pos, Vec::new()));
            }
            let start = pos - trimmed.len();
            let commands = COMMANDS
                .iter()
                .map(|(c, _)| c.split(' ').next().unwrap_or(c))
                .filter(|c| c.starts_with(trimmed));
            return Ok((start, commands.map(pair).collect()));
        }
        let start = before
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let word = &before[start..];
        if word.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return Ok((pos, Vec::new()));
        }
        let names = self.names.iter().filter(|n| n.starts_with(word));
        Ok((start, names.map(|n| pair(n)).collect()))
    }
}

fn pair(word: &str) -> Pair {
    Pair {
        display: word.to_string(),
        replacement: word.to_string(),
    }
}

impl Hinter for GrundyHelper {
    type Hint = String;
}

impl Validator for GrundyHelper {}

impl Highlighter for GrundyHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if self.colour {
            Cow::Owned(highlight(line))
        } else {
            Cow::Borrowed(line)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        self.colour
    }
}
