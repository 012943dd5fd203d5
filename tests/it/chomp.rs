//! Chomp written over a list of row lengths (docs/LANGUAGE.md's spelling and others): each
//! spelling read as Chomp is routed to the engine's table of Young diagrams, and its values,
//! options, outcomes, sums and winning moves are those of the walker (`interpret_only`: the
//! rules as written, by the plain search), on random diagrams and on lists that are no diagram;
//! spellings that are some other game are not routed, and keep the walker's values; a box whose
//! table passes the memory limit is refused with the limit.

use grundy::game::{Limits, Method};
use grundy::Session;

use crate::support::random::Random;

/// Chomp, spelled four ways (the reference's first).
const CHOMP: [&str; 4] = [
    "game chomp on s[] {
    for i in 0..len(s), k in 0..s[i] if i > 0 or k > 0 {
        for j in i..len(s) { s[j] = min(s[j], k) }
    }
}",
    "game chomp on s[] {
    for i in 0..=len(s) - 1 if i >= 0, k in 0..=s[i] - 1 if not (i == 0 and k == 0) {
        for j in i..len(s) if s[j] > k { s[j] = k }
    }
}",
    "game chomp on s[] {
    for i in 0..len(s), k in 1..s[i] { for j in i..len(s) { s[j] = min(k, s[j]) } }
    for i in 1..len(s), k in 0..s[i] if k == 0 { for j in i..=len(s) - 1 if k < s[j] { s[j] = min(s[j], k) } }
}",
    "game chomp on s[] {
    for i in 0..len(s), k in 0..s[i] if k != 0 or 0 < i { for j in i..len(s) if s[j] >= k { s[j] = k } }
}",
];

/// Games of Chomp's form that are not Chomp: the poison eaten, rows above the cell cut too,
/// no move that empties a row, a guard that reads the state, and loops whose guard is not the
/// rows longer than the cut (the first of them loops: a row may grow).
const NOT_CHOMP: [&str; 6] = [
    "game g on s[] { for i in 0..len(s), k in 0..s[i] { for j in i..len(s) { s[j] = min(s[j], k) } } }",
    "game g on s[] { for i in 0..len(s), k in 0..s[i] if i > 0 or k > 0 { for j in 0..len(s) { s[j] = min(s[j], k) } } }",
    "game g on s[] { for i in 0..len(s), k in 1..s[i] { for j in i..len(s) { s[j] = min(s[j], k) } } }",
    "game g on s[] { for i in 0..len(s), k in 0..s[i] if i > 0 or s[i] > k + 1 { for j in i..len(s) { s[j] = min(s[j], k) } } }",
    "game g on s[] { for i in 0..len(s), k in 0..s[i] if i > 0 or k > 0 { for j in i..len(s) if s[j] > 1 { s[j] = k } } }",
    "game g on s[] { for i in 0..len(s), k in 0..s[i] if i > 0 or k > 0 { for j in i..len(s) if s[j] > k + 1 { s[j] = k } } }",
];

/// A session with `source` run, natively or with the walker only.
fn session(source: &str, walked: bool) -> Session {
    grundy::interpret_only(walked);
    let mut session = Session::new(Limits::default());
    session.run("chomp", source, &mut Vec::new()).unwrap();
    grundy::interpret_only(false);
    session
}

/// What `statement` prints in `session` (with the walker only, if `walked`), and its errors.
fn answered(session: &mut Session, statement: &str, walked: bool) -> (String, String) {
    let mut out = Vec::new();
    grundy::interpret_only(walked);
    let result = session.run("chomp", statement, &mut out);
    grundy::interpret_only(false);
    let errors = result.err().map(|e| format!("{e:?}")).unwrap_or_default();
    (String::from_utf8(out).unwrap(), errors)
}

/// What `statement` prints in `session` (with the walker only, if `walked`), which must answer.
fn printed(session: &mut Session, statement: &str, walked: bool) -> String {
    let (out, errors) = answered(session, statement, walked);
    assert!(errors.is_empty(), "{statement}\n{errors}");
    out
}

fn method(session: &mut Session, game: &str) -> Method {
    session.method(game).unwrap().1
}

/// A random list of at most 5 row lengths of at most 5 cells, non-increasing (a diagram)
/// unless `any` (a position's counters are never negative).
fn random_list(random: &mut Random, any: bool) -> Vec<i64> {
    let rows = random.below(6) as usize;
    let mut list: Vec<i64> = (0..rows).map(|_| random.below(6) as i64).collect();
    if !any {
        list.sort_unstable_by(|a, b| b.cmp(a));
    }
    list
}

