//! Misère values and genera of heap games against a brute force written here (misère mex
//! recursion on sums of heaps and nim heaps of 1 and 2), and against CGSuite's published misère
//! values of Kayles.

use std::collections::HashMap;

fn run(source: &str) -> String {
    grundy::run_to_string("test", source).unwrap_or_else(|e| panic!("{e}"))
}

/// The entries of a `sequence`-style listing (heading, then rows `  n: v v v`).
fn entries(out: &str) -> Vec<String> {
    out.lines()
        .skip(1)
        .flat_map(|line| line.split_once(':').unwrap().1.split_whitespace())
        .map(str::to_string)
        .collect()
}

/// The options of a heap of a game, as lists of heaps.
type Rules = fn(u64) -> Vec<Vec<u64>>;

fn nim(n: u64) -> Vec<Vec<u64>> {
    (0..n).map(|k| vec![k]).collect()
}

/// Take 1 or 2 adjacent pins; the rest of the row may be left in two parts.
fn kayles(n: u64) -> Vec<Vec<u64>> {
    let mut options = Vec::new();
    for t in 1..=n.min(2) {
        for a in 0..=(n - t) / 2 {
            options.push(vec![a, n - t - a]);
        }
    }
    options
}

/// Octal 0.07: take exactly 2, leaving zero, one or two heaps.
fn dawson(n: u64) -> Vec<Vec<u64>> {
    if n < 2 {
        return Vec::new();
    }
    (0..=(n - 2) / 2).map(|a| vec![a, n - 2 - a]).collect()
}

/// Split a heap into two unequal non-empty heaps.
fn grundys(n: u64) -> Vec<Vec<u64>> {
    (1..n)
        .filter(|&a| a < n - a)
        .map(|a| vec![a, n - a])
        .collect()
}

fn sub_237(n: u64) -> Vec<Vec<u64>> {
    [2, 3, 7]
        .into_iter()
        .filter(|&s| s <= n)
        .map(|s| vec![n - s])
        .collect()
}

fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let mut seen: Vec<u64> = values.into_iter().collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .take_while(|(i, &v)| *i as u64 == v)
        .count() as u64
}

/// A sum: heaps of the game (sorted, without zeros), and counts of *2 and *1.
type Sum = (Vec<u64>, usize, usize);

struct Brute {
    rules: Rules,
    misere: HashMap<Sum, u64>,
    normal: HashMap<u64, u64>,
}

impl Brute {
    fn new(rules: Rules) -> Brute {
        Brute {
            rules,
            misere: HashMap::new(),
            normal: HashMap::new(),
        }
    }

    fn normal(&mut self, n: u64) -> u64 {
        if let Some(&v) = self.normal.get(&n) {
            return v;
        }
        let options = (self.rules)(n);
        let values: Vec<u64> = options
            .iter()
            .map(|o| o.iter().fold(0, |x, &h| x ^ self.normal(h)))
            .collect();
        let v = mex(values);
        self.normal.insert(n, v);
        v
    }

    /// The misère Grundy value: 1 when no move is left, else the mex of the options'.
    fn misere(&mut self, sum: Sum) -> u64 {
        if let Some(&v) = self.misere.get(&sum) {
            return v;
        }
        let (heaps, twos, ones) = sum.clone();
        let mut options: Vec<Sum> = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for to in (self.rules)(h) {
                let mut rest = heaps.clone();
                rest.remove(i);
                rest.extend(to.into_iter().filter(|&x| x > 0));
                rest.sort_unstable();
                options.push((rest, twos, ones));
            }
        }
        if twos > 0 {
            options.push((heaps.clone(), twos - 1, ones + 1));
            options.push((heaps.clone(), twos - 1, ones));
        }
        if ones > 0 {
            options.push((heaps.clone(), twos, ones - 1));
        }
        let v = if options.is_empty() {
            1
        } else {
            let values: Vec<u64> = options.into_iter().map(|o| self.misere(o)).collect();
            mex(values)
        };
        self.misere.insert(sum, v);
        v
    }

    /// γk of the heaps: the misère value of the heaps plus k copies of *2.
    fn gamma(&mut self, heaps: &[u64], k: usize) -> u64 {
        let mut heaps: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        heaps.sort_unstable();
        self.misere((heaps, k, 0))
    }
}

