//! The `survey` statement: a row per game of a family (every octal or hexadecimal code of up to
//! `k` digits, every subtraction set within `1..=k`, or a list of heap games), with what
//! `period G up to N` finds of it, the earlier game of the family it equals (the engine's
//! `survey` and `equal_games`), and the figures of its values; shown as an aligned table or
//! written to a `.csv` or `.json` file.

mod in_order;
mod parts;

use std::fmt::Write as _;
use std::io::Write;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::answer_files;
use super::expr::{solve_error, Eval};
use super::value::{Shape, Value};
use super::Interpreter;
use crate::error::Error;
use crate::game::equal_games::{Agreement, Comparison};
use crate::game::heap::canonical_key;
use crate::game::octal::{Base, Octal};
use crate::game::progress::grouped;
use crate::game::subtraction::Subtraction;
use crate::game::survey::{Reach, Surveyed, FURTHER};
use crate::game::survey_file::{self, Progress};
use crate::game::{Engine, Game, GameId, Limits, Shard, SolveError, SurveyPart};
use crate::span::Span;
use crate::syntax::ast::{Expr, Output, SurveyFamily};

/// How many heaps each game of a survey is computed to, when no `up to N` is given (games still
/// open there and settled in sparse space are pushed on, see `FURTHER`): enough for the periods
/// of the codes of three digits that the literature proves within it (0.127's proof, preperiod
/// 46,578 and period 4, needs about 93,000 heaps), the heaps of the published figures of the
/// open ones (tczajka's tables give them at 2^17), and the values of every game kept for the
/// comparisons within a few hundred MB.
pub const SURVEY_HEAPS: usize = 1 << 17;

/// The most games a survey takes (octal codes of 5 digits, hexadecimal codes of 3, subtraction
/// sets within `1..=16`).
const MOST_GAMES: usize = 1 << 16;

/// One game of the family: made when its turn comes, or declared already.
pub(super) enum Member {
    Code(String, Base),
    Set(Vec<i64>),
    Declared(GameId, String),
}

impl Member {
    fn name(&self) -> String {
        match self {
            Member::Code(code, _) => code.clone(),
            Member::Set(set) => {
                let shown: Vec<String> = set.iter().map(i64::to_string).collect();
                format!("{{{}}}", shown.join(", "))
            }
            Member::Declared(_, name) => name.clone(),
        }
    }
}

/// A row: the game, what the survey found of it (`None` for a loopy game), and the earlier row
/// it equals, with how.
pub(super) struct Row {
    name: String,
    surveyed: Option<Surveyed>,
    equals: Option<(usize, Comparison)>,
    /// Whether `equals` is the first game of the family with the same moves, up to moves that
    /// add nothing (see [`Octal::equal_by_definition_key`]): equal at every heap, proved.
    by_definition: bool,
}

/// The rows so far, and the fingerprints by which a game finds the earlier rows it may equal.
#[derive(Default)]
struct Rows {
    rows: Vec<Row>,
    /// The earlier rows by the fingerprints of their windows, and those with none.
    index: FxHashMap<u64, Vec<usize>>,
    unkeyed: Vec<usize>,
}

impl Rows {
    /// The row of the next game: what the survey found of it, and the earlier row it equals:
    /// `first`, the first game of the family equal to it by definition, when it is earlier.
    fn push(&mut self, name: String, surveyed: Option<Surveyed>, first: usize) {
        let rows = &self.rows;
        let i = rows.len();
        let by_definition = first < i;
        let definition = by_definition.then_some((
            first,
            Comparison {
                offset: 0,
                agreement: Agreement::Proved { checked: 0 },
            },
        ));
        let equals = definition.or_else(|| {
            surveyed.as_ref().and_then(|s| {
                let mut candidates: Vec<usize> = match s.key() {
                    Some(key) => self.index.get(&key).cloned().unwrap_or_default(),
                    None => (0..i).collect(),
                };
                candidates.extend(&self.unkeyed);
                candidates.sort_unstable();
                candidates.dedup();
                candidates.into_iter().find_map(|c| {
                    let earlier = rows[c].surveyed.as_ref()?;
                    let relation = s.relate_to(earlier);
                    let same = std::iter::once(relation.plain).chain(relation.shifted);
                    same.into_iter()
                        .find(Comparison::same)
                        .map(|comparison| (c, comparison))
                })
            })
        });
        // A copy has its first game's values: a later game finds that game instead.
        if let Some(s) = surveyed.as_ref().filter(|_| !by_definition) {
            let mut prints = s.fingerprints();
            prints.sort_unstable();
            prints.dedup();
            if prints.is_empty() {
                self.unkeyed.push(i);
            }
            prints
                .into_iter()
                .for_each(|p| self.index.entry(p).or_default().push(i));
        }
        self.rows.push(Row {
            name,
            surveyed,
            equals,
            by_definition,
        });
    }
}

