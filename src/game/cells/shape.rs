//! Regions of cells as bit sets: where their cells lie (a grid's rows, or a graph's adjacency),
//! their connected parts, the sets their moves leave, and the canonical form a region is stored
//! under.
//!
//! On a grid everything is done with shifts of the whole set: the neighbours of a set are its
//! four shifts (a column shift masked so that no cell wraps to the next row), a part grows from
//! one cell by neighbours until it stops; `boxes.rs` crops a part to its box and gives the
//! box's images under reflection and rotation.

use std::sync::Arc;

use super::super::vocabulary::{bit, cells_of, full, CellMove};
use super::boxes::{crop, down, least_image, stride, turned, up};

/// A region as it is stored: a grid region cropped to its bounding box, row by row with rows
/// [`stride`] apart (and, when the game is symmetric, the least of its images), or a graph region as its induced subgraph
/// on vertices relabelled in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Region {
    Grid { width: u8, height: u8, cells: u128 },
    Graph(Arc<[u128]>),
}

impl Region {
    /// How many cells it has.
    pub(super) fn size(&self) -> u32 {
        match self {
            Region::Grid { cells, .. } => cells.count_ones(),
            Region::Graph(rows) => rows.len() as u32,
        }
    }
}

/// The low `n` bits.
fn low(n: usize) -> u128 {
    full(n)
}

/// A `width` by `height` grid as masks: its cells, and those not in its first or last column.
#[derive(Clone, Copy, Debug)]
pub(super) struct Grid {
    width: usize,
    all: u128,
    not_first: u128,
    not_last: u128,
}

impl Grid {
    pub(super) fn new(width: usize, height: usize) -> Grid {
        let all = low(width * height);
        let first = (0..height).fold(0, |m, r| m | bit(r * width));
        let last = up(first, width - 1);
        Grid {
            width,
            all,
            not_first: all & !first,
            not_last: all & !last,
        }
    }

    /// The cells next to some cell of `set`.
    fn near(&self, set: u128) -> u128 {
        (up(set & self.not_last, 1)
            | down(set & self.not_first, 1)
            | up(set, self.width)
            | down(set, self.width))
            & self.all
    }
}

/// A side of a cell: the cells whose neighbour on that side is present, the shift from a cell
/// to that neighbour, the shift back, and by how much.
type Side = (
    u128,
    fn(u128, usize) -> u128,
    fn(u128, usize) -> u128,
    usize,
);

impl Grid {
    /// For games whose only move takes two adjacent cells (Cram): `set` without what cannot
    /// change its value. A *tuft* is a cell with one neighbour in `set`, a *star* a cell next
    /// to a tuft. Two kinds of cells go:
    ///
    /// - *Twin tufts*: all but one of the tufts of each star. A tuft is covered only with its
    ///   star, and once that star is covered, by whatever move, its tufts are lone cells with no
    ///   move: so the options of the set and of the set without the second tuft are the same
    ///   games, one for one, and so are their values (by induction).
    /// - *Bridges*: cells neither tufts nor stars whose every neighbour is a star. Let b be one,
    ///   P the set. Each neighbour s of b has a tuft t (t is not b, since b is not a tuft, and
    ///   not next to b, since b is not a star). That stays true after any move that does not
    ///   cover b: t is covered only with s, and t keeps s as its one neighbour while s is
    ///   there. So by induction on the cells, G(P - m) = G(P - m - b) for each move m that does
    ///   not cover b: those options of P have the values of the options of P - b, which are
    ///   exactly the sets P - b - m. The other options cover b and a star s, and leave t with
    ///   no neighbour: P - b - s is the game P - b - s - t, an option of P - b (the move s, t).
    ///   So the options of P and of P - b have the same values, and G(P) = G(P - b). Bridges
    ///   are never next to each other (a bridge is not a star), and removing one leaves every
    ///   star and its tuft, so all of them go at once, with the twin tufts (no bridge is one).
    pub(super) fn reduced(&self, set: u128) -> u128 {
        let w = self.width;
        let right = set & down(set, 1) & self.not_last;
        let left = set & up(set, 1) & self.not_first;
        let below = set & down(set, w);
        let above = set & up(set, w);
        let odd = right ^ left ^ below ^ above;
        let two = (right & left) | (below & above) | ((right | left) & (below | above));
        let tufts = odd & !two;
        let mut stars = 0;
        let mut twins = 0;
        let sides: [Side; 4] = [
            (right, up, down, 1),
            (left, down, up, 1),
            (below, up, down, w),
            (above, down, up, w),
        ];
        for (side, to, back, by) in sides {
            let near = to(tufts & side, by);
            twins |= back(near & stars, by);
            stars |= near;
        }
        let others = set & !tufts & !stars;
        let bridges = others & !self.near(others);
        set & !twins & !bridges
    }
}

