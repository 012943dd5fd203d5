//! Pictures of Grundy values: a sequence as points (value against heap), a two-counter game
//! as a colour map with a colour bar. Each has a title (the game and its range), axes with
//! ticks and their names. An infinite value of a loopy game is drawn apart: in a sequence, a red
//! cross on a row of its own above the values, marked `∞` and named in a legend; in a table, a
//! grey cell, whose band at the top of the colour bar is marked `∞`. PNG, or SVG when the file name ends in `.svg`; the text is drawn with
//! DejaVu Sans, shipped inside the binary (`assets/fonts`), so no system font is needed: in an
//! SVG as the font's glyph outlines ([`outline`]), so no viewer's font is needed either.

mod outline;

use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::answer::Layout;
use super::expr::Eval;
use super::results::{Axis, Entry, Results};
use super::value::Shape;
use super::Interpreter;
use crate::error::Error;
use crate::game::Part;
use crate::span::Span;
use crate::syntax::ast::{Expr, Plot};

/// The size of a sequence plot, in pixels, unless `size W x H` says otherwise.
pub const SEQUENCE_SIZE: (u32, u32) = (1200, 600);

/// The side of a table plot's cells, in pixels: as large as fits `TABLE_AREA`, within these.
const CELL: (u32, u32) = (1, 24);
const TABLE_AREA: u32 = 800;

/// The smallest and largest side of a picture that `size` may ask for.
const SIDE: (i64, i64) = (200, 8192);

/// Room around a table's cells: the title and margins, the axes' labels, the colour bar.
const TABLE_FRAME: (u32, u32) = (90 + 130, 90 + 40);

/// The most bands of colour in a colour bar.
const BAR_STEPS: u64 = 256;

/// The font family every text of a picture is drawn in.
const FONT: &str = "sans-serif";

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
    size: Option<&(Expr, Expr)>,
    source: &str,
) -> Result<String, Error> {
    let size = match size {
        Some((width, height)) => Some((side(interp, width)?, side(interp, height)?)),
        None => None,
    };
    let picture = match plot {
        Plot::Sequence { game, range } => sequence(interp, game, range)?,
        Plot::Table { game, rows, cols } => table(interp, game, rows, cols)?,
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
    let size = size.unwrap_or_else(|| picture.default_size());
    // A PNG is drawn on a bitmap of three bytes a pixel, held until it is written.
    // The values drawn are held too.
    let mut canvas = interp.limits().charge();
    let values = match &picture {
        Picture::Sequence { values, .. } => values.len(),
        Picture::Table { grid, .. } => grid.iter().map(Vec::len).sum(),
    };
    let mut held = crate::game::budget::boxed(values * size_of::<Option<u64>>());
    if !file.ends_with(".svg") {
        held += crate::game::budget::boxed(size.0 as usize * size.1 as usize * 3);
    }
    canvas
        .grow(held)
        .map_err(|over| super::expr::over_memory(over, file_span))?;
    register_font();
    let result = if file.ends_with(".svg") {
        let mut svg = String::new();
        let drawn = {
            let backend = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            picture
                .render(&backend)
                .and_then(|()| backend.present().map_err(|e| e.to_string()))
        };
        match drawn {
            Ok(()) => {
                let outlined = outline::outline_texts(&svg, FONT_FILE).map_err(|reason| {
                    Error::invalid(
                        format!("cannot draw the text of the picture `{file}`: {reason}"),
                        file_span,
                        "this is a fault of grundy's SVG writer: write a PNG instead",
                    )
                })?;
                std::fs::write(file, outlined).map_err(|e| e.to_string())
            }
            Err(reason) => Err(reason),
        }
    } else {
        let backend = BitMapBackend::new(file, size).into_drawing_area();
        picture
            .render(&backend)
            .and_then(|()| backend.present().map_err(|e| e.to_string()))
    };
    result.map_err(|reason| {
        Error::invalid(
            format!("cannot write the picture to `{file}`: {reason}"),
            file_span,
            "check that the folder exists and can be written",
        )
    })?;
    Ok(format!("wrote {file} ({} x {} pixels)", size.0, size.1))
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
    },
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

/// The colour of an infinite value in a table.
const INFINITE_CELL: RGBColor = RGBColor(190, 190, 190);

/// The mark of an infinite value in a sequence.
fn infinite_mark(at: (i64, i64), size: i32) -> Cross<(i64, i64), i32> {
    Cross::new(at, size, RED.stroke_width(2))
}

/// The tick labels of a value axis whose row `infinite` (if any) holds the infinite values: none
/// from that row up (the row is marked `∞` by [`mark_infinite`]).
fn value_label(v: &i64, infinite: Option<i64>) -> String {
    match infinite {
        Some(row) if *v >= row => String::new(),
        _ => v.to_string(),
    }
}

/// Writes `∞` left of the pixel `at` (the left end of the row of infinite values, or the right
/// edge of the colour bar's band of them, then `right` is true and it goes to the right).
fn mark_infinite<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    right: bool,
) -> Result<(), String> {
    let x = if right { at.0 + 8 } else { at.0 - 24 };
    let text = Text::new("∞", (x, at.1 - 13), (FONT, 24));
    area.draw(&text).map_err(|e| e.to_string())
}

