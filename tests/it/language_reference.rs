//! The language reference, `docs/LANGUAGE.md`, says what the code does: every example in it runs
//! (and so do the README's), every section a diagnostic names exists, and every built-in
//! function and error code is in it.
//!
//! Conventions of the code blocks (said at the top of the reference): a block runs in one REPL
//! session per document, in order, entry by entry as typed at the prompt (lines are fed until an
//! entry is complete). An entry whose text holds `fails: grundy::CODE` must fail with that code;
//! any other must succeed. Blocks marked `text` or `sh` are not run. The examples run in a
//! temporary folder holding the `heaps.txt` they read, where their pictures are written.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use grundy::game::Limits;
use grundy::repl::{Backend, Reply};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn reference() -> String {
    std::fs::read_to_string(root().join("docs/LANGUAGE.md")).expect("docs/LANGUAGE.md")
}

/// A fenced code block: its tag (what follows the opening fence) and its lines.
struct Block {
    tag: String,
    lines: Vec<String>,
}

fn code_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut current: Option<Block> = None;
    for line in text.lines() {
        if let Some(tag) = line.trim_start().strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => {
                    current = Some(Block {
                        tag: tag.trim().to_string(),
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(block) = current.as_mut() {
            block.lines.push(line.to_string());
        }
    }
    assert!(current.is_none(), "a code block is not closed");
    blocks
}

/// The error code an entry must fail with, if it says so.
fn expected_failure(entry: &str) -> Option<&str> {
    let (_, rest) = entry.split_once("fails: ")?;
    Some(
        rest.split_whitespace()
            .next()
            .expect("a code after `fails:`"),
    )
}

/// Runs the lines of one code block in `repl`, entry by entry; returns how many entries ran.
/// `:quit` must quit (the session goes on after it).
fn run_block(repl: &mut Backend, document: &str, lines: &[String]) -> usize {
    let mut ran = 0;
    let mut entry = String::new();
    for line in lines {
        entry.push_str(line);
        entry.push('\n');
        let answer = match repl.feed(line) {
            Reply::More => continue,
            Reply::Done(answer) => answer,
            Reply::Quit if entry.trim() == ":quit" => {
                entry.clear();
                ran += 1;
                continue;
            }
            Reply::Quit => panic!("{document}: `{line}` quits"),
        };
        match expected_failure(&entry) {
            Some(code) => assert!(
                answer.errors.contains(code),
                "{document}: `{}` should fail with {code}, and gave:\n{}",
                entry.trim(),
                answer.text()
            ),
            None => assert!(
                answer.errors.is_empty(),
                "{document}: `{}` fails:\n{}",
                entry.trim(),
                answer.errors
            ),
        }
        if !entry.trim().is_empty() {
            ran += 1;
        }
        entry.clear();
    }
    assert!(
        !repl.is_continuing(),
        "{document}: a block ends inside an entry: {entry}"
    );
    ran
}

/// Runs every runnable block of `text` in one session; returns how many entries ran.
fn run_examples(document: &str, text: &str) -> usize {
    let mut repl = Backend::new(Limits::default());
    let mut ran = 0;
    for block in code_blocks(text) {
        match block.tag.as_str() {
            "" | "grundy" => {}
            "text" | "sh" => continue,
            other => {
                panic!("{document}: a code block is tagged `{other}`: use none, `text` or `sh`")
            }
        }
        ran += run_block(&mut repl, document, &block.lines);
    }
    ran
}

/// The folder the examples run in, made once for every test of this file (the working folder
/// is the process's): it holds the `heaps.txt` they read and the repository's `examples/`, and
/// their pictures are written there.
fn example_folder() -> &'static Path {
    static FOLDER: OnceLock<tempfile::TempDir> = OnceLock::new();
    FOLDER
        .get_or_init(|| {
            let folder = tempfile::tempdir().unwrap();
            std::fs::write(folder.path().join("heaps.txt"), "3\n3 4 5\n").unwrap();
            std::fs::create_dir(folder.path().join("examples")).unwrap();
            for entry in std::fs::read_dir(root().join("examples")).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap();
                std::fs::copy(&path, folder.path().join("examples").join(name)).unwrap();
            }
            std::env::set_current_dir(folder.path()).unwrap();
            folder
        })
        .path()
}

#[test]
fn every_example_in_the_reference_and_the_readme_runs() {
    let folder = example_folder();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let reference = reference();
    let ran = run_examples("docs/LANGUAGE.md", &reference);
    assert!(ran >= 80, "only {ran} examples of the reference ran");
    assert!(run_examples("README.md", &readme) >= 3);
    for picture in ["dawson.png", "wythoff.png", "kayles.svg"] {
        assert!(folder.join(picture).exists(), "{picture} was not written");
    }
}

#[test]
fn the_help_is_the_reference_built_into_the_binary() {
    assert_eq!(grundy::repl::help::REFERENCE, reference());
}

