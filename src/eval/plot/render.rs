//! Drawing a [`Picture`] on a plotters drawing area, PNG or SVG alike.
//!
//! The layout is computed here rather than left to plotters' defaults, which put ticks on cell
//! edges and the title against the top edge. Axes run half a cell (or a small margin of the
//! range) beyond the first and last index, so a tick stands at the centre of the cell or point it
//! names and no point is cut by an axis; ticks are integers a step of 1, 2 or 5 times a power of
//! ten apart, within the values shown. The colour bar has one band a value (a band per group of
//! values past [`BAR_STEPS`]), each tick at its band's centre, and its name runs up its right side.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::colour_map::ColourMap;
use super::{Picture, FONT};

/// The font sizes of a picture's title, tick labels and axis names (plotters' size).
pub(super) const TITLE_SIZE: f64 = 24.0;
const LABEL_SIZE: f64 = 15.0;
const NAME_SIZE: f64 = 17.0;

/// The band at the top of a picture that holds its title, and the room above the title.
pub(super) const TITLE_BAND: u32 = 56;
const ABOVE_TITLE: i32 = 16;

/// The width of a table's colour bar with its ticks, labels and name, and of the bar itself.
pub(super) const BAR_AREA: u32 = 150;
const BAR_WIDTH: u32 = 28;

/// Room around a table's cells, the colour bar apart: margins and the axes' label areas.
pub(super) const TABLE_MARGIN: u32 = 12;
pub(super) const TABLE_LABELS: (u32, u32) = (70, 54);

/// The white space in pixels between a table's cells and its frame.
const GAP: f64 = 3.0;

/// The most bands of colour in a colour bar.
const BAR_STEPS: u64 = 256;

/// The texts and colours of a picture: its own, or those its `plot` options set.
pub(super) struct Look<'a> {
    pub title: &'a str,
    pub x_name: &'a str,
    pub y_name: &'a str,
    pub bar_name: &'a str,
    pub colours: ColourMap,
}

/// An axis from `lo - pad` to `hi + pad` with ticks at the integers `ticks`, and only there.
fn axis(lo: i64, hi: i64, pad: f64, ticks: Vec<i64>) -> Axis {
    Axis {
        range: (lo as f64 - pad..hi as f64 + pad).into(),
        ticks: ticks.into_iter().map(|t| t as f64).collect(),
    }
}

/// A plotters coordinate of real numbers whose ticks are given, not chosen by plotters.
struct Axis {
    range: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.range.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, _: Hint) -> Vec<f64> {
        self.ticks.clone()
    }

    fn range(&self) -> Range<f64> {
        self.range.range()
    }
}

/// Integer ticks in `lo..=hi`, a step of 1, 2 or 5 times a power of ten apart, at most `most`.
pub(super) fn ticks(lo: i64, hi: i64, most: usize) -> Vec<i64> {
    let (lo, hi) = (i128::from(lo), i128::from(hi.max(lo)));
    let most = most.max(2) as i128;
    let mut power = 1i128;
    let step = loop {
        let fit = [1, 2, 5]
            .map(|m| m * power)
            .into_iter()
            .find(|&step| hi.div_euclid(step) - (lo + step - 1).div_euclid(step) < most);
        if let Some(step) = fit {
            break step;
        }
        power *= 10;
    };
    let first = (lo + step - 1).div_euclid(step) * step;
    (0..)
        .map(|k| first + k * step)
        .take_while(|&t| t <= hi)
        .map(|t| t as i64)
        .collect()
}

/// How many ticks fit along `pixels`, one a `spacing` pixels.
fn room(pixels: u32, spacing: u32) -> usize {
    (pixels / spacing).clamp(2, 12) as usize
}

/// A tick's label: the integer, or `∞` at the row of infinite values `infinite`.
fn label(v: &f64, infinite: Option<i64>) -> String {
    let v = v.round() as i64;
    match infinite {
        Some(row) if v == row => "∞".into(),
        _ => v.to_string(),
    }
}

/// Draws the title centred at the top of `area`, as large as fits its width, and gives the area
/// below it.
fn titled<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<DrawingArea<DB, Shift>, String> {
    let (width, _) = area.dim_in_pixel();
    let room = f64::from(width.saturating_sub(24).max(1));
    let measured = f64::from(text_width(title, TITLE_SIZE));
    let size = if measured > room {
        (TITLE_SIZE * room / measured).max(8.0)
    } else {
        TITLE_SIZE
    };
    let style = TextStyle::from((FONT, size)).pos(Pos::new(HPos::Center, VPos::Top));
    area.draw_text(title, &style, (width as i32 / 2, ABOVE_TITLE))
        .map_err(|e| e.to_string())?;
    Ok(area.split_vertically(TITLE_BAND).1)
}

