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
pub mod game;
pub mod repl;
pub mod span;
mod static_check;
mod syntax;

pub use eval::interpret_only;

use std::io::Write;

use error::Error;
use eval::Interpreter;
use game::Limits;

/// The classic games, written in the language, loaded into every session.
pub const PRELUDE: &str = include_str!("prelude.game");

/// One run of the interpreter: the prelude and everything run since, with every value solved.
pub struct Session {
    interpreter: Interpreter,
}

impl Session {
    /// A session with the prelude loaded.
    pub fn new(limits: Limits) -> Session {
        let mut session = Session {
            interpreter: Interpreter::new(limits),
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
        let program = syntax::parse(source).map_err(|e| vec![e])?;
        static_check::check(&program.statements, self.interpreter.global_types())?;
        let origin = std::sync::Arc::new(error::Origin {
            name: name.to_string(),
            text: source.to_string(),
        });
        let result = self.interpreter.execute(&program.statements, &origin, out);
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
    pub fn set_cache(&mut self, cache: Option<std::sync::Arc<game::heap::Cache>>) {
        if let Some(engine) = eval::expr::Host::engine(&mut self.interpreter) {
            engine.limits.cache = cache;
        }
    }

    /// The warnings about cache files since the last call (ignored files, failed saves), as
    /// diagnostics to render.
    pub fn take_warnings(&self) -> Vec<Error> {
        match &self.limits().cache {
            Some(cache) => cache.take_warnings().into_iter().map(Error::from).collect(),
            None => Vec::new(),
        }
    }
}

/// Reads a program from `reader`, named `path` in diagnostics: an I/O error, or text that is not
/// UTF-8 (located at its first bad byte), is an [`Error`].
pub fn read_program(path: &str, mut reader: impl std::io::Read) -> Result<String, Error> {
    let mut bytes = Vec::new();
    if let Err(e) = reader.read_to_end(&mut bytes) {
        return Err(Error::Io {
            path: path.to_string(),
            reason: e.to_string(),
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

/// [`read_program`] of a file.
pub fn read_program_file(path: &std::path::Path) -> Result<String, Error> {
    let name = path.display().to_string();
    match std::fs::File::open(path) {
        Ok(file) => read_program(&name, file),
        Err(e) => Err(Error::Io {
            path: name,
            reason: e.to_string(),
        }),
    }
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
