//! Heap games whose moves reach few heaps (`n -> n / 2`, `n -> n - d` for the largest proper
//! divisor, `n -> floor(sqrt(n))`) are searched from the target, storing only the heaps reached;
//! games that reach every smaller heap fill a table in order. The choice is the solver's, and
//! every answer is checked here against a brute force written independently: a bottom-up mex
//! for every heap up to a few thousand, a memoized recursion for heaps up to 10^18.

use std::collections::HashMap;
use std::sync::Arc;

use grundy::game::{Emit, Game, Limits, SolveError, Solver};
use proptest::prelude::*;

/// One kind of move of a test game.
#[derive(Clone, Copy, Debug)]
enum Move {
    Half,
    Third,
    MinusOne,
    /// `n - d` for the largest proper divisor `d` of `n >= 2`.
    MinusLargestDivisor,
    /// `floor(sqrt(n))`, for `n >= 2`.
    Sqrt,
    /// Split `n >= 2` into `n / 2` and `n / 3`.
    SplitHalfThird,
    /// `n - 2` when `n` is even.
    MinusTwoIfEven,
}

const MOVES: [Move; 7] = [
    Move::Half,
    Move::Third,
    Move::MinusOne,
    Move::MinusLargestDivisor,
    Move::Sqrt,
    Move::SplitHalfThird,
    Move::MinusTwoIfEven,
];

fn smallest_prime_factor(n: i64) -> i64 {
    (2..)
        .take_while(|d| d * d <= n)
        .find(|d| n % d == 0)
        .unwrap_or(n)
}

/// The options of heap `n`, each a list of heaps (independent of the engine's code).
fn options_of(moves: &[Move], n: i64) -> Vec<Vec<i64>> {
    let mut options = Vec::new();
    for m in moves {
        match m {
            Move::Half if n > 0 => options.push(vec![n / 2]),
            Move::Third if n > 0 => options.push(vec![n / 3]),
            Move::MinusOne if n > 0 => options.push(vec![n - 1]),
            Move::MinusLargestDivisor if n >= 2 => {
                options.push(vec![n - n / smallest_prime_factor(n)])
            }
            Move::Sqrt if n >= 2 => options.push(vec![n.isqrt()]),
            Move::SplitHalfThird if n >= 2 => options.push(vec![n / 2, n / 3]),
            Move::MinusTwoIfEven if n >= 2 && n % 2 == 0 => options.push(vec![n - 2]),
            _ => {}
        }
    }
    options
}

struct TestGame(Vec<Move>);

impl Game for TestGame {
    fn heap_like(&self) -> bool {
        true
    }

    fn options(&self, state: &[i64], emit: &mut Emit<'_>) -> Result<(), SolveError> {
        for option in options_of(&self.0, state[0]) {
            if emit(&option).is_break() {
                break;
            }
        }
        Ok(())
    }

    fn describe(&self, state: &[i64]) -> String {
        format!("test[{}]", state[0])
    }
}

fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let values: Vec<u64> = values.into_iter().collect();
    (0..).find(|v| !values.contains(v)).unwrap()
}

/// Every heap's value from 0 to `last`, bottom-up (every move leaves smaller heaps).
fn bottom_up(moves: &[Move], last: i64) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=last {
        let values = options_of(moves, n)
            .iter()
            .map(|o| o.iter().fold(0, |x, &h| x ^ g[h as usize]))
            .collect::<Vec<_>>();
        g.push(mex(values));
    }
    g
}

/// The value of one heap by memoized recursion (its depth is that of the game: small here).
fn recursive(moves: &[Move], n: i64, memo: &mut HashMap<i64, u64>) -> u64 {
    if let Some(&v) = memo.get(&n) {
        return v;
    }
    let mut values = Vec::new();
    for option in options_of(moves, n) {
        values.push(option.iter().fold(0, |x, &h| x ^ recursive(moves, h, memo)));
    }
    let v = mex(values);
    memo.insert(n, v);
    v
}

fn solver(moves: &[Move]) -> Solver {
    Solver::new(Arc::new(TestGame(moves.to_vec())))
}

