//! The interactive session: a back end that takes one line at a time and answers with text
//! ([`Backend`]), and a terminal front end over it ([`terminal::run`]).

mod games;
pub mod help;
mod highlight;
pub mod terminal;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::builtins::BUILTINS;
use crate::error::{render, Error};
use crate::eval::expr::Host;
use crate::eval::types::Ty;
use crate::files::{self, Access};
use crate::game::cache_folder::Cache;
use crate::game::{Limits, Method};
use crate::syntax;
use crate::syntax::ast::{Expr, StmtKind};
use crate::Session;

use self::games::Games;

/// The prompt of a new entry.
pub const PROMPT: &str = "grundy> ";
/// The prompt of a line that continues an unfinished entry.
pub const CONTINUATION: &str = "   ...> ";

/// The words of the language that are not names: keywords, statement words and game forms;
/// the `kw_` rules of `grammar/grundy.pest`, one for one (a test in `tests/it/repl_backend.rs`
/// compares them).
pub const KEYWORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "xor",
    "if",
    "then",
    "else",
    "for",
    "in",
    "let",
    "game",
    "on",
    "unordered",
    "misere",
    "true",
    "false",
    "grundy",
    "outcome",
    "moves",
    "win",
    "sequence",
    "table",
    "ppos",
    "period",
    "genus",
    "quotient",
    "compare",
    "survey",
    "dot",
    "plot",
    "to",
    "check",
    "assert",
    "print",
    "octal",
    "hex",
    "subtraction",
    "graph",
];

/// The `:` commands, each with what it does.
pub const COMMANDS: &[(&str, &str)] = &[
    (":help", "the help topics; `:help TOPIC` one of them"),
    (":games", "every game defined, with its description"),
    (":load FILE", "run a game file into the session"),
    (
        ":reload",
        "a fresh session with the files loaded since the last `:reset` run again",
    ),
    (":reset", "forget everything but the prelude"),
    (
        ":time",
        "toggle printing how long each answer took, and the method of each game it computed",
    ),
    (":method GAME", "how the values of a game are computed"),
    (
        ":limit N",
        "the most states one search may store; `:limit memory MIB` the most memory (`:limit` shows both)",
    ),
    (
        ":cache DIR",
        "keep heap sequences in folder DIR as they grow, and resume from it (`:cache off`; `:cache` shows it)",
    ),
    (":quit", "leave (Ctrl-D does too)"),
];

/// Short spellings of commands that their prefixes would leave ambiguous or unknown: ghci's
/// `:l` and `:r`, and `:q` and `:exit`.
const COMMAND_ALIASES: &[(&str, &str)] = &[
    (":l", ":load"),
    (":r", ":reload"),
    (":q", ":quit"),
    (":exit", ":quit"),
];

impl Session {
    /// Sets the most states and memory one search may take (and the most elements of a list
    /// built from a range), for every search from now on.
    pub fn set_limits(&mut self, limits: &Limits) {
        if let Some(engine) = Host::engine(&mut self.interpreter) {
            engine.limits.max_states = limits.max_states;
            engine.limits.max_memory = limits.max_memory;
        }
    }

    /// The game that `game`, an expression (`kayles`, `bash(3)`), names in this session, with
    /// the method that computes its values.
    pub fn method(&mut self, game: &str) -> Result<(String, Method), Vec<Error>> {
        let expr = self.game_expr(game)?;
        self.interpreter.method(&expr).map_err(|e| vec![e])
    }

    /// How many heaps of the game that `game` names were taken from the cache
    /// ([`Limits::cache`]) rather than computed.
    pub fn resumed(&mut self, game: &str) -> Result<usize, Vec<Error>> {
        let expr = self.game_expr(game)?;
        self.interpreter.resumed(&expr).map_err(|e| vec![e])
    }

    /// `game` read as one expression, checked.
    fn game_expr(&self, game: &str) -> Result<Expr, Vec<Error>> {
        let program = syntax::parse(game).map_err(|e| vec![e])?;
        let expr = match &program.statements[..] {
            [stmt] => match &stmt.kind {
                StmtKind::Expr(expr) => Some(expr),
                _ => None,
            },
            _ => None,
        };
        let Some(expr) = expr else {
            return Err(vec![Error::invalid(
                "this is not a game",
                crate::span::Span::new(0, game.len()),
                "write one expression that names a game, e.g. `kayles` or `bash(3)`",
            )]);
        };
        crate::static_check::check(&program.statements, self.interpreter.global_types())?;
        Ok(expr.clone())
    }

