//! The quotient of a growing set of heaps, one heap at a time, by the method of Siegel's
//! MisereSolver (after Plambeck and Siegel, "Misère quotients for impartial games").
//!
//! What is kept is a *pretension* proved faithful: a finite commutative monoid with a P-portion
//! and an element for each heap, such that every sum of the heaps is a P-position exactly when
//! the product of its heaps' elements is in the P-portion; reduced, it is the quotient. A new
//! heap is first tried as an element already there (a conservative extension). When none
//! fits, the monoid grows by a free generator for it (x^4 = x^2), its P-portion marked from the
//! first sum of each element, and is reduced and verified; while the verification finds a
//! first sum it gets wrong, the heaps of that sum are freed (given generators of their own,
//! their powers distinct up to their counts in it), fewest first, until the sum comes out right.

use super::super::{budget, Limits, SolveError};
use std::time::Instant;

use super::monoid::{self, Element, Product, Table};
use super::walk::{self, Antichains, Heap, Monoid, Word};

/// What a computation may spend: the limits, and for a quotient computed on demand a moment
/// after which it stops with [`SolveError::StateLimit`] (the whole-sum search answers then, so
/// only the time of an answer depends on it, never the answer).
pub(super) struct Effort<'a> {
    pub(super) limits: &'a Limits,
    deadline: Option<Instant>,
}

impl Effort<'_> {
    pub(super) fn new(limits: &Limits, deadline: Option<Instant>) -> Effort<'_> {
        Effort { limits, deadline }
    }

    /// Ctrl-C, and the deadline.
    pub(super) fn check(&self) -> Result<(), SolveError> {
        self.limits.check_interrupt()?;
        match self.deadline {
            Some(deadline) if Instant::now() > deadline => {
                Err(SolveError::StateLimit(self.limits.max_states))
            }
            _ => Ok(()),
        }
    }
}

/// A pretension proved faithful for the heaps so far.
#[derive(Clone)]
pub(super) struct Verified {
    pub(super) table: Table,
    pub(super) p: Vec<bool>,
    /// The heaps that can move, in the order added.
    pub(super) heaps: Vec<Heap>,
    /// The options of each heap: sums of the heaps before it, by index.
    options: Vec<Vec<Vec<usize>>>,
    first: Vec<Word>,
    antichains: Antichains,
    /// The bytes of the heaps' moves and of their options' lists, kept as heaps are added, so
    /// that [`Verified::bytes`] is no walk over every heap (a quotient of a million heaps
    /// charges itself after each).
    nested: usize,
}

/// The bytes of a heap's moves and its options' lists.
fn heap_bytes(moves: &Vec<Element>, options: &Vec<Vec<usize>>) -> usize {
    budget::vector(moves, 0)
        + budget::vector(options, 0)
        + options.iter().map(|o| budget::vector(o, 0)).sum::<usize>()
}

/// A pretension not yet verified, reduced.
struct Realized {
    table: Table,
    p: Vec<bool>,
    heaps: Vec<Heap>,
    first: Vec<Word>,
}

/// The most elements a candidate may have before it is reduced.
const MOST_CANDIDATE: usize = 1 << 24;

/// How many times the freed generators are widened for one heap before the search gives up.
const MOST_WIDENINGS: usize = 8;

impl Verified {
    /// The bytes it holds, and with `grows` while it takes one more heap.
    pub(super) fn bytes(&self, grows: bool) -> usize {
        let more = usize::from(grows);
        let antichains: usize = (self.antichains.iter())
            .map(|a| budget::vector(a, 0) + a.iter().map(|c| budget::boxed(c.len())).sum::<usize>())
            .sum();
        self.table.held()
            + budget::vector(&self.p, 0)
            + budget::vector(&self.heaps, more)
            + budget::vector(&self.options, more)
            + self.nested
            + budget::vector(&self.first, 0)
            + self
                .first
                .iter()
                .map(|w| budget::vector(w, 0))
                .sum::<usize>()
            + budget::vector(&self.antichains, 0)
            + antichains
    }

    /// The pretension of no heaps: the trivial monoid, nothing in P.
    pub(super) fn empty() -> Verified {
        Verified {
            table: Table::trivial(),
            p: vec![false],
            heaps: Vec::new(),
            options: Vec::new(),
            first: vec![Vec::new()],
            antichains: vec![Vec::new()],
            nested: 0,
        }
    }