fn limits(max_states: usize) -> Limits {
    Limits {
        max_states,
        ..Limits::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every heap up to 6,000, asked in a scrambled order (so that some targets are far beyond
    /// the heaps known and searched, others near and filled), against the bottom-up mex. Under
    /// a state limit of 2,000, heaps beyond it are answered by the search or refused with the
    /// state limit, never answered wrongly.
    #[test]
    fn the_search_and_the_table_give_the_values_of_the_definition(
        picked in proptest::collection::vec(any::<bool>(), MOVES.len()),
        stride in 1usize..6000,
        small_limit in any::<bool>(),
    ) {
        let moves: Vec<Move> = MOVES.iter().zip(&picked).filter(|(_, &p)| p).map(|(m, _)| *m).collect();
        let last = 6000i64;
        let expected = bottom_up(&moves, last);
        let limits = limits(if small_limit { 2000 } else { 20_000_000 });
        let mut solver = solver(&moves);
        let count = last as usize + 1;
        // A stride coprime with the count visits every heap once.
        let stride = (stride..).find(|s| gcd(*s, count) == 1).unwrap();
        for i in 0..count {
            let n = (i * stride % count) as i64;
            match solver.value(&[n], &limits) {
                Ok(v) => prop_assert_eq!(v, expected[n as usize], "{:?} heap {}", moves, n),
                Err(SolveError::StateLimit(_)) if small_limit => {}
                Err(e) => prop_assert!(false, "{:?} heap {}: {:?}", moves, n, e),
            }
        }
    }

    /// Heaps up to 10^18 of games of sparse reach, against the memoized recursion.
    #[test]
    fn huge_heaps_of_sparse_reach_are_answered(
        picked in proptest::collection::vec(any::<bool>(), 3),
        n in 0i64..=1_000_000_000_000_000_000,
    ) {
        let sparse = [Move::Half, Move::Sqrt, Move::SplitHalfThird];
        let mut moves: Vec<Move> = sparse.iter().zip(&picked).filter(|(_, &p)| p).map(|(m, _)| *m).collect();
        moves.push(Move::Third);
        let expected = recursive(&moves, n, &mut HashMap::new());
        let got = solver(&moves).value(&[n], &limits(20_000_000));
        prop_assert_eq!(got, Ok(expected), "{:?} heap {}", moves, n);
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn heap_10_to_the_18_less_its_largest_divisor_is_answered() {
    let moves = [Move::MinusLargestDivisor];
    let n = 1_000_000_000_000_000_000;
    let expected = recursive(&moves, n, &mut HashMap::new());
    let mut solver = solver(&moves);
    assert_eq!(solver.value(&[n], &Limits::default()), Ok(expected));
    assert!(solver.stored() < 100, "{} heaps stored", solver.stored());
}

#[test]
fn the_table_is_dense_only_when_the_reach_is() {
    let limits = Limits::default();
    let mut halve = solver(&[Move::Half]);
    halve.value(&[1_000_000], &limits).unwrap();
    // 10^6 has 20 binary digits: the search stores the 21 heaps on the way to 0.
    assert_eq!(halve.stored(), 21);
    let mut chain = solver(&[Move::MinusOne, Move::Half]);
    chain.value(&[1_000_000], &limits).unwrap();
    assert!(
        chain.stored() >= 1_000_000,
        "{} heaps stored",
        chain.stored()
    );
}

#[test]
fn a_huge_heap_of_dense_reach_is_refused_with_how_far_the_search_went() {
    let mut chain = solver(&[Move::MinusOne, Move::Half]);
    match chain.value(&[1 << 40], &Limits::default()) {
        Err(SolveError::Unknown {
            heap,
            searched: Some(searched),
            ..
        }) => {
            assert_eq!(heap, 1 << 40);
            assert!(searched > 0);
        }
        other => panic!("{other:?}"),
    }
    // The refusal leaves the solver as it was: a small heap is still answered.
    let expected = bottom_up(&[Move::MinusOne, Move::Half], 10);
    assert_eq!(chain.value(&[10], &Limits::default()), Ok(expected[10]));
}

#[test]
fn the_language_answers_huge_heaps_of_sparse_reach() {
    let source = "
        game halve on n { if n > 0 { n = n / 2 } }
        game down on n { if n > 0 { n -= 1 }\n if n > 1 { n = n / 2 } }
        print grundy(halve[10^18])
        print grundy(halve[10^18] + halve[3])
    ";
    let out = grundy::run_to_string("sparse", source).unwrap_or_else(|e| panic!("{e}"));
    let memo = &mut HashMap::new();
    let g = recursive(&[Move::Half], 1_000_000_000_000_000_000, memo);
    let g3 = recursive(&[Move::Half], 3, memo);
    assert_eq!(out, format!("{g}\n{}\n", g ^ g3));
    let refused = grundy::run_to_string("dense", &format!("{source}\nprint grundy(down[10^18])"))
        .unwrap_err();
    assert!(refused.contains("grundy::unproved"), "{refused}");
    assert!(refused.contains("gave up"), "{refused}");
}