/// Why the computation of a survey's games stopped: a game's error, or the file of its part.
enum Stop {
    Game(usize, SolveError),
    File(Error),
}

/// What a survey is: its games, in words, and how far each is computed.
pub(super) struct Survey {
    members: Vec<Member>,
    /// The family in words, with the number of games and how far each is computed.
    what: String,
    reach: Reach,
    /// For each game, the first game of the family equal to it by definition (itself when
    /// none is earlier): a game's row is that game's.
    first: Vec<usize>,
    /// The text naming the survey's files in the cache (see `crate::game::survey_file`): `None`
    /// when a game of a list has no moves the cache can name.
    identity: Option<String>,
    span: Span,
}

impl Interpreter {
    /// `survey FAMILY [up to N] [to "FILE"]`.
    pub(super) fn survey(
        &mut self,
        family: &SurveyFamily,
        bound: Option<&Expr>,
        output: Option<&Output>,
        span: Span,
        out: &mut dyn Write,
    ) -> Result<(), Error> {
        let (members, what) = self.members(family)?;
        let reach = match bound {
            Some(bound) => {
                let n = Eval::new(self).int(bound)?;
                Reach {
                    heaps: super::explore::heaps_bound(n, bound.span)?,
                    further: false,
                }
            }
            None => Reach {
                heaps: SURVEY_HEAPS,
                further: true,
            },
        };
        if let Some(output) = output {
            // Refused before anything is computed when the extension names no form.
            file_form(output)?;
        }
        let total = members.len();
        let further = match reach.further {
            true => format!(
                ", and on, up to {}, while open in sparse space",
                grouped(*FURTHER.last().expect("steps") as u64)
            ),
            false => String::new(),
        };
        let what = format!(
            "{what} ({} {}), each up to {} heaps{further}",
            grouped(total as u64),
            if total == 1 { "game" } else { "games" },
            grouped(reach.heaps as u64)
        );
        let identity = self.identity(&members, &what);
        let first = first_equal_by_definition(&members);
        let survey = Survey {
            members,
            first,
            what,
            reach,
            identity,
            span,
        };
        let mut rows = Rows::default();
        match self.engine.limits.survey_part {
            SurveyPart::Merge => {
                let merged = self.merged(&survey)?;
                for (g, surveyed) in merged.into_iter().enumerate() {
                    rows.push(survey.members[g].name(), surveyed, survey.first[g]);
                }
                return self.write_rows(&rows.rows, &survey.what, output, out);
            }
            SurveyPart::Shard(shard) => return self.survey_shard(&survey, shard, output, out),
            SurveyPart::Whole => {}
        }
        // With a cache, the games computed are kept as they come, and those kept are read back.
        let limits = self.engine.limits.clone();
        let mut progress = None;
        if let (Some(cache), Some(identity)) = (&limits.cache, &survey.identity) {
            match Progress::open(cache, identity, Shard::WHOLE, total, &limits) {
                Ok((opened, records)) => {
                    for record in records {
                        let g = record.game;
                        rows.push(survey.members[g].name(), record.surveyed, survey.first[g]);
                    }
                    progress = Some(opened);
                }
                Err(why) => {
                    let name = survey_file::file_name(identity, Shard::WHOLE);
                    cache.warn(&cache.path_of(&name), why, false, None);
                }
            }
        }
        let todo: Vec<usize> = (rows.rows.len()..total).collect();
        let stopped = self.compute(&survey, &todo, |g, surveyed| {
            if let Some(file) = &mut progress {
                if let Err(e) = file.append(g, surveyed.as_ref()) {
                    if let Some(cache) = &limits.cache {
                        cache.warn(&file.path, e.to_string(), false, None);
                    }
                    progress = None;
                }
            }
            rows.push(survey.members[g].name(), surveyed, survey.first[g]);
            Ok(())
        });
        match stopped {
            Ok(()) => self.write_rows(&rows.rows, &survey.what, output, out),
            Err(Stop::File(error)) => Err(error),
            Err(Stop::Game(g, SolveError::Interrupted)) => {
                let _ = g;
                Err(Error::Interrupted)
            }
            Err(Stop::Game(g, e)) => {
                let error = solve_error(e, span);
                let mut text = table(&rows.rows);
                let _ = write!(
                    text,
                    "the survey of {} stopped {} at {} after {} of {} games: the rows above are \
                     not the whole survey",
                    survey.what,
                    why_stopped(&error),
                    survey.members[g].name(),
                    rows.rows.len(),
                    total
                );
                super::output::write_line(out, &text);
                Err(error)
            }
        }
    }

