//! `period` and huge heaps: least periods, looked for far enough, and arithmetic periods proved,
//! each against a brute force written here (the plain mex over the moves) on a long prefix.

use crate::support::{printed, published};

use grundy::game::Limits;
use proptest::prelude::*;

fn run_with(source: &str, limits: Limits) -> String {
    grundy::run_to_string_with("periods", source, limits)
        .unwrap_or_else(|e| panic!("{source}\n{e}"))
}

fn run(source: &str) -> String {
    run_with(source, Limits::default())
}

/// The least value not in `seen`.
fn mex(seen: &[bool]) -> u64 {
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u64
}

/// The values of heaps `0..len` of the subtraction game `set`.
fn subtraction(set: &[usize], len: usize) -> Vec<u64> {
    let mut g = Vec::with_capacity(len);
    for n in 0..len {
        let mut seen = vec![false; set.len() + 1];
        for &s in set.iter().filter(|&&s| s <= n) {
            seen[g[n - s] as usize] = true;
        }
        g.push(mex(&seen));
    }
    g
}

/// The values of heaps `0..len` of the octal game with these digits (`digits[j]` for taking
/// `j` tokens: 1 the whole heap, 2 leaving one heap, 4 leaving two non-empty heaps).
fn octal(digits: &[u8], len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let mut seen = vec![false; 2 * len + 2];
        for (j, &d) in digits.iter().enumerate().filter(|&(j, _)| j >= 1 && j <= n) {
            let rest = n - j;
            if d & 1 != 0 && rest == 0 || d & 2 != 0 && rest > 0 {
                seen[if rest == 0 { 0 } else { g[rest] as usize }] = true;
            }
            if d & 4 != 0 {
                for a in 1..=rest / 2 {
                    seen[(g[a] ^ g[rest - a]) as usize] = true;
                }
            }
        }
        g.push(mex(&seen));
    }
    g
}

/// The least period of `g` that holds over the whole second half of the prefix, with the least
/// preperiod from which it holds to the end of the prefix.
pub(crate) fn least_period(g: &[u64]) -> Option<(usize, usize)> {
    let len = g.len();
    let p = (1..=len / 4).find(|&p| (len / 2..len - p).all(|n| g[n + p] == g[n]))?;
    let mut n0 = len / 2;
    while n0 > 0 && g[n0 - 1] == g[n0 - 1 + p] {
        n0 -= 1;
    }
    Some((n0, p))
}

#[test]
fn least_periods_of_subtraction_games() {
    // The values have period 76 from heap 0, which the theorem proves after 151 heaps.
    let out = run("period sub({1, 2, 75})");
    assert!(out.contains("preperiod 0, period 76, proved"), "{out}");
    let g = subtraction(&[1, 2, 75], 20_000);
    assert_eq!(least_period(&g), Some((0, 76)));
    let huge = 10u64.pow(18);
    let got = run("print grundy(sub({1, 2, 75})[10^18])");
    assert_eq!(got.trim(), g[(huge % 76) as usize].to_string());
}

#[test]
fn runs_that_double_are_not_a_period() {
    // halve: G(n) is the parity of the number of binary digits of n, so every run of equal
    // values is as long as all the values before it.
    let source = "game halve on n { if n > 0 { n = n / 2 } }\nperiod halve";
    let out = run(source);
    assert!(out.contains("no period found in heaps 0.."), "{out}");
    let small = Limits {
        max_states: 5000,
        ..Limits::default()
    };
    let out = run_with(source, small);
    assert!(
        out.contains("no period found in heaps 0..") && out.contains("state limit"),
        "{out}"
    );
}

/// Lasker's Nim by the plain mex over its rule: take any number, or split into two heaps.
fn lasker(len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let mut seen = vec![false; 4 * len + 4];
        for m in 0..n {
            seen[g[m] as usize] = true;
        }
        for a in 1..=n / 2 {
            seen[(g[a] ^ g[n - a]) as usize] = true;
        }
        g.push(mex(&seen));
    }
    g
}

#[test]
fn lasker_is_proved_with_its_saltus() {
    let out = run("period lasker");
    assert!(
        out.contains("preperiod 1, period 4, saltus 4, proved: the arithmetic-periodicity test"),
        "{out}"
    );
    let g = lasker(600);
    let got = run("sequence lasker 0..=599");
    let values: Vec<u64> = printed::sequence_values(&got);
    assert_eq!(values, g);
    // Winning Ways (ch. 4, Lasker's Nim): G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4,
    // G(4k+4) = 4k+3; it matches the brute force here, and `period` says it is proved.
    let formula = |n: u64| match n % 4 {
        0 if n > 0 => n - 1,
        3 => n + 1,
        _ => n,
    };
    assert!((0..600).all(|n| g[n as usize] == formula(n)));
    for d in 0..4 {
        let got = run(&format!("print grundy(lasker[10^18 + {d}])"));
        assert_eq!(
            got.trim(),
            formula(10u64.pow(18) + d).to_string(),
            "10^18 + {d}"
        );
    }
}