fn sequence(interp: &mut Interpreter, game: &Expr, range: &Expr) -> Result<Picture, Error> {
    let game = interp.heap_game(game, "plot sequence")?;
    let (start, last) = interp.finite_range(range)?;
    interp.bound_size(last as i128 - start as i128 + 1, "this plot", range.span)?;
    let mut values = Vec::new();
    for n in start..=last {
        let part = Part {
            game: game.id,
            state: Box::new([n]),
        };
        values.push(interp.part_gvalue_at(&part, range.span)?.finite());
    }
    Ok(Picture::Sequence {
        title: format!("{}: Grundy values of heaps {start}..={last}", game.display),
        start,
        values,
        names: ("heap n".into(), "Grundy value".into()),
    })
}

fn table(
    interp: &mut Interpreter,
    game: &Expr,
    rows: &Expr,
    cols: &Expr,
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
    interp.grid(&game_value, rows, cols, false, "plot", &mut answer)?;
    let Results::Table { grid, .. } = answer.into_results() else {
        unreachable!("a table's answer is a table")
    };
    let grid = grid
        .into_iter()
        .map(|line| line.into_iter().map(|v| shown_entry(&v)).collect())
        .collect();
    Ok(Picture::Table {
        title: format!(
            "{}: Grundy values, a = {r0}..={r1}, b = {c0}..={c1}",
            game_value.display
        ),
        rows: r0,
        cols: c0,
        grid,
        names: ("a (first counter)".into(), "b (second counter)".into()),
    })
}

/// A value of a game's table: never negative.
fn shown_entry(v: &Entry) -> Option<u64> {
    match v {
        &Entry::Int(v) => Some(v.unsigned_abs()),
        Entry::Infinite(_) => None,
    }
}