    /// Computes the games `todo` of the survey: codes and sets on the sweep threads, each
    /// thread taking the next game as soon as it is free (`in_order`), the games of a list on
    /// this thread; each is given to `take` in order as it comes. A game equal by definition to
    /// an earlier one is that game's copy: computed once when both are to do, else computed as
    /// that game (so its row is the same in any part of a split). The first error stops it.
    fn compute(
        &mut self,
        survey: &Survey,
        todo: &[usize],
        mut take: impl FnMut(usize, Option<Surveyed>) -> Result<(), Error>,
    ) -> Result<(), Stop> {
        let members = &survey.members;
        let first = &survey.first;
        let total = members.len();
        let done = total - todo.len();
        let progress = self.engine.limits.progress.clone();
        let reporter = progress.start("survey", "games", total as u64);
        let threads = self.sweep_threads();
        let limits = self.engine.limits.clone();
        let reach = survey.reach;
        // The first game to do of each class is computed; the others to do are its copies,
        // handed on in order, each as soon as every game before it is.
        let mut copies_left: FxHashMap<usize, usize> = FxHashMap::default();
        let computed: Vec<usize> = (todo.iter().copied())
            .filter(|&g| {
                let copies = copies_left.entry(first[g]).or_insert(usize::MAX);
                *copies = copies.wrapping_add(1);
                *copies == 0
            })
            .collect();
        let mut copies = (todo.iter().copied()).filter(|g| computed.binary_search(g).is_err());
        let mut next_copy = copies.next();
        let mut found_of: FxHashMap<usize, Option<Surveyed>> = FxHashMap::default();
        let mut handed = 0;
        let mut hand = |g: usize, surveyed: Option<Surveyed>| {
            handed += 1;
            reporter
                .iter()
                .for_each(|r| r.set_done((done + handed) as u64));
            take(g, surveyed).map_err(Stop::File)
        };
        let mut handle = |t: usize, found: Result<Option<Surveyed>, SolveError>| {
            let g = computed[t];
            while let Some(copy) = next_copy.filter(|&c| c < g) {
                hand(copy, copy_of(first[copy], &mut found_of, &mut copies_left))?;
                next_copy = copies.next();
            }
            let surveyed = found.map_err(|e| Stop::Game(g, e))?;
            if copies_left[&first[g]] > 0 {
                found_of.insert(first[g], surveyed.clone());
            }
            hand(g, surveyed)?;
            if t + 1 == computed.len() {
                while let Some(copy) = next_copy {
                    hand(copy, copy_of(first[copy], &mut found_of, &mut copies_left))?;
                    next_copy = copies.next();
                }
            }
            Ok(())
        };
        let declared = todo
            .iter()
            .any(|&g| matches!(members[g], Member::Declared(..)));
        if threads > 1 && !declared {
            let work = |&g: &usize| survey_apart(&members[first[g]], reach, &limits);
            in_order::in_order(threads, &computed, work, handle)?;
        } else {
            for (t, &g) in computed.iter().enumerate() {
                let found = self.survey_one(&members[first[g]], reach);
                handle(t, found)?;
            }
        }
        reporter.into_iter().for_each(|r| r.complete());
        Ok(())
    }

