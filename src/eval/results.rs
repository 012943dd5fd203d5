//! What `sequence`, `table` and `ppos` found, shown as text (their files are written as they
//! are found, by [`super::answer`]); and what `moves` and `win` found, shown as text.

use std::fmt::{self, Write as _};
use std::io::{self, Write};

use crate::game::vocabulary::GValue;

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
    pub(super) fn csv(&self) -> String {
        match self {
            Entry::Int(v) => v.to_string(),
            Entry::Infinite(k) => format!("\"inf{{{}}}\"", joined(k, ",")),
        }
    }

    /// The entry as JSON: a number, or an infinite value as `{"infinite": [0, 2]}`.
    pub(super) fn json(&self) -> String {
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
    /// Writes the answer as printed, line by line (the whole text is never held).
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Results::Sequence {
                label,
                axis,
                values,
            } => {
                let (start, last) = (axis.start, axis.last);
                write!(out, "{label} {start}..={last}:")?;
                let width = last.max(0).to_string().len();
                let value_width = values.iter().map(Entry::width).max().unwrap_or(1);
                for (row, chunk) in values.chunks(10).enumerate() {
                    let first = start + row as i64 * 10;
                    let shown: Vec<String> = chunk
                        .iter()
                        .map(|v| padded(&v.to_string(), value_width))
                        .collect();
                    write!(out, "\n  {first:>width$}: {}", shown.join(" "))?;
                }
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
                writeln!(
                    out,
                    "{label} (rows {} = {}..={}, columns {} = {}..={})",
                    rows.name, rows.start, rows.last, cols.name, cols.start, cols.last
                )?;
                let label_width = rows.last.to_string().len().max(corner.len());
                write!(out, "{corner:>label_width$} |")?;
                for b in cols.start..=cols.last {
                    write!(out, " {b:>width$}")?;
                }
                for (i, line) in grid.iter().enumerate() {
                    write!(out, "\n{:>label_width$} |", rows.start + i as i64)?;
                    for v in line {
                        write!(out, " {}", padded(&v.to_string(), width))?;
                    }
                }
            }
            Results::Ppos {
                label,
                rows,
                cols,
                found,
            } => {
                write!(
                    out,
                    "{} P-positions of {label} in {}..={}, {}..={}",
                    found.len(),
                    rows.start,
                    rows.last,
                    cols.start,
                    cols.last,
                )?;
                if !found.is_empty() {
                    write!(out, ":")?;
                    wrapped(out, found, PPOS_LINE)?;
                }
            }
        }
        Ok(())
    }
}

/// The most characters of a line of `ppos` pairs, after its indent.
const PPOS_LINE: usize = 76;

/// The cells `(a, b)` separated by spaces, in lines of at most `line` characters, each on a new
/// line indented by two spaces.
fn wrapped(out: &mut dyn Write, cells: &[(i64, i64)], line: usize) -> io::Result<()> {
    let mut used = line;
    for (a, b) in cells {
        let item = format!("({a}, {b})");
        if used + 1 + item.len() > line {
            write!(out, "\n ")?;
            used = 0;
        }
        write!(out, " {item}")?;
        used += 1 + item.len();
    }
    Ok(())
}

/// A string as a JSON literal.
pub(super) fn json_string(text: &str) -> String {
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
