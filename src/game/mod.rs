//! The game engine: games expose states and options; solvers value them by mex with memoization.
//! Nothing here knows the syntax of the language.

pub(crate) mod arithmetic_splits;
pub(crate) mod budget;
pub mod cache_folder;
pub(crate) mod cache_key;
pub mod cells;
pub(crate) mod chomp;
pub(crate) mod engine;
pub(crate) mod equal_games;
pub(crate) mod graph;
pub mod heap;
pub(crate) mod lines;
pub(crate) mod loopy;
pub mod method;
pub(crate) mod misere;
pub(crate) mod misere_loopy;
pub(crate) mod moves;
pub(crate) mod octal;
pub(crate) mod period;
pub(crate) mod period_pipeline;
pub(crate) mod position;
pub mod progress;
pub(crate) mod quotient;
pub(crate) mod shared_memos;
pub(crate) mod solver;
pub mod splits;
pub(crate) mod subtraction;
pub(crate) mod sums;
pub(crate) mod survey;
pub(crate) mod survey_file;
pub mod vocabulary;

pub use engine::Engine;
pub use method::Method;
pub use moves::{MoveList, Wanted};
pub use position::{GameId, Move, Part, Position};
pub use solver::Solver;
pub use vocabulary::{Shard, SurveyPart};

use std::any::Any;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What receives the options of a state: it breaks to stop the listing.
pub type Emit<'a> = dyn FnMut(&[i64]) -> ControlFlow<()> + 'a;

/// A game as the solvers see it: states are short integer vectors, and a state lists its options.
///
/// A *heap-like* game (heap games, graph games) has one-integer states, and an option is a
/// multiset of such integers (a heap may be removed, kept, or split into several heaps); its
/// value is the XOR of theirs. Any other game has one option state per option, of the same width.
pub trait Game: Send + Sync {
    fn heap_like(&self) -> bool;

