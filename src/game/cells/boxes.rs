//! The boxes grid regions are stored in: a region cropped to its bounding box, the cells row by
//! row, and the images of a box under reflection and rotation.
//!
//! A box of at most 8 by 8 keeps its rows 8 cells apart, one byte a row (a bitboard), so that
//! cropping is one shift and each of its eight images a few whole-word operations; a larger box
//! keeps its rows `width` apart, so that it fits in 128 cells. [`stride`] says which.

use super::super::vocabulary::{bit, cells_of, full};

/// How far apart the rows of a `width` by `height` box are kept: 8 when it fits in 8 by 8 (a
/// bitboard), else its width.
pub(super) fn stride(width: usize, height: usize) -> usize {
    if packed(width, height) {
        8
    } else {
        width
    }
}

/// Whether a `width` by `height` box is kept as a bitboard (rows 8 apart).
pub(super) fn packed(width: usize, height: usize) -> bool {
    width <= 8 && height <= 8
}

/// `set` shifted up by `n` cells (nothing past the last bit, and nothing when `n` is 128).
pub(super) fn up(set: u128, n: usize) -> u128 {
    if n >= 128 {
        0
    } else {
        set << n
    }
}

/// `set` shifted down by `n` cells.
pub(super) fn down(set: u128, n: usize) -> u128 {
    if n >= 128 {
        0
    } else {
        set >> n
    }
}

/// A nonempty set of a grid whose rows are `board_stride` apart, cropped to its bounding box:
/// (width, height, the cells with rows [`stride`] apart).
pub(super) fn crop(board_stride: usize, set: u128) -> (usize, usize, u128) {
    let top = set.trailing_zeros() as usize / board_stride;
    let bottom = (127 - set.leading_zeros() as usize) / board_stride;
    let height = bottom + 1 - top;
    let row = full(board_stride);
    let columns = if board_stride == 8 {
        let mut x = (set | set >> 64) as u64;
        x |= x >> 32;
        x |= x >> 16;
        x |= x >> 8;
        u128::from(x & 0xff)
    } else {
        (top..=bottom).fold(0, |m, r| m | (down(set, r * board_stride) & row))
    };
    let left = columns.trailing_zeros() as usize;
    let width = 128 - columns.leading_zeros() as usize - left;
    let s = stride(width, height);
    // The columns left of the box are empty in every row, so one shift moves every row.
    let cells = if s == board_stride {
        down(set, top * board_stride + left)
    } else {
        let keep = full(width);
        (0..height).fold(0, |c, r| {
            c | up(down(set, (top + r) * board_stride + left) & keep, r * s)
        })
    };
    (width, height, cells)
}

/// A `width` by `height` box with its rows in the opposite order (a reflection top to bottom).
fn rows_flipped(width: usize, height: usize, cells: u128) -> u128 {
    if packed(width, height) {
        return u128::from((cells as u64).swap_bytes() >> (8 * (8 - height)));
    }
    let keep = full(width);
    (0..height).fold(0, |c, r| {
        c | up(down(cells, r * width) & keep, (height - 1 - r) * width)
    })
}

/// A `width` by `height` box turned half round.
pub(super) fn turned(width: usize, height: usize, cells: u128) -> u128 {
    if packed(width, height) {
        let shift = 8 * (8 - height) + 8 - width;
        return u128::from((cells as u64).reverse_bits() >> shift);
    }
    cells.reverse_bits() >> (128 - width * height)
}

/// A `width` by `height` box transposed (it becomes `height` wide).
fn transposed(width: usize, height: usize, cells: u128) -> u128 {
    if packed(width, height) {
        // The transpose of an 8 by 8 bitboard by three swaps of bits a fixed distance apart.
        let mut x = cells as u64;
        for (mask, by) in [
            (0x0f0f_0f0f_0000_0000u64, 28),
            (0x3333_0000_3333_0000, 14),
            (0x5500_5500_5500_5500, 7),
        ] {
            let t = mask & (x ^ x << by);
            x ^= t ^ t >> by;
        }
        return u128::from(x);
    }
    let keep = full(width);
    (0..height).fold(0, |t, r| {
        cells_of(down(cells, r * width) & keep).fold(t, |t, c| t | bit(c * height + r))
    })
}

