//! Pictures of Grundy values: a sequence as points (value against heap), a two-counter game
//! as a colour map with a colour bar. Each has a title (the game and its range), axes with
//! ticks and their names; `plot`'s options set the title, the names and the colour map. An
//! infinite value of a loopy game is drawn apart: in a sequence, a red cross on a row of its own
//! above the values, marked `∞` and named in a legend; in a table, a grey cell, whose band at the
//! top of the colour bar is marked `∞`. PNG, or SVG when the file name ends in `.svg`. The text
//! is DejaVu Sans, shipped inside the binary (`assets/fonts`), so a PNG needs no system font; an
//! SVG's text is real text (`<text>`, editable and searchable) that names DejaVu Sans first and
//! then the fonts of the same metrics, so it looks the same wherever DejaVu Sans is installed.

mod colour_map;
mod render;

use std::io::Write as _;
use std::sync::Once;

use image::codecs::png::PngEncoder;
use image::{ColorType, ImageEncoder};
use plotters::prelude::*;

use self::colour_map::ColourMap;
use self::render::Look;
use super::answer::Layout;
use super::expr::Eval;
use super::results::{Axis, Entry, Results};
use super::value::Shape;
use super::Interpreter;
use crate::error::Error;
use crate::files::{self, Access};
use crate::game::Part;
use crate::span::Span;
use crate::syntax::ast::{Expr, Plot, PlotOptions};

/// The size of a sequence plot, in pixels, unless `size W x H` says otherwise.
pub const SEQUENCE_SIZE: (u32, u32) = (1200, 600);

/// The side of a table plot's cells, in pixels: as large as fits `TABLE_AREA`, within these;
/// the cells of a long thin table are stretched across at least a quarter of it.
const CELL: (u32, u32) = (1, 24);
const TABLE_AREA: u32 = 800;

/// The most bytes of an SVG's text for each value drawn: a `<rect>` or `<circle>` of
/// coordinates below 8192 takes under 100.
const SVG_PER_VALUE: usize = 128;

/// The most bytes of an SVG's text besides its values and the texts given: the frame, the axes
/// and their ticks, the colour bar.
const SVG_FRAME: usize = 256 << 10;

/// The most bytes the SVG text of a picture of `values` values can take (a text given may be
/// written escaped, `&` as `&amp;`, six bytes for one).
fn svg_bound(values: usize, look: &Look) -> usize {
    let texts = [look.title, look.x_name, look.y_name, look.bar_name];
    let texts: usize = texts.iter().map(|t| t.len()).sum();
    values * SVG_PER_VALUE + SVG_FRAME + 6 * texts
}

/// The smallest and largest side of a picture that `size` may ask for.
const SIDE: (i64, i64) = (200, 8192);

/// The font every text of a picture is drawn in. For a PNG this is only the name the shipped
/// font is registered under; an SVG writes it as the texts' `font-family`, so it lists the
/// fonts that DejaVu Sans was made from (Bitstream Vera, whose metrics it keeps) and then a
/// viewer's own sans-serif.
const FONT: &str = "DejaVu Sans, Bitstream Vera Sans, Verdana, sans-serif";

/// DejaVu Sans, the font of every text of a picture.
const FONT_FILE: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

static REGISTER_FONT: Once = Once::new();

fn register_font() {
    REGISTER_FONT.call_once(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_FILE)
            .unwrap_or_else(|_| panic!("the bundled DejaVu Sans is a valid font"));
    });
}

