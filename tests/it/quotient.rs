//! Misère quotients (`quotient G RANGE`) and misère sums answered from them, against a brute
//! force written here (misère outcomes of sums of heaps by their options, and the classes of
//! sums that no bounded sum tells apart), the whole-sum search of the engine, the misère rule of
//! Nim (Bouton), and the published order of Dawson's Kayles' quotient.

use std::collections::{HashMap, HashSet};

use grundy::game::Limits;
use proptest::prelude::*;

fn run(source: &str) -> String {
    grundy::run_to_string("test", source).unwrap_or_else(|e| panic!("{e}"))
}

/// The options of a heap as lists of heaps.
type Rules = Box<dyn Fn(u64) -> Vec<Vec<u64>>>;

/// The moves of an octal game from its digits after the point: digit j allows taking j and
/// leaving no heap (1), one heap (2) or two heaps (4), the heaps left not empty.
fn octal(digits: &'static [u8]) -> Rules {
    Box::new(move |n| {
        let mut options = Vec::new();
        for (i, &d) in digits.iter().enumerate() {
            let j = i as u64 + 1;
            if j > n {
                break;
            }
            let rest = n - j;
            if d & 1 != 0 && rest == 0 {
                options.push(vec![]);
            }
            if d & 2 != 0 && rest > 0 {
                options.push(vec![rest]);
            }
            if d & 4 != 0 {
                for a in 1..=rest / 2 {
                    options.push(vec![a, rest - a]);
                }
            }
        }
        options
    })
}

fn nim() -> Rules {
    Box::new(|n| (0..n).map(|k| vec![k]).collect())
}

/// The rule game of [`RULE_GAME`]: take 1, 2 or 3, or take 1 and split the rest in two
/// non-empty heaps.
fn rule_game() -> Rules {
    Box::new(|n| {
        let mut options: Vec<Vec<u64>> = (1..=n.min(3)).map(|t| vec![n - t]).collect();
        for a in 1..=n.saturating_sub(1) / 2 {
            options.push(vec![a, n - 1 - a]);
        }
        options
    })
}

const RULE_GAME: &str = "game r on n {
  for t in 1..=min(3, n) { n = n - t }
  for a in 1..=(n - 1) / 2 { n = [a, n - 1 - a] }
}";

/// Misère outcomes of sums of heaps, memoized by the sorted heaps.
struct Brute {
    rules: Rules,
    p: HashMap<Vec<u64>, bool>,
}

impl Brute {
    fn new(rules: Rules) -> Brute {
        Brute {
            rules,
            p: HashMap::new(),
        }
    }

    /// Whether a sum is a misère P-position: it has a move, and every move leaves an
    /// N-position (a sum with no move is won by the player to move).
    fn is_p(&mut self, heaps: &[u64]) -> bool {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&p) = self.p.get(&key) {
            return p;
        }
        let mut has_move = false;
        let mut p = true;
        'search: for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            for to in (self.rules)(key[i]) {
                has_move = true;
                let mut option = key.clone();
                option.remove(i);
                option.extend(to);
                if self.is_p(&option) {
                    p = false;
                    break 'search;
                }
            }
        }
        let p = p && has_move;
        self.p.insert(key, p);
        p
    }

    /// How many classes the sums of `heaps` of at most `most` counters fall into when told
    /// apart by adding sums of at most `context` counters: a lower bound on the quotient's
    /// order, equal to it once the bounds are large enough.
    fn classes(&mut self, heaps: &[u64], most: u64, context: u64) -> usize {
        let contexts = sums_up_to(heaps, context);
        let mut signatures = HashSet::new();
        for word in sums_up_to(heaps, most) {
            let signature: Vec<bool> = contexts
                .iter()
                .map(|c| self.is_p(&[word.clone(), c.clone()].concat()))
                .collect();
            signatures.insert(signature);
        }
        signatures.len()
    }
}

/// Every multiset of `heaps` of at most `most` counters in all.
fn sums_up_to(heaps: &[u64], most: u64) -> Vec<Vec<u64>> {
    let mut all = vec![(Vec::new(), 0)];
    for &h in heaps {
        all = all
            .into_iter()
            .flat_map(|(w, size): (Vec<u64>, u64)| {
                (0..=(most - size) / h).map(move |k| {
                    let mut w = w.clone();
                    w.extend(std::iter::repeat_n(h, k as usize));
                    (w, size + k * h)
                })
            })
            .collect();
    }
    all.into_iter().map(|(w, _)| w).collect()
}