/// A genus as printed, `4^146` or `6^(1,9,10,8)`: the normal value and the misère values.
fn parse_genus(text: &str) -> (u64, Vec<u64>) {
    let (g, rest) = text
        .split_once('^')
        .unwrap_or_else(|| panic!("no `^` in {text}"));
    let digits = match rest.strip_prefix('(') {
        Some(inner) => inner
            .strip_suffix(')')
            .unwrap()
            .split(',')
            .map(|d| d.parse().unwrap())
            .collect(),
        None => rest
            .chars()
            .map(|c| c.to_digit(10).unwrap() as u64)
            .collect(),
    };
    (g.parse().unwrap(), digits)
}

/// Checks a printed genus against the brute force: the normal value, and γ0..γ(len + 8) from
/// the notation (a single digit is a tame genus, else the last two alternate), and that the
/// alternation does not start earlier than written.
fn check_genus(brute: &mut Brute, heaps: &[u64], printed: &str) {
    let (g, digits) = parse_genus(printed);
    let normal = heaps.iter().fold(0, |x, &h| x ^ brute.normal(h));
    assert_eq!(g, normal, "normal value of {heaps:?}: {printed}");
    let gammas: Vec<u64> = (0..digits.len() + 8)
        .map(|k| brute.gamma(heaps, k))
        .collect();
    let n = digits.len();
    for (k, &gamma) in gammas.iter().enumerate() {
        let shown = if n == 1 {
            if k == 0 {
                digits[0]
            } else {
                g ^ (((k & 1) as u64) << 1)
            }
        } else if k < n {
            digits[k]
        } else {
            digits[n - 2 + ((n ^ k) & 1)]
        };
        assert_eq!(
            shown, gamma,
            "γ{k} of {heaps:?}: {printed}, brute {gammas:?}"
        );
    }
    let tame = gammas[0] == if g < 2 { 1 - g } else { g }
        && (1..gammas.len()).all(|k| gammas[k] == g ^ (((k & 1) as u64) << 1));
    if tame {
        assert_eq!(n, 1, "a tame genus is written with γ0 alone: {printed}");
    } else {
        assert!(n >= 2, "{printed} of {heaps:?} is not tame: {gammas:?}");
        if n >= 3 {
            assert_ne!(
                gammas[n - 1],
                gammas[n - 3],
                "{printed} is longer than needed"
            );
        }
    }
}

const GAMES: [(&str, &str, Rules); 5] = [
    ("nim", "", nim),
    ("kayles", "", kayles),
    ("dawson", "", dawson),
    ("grundys", "", grundys),
    ("s", "game s = subtraction {2, 3, 7}", sub_237),
];

#[test]
fn misere_kayles_matches_cgsuite() {
    // CGSuite's misère nim values of Kayles, heaps 0..=20.
    let published = "1 0 2 3 0 1 3 2 1 0 2 4 0 1 2 5 1 6 3 2 0";
    let out = run("sequence misere kayles 0..=20");
    assert!(out.starts_with("misere kayles 0..=20:"), "{out}");
    assert_eq!(entries(&out).join(" "), published);
}

#[test]
fn misere_sequences_match_the_brute_force() {
    for (name, decl, rules) in GAMES {
        let out = run(&format!("{decl}\nsequence misere {name} 0..=24"));
        let mut brute = Brute::new(rules);
        let expected: Vec<String> = (0..=24).map(|n| brute.gamma(&[n], 0).to_string()).collect();
        assert_eq!(entries(&out), expected, "{name}");
    }
}

#[test]
fn genus_of_heaps_matches_the_brute_force() {
    for (name, decl, rules) in GAMES {
        let out = run(&format!("{decl}\ngenus {name} 0..=20"));
        assert!(
            out.starts_with(&format!("genus of {name} 0..=20:")),
            "{out}"
        );
        let printed = entries(&out);
        assert_eq!(printed.len(), 21);
        let mut brute = Brute::new(rules);
        for (n, genus) in printed.iter().enumerate() {
            check_genus(&mut brute, &[n as u64], genus);
        }
    }
}