pub(super) fn draw(
    interp: &mut Interpreter,
    plot: &Plot,
    file: &str,
    file_span: Span,
    options: &PlotOptions,
    source: &str,
) -> Result<String, Error> {
    let size = match &options.size {
        Some((width, height)) => Some((side(interp, width)?, side(interp, height)?)),
        None => None,
    };
    let colours = match &options.colours {
        None => ColourMap::default(),
        Some(name) => ColourMap::named(&name.name).ok_or_else(|| {
            Error::invalid(
                format!("no colour map `{}`", name.name),
                name.span,
                format!("the colour maps are {}", colour_map::NAMES),
            )
        })?,
    };
    let picture = match plot {
        Plot::Sequence {
            game,
            range,
            misere,
        } => sequence(interp, game, range, *misere)?,
        Plot::Table {
            game,
            rows,
            cols,
            misere,
        } => table(interp, game, rows, cols, *misere)?,
        Plot::SequenceOf { value, axis } => {
            let mut answer = interp.kept_answer(value.span);
            interp.sequence_of(value, axis, source, &mut answer)?;
            Picture::of(answer.into_results(), value.span)?
        }
        Plot::TableOf { value, rows, cols } => {
            let mut answer = interp.kept_answer(value.span);
            interp.table_of(value, rows, cols, false, source, &mut answer)?;
            Picture::of(answer.into_results(), value.span)?
        }
    };
    let (title, (x_name, y_name), bar_name) = match &picture {
        Picture::Sequence { title, names, .. } => (title, names, "value"),
        Picture::Table {
            title, names, bar, ..
        } => (title, names, bar.as_str()),
    };
    let look = Look {
        title: options.title.as_deref().unwrap_or(title),
        x_name: options.xlabel.as_deref().unwrap_or(x_name),
        y_name: options.ylabel.as_deref().unwrap_or(y_name),
        bar_name: options.barlabel.as_ref().map_or(bar_name, |(b, _)| b),
        colours,
    };
    register_font();
    let mut replaced = false;
    let open = || {
        let cannot = |reason: String| {
            Error::invalid(
                format!("cannot write the picture to `{file}`: {reason}"),
                file_span,
                "check that the folder exists and can be written",
            )
        };
        let root = &interp.engine.limits.root;
        files::open(root, std::path::Path::new(file), Access::Write)
            .map_err(|refused| Error::file(refused, file, file_span, cannot))
    };
    let size = size.unwrap_or_else(|| picture.default_size(look.title));
    // A PNG is drawn on a bitmap of three bytes a pixel, held until it is written.
    // The values drawn are held too.
    let mut canvas = interp.limits().charge();
    let values = match &picture {
        Picture::Sequence { values, .. } => values.len(),
        Picture::Table { grid, .. } => grid.iter().map(Vec::len).sum(),
    };
    let mut held = crate::game::budget::boxed(values * size_of::<Option<u64>>());
    // An SVG's text is held until it is written, in a string made as large as it can get.
    let svg_bytes = svg_bound(values, &look);
    held += crate::game::budget::boxed(match file.ends_with(".svg") {
        true => svg_bytes,
        false => size.0 as usize * size.1 as usize * 3,
    });
    canvas
        .grow(held)
        .map_err(|over| super::expr::over_memory(over, file_span))?;
    let result = if file.ends_with(".svg") {
        let mut svg = String::with_capacity(svg_bytes);
        let drawn = {
            let backend = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            picture
                .render(&backend, &look)
                .and_then(|()| backend.present().map_err(|e| e.to_string()))
        };
        match drawn {
            Ok(()) => {
                let opened = open()?;
                replaced = opened.replaced;
                (&opened.file)
                    .write_all(svg.as_bytes())
                    .map_err(|e| e.to_string())
            }
            Err(reason) => Err(reason),
        }
    } else {
        let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
        let drawn = {
            let backend = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
            picture
                .render(&backend, &look)
                .and_then(|()| backend.present().map_err(|e| e.to_string()))
        };
        match drawn {
            Ok(()) => {
                let opened = open()?;
                replaced = opened.replaced;
                let encoder = PngEncoder::new(std::io::BufWriter::new(&opened.file));
                (encoder.write_image(&pixels, size.0, size.1, ColorType::Rgb8))
                    .map_err(|e| e.to_string())
            }
            Err(reason) => Err(reason),
        }
    };
    result.map_err(|reason| {
        Error::invalid(
            format!("cannot write the picture to `{file}`: {reason}"),
            file_span,
            "check that the folder exists and can be written",
        )
    })?;
    let replacing = match replaced {
        true => ", replacing the file that was there",
        false => "",
    };
    Ok(format!(
        "wrote {file} ({} x {} pixels{replacing})",
        size.0, size.1
    ))
}

