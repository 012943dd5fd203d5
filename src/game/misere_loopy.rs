//! Misère outcomes of loopy sums, by retrograde analysis of the sum's finite graph.
//!
//! Under misère play a sum with no move is a win for the player to move (N); a sum with a move
//! to a P sum is N; a sum whose every move leads to an N sum is P; every other sum is a draw
//! (D): from it neither player can force a win, so play goes on forever. The sums reachable
//! from the one asked are listed breadth-first (as the misère search keeps them: the sorted ids
//! of the components that can move, see [`super::sums`]), then labelled from the end: the sums
//! with no move first, and a sum as soon as an option labelled P makes it N or the last of its
//! options labelled N makes it P. Everything is iterative, and each labelled sum is kept for
//! the next question (a sum met again is not listed further).
//!
//! Misère Grundy values (and so the genus) are not defined here for loopy games: they are the
//! mex of the options' values, which a sum that can return to itself does not have.

use super::sums::{replace, Components, Solvers, SumTable};
use super::vocabulary::Outcome;
use super::{budget, Part, SolveError};

const N: u32 = 0;
const P: u32 = 1;
const D: u32 = 2;
/// Not labelled yet (only while a graph is labelled).
const OPEN: u32 = 3;

fn outcome_of(label: u32) -> Outcome {
    match label {
        N => Outcome::N,
        P => Outcome::P,
        _ => Outcome::D,
    }
}

/// The graph of the sums reachable from a root, as it is listed.
#[derive(Default)]
struct Graph {
    /// Each sum's index, by key.
    index: SumTable,
    /// The keys, one after another, and where each ends.
    keys: Vec<u32>,
    ends: Vec<usize>,
    /// The options of each sum (indices), one sum after another, and where each sum's end.
    options: Vec<u32>,
    option_ends: Vec<usize>,
    /// The label of each sum: [`OPEN`] or one already known from an earlier question.
    labels: Vec<u32>,
}

impl Graph {
    fn key(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.keys[start..self.ends[i]]
    }

    fn options_of(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.option_ends[i - 1] };
        &self.options[start..self.option_ends[i]]
    }

    /// The bytes held, and while `key` is added with one more option.
    fn bytes(&self, key: &[u32]) -> usize {
        self.index.bytes(Some(key))
            + budget::vector(&self.keys, key.len())
            + budget::vector(&self.ends, 1)
            + budget::vector(&self.options, 1)
            + budget::vector(&self.option_ends, 1)
            + budget::vector(&self.labels, 1)
    }
}

/// The misère outcome of the sum of `parts`, labelling every sum it reaches; `known` keeps the
/// sums labelled, from one question to the next.
pub(super) fn outcome(
    solvers: &dyn Solvers,
    components: &mut Components,
    known: &mut SumTable,
    parts: &[Part],
) -> Result<Outcome, SolveError> {
    let root = components.key(solvers, parts)?;
    if let Some(label) = known.get(&root) {
        return Ok(outcome_of(label));
    }
    let graph = list(solvers, components, known, &root)?;
    let labels = label(solvers, &graph)?;
    for (i, &label) in labels.iter().enumerate() {
        if graph.labels[i] == OPEN {
            known.insert(graph.key(i), label);
        }
    }
    Ok(outcome_of(labels[0]))
}

/// Lists the sums reachable from `root`, breadth-first, down to those labelled before.
fn list(
    solvers: &dyn Solvers,
    components: &mut Components,
    known: &SumTable,
    root: &[u32],
) -> Result<Graph, SolveError> {
    let limits = solvers.limits();
    let mut graph = Graph::default();
    let mut child = Vec::new();
    let add = |graph: &mut Graph, components: &Components, key: &[u32]| {
        let n = graph.labels.len();
        if known.len() + n >= limits.max_states {
            return Err(SolveError::StateLimit(limits.max_states));
        }
        if n.is_multiple_of(4096) {
            limits.check_interrupt()?;
        }
        if graph.bytes(key) + known.bytes(None) + components.bytes() > limits.room() {
            return Err(SolveError::MemoryLimit(limits.max_memory));
        }
        graph.index.insert(key, n as u32);
        graph.keys.extend_from_slice(key);
        graph.ends.push(graph.keys.len());
        graph.labels.push(known.get(key).unwrap_or(OPEN));
        Ok(n as u32)
    };
    add(&mut graph, components, root)?;
    let mut next = 0;
    while next < graph.labels.len() {
        if graph.labels[next] == OPEN {
            let key = graph.key(next).to_vec();
            let mut part = 0;
            while part < key.len() {
                let (mut at, end) = components.listed(solvers, key[part])?;
                while at < end {
                    let (option, after) = components.option_at(at);
                    replace(&key, part, option, &mut child);
                    at = after;
                    let to = match graph.index.get(&child) {
                        Some(i) => i,
                        None => add(&mut graph, components, &child)?,
                    };
                    if graph.bytes(&[]) > limits.room() {
                        return Err(SolveError::MemoryLimit(limits.max_memory));
                    }
                    graph.options.push(to);
                }
                part += 1;
                while part < key.len() && key[part] == key[part - 1] {
                    part += 1;
                }
            }
        }
        graph.option_ends.push(graph.options.len());
        next += 1;
    }
    Ok(graph)
}

/// The label of every sum of `graph`: N, P or D.
fn label(solvers: &dyn Solvers, graph: &Graph) -> Result<Vec<u32>, SolveError> {
    let limits = solvers.limits();
    let n = graph.labels.len();
    // The options of each sum still unlabelled, and who has each sum as an option.
    let mut left: Vec<u32> = Vec::with_capacity(n);
    let mut from_start = vec![0usize; n + 1];
    let held = budget::vector(&graph.options, 0)
        + 4 * n * size_of::<usize>()
        + graph.options.len() * size_of::<u32>();
    if held + graph.bytes(&[]) > limits.room() {
        return Err(SolveError::MemoryLimit(limits.max_memory));
    }
    for i in 0..n {
        left.push(graph.options_of(i).len() as u32);
        for &to in graph.options_of(i) {
            from_start[to as usize + 1] += 1;
        }
    }
    for i in 0..n {
        from_start[i + 1] += from_start[i];
    }
    let mut filled = from_start.clone();
    let mut from = vec![0u32; graph.options.len()];
    for i in 0..n {
        for &to in graph.options_of(i) {
            from[filled[to as usize]] = i as u32;
            filled[to as usize] += 1;
        }
    }
    drop(filled);
    let mut labels = graph.labels.clone();
    let mut queue: Vec<u32> = Vec::new();
    for (i, label) in labels.iter_mut().enumerate() {
        if *label == OPEN && left[i] == 0 {
            *label = N;
        }
        if *label == N || *label == P {
            queue.push(i as u32);
        }
    }
    let mut done = 0usize;
    while let Some(v) = queue.pop() {
        done += 1;
        if done.is_multiple_of(4096) {
            limits.check_interrupt()?;
        }
        let v = v as usize;
        for &u in &from[from_start[v]..from_start[v + 1]] {
            let u = u as usize;
            if labels[u] != OPEN {
                continue;
            }
            if labels[v] == P {
                labels[u] = N;
                queue.push(u as u32);
            } else {
                left[u] -= 1;
                if left[u] == 0 {
                    labels[u] = P;
                    queue.push(u as u32);
                }
            }
        }
    }
    for label in &mut labels {
        if *label == OPEN {
            *label = D;
        }
    }
    Ok(labels)
}