/// The least period with a saltus that holds over the whole second half of the prefix, with
/// its saltus and the least preperiod from which it holds to the end of the prefix.
fn least_arithmetic_period(g: &[u64]) -> Option<(usize, usize, u64)> {
    let len = g.len();
    let step = |n: usize, p: usize| g[n + p] as i64 - g[n] as i64;
    let p = (1..=len / 4).find(|&p| (len / 2..len - p).all(|n| step(n, p) == step(len / 2, p)))?;
    let saltus = step(len / 2, p);
    let mut n0 = len / 2;
    while n0 > 0 && step(n0 - 1, p) == saltus {
        n0 -= 1;
    }
    Some((n0, p, saltus as u64))
}

/// Games that take any number or split, after taking 0 (equal parts or not), 1, 2 or 3,
/// written as rules: each proved period is the least one a brute force finds.
#[test]
fn games_that_take_any_or_split_are_proved_only_where_true() {
    let forms = [
        (
            0,
            false,
            "for a in 1..=n / 2 { n = [a, n - a] }".to_string(),
        ),
        (
            0,
            true,
            "for a in 1..n if a < n - a { n = [a, n - a] }".to_string(),
        ),
    ];
    let takes = (1..=3).map(|t| {
        let rule =
            format!("for t in {t}..=min({t}, n), a in 1..=(n - t) / 2 {{ n = [a, n - t - a] }}");
        (t, false, rule)
    });
    let forms: Vec<(usize, bool, String)> = forms.into_iter().chain(takes).collect();
    let mut proved = 0;
    for mask in 1..(1u32 << forms.len()) {
        let chosen: Vec<&(usize, bool, String)> = (0..forms.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| &forms[i])
            .collect();
        let rules: Vec<&str> = chosen.iter().map(|(_, _, rule)| rule.as_str()).collect();
        let source = format!(
            "game g on n {{\n  for k in 1..=n {{ n -= k }}\n  {}\n}}\nperiod g",
            rules.join("\n  ")
        );
        let out = run(&source);
        if !out.contains(", proved:") {
            continue;
        }
        proved += 1;
        let len = 800;
        let mut g: Vec<u64> = Vec::with_capacity(len);
        for n in 0..len {
            let mut seen = vec![false; 4 * len];
            for m in 0..n {
                seen[g[m] as usize] = true;
            }
            for &&(t, unequal, _) in &chosen {
                let Some(rest) = n.checked_sub(t) else {
                    continue;
                };
                for a in 1..rest {
                    if a <= rest - a && !(unequal && 2 * a == rest) {
                        seen[(g[a] ^ g[rest - a]) as usize] = true;
                    }
                }
            }
            g.push(mex(&seen));
        }
        let (n0, p) = printed::period_reported(&out).unwrap();
        let saltus = out
            .split("saltus ")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .map_or(0, |s| s.trim().parse().unwrap_or_else(|_| panic!("{out}")));
        assert_eq!(
            least_arithmetic_period(&g),
            Some((n0, p, saltus)),
            "{source}\n{out}"
        );
    }
    assert!(proved >= 2, "{proved}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random subtraction sets with elements up to 1,000: `period` proves the least period that
    /// a brute force finds on a long prefix.
    #[test]
    fn subtraction_periods_are_least_and_proved(set in prop::collection::btree_set(1usize..=1000, 1..=3)) {
        let set: Vec<usize> = set.into_iter().collect();
        let list = set.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
        let out = run(&format!("period sub({{{list}}})"));
        prop_assert!(out.contains("proved"), "{}", out);
        let (n0, p) = printed::period_reported(&out).unwrap();
        let len = (4 * (n0 + p + set[set.len() - 1])).max(20_000);
        let g = subtraction(&set, len);
        prop_assert_eq!(least_period(&g), Some((n0, p)), "{}", out);
    }

    /// Random octal codes of up to three digits (`up to 2048` keeps each search short):
    /// every proved period is the least one a brute force finds on a prefix twice as long as
    /// the search, and holds on it.
    #[test]
    fn octal_periods_are_least_and_hold(digits in prop::collection::vec(0u8..=7, 1..=3)) {
        prop_assume!(digits[digits.len() - 1] != 0);
        let code: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        let out = run(&format!("game o = octal 0.{code}\nperiod o up to 2048"));
        if out.contains("proved") {
            let mut all = vec![0u8];
            all.extend(&digits);
            let g = octal(&all, 4096);
            let (n0, p) = printed::period_reported(&out).unwrap();
            prop_assert_eq!(least_period(&g), Some((n0, p)), "{}", out);
        }
    }
}

/// `period EXPR for n in RANGE`: the least period and preperiod a brute force finds on the
/// values (written here), always reported as apparent.
#[test]
fn periods_of_expressions_are_apparent_and_least() {
    let g = octal(&[0, 7, 7], 400);
    let out = run("game k = octal 0.77\nperiod grundy(k[n]) for n in 0..400");
    let (n0, p) = least_period(&g).unwrap();
    assert_eq!(printed::period_reported(&out), Some((n0, p)), "{out}");
    assert!(
        out.contains("apparent, not proved: the values of an expression"),
        "{out}"
    );
    let out = run("period (n % 4) + 3 * (n / 4) for n in 10..=200");
    assert!(
        out.contains("preperiod 0 (from n = 10), period 4, saltus 3"),
        "{out}"
    );
    let out = run("period n * n for n in 0..=100");
    assert_eq!(out.trim(), "n * n: no period found in n = 0..=100");
}

/// The least preperiod and period `(n0, p)` that `g` shows from its second half on, when the
/// theorem for octal games (Guy and Smith) proves it from these values: `G(n + p) = G(n)` for
/// `n0 <= n < 2 n0 + p + t`, with `t` the largest take.
pub(crate) fn proved_octal_period(g: &[u64], largest_take: usize) -> Option<(usize, usize)> {
    let (n0, p) = least_period(g)?;
    (2 * (n0 + p) + largest_take <= g.len()).then_some((n0, p))
}

/// The `(preperiod, period)` a `period` answer says is proved, if it says so.
fn proved_answer(out: &str) -> Option<(usize, usize)> {
    let proved = out
        .split(", proved:")
        .next()
        .filter(|_| out.contains(", proved:"))?;
    let number = |word: &str| {
        let rest = &proved[proved.find(word)? + word.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<usize>().ok()
    };
    Some((number("preperiod ")?, number(", period ")?))
}

/// Every octal code of two digits after the point that does not end in 0 (and those of three
/// of digits 0, 4 and 7 that end in 7): what `period G up to N` proves is the least preperiod and period that the plain
/// mex shows over four times the heaps the proof needs, and what it does not prove no brute force
/// proves within its bound either.
#[test]
fn octal_periods_as_far_as_it_takes_are_the_least() {
    let mut codes: Vec<Vec<u8>> = Vec::new();
    for a in 0..8u8 {
        for b in 1..8u8 {
            codes.push(vec![0, a, b]);
        }
    }
    for a in [0, 4, 7] {
        for b in [0, 4, 7] {
            codes.push(vec![0, a, b, 7]);
        }
    }
    let bound = 20_000;
    let (mut proved, mut open) = (0, 0);
    for digits in codes {
        let code: String = digits[1..].iter().map(|d| d.to_string()).collect();
        let out = run(&format!("game g = octal 0.{code}\nperiod g up to {bound}"));
        let t = digits.len() - 1;
        match proved_answer(&out) {
            Some((n0, p)) if 2 * (n0 + p) + t <= 2_000 => {
                let g = octal(&digits, 4 * (2 * (n0 + p) + t).max(64));
                assert_eq!(proved_octal_period(&g, t), Some((n0, p)), "0.{code}: {out}");
                proved += 1;
            }
            // Proved, with a proof too long for the brute force here (0.16, 0.56...).
            Some(_) => {}
            None => {
                assert!(
                    out.contains(&format!("heaps 0..{bound}")),
                    "0.{code}: {out}"
                );
                let g = octal(&digits, 2_000);
                assert_eq!(proved_octal_period(&g, t), None, "0.{code}: {out}");
                open += 1;
            }
        }
    }
    assert!(proved > 0, "{proved} proved, {open} open");
}

/// The figures of a sequence with no proved period, against the plain mex: the largest value
/// and its first heap; the mask the answer names has the fewest rare heaps of every mask, both
/// for 0.354, whose sparse space the heap methods use, and for 0.06, with two heaps in five
/// rare, which they compute without one; and under that mask, the rare values of heaps from 1
/// on, how many heaps have them and the last.
#[test]
fn figures_of_a_sequence_with_no_period_proved() {
    let len = 3000;
    for (code, digits) in [("0.354", &[0, 3, 5, 4][..]), ("0.06", &[0, 0, 6][..])] {
        let out = run(&format!("game g = octal {code}\nperiod g up to {len}"));
        let g = octal(digits, len);
        let largest = *g.iter().max().unwrap();
        let at = g.iter().position(|&v| v == largest).unwrap();
        let number = |word: &str| -> u64 {
            let at = out.find(word).unwrap_or_else(|| panic!("{word}: {out}"));
            let digits: String = out[at + word.len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .filter(char::is_ascii_digit)
                .collect();
            digits.parse().unwrap()
        };
        assert!(
            out.starts_with(&format!("g: no period found in heaps 0..{len}")),
            "{out}"
        );
        assert_eq!(number("largest value "), largest, "{out}");
        let heap = number(&format!("largest value {largest} at heap "));
        assert_eq!(heap, at as u64, "{out}");
        let rare_under = |mask: u64| -> Vec<usize> {
            (1..len)
                .filter(|&n| (g[n] & mask).count_ones().is_multiple_of(2))
                .collect()
        };
        let mask = number("mask ");
        let fewest = (1..=largest.next_power_of_two())
            .map(|m| rare_under(m).len())
            .min();
        let rare = rare_under(mask);
        assert_eq!(Some(rare.len()), fewest, "{code}: {out}");
        let mut values: Vec<u64> = rare.iter().map(|&n| g[n]).collect();
        values.sort_unstable();
        values.dedup();
        let rare_values = number(&format!("mask {mask}, "));
        assert_eq!(rare_values, values.len() as u64, "{out}");
        assert_eq!(number("rare values on "), rare.len() as u64, "{out}");
        let last = number("the last at heap ");
        assert_eq!(last, *rare.last().unwrap() as u64, "{out}");
    }
}

/// Every period of `SolvedGames.md` (tczajka/octal-games: Kenyon 1967, Austin 1976, Gangolli
/// and Plambeck 1989, Flammenkamp 2002): found and proved by a plain `period`, as far as it
/// takes. The longest proofs need 653,570 heaps (0.56), 4,536,507 (0.376) and 20,126,195
/// (0.354), too many for the plain mex here (its splits are quadratic in the heaps), so the
/// published values are the check.
#[test]
fn published_periods_are_found_and_proved() {
    let solved = published::rows("SolvedGames.md");
    for game in &solved {
        let code = published::code(&game["game"]).unwrap();
        let decimal = |column: &str| published::number(&game[column], 10).unwrap();
        let out = run(&format!("game g = octal {code}\nperiod g"));
        let published = (decimal("prefix"), decimal("period"));
        assert_eq!(proved_answer(&out), Some(published), "{code}: {out}");
    }
    assert_eq!(solved.len(), 10);
}

/// The period as a value: `solved(G, N)`, `preperiod`, `period` and `saltus` of every octal code
/// of two digits after the point that does not end in 0 are what the plain mex here shows and
/// the theorem proves; a code it does not prove within the bound is not solved, no brute force
/// proves it within its bound either, and asking for its figures is an error, never an apparent
/// period. Lasker's saltus is the one the plain mex shows.
#[test]
fn the_period_as_a_value_is_the_proved_one() {
    let bound = 20_000;
    let (mut proved, mut open) = (0, 0);
    for a in 0..8u8 {
        for b in 1..8u8 {
            let digits = [0, a, b];
            let game = format!("game g = octal 0.{a}{b}\n");
            let out = run(&format!("{game}print solved(g, {bound})"));
            if out.trim() == "true" {
                let out = run(&format!(
                    "{game}print [preperiod(g, {bound}), period(g, {bound}), saltus(g, {bound})]"
                ));
                let figures: Vec<usize> = out
                    .trim()
                    .trim_matches(['[', ']'])
                    .split(", ")
                    .map(|x| x.parse().unwrap())
                    .collect();
                let (n0, p) = (figures[0], figures[1]);
                assert_eq!(figures[2], 0, "0.{a}{b}: {out}");
                if 2 * (n0 + p) + 2 <= 2_000 {
                    let g = octal(&digits, 4 * (2 * (n0 + p) + 2).max(64));
                    assert_eq!(proved_octal_period(&g, 2), Some((n0, p)), "0.{a}{b}: {out}");
                    proved += 1;
                }
            } else {
                assert_eq!(out.trim(), "false", "0.{a}{b}");
                let g = octal(&digits, 2_000);
                assert_eq!(proved_octal_period(&g, 2), None, "0.{a}{b}");
                for figure in ["preperiod", "period", "saltus"] {
                    let source = format!("{game}print {figure}(g, {bound})");
                    let err = grundy::run_to_string("periods", &source).unwrap_err();
                    assert!(err.contains("grundy::no_proved_period"), "{source}\n{err}");
                }
                open += 1;
            }
        }
    }
    assert!(proved > 0 && open > 0, "{proved} proved, {open} open");
    let (n0, p, saltus) = least_arithmetic_period(&lasker(600)).unwrap();
    let out = run("print [preperiod(lasker), period(lasker), saltus(lasker), solved(lasker)]");
    assert_eq!(out.trim(), format!("[{n0}, {p}, {saltus}, true]"));
}