/// One side of `size W x H`, in pixels.
fn side(interp: &mut Interpreter, expr: &Expr) -> Result<u32, Error> {
    let pixels = Eval::new(interp).int(expr)?;
    if !(SIDE.0..=SIDE.1).contains(&pixels) {
        return Err(Error::invalid(
            format!("a picture of {pixels} pixels a side"),
            expr.span,
            format!("a side is {} to {} pixels", SIDE.0, SIDE.1),
        ));
    }
    Ok(pixels as u32)
}

/// What a picture shows: the values (`None` for an infinite value), where they start, and the
/// names of its axes (the index and the value of a sequence; the rows and columns of a table).
enum Picture {
    Sequence {
        title: String,
        start: i64,
        values: Vec<Option<u64>>,
        names: (String, String),
    },
    Table {
        title: String,
        rows: i64,
        cols: i64,
        grid: Vec<Vec<Option<u64>>>,
        names: (String, String),
        /// The name of the colour bar: what the values are.
        bar: String,
    },
}

/// A range of an index in a title, as a paper writes it: `0 ≤ n ≤ 100`, or `n = 5`.
fn bounds(name: &str, start: i64, last: i64) -> String {
    if start == last {
        format!("{name} = {start}")
    } else {
        format!("{start} ≤ {name} ≤ {last}")
    }
}

/// A value that a picture can show: from 0 up, or infinite (`None`).
fn shown(v: &Entry, at: impl FnOnce() -> String, span: Span) -> Result<Option<u64>, Error> {
    match v {
        Entry::Infinite(_) => Ok(None),
        &Entry::Int(v) => u64::try_from(v).map(Some).map_err(|_| {
            Error::invalid(
                format!("a picture of the value {v} (at {})", at()),
                span,
                "a picture shows values from 0 up: plot the expression plus a constant",
            )
        }),
    }
}

fn sequence(
    interp: &mut Interpreter,
    game: &Expr,
    range: &Expr,
    misere: bool,
) -> Result<Picture, Error> {
    let game = interp.heap_game(game, "plot sequence")?;
    let (start, last) = interp.finite_range(range)?;
    interp.bound_size(last as i128 - start as i128 + 1, "this plot", range.span)?;
    let mut values = Vec::new();
    for n in start..=last {
        let part = Part {
            game: game.id,
            state: Box::new([n]),
        };
        values.push(if misere {
            Some(interp.misere_value_at(part, range.span)?)
        } else {
            interp.part_gvalue_at(&part, range.span)?.finite()
        });
    }
    Ok(Picture::Sequence {
        title: format!(
            "{}: {}Grundy values, {}",
            game.display,
            misere_word(misere),
            bounds("n", start, last)
        ),
        start,
        values,
        names: (
            "heap n".into(),
            format!("{}Grundy value", misere_word(misere)),
        ),
    })
}

fn table(
    interp: &mut Interpreter,
    game: &Expr,
    rows: &Expr,
    cols: &Expr,
    misere: bool,
) -> Result<Picture, Error> {
    let game_value = interp.tuple_game(game, "plot table")?;
    debug_assert_eq!(game_value.shape, Shape::Tuple(2));
    let (r0, r1) = interp.finite_range(rows)?;
    let (c0, c1) = interp.finite_range(cols)?;
    let mut answer = interp.kept_answer(rows.span.to(cols.span));
    let axis = |name: &str, start, last| Axis {
        name: name.into(),
        start,
        last,
    };
    let layout = Layout::table(String::new(), axis("a", r0, r1), axis("b", c0, c1), false);
    answer.begin(layout)?;
    interp.grid(&game_value, rows, cols, misere, "plot", &mut answer)?;
    let Results::Table { grid, .. } = answer.into_results() else {
        unreachable!("a table's answer is a table")
    };
    let grid = grid
        .into_iter()
        .map(|line| line.into_iter().map(|v| shown_entry(&v)).collect())
        .collect();
    Ok(Picture::Table {
        title: format!(
            "{}: {}Grundy values, {}, {}",
            game_value.display,
            misere_word(misere),
            bounds("a", r0, r1),
            bounds("b", c0, c1)
        ),
        rows: r0,
        cols: c0,
        grid,
        names: ("a (first counter)".into(), "b (second counter)".into()),
        bar: "Grundy value".into(),
    })
}