/// The order a `quotient` statement reports.
fn order(out: &str) -> usize {
    let rest = out.split("order ").nth(1).expect("an order");
    rest.split(',').next().unwrap().parse().unwrap()
}

#[test]
fn dawsons_kayles_to_heap_30_has_the_published_order_360() {
    // Plambeck and Siegel, "Misère quotients for impartial games" (J. Combin. Theory Ser. A
    // 115, 2008): the quotient of Dawson's Kayles (0.07) up to heap 30 has order 360.
    let out = run("quotient dawson 0..=30");
    assert_eq!(order(&out), 360, "{out}");
    assert!(out.contains("not tame"), "{out}");
}

/// The size of the P-portion a `quotient` statement reports.
fn p_portion_size(out: &str) -> usize {
    let rest = out.split("P-portion (").nth(1).expect("a P-portion");
    rest.split(' ').next().unwrap().parse().unwrap()
}

/// The heaps at which a `quotient` statement says the quotient grew.
fn grew_at(out: &str) -> Vec<i64> {
    let rest = out.split("it grew at heap").nth(1).expect("where it grew");
    let list = rest.trim_start_matches('s').split(')').next().unwrap();
    list.split(',').map(|h| h.trim().parse().unwrap()).collect()
}

#[test]
fn orders_and_p_portions_match_miseresolver() {
    // Independent values: Siegel's MisereSolver (the `misere.solver` package of the CGSuite
    // repository, github.com/aaron-siegel/cgsuite, commit e909ab8b), run heap by heap as
    // BENCHMARKS.md says, printing |Q| and |P| where the presentation changes. Dawson's
    // Kayles (0.07) changed at heaps 2, 4, 10, 14, 25, 27, 30, 31, 32, 33 with |Q| = 2, 6, 12,
    // 24, 144, 176, 360, 520, 552, 638; Dawson's chess (0.137) is the same one heap lower;
    // Kayles (0.77) to heap 70: |Q| = 40, |P| = 9; Grundy's game to heap 20: |Q| = 48, |P| = 7.
    let cases: [(&str, i64, usize, usize); 5] = [
        ("dawson", 31, 520, 89),
        ("dawsons_chess", 30, 520, 89),
        ("dawson", 27, 176, 28),
        ("kayles", 70, 40, 9),
        ("grundys", 20, 48, 7),
    ];
    for (game, last, q, p) in cases {
        let out = run(&format!("quotient {game} 0..={last}"));
        assert_eq!((order(&out), p_portion_size(&out)), (q, p), "{game}: {out}");
    }
    let out = run("quotient dawson 0..=31");
    assert_eq!(grew_at(&out), [2, 4, 10, 14, 25, 27, 30, 31], "{out}");
}

/// A game, its declaration, rules, last heap, the heaps that can move and two bounds.
type OrderCase = (&'static str, &'static str, Rules, i64, Vec<u64>, u64, u64);

#[test]
fn orders_match_the_classes_of_a_brute_force() {
    // (game, declaration, rules, last heap, heaps that can move, bounds in counters)
    let cases: Vec<OrderCase> = vec![
        ("nim", "", nim(), 3, vec![1, 2, 3], 12, 12),
        ("kayles", "", octal(&[7, 7]), 6, (1..=6).collect(), 14, 14),
        ("dawson", "", octal(&[0, 7]), 10, (2..=10).collect(), 16, 16),
        (
            "o6",
            "game o6 = octal 0.6",
            octal(&[6]),
            8,
            (2..=8).collect(),
            14,
            14,
        ),
        ("r", RULE_GAME, rule_game(), 6, (1..=6).collect(), 14, 14),
    ];
    for (name, decl, rules, last, heaps, most, context) in cases {
        let out = run(&format!("{decl}\nquotient {name} 0..={last}"));
        let mut brute = Brute::new(rules);
        assert_eq!(
            order(&out),
            brute.classes(&heaps, most, context),
            "{name}: {out}"
        );
    }
}

#[test]
fn nim_heaps_have_a_tame_quotient_and_kayles_not() {
    // Nim is tame (Winning Ways, ch. 13: misère Nim is played by the tame rule); Kayles' heap
    // of 5 has the wild genus 4^146 (tests/it/misere.rs checks it), so its quotient is not tame.
    let out = run("quotient nim 0..=7");
    assert!(out.contains(", tame"), "{out}");
    let out = run("quotient kayles 0..=6");
    assert!(out.contains("not tame"), "{out}");
}

