//! What `sequence`, `table` and `ppos` found, shown as text and saved to a file by its
//! extension: `.csv` (a header row, then one row a value), `.json`, or `.txt` (as printed); and
//! what `moves` and `win` found, shown as text.

use std::fmt::{self, Write as _};
use std::io::Write as _;

use crate::error::Error;
use crate::files::{self, Access, Root};
use crate::game::vocabulary::GValue;
use crate::span::Span;

/// One value of a sequence or a table: an integer, or the generalized value of a position of a
/// loopy game that is infinite, with the finite values of its options ascending (`∞{0, 2}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Int(i64),
    Infinite(Box<[u64]>),
}

impl Entry {
    /// The entry of a generalized value (a finite value past `i64::MAX` cannot occur: values
    /// are at most the number of options).
    pub fn of(value: GValue) -> Entry {
        match value {
            GValue::Finite(v) => Entry::Int(v as i64),
            GValue::Infinite(k) => Entry::Infinite(k.into()),
        }
    }

    /// The entry as a CSV field: an integer, or an infinite value as the quoted field
    /// `"inf{0,2}"`.
    fn csv(&self) -> String {
        match self {
            Entry::Int(v) => v.to_string(),
            Entry::Infinite(k) => format!("\"inf{{{}}}\"", joined(k, ",")),
        }
    }

    /// The entry as JSON: a number, or an infinite value as `{"infinite": [0, 2]}`.
    fn json(&self) -> String {
        match self {
            Entry::Int(v) => v.to_string(),
            Entry::Infinite(k) => format!("{{\"infinite\": [{}]}}", joined(k, ", ")),
        }
    }

    /// How many characters the entry takes when printed.
    fn width(&self) -> usize {
        self.to_string().chars().count()
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Int(v) => write!(f, "{v}"),
            Entry::Infinite(k) => write!(f, "∞{{{}}}", joined(k, ", ")),
        }
    }
}

fn joined(values: &[u64], separator: &str) -> String {
    let shown: Vec<String> = values.iter().map(u64::to_string).collect();
    shown.join(separator)
}

/// `text` right-aligned in `width` characters (`format!` pads by characters too, but `∞` is
/// one character of three bytes, so the padding is spelled out here).
fn padded(text: &str, width: usize) -> String {
    format!(
        "{}{text}",
        " ".repeat(width.saturating_sub(text.chars().count()))
    )
}

/// A range of one index of a result: its name (`n`, `a`), first and last value.
pub struct Axis {
    pub name: String,
    pub start: i64,
    pub last: i64,
}

/// The values a sweep statement found, before they are shown or saved.
pub enum Results {
    /// One value for each index of `axis`, in order.
    Sequence {
        label: String,
        axis: Axis,
        values: Vec<Entry>,
    },
    /// One row for each index of `rows`, one value in it for each index of `cols`.
    Table {
        label: String,
        rows: Axis,
        cols: Axis,
        grid: Vec<Vec<Entry>>,
    },
    /// The cells of a table whose value is 0, row by row.
    Ppos {
        label: String,
        rows: Axis,
        cols: Axis,
        found: Vec<(i64, i64)>,
    },
}

/// What `moves` found: the options of a position, the first of them with their values.
pub struct Moves {
    /// The position, as shown.
    pub position: String,
    /// How many options it has (all of them, not only those listed).
    pub count: u128,
    pub misere: bool,
    /// The position's value as said: `mex 3`, or an infinite value (which is no mex).
    pub value: String,
    /// The first options: each as shown, with its value.
    pub rows: Vec<(String, String)>,
    /// The list limit, and the position as the program wrote it, for the note on the rest.
    pub limit: usize,
    pub written: String,
}

/// What `win` found.
pub enum Win {
    /// No move wins, and best play never ends.
    Draw { position: String },
    /// A P-position: every move loses.
    Lost { position: String },
    /// An N-position: `count` winning moves, the first of them in `rows` (the move, and what it
    /// leaves).
    Winning {
        position: String,
        count: u128,
        rows: Vec<(String, String)>,
        limit: usize,
        written: String,
    },
}

impl Moves {
    /// The answer as printed.
    pub fn text(&self) -> String {
        let convention = if self.misere { "misère " } else { "" };
        let (count, value) = (self.count, &self.value);
        let shown = self.rows.len();
        format!(
            "{}: {count} option{}, {convention}{value}{}{}",
            self.position,
            if count == 1 { "" } else { "s" },
            aligned(&self.rows),
            left_out(count, shown, self.limit, "options", &self.written)
        )
    }
}

