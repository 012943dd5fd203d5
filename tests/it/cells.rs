//! Games on cells (`grundy::game::cells`): the native solver against a brute force written
//! here (the plain mex over every subset, no splitting) and against the generic search, the sum
//! rule across parts, symmetric regions sharing one entry, Cram's published nimbers, the limit
//! of 128 cells, and the limits of a search.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use grundy::game::cells::{Board, CellSearch, CellSolver, MOST_CELLS};
use grundy::game::vocabulary::{CellMove, CellRules};
use grundy::game::{Emit, Game, Limits, SolveError, Solver};

use crate::support::random::Random;

const KINDS: [CellMove; 3] = [
    CellMove::RemoveOne,
    CellMove::RemoveWithNeighbours,
    CellMove::RemoveAdjacentPair,
];

fn grid_neighbours(width: usize, height: usize) -> Vec<u128> {
    let mut near = vec![0u128; width * height];
    for r in 0..height {
        for c in 0..width {
            let cell = r * width + c;
            for (dr, dc) in [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)] {
                let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                if rr >= 0 && cc >= 0 && (rr as usize) < height && (cc as usize) < width {
                    near[cell] |= 1 << (rr as usize * width + cc as usize);
                }
            }
        }
    }
    near
}

/// What one move of `kind` may leave of `set`, written out plainly.
fn plain_options(near: &[u128], kind: CellMove, set: u128) -> Vec<u128> {
    let mut options = Vec::new();
    for c in 0..near.len() {
        if set >> c & 1 == 0 {
            continue;
        }
        match kind {
            CellMove::RemoveOne => options.push(set & !(1 << c)),
            CellMove::RemoveWithNeighbours => options.push(set & !(1 << c) & !near[c]),
            CellMove::RemoveAdjacentPair => {
                for d in c + 1..near.len() {
                    if near[c] >> d & 1 == 1 && set >> d & 1 == 1 {
                        options.push(set & !(1 << c) & !(1 << d));
                    }
                }
            }
        }
    }
    options
}