/// The least of the eight images of a box under reflection and rotation, compared as (height,
/// width, cells): the wider orientation (so that a region of a board wider than tall, the way
/// boards are mostly written, is seldom transposed), then the least set of the four images in
/// it. Either packing orders cells row by row, so the least image is the same in both.
pub(super) fn least_image(width: usize, height: usize, cells: u128) -> (usize, usize, u128) {
    let four = |w: usize, h: usize, c: u128| {
        let flipped = rows_flipped(w, h, c);
        c.min(turned(w, h, c))
            .min(flipped)
            .min(turned(w, h, flipped))
    };
    match width.cmp(&height) {
        std::cmp::Ordering::Greater => (width, height, four(width, height, cells)),
        std::cmp::Ordering::Less => {
            let t = transposed(width, height, cells);
            (height, width, four(height, width, t))
        }
        std::cmp::Ordering::Equal => {
            let t = transposed(width, height, cells);
            let least = four(width, height, cells).min(four(width, height, t));
            (width, height, least)
        }
    }
}

/// How far the cells `moved` of a `width` by `height` box lie from its centre: twice the
/// Manhattan distance of their centroid from it, rounded down. Among options equally hard,
/// the pruned search looks first at those taken from the middle of a region: they split it
/// into parts of about equal size, whose values are small and often stored already (on Cram
/// 5 x 8 the regions stored fall from 536,771 to 157,404).
pub(super) fn off_centre(width: usize, height: usize, moved: u128) -> u32 {
    let s = stride(width, height);
    let (mut n, mut rows, mut columns) = (0i64, 0i64, 0i64);
    for c in cells_of(moved) {
        n += 1;
        rows += (c / s) as i64;
        columns += (c % s) as i64;
    }
    if n == 0 {
        return 0;
    }
    let across = (2 * rows - n * (height as i64 - 1)).abs();
    let along = (2 * columns - n * (width as i64 - 1)).abs();
    ((across + along) / n) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a cell goes under each of the eight transforms, cell by cell: (the image's width,
    /// the cell's row and column in it).
    fn image(
        t: u8,
        width: usize,
        height: usize,
        row: usize,
        column: usize,
    ) -> (usize, usize, usize) {
        let c = if t & 1 == 0 {
            column
        } else {
            width - 1 - column
        };
        let r = if t & 2 == 0 { row } else { height - 1 - row };
        if t & 4 == 0 {
            (width, r, c)
        } else {
            (height, c, r)
        }
    }

    #[test]
    fn the_least_image_is_the_least_of_the_eight_cell_by_cell() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..6000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let width = 1 + (x % 11) as usize;
            let height = 1 + ((x >> 8) % (128 / width).min(11) as u64) as usize;
            let s = stride(width, height);
            let random = u128::from(x) | u128::from(x.rotate_left(29)) << 64;
            let cells = (0..height).fold(0, |c, r| {
                c | (random >> (r * width) & full(width)) << (r * s)
            });
            if cells == 0 {
                continue; // a region is never empty
            }
            let plain = (0..8)
                .map(|t| {
                    let mut w = width;
                    let mut set = 0;
                    for i in cells_of(cells) {
                        let (iw, r, c) = image(t, width, height, i / s, i % s);
                        w = iw;
                        set |= bit(r * stride(iw, width * height / iw) + c);
                    }
                    (width * height / w, w, set)
                })
                .min()
                .map(|(h, w, set)| (w, h, set))
                .unwrap();
            assert_eq!(
                least_image(width, height, cells),
                plain,
                "{width} x {height}"
            );
        }
    }

    #[test]
    fn moves_from_the_middle_are_nearest_the_centre() {
        // A 5 x 3 bitboard box: the middle cell, a domino across it, a corner domino.
        assert_eq!(off_centre(5, 3, bit(10)), 0);
        assert_eq!(off_centre(5, 3, bit(9) | bit(10)), 1);
        assert_eq!(off_centre(5, 3, bit(0) | bit(1)), 5);
        // A 2 x 9 box kept 2 apart: the two cells of its last row.
        assert_eq!(off_centre(2, 9, bit(16) | bit(17)), 8);
    }

    #[test]
    fn a_set_is_cropped_to_its_box() {
        // On a 5-wide board: cells (1, 2), (2, 1), (2, 3), (3, 2), kept 8 apart once cropped.
        let set = bit(7) | bit(11) | bit(13) | bit(17);
        assert_eq!(crop(5, set), (3, 3, bit(1) | bit(8) | bit(10) | bit(17)));
        assert_eq!(crop(8, bit(9) | bit(18)), (2, 2, bit(0) | bit(9)));
        // Two cells of one column, nine rows apart on a 3-wide board: a 1 x 10 box, dense.
        assert_eq!(crop(3, bit(4) | bit(31)), (1, 10, bit(0) | bit(9)));
        // A row of ten on a 12-wide board.
        assert_eq!(crop(12, full(10) << 13), (10, 1, full(10)));
    }
}