impl Win {
    /// The answer as printed.
    pub fn text(&self) -> String {
        match self {
            Win::Draw { position } => {
                format!("{position} is a draw: no move wins, and best play never ends")
            }
            Win::Lost { position } => format!("{position} is a P-position: every move loses"),
            Win::Winning {
                position,
                count,
                rows,
                limit,
                written,
            } => format!(
                "{position} is an N-position: {count} winning move{}{}{}",
                if *count == 1 { "" } else { "s" },
                aligned(rows),
                left_out(*count, rows.len(), *limit, "wins", written)
            ),
        }
    }
}

/// After the first moves of `win` or `moves`: how many were left out, and how to see them
/// (`list` is `wins` or `options`, `written` the position as the program wrote it).
fn left_out(count: u128, shown: usize, limit: usize, list: &str, written: &str) -> String {
    let more = count - shown as u128;
    if more == 0 {
        String::new()
    } else if count <= limit as u128 {
        format!("\n  ... and {more} more: `{list}({written})[{shown}..]` lists them")
    } else {
        format!(
            "\n  ... and {more} more, past the list limit of {limit}: \
             `len({list}({written}))` counts them"
        )
    }
}

/// Two columns, the first padded, one row a line, indented.
fn aligned(rows: &[(String, String)]) -> String {
    let width = rows
        .iter()
        .map(|(a, _)| a.chars().count())
        .max()
        .unwrap_or(0);
    rows.iter()
        .map(|(a, b)| match b.is_empty() {
            true => format!("\n  {a}"),
            false => format!("\n  {a:<width$}  {b}"),
        })
        .collect()
}

impl Results {
    /// The answer as printed.
    pub fn text(&self) -> String {
        match self {
            Results::Sequence {
                label,
                axis,
                values,
            } => {
                let (start, last) = (axis.start, axis.last);
                let mut text = format!("{label} {start}..={last}:");
                let width = last.max(0).to_string().len();
                let value_width = values.iter().map(Entry::width).max().unwrap_or(1);
                for (row, chunk) in values.chunks(10).enumerate() {
                    let first = start + row as i64 * 10;
                    let shown: Vec<String> = chunk
                        .iter()
                        .map(|v| padded(&v.to_string(), value_width))
                        .collect();
                    let _ = write!(text, "\n  {first:>width$}: {}", shown.join(" "));
                }
                text
            }
            Results::Table {
                label,
                rows,
                cols,
                grid,
            } => {
                let corner = format!("{}\\{}", rows.name, cols.name);
                let width = grid
                    .iter()
                    .flatten()
                    .map(Entry::width)
                    .chain([rows.last.to_string().len(), cols.last.to_string().len()])
                    .max()
                    .unwrap_or(1);
                let mut text = format!(
                    "{label} (rows {} = {}..={}, columns {} = {}..={})\n",
                    rows.name, rows.start, rows.last, cols.name, cols.start, cols.last
                );
                let label_width = rows.last.to_string().len().max(corner.len());
                let _ = write!(text, "{corner:>label_width$} |");
                for b in cols.start..=cols.last {
                    let _ = write!(text, " {b:>width$}");
                }
                for (i, line) in grid.iter().enumerate() {
                    let _ = write!(text, "\n{:>label_width$} |", rows.start + i as i64);
                    for v in line {
                        let _ = write!(text, " {}", padded(&v.to_string(), width));
                    }
                }
                text
            }
            Results::Ppos {
                label,
                rows,
                cols,
                found,
            } => {
                let shown: Vec<String> = found.iter().map(|(a, b)| format!("({a}, {b})")).collect();
                let header = format!(
                    "{} P-positions of {label} in {}..={}, {}..={}",
                    found.len(),
                    rows.start,
                    rows.last,
                    cols.start,
                    cols.last,
                );
                match shown.is_empty() {
                    true => header,
                    false => format!("{header}:{}", wrapped(&shown, PPOS_LINE)),
                }
            }
        }
    }

