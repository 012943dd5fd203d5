//! Loopy games: generalized Sprague–Grundy values (after Smith and Fraenkel), where a move may
//! return to an earlier position and a game may be drawn.

use std::ops::ControlFlow;

use rustc_hash::FxHashMap;

use super::vocabulary::GValue;
use super::{budget, Game, Limits, SolveError};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Label {
    Finite(u64),
    Infinite,
}

/// Labels every state reachable from `root` with its generalized value, adding them to `known`.
/// Options must be single states (a heap game whose moves split heaps is refused).
pub fn label(
    game: &dyn Game,
    root: &[i64],
    limits: &Limits,
    known: &mut FxHashMap<Box<[i64]>, GValue>,
) -> Result<(), SolveError> {
    if known.contains_key(root) {
        return Ok(());
    }
    let (states, followers) = reachable(game, root, limits, known)?;
    let n = states.len();
    let mut labels: Vec<Option<Label>> = vec![None; n];
    let mut unlabeled = n;
    let mut i = 0u64;
    while unlabeled > 0 {
        limits.check_interrupt()?;
        let has_i = |labels: &[Option<Label>], v: usize| {
            followers[v]
                .iter()
                .any(|&w| labels[w] == Some(Label::Finite(i)))
        };
        loop {
            let mut changed = false;
            for u in 0..n {
                if labels[u].is_some() || has_i(&labels, u) {
                    continue;
                }
                let answered = followers[u].iter().all(|&v| match labels[v] {
                    Some(Label::Finite(_)) => true,
                    None | Some(Label::Infinite) => has_i(&labels, v),
                });
                if answered {
                    labels[u] = Some(Label::Finite(i));
                    unlabeled -= 1;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for u in 0..n {
            if labels[u].is_none() && !has_i(&labels, u) {
                labels[u] = Some(Label::Infinite);
                unlabeled -= 1;
            }
        }
        i += 1;
    }
    for (u, state) in states.into_iter().enumerate() {
        let value = match labels[u] {
            Some(Label::Finite(v)) => GValue::Finite(v),
            _ => {
                let mut k: Vec<u64> = followers[u]
                    .iter()
                    .filter_map(|&v| match labels[v] {
                        Some(Label::Finite(x)) => Some(x),
                        _ => None,
                    })
                    .collect();
                k.sort_unstable();
                k.dedup();
                GValue::Infinite(k)
            }
        };
        if let Some(state) = state {
            known.insert(state, value);
        }
    }
    Ok(())
}

/// The bytes of the values labelled and kept.
pub fn kept_bytes(known: &FxHashMap<Box<[i64]>, GValue>) -> usize {
    let entries: usize = (known.iter())
        .map(|(state, value)| {
            let options = match value {
                GValue::Infinite(options) => budget::vector(options, 0),
                GValue::Finite(_) => 0,
            };
            budget::boxed(state.len() * 8) + options
        })
        .sum();
    budget::table(known, false) + entries
}

/// The bytes of the values labelled so far (`known`), as many again for the values about to
/// be (`more` states of `width` counters), and the labels of the states being labelled.
fn known_bytes(known: &FxHashMap<Box<[i64]>, GValue>, more: usize, width: usize) -> usize {
    let entry = size_of::<(Box<[i64]>, GValue)>() + budget::boxed(width * 8);
    budget::table(known, false) + (known.len() + more) * entry * 2 + more * size_of::<Label>()
}

/// The states reachable from `root` and their followers. A heap option with no heaps left is
/// the state `None`, with no followers. Everything it holds, and what labelling it will take,
/// count against the memory limit as the states are found.
#[allow(clippy::type_complexity)]
fn reachable(
    game: &dyn Game,
    root: &[i64],
    limits: &Limits,
    known: &FxHashMap<Box<[i64]>, GValue>,
) -> Result<(Vec<Option<Box<[i64]>>>, Vec<Vec<usize>>), SolveError> {
    let heap_like = game.heap_like();
    let width = root.len();
    let key = budget::boxed(width * 8);
    let mut index: FxHashMap<Option<Box<[i64]>>, usize> = FxHashMap::default();
    let mut states: Vec<Option<Box<[i64]>>> = vec![Some(root.into())];
    let mut followers: Vec<Vec<usize>> = vec![Vec::new()];
    index.insert(Some(root.into()), 0);
    // The bytes of the followers' lists and of the keys (each twice: in `index` and `states`).
    let mut held = 2 * key;
    let mut options: Vec<Option<Box<[i64]>>> = Vec::new();
    let mut next = 0;
    while next < states.len() {
        if states.len() > limits.max_states {
            return Err(SolveError::StateLimit(limits.max_states));
        }
        if next % 1024 == 0 {
            limits.check_interrupt()?;
        }
        let Some(state) = states[next].clone() else {
            next += 1;
            continue;
        };
        // Each option may be a new state: its keys, its place in the tables, its label.
        let room = |options: usize| {
            let new = states.len() + options;
            held + new * (2 * key + size_of::<Vec<usize>>() + 64)
                + budget::table(&index, false)
                + budget::vector(&states, options)
                + budget::vector(&followers, options)
                + known_bytes(known, new, width)
        };
        options.clear();
        let mut split = false;
        let mut over = false;
        let result = game.options(&state, &mut |option| {
            if room(options.len() + 1) + budget::vector(&options, 1) > limits.room() {
                over = true;
                return ControlFlow::Break(());
            }
            if heap_like {
                match option {
                    [] => options.push(None),
                    [h] => options.push(Some(Box::new([*h]))),
                    _ => split = true,
                }
            } else {
                let mut option = option.to_vec();
                game.canonicalize(&mut option);
                options.push(Some(option.into()));
            }
            ControlFlow::Continue(())
        });
        if over {
            return Err(SolveError::MemoryLimit(limits.max_memory));
        }
        result?;
        if split {
            return Err(SolveError::LoopySplit(game.describe(&state)));
        }
        for option in options.drain(..) {
            let id = match index.get(&option) {
                Some(&id) => id,
                None => {
                    held += 2 * key;
                    index.insert(option.clone(), states.len());
                    states.push(option);
                    followers.push(Vec::new());
                    states.len() - 1
                }
            };
            followers[next].push(id);
        }
        held += budget::boxed(followers[next].capacity() * 8);
        next += 1;
    }
    Ok((states, followers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::vocabulary::Outcome;

    #[test]
    fn sums_follow_smith() {
        let inf = GValue::Infinite(vec![0, 2]);
        assert_eq!(GValue::Finite(3).sum(&GValue::Finite(5)), GValue::Finite(6));
        assert_eq!(inf.sum(&GValue::Finite(2)), GValue::Infinite(vec![0, 2]));
        assert_eq!(inf.sum(&GValue::Finite(1)), GValue::Infinite(vec![1, 3]));
        assert_eq!(inf.sum(&GValue::Finite(1)).outcome(), Outcome::D);
        assert_eq!(inf.outcome(), Outcome::N);
        assert_eq!(inf.sum(&inf).outcome(), Outcome::D);
        assert_eq!(inf.to_string(), "∞{0, 2}");
    }
}
