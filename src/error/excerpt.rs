//! The part of a source that a diagnostic shows: the lines its labels point into, with one
//! line of context each side, and each line longer than [`LONG_LINE`] bytes cut to a window
//! around the labels on it. miette renders a whole line, and panics on a column past 65,535
//! (a formatting width); an excerpt also keeps a long program from being copied once for
//! every error rendered.
//!
//! An excerpt is its own offset space: the pieces (runs of neighbouring lines) one after the
//! other with a gap between, so that miette never joins two of them into one snippet. The
//! labels are moved into that space, and every piece reports its true line numbers and
//! columns.

use std::fmt;

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

/// Lines longer than this many bytes are cut around the labels on them.
const LONG_LINE: usize = 200;
/// How much of a cut line is kept: the labels' points and this many bytes each side, or this
/// many bytes from the first point when the points are further apart.
const WINDOW: usize = 120;
const MARGIN: usize = 40;
/// What stands for the part of a line that is cut.
const CUT: &str = "…";
/// A label over more lines than this is shown on its first line.
const LONG_LABEL: usize = 40;

/// A diagnostic shown against an excerpt of its source: the error's message, code and help
/// (with a note of the lines cut), and its labels moved into the excerpt.
pub struct Excerpted<'e> {
    error: &'e dyn Diagnostic,
    labels: Vec<LabeledSpan>,
    source: Excerpt,
    note: Option<String>,
}

impl<'e> Excerpted<'e> {
    pub fn new(error: &'e dyn Diagnostic, name: &str, source: &str) -> Excerpted<'e> {
        let labels: Vec<LabeledSpan> = error.labels().into_iter().flatten().collect();
        let spans: Vec<(usize, usize)> = labels
            .iter()
            .map(|label| shown(source, label.offset(), label.len()))
            .collect();
        let excerpt = Excerpt::new(name, source, &spans);
        let labels = labels
            .into_iter()
            .zip(&spans)
            .map(|(label, &(start, end))| {
                let (from, to) = (excerpt.position(start), excerpt.position(end));
                let text = label.label().map(str::to_string);
                let span = SourceSpan::new(from.into(), to.max(from) - from);
                if label.primary() {
                    LabeledSpan::new_primary_with_span(text, span)
                } else {
                    LabeledSpan::new_with_span(text, span)
                }
            })
            .collect();
        let note = excerpt.note();
        Excerpted {
            error,
            labels,
            source: excerpt,
            note,
        }
    }
}

impl fmt::Debug for Excerpted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.error.to_string(), f)
    }
}

impl fmt::Display for Excerpted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.error, f)
    }
}

impl std::error::Error for Excerpted<'_> {}

impl Diagnostic for Excerpted<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error.code()
    }

    fn severity(&self) -> Option<miette::Severity> {
        self.error.severity()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match (self.error.help(), &self.note) {
            (help, None) => help,
            (None, Some(note)) => Some(Box::new(note)),
            (Some(help), Some(note)) => Some(Box::new(format!("{help}\n{note}"))),
        }
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error.url()
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }
}

struct Excerpt {
    name: String,
    pieces: Vec<Piece>,
}

/// Neighbouring lines of the source: `text` starts at `at` in the excerpt, and its first line
/// is line `line` (from 0) of the source.
struct Piece {
    at: usize,
    line: usize,
    text: String,
    lines: Vec<Kept>,
}

/// One line of a piece: the source's line `start..end` (without its line break), of which
/// `from..from + len` is kept, at `at` in the piece's text.
struct Kept {
    start: usize,
    end: usize,
    from: usize,
    len: usize,
    at: usize,
}