    /// The table of the rows, or their file, with the line saying what was written.
    fn write_rows(
        &mut self,
        rows: &[Row],
        what: &str,
        output: Option<&Output>,
        out: &mut dyn Write,
    ) -> Result<(), Error> {
        let summary = summary(rows, what);
        let text = match output {
            None => format!("{}{summary}", table(rows)),
            Some(output) => {
                let root = self.engine.limits.root.clone();
                let mut file = answer_files::create(&root, &output.path, output.span)?;
                let written = match file_form(output)? {
                    FileForm::Csv => csv(rows),
                    FileForm::Json => json(rows),
                };
                file.write(written.as_bytes())?;
                let replaced = file.replaced;
                file.close()?;
                let replacing = match replaced {
                    true => " (replacing the file that was there)",
                    false => "",
                };
                format!(
                    "wrote {} rows of the survey to {}{replacing}: {summary}",
                    rows.len(),
                    output.path
                )
            }
        };
        super::output::write_line(out, &text);
        Ok(())
    }

    /// The text naming the survey's files: the family in words for codes and sets (their moves
    /// follow from it); for a list, each game's name and the canonical text of its moves, or
    /// `None` when a game has none.
    fn identity(&self, members: &[Member], what: &str) -> Option<String> {
        let mut identity = format!("survey of {what}");
        for member in members {
            if let Member::Declared(id, name) = member {
                let rules = self.engine.game(*id).heap_rules()?;
                let _ = write!(identity, "\n{name}: {}", canonical_key(&rules));
            }
        }
        Some(identity)
    }

    /// The games of the family, in order, and the family in words.
    fn members(&mut self, family: &SurveyFamily) -> Result<(Vec<Member>, String), Error> {
        let mut eval = Eval::new(self);
        Ok(match family {
            SurveyFamily::Octal(k) => {
                let k = count(&mut eval, k, 5)?;
                let codes = codes(k, 8, &[0, 4]);
                let what = format!("every octal code of up to {}, 0.x and 4.x", digits(k));
                let members = codes.into_iter().map(|c| Member::Code(c, Base::Octal));
                (members.collect(), what)
            }
            SurveyFamily::Hex(k) => {
                let k = count(&mut eval, k, 3)?;
                let codes = codes(k, 16, &[0, 4, 8, 12]);
                let what = format!(
                    "every hexadecimal code of up to {}, 0.x, 4.x, 8.x and C.x",
                    digits(k)
                );
                let members = codes.into_iter().map(|c| Member::Code(c, Base::Hex));
                (members.collect(), what)
            }
            SurveyFamily::Subtraction(k) => {
                let k = count(&mut eval, k, 16)?;
                let sets = (1u32..1 << k).map(|mask| {
                    let set = (0..k).filter(|b| mask >> b & 1 == 1).map(|b| b as i64 + 1);
                    Member::Set(set.collect())
                });
                let what = format!("every subtraction set within 1..={k}");
                (sets.collect(), what)
            }
            SurveyFamily::Games(list) => {
                let items = match eval.eval(list)? {
                    Value::List(items) => items,
                    other => {
                        return Err(Error::type_mismatch(
                            "a list of heap games",
                            other.type_name(),
                            list.span,
                            "write e.g. `survey [kayles, dawson]`",
                        ))
                    }
                };
                let mut members = Vec::with_capacity(items.len());
                for item in items.iter() {
                    match item {
                        Value::Game(g) if g.shape == Shape::Heaps => {
                            members.push(Member::Declared(g.id, g.display.clone()))
                        }
                        other => {
                            return Err(Error::type_mismatch(
                                "a list of heap games",
                                format!("a list holding {}", other.type_name()),
                                list.span,
                                "a survey takes games played on one heap, e.g. `[kayles, dawson]`",
                            ))
                        }
                    }
                }
                let what = "a list".to_string();
                (members, what)
            }
        })
    }

