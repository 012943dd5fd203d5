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
    let allowed = ["files.rs", "lib.rs", "game/cache_key.rs"];
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

/// The files of `src/game` that every feature module may use and that use none of them: the
/// shared vocabulary, positions, method descriptions, budgets, progress and the cache folder.
const GROUND_FLOOR: [&str; 7] = [
    "vocabulary",
    "position",
    "method",
    "budget",
    "progress",
    "cache_folder",
    "cache_key",
];

/// The modules of `game` that the code of `text` names as `super::NAME` or `crate::game::NAME`
/// (a doc comment may point to a feature module: that is a reference, not a use).
fn game_modules_named(text: &str) -> BTreeSet<String> {
    let code: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect();
    let text = code.join("\n");
    let mut named = BTreeSet::new();
    for prefix in ["super::", "crate::game::"] {
        for (i, _) in text.match_indices(prefix) {
            let name: String = text[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            let is_module = text[i + prefix.len() + name.len()..].starts_with("::");
            if !name.is_empty() && is_module {
                named.insert(name);
            }
        }
    }
    named
}

fn game_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/game")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_ground_floor_of_the_engine_uses_no_feature_module() {
    for file in GROUND_FLOOR {
        for name in game_modules_named(&game_file(&format!("{file}.rs"))) {
            assert!(
                GROUND_FLOOR.contains(&name.as_str()),
                "src/game/{file}.rs names the feature module `{name}`; the ground floor \
                 ({GROUND_FLOOR:?}) may name only itself"
            );
        }
    }
}

#[test]
fn the_game_trait_names_only_the_ground_floor() {
    let text = game_file("mod.rs");
    let start = text.find("pub trait Game").unwrap();
    let end = start + text[start..].find("\n}\n").unwrap();
    let trait_text = text[start..end].replace("[`", "").replace("`]", "");
    for line in trait_text
        .lines()
        .filter(|l| !l.trim_start().starts_with("///"))
    {
        for name in ["heap", "lines", "period", "loopy", "solver", "engine"] {
            assert!(
                !line.contains(&format!("{name}::")),
                "the Game trait names `{name}::` in `{}`; its types belong in vocabulary",
                line.trim()
            );
        }
    }
}

/// The misère searches and quotients of `src/game` (files, or a folder): they take the solvers
/// of their components through the narrow trait `sums::Solvers`, which the engine gives.
const MISERE_FAMILY: [&str; 4] = ["sums.rs", "misere.rs", "misere_loopy.rs", "quotient"];

/// The names that `game/mod.rs` re-exports from feature modules outside the misère family: a
/// `use super::{...}` of one of them is a use of that module.
const FEATURE_REEXPORTS: [&str; 4] = ["Engine", "Solver", "MoveList", "Wanted"];

/// Whether `code` has `word` as a whole identifier.
fn names_identifier(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(i, _)| {
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let before = code[..i].chars().next_back().is_none_or(|c| !ident(c));
        let after = code[i + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !ident(c));
        before && after
    })
}

#[test]
fn the_misere_searches_take_their_solvers_not_the_engine() {
    // `engine` owns the misère memos and asks them; if they named the engine (or a module that
    // does) back, the four would import each other in a circle again.
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/game");
    let family: Vec<&str> = MISERE_FAMILY
        .iter()
        .map(|f| f.trim_end_matches(".rs"))
        .collect();
    for member in MISERE_FAMILY {
        let mut files = Vec::new();
        sources(&game.join(member), &mut files);
        assert!(!files.is_empty(), "src/game/{member} has no source");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let shown = file.strip_prefix(&game).unwrap().display().to_string();
            // In a folder's files other than its mod.rs, `super::NAME` is a file of the folder
            // and `super::super::NAME` a module of the engine.
            let nested = shown.contains('/') && !shown.ends_with("mod.rs");
            let read = match nested {
                true => text
                    .replace("super::", "sibling::")
                    .replace("sibling::sibling::", "super::"),
                false => text.clone(),
            };
            for name in game_modules_named(&read) {
                assert!(
                    family.contains(&name.as_str()) || GROUND_FLOOR.contains(&name.as_str()),
                    "src/game/{shown} names `{name}`; the misère searches ({MISERE_FAMILY:?}) \
                     may name only each other and the ground floor ({GROUND_FLOOR:?})"
                );
            }
            let code: Vec<&str> = text
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect();
            let code = code.join("\n");
            for name in FEATURE_REEXPORTS {
                assert!(
                    !names_identifier(&code, name),
                    "src/game/{shown} names `{name}`; the misère searches take the solvers \
                     they need (`sums::Solvers`), not the engine"
                );
            }
        }
    }
}