/// The outcome letter of a misère sum by the brute force.
fn brute_letter(brute: &mut Brute, heaps: &[u64]) -> &'static str {
    if brute.is_p(heaps) {
        "P"
    } else {
        "N"
    }
}

const GAMES: [(&str, &str); 6] = [
    ("kayles", ""),
    ("dawson", ""),
    ("dawsons_chess", ""),
    ("o6", "game o6 = octal 0.6"),
    ("o15", "game o15 = octal 0.15"),
    ("r", RULE_GAME),
];

fn rules_of(game: usize) -> Rules {
    match game {
        0 => octal(&[7, 7]),
        1 => octal(&[0, 7]),
        2 => octal(&[1, 3, 7]),
        3 => octal(&[6]),
        4 => octal(&[1, 5]),
        _ => rule_game(),
    }
}

fn sum_small(sum: &[u64]) -> bool {
    sum.iter().sum::<u64>() <= 24
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// For 0.77, 0.07, 0.137, 0.6, 0.15 and a rule game: the outcome of misère sums of up to
    /// four heaps up to 12 from the quotient equals that of the brute force, and for sums of
    /// at most 24 counters, that of the whole-sum search (the misère Grundy value is 0 exactly
    /// for P).
    #[test]
    fn quotient_outcomes_match_the_whole_sum_search(
        game in 0..GAMES.len(),
        sums in prop::collection::vec(prop::collection::vec(0..=12u64, 1..=4), 16),
    ) {
        let (name, decl) = GAMES[game];
        let mut program = format!("{decl}\n");
        for heaps in &sums {
            let parts: Vec<String> = heaps.iter().map(|h| format!("{name}[{h}]")).collect();
            let sum = parts.join(" + ");
            program.push_str(&format!("print outcome(misere {sum})\n"));
            if sum_small(heaps) {
                program.push_str(&format!("print grundy(misere {sum})\n"));
            } else {
                program.push_str("print \"-\"\n");
            }
        }
        let out = run(&program);
        let lines: Vec<&str> = out.lines().collect();
        let mut brute = Brute::new(rules_of(game));
        for (i, sum) in sums.iter().enumerate() {
            let expected = brute_letter(&mut brute, sum);
            prop_assert_eq!(lines[2 * i], expected, "{} {:?}", name, sum);
            if lines[2 * i + 1] != "-" {
                let searched = if lines[2 * i + 1] == "0" { "P" } else { "N" };
                prop_assert_eq!(searched, expected, "{} {:?}", name, sum);
            }
        }
    }
}

/// Whether a misère Nim position is P (Bouton): with a heap of 2 or more, when the XOR is 0;
/// with heaps of at most 1, when their number is odd.
fn misere_nim_is_p(heaps: &[u64]) -> bool {
    if heaps.iter().any(|&h| h >= 2) {
        heaps.iter().fold(0, |x, &h| x ^ h) == 0
    } else {
        heaps.iter().filter(|&&h| h == 1).count() % 2 == 1
    }
}

#[test]
fn a_misere_sum_of_200_heaps_is_answered_from_the_quotient() {
    // 200 nim heaps from a fixed pseudo-random sequence, and the same with one heap changed
    // to make the XOR 0; their outcomes and winning moves by Bouton's misère rule.
    let mut seed = 12345u64;
    let mut heaps: Vec<u64> = (0..200)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % 8
        })
        .collect();
    let xor = heaps.iter().fold(0, |x, &h| x ^ h);
    let sum = |heaps: &[u64]| {
        let parts: Vec<String> = heaps.iter().map(|h| h.to_string()).collect();
        format!("misere nim[{}]", parts.join(", "))
    };
    let n_position = sum(&heaps);
    let winning: usize = (0..heaps.len())
        .map(|i| {
            (0..heaps[i])
                .filter(|&to| {
                    let mut after = heaps.clone();
                    after[i] = to;
                    misere_nim_is_p(&after)
                })
                .count()
        })
        .sum();
    let i = heaps
        .iter()
        .position(|&h| h ^ xor < h)
        .expect("a heap to reduce");
    heaps[i] ^= xor;
    let p_position = sum(&heaps);
    assert!(xor != 0 && misere_nim_is_p(&heaps));
    let out = run(&format!(
        "print outcome({p_position})\nprint outcome({n_position})\nprint len(wins({n_position}))"
    ));
    assert_eq!(out, format!("P\nN\n{winning}\n"));
}

