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
use grundy::repl::help::{transcript, Exchange, SESSION_TAG};
use grundy::repl::{Backend, Reply, CONTINUATION, PROMPT};

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

/// Runs every runnable block of `text` in one session (of a transcript, the lines typed);
/// returns how many entries ran.
fn run_examples(document: &str, text: &str) -> usize {
    let mut repl = example_backend();
    let mut ran = 0;
    for block in code_blocks(text) {
        let lines = match block.tag.as_str() {
            "" | "grundy" => block.lines,
            SESSION_TAG => transcript(&block.lines)
                .into_iter()
                .flat_map(|e| e.typed)
                .collect(),
            "text" | "sh" => continue,
            other => panic!(
                "{document}: a code block is tagged `{other}`: use none, `{SESSION_TAG}`, \
                 `text` or `sh`"
            ),
        };
        ran += run_block(&mut repl, document, &lines);
    }
    ran
}

/// The folder the examples run in (their root, so that the process's working folder, shared by
/// every test, is left alone), made once for every test of this file: it holds the `heaps.txt` they read and the repository's `examples/`, and
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
            folder
        })
        .path()
}

#[test]
fn every_example_in_the_reference_the_tutorial_and_the_readme_runs() {
    let folder = example_folder();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let reference = reference();
    let ran = run_examples("docs/LANGUAGE.md", &reference);
    assert!(ran >= 80, "only {ran} examples of the reference ran");
    assert!(run_examples("README.md", &readme) >= 3);
    let tutorial = std::fs::read_to_string(root().join("docs/TUTORIAL.md")).unwrap();
    assert!(run_examples("docs/TUTORIAL.md", &tutorial) >= 10);
    for picture in ["dawson.png", "wythoff.png", "kayles.svg"] {
        assert!(folder.join(picture).exists(), "{picture} was not written");
    }
}

#[test]
fn the_help_is_the_reference_and_the_tutorial_built_into_the_binary() {
    for (path, text) in grundy::repl::help::DOCUMENTS {
        assert_eq!(text, std::fs::read_to_string(root().join(path)).unwrap());
    }
}

/// What a session prints for the entries of `exchanges`, typed one after the other, with the
/// answers as the prompt shows them (diagnostics after the answers).
fn replayed(repl: &mut Backend, document: &str, exchanges: &[Exchange]) -> Vec<Exchange> {
    let mut printed = Vec::new();
    for exchange in exchanges {
        let (last, earlier) = exchange.typed.split_last().expect("a line typed");
        for line in earlier {
            assert_eq!(
                repl.feed(line),
                Reply::More,
                "{document}: `{line}` is shown as unfinished, and is not"
            );
        }
        let text = match repl.feed(last) {
            Reply::Done(answer) => answer.text(),
            Reply::Quit => "(quit)\n".to_string(),
            Reply::More => panic!("{document}: the entry ending `{last}` is unfinished"),
        };
        printed.push(Exchange {
            typed: exchange.typed.clone(),
            printed: text,
        });
    }
    printed
}

/// A transcript as it is written in a `session` block.
fn session_text(exchanges: &[Exchange]) -> String {
    let mut text = String::new();
    for exchange in exchanges {
        for (i, line) in exchange.typed.iter().enumerate() {
            let prompt = if i == 0 { PROMPT } else { CONTINUATION };
            text.push_str(format!("{prompt}{line}").trim_end());
            text.push('\n');
        }
        text.push_str(&exchange.printed);
    }
    text
}

