//! `survey`: its rows against an independent computation. Periods, figures and equal games of
//! every octal code of up to two digits against the plain mex of each code
//! (`support/octal_values.rs`); periods, figures and equal games against the published tables of
//! Tomek Czajka's octal-games (github.com/tczajka/octal-games at 57e893a: `SolvedGames.md`,
//! `UnsolvedGames.md`, `GameLookup.md`); 0.161 and 0.36, once listed as equal; the files read
//! back; the memory limit; the rows on several threads.

use std::collections::HashMap;
use std::path::Path;

use crate::periods::proved_octal_period;
use crate::support::{octal_values, published};
use grundy::game::Limits;

/// Runs `source` with `folder` as its root.
fn run_in(folder: &Path, source: &str, limits: Limits) -> Result<String, String> {
    let limits = Limits {
        root: grundy::files::Root::folder(folder.to_path_buf()),
        ..limits
    };
    grundy::run_to_string_with("survey", source, limits)
}

/// The rows of a survey's `.csv` file, each by its column names (no field of these surveys holds
/// a comma).
fn read_csv(text: &str) -> Vec<HashMap<String, String>> {
    let mut lines = text.lines();
    let names: Vec<&str> = lines.next().expect("a header").split(',').collect();
    lines
        .map(|line| {
            let fields = line.split(',').map(str::to_string);
            names.iter().map(|n| n.to_string()).zip(fields).collect()
        })
        .collect()
}

/// Surveys `what` into a `.csv` file and reads its rows back.
fn survey_rows(what: &str) -> Vec<HashMap<String, String>> {
    let folder = tempfile::tempdir().unwrap();
    let source = format!("{what} to \"rows.csv\"");
    let out = run_in(folder.path(), &source, Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.starts_with("wrote "), "{out}");
    read_csv(&std::fs::read_to_string(folder.path().join("rows.csv")).unwrap())
}

fn number(row: &HashMap<String, String>, column: &str) -> Option<usize> {
    let field = &row[column];
    (!field.is_empty()).then(|| {
        field
            .parse()
            .unwrap_or_else(|_| panic!("{column}: {field}"))
    })
}

/// Whether `x[n] = y[n + offset]` at every heap `n` where both are known.
fn agree(x: &[u64], y: &[u64], offset: i64) -> bool {
    let first = (-offset).max(0) as usize;
    (first..x.len())
        .take_while(|&n| ((n as i64 + offset) as usize) < y.len())
        .all(|n| x[n] == y[(n as i64 + offset) as usize])
}

/// Every octal code of up to two digits, 0.x and 4.x, each to 2,000 heaps: a solved row's least
/// preperiod and period are what the plain mex shows and the theorem proves, an open row's are
/// not proved by it within the heaps, and an open row's largest value is the plain mex's. A
/// row that equals an earlier one agrees with it under its offset on every heap, the earlier
/// one is the first that does (unless it is the first of the same moves, by definition), and a
/// row that equals none differs from each earlier row under every offset.
#[test]
fn codes_of_two_digits_against_the_plain_mex() {
    let heaps = 2_000;
    let rows = survey_rows(&format!("survey octal 2 up to {heaps}"));
    assert_eq!(rows.len(), 2 * (7 + 56) + 1);
    let values: Vec<Vec<u64>> = rows
        .iter()
        .map(|row| octal_values::of_code(&row["game"], heaps))
        .collect();
    let names: Vec<&str> = rows.iter().map(|r| r["game"].as_str()).collect();
    let (mut solved, mut open, mut equal) = (0, 0, 0);
    for (i, row) in rows.iter().enumerate() {
        let code = names[i];
        let digits = octal_values::digits(code);
        let largest_take = digits.len() - 1;
        match row["status"].as_str() {
            "solved" => {
                let (n0, p) = (
                    number(row, "preperiod").unwrap(),
                    number(row, "period").unwrap(),
                );
                let needs = 2 * (n0 + p) + largest_take;
                let g = octal_values::of_code(code, 4 * needs.max(64));
                assert_eq!(
                    proved_octal_period(&g, largest_take),
                    Some((n0, p)),
                    "{code}"
                );
                assert_eq!(number(row, "saltus"), Some(0), "{code}");
                solved += 1;
            }
            "open" => {
                assert_eq!(
                    proved_octal_period(&values[i], largest_take),
                    None,
                    "{code}"
                );
                assert_eq!(number(row, "heaps"), Some(heaps), "{code}");
                let g = &values[i];
                let largest = *g.iter().max().unwrap();
                assert_eq!(number(row, "largest"), Some(largest as usize), "{code}");
                let at = g.iter().position(|&v| v == largest).unwrap();
                assert_eq!(number(row, "largest_heap"), Some(at), "{code}");
                open += 1;
            }
            status => panic!("{code}: {status}"),
        }
        let equal_to = |j: usize| (-4..=4).find(|&d| agree(&values[i], &values[j], d));
        match row["equals"].as_str() {
            "" => {
                for (j, earlier) in names.iter().enumerate().take(i) {
                    assert_eq!(equal_to(j), None, "{code} is {earlier}, shifted");
                }
            }
            earlier => {
                let j = names.iter().position(|&n| n == earlier).unwrap();
                assert!(j < i, "{code} equals a later game {earlier}");
                let offset: i64 = row["offset"].parse().unwrap();
                assert!(
                    agree(&values[i], &values[j], offset),
                    "{code} is not {earlier}"
                );
                // A game equal by definition names the first game of its moves, which may
                // come after a game of other moves with the same values.
                let by_definition = row["equality"] == "by definition";
                for (k, first) in names.iter().enumerate().take(j) {
                    if !by_definition {
                        assert_eq!(equal_to(k), None, "{code} is {first} too");
                    }
                }
                equal += 1;
            }
        }
    }
    assert!(
        solved > 50 && open > 5 && equal > 50,
        "{solved} {open} {equal}"
    );
}