/// How a title names misère values.
fn misere_word(misere: bool) -> &'static str {
    if misere {
        "misère "
    } else {
        ""
    }
}

/// A value of a game's table: never negative.
fn shown_entry(v: &Entry) -> Option<u64> {
    match v {
        &Entry::Int(v) => Some(v.unsigned_abs()),
        Entry::Infinite(_) => None,
    }
}

impl Picture {
    /// The picture of the values of an expression (`plot sequence EXPR for n in R`, `plot table
    /// EXPR for a in R, b in S`); `span` is the expression's, where a negative value is shown.
    fn of(results: Results, span: Span) -> Result<Picture, Error> {
        match results {
            Results::Sequence {
                label,
                axis,
                values,
            } => Ok(Picture::Sequence {
                title: format!("{label}, {}", bounds(&axis.name, axis.start, axis.last)),
                start: axis.start,
                values: (values.iter().enumerate())
                    .map(|(i, v)| {
                        let at = || format!("{} = {}", axis.name, axis.start + i as i64);
                        shown(v, at, span)
                    })
                    .collect::<Result<_, _>>()?,
                names: (axis.name, "value".into()),
            }),
            Results::Table {
                label,
                rows,
                cols,
                grid,
            } => {
                let mut shown_grid = Vec::with_capacity(grid.len());
                for (i, line) in grid.iter().enumerate() {
                    let mut shown_line = Vec::with_capacity(line.len());
                    for (j, v) in line.iter().enumerate() {
                        let (a, b) = (rows.start + i as i64, cols.start + j as i64);
                        let at = || format!("{} = {a}, {} = {b}", rows.name, cols.name);
                        shown_line.push(shown(v, at, span)?);
                    }
                    shown_grid.push(shown_line);
                }
                Ok(Picture::Table {
                    title: format!(
                        "{label}, {}, {}",
                        bounds(&rows.name, rows.start, rows.last),
                        bounds(&cols.name, cols.start, cols.last)
                    ),
                    rows: rows.start,
                    cols: cols.start,
                    grid: shown_grid,
                    names: (rows.name, cols.name),
                    bar: "value".into(),
                })
            }
            Results::Ppos { .. } => unreachable!("a picture is drawn of values, not P-positions"),
        }
    }

    /// The size unless `size` says otherwise: a table's cells as large as fit `TABLE_AREA`, with
    /// room for the axes and the colour bar, and wide enough for the whole title.
    fn default_size(&self, title: &str) -> (u32, u32) {
        match self {
            Picture::Sequence { .. } => SEQUENCE_SIZE,
            Picture::Table { grid, .. } => {
                let rows = grid.len().max(1) as u32;
                let cols = grid.first().map_or(1, |r| r.len().max(1)) as u32;
                let cell = (TABLE_AREA / rows.max(cols)).clamp(CELL.0, CELL.1);
                let frame = (
                    2 * render::TABLE_MARGIN + render::TABLE_LABELS.0 + render::BAR_AREA,
                    render::TITLE_BAND + render::TABLE_MARGIN + render::TABLE_LABELS.1,
                );
                let title = render::text_width(title, render::TITLE_SIZE) + 48;
                let side = |n: u32, frame: u32| {
                    let cells = n.saturating_mul(cell).max(TABLE_AREA / 4);
                    (cells + frame).min(SIDE.1 as u32)
                };
                (side(rows, frame.0).max(title), side(cols, frame.1))
            }
        }
    }
}
