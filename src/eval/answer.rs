//! Where the values of `sequence`, `table` and `ppos` go as they are found: kept to be shown
//! (charged to the memory ledger as they grow, so that an answer too large to hold ends with
//! the memory limit's diagnostic), or, with `to "FILE.csv"` or `to "FILE.json"`, written to the
//! file row by row, so that what the statement holds does not grow with its answer. A `.txt`
//! file is the answer as printed, whose columns are as wide as its widest value: it is kept,
//! then written.

use std::io::Write;

use super::answer_files;
use super::expr::over_memory;
use super::results::{Axis, Entry, Results};
use crate::error::Error;
use crate::files::Root;
use crate::game::budget::{self, Charge};
use crate::span::Span;

/// What an answer is: its label and indices, and for `ppos` that only the cells of value 0 are
/// kept.
pub struct Layout {
    pub label: String,
    pub axes: Vec<Axis>,
    pub ppos: bool,
}

impl Layout {
    pub fn sequence(label: String, axis: Axis) -> Layout {
        Layout {
            label,
            axes: vec![axis],
            ppos: false,
        }
    }

    pub fn table(label: String, rows: Axis, cols: Axis, ppos: bool) -> Layout {
        Layout {
            label,
            axes: vec![rows, cols],
            ppos,
        }
    }

    /// How many cells a row of a table has.
    fn width(&self) -> usize {
        self.axes.get(1).map_or(1, |cols| {
            (cols.last as i128 - cols.start as i128 + 1).max(0) as usize
        })
    }

    /// The indices of the `count`-th value.
    fn indices(&self, count: usize) -> (i64, Option<i64>) {
        let first = &self.axes[0];
        match self.axes.get(1) {
            None => (first.start + count as i64, None),
            Some(cols) => {
                let width = self.width().max(1);
                (
                    first.start + (count / width) as i64,
                    Some(cols.start + (count % width) as i64),
                )
            }
        }
    }

    /// What a `.csv` file's first row says, and what one value of a JSON record is named.
    fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.axes.iter().map(|a| a.name.as_str()).collect();
        if !self.ppos {
            names.push("value");
        }
        names
    }

    /// What was written, for the line that says so: "wrote 100001 values of kayles (n =
    /// 0..=100000) to FILE", and whether that replaced a file.
    fn summary(&self, found: u64, path: &str, replaced: bool) -> String {
        let ranges: Vec<String> = self
            .axes
            .iter()
            .map(|a| format!("{} = {}..={}", a.name, a.start, a.last))
            .collect();
        let what = match (self.ppos, found == 1) {
            (true, true) => "P-position",
            (true, false) => "P-positions",
            (false, true) => "value",
            (false, false) => "values",
        };
        let replacing = match replaced {
            true => " (replacing the file that was there)",
            false => "",
        };
        format!(
            "wrote {found} {what} of {} ({}) to {path}{replacing}",
            self.label,
            ranges.join(", ")
        )
    }
}

/// The form of a `to` file, by its extension.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Csv,
    Json,
    Txt,
}

/// The file of `to "FILE"`.
pub struct Target {
    path: String,
    span: Span,
    form: Form,
    /// Where the file may be written.
    root: Root,
}

impl Target {
    /// The file a statement writes to, refused before anything is computed when its extension
    /// names no form.
    pub fn new(path: &str, span: Span, root: Root) -> Result<Target, Error> {
        let extension = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        let form = match extension {
            "csv" => Form::Csv,
            "json" => Form::Json,
            "txt" => Form::Txt,
            _ => {
                return Err(Error::invalid(
                    format!("cannot tell what to write to `{path}`"),
                    span,
                    "name a file ending in `.csv`, `.json` or `.txt`",
                ))
            }
        };
        Ok(Target {
            path: path.to_string(),
            span,
            form,
            root,
        })
    }
}

/// The values kept to be shown.
enum Kept {
    Values(Vec<Entry>),
    Rows(Vec<Vec<Entry>>),
    Cells(Vec<(i64, i64)>),
}

