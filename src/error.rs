//! Every error the interpreter reports, as one `miette` diagnostic enum.

mod excerpt;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};
use thiserror::Error;

use crate::game::progress::grouped;
use crate::span::Span;

/// An error found while parsing, checking or running a program. Each carries the span of the
/// source it is about; the source text itself is attached when the error is rendered.
#[derive(Clone, Debug, Error, Diagnostic, PartialEq)]
pub enum Error {
    /// The input does not follow the grammar: `let = 3`. The help names the likely fix of a
    /// common slip (`sequnce`, `=` for `==`), else where the statements are described.
    #[error("syntax error: {message}")]
    #[diagnostic(code(grundy::syntax), help("{help}"))]
    Syntax {
        message: String,
        #[label("{label}")]
        span: Span,
        label: String,
        help: String,
    },

    /// The input stops in the middle of a statement: `game g on n {`. The REPL asks for
    /// another line; a file reports it.
    #[error("unexpected end of input: {message}")]
    #[diagnostic(
        code(grundy::unfinished),
        help("finish the statement (a closing bracket or brace may be missing)")
    )]
    Unfinished {
        message: String,
        #[label("input ends here")]
        span: Span,
    },

    /// An integer literal that does not fit in 64 bits: `99999999999999999999`.
    #[error("integer literal out of range")]
    #[diagnostic(
        code(grundy::literal),
        help("integers are 64-bit signed: at most 9223372036854775807")
    )]
    Literal {
        #[label("too large")]
        span: Span,
    },

    /// A name that is not declared: `grundy nmi[3]`.
    #[error("unknown name `{name}`")]
    #[diagnostic(code(grundy::unknown_name), help("{help}"))]
    UnknownName {
        name: String,
        #[label("not declared")]
        span: Span,
        help: String,
    },

    /// A game or function given the wrong number of arguments: `bash(1, 2)`, `min()`.
    #[error("`{name}` takes {expected}, but {found} given")]
    #[diagnostic(code(grundy::arity), help("{help}"))]
    Arity {
        name: String,
        expected: String,
        found: usize,
        #[label("{found} given here")]
        span: Span,
        help: String,
    },

    /// A value of the wrong type: `1 + true`, `grundy(3)`.
    #[error("type mismatch: expected {expected}, found {found}")]
    #[diagnostic(code(grundy::type_mismatch), help("{help}"))]
    Type {
        expected: String,
        found: String,
        #[label("this is {found}")]
        span: Span,
        help: String,
    },

    /// A name declared twice where that is not allowed: `game g on (a, a) { }`.
    #[error("`{name}` is declared twice")]
    #[diagnostic(code(grundy::duplicate), help("rename one of them"))]
    Duplicate {
        name: String,
        #[label("second declaration")]
        span: Span,
        #[label("first declaration")]
        first: Span,
    },

    /// A statement or update that cannot be used where it stands: `s[0] -= 1` in a heap game,
    /// `n = [1, 2]` in a tuple game, a game declared with no rules.
    #[error("{message}")]
    #[diagnostic(code(grundy::invalid), help("{help}"))]
    Invalid {
        message: String,
        #[label("here")]
        span: Span,
        help: String,
    },

    /// A board that cannot be made, or a cell that is not on it: `grid(["..", "."])`,
    /// `vertices(3, [[0, 5]])`, `row(grid(2, 2), 7)`.
    #[error("{message}")]
    #[diagnostic(code(grundy::bad_board), help("{help}"))]
    BadBoard {
        message: String,
        #[label("this board")]
        span: Span,
        help: String,
    },

    /// A board of more cells than a game on cells holds: `grid(12, 11)`.
    #[error("a board of {cells} cells: a game on cells is played on at most 128 cells")]
    #[diagnostic(
        code(grundy::too_many_cells),
        help("split the board into parts of at most 128 cells and add their positions: `cram[grid(8, 8)] + cram[grid(8, 8)]`")
    )]
    TooManyCells {
        cells: String,
        #[label("this board")]
        span: Span,
    },

    /// A move that leaves a counter below zero: `game g on n { for k in 0..=n+1 { n -= k } }`.
    #[error("a move leaves a negative counter: {state}")]
    #[diagnostic(
        code(grundy::negative_counter),
        help("bound the rule so every counter stays >= 0, e.g. `for k in 1..=n`")
    )]
    NegativeCounter {
        state: String,
        #[label("this rule produced it")]
        span: Span,
    },

    /// Arithmetic that leaves the 64-bit range: `2^63`, `9223372036854775807 + 1`.
    #[error("integer overflow in `{operation}`")]
    #[diagnostic(
        code(grundy::overflow),
        help("integers are 64-bit signed; results never wrap")
    )]
    Overflow {
        operation: String,
        #[label("overflows")]
        span: Span,
    },

    /// Function calls nested deeper than the limit: `let f(n) = f(n + 1)` then `f(0)`.
    #[error("calls nest too deep: {calls} calls are open at this call of `{name}`")]
    #[diagnostic(
        code(grundy::recursion),
        help("a recursive function needs a case that does not call itself, e.g. `let f(n) = if n == 0 then 0 else f(n - 1)`; calls nest at most 10,000 deep (fewer when a body is nested more than 25 levels: 250,000 levels in all), fixed")
    )]
    Recursion {
        name: String,
        calls: usize,
        #[label("one call too deep")]
        span: Span,
    },

    /// `/` or `%` by zero: `1 / 0`.
    #[error("division by zero")]
    #[diagnostic(
        code(grundy::division_by_zero),
        help("the divisor here evaluates to 0")
    )]
    DivisionByZero {
        #[label("divisor is 0")]
        span: Span,
    },

    /// An index outside a list: `[1, 2][5]`.
    #[error("index {index} is out of range for a list of length {len}")]
    #[diagnostic(code(grundy::index), help("lists are indexed from 0 to len - 1"))]
    Index {
        index: i64,
        len: usize,
        #[label("out of range")]
        span: Span,
    },

    /// A loop met where loopy games are not supported: `game g = graph { a -> b; b -> a }` then
    /// `quotient g 0..=1`.
    #[error("the game loops: a move returns to an earlier position")]
    #[diagnostic(
        code(grundy::loops),
        help("the loop is {cycle}; under normal play `grundy`, `outcome`, `sequence`, `table`, `ppos` and `period` (apparent) give generalized values, and under misère play `outcome` and `win`, but `quotient` needs a game without loops")
    )]
    Loop {
        cycle: String,
        #[label("while solving this")]
        span: Span,
    },

    /// A search that visits more states than allowed: `grundy nim[10^9]`.
    #[error("the search went over the state limit of {limit} states")]
    #[diagnostic(
        code(grundy::state_limit),
        help("raise the limit with `--max-states N` on the command line, or `:limit N` at the prompt")
    )]
    StateLimit {
        limit: usize,
        #[label("while solving this")]
        span: Span,
    },

    /// A huge heap of a game with no closed form and no proved period, whose moves reach too
    /// many smaller heaps to search: `grundy grundys[10^18]`. `reach` says what a search from
    /// the heap found, when one was made.
    #[error("heap {heap} is beyond what can be computed, and no period is proved for this game")]
    #[diagnostic(
        code(grundy::unproved),
        help("values are known up to heap {known}{reach}; huge heaps are answered only from a closed form, a period a theorem proves (see `period`), or a search when their moves reach few heaps")
    )]
    Unproved {
        heap: i64,
        known: usize,
        reach: String,
        #[label("this heap")]
        span: Span,
    },

    /// A heap of a game computed heap by heap (octal-style moves) whose values, from heap 0 on,
    /// would not fit in the memory limit, and that no proved period answers:
    /// `grundy grundys[10^12]`. `needs` is the memory the run would take, in MiB, rounded up.
    #[error("heap {heap} needs {needs} MiB for the values of the heaps up to it, more than the memory limit of {limit} MiB")]
    #[diagnostic(
        code(grundy::heap_memory),
        help("{known} heaps have their value (they are computed in order of heap size, at {width} a value) and no period is proved for this game; to compute it, raise the limit with `--max-memory {needs}` on the command line (`:limit memory {needs}` at the prompt)")
    )]
    HeapMemory {
        heap: u64,
        needs: u128,
        limit: usize,
        known: usize,
        width: String,
        #[label("this heap")]
        span: Span,
    },

    /// Playing every move of a huge heap one by one: `grundy misere kayles[10^18]`.
    #[error("this position has too many options to list")]
    #[diagnostic(
        code(grundy::too_many_options),
        help("a huge heap has about as many options as tokens, too many to play one by one (misère play must play them); under normal play, `win`, `moves`, `options` and `len(options(p))` count a huge heap's moves from the values below it, a closed form or a proved period")
    )]
    TooManyOptions {
        #[label("here")]
        span: Span,
    },

    /// The options of a huge heap of a game that splits a heap in three (a hexadecimal code with
    /// a digit of bit 8): `win hex_game[2^20]`. `splits` is about `heap² / 12`.
    #[error("heap {heap} splits in three in about {splits} ways, which are not counted")]
    #[diagnostic(
        code(grundy::three_way_splits),
        help("from heap {huge} on, the splits of a heap in three are neither counted nor listed (there are about n²/12 of them for a heap of n); its value is computed (`grundy`), and `win`, `moves` and `options` answer the heaps below {huge}")
    )]
    ThreeWaySplits {
        heap: u64,
        splits: String,
        huge: i64,
        #[label("this heap")]
        span: Span,
    },

    /// A list of moves or positions longer than the list limit:
    /// `wins(dawson[10^12 + 3] + nim[2])`, `options(nim[10^18])`.
    #[error("{what} would be {count} positions, more than the list limit of {limit}")]
    #[diagnostic(code(grundy::too_many_moves), help("{help}"))]
    TooManyMoves {
        what: String,
        count: String,
        limit: usize,
        help: String,
        #[label("here")]
        span: Span,
    },

    /// The misère Grundy value of a position that loops: `game g = graph { a -> b; b -> a }`
    /// then `grundy misere g[a]`.
    #[error("misère Grundy values are not defined for positions that loop")]
    #[diagnostic(
        code(grundy::misere_loopy_value),
        help("the loop is {cycle}; a misère value is the mex of the options' misère values, which a position that can return to itself does not have; `outcome misere p` and `win misere p` answer it (N, P or D, by retrograde analysis of its graph)")
    )]
    MisereLoopyValue {
        cycle: String,
        #[label("this position loops")]
        span: Span,
    },

    /// The genus of a position that loops: `game g = graph { a -> b; b -> a }` then
    /// `genus g[a]`.
    #[error("the genus is not defined for positions that loop")]
    #[diagnostic(
        code(grundy::loopy_genus),
        help("the loop is {cycle}; the genus is made of misère Grundy values, which a position that can return to itself does not have; ask `outcome p` and `outcome misere p` (N, P or D), or `grundy p` for its generalized value under normal play")
    )]
    LoopyGenus {
        cycle: String,
        #[label("this position loops")]
        span: Span,
    },

    /// A loopy game whose moves split heaps: `game g on n { n = [n, 0] }` then `grundy g[1]`.
    #[error("the game loops, and its moves split heaps: {position}")]
    #[diagnostic(
        code(grundy::loopy_split),
        help("generalized values are computed for loopy games whose moves leave one state (graphs, tuple and list games, heap games that do not split)")
    )]
    LoopySplit {
        position: String,
        #[label("while solving this")]
        span: Span,
    },

    /// The Grundy value of a position of a loopy game that is infinite: `grundy(g[a])` with
    /// `game g = graph { a -> b; b -> a }`.
    #[error("the value of this position is infinite")]
    #[diagnostic(
        code(grundy::infinite),
        help("the position is in a loopy game; ask `outcome(p)` (N, P or D), or `grundy p` to print the value")
    )]
    InfiniteValue {
        #[label("infinite")]
        span: Span,
    },

    /// What the session holds over the memory limit: a search's memo tables (`grundy
    /// staircase[9, 9, 9, 9, 9, 9, 9]` with `--max-memory 1`), with the values of globals, a list
    /// or an answer being built, a file read, a picture.
    #[error("this went over the memory limit of {megabytes} MiB (estimated)")]
    #[diagnostic(
        code(grundy::memory_limit),
        help("raise the limit with `--max-memory MIB` on the command line, or `:limit memory MIB` at the prompt")
    )]
    MemoryLimit {
        megabytes: usize,
        #[label("while computing this")]
        span: Span,
    },

    /// A statement whose parse would not fit in the memory limit: a graph of a million nodes
    /// in one literal under `--max-memory 64`.
    #[error("this statement is {bytes} bytes long; parsing it may take {needs} MiB, more than the memory limit leaves ({limit} MiB)")]
    #[diagnostic(
        code(grundy::statement_memory),
        help("build it in several statements (a graph or a list can be read from a file with `read`), or raise the limit with `--max-memory MIB` (`:limit memory MIB` at the prompt); docs/LANGUAGE.md, section \"Running grundy\"")
    )]
    StatementMemory {
        bytes: usize,
        needs: usize,
        limit: usize,
        #[label("this statement")]
        span: Span,
    },

    /// A program text longer than the memory limit (or than 4 GiB, past which spans cannot
    /// point into it): it is refused before it is read.
    #[error("{path} is {megabytes} MiB, more than the memory limit of {limit} MiB")]
    #[diagnostic(
        code(grundy::program_memory),
        help("the text of a program counts against the memory limit; raise it with `--max-memory MIB`, or split the program into files run one after the other (`grundy a.game b.game`); at most 4095 MiB")
    )]
    ProgramMemory {
        path: String,
        megabytes: usize,
        limit: usize,
    },

    /// A value too large to hold: `0..10^12` as a list, a box with too many elements.
    #[error("{what} is too large: {size} elements (the limit is {limit})")]
    #[diagnostic(
        code(grundy::too_large),
        help("work on a smaller range, or raise the limit with `--max-states N` (`:limit N` at the prompt)")
    )]
    TooLarge {
        what: String,
        size: String,
        limit: usize,
        #[label("here")]
        span: Span,
    },

    /// A `dot` drawing of more positions than it draws: `dot kayles[30]`. The limit is fixed, so
    /// that a drawing stays readable.
    #[error(
        "the game graph of this position has more than {limit} positions, the most `dot` draws"
    )]
    #[diagnostic(
        code(grundy::dot_limit),
        help("the limit of `dot` is fixed (no option raises it): draw a smaller position, e.g. `dot kayles[8]`, or ask `moves` or `grundy` of this one")
    )]
    DotLimit {
        limit: usize,
        #[label("reaches more than {limit} positions")]
        span: Span,
    },

    /// An octal code with a digit above 7, which only a hexadecimal code has: `octal 0.3F`.
    #[error("`{digit}` is not an octal digit: did you mean `hex {code}`?")]
    #[diagnostic(
        code(grundy::octal_hex_digit),
        help("octal digits are 0-7 (bits 1, 2 and 4); a digit with bit 8 (leave three non-empty heaps) belongs to a hexadecimal code: write `hex {code}`")
    )]
    OctalHexDigit {
        code: String,
        digit: char,
        #[label("a hexadecimal code")]
        span: Span,
    },

    /// A hexadecimal code that is not one: `hex 0.3G`, `hex 0.`.
    #[error("malformed hexadecimal code `{code}`: {reason}")]
    #[diagnostic(
        code(grundy::hex),
        help("a hexadecimal code is digits 0-9 and A-F with one point: 0.3F, 0.8, C.1 (bit 8 of a digit: leave three non-empty heaps)")
    )]
    Hex {
        code: String,
        reason: String,
        #[label("here")]
        span: Span,
    },

    /// An octal code that is not one: `octal 0.78x`, `octal 0.`.
    #[error("malformed octal code `{code}`: {reason}")]
    #[diagnostic(
        code(grundy::octal),
        help("an octal code is digits 0-7 with one point, as in Winning Ways: 0.07, 0.137, 4.07")
    )]
    Octal {
        code: String,
        reason: String,
        #[label("here")]
        span: Span,
    },

    /// An `assert` whose condition is false: `assert 1 == 2`.
    #[error("assertion failed")]
    #[diagnostic(code(grundy::assert_failed), help("{detail}"))]
    AssertFailed {
        detail: String,
        #[label("this is false")]
        span: Span,
    },

    /// A `check` that found counterexamples: `check n % 2 == 0 for n in 0..3`. The help shows
    /// the first few, each with its bindings and, for a comparison, both sides.
    #[error("check failed: {} of {} cases failed", grouped(*.failed), grouped(*.cases))]
    #[diagnostic(code(grundy::check_failed), help("{detail}"))]
    CheckFailed {
        failed: u64,
        cases: u64,
        first: String,
        detail: String,
        #[label("false first at {first}")]
        span: Span,
    },

    /// The summary after a run in which asserts or checks failed (the run went on after each).
    #[error("{failed} of {tests} asserts and checks failed")]
    #[diagnostic(
        code(grundy::failures),
        help("each failure is shown above; the exit status is 1")
    )]
    Failures { failed: usize, tests: usize },

    /// A path that leads outside the folder a program may use: `read("/etc/passwd")`,
    /// `to "../x.csv"`, or a link to a file outside it.
    #[error("`{path}` is outside the folder this program may use")]
    #[diagnostic(
        code(grundy::outside_root),
        help("a program reads and writes files only under {root} (the folder of the file run, or the working folder at the prompt and for `-e`); run grundy with `--root DIR` to allow the files under DIR")
    )]
    OutsideRoot {
        path: String,
        root: String,
        reason: String,
        #[label("{reason}")]
        span: Span,
    },

    /// A file that cannot be read: `grundy missing.game`.
    #[error("cannot read `{path}`: {reason}")]
    #[diagnostic(code(grundy::io), help("check the path and its permissions"))]
    Io { path: String, reason: String },

    /// A program file that is not UTF-8 text: a file saved as Latin-1 with an `é` in a comment.
    /// `line` and `column` (both from 1, the column in characters) locate the first bad byte.
    #[error("`{path}` is not UTF-8 text: byte 0x{byte:02X} at line {line}, column {column}")]
    #[diagnostic(
        code(grundy::not_utf8),
        help("save the program as UTF-8 (from Latin-1: `iconv -f latin1 -t utf-8 OLD.game > NEW.game`), or remove the character there")
    )]
    NotUtf8 {
        path: String,
        byte: u8,
        line: usize,
        column: usize,
    },

    /// An error raised by the rules of a game, shown against the source where the game was
    /// declared (the prelude, an earlier REPL entry, another file): `grundy xor_nim[10^6, 10^6]`
    /// fails inside the prelude's rules.
    #[error("{error}")]
    #[diagnostic(code(grundy::in_declaration))]
    InDeclaration {
        origin: std::sync::Arc<Origin>,
        error: Box<Error>,
    },

    /// A warning, not an error: a file of the heap-sequence cache (`--cache DIR`) that was
    /// ignored (corrupt, truncated, of another game or version) or could not be written. The
    /// values are computed all the same.
    #[error("{action} `{path}`: {reason}")]
    #[diagnostic(code(grundy::cache), severity(Warning), help("{help}"))]
    Cache {
        action: String,
        path: String,
        reason: String,
        help: String,
    },

    /// A rule game declared with no rules (`game g on n { }`): legal, every position is a
    /// P-position, but seldom meant, so it is a warning and the game is declared all the same.
    #[error("the game `{name}` has no rules, so no position of it has a move")]
    #[diagnostic(
        code(grundy::no_rules),
        severity(Warning),
        help("every position of it is a P-position (value 0); add a rule between the braces")
    )]
    NoRules {
        name: String,
        #[label("declared with no rules")]
        span: Span,
    },

    /// `preperiod(G)`, `period(G)` or `saltus(G)` of a heap game whose period `period G` does
    /// not prove: an apparent period never passes for a proved one.
    #[error("no period of `{game}` is proved: {why}")]
    #[diagnostic(
        code(grundy::no_proved_period),
        help(
            "`solved(G)` says whether a period is proved; give the search more room with \
             `up to N` as a second argument, or a larger `--max-memory`"
        )
    )]
    NotProved {
        game: String,
        why: String,
        #[label("not proved")]
        span: Span,
    },

    /// A survey in parts that cannot be computed or merged: `--shard` or `--merge` with no
    /// `--cache`, a part missing from the cache, parts of two splits, a part's file that is not
    /// whole, sound, or this survey's. Never a table from parts that do not make the survey.
    #[error("{reason}")]
    #[diagnostic(code(grundy::survey_parts), help("{help}"))]
    SurveyParts {
        reason: String,
        help: String,
        #[label("this survey")]
        span: Span,
    },

    /// Ctrl-C during a computation.
    #[error("interrupted")]
    #[diagnostic(code(grundy::interrupted))]
    Interrupted,

    /// A worker of a parallel sweep met what only the main thread computes (a game instance
    /// not made yet, a misère search...): the case is run again there. Never shown.
    #[error("left to the main thread")]
    #[diagnostic(code(grundy::deferred))]
    Deferred,
}

