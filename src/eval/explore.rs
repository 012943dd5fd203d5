//! Statements for exploring variants: `period`, `dot` and `plot` (`compare` is
//! `compare_statement.rs`).

use std::fmt::Write as _;

use rustc_hash::FxHashMap;

use super::answer_files;
use super::expr::{solve_error, Eval};
use super::misere_statements::heap;
use super::value::{GameValue, PositionValue};
use super::Interpreter;
use crate::error::Error;
use crate::game::heap::Figures;
use crate::game::period_pipeline::Analysis;
use crate::game::progress::grouped;
use crate::game::vocabulary::{GValue, Period};
use crate::game::{period, Position, SolveError};
use crate::span::Span;
use crate::syntax::ast::{Expr, Output, Plot, PlotOptions};

/// The figures of a heap sequence that the tables of the literature give, for people: `largest
/// value 255 at heap 1,234; sparse space: mask 6, 3 rare values on 41 heaps, the last at heap
/// 1,112`.
fn figures_text(figures: &Figures) -> String {
    let mut text = format!(
        "largest value {} at heap {}",
        figures.largest,
        grouped(figures.largest_heap as u64)
    );
    match figures.last_rare_heap {
        Some(last) if figures.mask != 0 => {
            let _ = write!(
                text,
                "; sparse space: mask {}, {} rare values on {} heaps, the last at heap {}",
                figures.mask,
                figures.rare_values,
                grouped(figures.rare_heaps as u64),
                grouped(last as u64)
            );
        }
        _ if figures.mask != 0 => {
            let _ = write!(
                text,
                "; sparse space: mask {}, no rare values",
                figures.mask
            );
        }
        _ => text.push_str("; no sparse space"),
    }
    text
}

/// What `period G` says of a heap game's analysis, after the game's name.
fn described(analysis: &Analysis) -> String {
    let looked = analysis.looked;
    let figures = match (&analysis.figures, analysis.proof) {
        (Some(figures), None) => format!("; {}", figures_text(figures)),
        _ => String::new(),
    };
    let Some(period) = analysis.period else {
        let why = analysis
            .stopped
            .map_or(String::new(), |why| format!(" ({why})"));
        return format!("no period found in heaps 0..{looked}{why}{figures}");
    };
    let mut text = format!("preperiod {}, period {}", period.preperiod, period.period);
    if period.saltus != 0 {
        let _ = write!(text, ", saltus {}", period.saltus);
    }
    let unproved = match (analysis.proof, analysis.needs, analysis.failed) {
        (Some(theorem), _, _) => {
            let _ = write!(text, ", proved: {theorem}");
            return text;
        }
        (None, Some(needs), _) => format!("the theorem needs heaps 0..{needs}"),
        (None, None, Some(theorem)) => {
            format!("the values do not meet the hypotheses of {theorem}")
        }
        (None, None, None) => "no theorem applies".to_string(),
    };
    let why = analysis
        .stopped
        .map_or(String::new(), |why| format!("; {why}"));
    let _ = write!(
        text,
        " (apparent, not proved: {unproved}; seen on heaps 0..{looked}{why}){figures}"
    );
    text
}

/// `N` heaps as the bound of `period G up to N` (or `solved(G, N)`), at least 1.
pub(super) fn heaps_bound(n: i64, span: Span) -> Result<usize, Error> {
    usize::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
        Error::invalid(
            format!("`up to {n}` heaps: there is nothing to look at"),
            span,
            "give at least 1 heap, e.g. `up to 100000`",
        )
    })
}

/// The most positions `dot` draws.
const DOT_LIMIT: usize = 500;

/// The heaps of a loopy game in which `period` looks for a period first, and the most it looks
/// at (labelling `n` heaps takes time about `n` squared).
const LOOPY_FIRST_WINDOW: usize = 64;
const LOOPY_PERIOD_HEAPS: usize = 4096;

impl Interpreter {
    pub(super) fn period(
        &mut self,
        game_expr: &Expr,
        bound: Option<&Expr>,
    ) -> Result<String, Error> {
        let game = self.heap_game(game_expr, "period")?;
        let bound = match bound {
            Some(bound) => Some(self.period_bound(bound)?),
            None => None,
        };
        match self.analysis(&game, bound, game_expr.span)? {
            Some(analysis) => Ok(format!("{}: {}", game.display, described(&analysis))),
            None => self.loopy_period(&game, game_expr.span, bound),
        }
    }