    /// The values as CSV: a header row naming the indices, then one row a value (or a
    /// P-position); an infinite value is the quoted field `"inf{0,2}"`.
    pub fn csv(&self) -> String {
        let mut out = String::new();
        match self {
            Results::Sequence { axis, values, .. } => {
                let _ = writeln!(out, "{},value", axis.name);
                for (i, v) in values.iter().enumerate() {
                    let _ = writeln!(out, "{},{}", axis.start + i as i64, v.csv());
                }
            }
            Results::Table {
                rows, cols, grid, ..
            } => {
                let _ = writeln!(out, "{},{},value", rows.name, cols.name);
                for (i, line) in grid.iter().enumerate() {
                    for (j, v) in line.iter().enumerate() {
                        let (a, b) = (rows.start + i as i64, cols.start + j as i64);
                        let _ = writeln!(out, "{a},{b},{}", v.csv());
                    }
                }
            }
            Results::Ppos {
                rows, cols, found, ..
            } => {
                let _ = writeln!(out, "{},{}", rows.name, cols.name);
                for (a, b) in found {
                    let _ = writeln!(out, "{a},{b}");
                }
            }
        }
        out
    }

    /// The values as one JSON object; an infinite value is `{"infinite": [0, 2]}`.
    pub fn json(&self) -> String {
        let axis = |a: &Axis| {
            format!(
                "{{\"name\": {}, \"start\": {}, \"last\": {}}}",
                json_string(&a.name),
                a.start,
                a.last
            )
        };
        let entries = |values: &[Entry]| {
            let shown: Vec<String> = values.iter().map(Entry::json).collect();
            format!("[{}]", shown.join(", "))
        };
        match self {
            Results::Sequence {
                label,
                axis: index,
                values,
            } => format!(
                "{{\"sequence\": {}, \"index\": {}, \"values\": {}}}\n",
                json_string(label),
                axis(index),
                entries(values)
            ),
            Results::Table {
                label,
                rows,
                cols,
                grid,
            } => {
                let lines: Vec<String> = grid.iter().map(|line| entries(line)).collect();
                format!(
                    "{{\"table\": {}, \"rows\": {}, \"columns\": {}, \"values\": [{}]}}\n",
                    json_string(label),
                    axis(rows),
                    axis(cols),
                    lines.join(", ")
                )
            }
            Results::Ppos {
                label,
                rows,
                cols,
                found,
            } => {
                let cells: Vec<String> =
                    found.iter().map(|&(a, b)| format!("[{a}, {b}]")).collect();
                format!(
                    "{{\"ppos\": {}, \"rows\": {}, \"columns\": {}, \"positions\": [{}]}}\n",
                    json_string(label),
                    axis(rows),
                    axis(cols),
                    cells.join(", ")
                )
            }
        }
    }

    /// Writes the results to `path` (under `root`) in the form its extension names; says what
    /// it wrote, and whether that replaced a file.
    pub fn save(&self, path: &str, span: Span, root: &Root) -> Result<String, Error> {
        let extension = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        let contents = match extension {
            "csv" => self.csv(),
            "json" => self.json(),
            "txt" => format!("{}\n", self.text()),
            _ => {
                return Err(Error::invalid(
                    format!("cannot tell what to write to `{path}`"),
                    span,
                    "name a file ending in `.csv`, `.json` or `.txt`",
                ))
            }
        };
        write_file(root, path, &contents, span)
    }
}

/// Writes the file a statement's `to "FILE"` names, under `root`; `span` is that name's. Says
/// what it wrote, and whether that replaced a file.
pub(super) fn write_file(
    root: &Root,
    path: &str,
    contents: &str,
    span: Span,
) -> Result<String, Error> {
    let cannot = |e: String| {
        Error::invalid(
            format!("cannot write `{path}`: {e}"),
            span,
            "check that the folder exists and can be written",
        )
    };
    let mut opened = files::open(root, std::path::Path::new(path), Access::Write)
        .map_err(|refused| Error::file(refused, path, span, cannot))?;
    opened
        .file
        .write_all(contents.as_bytes())
        .map_err(|e| cannot(e.to_string()))?;
    Ok(wrote(path, &opened))
}

/// The answer's line for a file written: `wrote FILE`, and whether it replaced a file.
pub fn wrote(path: &str, opened: &files::Opened) -> String {
    match opened.replaced {
        true => format!("wrote {path} (replacing the file that was there)"),
        false => format!("wrote {path}"),
    }
}

/// The most characters of a line of `ppos` pairs, after its indent.
const PPOS_LINE: usize = 76;

/// `items` separated by spaces, in lines of at most `line` characters, each on a new line
/// indented by two spaces.
fn wrapped(items: &[String], line: usize) -> String {
    let mut text = String::new();
    let mut used = line;
    for item in items {
        if used + 1 + item.len() > line {
            text.push_str("\n ");
            used = 0;
        }
        text.push(' ');
        text.push_str(item);
        used += 1 + item.len();
    }
    text
}

/// A string as a JSON literal.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