/// Surveys every octal code of up to three digits to `heaps` heaps; its rows, and their places
/// by code.
fn codes_of_three_digits(heaps: usize) -> (Vec<HashMap<String, String>>, HashMap<String, usize>) {
    let rows = survey_rows(&format!("survey octal 3 up to {heaps}"));
    assert_eq!(rows.len(), 2 * 512 - 1);
    let index = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r["game"].clone(), i))
        .collect();
    (rows, index)
}

/// Every game `GameLookup.md` (tczajka/octal-games) names as equal to a simpler one, among the
/// codes of up to three digits (0.x and 4.x): the survey's earlier game of each row, followed
/// back, leads to the same first game as that of the simpler one. (`-` there: equal to no
/// simpler game, so the survey may name none or one of the same class.)
#[test]
fn equal_games_are_those_of_the_published_lookup() {
    let (rows, index) = codes_of_three_digits(4096);
    let class = |mut i: usize| {
        while !rows[i]["equals"].is_empty() {
            i = index[&rows[i]["equals"]];
        }
        i
    };
    let mut pairs = 0;
    for lookup in published::rows("GameLookup.md") {
        let family = &lookup["game"];
        for digit in 1..=7 {
            let Some(equal) = published::code(&lookup[&digit.to_string()]) else {
                continue;
            };
            let code = published::code(&family.replace('x', &digit.to_string())).unwrap();
            let (i, j) = (index[&code], index[&equal]);
            assert_eq!(
                class(i),
                class(j),
                "{code} and {equal}: {:?} and {:?}",
                rows[i],
                rows[j]
            );
            pairs += 1;
        }
    }
    assert!(pairs > 600, "{pairs}");
}

/// The games of `TrivialGames.md` (tczajka/octal-games), solved from their first 1,000 values:
/// each is solved in a survey of the codes of up to three digits, with the table's preperiod
/// and period.
#[test]
fn trivial_games_have_the_published_periods() {
    let (rows, index) = codes_of_three_digits(2000);
    let trivial = published::rows("TrivialGames.md");
    for game in &trivial {
        let code = published::code(&game["game"]).unwrap();
        let row = &rows[index[&code]];
        assert_eq!(row["status"], "solved", "{code}: {row:?}");
        let decimal = |column: &str| published::number(&game[column], 10);
        assert_eq!(number(row, "preperiod"), decimal("prefix"), "{code}");
        assert_eq!(number(row, "period"), decimal("period"), "{code}");
    }
    assert!(trivial.len() > 80, "{}", trivial.len());
}