/// A source text and the name it is shown under: a file, `<repl:3>`, `<prelude>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub name: String,
    pub text: String,
}

impl From<crate::game::cache_folder::CacheWarning> for Error {
    fn from(warning: crate::game::cache_folder::CacheWarning) -> Error {
        let (action, help) = if let Some(kept) = warning.kept {
            (
                "kept the sound part of the cache file".to_string(),
                format!("the values of heaps 0..{kept} are taken from it; the others are computed again, and the damaged part is replaced when they are saved"),
            )
        } else if warning.ignored {
            (
                "ignored the cache file".to_string(),
                "its values are computed again, and the file is replaced when they are saved"
                    .to_string(),
            )
        } else {
            (
                "could not write the cache file".to_string(),
                "check the folder's permissions and free space; the values are still computed, only not kept".to_string(),
            )
        };
        Error::Cache {
            action,
            path: warning.path.display().to_string(),
            reason: warning.reason,
            help,
        }
    }
}

impl Error {
    /// The error, marked as raised in a game declared in `origin` (unless it is already, or is
    /// an interruption, which belongs to no source).
    /// The diagnostic of a game code that [`Octal::parse`] refused.
    ///
    /// [`Octal::parse`]: crate::game::octal::Octal::parse
    pub fn of_code(
        code: &str,
        hex: bool,
        fault: crate::game::octal::CodeError,
        span: Span,
    ) -> Error {
        use crate::game::octal::CodeError;
        let code = code.to_string();
        match fault {
            CodeError::HexDigitInOctal(digit) => Error::OctalHexDigit { code, digit, span },
            CodeError::Malformed(reason) if hex => Error::Hex { code, reason, span },
            CodeError::Malformed(reason) => Error::Octal { code, reason, span },
        }
    }