/// The words that start a statement: the first `kw_` words of each `*_stmt` rule of the grammar
/// and of `game_decl`.
fn statement_words() -> Vec<String> {
    let grammar = std::fs::read_to_string(root().join("grammar/grundy.pest")).unwrap();
    let mut words = Vec::new();
    for line in grammar.lines() {
        let Some((rule, body)) = line.split_once('=') else {
            continue;
        };
        let rule = rule.trim();
        if !(rule.ends_with("_stmt") || rule == "game_decl") {
            continue;
        }
        let first = body
            .trim_start_matches([' ', '{'])
            .split('~')
            .next()
            .unwrap();
        for token in first.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if let Some(word) = token.strip_prefix("kw_") {
                words.push(word.to_string());
            }
        }
    }
    assert!(
        words.len() >= 15,
        "statement words of the grammar: {words:?}"
    );
    words
}

#[test]
fn every_statement_function_and_command_has_a_topic_with_an_example() {
    let topics = grundy::repl::help::topics();
    let mut wanted = statement_words();
    wanted.push("misere".to_string());
    wanted.extend(
        grundy::builtins::BUILTINS
            .iter()
            .map(|b| b.name.to_string()),
    );
    wanted.extend(
        grundy::repl::COMMANDS
            .iter()
            .map(|(c, _)| c.split(' ').next().unwrap().to_string()),
    );
    for name in wanted {
        assert!(
            topics
                .iter()
                .any(|t| t.names.contains(&name) && !t.examples.is_empty()),
            "`{name}` has no help topic with an example in docs/LANGUAGE.md (see its top)"
        );
    }
    for topic in topics {
        assert!(
            !topic.examples.is_empty(),
            "the help topic `{}` has no runnable example",
            topic.names[0]
        );
    }
}

#[test]
fn every_help_topic_example_runs_in_a_fresh_session() {
    example_folder();
    for topic in grundy::repl::help::topics() {
        let mut repl = Backend::new(Limits::default());
        let document = format!("the help topic `{}`", topic.names[0]);
        let ran: usize = topic
            .examples
            .iter()
            .map(|lines| run_block(&mut repl, &document, lines))
            .sum();
        assert!(ran > 0, "{document} ran no example");
    }
}

/// The headings of the reference, without their `#`s.
fn sections(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .collect()
}

fn rust_sources(folder: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn every_section_a_diagnostic_names_exists() {
    let sections = sections(&reference());
    let mut sources = Vec::new();
    rust_sources(&root().join("src"), &mut sources);
    let mut named = 0;
    for path in sources {
        // The help topics are drawn from the reference itself, and name their sections as read.
        if path.ends_with("src/repl/help.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("../shared"),
            "{} reads the shared folder",
            path.display()
        );
        for (i, _) in text.match_indices("LANGUAGE.md") {
            let rest = &text[i..];
            let Some(section) = rest
                .strip_prefix("LANGUAGE.md, section \\\"")
                .and_then(|s| s.split("\\\"").next())
            else {
                let line = rest.lines().next().unwrap_or_default();
                panic!(
                    "{} names LANGUAGE.md without a section: {line}",
                    path.display()
                );
            };
            assert!(
                text[..i].ends_with("docs/"),
                "{}: the reference is docs/LANGUAGE.md",
                path.display()
            );
            assert!(
                sections.iter().any(|s| s == section),
                "{} names the section \"{section}\", which docs/LANGUAGE.md does not have",
                path.display()
            );
            named += 1;
        }
    }
    assert!(named >= 2, "the diagnostics name the reference's sections");
}

#[test]
fn the_reference_lists_every_error_code() {
    let reference = reference();
    let error_rs = std::fs::read_to_string(root().join("src/error.rs")).unwrap();
    for code in error_rs
        .split("code(grundy::")
        .skip(1)
        .map(|rest| rest.split(')').next().unwrap())
    {
        // Never shown: an error in a game's rules is shown with its own code; a deferred case
        // runs again on the main thread.
        if code == "in_declaration" || code == "deferred" {
            continue;
        }
        assert!(
            reference.contains(&format!("`grundy::{code}`")),
            "docs/LANGUAGE.md does not list grundy::{code}"
        );
    }
}

#[test]
fn the_reference_lists_every_built_in_function() {
    let reference = reference();
    let section = reference
        .split_once("## Built-in functions")
        .and_then(|(_, rest)| rest.split_once("\n## "))
        .expect("the section \"Built-in functions\"")
        .0;
    let table: Vec<&str> = section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .flat_map(|line| line.split('|').nth(1))
        .flat_map(|cell| cell.split('`').skip(1).step_by(2))
        .map(|call| call.split('(').next().unwrap())
        .collect();
    for builtin in grundy::builtins::BUILTINS {
        assert!(
            table.contains(&builtin.name),
            "docs/LANGUAGE.md does not list `{}`",
            builtin.name
        );
    }
    for name in table {
        assert!(
            grundy::builtins::builtin(name).is_some(),
            "docs/LANGUAGE.md lists `{name}`, which is not a built-in function"
        );
    }
}
