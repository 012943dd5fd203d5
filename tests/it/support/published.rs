//! The published tables of `tests/inputs/published/` (Tomek Czajka's octal-games), read as rows
//! of cells, with codes in grundy's spelling.

use std::collections::HashMap;

/// The rows of every markdown table of `tests/inputs/published/NAME`, each a map from the
/// column's name (the first cell of each column of the table's header) to the cell, trimmed.
pub fn rows(name: &str) -> Vec<HashMap<String, String>> {
    let path = format!(
        "{}/tests/inputs/published/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect()
    };
    let mut header: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| l.contains('|')) {
        let row = cells(line);
        if row[0] == "game" {
            header = row;
        } else if !row[0].starts_with(':') {
            rows.push(header.iter().cloned().zip(row).collect());
        }
    }
    rows
}

/// A code of the tables in grundy's spelling: `.4` is `0.4`, `4` is `4.0`, `4.12` stays; `None`
/// for a game that is not a code (`Grundy's`).
pub fn code(cell: &str) -> Option<String> {
    let cell = cell.trim();
    if !cell.chars().all(|c| c.is_ascii_digit() || c == '.') || cell.is_empty() {
        return None;
    }
    Some(match cell.split_once('.') {
        Some(("", digits)) => format!("0.{digits}"),
        Some(_) => cell.to_string(),
        None => format!("{cell}.0"),
    })
}

/// A number of the tables: decimal, or hexadecimal for a mask.
pub fn number(cell: &str, radix: u32) -> Option<usize> {
    usize::from_str_radix(cell.trim(), radix).ok()
}
