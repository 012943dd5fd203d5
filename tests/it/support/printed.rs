//! Reading the interpreter's printed answers back into numbers, for the tests.

use std::fmt::Debug;
use std::str::FromStr;

/// The values a `sequence` answer prints: every number after the `:` of each line but the
/// first (the line that names the game and the range).
pub fn sequence_values<T: FromStr>(out: &str) -> Vec<T>
where
    T::Err: Debug,
{
    out.lines()
        .skip(1)
        .flat_map(|line| line.split(':').nth(1).unwrap().split_whitespace())
        .map(|v| v.parse().unwrap())
        .collect()
}

/// The numbers that follow `preperiod ` and `, period ` in a `period` answer.
#[allow(dead_code)] // not every test that reads sequences reads periods
pub fn period_reported(out: &str) -> Option<(usize, usize)> {
    let after = |word: &str| -> Option<usize> {
        let rest = &out[out.find(word)? + word.len()..];
        rest.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    };
    Some((after("preperiod ")?, after(", period ")?))
}
