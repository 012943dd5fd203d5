//! Every example in LANGUAGE.md runs. The reference lives in the shared folder beside the
//! repository; a copy is kept in tests/inputs/language.md so the test also runs where the
//! shared folder is absent. The examples run in a temporary folder holding the `heaps.txt`
//! they read, where their pictures are written.

use std::path::Path;

fn reference() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/LANGUAGE.md");
    std::fs::read_to_string(&shared)
        .or_else(|_| std::fs::read_to_string(root.join("tests/inputs/language.md")))
        .expect("LANGUAGE.md or its copy")
}

fn code_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some(String::new()),
            }
        } else if let Some(block) = current.as_mut() {
            block.push_str(line);
            block.push('\n');
        }
    }
    blocks
}

#[test]
fn every_example_in_the_reference_runs() {
    let blocks = code_blocks(&reference());
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("heaps.txt"), "3\n3 4 5\n").unwrap();
    std::env::set_current_dir(folder.path()).unwrap();
    assert!(blocks.len() >= 4, "the reference has its code blocks");
    let mut declarations = String::new();
    let mut ran = 0;
    for block in &blocks {
        let first = block.trim_start();
        if first.starts_with("game NAME") || first.starts_with("[for") {
            continue;
        }
        if first.starts_with("game ") {
            declarations.push_str(block);
            let out = grundy::run_to_string("LANGUAGE.md", &declarations);
            assert!(out.is_ok(), "declarations fail:\n{}", out.unwrap_err());
            ran += 1;
            continue;
        }
        let mut context = declarations.clone();
        for line in block.lines() {
            if line.trim().is_empty() {
                continue;
            }
            let source = format!("{context}\n{line}\n");
            if let Err(e) = grundy::run_to_string("LANGUAGE.md", &source) {
                panic!("`{line}` fails:\n{e}");
            }
            if line.starts_with("let ") {
                context.push_str(line);
                context.push('\n');
            }
            ran += 1;
        }
    }
    assert!(ran >= 19, "only {ran} examples ran");
    for picture in ["dawson.png", "wythoff.png"] {
        assert!(
            folder.path().join(picture).exists(),
            "{picture} was not written"
        );
    }
}