/// The periods and figures of `SolvedGames.md` and `UnsolvedGames.md` (tczajka/octal-games):
/// a survey of a list, each game to 2^17 heaps, proves the periods whose proof needs no more
/// heaps than that (Kenyon 1967, Austin 1976, `.45`, Gangolli and Plambeck's 0.127) and finds
/// the figures that 2^17 heaps settle: the largest value and its first heap when that heap is
/// below 2^17, the rare mask, the rare heaps and the last of them when the last is below 2^17
/// (the tables count heap 0 among the rare heaps, the survey from heap 1), and every figure of
/// the open games that the table gives at 2^17 heaps.
#[test]
fn published_periods_and_figures() {
    let heaps = 1 << 17;
    let mut games: Vec<(String, HashMap<String, String>)> = Vec::new();
    for row in published::rows("SolvedGames.md") {
        games.push((published::code(&row["game"]).unwrap(), row));
    }
    for row in published::rows("UnsolvedGames.md") {
        let n = row.get("n").map(String::as_str);
        if let (Some(code), Some("2^17")) = (published::code(&row["game"]), n) {
            games.push((code, row));
        }
    }
    let declared: String = games
        .iter()
        .enumerate()
        .map(|(i, (code, _))| format!("game g{i} = octal {code}\n"))
        .collect();
    let names: Vec<String> = (0..games.len()).map(|i| format!("g{i}")).collect();
    let survey = format!("{declared}survey [{}] up to {heaps}", names.join(", "));
    let rows = survey_rows(&survey);
    let (mut proved, mut figures) = (0, 0);
    for ((code, table), row) in games.iter().zip(&rows) {
        let decimal = |column: &str| table.get(column).and_then(|c| published::number(c, 10));
        let needs = match (decimal("prefix"), decimal("period")) {
            (Some(n0), Some(p)) => 2 * (n0 + p) + 3,
            _ => usize::MAX,
        };
        if needs <= heaps {
            has_published_period(code, table, row);
            proved += 1;
        } else {
            assert_eq!(row["status"], "open", "{code}: {row:?}");
        }
        figures += usize::from(has_published_figures(code, table, row, heaps));
    }
    assert_eq!((proved, figures), (6, 9));
}

/// A survey's row against a row of a published table: solved, with its preperiod and period.
fn has_published_period(
    code: &str,
    table: &HashMap<String, String>,
    row: &HashMap<String, String>,
) {
    let decimal = |column: &str| table.get(column).and_then(|c| published::number(c, 10));
    assert_eq!(row["status"], "solved", "{code}: {row:?}");
    assert_eq!(number(row, "preperiod"), decimal("prefix"), "{code}");
    assert_eq!(number(row, "period"), decimal("period"), "{code}");
}

/// A survey's row against a row of a published table, in the figures that `heaps` heaps
/// settle: the largest value and its first heap when that heap is below `heaps`; the sparse
/// space when the table gives its mask (in hexadecimal) and the last rare heap is below `heaps`
/// (the tables count heap 0 among the rare heaps, the survey from heap 1). Whether the sparse
/// space was compared.
fn has_published_figures(
    code: &str,
    table: &HashMap<String, String>,
    row: &HashMap<String, String>,
    heaps: usize,
) -> bool {
    let decimal = |column: &str| table.get(column).and_then(|c| published::number(c, 10));
    if decimal("largest idx").is_some_and(|at| at < heaps) {
        assert_eq!(
            number(row, "largest_heap"),
            decimal("largest idx"),
            "{code}"
        );
        assert_eq!(number(row, "largest"), decimal("largest"), "{code}");
    }
    let mask = published::number(&table["rare mask"], 16);
    if mask.is_none() || decimal("last rare").is_none_or(|last| last >= heaps) {
        return false;
    }
    assert_eq!(number(row, "mask"), mask, "{code}: {row:?}");
    let rare = number(row, "rare_heaps").map(|n| n + 1);
    assert_eq!(rare, decimal("num rare"), "{code}");
    assert_eq!(
        number(row, "last_rare_heap"),
        decimal("last rare"),
        "{code}"
    );
    true
}

/// 0.161 and 0.36, listed as equal in Flammenkamp's table, first differ at heap 519 (by the
/// plain mex here): a survey of both never calls them equal, and one that stops before heap
/// 519 says they agree only as far as known.
#[test]
fn games_once_listed_as_equal_are_not() {
    let (a, b) = (
        octal_values::of_code("0.161", 1000),
        octal_values::of_code("0.36", 1000),
    );
    assert_eq!((0..1000).find(|&n| a[n] != b[n]), Some(519));
    let games = "game a = octal 0.161\ngame b = octal 0.36\n";
    let rows = survey_rows(&format!("{games}survey [a, b]"));
    assert_eq!(rows[1]["equals"], "", "{:?}", rows[1]);
    let rows = survey_rows(&format!("{games}survey [a, b] up to 500"));
    assert_eq!(rows[1]["equals"], "a");
    assert_eq!(rows[1]["equality"], "not proved");
}

