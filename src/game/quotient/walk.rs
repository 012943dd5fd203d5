//! Walks over the sums of heaps (words: how many of each heap) in colex order — the count of
//! the last heap first — which every option of a sum precedes (a move replaces a heap by
//! earlier ones). On them: marking the P-portion of a candidate monoid from the options of the
//! first sum of each element, the first sum of each element, and the verification that a
//! candidate gives every sum its outcome (Plambeck and Siegel: a sum it calls P has no option
//! it calls P, and a sum it calls N has one).

use std::cmp::Ordering;
use std::rc::Rc;

use super::super::{Limits, SolveError};
use super::monoid::{Element, Product, Table};

/// A monoid that the walks multiply in.
pub(super) trait Monoid {
    fn size(&self) -> usize;
    fn mul(&self, x: Element, y: Element) -> Element;
}

impl Monoid for Table {
    fn size(&self) -> usize {
        Table::size(self)
    }
    fn mul(&self, x: Element, y: Element) -> Element {
        Table::mul(self, x, y)
    }
}

impl Monoid for Product {
    fn size(&self) -> usize {
        Product::size(self)
    }
    fn mul(&self, x: Element, y: Element) -> Element {
        Product::mul(self, x, y)
    }
}

/// A heap that can move, as a candidate sees it: its element, and the elements of its options
/// (sorted, distinct, never empty).
#[derive(Clone, Debug)]
pub(super) struct Heap {
    pub(super) image: Element,
    pub(super) moves: Vec<Element>,
}

/// A sum: how many of each heap that can move, in the order of the heaps.
pub(super) type Word = Vec<u32>;

/// Colex order: the count of the last heap decides first.
pub(super) fn colex(a: &[u32], b: &[u32]) -> Ordering {
    let n = a.len().max(b.len());
    for i in (0..n).rev() {
        let (x, y) = (
            a.get(i).copied().unwrap_or(0),
            b.get(i).copied().unwrap_or(0),
        );
        if x != y {
            return x.cmp(&y);
        }
    }
    Ordering::Equal
}

/// What a walk does with the sum it reached.
pub(super) enum Step {
    /// Skip this sum and every sum that adds to it heaps not after the one just added.
    Prune,
    Visit,
    Stop,
}

/// The element and the option elements of a sum.
#[derive(Clone)]
struct State {
    element: Element,
    moves: Rc<Vec<Element>>,
}

/// A sum the walk reached: its element at once, its option elements computed when asked (a
/// sum pruned on its element alone never lists them).
pub(super) struct Reached<'a, M: Monoid> {
    monoid: &'a M,
    /// The sum before the heap was added, and the heap; `None` for the empty sum.
    from: Option<(&'a State, &'a Heap)>,
    element: Element,
    moves: Option<Rc<Vec<Element>>>,
}

impl<M: Monoid> Reached<'_, M> {
    pub(super) fn element(&self) -> Element {
        self.element
    }

    /// The options of sum + heap: those of the sum plus the heap, and the sum plus those of
    /// the heap (sorted, distinct).
    pub(super) fn moves(&mut self) -> &[Element] {
        if self.moves.is_none() {
            let moves = match self.from {
                None => Vec::new(),
                Some((state, heap)) => {
                    let mut moves = Vec::with_capacity(state.moves.len() + heap.moves.len());
                    moves.extend(state.moves.iter().map(|&t| self.monoid.mul(t, heap.image)));
                    moves.extend(
                        heap.moves
                            .iter()
                            .map(|&s| self.monoid.mul(state.element, s)),
                    );
                    moves.sort_unstable();
                    moves.dedup();
                    moves
                }
            };
            self.moves = Some(Rc::new(moves));
        }
        self.moves.as_deref().expect("just computed")
    }

    fn into_state(mut self, with_moves: bool) -> State {
        let moves = match (with_moves, self.from) {
            (true, _) => {
                self.moves();
                self.moves.take().expect("computed")
            }
            (false, Some((state, _))) => state.moves.clone(),
            (false, None) => Rc::new(Vec::new()),
        };
        State {
            element: self.element,
            moves,
        }
    }
}