    /// What `period G` (`up to bound`) finds of a heap game; `None` for a loopy game, whose
    /// generalized values no theorem covers.
    fn analysis(
        &mut self,
        game: &GameValue,
        bound: Option<usize>,
        span: Span,
    ) -> Result<Option<Analysis>, Error> {
        if self.engine.is_loopy(game.id) {
            return Ok(None);
        }
        match self.engine.analyse_within(game.id, bound) {
            Err(SolveError::Loop(_)) => Ok(None),
            analysis => analysis.map(Some).map_err(|e| solve_error(e, span)),
        }
    }

    /// The period of a heap game that `period G` (`up to bound`) proves, the least preperiod and
    /// period with the saltus; else what `period` says of it instead (an apparent period never
    /// passes for one). For `preperiod(G)`, `period(G)`, `saltus(G)` and `solved(G)`.
    pub(super) fn proved_period(
        &mut self,
        game: &GameValue,
        bound: Option<usize>,
        span: Span,
    ) -> Result<Result<Period, String>, Error> {
        let Some(analysis) = self.analysis(game, bound, span)? else {
            return Ok(Err(
                "the generalized values of a loopy game, which no theorem covers".into(),
            ));
        };
        match (analysis.period, analysis.proof) {
            (Some(period), Some(_)) => Ok(Ok(period)),
            _ => Ok(Err(described(&analysis))),
        }
    }

    /// The `N` of `period G up to N`: how many heaps, at least 1.
    fn period_bound(&mut self, bound: &Expr) -> Result<usize, Error> {
        let n = Eval::new(self).int(bound)?;
        heaps_bound(n, bound.span)
    }

    /// `period` of a loopy game: the shortest exact repetition of its generalized values (an
    /// infinite value repeats only as the same infinite value), looked for in heaps `0..64`, then
    /// in a window that doubles while none shows, up to [`LOOPY_PERIOD_HEAPS`] or a limit. Always
    /// apparent: no theorem proves a period of generalized values.
    fn loopy_period(
        &mut self,
        game: &GameValue,
        span: Span,
        bound: Option<usize>,
    ) -> Result<String, Error> {
        let cap = (LOOPY_PERIOD_HEAPS.min(self.engine.limits.max_states))
            .min(bound.unwrap_or(usize::MAX));
        let mut values: Vec<GValue> = Vec::new();
        let mut len = LOOPY_FIRST_WINDOW.min(cap);
        let mut stopped = None;
        loop {
            // The top heap first: labelling it labels every heap below that it reaches, at once.
            // Its error, if any, comes again below at the heap where it starts.
            if let Err(SolveError::Interrupted) =
                self.engine.part_gvalue(&heap(game.id, len as i64 - 1))
            {
                return Err(Error::Interrupted);
            }
            while values.len() < len && stopped.is_none() {
                match self.engine.part_gvalue(&heap(game.id, values.len() as i64)) {
                    Ok(value) => values.push(value),
                    // Past the heaps whose reachable positions the limits hold, no more values.
                    Err(SolveError::StateLimit(_)) if !values.is_empty() => {
                        stopped = Some("stopped by the state limit")
                    }
                    Err(SolveError::MemoryLimit(_)) if !values.is_empty() => {
                        stopped = Some("stopped by the memory limit")
                    }
                    Err(e) => return Err(solve_error(e, span)),
                }
            }
            let looked = values.len();
            let why = stopped.map_or(String::new(), |why| format!("; {why}"));
            if let Some(found) = period::find_repeating(&values) {
                return Ok(format!(
                    "{}: preperiod {}, period {} (apparent, not proved: the generalized values of \
                     a loopy game, which no theorem covers; seen on heaps 0..{looked}{why})",
                    game.display, found.preperiod, found.period
                ));
            }
            if stopped.is_some() || len >= cap {
                return Ok(format!(
                    "{}: no period found in heaps 0..{looked} (the generalized values of a loopy \
                     game{why})",
                    game.display
                ));
            }
            len = (len * 2).min(cap);
        }
    }

