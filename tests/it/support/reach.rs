//! The graph of the states reachable from some starts, for the brute forces of the tests.

use std::collections::HashMap;
use std::hash::Hash;

/// Every state reachable from `starts` (the starts first, in their order), and the options of
/// each as indices into that list, found breadth-first.
pub fn reachable<S: Clone + Eq + Hash>(
    starts: &[S],
    moves: impl Fn(&S) -> Vec<S>,
) -> (Vec<S>, Vec<Vec<usize>>) {
    let mut states: Vec<S> = starts.to_vec();
    let mut seen: HashMap<S, usize> = HashMap::new();
    for (i, s) in states.iter().enumerate() {
        seen.entry(s.clone()).or_insert(i);
    }
    let mut options: Vec<Vec<usize>> = Vec::new();
    while options.len() < states.len() {
        let mut these = Vec::new();
        for m in moves(&states[options.len()]) {
            let len = states.len();
            let i = *seen.entry(m.clone()).or_insert(len);
            if i == len {
                states.push(m);
            }
            these.push(i);
        }
        options.push(these);
    }
    (states, options)
}
