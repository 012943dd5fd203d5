//! Every bad program in tests/inputs/errors/ fails with its diagnostic, snapshot-tested
//! without colour at a fixed width, and never panics. Together they cover every error code a
//! program can produce (reading a missing file or one that is not UTF-8, and Ctrl-C, are
//! tested with the binary and the REPL; an error inside the rules of a game is shown with its
//! own code against the source that declared the game).

use grundy::game::Limits;

/// Small limits, so that the programs about limits reach them quickly.
fn corpus_limits() -> Limits {
    Limits {
        max_states: 200_000,
        max_memory: 8 << 20,
        ..Limits::default()
    }
}

#[test]
fn every_bad_program_gets_its_diagnostic() {
    insta::glob!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs"),
        "errors/*.game",
        |path| {
            let source = std::fs::read_to_string(path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let rendered = match grundy::run_to_string_with(&name, &source, corpus_limits()) {
                Ok(out) => panic!("{name} ran without error:\n{out}"),
                Err(e) => e,
            };
            insta::assert_snapshot!(rendered);
        }
    );
}

#[test]
fn the_corpus_covers_every_error_code() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/errors");
    let mut seen = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        let rendered = grundy::run_to_string_with("corpus", &source, corpus_limits()).unwrap_err();
        for code in rendered
            .split_whitespace()
            .filter(|w| w.starts_with("grundy::"))
        {
            seen.insert(code.to_string());
        }
    }
    let error_rs = include_str!("../../src/error.rs");
    let all: Vec<&str> = error_rs
        .split("code(grundy::")
        .skip(1)
        .map(|rest| rest.split(')').next().unwrap())
        .collect();
    for code in all {
        // `deferred` is internal to parallel sweeps: the case runs again and is never shown.
        // `io` and `not_utf8` are about files, tested with the binary (tests/it/cli.rs).
        // `cache` is a warning about cache files, tested with damaged files (tests/it/cache.rs).
        // `outside_root` names the folder of the run, snapshot with it as a placeholder
        // (tests/it/files.rs).
        // `no_rules` is a warning, not an error: tested at the prompt (tests/it/repl_backend.rs).
        // `unproved` needs a search of more than 2^20 states, past the corpus's 8 MiB: it is
        // tested at the default limits (tests/it/sparse_reach.rs).
        // `program_memory` refuses a file before it is read (tests/it/cli.rs).
        // `survey_parts` needs `--shard` or `--merge` and a cache folder: snapshots with
        // damaged, missing and foreign parts (tests/it/survey_parts.rs).
        if code == "io"
            || code == "program_memory"
            || code == "not_utf8"
            || code == "interrupted"
            || code == "in_declaration"
            || code == "deferred"
            || code == "cache"
            || code == "outside_root"
            || code == "no_rules"
            || code == "unproved"
            || code == "survey_parts"
        {
            continue;
        }
        assert!(
            seen.contains(&format!("grundy::{code}")),
            "no bad program gives grundy::{code}"
        );
    }
}