    /// The positions reachable from `target`, as a Graphviz digraph labelled with values, with a
    /// legend of its shapes: shown, or with `to "FILE"` written to a `.dot` or `.gv` file.
    pub(super) fn dot(&mut self, target: &Expr, output: Option<&Output>) -> Result<String, Error> {
        let Some(output) = output else {
            return self.graph_of(target).map(|(text, _)| text);
        };
        let extension = std::path::Path::new(&output.path).extension();
        if !matches!(extension.and_then(|e| e.to_str()), Some("dot" | "gv")) {
            return Err(Error::invalid(
                format!("cannot tell what to write to `{}`", output.path),
                output.span,
                "`dot` writes Graphviz files: name a file ending in `.dot` or `.gv`",
            ));
        }
        let (text, positions) = self.graph_of(target)?;
        let mut file = answer_files::create(&self.engine.limits.root, &output.path, output.span)?;
        file.write(format!("{text}\n").as_bytes())?;
        let replacing = match file.replaced {
            true => ", replacing the file that was there",
            false => "",
        };
        file.close()?;
        Ok(format!(
            "wrote {} ({}{replacing})",
            output.path,
            super::expr::plural(positions, "position")
        ))
    }

    /// The Graphviz digraph of `dot`, and how many positions it has.
    fn graph_of(&mut self, target: &Expr) -> Result<(String, usize), Error> {
        let root = Eval::new(self).position(target)?;
        let fail = |e| solve_error(e, target.span);
        let mut index: FxHashMap<Position, usize> = FxHashMap::default();
        let mut nodes: Vec<Position> = vec![root.position.clone()];
        index.insert(root.position.clone(), 0);
        let mut edges = Vec::new();
        let mut next = 0;
        while next < nodes.len() {
            let moves = self.engine.moves(&nodes[next]).map_err(fail)?;
            let from = nodes[next].flattened();
            for m in moves {
                let result = m.result(&from);
                let to = match index.get(&result) {
                    Some(&i) => i,
                    None => {
                        if nodes.len() >= DOT_LIMIT {
                            return Err(Error::DotLimit {
                                limit: DOT_LIMIT,
                                span: target.span,
                            });
                        }
                        index.insert(result.clone(), nodes.len());
                        nodes.push(result);
                        nodes.len() - 1
                    }
                };
                edges.push((next, to));
            }
            next += 1;
        }
        let show = |p: &Position| {
            if let (true, Some(first)) = (p.is_empty(), root.position.parts().next()) {
                return format!("{}[]", root.game(first.game).display);
            }
            PositionValue {
                position: p.clone(),
                games: root.games.clone(),
            }
            .to_string()
        };
        let mut text = format!("digraph {:?} {{\n", show(&root.position));
        let mut loopy = false;
        for (i, node) in nodes.iter().enumerate() {
            let value = self.engine.gvalue(node).map_err(fail)?;
            let shape = match value {
                crate::game::vocabulary::GValue::Finite(0) => ", shape=box",
                crate::game::vocabulary::GValue::Finite(_) => "",
                crate::game::vocabulary::GValue::Infinite(_) => {
                    loopy = true;
                    ", style=dashed"
                }
            };
            let _ = writeln!(
                text,
                "  n{i} [label=\"{}\\n{value}\"{shape}];",
                show(node).replace('"', "\\\"")
            );
        }
        edges.sort_unstable();
        edges.dedup();
        for (a, b) in edges {
            let _ = writeln!(text, "  n{a} -> n{b};");
        }
        text.push_str(DOT_LEGEND);
        if loopy {
            text.push_str(DOT_LEGEND_LOOPY);
        }
        text.push_str("  }\n}");
        Ok((text, nodes.len()))
    }

    pub(super) fn plot(
        &mut self,
        plot: &Plot,
        file: &str,
        file_span: Span,
        options: &PlotOptions,
        source: &str,
    ) -> Result<String, Error> {
        super::plot::draw(self, plot, file, file_span, options, source)
    }
}

/// The legend of a `dot` graph, a box of its own beside the positions: what a box and an
/// ellipse mean (and, after it, a dashed outline when some value is infinite).
const DOT_LEGEND: &str = "  subgraph cluster_legend {
    label=\"legend\"; style=dotted;
    legend_p [label=\"value 0: a P-position\\n(the player to move loses)\", shape=box];
    legend_n [label=\"value above 0: an N-position\\n(the player to move wins)\"];
";
const DOT_LEGEND_LOOPY: &str =
    "    legend_loopy [label=\"value ∞: a loopy position\", style=dashed];\n";
