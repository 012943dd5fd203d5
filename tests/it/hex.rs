//! Hexadecimal codes (`hex 0.3F`): values against a brute force (`support/octal_values.rs`, the
//! plain mex over every move, splits in three included), proved periods against that brute force
//! on a long prefix, and codes whose digits are all at most 7 against the same `octal` code.

use crate::support::octal_values::values as brute;
use crate::support::printed;

use grundy::game::{Limits, Method};
use proptest::prelude::*;

fn run_with(source: &str, limits: Limits) -> String {
    grundy::run_to_string_with("hex", source, limits).unwrap_or_else(|e| panic!("{source}\n{e}"))
}

fn run(source: &str) -> String {
    run_with(source, Limits::default())
}

/// The values of heaps `0..len` as `sequence` prints them.
fn sequence(game_line: &str, len: usize) -> Vec<u64> {
    let out = run(&format!("{game_line}\nsequence g 0..{len}"));
    printed::sequence_values(&out)
}

fn hex_digit(d: u8) -> char {
    char::from_digit(d as u32, 16).unwrap().to_ascii_uppercase()
}

#[test]
fn three_way_splits_have_their_values() {
    // 0.8: take one token and leave three non-empty heaps; 0.F: take one in every way.
    for (code, digits) in [
        ("0.8", &[0u8, 8][..]),
        ("0.F", &[0, 15]),
        ("0.3F", &[0, 3, 15]),
        ("8.1", &[8, 1]),
        ("C.0", &[12]),
        ("0.0c", &[0, 0, 12]),
    ] {
        let line = format!("game g = hex {code}");
        assert_eq!(sequence(&line, 150), brute(digits, 150), "{code}");
    }
}

#[test]
fn a_proved_period_holds_far_beyond_the_proof() {
    let out = run("game g = hex 0.F\nperiod g\ngrundy g[10^18]\ngrundy g[10^18 + 1]");
    assert!(out.contains("proved: the periodicity theorem of Guy and Smith, carried to moves that leave three heaps"), "{out}");
    let g = brute(&[0, 15], 300);
    let (n0, p) = printed::period_reported(&out).unwrap();
    assert!((n0..300 - p).all(|n| g[n + p] == g[n]), "{out}");
    let at = |n: u64| g[n0 + ((n - n0 as u64) % p as u64) as usize];
    let huge: Vec<String> = [10u64.pow(18), 10u64.pow(18) + 1]
        .iter()
        .map(|&n| at(n).to_string())
        .collect();
    assert_eq!(out.lines().skip(1).collect::<Vec<_>>(), huge);
}

/// The method of game `g` after `source`.
fn method(source: &str) -> Method {
    let mut session = grundy::Session::new(Limits::default());
    session.run("hex", source, &mut Vec::new()).unwrap();
    session.method("g").unwrap().1
}

#[test]
fn the_method_names_the_splits_in_three() {
    assert_eq!(
        method("game g = hex 0.3F").to_string(),
        format!(
            "heap sequence: sparse space (no mask chosen yet: every pair; {} kernels), takes and \
             splits and splits in three; periods proved by Guy–Smith for three heaps",
            grundy::game::heap::Kernels::detect().name()
        )
    );
}

#[test]
fn the_moves_of_a_huge_heap_that_splits_in_three_are_refused() {
    let err = grundy::run_to_string_with(
        "hex",
        "game g = hex 0.F\nwin g[10^18] + g[3]",
        Limits::default(),
    )
    .unwrap_err();
    assert!(err.contains("three_way_splits"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random hexadecimal codes: the values of the plain definition, and every proved period
    /// holds on a prefix of the brute force longer than the proof read.
    #[test]
    fn random_codes_have_the_values_of_the_plain_definition(
        first in prop::sample::select(vec![0u8, 4, 8, 12]),
        digits in prop::collection::vec(0u8..=15, 1..=3),
    ) {
        prop_assume!(digits[digits.len() - 1] != 0);
        let code: String = digits.iter().map(|&d| hex_digit(d)).collect();
        let line = format!("game g = hex {}.{code}", hex_digit(first));
        let mut all = vec![first];
        all.extend(&digits);
        let g = brute(&all, 200);
        prop_assert_eq!(sequence(&line, 200), g.clone(), "{}", line);
        let limits = Limits { max_states: 180, ..Limits::default() };
        let out = run_with(&format!("{line}\nperiod g up to 180"), limits);
        if out.contains(", proved") {
            let (n0, p) = printed::period_reported(&out).unwrap();
            prop_assert!((n0..200 - p).all(|n| g[n + p] == g[n]), "{}\n{}", line, out);
        }
    }

    /// A hexadecimal code whose digits are all at most 7 is the octal code: the same values,
    /// method and `period` claim.
    #[test]
    fn codes_of_octal_digits_are_the_octal_game(
        first in prop::sample::select(vec![0u8, 4]),
        digits in prop::collection::vec(0u8..=7, 1..=3),
    ) {
        prop_assume!(digits[digits.len() - 1] != 0);
        let code = format!("{first}.{}", digits.iter().map(|&d| hex_digit(d)).collect::<String>());
        let limits = Limits { max_states: 4096, ..Limits::default() };
        let answers = |base: &str| {
            run_with(&format!("game g = {base} {code}\nsequence g 0..=300\nperiod g up to 4096"), limits.clone())
        };
        prop_assert_eq!(answers("hex"), answers("octal"));
        prop_assert_eq!(method(&format!("game g = hex {code}")), method(&format!("game g = octal {code}")));
    }
}