    /// Every global name: games, families and `let` values, sorted.
    pub fn global_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.interpreter.global_types().keys().cloned().collect();
        names.sort();
        names
    }

    /// The global names that name a game or a family of games, sorted.
    pub fn game_names(&self) -> Vec<String> {
        let types = self.interpreter.global_types();
        let mut names: Vec<String> = types
            .iter()
            .filter(|(_, ty)| matches!(ty, Ty::Game(_) | Ty::Family(..)))
            .map(|(name, _)| name.clone())
            .collect();
        names.sort();
        names
    }
}

/// What the back end answers to one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The entry is unfinished (an open brace, a trailing operator...): feed the next line.
    More,
    /// The entry or command ran.
    Done(Answer),
    /// `:quit`.
    Quit,
}

/// The text an entry printed: answers for standard output, diagnostics for standard error.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// What the statements printed.
    pub output: String,
    /// Rendered diagnostics, `interrupted`, or a command's complaint.
    pub errors: String,
    /// The time taken and the methods used, when `:time` is on: shown after the answer and
    /// its errors, as the last word on them.
    pub timing: String,
}

impl Answer {
    fn output(output: impl Into<String>) -> Answer {
        Answer {
            output: output.into(),
            errors: String::new(),
            timing: String::new(),
        }
    }

    fn error(errors: impl Into<String>) -> Answer {
        Answer {
            output: String::new(),
            errors: errors.into(),
            timing: String::new(),
        }
    }

    /// The texts, answers first and the timing last, as a terminal shows them.
    pub fn text(&self) -> String {
        format!("{}{}{}", self.output, self.errors, self.timing)
    }
}

/// A REPL session without a terminal: lines in, text out.
///
/// ```
/// use grundy::repl::{Backend, Reply};
/// let mut repl = Backend::new(Default::default());
/// assert_eq!(repl.feed("game g on n {"), Reply::More);
/// assert_eq!(repl.feed("  for k in 1..=min(2, n) { n -= k }"), Reply::More);
/// let Reply::Done(answer) = repl.feed("}") else { panic!() };
/// assert!(answer.text().is_empty());
/// let Reply::Done(answer) = repl.feed("grundy g[5]") else { panic!() };
/// assert_eq!(answer.output, "2\n");
/// ```
pub struct Backend {
    session: Session,
    limits: Limits,
    /// The files `:load` was given since the last `:reset`, in order, for `:reload`.
    loaded: Vec<std::path::PathBuf>,
    buffer: String,
    entries: usize,
    timing: bool,
    width: usize,
    colour: bool,
    games: Games,
}

impl Backend {
    /// A session with the prelude loaded. Errors are rendered 80 columns wide, without colour,
    /// until [`Backend::set_style`] says otherwise.
    pub fn new(limits: Limits) -> Backend {
        let session = Session::new(limits.clone());
        let games = Games::new(&session);
        Backend {
            session,
            limits,
            loaded: Vec::new(),
            buffer: String::new(),
            entries: 0,
            timing: false,
            width: 80,
            colour: false,
            games,
        }
    }

    /// How diagnostics are rendered: their width in columns, and whether in colour.
    pub fn set_style(&mut self, width: usize, colour: bool) {
        self.width = width;
        self.colour = colour;
    }

    /// The limits of the session, with the flag that interrupts a computation.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Whether the lines fed so far are an unfinished entry.
    pub fn is_continuing(&self) -> bool {
        !self.buffer.is_empty()
    }

    /// Forgets the unfinished entry, if any (Ctrl-C at the prompt).
    pub fn discard(&mut self) {
        self.buffer.clear();
    }

