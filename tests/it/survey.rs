//! `survey`: its rows against an independent computation. Periods, figures and equal games of
//! every octal code of up to two digits against the plain mex of each code
//! (`support/octal_values.rs`); periods, figures and equal games against the published tables of
//! Tomek Czajka's octal-games (github.com/tczajka/octal-games at 57e893a: `SolvedGames.md`,
//! `UnsolvedGames.md`, `GameLookup.md`); 0.161 and 0.36, once listed as equal; the files read
//! back; the memory limit; the rows on several threads.

use std::collections::HashMap;
use std::path::Path;

use crate::periods::proved_octal_period;
use crate::support::octal_values;
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
/// one is the first that does, and a row that equals none differs from each earlier row under
/// every offset.
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
                for (k, first) in names.iter().enumerate().take(j) {
                    assert_eq!(equal_to(k), None, "{code} is {first} too");
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

/// The games equal to others in `GameLookup.md` (tczajka/octal-games), among the codes of up to
/// two digits: each row's earlier game is of the same class as the game the table names
/// (`-` there: equal to no simpler game, so the survey may name none or one of the same class).
#[test]
fn equal_games_are_those_of_the_published_lookup() {
    let rows = survey_rows("survey octal 2 up to 4000");
    let index: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r["game"].as_str(), i))
        .collect();
    // The first game of each row's class: its earlier game's, followed back.
    let class = |mut i: usize| {
        while !rows[i]["equals"].is_empty() {
            i = index[rows[i]["equals"].as_str()];
        }
        i
    };
    // GameLookup.md, the rows `.x`, `4.x`, `.0x` to `.7x` and `4.0x` to `4.7x`: code, its equal.
    let lookup = [
        ("0.2", "4.0"),
        ("0.3", "4.0"),
        ("0.5", "4.0"),
        ("0.7", "4.0"),
        ("4.1", "0.51"),
        ("4.2", "4.0"),
        ("4.4", "0.77"),
        ("4.5", "0.51"),
        ("4.6", "0.77"),
        ("4.7", "0.75"),
        ("0.01", "0.1"),
        ("0.03", "0.02"),
        ("0.05", "4.0"),
        ("0.07", "0.4"),
        ("0.21", "4.0"),
        ("0.23", "0.22"),
        ("0.24", "4.0"),
        ("0.25", "4.0"),
        ("0.27", "0.26"),
        ("0.33", "0.22"),
        ("0.37", "0.6"),
        ("0.41", "0.17"),
        ("0.42", "0.4"),
        ("0.43", "0.17"),
        ("0.46", "0.44"),
        ("0.47", "0.45"),
        ("0.55", "0.51"),
        ("0.61", "0.6"),
        ("0.62", "0.6"),
        ("0.63", "0.6"),
        ("0.65", "0.64"),
        ("0.66", "0.64"),
        ("0.67", "0.64"),
        ("0.73", "0.26"),
        ("4.01", "4.0"),
        ("4.02", "0.26"),
        ("4.13", "4.12"),
        ("4.16", "0.57"),
        ("4.31", "4.3"),
        ("4.71", "0.75"),
        ("4.73", "4.72"),
    ];
    for (code, equal) in lookup {
        let (i, j) = (index[code], index[equal]);
        assert_eq!(
            class(i),
            class(j),
            "{code} and {equal}: {:?} and {:?}",
            rows[i],
            rows[j]
        );
    }
}

/// Periods of `SolvedGames.md` (tczajka/octal-games: Kenyon 1967, Austin 1976, and `.45`) found
/// and proved by a survey of a list, and the figures of `.04` to 2^17 heaps in
/// `UnsolvedGames.md`: the largest value 1024 at heap 109,363, the rare mask 7b8 (hexadecimal),
/// 18,860 rare heaps with heap 0, the last at 131,003.
#[test]
fn published_periods_and_figures() {
    let games = [
        ("0.45", 498, 20),
        ("0.156", 3479, 349),
        ("0.356", 7315, 142),
        ("0.644", 3256, 442),
        ("0.165", 5181, 1550),
    ];
    let declared: String = games
        .iter()
        .enumerate()
        .map(|(i, (code, _, _))| format!("game g{i} = octal {code}\n"))
        .collect();
    let names: Vec<String> = (0..games.len()).map(|i| format!("g{i}")).collect();
    let rows = survey_rows(&format!(
        "{declared}survey [{}] up to 20000",
        names.join(", ")
    ));
    for ((code, n0, p), row) in games.iter().zip(&rows) {
        assert_eq!(row["status"], "solved", "{code}: {row:?}");
        assert_eq!(number(row, "preperiod"), Some(*n0), "{code}");
        assert_eq!(number(row, "period"), Some(*p), "{code}");
    }
    let rows = survey_rows("game g = octal 0.04\nsurvey [g] up to 131072");
    let row = &rows[0];
    assert_eq!(row["status"], "open");
    assert_eq!(number(row, "heaps"), Some(131_072));
    assert_eq!(number(row, "largest"), Some(1024));
    assert_eq!(number(row, "largest_heap"), Some(109_363));
    assert_eq!(number(row, "mask"), Some(0x7b8));
    // The table counts heap 0 among the rare heaps (its value 0 is rare under every mask); the
    // figure here counts the heaps from 1 on.
    assert_eq!(number(row, "rare_heaps").map(|n| n + 1), Some(18_860));
    assert_eq!(number(row, "last_rare_heap"), Some(131_003));
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