impl Excerpt {
    /// The lines of `source` that `spans` cover, and one line each side.
    fn new(name: &str, source: &str, spans: &[(usize, usize)]) -> Excerpt {
        let points: Vec<usize> = spans
            .iter()
            .flat_map(|&(start, end)| [start, end])
            .collect();
        let mut starts: Vec<(usize, usize)> = spans
            .iter()
            .map(|&(first, last)| {
                let start = line_start(source, first);
                let before = if start == 0 {
                    0
                } else {
                    line_start(source, start - 1)
                };
                let end = line_end(source, last);
                let after = if end < source.len() {
                    line_end(source, end + 1)
                } else {
                    end
                };
                (before, after)
            })
            .collect();
        starts.sort_unstable();
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (start, end) in starts {
            match runs.last_mut() {
                // Runs that touch, or have only a line break between them, become one.
                Some(last) if start <= last.1 + 1 => last.1 = last.1.max(end),
                _ => runs.push((start, end)),
            }
        }
        let mut pieces = Vec::new();
        let mut at = 0;
        let mut line = 0;
        let mut counted = 0;
        for (start, end) in runs {
            line += source.as_bytes()[counted..start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            counted = start;
            let piece = Piece::new(source, start, end, at, line, &points);
            at = piece.at + piece.text.len() + 2;
            pieces.push(piece);
        }
        Excerpt {
            name: name.to_string(),
            pieces,
        }
    }

    /// Where the source's byte `offset` is shown: inside a cut part, at the cut's mark.
    fn position(&self, offset: usize) -> usize {
        for piece in &self.pieces {
            for kept in &piece.lines {
                if (kept.start..=kept.end).contains(&offset) {
                    let local = offset.clamp(kept.from, kept.from + kept.len) - kept.from;
                    return piece.at + kept.at + local;
                }
            }
        }
        0
    }

    /// Which lines are cut, for the help.
    fn note(&self) -> Option<String> {
        let cut: Vec<String> = self
            .pieces
            .iter()
            .flat_map(|piece| {
                piece
                    .lines
                    .iter()
                    .enumerate()
                    .filter(|(_, kept)| kept.len < kept.end - kept.start)
                    .map(move |(i, kept)| {
                        format!(
                            "line {} is shown cut around the error ({} bytes long)",
                            piece.line + i + 1,
                            kept.end - kept.start
                        )
                    })
            })
            .collect();
        (!cut.is_empty()).then(|| cut.join("; "))
    }
}

impl Piece {
    fn new(
        source: &str,
        start: usize,
        end: usize,
        at: usize,
        line: usize,
        points: &[usize],
    ) -> Piece {
        let mut text = String::new();
        let mut lines = Vec::new();
        let mut line_start = start;
        loop {
            let line_end = line_end(source, line_start);
            let (from, to) = window(source, line_start, line_end, points);
            if from > line_start {
                text.push_str(CUT);
            }
            lines.push(Kept {
                start: line_start,
                end: line_end,
                from,
                len: to - from,
                at: text.len(),
            });
            text.push_str(&source[from..to]);
            if to < line_end {
                text.push_str(CUT);
            }
            if line_end >= end {
                break;
            }
            text.push('\n');
            line_start = line_end + 1;
        }
        Piece {
            at,
            line,
            text,
            lines,
        }
    }

    /// The column (in bytes, from 0) in the source of the byte `local` of the piece's text.
    fn column(&self, local: usize) -> usize {
        let kept = self
            .lines
            .iter()
            .rev()
            .find(|kept| kept.at <= local)
            .unwrap_or(&self.lines[0]);
        let into = local.saturating_sub(kept.at).min(kept.len);
        kept.from + into - kept.start
    }
}

/// The part of a label's span that is shown: all of it, unless it covers more than
/// [`LONG_LABEL`] lines, when it is shown on its first line only.
fn shown(source: &str, offset: usize, len: usize) -> (usize, usize) {
    let start = char_boundary(source, offset.min(source.len()));
    let end = char_boundary(source, (start + len).min(source.len()));
    let lines = source.as_bytes()[start..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    if lines > LONG_LABEL {
        (start, line_end(source, start))
    } else {
        (start, end)
    }
}

/// The part of the line `start..end` that is shown: all of it when it is short, else a window
/// around the points on it.
fn window(source: &str, start: usize, end: usize, points: &[usize]) -> (usize, usize) {
    if end - start <= LONG_LINE {
        return (start, end);
    }
    let on_line = points.iter().filter(|&&p| (start..=end).contains(&p));
    let (first, last) = on_line.fold((usize::MAX, 0), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let (from, to) = if first == usize::MAX {
        (start, start + WINDOW)
    } else if last - first <= WINDOW {
        (first.saturating_sub(MARGIN), last + MARGIN)
    } else {
        (first.saturating_sub(MARGIN), first + WINDOW)
    };
    (
        char_boundary(source, from.max(start)),
        char_boundary(source, to.min(end)),
    )
}

fn char_boundary(source: &str, mut offset: usize) -> usize {
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn line_start(source: &str, offset: usize) -> usize {
    source[..offset].rfind('\n').map_or(0, |i| i + 1)
}

fn line_end(source: &str, offset: usize) -> usize {
    source[offset..]
        .find('\n')
        .map_or(source.len(), |i| offset + i)
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let piece = self
            .pieces
            .iter()
            .find(|piece| {
                (piece.at..=piece.at + piece.text.len()).contains(&span.offset())
                    && span.offset() + span.len() <= piece.at + piece.text.len()
            })
            .ok_or(MietteError::OutOfBounds)?;
        let local = SourceSpan::new((span.offset() - piece.at).into(), span.len());
        let contents = piece.text.as_str().read_span(&local, before, after)?;
        let column = if before == 0 {
            piece.column(local.offset())
        } else {
            0
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            contents.data(),
            SourceSpan::new(
                (contents.span().offset() + piece.at).into(),
                contents.span().len(),
            ),
            contents.line() + piece.line,
            column,
            contents.line_count() + piece.line,
        )))
    }
}
