//! Periodicity of the Grundy values of heap games, and the theorems that prove it.

/// `G(n + period) = G(n) + saltus` for every `n >= preperiod`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    pub preperiod: usize,
    pub period: usize,
    pub saltus: u64,
}

/// What a heap game's moves are known to be, for the periodicity theorems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Structure {
    /// Nothing is known: periods are apparent, never proved.
    Unknown,
    /// Every smaller heap can be reached: `G(n) = n`.
    Nim,
    /// A finite subtraction set whose largest element is `largest`.
    Subtraction { largest: usize },
    /// An octal game with these digits (`digits[j]` for taking `j` tokens).
    Octal { digits: Vec<u8> },
}

impl Structure {
    /// How many values must repeat for the theorem that applies to prove `period`, and the
    /// theorem's name; `None` when no theorem applies.
    pub fn proof_needs(&self, period: &Period) -> Option<(usize, &'static str)> {
        if period.saltus != 0 {
            return None;
        }
        let (n0, p) = (period.preperiod, period.period);
        match self {
            Structure::Subtraction { largest } => Some((
                n0 + p + largest,
                "a subtraction game repeats once t consecutive values repeat",
            )),
            Structure::Octal { digits } => Some((
                2 * n0 + 2 * p + digits.len() - 1,
                "the periodicity theorem for octal games (Guy and Smith)",
            )),
            Structure::Nim | Structure::Unknown => None,
        }
    }
}

/// The period the values show, when the theorem for `structure` proves it from them, with the
/// theorem's name.
pub fn certified<T: Copy + Into<u64>>(
    values: &[T],
    structure: &Structure,
) -> Option<(Period, &'static str)> {
    let found = find(values)?;
    let (needed, theorem) = structure.proof_needs(&found)?;
    (needed <= values.len()).then_some((found, theorem))
}

/// The shortest period (then the shortest preperiod) that the values show, with a constant
/// saltus, confirmed over at least two whole periods after the preperiod. A period with a
/// saltus gives way to a longer one without a saltus that starts earlier: values such as
/// `0 0 0 0 0 1 1 1 1 1 2 2 2 2 2 3`, repeated, end in what looks like period 5, saltus 1.
pub fn find<T: Copy + Into<u64>>(values: &[T]) -> Option<Period> {
    let found = find_from(values, 1)?;
    if found.saltus != 0 {
        let mut p = found.period + 1;
        while let Some(plain) = find_from(values, p) {
            if plain.saltus == 0 && plain.preperiod < found.preperiod {
                return Some(plain);
            }
            p = plain.period + 1;
        }
    }
    Some(found)
}

fn find_from<T: Copy + Into<u64>>(values: &[T], shortest: usize) -> Option<Period> {
    let len = values.len();
    let at = |i: usize| -> u64 { values[i].into() };
    for p in shortest..=len / 3 {
        let last = len - 1;
        let Some(saltus) = at(last).checked_sub(at(last - p)) else {
            continue;
        };
        let mut n0 = last - p;
        while n0 > 0 && at(n0 - 1) + saltus == at(n0 - 1 + p) {
            n0 -= 1;
        }
        if len - p - n0 >= 2 * p && len - n0 >= 3 * p.max(4) {
            return Some(Period {
                preperiod: n0,
                period: p,
                saltus,
            });
        }
    }
    None
}

/// The value of heap `n` from a period and the first `preperiod + period` values.
pub fn extend(values: &[u64], period: &Period, n: u64) -> Option<u64> {
    let (n0, p) = (period.preperiod as u64, period.period as u64);
    if n < values.len() as u64 {
        return Some(values[n as usize]);
    }
    let cycles = (n - n0) / p;
    let base = values[(n0 + (n - n0) % p) as usize];
    cycles.checked_mul(period.saltus)?.checked_add(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_plain_and_arithmetic_periods() {
        let values: Vec<u64> = (0..60).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
        assert_eq!(
            find(&values),
            Some(Period {
                preperiod: 0,
                period: 7,
                saltus: 0
            })
        );
        let nim: Vec<u64> = (0..50).collect();
        assert_eq!(
            find(&nim),
            Some(Period {
                preperiod: 0,
                period: 1,
                saltus: 1
            })
        );
        let mut late: Vec<u64> = (0..80).map(|n| (n % 3) as u64).collect();
        late[10] = 9;
        assert_eq!(find(&late).unwrap().preperiod, 11);
        assert_eq!(
            extend(&late[..14], &find(&late).unwrap(), 10u64.pow(18)),
            Some(late[(11 + (10u64.pow(18) - 11) % 3) as usize])
        );
    }
}