#[test]
fn genus_of_sums_matches_the_brute_force() {
    for (name, decl, rules) in GAMES {
        let mut brute = Brute::new(rules);
        for (a, b, c) in [
            (1, 1, 0),
            (3, 4, 0),
            (5, 2, 7),
            (9, 6, 0),
            (2, 2, 2),
            (11, 1, 3),
        ] {
            let out = run(&format!(
                "{decl}\ngenus {name}[{a}] + {name}[{b}] + {name}[{c}]"
            ));
            let printed = out.trim().rsplit_once("genus ").unwrap().1;
            check_genus(&mut brute, &[a, b, c], printed);
        }
    }
}

#[test]
fn nim_heaps_have_the_tame_genus() {
    // Nim heaps: 0^1, 1^0, and n^n for n >= 2 (Winning Ways, chapter 13); a value above 9 in
    // parentheses.
    let out = run("genus nim 0..=12");
    let expected: Vec<String> = (0..=12)
        .map(|n| match n {
            0 => "0^1".to_string(),
            1 => "1^0".to_string(),
            2..=9 => format!("{n}^{n}"),
            _ => format!("{n}^({n})"),
        })
        .collect();
    assert_eq!(entries(&out), expected);
    assert!(out.contains("10: 10^(10) 11^(11) 12^(12)"), "{out}");
}

#[test]
fn genus_ignores_the_convention_and_refuses_huge_heaps() {
    assert_eq!(run("genus misere nim[2, 3]"), run("genus nim[2, 3]"));
    let err = grundy::run_to_string("test", "genus kayles[10^18]").unwrap_err();
    assert!(err.contains("too_many_options"), "{err}");
    let err = grundy::run_to_string("test", "sequence misere kayles 0..10^12").unwrap_err();
    assert!(err.contains("too_large"), "{err}");
}

/// The options of a heap of an octal game of code `0.d1d2d3...`: take k, leaving no heap (bit
/// 1 of dk, only from a heap of exactly k), one heap (bit 2) or two non-empty heaps (bit 4).
fn octal(digits: &[u64], n: u64) -> Vec<Vec<u64>> {
    let mut options = Vec::new();
    for (i, &d) in digits.iter().enumerate() {
        let k = i as u64 + 1;
        if n < k {
            break;
        }
        let rest = n - k;
        if d & 1 != 0 && rest == 0 {
            options.push(vec![]);
        }
        if d & 2 != 0 && rest > 0 {
            options.push(vec![rest]);
        }
        if d & 4 != 0 && rest >= 2 {
            options.extend((1..=rest / 2).map(|a| vec![a, rest - a]));
        }
    }
    options
}

/// Take 1 or 3, or (from 3 on) knock the second pin out of the row.
fn rule_game(n: u64) -> Vec<Vec<u64>> {
    let mut options: Vec<Vec<u64>> = [1, 3]
        .into_iter()
        .filter(|&k| k <= n)
        .map(|k| vec![n - k])
        .collect();
    if n >= 3 {
        options.push(vec![1, n - 2]);
    }
    options
}

/// The games of the mixed sums: a name in the language and the options of a heap.
const MIXED: [(&str, Rules); 6] = [
    ("kayles", |n| octal(&[7, 7], n)),
    ("dawson", |n| octal(&[0, 7], n)),
    ("dawsons_chess", |n| octal(&[1, 3, 7], n)),
    ("s", sub_237),
    ("r", rule_game),
    ("nim", nim),
];

const MIXED_DECLARATIONS: &str = "game s = subtraction {2, 3, 7}
game r on n {
    for k in 1..=min(3, n) if k != 2 { n -= k }
    if n >= 3 { n = [1, n - 2] }
}";

