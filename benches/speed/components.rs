//! Node Kayles (issue 22): the language's game on cells, whose positions fall apart into
//! components valued one by one, against the same search on positions kept whole (the engine's
//! `CellSolver` with its rules' `split` off), on the 6 x 6 grid and on the random graph of 40
//! vertices and 60 edges of `benches/cells/random-40-60.txt`. Both give the same value.

use std::time::{Duration, Instant};

use grundy::game::cells::{Board, CellSearch, CellSolver};
use grundy::game::vocabulary::{CellMove, CellRules};

use super::{bench_limits, time_interpreter, Against, Case};

const NODE_KAYLES: &str =
    "game nodekayles on cells c { for x in c { c -= neighbours(c, x); c -= x } }\n";

/// The edges of the random graph, as the file has them: a pair of vertices a line.
fn random_edges() -> Vec<(usize, usize)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/cells/random-40-60.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|line| {
            let mut ends = line
                .split_whitespace()
                .map(|x| x.parse().expect("a vertex"));
            (ends.next().expect("a pair"), ends.next().expect("a pair"))
        })
        .collect()
}

/// Node Kayles on `board`, kept whole: its time and value.
fn whole(board: &Board, symmetric: bool) -> (Duration, u64) {
    let rules = CellRules {
        moves: vec![CellMove::RemoveWithNeighbours],
        split: false,
        symmetric,
    };
    let mut solver = CellSolver::with_search(rules, CellSearch::Pruned);
    let start = Instant::now();
    let value = solver
        .value(board, board.all(), &bench_limits())
        .expect("within the limits");
    (start.elapsed(), value)
}

fn case(name: &str, position: &str, board: Board, symmetric: bool) -> Case {
    let source = format!("{NODE_KAYLES}grundy nodekayles[{position}]");
    let checked = source.clone();
    Case {
        name: name.to_string(),
        source,
        reps: 1,
        walker: false,
        heaps: None,
        against: Against::Rust(Box::new(move || {
            let (time, value) = whole(&board, symmetric);
            let (_, printed) = time_interpreter(&checked, 1, false);
            assert_eq!(printed.trim(), value.to_string(), "split and whole differ");
            (
                time,
                format!("the same search, positions kept whole: value {value}"),
            )
        })),
    }
}

pub fn component_cases(quick: bool) -> Vec<Case> {
    let side = if quick { 4 } else { 6 };
    let edges = random_edges();
    let list: Vec<String> = edges.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
    let graph = format!("vertices(40, [{}])", list.join(", "));
    let mut cases = vec![case(
        &format!("node kayles {side}x{side} grid, vs unsplit"),
        &format!("grid({side}, {side})"),
        Board::grid(side, side).expect("a board"),
        true,
    )];
    if !quick {
        cases.push(case(
            "node kayles random 40/60, vs unsplit",
            &graph,
            Board::graph(40, &edges).expect("a board"),
            false,
        ));
    }
    cases
}