/// A file being written row by row.
struct Streamed {
    file: answer_files::Written,
    form: Form,
}

/// The values of one answer as they are found.
pub struct Answer {
    target: Option<Target>,
    layout: Option<Layout>,
    kept: Kept,
    /// The bytes of the kept rows already complete and of infinite values' lists.
    done_bytes: usize,
    charge: Charge,
    streamed: Option<Streamed>,
    /// Values pushed, and values (or P-positions) kept or written.
    count: usize,
    found: u64,
    span: Span,
}

impl Answer {
    /// An answer whose values are kept (charged to `charge`), or streamed to `target`'s file
    /// when it is a `.csv` or `.json` one. `span` is where a memory or file error points.
    pub fn new(charge: Charge, target: Option<Target>, span: Span) -> Answer {
        Answer {
            target,
            layout: None,
            kept: Kept::Values(Vec::new()),
            done_bytes: 0,
            charge,
            streamed: None,
            count: 0,
            found: 0,
            span,
        }
    }

    /// What the values are: set before the first is pushed (when the ranges are known). Opens
    /// the file of a streamed answer and writes its head.
    pub fn begin(&mut self, layout: Layout) -> Result<(), Error> {
        self.kept = match (layout.axes.len(), layout.ppos) {
            (1, _) => Kept::Values(Vec::new()),
            (_, false) => Kept::Rows(Vec::new()),
            (_, true) => Kept::Cells(Vec::new()),
        };
        if let Some(target) = self.target.as_ref().filter(|t| t.form != Form::Txt) {
            let mut file = answer_files::create(&target.root, &target.path, target.span)?;
            let head = match target.form {
                Form::Csv => format!("{}\n", layout.names().join(",")),
                _ => "[".to_string(),
            };
            file.write(head.as_bytes())?;
            self.streamed = Some(Streamed {
                file,
                form: target.form,
            });
        }
        self.layout = Some(layout);
        Ok(())
    }

    /// The next value, in order: a sequence's by its index, a table's row by row.
    pub fn push(&mut self, entry: Entry) -> Result<(), Error> {
        let layout = self
            .layout
            .as_ref()
            .expect("an answer begins before its values");
        let count = self.count;
        self.count += 1;
        let (a, b) = layout.indices(count);
        if layout.ppos && entry != Entry::Int(0) {
            return Ok(());
        }
        if let Some(streamed) = &mut self.streamed {
            let row = match streamed.form {
                Form::Csv => csv_row(a, b, &entry, layout),
                _ => json_record(a, b, &entry, layout, self.found == 0),
            };
            self.found += 1;
            return streamed.file.write(row.as_bytes());
        }
        self.found += 1;
        if let Entry::Infinite(k) = &entry {
            self.done_bytes += budget::boxed(k.len() * 8);
        }
        let width = layout.width();
        let held = match &mut self.kept {
            Kept::Values(values) => grows(values).then(|| budget::vector(values, 1)),
            Kept::Cells(cells) => grows(cells).then(|| budget::vector(cells, 1)),
            Kept::Rows(rows) => {
                if count.is_multiple_of(width.max(1)) {
                    if let Some(done) = rows.last() {
                        self.done_bytes += budget::boxed(done.capacity() * size_of::<Entry>());
                    }
                    let outer = budget::vector(rows, 1);
                    rows.push(Vec::with_capacity(width));
                    Some(outer + budget::boxed(width * size_of::<Entry>()))
                } else {
                    None
                }
            }
        };
        if let Some(held) = held {
            self.charge
                .set(self.done_bytes + held)
                .map_err(|over| over_memory(over, self.span))?;
        }
        match &mut self.kept {
            Kept::Values(values) => values.push(entry),
            Kept::Cells(cells) => cells.push((a, b.unwrap_or(0))),
            Kept::Rows(rows) => rows.last_mut().expect("a row was begun").push(entry),
        }
        Ok(())
    }