/// The width in pixels of `text` at `size`, by the shipped font's advances.
pub(super) fn text_width(text: &str, size: f64) -> u32 {
    (FONT, size)
        .into_font()
        .box_size(text)
        .map_or(0, |(w, _)| w)
}

impl Picture {
    pub(super) fn render<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        look: &Look,
    ) -> Result<(), String> {
        let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        area.fill(&WHITE).map_err(fail)?;
        let below = titled(area, look.title)?;
        match self {
            Picture::Sequence { start, values, .. } => sequence(&below, *start, values, look),
            Picture::Table {
                rows, cols, grid, ..
            } => table(&below, (*rows, *cols), grid, look),
        }
    }
}

fn sequence<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    start: i64,
    values: &[Option<u64>],
    look: &Look,
) -> Result<(), String> {
    let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let last = start + values.len().max(1) as i64 - 1;
    let top = values.iter().flatten().copied().max().unwrap_or(0).max(1) as i64;
    // The infinite values, if any, on a row of their own above the finite ones.
    let infinite = values.contains(&None).then_some(top + 1);
    let highest = infinite.unwrap_or(top);
    let (width, height) = area.dim_in_pixel();
    let mut y_ticks = ticks(0, top, room(height, 40));
    y_ticks.extend(infinite);
    let x = axis(
        start,
        last,
        (0.01 * (last - start) as f64).max(0.5),
        ticks(start, last, room(width, 80)),
    );
    let y = axis(0, highest, (0.03 * highest as f64).max(0.5), y_ticks);
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .margin_top(0)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(x, y)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc(look.x_name)
        .y_desc(look.y_name)
        .x_label_formatter(&|v| label(v, None))
        .y_label_formatter(&|v| label(v, infinite))
        .label_style((FONT, LABEL_SIZE))
        .axis_desc_style((FONT, NAME_SIZE))
        .draw()
        .map_err(fail)?;
    let radius = if values.len() > 400 { 2 } else { 3 };
    let at = |i: usize| (start + i as i64) as f64;
    let points = (values.iter().enumerate())
        .filter_map(|(i, v)| Some(Circle::new((at(i), (*v)? as f64), radius, BLUE.filled())));
    chart.draw_series(points).map_err(fail)?;
    if let Some(row) = infinite {
        let marks = (values.iter().enumerate())
            .filter(|(_, v)| v.is_none())
            .map(|(i, _)| Cross::new((at(i), row as f64), radius + 2, RED.stroke_width(2)));
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
            .label_font((FONT, LABEL_SIZE))
            .draw()
            .map_err(fail)?;
    }
    Ok(())
}

fn table<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (rows, cols): (i64, i64),
    grid: &[Vec<Option<u64>>],
    look: &Look,
) -> Result<(), String> {
    let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let top = grid.iter().flatten().flatten().copied().max().unwrap_or(0);
    let last_row = rows + grid.len().max(1) as i64 - 1;
    let last_col = cols + grid.first().map_or(0, Vec::len).max(1) as i64 - 1;
    let (width, height) = area.dim_in_pixel();
    let (cells, bar) = area.split_horizontally(width.saturating_sub(BAR_AREA));
    // The cells stand `GAP` pixels inside the frame, so that the frame hides no cell's edge.
    let pad = |count: i64, pixels: u32| {
        let pixels = pixels
            .saturating_sub(2 * TABLE_MARGIN + TABLE_LABELS.0)
            .max(1);
        0.5 + GAP * count as f64 / f64::from(pixels)
    };
    let (row_pad, col_pad) = (
        pad(last_row - rows + 1, width.saturating_sub(BAR_AREA)),
        pad(last_col - cols + 1, height),
    );
    let x = axis(
        rows,
        last_row,
        row_pad,
        ticks(rows, last_row, room(width, 70)),
    );
    let y = axis(
        cols,
        last_col,
        col_pad,
        ticks(cols, last_col, room(height, 40)),
    );
    let mut chart = ChartBuilder::on(&cells)
        .margin(TABLE_MARGIN)
        .margin_top(0)
        .x_label_area_size(TABLE_LABELS.1)
        .y_label_area_size(TABLE_LABELS.0)
        .build_cartesian_2d(x, y)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(look.x_name)
        .y_desc(look.y_name)
        .x_label_formatter(&|v| label(v, None))
        .y_label_formatter(&|v| label(v, None))
        .label_style((FONT, LABEL_SIZE))
        .axis_desc_style((FONT, NAME_SIZE))
        .draw()
        .map_err(fail)?;
    let squares = grid.iter().enumerate().flat_map(|(i, line)| {
        line.iter().enumerate().map(move |(j, &v)| {
            let (a, b) = ((rows + i as i64) as f64, (cols + j as i64) as f64);
            let colour = look.colours.colour(v, top);
            Rectangle::new([(a - 0.5, b - 0.5), (a + 0.5, b + 0.5)], colour.filled())
        })
    });
    chart.draw_series(squares).map_err(fail)?;
    // The frame: the plotting area's edges, the axes' lines on two of them.
    let plotting = chart.plotting_area().strip_coord_spec();
    let (w, h) = plotting.dim_in_pixel();
    let frame = Rectangle::new(
        [(0, 0), (w as i32 - 1, h as i32 - 1)],
        BLACK.stroke_width(1),
    );
    plotting.draw(&frame).map_err(fail)?;
    colour_bar(&bar, grid, top, look)
}