/// The misère value of a sum of heaps of several games, by the misère mex recursion on every
/// component as it is (no component is dropped).
fn mixed_misere(sum: &[(usize, u64)], memo: &mut HashMap<Vec<(usize, u64)>, u64>) -> u64 {
    let mut key = sum.to_vec();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut values = Vec::new();
    for (i, &(game, heap)) in key.iter().enumerate() {
        for to in (MIXED[game].1)(heap) {
            let mut option = key.clone();
            option.remove(i);
            option.extend(to.into_iter().map(|h| (game, h)));
            values.push(mixed_misere(&option, memo));
        }
    }
    let v = if values.is_empty() { 1 } else { mex(values) };
    memo.insert(key, v);
    v
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn misere_sums_of_several_games_match_the_brute_force(
        sum in proptest::collection::vec((0..MIXED.len(), 0u64..=9), 1..=4)
    ) {
        let written: Vec<String> = sum.iter().map(|&(g, h)| format!("{}[{h}]", MIXED[g].0)).collect();
        let written = written.join(" + ");
        let out = run(&format!(
            "{MIXED_DECLARATIONS}\nprint grundy(misere {written})\noutcome misere {written}"
        ));
        let value = mixed_misere(&sum, &mut HashMap::new());
        let outcome = if value == 0 { "P" } else { "N" };
        let lines: Vec<&str> = out.lines().collect();
        prop_assert_eq!(lines[0], value.to_string(), "{}", written);
        prop_assert!(lines[1].ends_with(outcome), "{}: {}", written, lines[1]);
    }
}

/// The misère values of Wythoff's game for a, b <= n, by the misère mex recursion (1 with no
/// move), filled in order of a + b.
fn misere_wythoff(n: usize) -> Vec<Vec<u64>> {
    let mut v = vec![vec![0u64; n + 1]; n + 1];
    for total in 0..=2 * n {
        for a in total.saturating_sub(n)..=total.min(n) {
            let b = total - a;
            let mut options: Vec<u64> = (0..a).map(|x| v[x][b]).collect();
            options.extend((0..b).map(|y| v[a][y]));
            options.extend((1..=a.min(b)).map(|k| v[a - k][b - k]));
            v[a][b] = if options.is_empty() { 1 } else { mex(options) };
        }
    }
    v
}

#[test]
fn misere_tables_and_p_positions_match_the_brute_force() {
    let brute = misere_wythoff(20);
    let out = run("table misere wythoff 0..=9, 0..=9");
    assert!(
        out.starts_with("misere wythoff (rows a = 0..=9, columns b = 0..=9)"),
        "{out}"
    );
    let rows: Vec<Vec<u64>> = out
        .lines()
        .skip(2)
        .map(|line| {
            let cells = line.split_once('|').unwrap().1;
            cells
                .split_whitespace()
                .map(|c| c.parse().unwrap())
                .collect()
        })
        .collect();
    let expected: Vec<Vec<u64>> = brute[..10].iter().map(|r| r[..10].to_vec()).collect();
    assert_eq!(rows, expected);

    let out = run("ppos misere wythoff 0..=20, 0..=20");
    let mut expected = Vec::new();
    for (a, row) in brute.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            if v == 0 {
                expected.push(format!("({a}, {b})"));
            }
        }
    }
    let listed: String = out.lines().skip(1).collect::<Vec<_>>().join(" ");
    let listed: Vec<String> = listed
        .split(')')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| format!("{s})"))
        .collect();
    assert_eq!(listed, expected, "{out}");
    assert!(
        out.starts_with(&format!("{} P-positions of misere wythoff", expected.len())),
        "{out}"
    );
}

/// The exponents of a quotient element as printed (`ad^2e`), by generator letter.
fn exponents(word: &str) -> [u32; 26] {
    let mut exps = [0; 26];
    let mut letters = word.chars().peekable();
    while let Some(letter) = letters.next() {
        if letter == '1' {
            continue;
        }
        let mut power = 1;
        if letters.peek() == Some(&'^') {
            letters.next();
            let mut digits = String::new();
            while let Some(d) = letters.next_if(char::is_ascii_digit) {
                digits.push(d);
            }
            power = digits.parse().unwrap();
        }
        exps[(letter as u8 - b'a') as usize] += power;
    }
    exps
}