    /// The values kept, for a picture or a period (empty when they were streamed).
    pub fn into_results(mut self) -> Results {
        let layout = self
            .layout
            .take()
            .expect("an answer begins before its values");
        let label = layout.label;
        let mut axes = layout.axes.into_iter();
        let first = axes.next().expect("an answer has an index");
        let kept = std::mem::replace(&mut self.kept, Kept::Values(Vec::new()));
        match (kept, axes.next()) {
            (Kept::Values(values), _) => Results::Sequence {
                label,
                axis: first,
                values,
            },
            (Kept::Rows(mut grid), Some(cols)) => {
                // A table of no columns has its rows, empty.
                let rows = (first.last as i128 - first.start as i128 + 1).max(0) as usize;
                grid.resize(rows.max(grid.len()), Vec::new());
                Results::Table {
                    label,
                    rows: first,
                    cols,
                    grid,
                }
            }
            (Kept::Cells(found), Some(cols)) => Results::Ppos {
                label,
                rows: first,
                cols,
                found,
            },
            (_, None) => unreachable!("a table has two indices"),
        }
    }

    /// Ends the answer: with a file, closes it and says in one line what was written; else
    /// writes the answer as printed to `out`.
    pub fn finish(mut self, out: &mut dyn Write) -> Result<(), Error> {
        let said = match (self.streamed.take(), self.target.take()) {
            (Some(mut streamed), Some(target)) => {
                if streamed.form == Form::Json {
                    let tail = if self.found == 0 { "]\n" } else { "\n]\n" };
                    streamed.file.write(tail.as_bytes())?;
                }
                let replaced = streamed.file.replaced;
                streamed.file.close()?;
                let layout = self
                    .layout
                    .as_ref()
                    .expect("an answer begins before its values");
                layout.summary(self.found, &target.path, replaced)
            }
            (_, Some(target)) => {
                let found = self.found;
                let layout = self
                    .layout
                    .as_ref()
                    .expect("an answer begins before its values");
                let mut file = answer_files::create(&target.root, &target.path, target.span)?;
                let summary = layout.summary(found, &target.path, file.replaced);
                let results = self.into_results();
                let written = results.write_text(&mut file.writer());
                file.wrote(written)?;
                file.write(b"\n")?;
                file.close()?;
                summary
            }
            (_, None) => {
                let _ = self.into_results().write_text(out);
                let _ = writeln!(out);
                return Ok(());
            }
        };
        let _ = writeln!(out, "{said}");
        Ok(())
    }
}

impl Drop for Answer {
    /// An answer dropped before [`Answer::finish`] (an error, Ctrl-C) leaves no file.
    fn drop(&mut self) {
        if let Some(streamed) = self.streamed.take() {
            streamed.file.discard();
        }
    }
}

/// Whether a vector is full, so that its next element moves it.
fn grows<T>(v: &Vec<T>) -> bool {
    v.len() == v.capacity()
}

/// A row of a CSV file: the indices, then the value (none for a P-position).
fn csv_row(a: i64, b: Option<i64>, entry: &Entry, layout: &Layout) -> String {
    let mut fields = vec![a.to_string()];
    fields.extend(b.map(|b| b.to_string()));
    if !layout.ppos {
        fields.push(entry.csv());
    }
    format!("{}\n", fields.join(","))
}

/// One record of a JSON file, an object of the indices and the value, after a comma unless it is
/// the first: the file is an array of records, as `pandas.read_json` and `json.load` both read.
fn json_record(a: i64, b: Option<i64>, entry: &Entry, layout: &Layout, first: bool) -> String {
    let names = layout.names();
    let mut fields = vec![format!("{}: {a}", super::results::json_string(names[0]))];
    if let Some(b) = b {
        fields.push(format!("{}: {b}", super::results::json_string(names[1])));
    }
    if !layout.ppos {
        fields.push(format!("\"value\": {}", entry.json()));
    }
    let separator = if first { "\n" } else { ",\n" };
    format!("{separator}  {{{}}}", fields.join(", "))
}