/// Calls `step` on the empty sum, then on the sums in colex order, each with its element and
/// (asked for, with `with_moves`) its option elements, skipping what it prunes, until it
/// stops. The sums after a pruned one that only add earlier heaps to it are skipped too.
pub(super) fn walk<M: Monoid>(
    monoid: &M,
    heaps: &[Heap],
    with_moves: bool,
    interrupted: &dyn Fn() -> Result<(), SolveError>,
    step: &mut dyn FnMut(&mut Reached<'_, M>, &Word) -> Step,
) -> Result<(), SolveError> {
    let k = heaps.len();
    let mut word = vec![0u32; k];
    let empty = State {
        element: 0,
        moves: Rc::new(Vec::new()),
    };
    // prefix[d]: the sum of the heaps from d on, as counted by `word`.
    let mut prefix = vec![empty; k + 1];
    let mut start = Reached {
        monoid,
        from: None,
        element: 0,
        moves: None,
    };
    if let Step::Stop = step(&mut start, &word) {
        return Ok(());
    }
    let mut d = 0;
    let mut steps = 0u64;
    while d < k {
        steps += 1;
        if steps.is_multiple_of(1024) {
            interrupted()?;
        }
        let mut reached = Reached {
            monoid,
            from: Some((&prefix[d], &heaps[d])),
            element: monoid.mul(prefix[d].element, heaps[d].image),
            moves: None,
        };
        word[d] += 1;
        match step(&mut reached, &word) {
            Step::Prune => {
                word[d] = 0;
                d += 1;
            }
            Step::Visit => {
                let next = reached.into_state(with_moves);
                for p in prefix.iter_mut().take(d) {
                    *p = next.clone();
                }
                prefix[d] = next;
                d = 0;
            }
            Step::Stop => return Ok(()),
        }
    }
    Ok(())
}

/// The P-portion of a candidate: an element is P when the first sum that has it has options
/// and none of them is P. With `until`, only the elements whose first sum comes before it (or
/// is it) in colex order are marked (the rest stay N). An element not reached stays N (none
/// is in a monoid the heaps generate).
pub(super) fn mark<M: Monoid>(
    monoid: &M,
    heaps: &[Heap],
    until: Option<&Word>,
    interrupted: &dyn Fn() -> Result<(), SolveError>,
) -> Result<Vec<bool>, SolveError> {
    let mut marked = vec![false; monoid.size()];
    let mut p = vec![false; monoid.size()];
    walk(monoid, heaps, true, interrupted, &mut |reached, word| {
        let e = reached.element() as usize;
        if marked[e] {
            return Step::Prune;
        }
        if until.is_some_and(|u| colex(word, u).is_gt()) {
            return Step::Stop;
        }
        let moves = reached.moves();
        debug_assert!(moves.iter().all(|&t| marked[t as usize]));
        p[e] = !moves.is_empty() && moves.iter().all(|&t| !p[t as usize]);
        marked[e] = true;
        Step::Visit
    })?;
    Ok(p)
}

/// The first sum, in colex order, of each element.
pub(super) fn first_words(
    table: &Table,
    heaps: &[Heap],
    interrupted: &dyn Fn() -> Result<(), SolveError>,
) -> Result<Vec<Word>, SolveError> {
    let mut first: Vec<Option<Word>> = vec![None; table.size()];
    walk(table, heaps, false, interrupted, &mut |reached, word| {
        let e = reached.element() as usize;
        if first[e].is_some() {
            return Step::Prune;
        }
        first[e] = Some(word.clone());
        Step::Visit
    })?;
    Ok(first.into_iter().map(Option::unwrap_or_default).collect())
}

/// Per element, option sets of sums that have it, such that every sum's option set contains
/// one of them (the minimal ones a verification met).
pub(super) type Antichains = Vec<Vec<Box<[Element]>>>;

/// Whether `a` (sorted) is a subset of `b` (sorted).
pub(super) fn subset(a: &[Element], b: &[Element]) -> bool {
    let mut rest = b.iter();
    a.iter().all(|x| rest.by_ref().any(|y| y == x))
}

/// Adds `moves` to the minimal sets of its element unless one of them is inside it.
fn incorporate(list: &mut Vec<Box<[Element]>>, moves: &[Element]) -> bool {
    if list.iter().any(|s| subset(s, moves)) {
        return false;
    }
    list.retain(|s| !subset(moves, s));
    list.push(moves.into());
    true
}

/// Whether a candidate gives every sum its outcome: the minimal option sets of its elements
/// when it does, else the first sum (in colex order) it gets wrong. That sum's options all get
/// theirs right, so its true outcome is the opposite of the candidate's.
pub(super) fn verify(
    table: &Table,
    p: &[bool],
    heaps: &[Heap],
    first: &[Word],
    limits: &Limits,
    interrupted: &dyn Fn() -> Result<(), SolveError>,
) -> Result<Result<Antichains, Word>, SolveError> {
    let size = table.size();
    // A P sum with an option that is P: x + heap for the first sum x of an element.
    let mut failure: Option<Word> = None;
    for (x, word) in first.iter().enumerate() {
        for (i, heap) in heaps.iter().enumerate() {
            let x = x as Element;
            if p[table.mul(x, heap.image) as usize]
                && heap.moves.iter().any(|&s| p[table.mul(x, s) as usize])
            {
                let mut w = word.clone();
                w.resize(heaps.len(), 0);
                w[i] += 1;
                if failure.as_ref().is_none_or(|f| colex(&w, f).is_lt()) {
                    failure = Some(w);
                }
            }
        }
    }
    // An N sum with no option that is P, among the sums before that one.
    let mut antichains: Antichains = vec![Vec::new(); size];
    let mut held = 0usize;
    let mut over = false;
    let mut n_failure = None;
    walk(table, heaps, true, interrupted, &mut |reached, word| {
        if failure.as_ref().is_some_and(|f| colex(word, f).is_ge()) {
            return Step::Stop;
        }
        let e = reached.element();
        let moves = reached.moves();
        if moves.is_empty() {
            return Step::Visit;
        }
        if !incorporate(&mut antichains[e as usize], moves) {
            return Step::Prune;
        }
        held += 32 + moves.len() * 4;
        if held > limits.room() {
            over = true;
            return Step::Stop;
        }
        if !p[e as usize] && moves.iter().all(|&t| !p[t as usize]) {
            n_failure = Some(word.clone());
            return Step::Stop;
        }
        Step::Visit
    })?;
    if over {
        return Err(SolveError::MemoryLimit(limits.max_memory));
    }
    Ok(match n_failure.or(failure) {
        Some(word) => Err(word),
        None => Ok(antichains),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_visits_sums_in_colex_order() {
        // Two heaps in Z3 x Z3 (each of order 3): every word with counts below 3, in order.
        let z3 = Table::cyclic(0, 3);
        let product = Product::new(vec![z3.clone(), z3], 100).unwrap();
        let heaps = [
            Heap {
                image: product.embed(0, 1),
                moves: vec![0],
            },
            Heap {
                image: product.embed(1, 1),
                moves: vec![0],
            },
        ];
        let mut seen = [false; 9];
        let mut words = Vec::new();
        let ok = || Ok(());
        walk(&product, &heaps, false, &ok, &mut |reached, w| {
            if std::mem::replace(&mut seen[reached.element() as usize], true) {
                return Step::Prune;
            }
            words.push(w.clone());
            Step::Visit
        })
        .unwrap();
        let expected: Vec<Word> = (0..3)
            .flat_map(|b| (0..3).map(move |a| vec![a, b]))
            .collect();
        assert_eq!(words, expected);
        assert!(words.windows(2).all(|w| colex(&w[0], &w[1]).is_lt()));
    }
}