    /// Calls `emit` once per option, with the option's heaps (heap-like) or its state, and
    /// stops listing (returning `Ok`) as soon as `emit` breaks: a search over its budget.
    fn options(&self, state: &[i64], emit: &mut Emit<'_>) -> Result<(), SolveError>;

    /// Puts a state in the form under which equal states are stored once (e.g. sorted when the
    /// counters are unordered).
    fn canonicalize(&self, _state: &mut [i64]) {}

    /// Shows a state for messages, e.g. `kayles[3]` or `wythoff[2, 1]`.
    fn describe(&self, state: &[i64]) -> String;

    /// For a heap game whose moves are octal-style take-and-break moves, their description:
    /// the engine then computes its values by the fast methods of [`heap`]. The options must
    /// have exactly the values that this description gives.
    fn heap_rules(&self) -> Option<vocabulary::HeapRules> {
        None
    }

    /// For a two-counter game whose moves take any amount along lines, their description: the
    /// engine then sweeps boxes of states (see [`lines`]). The options must have exactly the
    /// values that this description gives, and states must be their own canonical form.
    fn line_rules(&self) -> Option<vocabulary::LineRules> {
        None
    }

    /// For a game on a set of cells whose moves are all [`vocabulary::CellMove`]s, their
    /// description: the engine then values states by [`cells`] on bit sets, reading each state's
    /// board from [`Game::cell_board`]. The options must have exactly the values that this
    /// description gives.
    fn cell_rules(&self) -> Option<vocabulary::CellRules> {
        None
    }

    /// The board of a state of a game with [`Game::cell_rules`], and the set of its cells
    /// present.
    fn cell_board(&self, _state: &[i64]) -> Option<(vocabulary::Board, u128)> {
        None
    }

    /// Whether the game is Chomp on the Young diagram its state draws: a list state of row
    /// lengths, the cell (0, 0) poisoned, a move eating a cell and every cell at or beyond it in
    /// both directions. The engine then values a state that is non-negative and non-increasing
    /// by [`chomp`], in a table of the diagrams of its box; any other list is searched through
    /// the options. The options of such a state must have exactly the values of Chomp's.
    fn chomp(&self) -> bool {
        false
    }

    /// What is known of the moves of a heap game, for periodicity theorems and huge heaps.
    fn structure(&self) -> vocabulary::Structure {
        vocabulary::Structure::Unknown
    }

    /// Whether the options are exactly those that [`Game::structure`] describes, not only
    /// options of the same values (an octal game declared by its code): the options of large
    /// heaps are then found from it.
    fn options_follow_structure(&self) -> bool {
        false
    }
}

/// Why a solver stopped without a value.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveError {
    /// The rules themselves failed (negative counter, overflow...): the error of the layer that
    /// wrote the rules, carried through the engine unread.
    Rule(RuleError),
    /// A move returned to a state still being solved; the states of the loop, described.
    Loop(Vec<String>),
    /// More states than the limit would be stored.
    StateLimit(usize),
    /// The memo tables of a game would take more than this many bytes.
    MemoryLimit(usize),
    /// A heap beyond what can be computed, in a game with no proved period or closed form;
    /// values are known up to `known`. `searched`: when a search from the heap gave up because
    /// it reached too many heaps below it, how many states it had pushed.
    Unknown {
        heap: i64,
        known: usize,
        searched: Option<usize>,
    },
    /// Heap `heap` of a heap sequence is past what the memory limit holds: the values of heaps
    /// `0..=heap`, `width` bytes each, and the tables beside them would take `needs` bytes
    /// (more than `limit`); `known` heaps have their value, and no proved period answers it.
    HeapMemory {
        heap: u64,
        needs: u128,
        width: usize,
        limit: usize,
        known: usize,
    },
    /// A position with more options than can be listed (a huge heap).
    TooManyOptions,
    /// The splits in three of heap `heap`, past the tables: about `heap² / 12` of them, which are
    /// neither counted nor listed.
    ThreeWaySplits {
        heap: u64,
    },
    /// A list of moves (winning ones, or every one) longer than the list limit.
    TooManyMoves {
        count: u128,
        limit: usize,
        winning: bool,
    },
    /// A loopy game whose moves split heaps: its generalized values are not computed.
    LoopySplit(String),
    /// The misère Grundy value of a sum that loops, which is not defined; the loop found.
    /// Its misère outcome can still be asked.
    MisereLoopyValue(Vec<String>),
    /// The genus of a sum that loops, which is not defined (it is made of misère values); the
    /// loop found.
    LoopyGenus(Vec<String>),
    /// The value asked for is infinite (a loopy game); its outcome can still be asked.
    Infinite,
    Interrupted,
    /// A worker of a parallel sweep met what only the main thread computes (see [`shared_memos`]).
    Deferred,
}

/// The error a game's rules raised, opaque to the engine: whoever implements [`Game`] puts its
/// own error type in ([`RuleError::new`]) and takes it back out ([`RuleError::downcast`]).
/// Two rule errors are equal when they hold equal errors of the same type.
#[derive(Clone)]
pub struct RuleError(Arc<dyn RulePayload>);

trait RulePayload: fmt::Debug + fmt::Display + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn equals(&self, other: &dyn RulePayload) -> bool;
}

impl<E> RulePayload for E
where
    E: std::error::Error + PartialEq + Send + Sync + 'static,
{
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn equals(&self, other: &dyn RulePayload) -> bool {
        other.as_any().downcast_ref::<E>() == Some(self)
    }
}

impl RuleError {
    pub fn new<E>(error: E) -> RuleError
    where
        E: std::error::Error + PartialEq + Send + Sync + 'static,
    {
        RuleError(Arc::new(error))
    }

    /// The error put in, if it is an `E`.
    pub fn downcast<E: Clone + 'static>(&self) -> Option<E> {
        self.0.as_any().downcast_ref::<E>().cloned()
    }
}