#[test]
fn a_quotient_stopped_by_the_memory_limit_says_it_is_incomplete() {
    let limits = Limits {
        max_memory: 64 << 10,
        ..Limits::default()
    };
    let err = grundy::run_to_string_with("test", "quotient dawson 0..=30", limits).unwrap_err();
    assert!(err.contains("is INCOMPLETE: stopped at heap"), "{err}");
    assert!(err.contains("memory_limit"), "{err}");
}

#[test]
fn quotient_needs_a_heap_game_and_a_range() {
    let err = grundy::run_to_string("test", "quotient wythoff 0..=3").unwrap_err();
    assert!(err.contains("a heap game"), "{err}");
    let err = grundy::run_to_string("test", "quotient kayles 3").unwrap_err();
    assert!(err.contains("a range"), "{err}");
    // `quotient` is a word only where a statement starts.
    assert_eq!(run("let quotient = 2\nprint quotient + 1"), "3\n");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Larger heaps: misère sums of two or three heaps up to 26 (at most 36 counters, so that
    /// the brute force stays small) of Kayles and Dawson's Kayles, from the quotient (of the
    /// heaps each sum uses, extended sum by sum) against the brute force.
    #[test]
    fn quotient_outcomes_of_larger_heaps_match_the_brute_force(
        game in 0..2usize,
        sums in prop::collection::vec(prop::collection::vec(0..=26u64, 2..=3), 6),
    ) {
        let (name, _) = GAMES[game];
        let sums: Vec<Vec<u64>> = sums
            .into_iter()
            .filter(|s| s.iter().sum::<u64>() <= 36)
            .collect();
        let program: String = sums
            .iter()
            .map(|heaps| {
                let parts: Vec<String> = heaps.iter().map(|h| format!("{name}[{h}]")).collect();
                format!("print outcome(misere {})\n", parts.join(" + "))
            })
            .collect();
        // A small state limit: the whole-sum search could not answer these.
        let limits = Limits { max_states: 2_000, ..Limits::default() };
        let out = grundy::run_to_string_with("test", &program, limits)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut brute = Brute::new(rules_of(game));
        for (line, sum) in out.lines().zip(&sums) {
            prop_assert_eq!(line, brute_letter(&mut brute, sum), "{} {:?}", name, sum);
        }
    }
}

#[test]
fn a_misere_sum_of_hundreds_of_dawson_heaps_is_answered_from_the_quotient() {
    // 240 heaps up to 27 (a sum nests below the 256 levels of an expression) from a fixed
    // pseudo-random sequence, under a state limit far below
    // what the whole-sum search would need: only the quotient can answer. Adding a heap of 1
    // (no move) or of 0 leaves the outcome as it is.
    let mut seed = 99u64;
    let heaps: Vec<u64> = (0..240)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % 28
        })
        .collect();
    let parts: Vec<String> = heaps.iter().map(|h| format!("dawson[{h}]")).collect();
    let sum = parts.join(" + ");
    let limits = Limits {
        max_states: 2_000,
        ..Limits::default()
    };
    let program =
        format!("print outcome(misere {sum})\nprint outcome(misere {sum} + dawson[1] + dawson[0])");
    let out =
        grundy::run_to_string_with("test", &program, limits).unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0] == "P" || lines[0] == "N", "{out}");
    assert_eq!(lines[0], lines[1], "{out}");
}

#[test]
fn a_quotient_statement_is_kept_for_the_sums_that_follow() {
    // After `quotient dawson 0..=31`, sums of those heaps are answered from it, under a state
    // limit the whole-sum search could not answer within; the brute force checks them.
    let sums: [&[u64]; 3] = [&[31, 5], &[30, 4, 2], &[29, 7]];
    let mut program = String::from("quotient dawson 0..=31\n");
    for sum in sums {
        let parts: Vec<String> = sum.iter().map(|h| format!("dawson[{h}]")).collect();
        program.push_str(&format!("print outcome(misere {})\n", parts.join(" + ")));
    }
    let limits = Limits {
        max_states: 2_000,
        ..Limits::default()
    };
    let out =
        grundy::run_to_string_with("test", &program, limits).unwrap_or_else(|e| panic!("{e}"));
    let answers: Vec<&str> = out.lines().rev().take(3).collect();
    let mut brute = Brute::new(octal(&[0, 7]));
    for (answer, sum) in answers.into_iter().rev().zip(sums) {
        assert_eq!(answer, brute_letter(&mut brute, sum), "{sum:?}");
    }
}