    /// What the survey finds of one game: a code or a set in an engine of its own (dropped with
    /// its tables once its row is made), a declared game in the session's; `None` when the game
    /// is loopy.
    fn survey_one(
        &mut self,
        member: &Member,
        reach: Reach,
    ) -> Result<Option<Surveyed>, SolveError> {
        let Member::Declared(id, _) = member else {
            return survey_apart(member, reach, &self.engine.limits);
        };
        if self.engine.is_loopy(*id) {
            return Ok(None);
        }
        match self.engine.survey_game(*id, reach) {
            Err(SolveError::Loop(_)) => Ok(None),
            surveyed => surveyed.map(Some),
        }
    }
}

/// How a survey's stop is said.
fn why_stopped(error: &Error) -> &'static str {
    match error {
        Error::MemoryLimit { .. } | Error::HeapMemory { .. } => "by the memory limit",
        _ => "by an error",
    }
}

/// What the survey finds of a code or a set, in an engine of its own (dropped with its tables
/// once its row is made): on any thread, the same.
fn survey_apart(
    member: &Member,
    reach: Reach,
    limits: &Limits,
) -> Result<Option<Surveyed>, SolveError> {
    let game: Arc<dyn Game> = match member {
        Member::Declared(..) => unreachable!("a declared game is surveyed in the session's engine"),
        Member::Code(code, base) => {
            Arc::new(Octal::parse(code, code, *base).expect("a code the survey made"))
        }
        Member::Set(set) => Arc::new(
            Subtraction::of_set(&member.name(), set.clone(), None).expect("positive takes"),
        ),
    };
    let mut engine = Engine::new(limits.clone());
    let id = engine.add_game(game);
    engine.survey_game(id, reach).map(Some)
}

/// What a copy of the class of `first` is given: the result of its first game to do, kept in
/// `found_of` until its last copy takes it.
fn copy_of(
    first: usize,
    found_of: &mut FxHashMap<usize, Option<Surveyed>>,
    copies_left: &mut FxHashMap<usize, usize>,
) -> Option<Surveyed> {
    let left = copies_left.get_mut(&first).expect("a class with copies");
    *left -= 1;
    let found = match *left {
        0 => found_of.remove(&first),
        _ => found_of.get(&first).cloned(),
    };
    found.expect("the class's first game to do is done")
}

/// For each game of the family, the first game equal to it by definition
/// ([`Octal::equal_by_definition_key`]): itself when none is earlier, or when it is no code.
fn first_equal_by_definition(members: &[Member]) -> Vec<usize> {
    let mut firsts: FxHashMap<Vec<u8>, usize> = FxHashMap::default();
    (members.iter().enumerate())
        .map(|(g, member)| match member {
            Member::Code(code, base) => {
                let octal = Octal::parse(code, code, *base).expect("a code the survey made");
                *firsts.entry(octal.equal_by_definition_key()).or_insert(g)
            }
            Member::Set(_) | Member::Declared(..) => g,
        })
        .collect()
}

fn digits(k: u32) -> String {
    match k {
        1 => "1 digit".into(),
        k => format!("{k} digits"),
    }
}

/// The `k` of `survey octal k`: at least 1, at most `most`.
fn count<'a>(eval: &mut Eval<'_, 'a>, k: &'a Expr, most: i64) -> Result<u32, Error> {
    let n = eval.int(k)?;
    if n < 1 {
        return Err(Error::invalid(
            format!("a survey of {n} digits or takes has no games"),
            k.span,
            "give at least 1, e.g. `survey octal 3`",
        ));
    }
    if n > most {
        return Err(Error::TooLarge {
            what: "this survey".into(),
            size: format!("{n} digits or takes"),
            limit: MOST_GAMES,
            span: k.span,
        });
    }
    Ok(n as u32)
}