/// The modules of `src/game` (files and folders, with the files of a folder read as one) and,
/// for each, the modules of `game` its code uses: named as `super::NAME::` (as many `super::` as
/// the file lies deep) or `crate::game::NAME::`, listed in a `use super::{...}`, or reached through
/// a name that `game/mod.rs` re-exports (`pub use engine::Engine;` is a use of `engine`). What
/// `game/mod.rs` defines itself (the `Game` trait, `Limits`, `SolveError`) is no module.
fn game_module_graph() -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/game");
    let root = game_file("mod.rs");
    let mut modules = BTreeSet::new();
    let mut reexports = std::collections::BTreeMap::new();
    for line in root.lines() {
        let line = line.trim();
        let declared = ["pub mod ", "pub(crate) mod ", "mod "]
            .iter()
            .find_map(|prefix| line.strip_prefix(prefix));
        if let Some(name) = declared.and_then(|rest| rest.strip_suffix(';')) {
            modules.insert(name.to_string());
        }
        if let Some((module, names)) = line
            .strip_prefix("pub use ")
            .and_then(|rest| rest.strip_suffix(';'))
            .and_then(|rest| rest.split_once("::"))
        {
            for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
                reexports.insert(name.trim().to_string(), module.to_string());
            }
        }
    }
    assert!(modules.contains("engine") && reexports.contains_key("Engine"));
    let mut graph = std::collections::BTreeMap::new();
    for module in &modules {
        let mut files = Vec::new();
        for path in [game.join(format!("{module}.rs")), game.join(module)] {
            if path.exists() {
                sources(&path, &mut files);
            }
        }
        assert!(!files.is_empty(), "src/game/{module} has no source");
        let mut used = BTreeSet::new();
        for file in files {
            let relative = file.strip_prefix(&game).unwrap();
            let mut depth = relative.components().count();
            if file.file_name().is_some_and(|n| n == "mod.rs") {
                depth -= 1;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let code: Vec<&str> = text
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect();
            let code = code.join("\n");
            let up = "super::".repeat(depth);
            let mut starts = Vec::new();
            for prefix in [up.as_str(), "crate::game::"] {
                for (i, _) in code.match_indices(prefix) {
                    let longer = code[..i].ends_with("super::")
                        || code[i + prefix.len()..].starts_with("super::");
                    if !(prefix == up && longer) {
                        starts.push(i + prefix.len());
                    }
                }
            }
            for start in starts {
                let rest = &code[start..];
                // One name, or the names of a `{...}` list (the first of each of its items).
                let items: Vec<&str> = match rest.strip_prefix('{') {
                    Some(list) => {
                        let mut depth = 0;
                        let end = list
                            .char_indices()
                            .find(|&(_, c)| {
                                depth += match c {
                                    '{' => 1,
                                    '}' => -1,
                                    _ => 0,
                                };
                                depth < 0
                            })
                            .map_or(list.len(), |(i, _)| i);
                        let mut items = Vec::new();
                        let mut level = 0;
                        let mut from = 0;
                        for (i, c) in list[..end].char_indices() {
                            match c {
                                '{' => level += 1,
                                '}' => level -= 1,
                                ',' if level == 0 => {
                                    items.push(&list[from..i]);
                                    from = i + 1;
                                }
                                _ => {}
                            }
                        }
                        items.push(&list[from..end]);
                        items
                    }
                    None => vec![rest],
                };
                for item in items {
                    let item = item.trim_start();
                    let name: String = item
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if modules.contains(&name) {
                        used.insert(name);
                    } else if let Some(module) = reexports.get(&name) {
                        used.insert(module.clone());
                    }
                }
            }
        }
        used.remove(module);
        graph.insert(module.clone(), used);
    }
    graph
}

/// A chain of uses from `from` to `to` in `graph`, if there is one.
fn chain_of_uses(
    graph: &std::collections::BTreeMap<String, BTreeSet<String>>,
    from: &str,
    to: &str,
) -> Option<Vec<String>> {
    let mut came_from = std::collections::BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from.to_string()]);
    came_from.insert(from.to_string(), String::new());
    while let Some(module) = queue.pop_front() {
        if module == to {
            let mut chain = vec![module];
            while let Some(before) = came_from
                .get(chain.last().unwrap())
                .filter(|b| !b.is_empty())
            {
                chain.push(before.clone());
            }
            chain.reverse();
            return Some(chain);
        }
        for next in graph.get(&module).into_iter().flatten() {
            if !came_from.contains_key(next) {
                came_from.insert(next.clone(), module.clone());
                queue.push_back(next.clone());
            }
        }
    }
    None
}