/// The sums of heaps `1..=most` with at most `total` pins in all, sorted.
fn small_sums(most: u64, total: u64) -> Vec<Vec<u64>> {
    let mut sums = vec![Vec::new()];
    let mut next = 0;
    while next < sums.len() {
        let sum: Vec<u64> = sums[next].clone();
        let (low, used) = (sum.last().copied().unwrap_or(1), sum.iter().sum::<u64>());
        for h in low..=most.min(total - used) {
            let mut longer = sum.clone();
            longer.push(h);
            sums.push(longer);
        }
        next += 1;
    }
    sums
}

/// The misère Grundy value is not a function of the misère quotient: two sums of Kayles heaps
/// that are the same element of the quotient of `kayles 0..=20` have misère values 7 and 6.
/// (By induction, a sum S has misère value n exactly when S + *n is a P-position; the Kayles
/// closure holds no game that plays like *6 or *7, so nothing in it tells these two apart.)
#[test]
fn the_misere_value_is_not_given_by_the_quotient() {
    let mut brute = Brute::new(kayles);
    let (x, y) = (vec![1, 17], vec![9, 20]);
    assert_eq!(brute.gamma(&x, 0), 7);
    assert_eq!(brute.gamma(&y, 0), 6);
    // Adding any small sum leaves both P or both N (the brute force, as far as it goes)...
    for z in small_sums(20, 10) {
        let with = |s: &[u64]| [s, &z[..]].concat();
        let p = |brute: &mut Brute, s: &[u64]| brute.gamma(s, 0) == 0;
        assert_eq!(p(&mut brute, &with(&x)), p(&mut brute, &with(&y)), "{z:?}");
    }
    // ... and the quotient, whose every answer is verified, gives them one element.
    let out = run("quotient kayles 0..=20");
    let heaps: Vec<String> = out
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("heaps 0..=20"))
        .skip(1)
        .map_while(|l| {
            l.split_once(':')
                .filter(|(n, _)| n.trim().parse::<u64>().is_ok())
        })
        .flat_map(|(_, elements)| elements.split_whitespace())
        .map(str::to_string)
        .collect();
    assert_eq!(heaps.len(), 21, "{out}");
    let element = |sum: &[u64]| {
        sum.iter().fold([0; 26], |mut acc, &h| {
            let e = exponents(&heaps[h as usize]);
            acc.iter_mut().zip(e).for_each(|(a, b)| *a += b);
            acc
        })
    };
    assert_eq!(element(&x), element(&y), "{out}");
    assert_eq!(run("grundy misere kayles[1] + kayles[17]").trim(), "7");
    assert_eq!(run("grundy misere kayles[9] + kayles[20]").trim(), "6");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Misère values of sums of one game's heaps (those the quotient answers when they are 0 or
    /// 1, the rest searched whole) against the brute force.
    #[test]
    fn misere_values_of_one_game_sums_match_the_brute_force(
        game in 0..MIXED.len(),
        heaps in proptest::collection::vec(0u64..=12, 1..=4),
    ) {
        let written: Vec<String> = heaps.iter().map(|h| format!("{}[{h}]", MIXED[game].0)).collect();
        let written = written.join(" + ");
        let out = run(&format!("{MIXED_DECLARATIONS}\ngrundy misere {written}"));
        let sum: Vec<(usize, u64)> = heaps.iter().map(|&h| (game, h)).collect();
        prop_assert_eq!(out.trim(), mixed_misere(&sum, &mut HashMap::new()).to_string(), "{}", written);
    }
}

/// A misère sum of 200,000 heaps whose value is 0 or 1 is answered from the quotient (a search
/// of the whole sum would hold keys of 200,000 components). Truth: k heaps of *1 (kayles[1])
/// have misère value 1, 0, 1, 0, ... for k = 0, 1, 2, ... (the mex of the value of k - 1).
#[test]
fn misere_values_of_huge_sums_come_from_the_quotient() {
    let mut ones = vec![1u64];
    for k in 1..=200_001 {
        ones.push(mex([ones[k - 1]]));
    }
    for k in [200_000usize, 200_001] {
        let out = run(&format!("grundy misere kayles[repeat(1, {k})]"));
        assert_eq!(out.trim(), ones[k].to_string(), "{k} heaps");
    }
}
