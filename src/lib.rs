//! grundy: an interpreter for a small language of impartial combinatorial games.
//!
//! The pipeline is [`Session::run`]: parse → check → evaluate.

//! The public API is small: [`Session`] and the one-call runners below, [`error`] (the
//! diagnostics), [`game`] (the engine, which knows no syntax), [`repl`] (the prompt's back end
//! and terminal), the table of [`builtins`], and [`span`]. The syntax tree, the checker and the
//! evaluator are private.

pub mod builtins;
pub mod error;
mod eval;
pub mod files;
pub mod game;
pub mod repl;
pub mod span;
mod static_check;
mod syntax;

pub use eval::interpret_only;

use std::io::{Read, Write};

use error::Error;
use eval::Interpreter;
use game::Limits;

/// The classic games, written in the language, loaded into every session.
pub const PRELUDE: &str = include_str!("prelude.game");

/// How [`Session::run_origin`] takes a program's statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Every statement parsed and checked before the first runs: a file.
    Whole,
    /// Each statement parsed, checked and run before the next is read: `-e`, standard input.
    Each,
}
use Order::{Each, Whole};

/// One run of the interpreter: the prelude and everything run since, with every value solved.
pub struct Session {
    interpreter: Interpreter,
    /// The checker's warnings not yet taken.
    warnings: Vec<Error>,
}

impl Session {
    /// A session with the prelude loaded.
    pub fn new(limits: Limits) -> Session {
        let mut session = Session {
            interpreter: Interpreter::new(limits),
            warnings: Vec::new(),
        };
        session
            .run("<prelude>", PRELUDE, &mut std::io::sink())
            .expect("the prelude runs");
        session
    }

    /// Parses, checks and runs `source`, writing answers to `out`. Syntax and check errors stop
    /// before anything runs; a runtime error stops at its statement, except a failed `assert`
    /// or `check`, after which the run goes on (and a summary follows the failures).
    /// `name` is what diagnostics call the source (a file name, `<repl:3>`).
    pub fn run(&mut self, name: &str, source: &str, out: &mut dyn Write) -> Result<(), Vec<Error>> {
        self.run_origin(&Self::origin(name, source), Whole, out)
    }

    /// Like [`Session::run`], but statement by statement, as the prompt runs its entries: each
    /// statement is parsed, checked and run before the next is read, so that the statements
    /// before an error (a syntax error too) have run.
    pub fn run_each(
        &mut self,
        name: &str,
        source: &str,
        out: &mut dyn Write,
    ) -> Result<(), Vec<Error>> {
        self.run_origin(&Self::origin(name, source), Each, out)
    }

    fn origin(name: &str, source: &str) -> std::sync::Arc<error::Origin> {
        std::sync::Arc::new(error::Origin {
            name: name.to_string(),
            text: source.to_string(),
        })
    }

    /// [`Session::run`] (`Whole`) or [`Session::run_each`] (`Each`) of a source already in an
    /// [`error::Origin`], which games declared in it keep (so that a long program is held
    /// once). The text counts against the memory limit, and each statement's parse in what
    /// the limit leaves ([`syntax::Statements`]): a program is parsed one statement at a
    /// time, twice for `Whole` (once to check every statement, once to run them).
    pub fn run_origin(
        &mut self,
        origin: &std::sync::Arc<error::Origin>,
        order: Order,
        out: &mut dyn Write,
    ) -> Result<(), Vec<Error>> {
        let source = origin.text.as_str();
        let room = (self.limits().max_memory.saturating_sub(source.len())).max(syntax::PARSE_SLACK);
        let statements = || syntax::Statements::new(source, room).map(|s| s.map_err(|e| vec![e]));
        let result = match order {
            Whole => {
                let mut checker = static_check::Checker::new(self.interpreter.global_types());
                let mut found = Vec::new();
                let mut warnings = Vec::new();
                for statement in statements() {
                    match statement {
                        Ok(statement) => {
                            warnings
                                .extend(static_check::warnings(std::slice::from_ref(&statement)));
                            checker.statement(&statement)
                        }
                        Err(error) => found = error,
                    }
                }
                match checker.finish() {
                    Err(mut errors) => {
                        errors.extend(found);
                        return Err(errors);
                    }
                    Ok(()) if !found.is_empty() => return Err(found),
                    Ok(()) => self.warnings.extend(warnings),
                }
                self.interpreter.execute(statements(), origin, out)
            }
            Each => {
                let globals = self.interpreter.global_types().clone();
                let mut checker = static_check::Checker::new(&globals);
                let warnings = &mut self.warnings;
                let checked = statements().map(|statement| {
                    let statement = statement?;
                    checker.check_next(&statement)?;
                    warnings.extend(static_check::warnings(std::slice::from_ref(&statement)));
                    Ok(statement)
                });
                self.interpreter.execute(checked, origin, out)
            }
        };
        if let Some(engine) = eval::expr::Host::engine(&mut self.interpreter) {
            engine.save_caches();
        }
        result
    }