    /// Adds a heap that can move, whose options are sums of the heaps before it (by index):
    /// whether the quotient grew. On an error nothing changes.
    pub(super) fn add(
        &mut self,
        options: Vec<Vec<usize>>,
        effort: &Effort,
    ) -> Result<bool, SolveError> {
        let interrupted = || effort.check();
        let limits = effort.limits;
        let moves = moves_of(&self.table, &self.heaps, &options);
        let want_p = moves.iter().all(|&t| !self.p[t as usize]);
        let size = self.table.size() as Element;
        let fits: Vec<Element> = (0..size)
            .filter(|&x| self.p[x as usize] == want_p && self.allows(x, &moves))
            .collect();
        // When some sum of element x has options among the heap's, every sum with the heap is
        // dominated by one without it, whose outcome is right.
        for &x in &fits {
            if self.antichains[x as usize]
                .iter()
                .any(|s| walk::subset(s, &moves))
            {
                self.nested += heap_bytes(&moves, &options);
                self.heaps.push(Heap { image: x, moves });
                self.options.push(options);
                return Ok(false);
            }
        }
        // Each element is tried with the heap pushed and taken off again (a copy of every heap
        // for each was as large as the quotient, and as slow as it is long).
        for &x in &fits {
            self.heaps.push(Heap {
                image: x,
                moves: moves.clone(),
            });
            let checked = walk::verify(
                &self.table,
                &self.p,
                &self.heaps,
                &self.first,
                limits,
                &interrupted,
            );
            match checked {
                Ok(Ok(antichains)) => {
                    self.nested += heap_bytes(&moves, &options);
                    self.options.push(options);
                    self.antichains = antichains;
                    return Ok(false);
                }
                Ok(Err(_)) => {
                    self.heaps.pop();
                }
                Err(e) => {
                    self.heaps.pop();
                    return Err(e);
                }
            }
        }
        let mut all_options = self.options.clone();
        all_options.push(options);
        let product = Product::new(
            vec![self.table.clone(), Table::cyclic(2, 2)],
            MOST_CANDIDATE,
        )
        .ok_or(SolveError::MemoryLimit(limits.max_memory))?;
        let mut images: Vec<Element> = self.heaps.iter().map(|h| h.image).collect();
        images.push(product.embed(1, 1));
        let mut realized = realize(&product, &images, &all_options, effort)?;
        let mut widening = 0;
        loop {
            let checked = walk::verify(
                &realized.table,
                &realized.p,
                &realized.heaps,
                &realized.first,
                limits,
                &interrupted,
            )?;
            match checked {
                Ok(antichains) => {
                    let nested = (realized.heaps.iter().zip(&all_options))
                        .map(|(h, o)| heap_bytes(&h.moves, o))
                        .sum();
                    *self = Verified {
                        table: realized.table,
                        p: realized.p,
                        heaps: realized.heaps,
                        options: all_options,
                        first: realized.first,
                        antichains,
                        nested,
                    };
                    return Ok(true);
                }
                Err(wrong) => {
                    realized = recalibrate(&realized, &wrong, &all_options, &mut widening, effort)?;
                }
            }
        }
    }

    /// Whether a heap of element x whose options have the elements `moves` keeps the P-portion
    /// honest: no sum it makes P has an option that is P.
    fn allows(&self, x: Element, moves: &[Element]) -> bool {
        let size = self.table.size() as Element;
        (0..size).all(|y| {
            !self.p[self.table.mul(y, x) as usize]
                || moves
                    .iter()
                    .all(|&t| !self.p[self.table.mul(y, t) as usize])
        })
    }
}

fn element_of<M: Monoid>(monoid: &M, heaps: &[Heap], sum: &[usize]) -> Element {
    sum.iter().fold(0, |x, &h| monoid.mul(x, heaps[h].image))
}

fn element_of_word(table: &Table, heaps: &[Heap], word: &Word) -> Element {
    let mut x = 0;
    for (i, &count) in word.iter().enumerate() {
        for _ in 0..count {
            x = table.mul(x, heaps[i].image);
        }
    }
    x
}

/// The elements of a heap's options (sorted, distinct).
fn moves_of<M: Monoid>(monoid: &M, heaps: &[Heap], options: &[Vec<usize>]) -> Vec<Element> {
    let mut moves: Vec<Element> = options
        .iter()
        .map(|o| element_of(monoid, heaps, o))
        .collect();
    moves.sort_unstable();
    moves.dedup();
    moves
}

/// The heaps of a candidate: their elements in a product, with those of their options.
fn candidate_heaps(
    product: &Product,
    images: &[Element],
    options: &[Vec<Vec<usize>>],
) -> Vec<Heap> {
    let mut heaps: Vec<Heap> = Vec::with_capacity(images.len());
    for (&image, options) in images.iter().zip(options) {
        let moves = moves_of(product, &heaps, options);
        heaps.push(Heap { image, moves });
    }
    heaps
}