    pub fn declared_in(self, origin: &std::sync::Arc<Origin>) -> Error {
        match self {
            Error::InDeclaration { .. } | Error::Interrupted | Error::Deferred => self,
            error => Error::InDeclaration {
                origin: origin.clone(),
                error: Box::new(error),
            },
        }
    }

    pub fn syntax(message: impl Into<String>, label: impl Into<String>, span: Span) -> Error {
        Error::syntax_with_help(
            message,
            label,
            span,
            "the form of each statement: docs/LANGUAGE.md, section \"Statements\"",
        )
    }

    pub fn syntax_with_help(
        message: impl Into<String>,
        label: impl Into<String>,
        span: Span,
        help: impl Into<String>,
    ) -> Error {
        Error::Syntax {
            message: message.into(),
            label: label.into(),
            span,
            help: help.into(),
        }
    }

    pub fn type_mismatch(
        expected: impl Into<String>,
        found: impl Into<String>,
        span: Span,
        help: impl Into<String>,
    ) -> Error {
        Error::Type {
            expected: expected.into(),
            found: found.into(),
            span,
            help: help.into(),
        }
    }

    /// The diagnostic of a file at `path` (as the program wrote it, at `span`) that
    /// [`files::open`](crate::files::open) did not open: a refusal, or `io` of its I/O error.
    pub fn file(
        refused: crate::files::Refused,
        path: &str,
        span: Span,
        io: impl FnOnce(String) -> Error,
    ) -> Error {
        match refused {
            crate::files::Refused::Outside { ref root, .. } => Error::OutsideRoot {
                path: path.to_string(),
                root: root.display().to_string(),
                reason: refused.to_string(),
                span,
            },
            other => io(other.to_string()),
        }
    }

    pub fn invalid(message: impl Into<String>, span: Span, help: impl Into<String>) -> Error {
        Error::Invalid {
            message: message.into(),
            span,
            help: help.into(),
        }
    }

    pub fn overflow(operation: impl Into<String>, span: Span) -> Error {
        Error::Overflow {
            operation: operation.into(),
            span,
        }
    }

    pub fn is_unfinished(&self) -> bool {
        matches!(self, Error::Unfinished { .. })
    }
}

/// Renders errors against their source, `width` columns wide: each shows the lines it points
/// into, long lines cut around it (see `excerpt`).
pub fn render(errors: &[Error], name: &str, source: &str, width: usize, colour: bool) -> String {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width);
    let mut out = String::new();
    for error in errors {
        let (error, name, source) = match error {
            Error::InDeclaration { origin, error } => {
                (&**error, origin.name.as_str(), origin.text.as_str())
            }
            error => (error, name, source),
        };
        let excerpted = excerpt::Excerpted::new(error, name, source);
        let _ = handler.render_report(&mut out, &excerpted);
    }
    out
}