    /// Words to complete: every global name, the built-in functions and the keywords, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names = self.session.global_names();
        names.extend(BUILTINS.iter().map(|b| b.name.to_string()));
        names.extend(KEYWORDS.iter().map(|k| k.to_string()));
        names.sort();
        names.dedup();
        names
    }

    /// What Tab completes, as the session stands now.
    pub fn words(&self) -> Words {
        Words {
            names: self.names(),
            games: self.session.game_names(),
        }
    }

    /// Takes one line: a `:` command, or a line of an entry. An entry runs as soon as it parses
    /// as a whole (or fails for a reason other than being unfinished).
    pub fn feed(&mut self, line: &str) -> Reply {
        if self.buffer.is_empty() {
            let trimmed = line.trim();
            if trimmed.starts_with(':') {
                return self.command(trimmed);
            }
            if let Some(command) = self.python_command(trimmed) {
                return self.command(&command);
            }
            if trimmed.is_empty() {
                return Reply::Done(Answer::default());
            }
        } else if line.trim().is_empty() {
            return Reply::Done(self.abandon());
        } else {
            self.buffer.push('\n');
        }
        self.buffer.push_str(line);
        if let Err(error) = syntax::parse(&self.buffer) {
            if error.is_unfinished() {
                return Reply::More;
            }
        }
        let source = std::mem::take(&mut self.buffer);
        if let Some(text) = self.games.describe(&self.session, source.trim()) {
            return Reply::Done(Answer::output(text));
        }
        self.entries += 1;
        let name = format!("<repl:{}>", self.entries);
        Reply::Done(self.run(&name, &source, false))
    }

    /// The command that Python's and IPython's ways of asking for help or leaving mean:
    /// `help`, `help(period)`, `?period`, `period?`, `quit`, `exit()`. `help`, `quit` and
    /// `exit` are read so only while they are not names of the session.
    fn python_command(&self, entry: &str) -> Option<String> {
        if let Some(topic) = entry.strip_prefix('?').or_else(|| entry.strip_suffix('?')) {
            return is_topic_word(topic).then(|| format!(":help {topic}"));
        }
        let (word, argument) = match entry.split_once('(') {
            Some((word, rest)) => (word.trim_end(), rest.strip_suffix(')')?.trim()),
            None => (entry, ""),
        };
        let command = match word {
            "help" if is_topic_word(argument) => format!(":help {argument}"),
            "quit" | "exit" if argument.is_empty() => ":quit".to_string(),
            _ => return None,
        };
        let defined = self.session.global_names().iter().any(|n| n == word);
        (!defined).then_some(command)
    }

    /// A blank line after an unfinished entry: the entry is dropped, with a note of its first
    /// line and what it lacked.
    fn abandon(&mut self) -> Answer {
        let source = std::mem::take(&mut self.buffer);
        let lacked = match syntax::parse(&source) {
            Err(Error::Unfinished { message, .. }) => format!(" ({message})"),
            _ => String::new(),
        };
        let first = source.lines().next().unwrap_or("").trim();
        let more = if source.lines().count() > 1 {
            " ..."
        } else {
            ""
        };
        Answer::error(format!(
            "not run: `{first}{more}` was unfinished{lacked}; the blank line ended it\n"
        ))
    }

    /// Runs a file under the session's root into the session, its relative paths taken from
    /// its folder, as `:load FILE` does; `:reload` runs it again.
    pub fn load(&mut self, path: &Path) -> Answer {
        if !self.loaded.iter().any(|p| p == path) {
            self.loaded.push(path.to_path_buf());
        }
        let shown = path.display().to_string();
        let root = self.limits.root.clone();
        let opened = files::open(&root, path, Access::Read).map_err(|refused| {
            let span = crate::span::Span::new(0, shown.len());
            Error::file(refused, &shown, span, |reason| Error::Io {
                path: shown.clone(),
                reason,
            })
        });
        let read = opened.and_then(|opened| {
            let source =
                crate::read_program(&shown, &opened.file, crate::longest_program(&self.limits))?;
            Ok((source, opened.path))
        });
        let (source, at) = match read {
            Ok(read) => read,
            Err(error) => return Answer::error(self.render(&[error], "<:load>", &shown)),
        };
        let base = at.parent().map(Path::to_path_buf).unwrap_or_default();
        self.session.set_root(root.with_base(base));
        let answer = self.run(&shown, &source, true);
        self.session.set_root(root);
        answer
    }

    /// Runs a file named on the command line (`-i FILE`) into the session, as a file run: under
    /// its folder (or `--root`), relative paths from there; then the prompt's root again.
    pub fn run_file(&mut self, path: &Path) -> Answer {
        let source = match crate::read_program_file(path, crate::longest_program(&self.limits)) {
            Ok(source) => source,
            Err(error) => return Answer::error(self.render(&[error], "", "")),
        };
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let root = self.limits.root.clone();
        self.session.set_root(root.for_file(folder.to_path_buf()));
        let answer = self.run(&path.display().to_string(), &source, true);
        self.session.set_root(root);
        answer
    }

    /// Where programs at this prompt may read and write files.
    pub fn set_root(&mut self, root: files::Root) {
        self.limits.root = root.clone();
        self.session.set_root(root);
    }

    /// Runs an entry or a file. An `atomic` run that fails leaves the session as it was.
    fn run(&mut self, name: &str, source: &str, atomic: bool) -> Answer {
        self.limits
            .interrupt
            .store(false, std::sync::atomic::Ordering::Relaxed);
        self.limits.progress.take_ended();
        let before = self.games.snapshot(&self.session, source);
        let stored = self.session.interpreter.stored();
        let start = Instant::now();
        let mut out = Vec::new();
        let result = if atomic {
            self.session.run_or_roll_back(name, source, &mut out)
        } else {
            self.session.run(name, source, &mut out)
        };
        let took = start.elapsed();
        self.games.update(&self.session, before);
        let mut answer = Answer::output(String::from_utf8_lossy(&out));
        let warnings = self.session.take_warnings();
        answer.errors = self.render(&warnings, name, source);
        if let Err(errors) = result {
            answer.errors += &if errors.contains(&Error::Interrupted) {
                format!("{}\n", self.limits.progress.interrupted())
            } else {
                self.render(&errors, name, source)
            };
        }
        if self.timing {
            answer.timing = format!("time: {}\n", duration(took));
            for (game, method) in self.session.interpreter.methods_since(&stored) {
                answer.timing.push_str(&format!("  {game}: {method}\n"));
            }
        }
        answer
    }

    fn render(&self, errors: &[Error], name: &str, source: &str) -> String {
        render(errors, name, source, self.width, self.colour)
    }

    fn command(&mut self, line: &str) -> Reply {
        let (word, argument) = match line.split_once(char::is_whitespace) {
            Some((word, rest)) => (word, rest.trim()),
            None => (line, ""),
        };
        let command = match command_of(word) {
            Ok(command) => command,
            Err(complaint) => return Reply::Done(Answer::error(complaint)),
        };
        Reply::Done(match command {
            ":help" if argument.is_empty() => Answer::output(self::help::index()),
            ":help" => match self::help::help(argument) {
                Ok(text) => Answer::output(text),
                Err(text) => Answer::error(text),
            },
            ":games" => Answer::output(self.games.list(&self.session)),
            ":load" if argument.is_empty() => Answer::error("usage: :load FILE\n"),
            ":load" => self.load(Path::new(unquote(argument))),
            ":reload" => self.reload(),
            ":reset" => self.reset(),
            ":time" => {
                self.timing = !self.timing;
                let state = if self.timing { "on" } else { "off" };
                Answer::output(format!("timing {state}\n"))
            }
            ":limit" => self.limit(argument),
            ":method" if argument.is_empty() => Answer::error("usage: :method GAME\n"),
            ":method" => self.method(argument),
            ":cache" => self.cache(argument),
            _ => return Reply::Quit,
        })
    }

    fn method(&mut self, game: &str) -> Answer {
        match self.session.method(game) {
            Ok((name, method)) => {
                let mut text = format!("{name}: {method}\n");
                match self.session.resumed(game) {
                    Ok(0) | Err(_) => {}
                    Ok(heaps) => text += &format!("  heaps 0..{heaps} resumed from the cache\n"),
                }
                Answer::output(text)
            }
            Err(errors) => Answer::error(self.render(&errors, "<method>", game)),
        }
    }

    /// `:cache` shows the folder in use, `:cache off` stops using it, `:cache DIR` uses `DIR`.
    fn cache(&mut self, argument: &str) -> Answer {
        let describe = |cache: &Option<Arc<Cache>>| match cache {
            Some(cache) => format!(
                "cache: heap sequences are kept in {}\n",
                cache.dir().display()
            ),
            None => "cache: off (`:cache DIR` keeps heap sequences in DIR)\n".to_string(),
        };
        match argument {
            "" => return Answer::output(describe(&self.limits.cache)),
            "off" => self.limits.cache = None,
            dir => match Cache::open(Path::new(unquote(dir))) {
                Ok(cache) => self.limits.cache = Some(Arc::new(cache)),
                Err(e) => {
                    return Answer::error(format!("cannot use `{dir}` as the cache folder: {e}\n"))
                }
            },
        }
        self.session.set_cache(self.limits.cache.clone());
        Answer::output(describe(&self.limits.cache))
    }

    fn reset(&mut self) -> Answer {
        self.fresh_session();
        self.loaded.clear();
        Answer::output("a fresh session: the prelude is loaded, everything else is forgotten\n")
    }

    fn fresh_session(&mut self) {
        self.limits
            .interrupt
            .store(false, std::sync::atomic::Ordering::Relaxed);
        self.session = Session::new(self.limits.clone());
        self.games = Games::new(&self.session);
        self.buffer.clear();
    }

    /// A fresh session with the files loaded since the last `:reset` run again, in order, as
    /// ghci's `:reload` does after a file was edited.
    fn reload(&mut self) -> Answer {
        if self.loaded.is_empty() {
            // A note, not an error: there is nothing to do.
            return Answer::output("no file to reload: `:load FILE` first\n");
        }
        self.fresh_session();
        let mut answer = Answer::default();
        for path in self.loaded.clone() {
            let ran = self.load(&path);
            answer.output += &ran.output;
            answer.errors += &ran.errors;
            answer.output += &format!("reloaded {}\n", path.display());
        }
        answer
    }

    fn limit(&mut self, argument: &str) -> Answer {
        let describe = |limits: &Limits| {
            format!(
                "state limit: {} states; memory limit: {} MiB\n",
                limits.max_states,
                limits.max_memory >> 20
            )
        };
        if argument.is_empty() {
            return Answer::output(describe(&self.limits));
        }
        let (memory, number) = match argument.strip_prefix("memory") {
            Some(rest) => (true, rest.trim()),
            None => (
                false,
                argument.strip_prefix("states").unwrap_or(argument).trim(),
            ),
        };
        match number.replace('_', "").parse::<usize>() {
            Ok(n) if n > 0 => {
                if memory {
                    self.limits.max_memory = n.saturating_mul(1 << 20);
                } else {
                    self.limits.max_states = n;
                }
                self.session.set_limits(&self.limits);
                Answer::output(describe(&self.limits))
            }
            _ => Answer::error(format!(
                "`{argument}` is not a limit: write e.g. `:limit 1000000` (states) or `:limit memory 2048` (MiB)\n"
            )),
        }
    }
}