/// `count` random lists from `seed`, every third of any lengths, the others diagrams.
fn random_lists(seed: u64, count: usize) -> Vec<Vec<i64>> {
    let mut random = Random(seed);
    (0..count)
        .map(|n| random_list(&mut random, n % 3 == 0))
        .collect()
}

/// The values of `game` at these lists, in one statement.
fn values_statement(game: &str, lists: &[Vec<i64>]) -> String {
    let asked: Vec<String> = lists
        .iter()
        .map(|l| format!("grundy({game}{l:?})"))
        .collect();
    format!("print [{}]", asked.join(", "))
}

#[test]
fn every_spelling_of_chomp_is_played_by_its_table_with_the_walkers_values() {
    let lists = random_lists(0x9e37_79b9_7f4a_7c15, 120);
    let statement = values_statement("chomp", &lists);
    let truth = printed(&mut session(CHOMP[0], true), &statement, true);
    assert!(lists.iter().any(|l| l.windows(2).any(|w| w[0] < w[1])));
    for spelling in CHOMP {
        let mut native = session(spelling, false);
        assert_eq!(method(&mut native, "chomp"), Method::Chomp, "{spelling}");
        assert_eq!(printed(&mut native, &statement, false), truth, "{spelling}");
        let mut walked = session(spelling, true);
        assert_eq!(method(&mut walked, "chomp"), Method::Search, "{spelling}");
        assert_eq!(
            printed(&mut walked, &statement, true),
            truth,
            "{spelling}, walked"
        );
    }
}

#[test]
fn other_games_of_chomps_form_are_not_routed_and_keep_the_walkers_values() {
    let lists = random_lists(0x2545_f491_4f6c_dd1d, 60);
    for spelling in NOT_CHOMP {
        let mut native = session(spelling, false);
        assert_eq!(method(&mut native, "g"), Method::Search, "{spelling}");
        for list in &lists {
            let statement = values_statement("g", std::slice::from_ref(list));
            let walked = answered(&mut session(spelling, true), &statement, true);
            assert_eq!(
                answered(&mut native, &statement, false),
                walked,
                "{spelling}: {list:?}"
            );
        }
    }
}

/// Sums, options, outcomes, winning moves, misère play and lists that are no diagram answer as
/// the walker does, whatever was asked before them (each statement in a fresh pair of sessions
/// and all of them in one).
#[test]
fn questions_about_chomp_positions_answer_as_the_walker() {
    let statements = [
        "print grundy(chomp[3, 2] + chomp[4, 4])",
        "print options(chomp[3, 2, 1])",
        "print [outcome(chomp[2, 1]), outcome(chomp[4, 4, 4]), outcome(chomp[5, 5, 2] + chomp[3])]",
        "print wins(chomp[4, 3, 1] + chomp[2, 2])",
        "win chomp[5, 5, 2]",
        "print outcome(misere chomp[3, 2] + chomp[2, 2])",
        "print [grundy(chomp[3, 5, 1]), grundy(chomp[2, 0, 2]), grundy(chomp[4, 4, 0, 0]), grundy(chomp[])]",
        "print grundy(chomp[6, 6, 6, 6, 6, 6]) == grundy(chomp[6, 6, 6, 6, 6, 6, 0])",
        "sequence grundy(chomp[n, n]) for n in 0..8",
    ];
    let (mut native_all, mut walked_all) = (session(CHOMP[0], false), session(CHOMP[0], true));
    for statement in statements {
        let walked = printed(&mut session(CHOMP[0], true), statement, true);
        let native = printed(&mut session(CHOMP[0], false), statement, false);
        assert_eq!(native, walked, "{statement}");
        assert_eq!(
            printed(&mut native_all, statement, false),
            walked,
            "{statement}, after others"
        );
        assert_eq!(
            printed(&mut walked_all, statement, true),
            walked,
            "{statement}, walked after others"
        );
    }
}

#[test]
fn the_method_says_the_table_of_diagrams_runs() {
    let mut native = session(CHOMP[0], false);
    let shown = method(&mut native, "chomp").to_string();
    assert!(shown.starts_with("chomp: the Young diagrams"), "{shown}");
}

#[test]
fn a_box_past_the_memory_limit_is_refused_with_the_limit() {
    let limits = Limits {
        max_memory: 64 << 20,
        ..Limits::default()
    };
    let mut session = Session::new(limits);
    let source = format!("{}\ngrundy chomp[repeat(16, 16)]", CHOMP[0]);
    let error = session.run("chomp", &source, &mut Vec::new()).unwrap_err();
    let shown = format!("{error:?}");
    assert!(shown.contains("MemoryLimit"), "{shown}");
    // What fits is answered in the same session afterwards.
    let mut out = Vec::new();
    session
        .run("chomp", "grundy chomp[4, 4, 4]", &mut out)
        .unwrap();
    assert!(!out.is_empty());
}