#[test]
fn the_engine_is_used_by_none_of_the_modules_it_uses() {
    // The engine lends the period pipeline one game at a time (`period_pipeline::HeapGame`) and
    // gives the shared memos its solvers (`shared_memos::Sweep`), as it lends the misère
    // searches `sums::Solvers`: none of them names `Engine` back, so no circle goes through it.
    let graph = game_module_graph();
    let uses = &graph["engine"];
    for module in [
        "period_pipeline",
        "shared_memos",
        "misere",
        "sums",
        "solver",
    ] {
        assert!(uses.contains(module), "engine no longer uses {module}");
    }
    for module in uses {
        if let Some(chain) = chain_of_uses(&graph, module, "engine") {
            panic!(
                "src/game/engine.rs uses `{module}`, which uses the engine back: {}",
                chain.join(" -> ")
            );
        }
    }
}

#[test]
fn only_the_engine_reads_its_fields() {
    // The question families of the engine (`moves.rs`, `equal_games.rs`) add methods to
    // `Engine`, and reach it through its methods only: its fields are private to engine.rs.
    let text = game_file("engine.rs");
    let start = text.find("pub struct Engine {").unwrap();
    let end = start + text[start..].find("\n}\n").unwrap();
    for line in text[start..end].lines().skip(1) {
        let line = line.trim();
        assert!(
            !line.starts_with("pub("),
            "an engine field is open to the other modules of the engine: `{line}`"
        );
    }
}

#[test]
fn every_call_of_a_built_in_is_matched_without_a_catch_all() {
    // A new `Function` must get its own arm: the compiler says so only if no `_ =>` catches it.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/builtin_calls.rs");
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("pub fn call").unwrap();
    let end = start + text[start..].find("\n}\n").unwrap();
    assert!(
        !text[start..end].contains("_ =>"),
        "`call` in src/eval/builtin_calls.rs has a catch-all arm"
    );
}

#[test]
fn no_two_modules_share_a_name() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut seen: std::collections::BTreeMap<String, PathBuf> = Default::default();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        // A folder's mod.rs is the module of the folder's name; unit tests and binaries are
        // named by their parent.
        let name = match stem.as_str() {
            "tests" | "main" | "lib" => continue,
            "mod" => file
                .parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string(),
            _ => stem,
        };
        if let Some(other) = seen.insert(name.clone(), file.clone()) {
            panic!(
                "{} and {} are both modules named `{name}`",
                other.display(),
                file.display()
            );
        }
    }
}

/// Every `unsafe` line and every `target_feature` of the heap wing is in `src/game/heap/kernels/`,
/// where each kernel is a method of a token that only CPU detection makes; the strategies above
/// ask nothing of the processor.
#[test]
fn the_heap_wing_keeps_its_unsafe_code_and_target_features_in_its_kernels() {
    let heap = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/game/heap");
    let kernels = heap.join("kernels");
    let mut files = Vec::new();
    sources(&heap, &mut files);
    let outside: Vec<&PathBuf> = files.iter().filter(|f| !f.starts_with(&kernels)).collect();
    assert!(outside.len() > 5, "{outside:?}");
    for file in outside {
        let text = std::fs::read_to_string(file).unwrap();
        for word in ["unsafe", "target_feature", "is_x86_feature_detected"] {
            assert!(
                !text.contains(word),
                "{} says `{word}`: it belongs in src/game/heap/kernels/",
                file.display()
            );
        }
    }
    // And every `unsafe fn` of the kernels says why it is unsafe.
    let mut files = Vec::new();
    sources(&kernels, &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !line.contains("unsafe fn ") {
                continue;
            }
            let docs = lines[..i].iter().rev().take_while(|l| {
                l.trim_start().starts_with("///") || l.trim_start().starts_with("#[")
            });
            assert!(
                docs.into_iter().any(|l| l.trim() == "/// # Safety"),
                "{}:{}: an `unsafe fn` with no `# Safety` section",
                file.display(),
                i + 1
            );
        }
    }
}