/// The colour of a value in a table, `top` the largest finite one: 0 (the P-positions) black,
/// then from blue to red; an infinite value grey.
fn colour(v: Option<u64>, top: u64) -> RGBAColor {
    let Some(v) = v else {
        return INFINITE_CELL.to_rgba();
    };
    if v == 0 {
        BLACK.to_rgba()
    } else {
        let t = v as f64 / top.max(1) as f64;
        HSLColor(0.7 * (1.0 - t), 0.9, 0.3 + 0.4 * t).to_rgba()
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
                title: format!("{label}, {} = {}..={}", axis.name, axis.start, axis.last),
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
                        "{label}, {} = {}..={}, {} = {}..={}",
                        rows.name, rows.start, rows.last, cols.name, cols.start, cols.last
                    ),
                    rows: rows.start,
                    cols: cols.start,
                    grid: shown_grid,
                    names: (rows.name, cols.name),
                })
            }
            Results::Ppos { .. } => unreachable!("a picture is drawn of values, not P-positions"),
        }
    }

    fn default_size(&self) -> (u32, u32) {
        match self {
            Picture::Sequence { .. } => SEQUENCE_SIZE,
            Picture::Table { grid, .. } => {
                let rows = grid.len().max(1) as u32;
                let cols = grid.first().map_or(1, |r| r.len().max(1)) as u32;
                let cell = (TABLE_AREA / rows.max(cols)).clamp(CELL.0, CELL.1);
                let side = |n: u32, frame: u32| (n.saturating_mul(cell) + frame).min(SIDE.1 as u32);
                (side(rows, TABLE_FRAME.0), side(cols, TABLE_FRAME.1))
            }
        }
    }

    fn render<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        area.fill(&WHITE).map_err(fail)?;
        match self {
            Picture::Sequence {
                title,
                start,
                values,
                names,
            } => {
                let last = start + values.len().max(1) as i64 - 1;
                let top = values.iter().flatten().copied().max().unwrap_or(0).max(1) as i64;
                // The infinite values, if any, on a row of their own above the finite ones.
                let infinite = values.contains(&None).then_some(top + 1);
                let mut chart = ChartBuilder::on(area)
                    .caption(title, (FONT, 24))
                    .margin(16)
                    .x_label_area_size(50)
                    .y_label_area_size(60)
                    .build_cartesian_2d(*start..last + 1, 0..infinite.unwrap_or(top) + 1)
                    .map_err(fail)?;
                chart
                    .configure_mesh()
                    .light_line_style(WHITE)
                    .x_desc(&names.0)
                    .y_desc(&names.1)
                    .y_label_formatter(&|v| value_label(v, infinite))
                    .label_style((FONT, 15))
                    .axis_desc_style((FONT, 17))
                    .draw()
                    .map_err(fail)?;
                let radius = if values.len() > 400 { 2 } else { 3 };
                let at = |i: usize| start + i as i64;
                let points = (values.iter().enumerate()).filter_map(|(i, v)| {
                    Some(Circle::new((at(i), (*v)? as i64), radius, BLUE.filled()))
                });
                chart.draw_series(points).map_err(fail)?;
                if let Some(row) = infinite {
                    mark_infinite(area, chart.backend_coord(&(*start, row)), false)?;
                    let marks = (values.iter().enumerate())
                        .filter(|(_, v)| v.is_none())
                        .map(|(i, _)| infinite_mark((at(i), row), radius + 2));
                    chart
                        .draw_series(marks)
                        .map_err(fail)?
                        .label("infinite value (∞): a loopy game's position")
                        .legend(|(x, y)| Cross::new((x + 10, y), 5, RED.stroke_width(2)));
                    chart
                        .configure_series_labels()
                        .position(SeriesLabelPosition::UpperRight)
                        .background_style(WHITE.mix(0.9))
                        .border_style(BLACK)
                        .label_font((FONT, 15))
                        .draw()
                        .map_err(fail)?;
                }
            }
            Picture::Table {
                title,
                rows,
                cols,
                grid,
                names,
            } => {
                let top = grid.iter().flatten().flatten().copied().max().unwrap_or(0);
                // The band of the infinite values, if any, at the top of the colour bar.
                let infinite = grid.iter().flatten().any(Option::is_none);
                let infinite_band = infinite.then_some(top as i64 + 1);
                let height = grid.first().map_or(0, Vec::len) as i64;
                let titled = area.titled(title, (FONT, 24)).map_err(fail)?;
                let (width, _) = titled.dim_in_pixel();
                let (cells, bar) = titled.split_horizontally(width.saturating_sub(130));
                let mut chart = ChartBuilder::on(&cells)
                    .margin(12)
                    .x_label_area_size(50)
                    .y_label_area_size(60)
                    .build_cartesian_2d(
                        *rows..rows + grid.len().max(1) as i64,
                        *cols..cols + height.max(1),
                    )
                    .map_err(fail)?;
                chart
                    .configure_mesh()
                    .disable_mesh()
                    .x_desc(&names.0)
                    .y_desc(&names.1)
                    .label_style((FONT, 15))
                    .axis_desc_style((FONT, 17))
                    .draw()
                    .map_err(fail)?;
                let squares = grid.iter().enumerate().flat_map(|(i, line)| {
                    line.iter().enumerate().map(move |(j, &v)| {
                        let (a, b) = (rows + i as i64, cols + j as i64);
                        Rectangle::new([(a, b), (a + 1, b + 1)], colour(v, top).filled())
                    })
                });
                chart.draw_series(squares).map_err(fail)?;
                let mut scale = ChartBuilder::on(&bar)
                    .margin_top(12)
                    .margin_bottom(62)
                    .margin_right(12)
                    .caption("value", (FONT, 17))
                    .set_label_area_size(LabelAreaPosition::Right, 50)
                    .build_cartesian_2d(0..1i64, 0..infinite_band.unwrap_or(top as i64) + 1)
                    .map_err(fail)?;
                scale
                    .configure_mesh()
                    .disable_mesh()
                    .disable_x_axis()
                    .y_label_formatter(&|v| value_label(v, infinite_band))
                    .label_style((FONT, 15))
                    .draw()
                    .map_err(fail)?;
                let step = (top / BAR_STEPS).max(1) as usize;
                let steps = (0..=top as i64).step_by(step).map(|v| {
                    let end = (v + step as i64).min(top as i64 + 1);
                    Rectangle::new([(0, v), (1, end)], colour(Some(v as u64), top).filled())
                });
                scale.draw_series(steps).map_err(fail)?;
                if let Some(band) = infinite_band {
                    let cell =
                        Rectangle::new([(0, band), (1, band + 1)], colour(None, top).filled());
                    scale.draw_series([cell]).map_err(fail)?;
                    let (x, low) = scale.backend_coord(&(1, band));
                    let (_, high) = scale.backend_coord(&(1, band + 1));
                    mark_infinite(area, (x, (low + high) / 2), true)?;
                }
            }
        }
        Ok(())
    }
}
