//! Every file in examples/ runs and checks itself (with `assert` and `check`), both through the
//! library and through the `grundy` binary.

use std::path::{Path, PathBuf};
use std::process::Command;

fn example_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no example files");
    files
}

#[test]
fn every_example_runs_and_checks_itself() {
    for path in example_files() {
        let source = std::fs::read_to_string(&path).unwrap();
        assert!(
            source.contains("assert") || source.contains("check"),
            "{} checks nothing",
            path.display()
        );
        // Run as the binary runs a file: under its folder, relative paths from there.
        let folder = path.parent().unwrap().to_path_buf();
        let limits = grundy::game::Limits {
            root: grundy::files::Root::folder(folder),
            ..grundy::game::Limits::default()
        };
        let name = path.display().to_string();
        if let Err(e) = grundy::run_to_string_with(&name, &source, limits) {
            panic!("{} failed:\n{e}", path.display());
        }
    }
}

#[test]
fn the_binary_runs_every_example_with_exit_code_0() {
    for path in example_files() {
        let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