/// Whether the candidate of a product and heap elements gives sum `wrong` the outcome `truth`
/// (P when true): only the sums up to it are marked, and nothing is reduced.
fn gets_right(
    product: &Product,
    images: &[Element],
    options: &[Vec<Vec<usize>>],
    wrong: &Word,
    truth: bool,
    effort: &Effort,
) -> Result<bool, SolveError> {
    let heaps = candidate_heaps(product, images, options);
    let p = walk::mark(product, &heaps, Some(wrong), &|| effort.check())?;
    let x = wrong.iter().enumerate().fold(0, |x, (i, &count)| {
        (0..count).fold(x, |x, _| product.mul(x, heaps[i].image))
    });
    Ok(p[x as usize] == truth)
}

/// The candidate of a product and heap elements: its P-portion marked, then reduced.
fn realize(
    product: &Product,
    images: &[Element],
    options: &[Vec<Vec<usize>>],
    effort: &Effort,
) -> Result<Realized, SolveError> {
    let interrupted = || effort.check();
    let limits = effort.limits;
    if budget::boxed(product.size() * 2) + budget::boxed(product.size() * 8) > limits.room() {
        return Err(SolveError::MemoryLimit(limits.max_memory));
    }
    let heaps = candidate_heaps(product, images, options);
    let p = walk::mark(product, &heaps, None, &interrupted)?;
    let reduced = monoid::reduce(product, images, &p, limits, &interrupted)?;
    let class = |x: Element| reduced.class[x as usize];
    let heaps: Vec<Heap> = heaps
        .into_iter()
        .map(|h| {
            let mut moves: Vec<Element> = h.moves.iter().map(|&t| class(t)).collect();
            moves.sort_unstable();
            moves.dedup();
            Heap {
                image: class(h.image),
                moves,
            }
        })
        .collect();
    let first = walk::first_words(&reduced.table, &heaps, &interrupted)?;
    Ok(Realized {
        table: reduced.table,
        p: reduced.p,
        heaps,
        first,
    })
}

/// A candidate that gets `wrong` right (its outcome is the opposite of what `realized` says):
/// some of the heaps in it, fewest first, get generators of their own. When no choice does,
/// every heap in it is freed with longer powers (`widening` counts how often).
fn recalibrate(
    realized: &Realized,
    wrong: &Word,
    options: &[Vec<Vec<usize>>],
    widening: &mut usize,
    effort: &Effort,
) -> Result<Realized, SolveError> {
    let limits = effort.limits;
    let truth = !realized.p[element_of_word(&realized.table, &realized.heaps, wrong) as usize];
    let involved: Vec<usize> = (0..wrong.len()).filter(|&i| wrong[i] > 0).collect();
    for count in 1..=involved.len() {
        for freed in combinations(&involved, count) {
            effort.check()?;
            let Some((product, images)) = freeing(realized, &freed, wrong, *widening) else {
                continue;
            };
            if gets_right(&product, &images, options, wrong, truth, effort)? {
                return realize(&product, &images, options, effort);
            }
        }
    }
    *widening += 1;
    if *widening > MOST_WIDENINGS {
        return Err(SolveError::MemoryLimit(limits.max_memory));
    }
    let (product, images) = freeing(realized, &involved, wrong, *widening)
        .ok_or(SolveError::MemoryLimit(limits.max_memory))?;
    realize(&product, &images, options, effort)
}

/// The product of the submonoid the other heaps generate and a cyclic monoid for each freed
/// heap, and the heaps' elements in it; `None` when it is too large.
fn freeing(
    realized: &Realized,
    freed: &[usize],
    wrong: &Word,
    widening: usize,
) -> Option<(Product, Vec<Element>)> {
    let table = &realized.table;
    let kept: Vec<Element> = (0..realized.heaps.len())
        .filter(|i| !freed.contains(i))
        .map(|i| realized.heaps[i].image)
        .collect();
    let (sub, place) = table.generated(&kept);
    let mut factors = vec![sub];
    for &i in freed {
        let (index, _) = table.index_and_period(realized.heaps[i].image);
        let index = index.max(wrong[i] as usize - 1) + 2 * widening;
        factors.push(Table::cyclic(index, 2 + 2 * widening));
    }
    let product = Product::new(factors, MOST_CANDIDATE)?;
    let images = (0..realized.heaps.len())
        .map(|i| match freed.iter().position(|&f| f == i) {
            Some(k) => product.embed(k + 1, 1),
            None => product.embed(0, place[realized.heaps[i].image as usize].expect("kept")),
        })
        .collect();
    Some((product, images))
}

/// The subsets of `values` with `count` elements, in lexicographic order.
fn combinations(values: &[usize], count: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    let mut chosen: Vec<usize> = (0..count).collect();
    loop {
        all.push(chosen.iter().map(|&i| values[i]).collect());
        let Some(i) = (0..count)
            .rev()
            .find(|&i| chosen[i] < values.len() - count + i)
        else {
            return all;
        };
        chosen[i] += 1;
        for j in i + 1..count {
            chosen[j] = chosen[j - 1] + 1;
        }
    }
}