/// The table, the `.csv` file and the `.json` file hold the same rows.
#[test]
fn files_hold_the_rows_of_the_table() {
    let folder = tempfile::tempdir().unwrap();
    let run = |source: &str| run_in(folder.path(), source, Limits::default()).unwrap();
    let table = run("survey subtraction 4 up to 500");
    run("survey subtraction 4 up to 500 to \"s.csv\"");
    run("survey subtraction 4 up to 500 to \"s.json\"");
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 1 + 15 + 1, "{table}");
    let csv = std::fs::read_to_string(folder.path().join("s.csv")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.path().join("s.json")).unwrap())
            .unwrap();
    let records = json.as_array().unwrap();
    let csv_rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(records.len(), 15);
    assert_eq!(csv_rows.len(), 15);
    for ((line, record), csv_row) in lines[1..16].iter().zip(records).zip(&csv_rows) {
        let game = record["game"].as_str().unwrap();
        assert!(line.starts_with(game), "{line} / {game}");
        let field = match game.contains(',') {
            true => format!("\"{game}\","),
            false => format!("{game},"),
        };
        assert!(csv_row.starts_with(&field), "{csv_row}");
        let period = record["period"].as_u64().map(|p| p.to_string());
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!(
            period.is_none_or(|p| fields.contains(&p.as_str())),
            "{line} / {record}"
        );
    }
    // Every set within 1..=4 is solved, its period proved from the largest take's window.
    assert!(records.iter().all(|r| r["status"] == "solved"), "{json}");
}

/// A survey over the memory limit ends with the limit's diagnostic, after the rows it made and
/// a line saying they are not the whole survey.
#[test]
fn the_memory_limit_ends_a_survey_with_its_diagnostic() {
    let folder = tempfile::tempdir().unwrap();
    let limits = Limits {
        max_memory: 4 << 20,
        ..Limits::default()
    };
    let err = run_in(folder.path(), "survey octal 2 up to 1000000", limits).unwrap_err();
    assert!(err.contains("grundy::memory_limit"), "{err}");
    assert!(err.contains("are not the whole survey"), "{err}");
}

/// The rows of a survey on several threads are those of one thread, table and summary alike.
#[test]
fn threads_do_not_change_the_rows() {
    let folder = tempfile::tempdir().unwrap();
    let run = |threads| {
        let limits = Limits {
            threads,
            ..Limits::default()
        };
        run_in(folder.path(), "survey octal 2 up to 3000", limits).unwrap()
    };
    let one = run(1);
    assert_eq!(one.lines().count(), 1 + 127 + 1, "{one}");
    assert_eq!(run(4), one);
    assert_eq!(run(0), one);
}

/// The games of `SolvedGames.md` whose proofs need more than 2^17 heaps (0.16, 0.56, 0.376,
/// 0.354: Gangolli and Plambeck 1989, Flammenkamp 2002), in a survey with no bound: still open
/// at 2^17 heaps and settled in sparse space, each is pushed on until it is solved, with the
/// table's preperiod and period, and the table's figures. 0.376's and 0.354's periods begin
/// past 2^20 heaps, where the values a comparison reads come from the proved period.
#[test]
fn published_long_periods_in_a_survey_pushed_on() {
    let games: Vec<HashMap<String, String>> = published::rows("SolvedGames.md")
        .into_iter()
        .filter(|row| published::number(&row["prefix"], 10).is_some_and(|n0| n0 > 100_000))
        .collect();
    let codes: Vec<String> = games
        .iter()
        .map(|row| published::code(&row["game"]).unwrap())
        .collect();
    assert_eq!(codes, ["0.16", "0.56", "0.376", "0.354"]);
    let declared: String = (codes.iter().enumerate())
        .map(|(i, code)| format!("game g{i} = octal {code}\n"))
        .collect();
    let names: Vec<String> = (0..codes.len()).map(|i| format!("g{i}")).collect();
    let rows = survey_rows(&format!("{declared}survey [{}]", names.join(", ")));
    for ((code, table), row) in codes.iter().zip(&games).zip(&rows) {
        has_published_period(code, table, row);
        assert!(has_published_figures(code, table, row, 1 << 25), "{code}");
    }
}

/// A code equal by definition to an earlier one (moves added that the others already make,
/// as 0.641 to 0.64) has its row: the same status, period, heaps and figures, the earlier
/// code as the one it equals, "by definition"; and the codes so joined have the same values by
/// the plain mex as far as the survey computed them (`codes_of_two_digits_against_the_plain_mex`
/// checks the values).
#[test]
fn games_equal_by_definition_share_a_row() {
    let (rows, index) = codes_of_three_digits(3000);
    let copied = [
        "status",
        "preperiod",
        "period",
        "heaps",
        "largest",
        "largest_heap",
        "mask",
    ];
    let mut joined = 0;
    for row in rows.iter().filter(|r| r["equality"] == "by definition") {
        let first = &rows[index[&row["equals"]]];
        assert_eq!(row["offset"], "0", "{row:?}");
        for column in copied {
            assert_eq!(row[column], first[column], "{column}: {row:?} {first:?}");
        }
        joined += 1;
    }
    assert!(joined > 500, "{joined}");
    assert_eq!(rows[index["0.641"]]["equals"], "0.64");
    assert_eq!(rows[index["0.641"]]["equality"], "by definition");
}