impl PartialEq for RuleError {
    fn eq(&self, other: &RuleError) -> bool {
        self.0.equals(&*other.0)
    }
}

impl fmt::Debug for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// What bounds a search: how many states it may store, and a flag that Ctrl-C raises; and how
/// sweeps use threads.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_states: usize,
    /// The most bytes the session may hold: a search's memo tables, as estimated while they
    /// grow, and everything charged to `ledger`.
    pub max_memory: usize,
    /// What the session holds outside its searches (globals, lists and answers being built,
    /// files read, pictures), shared by every clone of these limits.
    pub ledger: budget::Ledger,
    pub interrupt: Arc<AtomicBool>,
    /// How far the computation running now has got, for the progress line.
    pub progress: progress::Progress,
    /// Worker threads for parallel sweeps (`check`, `table`, `ppos`): 0 for rayon's default
    /// (every core, or `RAYON_NUM_THREADS`), 1 to run every sweep on the calling thread.
    pub threads: usize,
    /// How long a sweep runs on the calling thread before it spreads the rest over the workers:
    /// small sweeps never pay for threads.
    pub spread_after: Duration,
    /// Where heap sequences are kept on disk as they grow, to resume from (`--cache DIR`).
    pub cache: Option<Arc<cache_folder::Cache>>,
    /// Where the program may read and write files, and where its relative paths start.
    pub root: crate::files::Root,
    /// What a `survey` computes: the whole survey, one part of it (`--shard I/N`), or nothing,
    /// merging the parts kept in the cache (`--merge`).
    pub survey_part: SurveyPart,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_states: 20_000_000,
            max_memory: 4 << 30,
            ledger: budget::Ledger::default(),
            interrupt: Arc::new(AtomicBool::new(false)),
            progress: progress::Progress::default(),
            threads: 0,
            spread_after: Duration::from_millis(20),
            cache: None,
            root: crate::files::Root::working_folder(),
            survey_part: SurveyPart::Whole,
        }
    }
}

/// The most sweep threads a core may have: more only take turns on the cores, each with an
/// engine of its own to feed.
pub const MOST_THREADS_A_CORE: usize = 4;

impl Limits {
    /// The most threads sweeps may be given on this machine (`--threads`).
    pub fn most_threads() -> usize {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get) * MOST_THREADS_A_CORE
    }

    /// A charge on the ledger under the memory limit: how anything held outside a search is
    /// counted.
    pub fn charge(&self) -> budget::Charge {
        self.ledger.charge(self.max_memory)
    }

    /// The bytes a search may take now: the limit, less what the ledger holds.
    pub fn room(&self) -> usize {
        self.max_memory.saturating_sub(self.ledger.held())
    }

    pub fn check_interrupt(&self) -> Result<(), SolveError> {
        if self.interrupt.load(Ordering::Relaxed) {
            Err(SolveError::Interrupted)
        } else {
            Ok(())
        }
    }
}

/// The minimum excludant of `values`: the least non-negative integer not among them.
/// Reorders `values`.
pub fn mex(values: &mut [u64]) -> u64 {
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

#[cfg(test)]
mod tests {
    use crate::game::RuleError;

    #[derive(Clone, Debug, PartialEq)]
    struct Negative(i64);

    impl std::fmt::Display for Negative {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "negative counter {}", self.0)
        }
    }

    impl std::error::Error for Negative {}

    #[test]
    fn a_rule_error_comes_back_out_as_it_went_in() {
        let error = RuleError::new(Negative(-3));
        assert_eq!(error.downcast::<Negative>(), Some(Negative(-3)));
        assert_eq!(error.downcast::<std::fmt::Error>(), None);
        assert_eq!(error.to_string(), "negative counter -3");
        assert_eq!(error, RuleError::new(Negative(-3)));
        assert_ne!(error, RuleError::new(Negative(-4)));
        assert_ne!(error, RuleError::new(std::fmt::Error));
    }
}