/// Every code of up to `k` digits after the point in `base`, its last digit not 0, for each
/// digit before the point in `leads` (`4.0` for a 4 with no digits after it): by the number of
/// digits, then the digit before the point, then the digits.
fn codes(k: u32, base: u32, leads: &[u32]) -> Vec<String> {
    let digit = |d: u32| {
        char::from_digit(d, base)
            .expect("a digit")
            .to_ascii_uppercase()
    };
    let mut codes = Vec::new();
    for len in 0..=k {
        for &lead in leads {
            if len == 0 {
                if lead != 0 {
                    codes.push(format!("{}.0", digit(lead)));
                }
                continue;
            }
            for rest in 0..base.pow(len - 1) {
                for last in 1..base {
                    let mut code = format!("{}.", digit(lead));
                    for place in (0..len - 1).rev() {
                        code.push(digit(rest / base.pow(place) % base));
                    }
                    code.push(digit(last));
                    codes.push(code);
                }
            }
        }
    }
    codes
}

/// The form of a survey's file, by its extension.
enum FileForm {
    Csv,
    Json,
}

fn file_form(output: &Output) -> Result<FileForm, Error> {
    match std::path::Path::new(&output.path)
        .extension()
        .and_then(|e| e.to_str())
    {
        Some("csv") => Ok(FileForm::Csv),
        Some("json") => Ok(FileForm::Json),
        _ => Err(Error::invalid(
            format!("cannot tell what to write to `{}`", output.path),
            output.span,
            "a survey is written to a `.csv` or a `.json` file",
        )),
    }
}

/// The names of the columns, as a `.csv` file's first row and a JSON record's keys.
const COLUMNS: [&str; 15] = [
    "game",
    "equals",
    "offset",
    "equality",
    "status",
    "preperiod",
    "period",
    "saltus",
    "heaps",
    "largest",
    "largest_heap",
    "mask",
    "rare_values",
    "rare_heaps",
    "last_rare_heap",
];

/// A cell: text, a number, or nothing.
enum Cell {
    Text(String),
    Number(u64),
    Empty,
}

/// The cells of every row, in the order of [`COLUMNS`].
fn cells(rows: &[Row]) -> Vec<Vec<Cell>> {
    rows.iter()
        .map(|row| {
            let mut cells = vec![Cell::Text(row.name.clone())];
            match &row.equals {
                Some((earlier, comparison)) => {
                    cells.push(Cell::Text(rows[*earlier].name.clone()));
                    // This game's heap n is the earlier game's heap n - offset.
                    cells.push(Cell::Text((-comparison.offset).to_string()));
                    let proved = matches!(comparison.agreement, Agreement::Proved { .. });
                    let equality = match (row.by_definition, proved) {
                        (true, _) => "by definition",
                        (false, true) => "proved",
                        (false, false) => "not proved",
                    };
                    cells.push(Cell::Text(equality.into()));
                }
                None => cells.extend([Cell::Empty, Cell::Empty, Cell::Empty]),
            }
            let Some(s) = &row.surveyed else {
                cells.push(Cell::Text("loopy".into()));
                cells.extend((0..10).map(|_| Cell::Empty));
                return cells;
            };
            match s.known.proved {
                Some(p) => {
                    cells.push(Cell::Text("solved".into()));
                    cells.push(Cell::Number(p.preperiod as u64));
                    cells.push(Cell::Number(p.period as u64));
                    cells.push(Cell::Number(p.saltus));
                }
                None => {
                    cells.push(Cell::Text("open".into()));
                    cells.extend([Cell::Empty, Cell::Empty, Cell::Empty]);
                }
            }
            cells.push(Cell::Number(s.analysis.looked as u64));
            match &s.analysis.figures {
                Some(f) => {
                    cells.push(Cell::Number(f.largest as u64));
                    cells.push(Cell::Number(f.largest_heap as u64));
                    cells.push(Cell::Number(f.mask as u64));
                    let rare = f.mask != 0;
                    let count = |n: usize| match rare {
                        true => Cell::Number(n as u64),
                        false => Cell::Empty,
                    };
                    cells.push(count(f.rare_values));
                    cells.push(count(f.rare_heaps));
                    match f.last_rare_heap.filter(|_| rare) {
                        Some(last) => cells.push(Cell::Number(last as u64)),
                        None => cells.push(Cell::Empty),
                    }
                }
                None => cells.extend((0..6).map(|_| Cell::Empty)),
            }
            cells
        })
        .collect()
}

