//! Pictures of Grundy values: a sequence as points (value against heap), a two-counter game
//! as a colour map. PNG, or SVG when the file name ends in `.svg`. The pictures carry no text,
//! so they need no fonts.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::value::Shape;
use super::Interpreter;
use crate::error::Error;
use crate::game::Part;
use crate::span::Span;
use crate::syntax::ast::{Expr, Plot};

/// The size of a sequence plot, in pixels.
pub const SEQUENCE_SIZE: (u32, u32) = (1200, 600);

/// Each cell of a table plot is a square of this many pixels, shrunk to fit in `TABLE_MAX`.
const CELL: u32 = 4;
const TABLE_MAX: u32 = 2048;

pub(super) fn draw(
    interp: &mut Interpreter,
    plot: &Plot,
    file: &str,
    file_span: Span,
) -> Result<String, Error> {
    let picture = match plot {
        Plot::Sequence { game, range } => sequence(interp, game, range)?,
        Plot::Table { game, rows, cols } => table(interp, game, rows, cols)?,
    };
    let size = picture.size();
    let result = if file.ends_with(".svg") {
        let backend = SVGBackend::new(file, size).into_drawing_area();
        picture
            .render(&backend)
            .and_then(|()| backend.present().map_err(|e| e.to_string()))
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

enum Picture {
    Sequence { values: Vec<u64> },
    Table { grid: Vec<Vec<u64>> },
}

fn sequence(interp: &mut Interpreter, game: &Expr, range: &Expr) -> Result<Picture, Error> {
    let game = interp.heap_game(game, "plot sequence")?;
    let (start, last) = interp.finite_range(range)?;
    interp.bound_size(last as i128 - start as i128 + 1, "this plot", range.span)?;
    let mut values = Vec::new();
    for n in start..=last {
        values.push(interp.part_value_at(
            &Part {
                game: game.id,
                state: Box::new([n]),
            },
            range.span,
        )?);
    }
    Ok(Picture::Sequence { values })
}

fn table(
    interp: &mut Interpreter,
    game: &Expr,
    rows: &Expr,
    cols: &Expr,
) -> Result<Picture, Error> {
    let game_value = interp.tuple_game(game, "plot table")?;
    debug_assert_eq!(game_value.shape, Shape::Tuple(2));
    let grid = interp.grid(&game_value, rows, cols)?;
    Ok(Picture::Table { grid })
}

impl Picture {
    fn size(&self) -> (u32, u32) {
        match self {
            Picture::Sequence { .. } => SEQUENCE_SIZE,
            Picture::Table { grid } => {
                let rows = grid.len().max(1) as u32;
                let cols = grid.first().map_or(1, |r| r.len().max(1)) as u32;
                let cell = CELL.min(TABLE_MAX / rows.max(cols)).max(1);
                (cols * cell, rows * cell)
            }
        }
    }

    fn render<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        area.fill(&WHITE).map_err(fail)?;
        let (width, height) = self.size();
        match self {
            Picture::Sequence { values } => {
                let top = values.iter().copied().max().unwrap_or(0).max(1) as f64;
                let count = values.len().max(2) as f64;
                let margin = 10.0;
                for (i, &v) in values.iter().enumerate() {
                    let x = margin + (width as f64 - 2.0 * margin) * i as f64 / (count - 1.0);
                    let y =
                        height as f64 - margin - (height as f64 - 2.0 * margin) * v as f64 / top;
                    let dot = Circle::new((x as i32, y as i32), 2, BLUE.filled());
                    area.draw(&dot).map_err(fail)?;
                }
            }
            Picture::Table { grid } => {
                let top = grid.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
                let cols = grid.first().map_or(1, |r| r.len().max(1)) as u32;
                let cell = (width / cols).max(1) as i32;
                for (a, row) in grid.iter().enumerate() {
                    for (b, &v) in row.iter().enumerate() {
                        let colour = if v == 0 {
                            BLACK.to_rgba()
                        } else {
                            let t = v as f64 / top;
                            HSLColor(0.7 * (1.0 - t), 0.9, 0.3 + 0.4 * t).to_rgba()
                        };
                        let corner = (b as i32 * cell, a as i32 * cell);
                        let square = Rectangle::new(
                            [corner, (corner.0 + cell, corner.1 + cell)],
                            colour.filled(),
                        );
                        area.draw(&square).map_err(fail)?;
                    }
                }
            }
        }
        Ok(())
    }
}