    /// Like [`Session::run`], but when anything fails, the session is left as it was before:
    /// no half-defined games or half-set variables.
    pub fn run_or_roll_back(
        &mut self,
        name: &str,
        source: &str,
        out: &mut dyn Write,
    ) -> Result<(), Vec<Error>> {
        let checkpoint = self.interpreter.checkpoint();
        let result = self.run(name, source, out);
        if result.is_err() {
            self.interpreter.roll_back(checkpoint);
        }
        result
    }

    pub fn limits(&self) -> &Limits {
        self.interpreter.limits()
    }

    /// Sets the folder where heap sequences are kept as they grow, or none, for every
    /// computation from now on.
    pub fn set_cache(&mut self, cache: Option<std::sync::Arc<game::cache_folder::Cache>>) {
        if let Some(engine) = eval::expr::Host::engine(&mut self.interpreter) {
            engine.limits.cache = cache;
        }
    }

    /// Where the program may read and write files from now on, and where its relative paths
    /// start.
    pub fn set_root(&mut self, root: files::Root) {
        if let Some(engine) = eval::expr::Host::engine(&mut self.interpreter) {
            engine.limits.root = root;
        }
    }

    /// The warnings since the last call, as diagnostics to render: the checker's (a game with
    /// no rules) and those about cache files (ignored files, failed saves).
    pub fn take_warnings(&mut self) -> Vec<Error> {
        let mut warnings = std::mem::take(&mut self.warnings);
        if let Some(cache) = &self.limits().cache {
            warnings.extend(cache.take_warnings().into_iter().map(Error::from));
        }
        warnings
    }
}

/// The longest program text that `limits` let a session hold: the memory limit, and at most
/// 4 GiB, past which the spans of diagnostics (32 bits) could not point into it.
pub fn longest_program(limits: &Limits) -> usize {
    limits.max_memory.min(u32::MAX as usize)
}

/// Reads a program from `reader`, named `path` in diagnostics: an I/O error, a text longer
/// than `longest` bytes (read no further), or text that is not UTF-8 (located at its first
/// bad byte), is an [`Error`].
pub fn read_program(
    path: &str,
    reader: impl std::io::Read,
    longest: usize,
) -> Result<String, Error> {
    let mut bytes = Vec::new();
    if let Err(e) = reader.take(longest as u64 + 1).read_to_end(&mut bytes) {
        return Err(Error::Io {
            path: path.to_string(),
            reason: e.to_string(),
        });
    }
    if bytes.len() > longest {
        return Err(Error::ProgramMemory {
            path: path.to_string(),
            megabytes: bytes.len().div_ceil(1 << 20),
            limit: longest >> 20,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = std::str::from_utf8(&bytes[..bad]).expect("valid up to the bad byte");
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Error::NotUtf8 {
            path: path.to_string(),
            byte: bytes[bad],
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
        }
    })
}

/// [`read_program`] of a file. A file longer than `longest` bytes is refused before it is
/// read.
pub fn read_program_file(path: &std::path::Path, longest: usize) -> Result<String, Error> {
    let name = path.display().to_string();
    let refused = |e: std::io::Error| Error::Io {
        path: name.clone(),
        reason: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(refused)?;
    let size = file.metadata().map_err(refused)?.len();
    if size > longest as u64 {
        return Err(Error::ProgramMemory {
            path: name,
            megabytes: size.div_ceil(1 << 20) as usize,
            limit: longest >> 20,
        });
    }
    read_program(&name, file, longest)
}

/// Runs `source` in a fresh session and returns what it printed, or the rendered errors
/// (colour-free, 80 columns), as a test or a one-liner would see them.
pub fn run_to_string(name: &str, source: &str) -> Result<String, String> {
    run_to_string_with(name, source, Limits::default())
}

/// [`run_to_string`] with other limits.
pub fn run_to_string_with(name: &str, source: &str, limits: Limits) -> Result<String, String> {
    let mut session = Session::new(limits);
    let mut out = Vec::new();
    let result = session.run(name, source, &mut out);
    let printed = String::from_utf8_lossy(&out).into_owned();
    match result {
        Ok(()) => Ok(printed),
        Err(errors) => Err(format!(
            "{printed}{}",
            error::render(&errors, name, source, 80, false)
        )),
    }
}
