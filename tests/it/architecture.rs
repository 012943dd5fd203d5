//! The layers of the code keep to what they may know (ARCHITECTURE.md, "Invariants"): each
//! folder of `src/` names only the modules of the crate it is allowed to, as read from its source.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn sources(path: &Path, found: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            sources(&entry.unwrap().path(), found);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        found.push(path.to_path_buf());
    }
}

/// The modules of the crate (`crate::NAME`) that the files of a layer name, with a file of each.
fn named_modules(layer: &str) -> Vec<(String, PathBuf)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src.join(layer), &mut files);
    assert!(!files.is_empty(), "src/{layer} has no source");
    let mut named = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let relative = file.strip_prefix(&src).unwrap().to_path_buf();
        let depth = relative.components().count();
        let is_mod = file.file_name().is_some_and(|n| n == "mod.rs");
        // `super::` out of a folder's mod.rs (or `super::super::` out of a subfolder's) is the
        // crate itself, a way around the `crate::` paths counted below.
        let escapes = match (depth, is_mod) {
            (2, true) => text.contains("super::"),
            (3, true) => text.contains("super::super::"),
            _ => text.contains("super::super::super::"),
        };
        assert!(
            !escapes,
            "{} reaches the crate through `super`",
            relative.display()
        );
        for (i, _) in text.match_indices("crate::") {
            let name: String = text[i + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            named.push((name, relative.clone()));
        }
    }
    named
}

fn assert_layer_knows_only(layer: &str, allowed: &[&str]) {
    let mut seen = BTreeSet::new();
    for (name, file) in named_modules(layer) {
        assert!(
            allowed.contains(&name.as_str()),
            "{} names crate::{name}; src/{layer} may name only {allowed:?}",
            file.display()
        );
        seen.insert(name);
    }
}

#[test]
fn the_engine_knows_no_syntax_checker_evaluator_diagnostics_or_repl() {
    // A rule's error crosses the engine as an opaque `game::RuleError`, not as `crate::error`.
    // `files` is the one way a path is opened (the cache's folder too); it knows nothing else.
    assert_layer_knows_only("game", &["game", "files"]);
}

#[test]
fn the_syntax_knows_only_spans_and_errors() {
    assert_layer_knows_only("syntax", &["syntax", "span", "error"]);
}

#[test]
fn the_evaluator_knows_no_checker_or_repl() {
    assert_layer_knows_only(
        "eval",
        &[
            "eval", "syntax", "span", "error", "game", "builtins", "files",
        ],
    );
}

#[test]
fn the_built_in_table_spans_and_file_access_stand_alone() {
    for file in ["builtins.rs", "span.rs", "files.rs"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(file);
        let text = std::fs::read_to_string(path).unwrap();
        // Its unit tests' `use super::*;` is the file itself.
        let depends = text
            .lines()
            .filter(|line| line.trim() != "use super::*;")
            .any(|line| line.contains("crate::") || line.contains("super::"));
        assert!(!depends, "src/{file} depends on the rest of the crate");
    }
}

#[test]
fn every_path_a_program_names_is_opened_through_files_open() {
    // The command line's own files (the program run) and the cache's key, which is no path a
    // program names, are the only others.
    let allowed = ["files.rs", "lib.rs", "game/heap/cache_key.rs"];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    for file in files {
        let relative = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&file).unwrap();
        let opens = [
            "File::open(",
            "File::create(",
            "fs::write(",
            "OpenOptions::new(",
            "BitMapBackend::new(",
        ]
        .iter()
        .any(|call| text.contains(call));
        assert!(
            !opens || allowed.contains(&relative.as_str()),
            "src/{relative} opens a file itself: open it with `files::open`"
        );
    }
}