impl Grid {
    /// The number of cells of a connected set when it is a path: one adjacency fewer than
    /// cells (so no cycle) and no cell with three neighbours or more in it.
    fn path(&self, set: u128) -> Option<u32> {
        let w = self.width;
        let right = set & down(set, 1) & self.not_last;
        let below = set & down(set, w);
        let cells = set.count_ones();
        if right.count_ones() + below.count_ones() + 1 != cells {
            return None;
        }
        let left = set & up(set, 1) & self.not_first;
        let above = set & up(set, w);
        let three = (right & left & (below | above)) | (below & above & (right | left));
        (three == 0).then_some(cells)
    }
}

/// Where the cells of a set lie.
#[derive(Clone, Copy)]
pub(super) enum Space<'a> {
    Grid(Grid),
    Graph(&'a [u128]),
}

impl Space<'_> {
    /// The cells next to some cell of `set`.
    fn near(&self, set: u128) -> u128 {
        match self {
            Space::Grid(grid) => grid.near(set),
            Space::Graph(adjacency) => cells_of(set).fold(0, |n, c| n | adjacency[c]),
        }
    }

    /// `set` without twin tufts and bridges ([`Grid::reduced`]) on a grid, else `set`.
    pub(super) fn reduced(&self, set: u128) -> u128 {
        match self {
            Space::Grid(grid) => grid.reduced(set),
            Space::Graph(_) => set,
        }
    }

    /// The number of cells of a connected set of a grid when it is a path ([`Grid::path`]);
    /// `None` on a graph.
    pub(super) fn path(&self, set: u128) -> Option<u32> {
        match self {
            Space::Grid(grid) => grid.path(set),
            Space::Graph(_) => None,
        }
    }

    /// The connected parts of `set` (none when it is empty), each passed to `part`.
    pub(super) fn parts(&self, set: u128, part: &mut impl FnMut(u128)) {
        let mut left = set;
        while left != 0 {
            let mut grown = left & left.wrapping_neg();
            let mut frontier = grown;
            while frontier != 0 {
                frontier = self.near(frontier) & left & !grown;
                grown |= frontier;
            }
            left &= !grown;
            part(grown);
        }
    }

    /// Calls `option` with the set each move of `kinds` leaves of `set`, until it says to stop
    /// (`false`).
    pub(super) fn options(
        &self,
        kinds: &[CellMove],
        set: u128,
        option: &mut impl FnMut(u128) -> bool,
    ) {
        for &kind in kinds {
            let go_on = match kind {
                CellMove::RemoveOne => cells_of(set).all(|c| option(set & !bit(c))),
                CellMove::RemoveWithNeighbours => {
                    cells_of(set).all(|c| option(set & !(bit(c) | self.near(bit(c)))))
                }
                CellMove::RemoveAdjacentPair => match self {
                    Space::Grid(grid) => {
                        let across = set & down(set, 1) & grid.not_last;
                        let along = set & down(set, grid.width);
                        cells_of(across).all(|c| option(set & !(bit(c) | bit(c + 1))))
                            && cells_of(along)
                                .all(|c| option(set & !(bit(c) | bit(c + grid.width))))
                    }
                    Space::Graph(adjacency) => cells_of(set).all(|c| {
                        let later = adjacency[c] & set & !low(c + 1);
                        cells_of(later).all(|d| option(set & !(bit(c) | bit(d))))
                    }),
                },
            };
            if !go_on {
                return;
            }
        }
    }

    /// How many moves of `kinds` `set` has.
    pub(super) fn count_options(&self, kinds: &[CellMove], set: u128) -> u32 {
        let mut count = 0;
        for &kind in kinds {
            count += match (kind, self) {
                (CellMove::RemoveOne | CellMove::RemoveWithNeighbours, _) => set.count_ones(),
                (CellMove::RemoveAdjacentPair, Space::Grid(grid)) => {
                    (set & down(set, 1) & grid.not_last).count_ones()
                        + (set & down(set, grid.width)).count_ones()
                }
                (CellMove::RemoveAdjacentPair, Space::Graph(adjacency)) => cells_of(set)
                    .map(|c| (adjacency[c] & set & !low(c + 1)).count_ones())
                    .sum(),
            };
        }
        count
    }

    /// The region `part` (a connected part of a set in this space) is stored under.
    pub(super) fn region(&self, part: u128, symmetric: bool) -> Region {
        match self {
            Space::Grid(grid) => {
                let (width, height, cells) = crop(grid.width, part);
                let (width, height, cells) = if symmetric {
                    least_image(width, height, cells)
                } else {
                    (width, height, cells)
                };
                Region::Grid {
                    width: width as u8,
                    height: height as u8,
                    cells,
                }
            }
            Space::Graph(adjacency) => {
                let rank = |v: usize| (part & (bit(v) - 1)).count_ones() as usize;
                Region::Graph(
                    cells_of(part)
                        .map(|v| cells_of(adjacency[v] & part).fold(0, |row, u| row | bit(rank(u))))
                        .collect(),
                )
            }
        }
    }
}