/// The colour bar right of a table: a band a value from 0 to `top`, and a grey band marked `∞`
/// above them when some value is infinite.
fn colour_bar<DB: DrawingBackend>(
    bar: &DrawingArea<DB, Shift>,
    grid: &[Vec<Option<u64>>],
    top: u64,
    look: &Look,
) -> Result<(), String> {
    let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let top_value = top as i64;
    let infinite = (grid.iter().flatten().any(Option::is_none)).then_some(top_value + 1);
    let (_, height) = bar.dim_in_pixel();
    let mut bar_ticks = ticks(0, top_value, room(height, 36));
    bar_ticks.extend(infinite);
    let mut scale = ChartBuilder::on(bar)
        .margin_left(4)
        .margin_top(0)
        .margin_bottom(TABLE_MARGIN + TABLE_LABELS.1)
        .margin_right(BAR_AREA - 4 - BAR_WIDTH)
        .build_cartesian_2d(
            axis(0, 1, 0.0, Vec::new()),
            axis(0, infinite.unwrap_or(top_value), 0.5, Vec::new()),
        )
        .map_err(fail)?;
    let step = (top + 1).div_ceil(BAR_STEPS).max(1);
    let mut bands = vec![(0, 0)];
    bands.extend(
        (1..=top)
            .step_by(step as usize)
            .map(|v| (v, (v + step - 1).min(top))),
    );
    let bands = bands.into_iter().map(|(low, high)| {
        let colour = look.colours.colour(Some(low + (high - low) / 2), top);
        let (low, high) = (low as f64 - 0.5, high as f64 + 0.5);
        Rectangle::new([(0.0, low), (1.0, high)], colour.filled())
    });
    scale.draw_series(bands).map_err(fail)?;
    if let Some(band) = infinite {
        let band = band as f64;
        let cell = Rectangle::new(
            [(0.0, band - 0.5), (1.0, band + 0.5)],
            look.colours.colour(None, top).filled(),
        );
        scale.draw_series([cell]).map_err(fail)?;
    }
    let highest = infinite.unwrap_or(top_value) as f64 + 0.5;
    let outline = Rectangle::new([(0.0, -0.5), (1.0, highest)], BLACK.stroke_width(1));
    scale.draw_series([outline]).map_err(fail)?;
    // The ticks, their labels and the bar's name up its right side, drawn here: plotters'
    // right axis draws its ticks into the bar, under the bands.
    let (base_x, base_y) = bar.get_base_pixel();
    let at = |v: f64| {
        let (x, y) = scale.backend_coord(&(1.0, v));
        (x - base_x, y - base_y)
    };
    let label_style = TextStyle::from((FONT, LABEL_SIZE)).pos(Pos::new(HPos::Left, VPos::Center));
    let mut widest = 0;
    for tick in &bar_ticks {
        let (x, y) = at(*tick as f64);
        bar.draw(&PathElement::new([(x, y), (x + 5, y)], BLACK))
            .map_err(fail)?;
        let text = label(&(*tick as f64), infinite);
        widest = widest.max(text_width(&text, LABEL_SIZE) as i32);
        bar.draw_text(&text, &label_style, (x + 8, y))
            .map_err(fail)?;
    }
    let (x, low) = at(-0.5);
    let (_, high) = at(highest);
    let style = TextStyle::from((FONT, NAME_SIZE))
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Center, VPos::Center));
    let name_x = x + 8 + widest + 10 + NAME_SIZE as i32 / 2;
    bar.draw_text(look.bar_name, &style, (name_x, (low + high) / 2))
        .map_err(fail)
}
