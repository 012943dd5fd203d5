//! A survey in parts: `--shard I/N` computes part `I` of `N` and keeps it in the cache folder,
//! and `--merge` puts the parts kept there together into the rows of one run (the layout and
//! checks of the parts' files are the engine's `survey_file`).

use std::collections::BTreeSet;
use std::io::Write;

use super::super::Interpreter;
use super::{why_stopped, Stop, Survey};
use crate::error::Error;
use crate::game::progress::grouped;
use crate::game::survey::Surveyed;
use crate::game::survey_file::{self, Progress};
use crate::game::{Shard, SolveError};
use crate::syntax::ast::Output;

impl Interpreter {
    /// Part `shard` of the survey: its games computed (those its file holds read back) and
    /// kept in the cache folder, the file of each game written as it comes.
    pub(super) fn survey_shard(
        &mut self,
        survey: &Survey,
        shard: Shard,
        output: Option<&Output>,
        out: &mut dyn Write,
    ) -> Result<(), Error> {
        let limits = self.engine.limits.clone();
        let (cache, identity) = self.parts_cache(survey, "computed in parts")?;
        let total = survey.members.len();
        let (mut progress, records) = Progress::open(&cache, &identity, shard, total, &limits)
            .map_err(|why| {
                let name = survey_file::file_name(&identity, shard);
                parts_error(
                    survey,
                    format!(
                        "cannot keep part {} of {} of the survey in `{}`: {why}",
                        shard.index,
                        shard.count,
                        cache.path_of(&name).display()
                    ),
                    "check the cache folder (`--cache DIR`); a run stopped by Ctrl-C or `kill` \
                     leaves no lock behind"
                        .into(),
                )
            })?;
        let read_back = records.len();
        drop(records);
        let mine: Vec<usize> = (0..total).filter(|&g| shard.holds(g)).collect();
        let path = progress.path.display().to_string();
        let stopped = self.compute(survey, &mine[read_back..], |g, surveyed| {
            progress
                .append(g, surveyed.as_ref())
                .map_err(|e| Error::Io {
                    path: path.clone(),
                    reason: e.to_string(),
                })
        });
        let part = format!(
            "part {} of {} of the survey of {}",
            shard.index, shard.count, survey.what
        );
        match stopped {
            Ok(()) => {}
            Err(Stop::File(error)) => return Err(error),
            Err(Stop::Game(_, SolveError::Interrupted)) => return Err(Error::Interrupted),
            Err(Stop::Game(g, e)) => {
                let error = super::super::expr::solve_error(e, survey.span);
                let done = mine.iter().position(|&m| m == g).unwrap_or(0);
                let text = format!(
                    "{part} stopped {} at {} after {done} of its {} games: they are kept in \
                     {path}, and a run of the same part resumes from them",
                    why_stopped(&error),
                    survey.members[g].name(),
                    mine.len(),
                );
                super::super::output::write_line(out, &text);
                return Err(error);
            }
        }
        let file = match output {
            Some(output) => format!(" and `{}`", output.path),
            None => String::new(),
        };
        let text = format!(
            "{part}: its {} games are kept in {path} ({} read back, {} computed); once every \
             part is done, the same survey run with `--cache {} --merge` writes the table{file}",
            grouped(mine.len() as u64),
            grouped(read_back as u64),
            grouped((mine.len() - read_back) as u64),
            cache.dir().display(),
        );
        super::super::output::write_line(out, &text);
        Ok(())
    }

    /// The games of the survey, in order, from the parts kept in the cache folder: every part
    /// of one split, each whole and sound, or a diagnostic saying which is not.
    pub(super) fn merged(&mut self, survey: &Survey) -> Result<Vec<Option<Surveyed>>, Error> {
        let limits = self.engine.limits.clone();
        let (cache, identity) = self.parts_cache(survey, "merged")?;
        let total = survey.members.len();
        let parts = survey_file::parts_present(&cache, &identity);
        let mut splits: BTreeSet<u32> = parts.iter().map(|s| s.count).collect();
        // A survey run whole keeps its progress as its part 1 of 1: not a part of a split.
        if splits.len() > 1 {
            splits.remove(&1);
        }
        let dir = cache.dir().display();
        let count = match splits.len() {
            0 => {
                return Err(parts_error(
                    survey,
                    format!("no part of this survey is in `{dir}`"),
                    format!(
                        "compute the parts first, each with `--cache {dir} --shard I/N` (the \
                         same survey statement); then merge them"
                    ),
                ))
            }
            1 => *splits.first().expect("one split"),
            _ => {
                let shown: Vec<String> = splits.iter().map(u32::to_string).collect();
                return Err(parts_error(
                    survey,
                    format!(
                        "`{dir}` holds parts of this survey split in {} ways",
                        shown.join(" and in ")
                    ),
                    "remove the files of the split not wanted (named `...-part-I-of-N`)".into(),
                ));
            }
        };
        let missing: Vec<String> = (1..=count)
            .filter(|&index| !parts.contains(&Shard { index, count }))
            .map(|index| index.to_string())
            .collect();
        if !missing.is_empty() {
            let which = match missing.len() {
                1 => format!("part {} of {count} is missing", missing[0]),
                _ => format!("parts {} of {count} are missing", missing.join(", ")),
            };
            return Err(parts_error(
                survey,
                format!("{which} in `{dir}`"),
                format!(
                    "compute each with `--cache {dir} --shard {}/{count}` (the same survey \
                     statement), or copy its file into `{dir}`",
                    missing[0]
                ),
            ));
        }
        let mut games: Vec<Option<Option<Surveyed>>> = (0..total).map(|_| None).collect();
        for index in 1..=count {
            let shard = Shard { index, count };
            let records = survey_file::read_whole_part(&cache, &identity, shard, total, &limits)
                .map_err(|why| {
                    let name = survey_file::file_name(&identity, shard);
                    let path = cache.path_of(&name);
                    parts_error(
                        survey,
                        format!(
                            "part {index} of {count} (`{}`) cannot be merged: {why}",
                            path.display()
                        ),
                        format!(
                            "compute it again with `--cache {dir} --shard {shard}` (the same \
                             survey statement): it keeps what is sound and computes the rest"
                        ),
                    )
                })?;
            for record in records {
                games[record.game] = Some(record.surveyed);
            }
        }
        if limits.check_interrupt().is_err() {
            return Err(Error::Interrupted);
        }
        // Every part holds each of its games (`read_whole_part`), so none is missing here.
        Ok(games
            .into_iter()
            .map(|game| game.expect("a game of some part"))
            .collect())
    }

    /// The cache folder and the survey's identity, which a survey in parts needs.
    fn parts_cache(
        &self,
        survey: &Survey,
        how: &str,
    ) -> Result<(std::sync::Arc<crate::game::cache_folder::Cache>, String), Error> {
        let Some(cache) = self.engine.limits.cache.clone() else {
            return Err(parts_error(
                survey,
                format!("a survey is {how} through a cache folder, and none is given"),
                "run grundy with `--cache DIR`, the same folder for every part and the merge"
                    .into(),
            ));
        };
        let Some(identity) = survey.identity.clone() else {
            return Err(parts_error(
                survey,
                format!("this survey cannot be {how}: a game of its list has no heap rules"),
                "a survey in parts takes octal, hexadecimal and subtraction families, and lists \
                 of games whose moves are takes and splits of a heap"
                    .into(),
            ));
        };
        Ok((cache, identity))
    }
}

fn parts_error(survey: &Survey, reason: String, help: String) -> Error {
    Error::SurveyParts {
        reason,
        help,
        span: survey.span,
    }
}