/// What copying the opponent's move turned half round says of a grid region, for games whose
/// moves take one cell (`one`) or two adjacent cells (`pairs`), nothing else: `Some(true)`, the
/// region is worth 0; `Some(false)`, it is not (a move leaves a region worth 0); `None`,
/// nothing.
///
/// When the region is its own image under the half turn and no move is its own image (no cell
/// is fixed: the box is not odd by odd, or its middle cell is missing; and no pair is: the
/// box is not odd by even, or one of its two middle cells is missing), the second player
/// answers each move by its image, which is still there (the region was symmetric and the two
/// moves share no cell), so the first player runs out of moves first: the value is 0. When the
/// one move that is its own image is there, it leaves such a region, so the value is not 0.
pub(super) fn mirrored(region: &Region, one: bool, pairs: bool) -> Option<bool> {
    let Region::Grid {
        width,
        height,
        cells,
    } = *region
    else {
        return None;
    };
    let (w, h) = (usize::from(width), usize::from(height));
    let s = stride(w, h);
    if turned(w, h, cells) != cells {
        return None;
    }
    match (w % 2 == 1, h % 2 == 1) {
        (false, false) => Some(true),
        (true, true) => {
            let centre = bit(h / 2 * s + w / 2);
            if cells & centre == 0 {
                Some(true)
            } else if one {
                Some(false)
            } else {
                None
            }
        }
        (odd_width, _) => {
            let (a, b) = if odd_width {
                let a = (h / 2 - 1) * s + w / 2;
                (a, a + s)
            } else {
                let a = h / 2 * s + w / 2 - 1;
                (a, a + 1)
            };
            let middle = bit(a) | bit(b);
            Some(!(pairs && cells & middle == middle))
        }
    }
}

/// A stored region as a set of cells and the space its cells lie in.
pub(super) fn unpack(region: &Region) -> (Space<'_>, u128) {
    match *region {
        Region::Grid {
            width,
            height,
            cells,
        } => {
            let (w, h) = (usize::from(width), usize::from(height));
            (Space::Grid(Grid::new(stride(w, h), h)), cells)
        }
        Region::Graph(ref rows) => (Space::Graph(rows), full(rows.len())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cram_drops_twin_tufts_and_bridges() {
        // Cells of a 5 x 3 board by (row, column).
        let grid = Grid::new(5, 3);
        let set = |cells: &[(usize, usize)]| cells.iter().fold(0, |s, &(r, c)| s | bit(r * 5 + c));
        // A path of five: its middle cell is a bridge between two dominoes.
        let path = set(&[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4)]);
        assert_eq!(grid.reduced(path), path & !set(&[(1, 2)]));
        // A plus: the centre has four tufts; three go, and nothing is a bridge.
        let plus = set(&[(0, 2), (1, 1), (1, 2), (1, 3), (2, 2)]);
        assert_eq!(grid.reduced(plus).count_ones(), 2);
        // A full 3 x 3 box has no tuft, so nothing goes.
        let square = set(&[
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (1, 1),
            (1, 2),
            (2, 0),
            (2, 1),
        ]);
        let square = square | set(&[(2, 2)]);
        assert_eq!(grid.reduced(square), square);
    }

    #[test]
    fn a_set_falls_into_its_parts() {
        // On a 5-wide board: cells (1, 2), (2, 1), (2, 3), (3, 2).
        let set = bit(7) | bit(11) | bit(13) | bit(17);
        let grid = Grid::new(5, 4);
        let mut parts = Vec::new();
        Space::Grid(grid).parts(set | bit(12), &mut |p| parts.push(p));
        assert_eq!(parts, vec![set | bit(12)]);
        parts.clear();
        Space::Grid(grid).parts(bit(4) | bit(5), &mut |p| parts.push(p));
        assert_eq!(
            parts,
            vec![bit(4), bit(5)],
            "no wrap from a row's end to the next"
        );
    }
}