/// `text` with each `session` block replaced by what `block` gives for its exchanges.
fn with_sessions(text: &str, mut block: impl FnMut(&[Exchange]) -> String) -> String {
    let mut out = String::new();
    let mut session: Option<Vec<String>> = None;
    for line in text.lines() {
        let fence = line.trim_start().strip_prefix("```");
        match (session.as_mut(), fence) {
            (None, Some(tag)) if tag.trim() == SESSION_TAG => session = Some(Vec::new()),
            (Some(lines), Some(_)) => {
                out.push_str(&block(&transcript(lines)));
                session = None;
            }
            (Some(lines), None) => {
                lines.push(line.to_string());
                continue;
            }
            _ => {}
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The session blocks of the README and the tutorial are what grundy prints, entry by entry,
/// in one fresh session each. With `GRUNDY_UPDATE_SESSIONS=1` the documents are rewritten with
/// what it printed instead (read the diff before committing it).
#[test]
fn every_session_shown_is_what_grundy_prints() {
    let update = std::env::var_os("GRUNDY_UPDATE_SESSIONS").is_some_and(|v| v == "1");
    for document in ["README.md", "docs/TUTORIAL.md"] {
        let path = root().join(document);
        let text = std::fs::read_to_string(&path).unwrap();
        // A fresh folder for each document, as a fresh clone has: no file it writes is there.
        let folder = tempfile::tempdir().unwrap();
        let mut repl = Backend::new(Limits::default());
        repl.set_root(grundy::files::Root::folder(folder.path().to_path_buf()));
        let mut sessions = 0;
        let replayed_text = with_sessions(&text, |shown| {
            sessions += 1;
            session_text(&replayed(&mut repl, document, shown))
        });
        assert!(sessions > 0, "{document} shows no session");
        if update {
            std::fs::write(&path, &replayed_text).unwrap();
        } else if replayed_text != text {
            let shown = text.lines().zip(replayed_text.lines());
            let (line, (expected, printed)) = shown
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .unwrap_or((0, ("", "(the line counts differ)")));
            panic!(
                "{document}, line {}: the session shows\n{expected}\nand grundy printed\n\
                 {printed}\n(GRUNDY_UPDATE_SESSIONS=1 writes what it printed)",
                line + 1
            );
        }
    }
}

/// The README's session, run as a fresh clone runs it: the binary, given the lines typed as a
/// file in an empty folder with an empty home, prints exactly what the session shows, and
/// nothing on standard error.
#[test]
fn the_readme_session_is_what_the_binary_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut typed = String::new();
    let mut shown = String::new();
    with_sessions(&readme, |exchanges| {
        for exchange in exchanges {
            for line in &exchange.typed {
                typed.push_str(line);
                typed.push('\n');
            }
            shown.push_str(&exchange.printed);
        }
        String::new()
    });
    assert!(!typed.is_empty(), "the README shows no session");
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("session.game"), typed).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("session.game")
        .current_dir(folder.path())
        .env("HOME", folder.path())
        .env("XDG_DATA_HOME", folder.path())
        .env_remove("RAYON_NUM_THREADS")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.is_empty(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), shown);
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
        let mut repl = example_backend();
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

/// The width and height a PNG file's header gives.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 24,
        "not a PNG"
    );
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

/// Every one-liner the README names (`` `grundy -e '...'` ``) runs, in a folder shaped like the
/// repository's; a picture it writes that the README shows is the size of the one committed.
#[test]
fn every_one_liner_of_the_readme_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let one_liners: Vec<&str> = readme
        .split("`grundy -e '")
        .skip(1)
        .map(|rest| rest.split("'`").next().unwrap())
        .collect();
    assert!(one_liners.len() >= 2, "{one_liners:?}");
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("docs/img")).unwrap();
    for statements in one_liners {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["-e", statements])
            .current_dir(folder.path())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{statements}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let pictures = readme.split("](docs/img/").skip(1);
    for name in pictures.map(|rest| rest.split(')').next().unwrap()) {
        let made = std::fs::read(folder.path().join("docs/img").join(name))
            .unwrap_or_else(|_| panic!("no one-liner of the README makes docs/img/{name}"));
        let committed = std::fs::read(root().join("docs/img").join(name)).unwrap();
        assert_eq!(png_size(&made), png_size(&committed), "docs/img/{name}");
    }
}

#[test]
fn the_tutorial_is_a_help_topic_and_the_index_names_it() {
    let text = grundy::repl::help::help("tutorial").unwrap();
    assert!(
        text.starts_with("tutorial  (docs/TUTORIAL.md, section \"A first session with grundy\")"),
        "{text}"
    );
    assert!(text.contains("\n    grundy> game take134 on n"), "{text}");
    assert!(!text.contains("More examples"), "{text}");
    assert!(grundy::repl::help::index().contains("`:help tutorial`"));
}

/// A prompt whose files are those of [`example_folder`].
fn example_backend() -> Backend {
    let mut repl = Backend::new(Limits::default());
    repl.set_root(grundy::files::Root::folder(example_folder().to_path_buf()));
    repl
}
