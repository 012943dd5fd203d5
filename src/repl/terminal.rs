//! The terminal front end: line editing, history, completion, colours, Ctrl-C and a spinner.

use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::Validator;
use rustyline::{ColorMode, CompletionType, Config, Context, Editor, Helper};

use crate::game::progress::Progress;

use super::{
    command_of, highlight::highlight, Answer, Backend, Reply, Words, CONTINUATION, PROMPT,
};

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
        words: backend.words(),
        files: FilenameCompleter::new(),
        colour,
    }));
    let mut history = History::open(&mut editor);
    let flag = backend.limits().interrupt.clone();
    let raise = flag.clone();
    if let Err(e) = ctrlc::set_handler(move || raise.store(true, Ordering::Relaxed)) {
        eprintln!("warning: Ctrl-C will not interrupt computations: {e}");
    }
    println!(
        "grundy {}: impartial games at a prompt. `:help` for help, Ctrl-D to leave.",
        env!("CARGO_PKG_VERSION")
    );
    let progress = backend.limits().progress.clone();
    if let Some(path) = file {
        let answer = with_spinner(&progress, |_| backend.run_file(path));
        show(&answer, &flag);
    }
    // The lines of the entry being typed: stored in the history as one entry when it is done.
    let mut entry: Vec<String> = Vec::new();
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.words = backend.words();
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
                let reply = with_spinner(&progress, |_| backend.feed(&line));
                if !matches!(reply, Reply::More) && !entry.is_empty() {
                    let _ = editor.add_history_entry(entry.join("\n"));
                    history.save(&mut editor);
                    entry.clear();
                }
                match reply {
                    Reply::More => {}
                    Reply::Done(answer) => show(&answer, &flag),
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

/// Prints an answer, in pieces so that Ctrl-C (which `flag` records) stops a long one.
fn show(answer: &Answer, flag: &AtomicBool) {
    flag.store(false, Ordering::Relaxed);
    let mut out = std::io::stdout().lock();
    for piece in answer.output.as_bytes().chunks(1 << 16) {
        if flag.load(Ordering::Relaxed) {
            let _ = writeln!(out);
            let _ = out.flush();
            eprintln!("interrupted");
            break;
        }
        if out.write_all(piece).is_err() {
            break;
        }
    }
    let _ = out.flush();
    eprint!("{}", answer.errors);
    let _ = out.write_all(answer.timing.as_bytes());
    let _ = out.flush();
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

/// Runs `work`, showing a progress line on standard error (when it is a terminal) if it takes
/// more than half a second: what `progress` reports, or the time taken. Text typed meanwhile is
/// not echoed over the line; it waits for the next prompt.
pub fn with_spinner<T>(progress: &Progress, work: impl FnOnce(&Spinner) -> T) -> T {
    let spinner = Spinner::start(progress);
    let result = work(&spinner);
    drop(spinner);
    result
}

/// The progress line while a computation runs (see [`with_spinner`]).
pub struct Spinner {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
    /// Whether the line is on the screen; held while it is drawn or cleared.
    shown: Arc<Mutex<bool>>,
    _quiet: Option<QuietInput>,
}

impl Spinner {
    fn start(progress: &Progress) -> Spinner {
        let shown = Arc::new(Mutex::new(false));
        if !std::io::stderr().is_terminal() {
            return Spinner {
                stop: None,
                thread: None,
                shown,
                _quiet: None,
            };
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let progress = progress.clone();
        let on_screen = shown.clone();
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            if stopped.recv_timeout(Duration::from_millis(500)) != Err(RecvTimeoutError::Timeout) {
                return;
            }
            let frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
            let width = terminal_width();
            for frame in frames.iter().cycle() {
                let what = match progress.read() {
                    Some(reading) => reading.line(),
                    None => format!("working, {} s", start.elapsed().as_secs()),
                };
                let line = progress_line(*frame, &what, width);
                let mut shown = on_screen.lock().unwrap_or_else(|e| e.into_inner());
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2K{line}");
                let _ = err.flush();
                *shown = true;
                drop((err, shown));
                if stopped.recv_timeout(Duration::from_millis(100))
                    != Err(RecvTimeoutError::Timeout)
                {
                    break;
                }
            }
            drop(Spinner::clear(&on_screen));
        });
        Spinner {
            stop: Some(stop),
            thread: Some(thread),
            shown,
            _quiet: QuietInput::start(),
        }
    }

    /// Clears the line if it is shown; it stays off the screen while the guard is held.
    fn clear(shown: &Mutex<bool>) -> std::sync::MutexGuard<'_, bool> {
        let mut guard = shown.lock().unwrap_or_else(|e| e.into_inner());
        if *guard {
            eprint!("\r\x1b[2K");
            *guard = false;
        }
        guard
    }

    /// A writer for answers printed while the line is shown: it clears the line first, and the
    /// next frame draws it again below the answer.
    pub fn writer<W: Write>(&self, out: W) -> SpinnerAware<W> {
        SpinnerAware {
            out,
            shown: self.shown.clone(),
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

/// Output that clears the progress line before it is written (see [`Spinner::writer`]).
pub struct SpinnerAware<W: Write> {
    out: W,
    shown: Arc<Mutex<bool>>,
}

impl<W: Write> Write for SpinnerAware<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let _shown = Spinner::clear(&self.shown);
        let written = self.out.write(bytes)?;
        self.out.flush()?;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The line as it fits in `width` columns: `⠹ check: 41,200 of 100,000 cases, ... (Ctrl-C
/// cancels)`, with a shorter note or a shorter text when it does not fit.
fn progress_line(frame: char, what: &str, width: usize) -> String {
    let room = width.saturating_sub(1);
    let chars = |s: &str| s.chars().count();
    for note in ["(Ctrl-C cancels)", "(Ctrl-C)"] {
        if chars(what) + chars(note) + 3 <= room {
            return format!("{frame} {what} {note}");
        }
    }
    let what: String = what.chars().take(room.saturating_sub(11)).collect();
    format!("{frame} {what} (Ctrl-C)")
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(80)
}

/// While it lives, standard input (a terminal) does not echo what is typed, and Ctrl-C does not
/// discard it: text typed during a computation is read at the next prompt instead of being
/// printed over the progress line.
struct QuietInput {
    #[cfg(unix)]
    saved: libc::termios,
}

impl QuietInput {
    #[cfg(unix)]
    fn start() -> Option<QuietInput> {
        if !std::io::stdin().is_terminal() {
            return None;
        }
        // SAFETY: tcgetattr fills the termios it is given, and is checked before it is read.
        let mut saved: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(libc::STDIN_FILENO, &mut saved) } != 0 {
            return None;
        }
        let mut quiet = saved;
        quiet.c_lflag &= !libc::ECHO;
        quiet.c_lflag |= libc::NOFLSH;
        // SAFETY: a termios read from the same terminal, with two flags changed.
        unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &quiet) };
        Some(QuietInput { saved })
    }

    #[cfg(not(unix))]
    fn start() -> Option<QuietInput> {
        None
    }
}

impl Drop for QuietInput {
    fn drop(&mut self) {
        // SAFETY: restores the settings read when it started.
        #[cfg(unix)]
        unsafe {
            libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &self.saved)
        };
    }
}

struct GrundyHelper {
    words: Words,
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
        let typed = line[..pos].trim_start();
        if let Some((word, _)) = typed.split_once(char::is_whitespace) {
            if matches!(command_of(word), Ok(":load" | ":cache")) {
                return self.files.complete(line, pos, ctx);
            }
        }
        let (start, words) = self.words.complete(line, pos);
        Ok((start, words.iter().map(|w| pair(w)).collect()))
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