/// The rows as an aligned table: text to the left, numbers to the right.
fn table(rows: &[Row]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let cells = cells(rows);
    let shown = |cell: &Cell| match cell {
        Cell::Text(text) => text.clone(),
        Cell::Number(n) => n.to_string(),
        Cell::Empty => String::new(),
    };
    let mut widths: Vec<usize> = COLUMNS.iter().map(|c| c.len()).collect();
    for row in &cells {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(shown(cell).chars().count());
        }
    }
    let mut text = String::new();
    let line = |text: &mut String, row: Vec<(String, bool)>| {
        let mut line = String::new();
        for ((cell, right), width) in row.into_iter().zip(&widths) {
            let _ = match right {
                true => write!(line, "{cell:>width$}  "),
                false => write!(line, "{cell:<width$}  "),
            };
        }
        text.push_str(line.trim_end());
        text.push('\n');
    };
    line(
        &mut text,
        COLUMNS.iter().map(|c| (c.to_string(), false)).collect(),
    );
    for row in &cells {
        let row = row
            .iter()
            .map(|cell| (shown(cell), matches!(cell, Cell::Number(_))))
            .collect();
        line(&mut text, row);
    }
    text
}

/// The rows as a `.csv` file: a header, then a line per game; a field with a comma or a quote
/// is quoted.
fn csv(rows: &[Row]) -> String {
    let mut text = COLUMNS.join(",");
    text.push('\n');
    for row in cells(rows) {
        let fields: Vec<String> = row
            .iter()
            .map(|cell| match cell {
                Cell::Text(t) if t.contains([',', '"']) => {
                    format!("\"{}\"", t.replace('"', "\"\""))
                }
                Cell::Text(t) => t.clone(),
                Cell::Number(n) => n.to_string(),
                Cell::Empty => String::new(),
            })
            .collect();
        text.push_str(&fields.join(","));
        text.push('\n');
    }
    text
}

/// The rows as a JSON array of records, `null` where a row has no value.
fn json(rows: &[Row]) -> String {
    let mut text = String::from("[\n");
    let cells = cells(rows);
    for (i, row) in cells.iter().enumerate() {
        let fields: Vec<String> = COLUMNS
            .iter()
            .zip(row)
            .map(|(name, cell)| {
                let value = match cell {
                    Cell::Text(t) => super::results::json_string(t),
                    Cell::Number(n) => n.to_string(),
                    Cell::Empty => "null".into(),
                };
                format!("\"{name}\": {value}")
            })
            .collect();
        let comma = if i + 1 < cells.len() { "," } else { "" };
        let _ = writeln!(text, "  {{{}}}{comma}", fields.join(", "));
    }
    text.push_str("]\n");
    text
}

/// The line after the table: the family, how many games are solved and open, and how many
/// equal an earlier one.
fn summary(rows: &[Row], what: &str) -> String {
    let solved = rows
        .iter()
        .filter(|r| {
            r.surveyed
                .as_ref()
                .is_some_and(|s| s.known.proved.is_some())
        })
        .count();
    let equal = rows.iter().filter(|r| r.equals.is_some()).count();
    let by_definition = match rows.iter().filter(|r| r.by_definition).count() {
        0 => String::new(),
        n => format!(" ({n} by definition)"),
    };
    format!(
        "survey of {what}: {solved} solved, {} open; {equal} equal to an earlier \
         game{by_definition}",
        rows.len() - solved
    )
}