/// The Grundy value of every subset of a board of at most 16 cells, by the plain mex, from the
/// empty set up (every option is a smaller number).
fn brute_force(near: &[u128], kind: CellMove) -> Vec<u64> {
    let mut values = vec![0u64; 1 << near.len()];
    for set in 0..values.len() {
        let seen: Vec<u64> = plain_options(near, kind, set as u128)
            .into_iter()
            .map(|o| values[o as usize])
            .collect();
        values[set] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    values
}

fn rules(kind: CellMove, split: bool, symmetric: bool) -> CellRules {
    CellRules {
        moves: vec![kind],
        split,
        symmetric,
    }
}

/// Each solver's value of `set` against the brute force's `values`.
fn assert_brute_force_values(
    solvers: &mut [CellSolver],
    board: &Board,
    set: u128,
    values: &[u64],
    what: &str,
) {
    for solver in solvers {
        let value = solver.value(board, set, &Limits::default()).unwrap();
        let search = solver.search();
        assert_eq!(value, values[set as usize], "{what}, {search:?}");
    }
}

#[test]
fn random_boards_with_holes_have_the_brute_force_values() {
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    for round in 0..60 {
        let width = 1 + random.below(5) as usize;
        let height = 1 + random.below((14 / width).min(5) as u64) as usize;
        let near = grid_neighbours(width, height);
        let kind = KINDS[round % 3];
        let values = brute_force(&near, kind);
        let board = Board::grid(width, height).unwrap();
        let mut solvers = [CellSearch::Full, CellSearch::Pruned].map(|search| {
            [(true, true), (true, false), (false, false)].map(|(split, symmetric)| {
                CellSolver::with_search(rules(kind, split, symmetric), search)
            })
        });
        let solvers = solvers.as_flattened_mut();
        for _ in 0..20 {
            let set = random.below(1 << near.len()) as u128;
            let what = format!("{width} x {height}, {set:b}, {kind:?}");
            assert_brute_force_values(solvers, &board, set, &values, &what);
        }
    }
}

#[test]
fn boards_over_eight_rows_have_the_brute_force_values() {
    // Boxes of up to 8 x 8 are kept as bitboards, larger ones row by row: boards of more than
    // eight rows have regions of both kinds, some with the same cells as bits, each solver
    // keeping both kinds in one table.
    let mut random = Random(0x6a09_e667_f3bc_c908);
    for (width, height) in [(1, 12), (2, 9), (1, 16), (2, 8), (12, 1)] {
        let near = grid_neighbours(width, height);
        let board = Board::grid(width, height).unwrap();
        for kind in KINDS {
            let values = brute_force(&near, kind);
            let mut solvers = [CellSearch::Full, CellSearch::Pruned].map(|search| {
                [(true, true), (true, false), (false, true), (false, false)].map(
                    |(split, symmetric)| {
                        CellSolver::with_search(rules(kind, split, symmetric), search)
                    },
                )
            });
            // Every set of the boards of 12 cells (a column's rows 0 and 8 kept 1 apart are the
            // bits of a domino kept 8 apart), some of the larger ones.
            let sets: Vec<u128> = match near.len() {
                12 => (0..1 << 12).collect(),
                n => (0..1000).map(|_| random.below(1 << n) as u128).collect(),
            };
            for set in sets {
                let what = format!("{width} x {height}, {set:b}, {kind:?}");
                assert_brute_force_values(solvers.as_flattened_mut(), &board, set, &values, &what);
            }
        }
    }
}

#[test]
fn random_graphs_have_the_brute_force_values() {
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    let limits = Limits::default();
    for round in 0..60 {
        let n = 1 + random.below(12) as usize;
        let mut edges = Vec::new();
        let mut near = vec![0u128; n];
        for _ in 0..random.below(2 * n as u64 + 1) {
            let (a, b) = (
                random.below(n as u64) as usize,
                random.below(n as u64) as usize,
            );
            edges.push((a, b));
            if a != b {
                near[a] |= 1 << b;
                near[b] |= 1 << a;
            }
        }
        let kind = KINDS[round % 3];
        let values = brute_force(&near, kind);
        let board = Board::graph(n, &edges).unwrap();
        for search in [CellSearch::Full, CellSearch::Pruned] {
            let mut split = CellSolver::with_search(rules(kind, true, false), search);
            let mut whole = CellSolver::with_search(rules(kind, false, false), search);
            for set in 0..1u128 << n {
                let expected = values[set as usize];
                assert_eq!(split.value(&board, set, &limits).unwrap(), expected);
                assert_eq!(whole.value(&board, set, &limits).unwrap(), expected);
            }
        }
    }
}

/// A random set of about `percent` % of a board's cells.
fn random_set(random: &mut Random, cells: usize, percent: u64) -> u128 {
    (0..cells)
        .filter(|_| random.below(100) < percent)
        .fold(0, |set, c| set | 1 << c)
}

#[test]
fn the_pruned_search_gives_the_full_search_s_values_on_boards_with_holes() {
    // Boards past the brute force's 16 cells: the full search (every option valued, the mex)
    // is the oracle, each solver fresh for each board so that neither reads the other's table.
    let mut random = Random(0x853c_49e6_748f_ea9b);
    let limits = Limits::default();
    for round in 0..90 {
        let kind = KINDS[round % 3];
        let (width, height) = match kind {
            CellMove::RemoveOne => (2 + random.below(3) as usize, 2 + random.below(3) as usize),
            _ => (3 + random.below(4) as usize, 3 + random.below(2) as usize),
        };
        let board = Board::grid(width, height).unwrap();
        let percent = 60 + random.below(40);
        let mut set = random_set(&mut random, width * height, percent);
        if round % 4 < 2 {
            // Its own image under the half turn (a cell i goes to cells - 1 - i), where the
            // copying strategy settles some regions.
            set |= set.reverse_bits() >> (128 - width * height);
        }
        let symmetric = round % 2 == 0;
        let full = CellSolver::with_search(rules(kind, true, symmetric), CellSearch::Full)
            .value(&board, set, &limits)
            .unwrap();
        let mut pruned = CellSolver::with_search(rules(kind, true, symmetric), CellSearch::Pruned);
        assert_eq!(
            pruned.value(&board, set, &limits).unwrap(),
            full,
            "{width} x {height}, {set:b}, {kind:?}"
        );
        // Asked again, from what the first question stored.
        assert_eq!(pruned.value(&board, set, &limits).unwrap(), full);
    }
    // Graphs of up to 16 vertices.
    for round in 0..60 {
        let kind = KINDS[round % 3];
        let n = 8 + random.below(9) as usize;
        let edges: Vec<(usize, usize)> = (0..random.below(2 * n as u64) + n as u64 / 2)
            .map(|_| {
                (
                    random.below(n as u64) as usize,
                    random.below(n as u64) as usize,
                )
            })
            .filter(|(a, b)| a != b)
            .collect();
        let board = Board::graph(n, &edges).unwrap();
        let set = random_set(&mut random, n, 70);
        let full = CellSolver::with_search(rules(kind, true, false), CellSearch::Full)
            .value(&board, set, &limits)
            .unwrap();
        let pruned = CellSolver::with_search(rules(kind, true, false), CellSearch::Pruned)
            .value(&board, set, &limits)
            .unwrap();
        assert_eq!(pruned, full, "{n} vertices, {edges:?}, {set:b}, {kind:?}");
    }
}

#[test]
fn sparse_boards_whose_parts_are_paths_and_trees_have_the_full_search_s_values() {
    // Cram values a part that is a path from the values of paths: here most parts are paths,
    // bent or straight, and small trees, on boards wider than tall and taller than wide.
    let mut random = Random(0x6c07_8965_d5a1_7e3f);
    let limits = Limits::default();
    for round in 0..120 {
        let (width, height) = match round % 3 {
            0 => (8, 6),
            1 => (5, 9),
            _ => (11, 3),
        };
        let board = Board::grid(width, height).unwrap();
        let percent = 35 + random.below(30);
        let set = random_set(&mut random, width * height, percent);
        let cram = || rules(CellMove::RemoveAdjacentPair, true, round % 2 == 0);
        let full = CellSolver::with_search(cram(), CellSearch::Full)
            .value(&board, set, &limits)
            .unwrap();
        let pruned = CellSolver::with_search(cram(), CellSearch::Pruned)
            .value(&board, set, &limits)
            .unwrap();
        assert_eq!(pruned, full, "{width} x {height}, {set:b}");
    }
}

#[test]
fn cram_on_every_subset_of_small_boards_has_the_brute_force_values() {
    // Every set of cells of boards of up to 16 cells, so that every shape of tufts, stars and
    // bridges that fits is met (the pruned search drops twin tufts and bridges of the options
    // it lists; the brute force drops nothing).
    let limits = Limits::default();
    for (width, height) in [(4, 4), (5, 3), (7, 2), (8, 2)] {
        let near = grid_neighbours(width, height);
        let values = brute_force(&near, CellMove::RemoveAdjacentPair);
        let board = Board::grid(width, height).unwrap();
        for symmetric in [true, false] {
            let cram = rules(CellMove::RemoveAdjacentPair, true, symmetric);
            let mut solver = CellSolver::with_search(cram, CellSearch::Pruned);
            for set in 0..1u128 << (width * height) {
                assert_eq!(
                    solver.value(&board, set, &limits).unwrap(),
                    values[set as usize],
                    "{width} x {height}, {set:b}"
                );
            }
        }
    }
}

#[test]
fn a_board_of_two_regions_is_the_sum_of_each() {
    // 9 x 3 with a column of holes: a 4 x 3 region and a 4 x 3 region with a notch.
    let board = Board::grid(9, 3).unwrap();
    let all = board.all();
    let holes: u128 = (0..3).map(|r| 1u128 << (r * 9 + 4)).sum();
    let left: u128 = (0..3)
        .flat_map(|r| (0..4).map(move |c| 1u128 << (r * 9 + c)))
        .sum();
    let notch = 1u128 << 8;
    let right = all & !holes & !left & !notch;
    let limits = Limits::default();
    for kind in KINDS {
        let whole = |set| {
            CellSolver::new(rules(kind, false, false))
                .value(&board, set, &limits)
                .unwrap()
        };
        let sum = whole(left) ^ whole(right);
        assert_eq!(whole(left | right), sum, "{kind:?}");
        let mut split = CellSolver::new(rules(kind, true, false));
        assert_eq!(split.value(&board, left | right, &limits).unwrap(), sum);
    }
}

#[test]
fn images_of_a_region_share_one_entry() {
    let limits = Limits::default();
    let mut solver = CellSolver::new(rules(CellMove::RemoveAdjacentPair, true, true));
    let wide = solver
        .value(&Board::grid(5, 3).unwrap(), (1 << 15) - 1, &limits)
        .unwrap();
    let stored = solver.stored();
    let tall = solver
        .value(&Board::grid(3, 5).unwrap(), (1 << 15) - 1, &limits)
        .unwrap();
    assert_eq!((tall, solver.stored()), (wide, stored));
    // An L of five cells, in each of its eight orientations, placed anywhere on a 6 x 6 board.
    let board = Board::grid(6, 6).unwrap();
    let shapes: [&[(usize, usize)]; 8] = [
        &[(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)],
        &[(0, 1), (1, 1), (2, 1), (3, 1), (3, 0)],
        &[(0, 0), (0, 1), (1, 0), (2, 0), (3, 0)],
        &[(0, 0), (0, 1), (1, 1), (2, 1), (3, 1)],
        &[(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)],
        &[(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)],
        &[(1, 0), (1, 1), (1, 2), (1, 3), (0, 0)],
        &[(1, 0), (1, 1), (1, 2), (1, 3), (0, 3)],
    ];
    let mut plain = CellSolver::new(rules(CellMove::RemoveOne, false, false));
    let mut folded = CellSolver::new(rules(CellMove::RemoveOne, true, true));
    let at = |shape: &[(usize, usize)], dr: usize, dc: usize| -> u128 {
        shape
            .iter()
            .map(|&(r, c)| 1u128 << ((r + dr) * 6 + c + dc))
            .sum()
    };
    let first = plain.value(&board, at(shapes[0], 0, 0), &limits).unwrap();
    folded.value(&board, at(shapes[0], 0, 0), &limits).unwrap();
    let stored = folded.stored();
    for (i, shape) in shapes.iter().enumerate() {
        let set = at(shape, i % 2, i / 3);
        assert_eq!(folded.value(&board, set, &limits).unwrap(), first);
        assert_eq!(folded.stored(), stored, "image {i} stored again");
    }
}

#[test]
fn cram_has_the_published_nimbers() {
    // beling/impartial-games, README: 4x4 = 0, 4x5 = 2, 5x5 = 0, 4x6 = 0, 5x6 = 2, 4x7 = 3.
    let limits = Limits::default();
    let mut solver = CellSolver::new(rules(CellMove::RemoveAdjacentPair, true, true));
    for (rows, columns, nimber) in [
        (4, 4, 0),
        (4, 5, 2),
        (5, 5, 0),
        (4, 6, 0),
        (5, 6, 2),
        (4, 7, 3),
    ] {
        let board = Board::grid(columns, rows).unwrap();
        let value = solver.value(&board, board.all(), &limits).unwrap();
        assert_eq!(value, nimber, "{rows} x {columns}");
    }
}

/// The same moves as a plain game of the engine: a state is the set as two counters.
struct Plain {
    near: Vec<u128>,
    kind: CellMove,
}

impl Game for Plain {
    fn heap_like(&self) -> bool {
        false
    }

    fn options(&self, state: &[i64], emit: &mut Emit<'_>) -> Result<(), SolveError> {
        let set = state[0] as u128 | (state[1] as u128) << 64;
        for option in plain_options(&self.near, self.kind, set) {
            if emit(&[option as u64 as i64, (option >> 64) as i64]).is_break() {
                break;
            }
        }
        Ok(())
    }

    fn describe(&self, state: &[i64]) -> String {
        format!("{state:?}")
    }
}

#[test]
fn the_native_solver_gives_the_generic_search_s_values() {
    let mut random = Random(0xdead_beef_cafe_f00d);
    let limits = Limits::default();
    for round in 0..12 {
        let (width, height) = (2 + random.below(4) as usize, 2 + random.below(3) as usize);
        let kind = KINDS[round % 3];
        let board = Board::grid(width, height).unwrap();
        let mut generic = Solver::new(Arc::new(Plain {
            near: grid_neighbours(width, height),
            kind,
        }));
        let mut native = CellSolver::new(rules(kind, true, true));
        for _ in 0..5 {
            let set = random.below(1 << (width * height)) as u128;
            let plain = generic.value(&[set as i64, 0], &limits).unwrap();
            assert_eq!(native.value(&board, set, &limits).unwrap(), plain);
        }
    }
}

#[test]
fn a_board_over_128_cells_is_refused() {
    let refused = Board::grid(12, 11).unwrap_err();
    assert_eq!(refused.cells, 132);
    assert!(
        refused.to_string().contains("at most 128 cells"),
        "{refused}"
    );
    assert_eq!(Board::graph(MOST_CELLS + 1, &[]).unwrap_err().cells, 129);
    let full = Board::grid(16, 8).unwrap();
    assert_eq!(full.all(), u128::MAX);
}

#[test]
fn a_full_table_drops_hints_and_keeps_the_values() {
    // The pruned search stores many more hints (values a region does not have) than values.
    // Held to its values and a quarter of its hints, it drops hints to stay within the limit
    // and still gives the full search's values.
    let mut random = Random(0xbb67_ae85_84ca_a73b);
    let cram = || rules(CellMove::RemoveAdjacentPair, true, true);
    let limits = Limits::default();
    for (width, height, percent) in [(6, 5, 100), (7, 4, 100), (6, 6, 85), (7, 5, 90)] {
        let board = Board::grid(width, height).unwrap();
        let set = random_set(&mut random, width * height, percent);
        let expected = CellSolver::with_search(cram(), CellSearch::Full)
            .value(&board, set, &limits)
            .unwrap();
        let mut unlimited = CellSolver::new(cram());
        assert_eq!(unlimited.value(&board, set, &limits).unwrap(), expected);
        let few = Limits {
            max_states: unlimited.stored_values() + unlimited.stored() / 4 + 200,
            ..Limits::default()
        };
        let mut held = CellSolver::new(cram());
        assert_eq!(
            held.value(&board, set, &few),
            Ok(expected),
            "{width} x {height}"
        );
        assert!(held.stored() <= few.max_states, "{} stored", held.stored());
        assert!(few.max_states < unlimited.stored(), "a table held smaller");
    }
}

#[test]
fn a_search_past_its_limits_ends_with_the_limit() {
    // Odd by odd, its middle square there: no symmetry settles it.
    let board = Board::grid(9, 9).unwrap();
    let small = Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    };
    let mut solver = CellSolver::new(rules(CellMove::RemoveAdjacentPair, true, true));
    assert_eq!(
        solver.value(&board, board.all(), &small),
        Err(SolveError::MemoryLimit(1 << 20))
    );
    assert!(solver.bytes() <= 1 << 20, "{} bytes held", solver.bytes());
    let few = Limits {
        max_states: 1000,
        ..Limits::default()
    };
    let mut solver = CellSolver::new(rules(CellMove::RemoveAdjacentPair, true, true));
    assert_eq!(
        solver.value(&board, board.all(), &few),
        Err(SolveError::StateLimit(1000))
    );
    let stopped = Limits::default();
    stopped.interrupt.store(true, Ordering::Relaxed);
    let mut solver = CellSolver::new(rules(CellMove::RemoveAdjacentPair, true, true));
    assert_eq!(
        solver.value(&board, board.all(), &stopped),
        Err(SolveError::Interrupted)
    );
}