/// The command that `word` (`:l`, `:lim`, `:limit`) names, or what is wrong with it.
pub fn command_of(word: &str) -> Result<&'static str, String> {
    if let Some((_, command)) = COMMAND_ALIASES.iter().find(|(short, _)| *short == word) {
        return Ok(command);
    }
    let matching: Vec<&'static str> = COMMANDS
        .iter()
        .map(|(c, _)| c.split(' ').next().unwrap_or(c))
        .filter(|c| c.starts_with(word))
        .collect();
    match matching.as_slice() {
        [one] => Ok(one),
        [] => Err(unknown_command(word)),
        several => Err(format!("`{word}` is ambiguous: {}\n", several.join(", "))),
    }
}

/// Whether `word` could be a help topic: empty, a name, or a command (`:limit`).
fn is_topic_word(word: &str) -> bool {
    let name = word.strip_prefix(':').unwrap_or(word);
    name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// What Tab completes: commands after `:`, help topics after `:help`, game names after
/// `:method`, and otherwise names, built-in functions and keywords. (File names after `:load`
/// are the terminal's.)
#[derive(Clone, Debug, Default)]
pub struct Words {
    names: Vec<String>,
    games: Vec<String>,
}

impl Words {
    /// The start of the word before `pos` in `line`, and the words it may complete to.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = &line[..pos];
        let trimmed = before.trim_start();
        let start = before
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == ':'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let word = &before[start..];
        let candidates: Vec<String> = if let Some(rest) = trimmed.strip_prefix(':') {
            match rest.split_once(char::is_whitespace) {
                None => COMMANDS
                    .iter()
                    .map(|(c, _)| c.split(' ').next().unwrap_or(c).to_string())
                    .collect(),
                Some((command, _)) => match command_of(&format!(":{command}")) {
                    Ok(":help") => help::topics()
                        .iter()
                        .flat_map(|t| t.names.iter().cloned())
                        .collect(),
                    Ok(":method") => self.games.clone(),
                    _ => Vec::new(),
                },
            }
        } else if word.starts_with(|c: char| c.is_ascii_digit()) {
            Vec::new()
        } else {
            self.names.clone()
        };
        let mut found: Vec<String> = candidates
            .into_iter()
            .filter(|c| c.starts_with(word))
            .collect();
        found.sort();
        found.dedup();
        (start, found)
    }
}

fn unquote(text: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = text.strip_prefix(quote).and_then(|t| t.strip_suffix(quote)) {
            return inner;
        }
    }
    text
}

fn unknown_command(word: &str) -> String {
    let nearest = COMMANDS
        .iter()
        .map(|(c, _)| c.split(' ').next().unwrap_or(c))
        .map(|c| (strsim::levenshtein(word, c), c))
        .min();
    let hint = match nearest {
        Some((distance, c)) if distance <= 2 => format!("did you mean `{c}`? "),
        _ => String::new(),
    };
    format!("unknown command `{word}`: {hint}`:help` lists the commands\n")
}

fn duration(took: Duration) -> String {
    let seconds = took.as_secs_f64();
    if seconds < 1e-3 {
        format!("{:.0} µs", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1e3)
    } else {
        format!("{seconds:.2} s")
    }
}
