//! Help topics at the prompt (`:help`, `:help TOPIC`), drawn from the language reference,
//! `docs/LANGUAGE.md`, and the tutorial, `docs/TUTORIAL.md`, which are built into the binary:
//! the documents are the one source of this text. The format is written at the top of the
//! reference: a line `<!-- help: NAME... -->` starts a topic that runs to the next heading, the
//! next such line or `<!-- /help -->`; a built-in function's topic is its row of the table in
//! "Built-in functions" with the example lines that call it, and a command's topic its row of
//! the table in "The prompt" with the example lines that start with it. A code block tagged
//! `session` is a transcript: lines after the prompt are typed, the others are what grundy
//! printed ([`transcript`]).

use std::sync::OnceLock;

use super::{COMMANDS, CONTINUATION, PROMPT};
use crate::builtins::BUILTINS;

/// The language reference, as it was when the binary was built.
pub const REFERENCE: &str = include_str!("../../docs/LANGUAGE.md");
/// The tutorial, as it was when the binary was built.
pub const TUTORIAL: &str = include_str!("../../docs/TUTORIAL.md");

/// The documents the topics are drawn from: each one's path in the repository, and its text.
pub const DOCUMENTS: [(&str, &str); 2] = [
    ("docs/LANGUAGE.md", REFERENCE),
    ("docs/TUTORIAL.md", TUTORIAL),
];

const MARKER: &str = "<!-- help:";
const END_MARKER: &str = "<!-- /help -->";
const FUNCTIONS_SECTION: &str = "Built-in functions";
const COMMANDS_SECTION: &str = "The prompt";
/// The tag of a code block that is a transcript of a session.
pub const SESSION_TAG: &str = "session";

/// What a topic describes, which is how the index groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopicKind {
    /// A statement or a part of the language (`period`, `misere`, `rules`).
    Language,
    /// A built-in function (`len`, `grundy`).
    Function,
    /// A `:` command (`:limit`).
    Command,
}

/// One help topic: a part of the reference and the examples in it.
#[derive(Clone, Debug)]
pub struct Topic {
    /// The names it is found by.
    pub names: Vec<String>,
    pub kind: TopicKind,
    /// The document it comes from (`docs/LANGUAGE.md`).
    pub document: &'static str,
    /// The heading of the section of the document it comes from.
    pub section: String,
    /// Its text, in the Markdown of the reference.
    pub markdown: Vec<String>,
    /// Its runnable examples: code blocks, as lines, each line part of an entry at the prompt.
    pub examples: Vec<Vec<String>>,
}

/// A line of the reference, as the topics read it.
enum Part<'a> {
    Heading,
    Marker(Vec<String>),
    EndMarker,
    Text(&'a str),
    Code { tag: &'a str, lines: Vec<&'a str> },
}

fn parts(reference: &str) -> Vec<(&str, Part<'_>)> {
    let mut parts = Vec::new();
    let mut section = "";
    let mut code: Option<(&str, Vec<&str>)> = None;
    for line in reference.lines() {
        let trimmed = line.trim();
        if let Some(tag) = trimmed.strip_prefix("```") {
            match code.take() {
                Some((tag, lines)) => parts.push((section, Part::Code { tag, lines })),
                None => code = Some((tag.trim(), Vec::new())),
            }
        } else if let Some((_, lines)) = code.as_mut() {
            lines.push(line);
        } else if line.starts_with('#') {
            section = line.trim_start_matches('#').trim();
            parts.push((section, Part::Heading));
        } else if let Some(names) = trimmed.strip_prefix(MARKER) {
            let names = names.trim_end_matches("-->").split_whitespace();
            parts.push((section, Part::Marker(names.map(String::from).collect())));
        } else if trimmed == END_MARKER {
            parts.push((section, Part::EndMarker));
        } else {
            parts.push((section, Part::Text(line)));
        }
    }
    parts
}

fn runnable(tag: &str) -> bool {
    tag.is_empty() || tag == "grundy"
}

/// One entry of a transcript: the lines typed (without their prompts) and what grundy printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    pub typed: Vec<String>,
    pub printed: String,
}

/// The entries of a `session` block: a line that starts with the prompt starts an entry, one
/// that starts with the continuation prompt continues it, and every other line is printed.
pub fn transcript(lines: &[impl AsRef<str>]) -> Vec<Exchange> {
    let mut exchanges: Vec<Exchange> = Vec::new();
    for line in lines.iter().map(AsRef::as_ref) {
        if let Some(typed) = line.strip_prefix(PROMPT.trim_end()) {
            exchanges.push(Exchange {
                typed: vec![typed.strip_prefix(' ').unwrap_or(typed).to_string()],
                printed: String::new(),
            });
            continue;
        }
        let Some(exchange) = exchanges.last_mut() else {
            continue;
        };
        match line.strip_prefix(CONTINUATION.trim_end()) {
            Some(typed) if exchange.printed.is_empty() => exchange
                .typed
                .push(typed.strip_prefix(' ').unwrap_or(typed).to_string()),
            _ => {
                exchange.printed.push_str(line);
                exchange.printed.push('\n');
            }
        }
    }
    exchanges
}

/// The lines a code block runs at the prompt: all of a runnable block, the typed lines of a
/// transcript, none of another block.
fn example_lines(tag: &str, lines: &[&str]) -> Option<Vec<String>> {
    if runnable(tag) {
        Some(lines.iter().map(|l| l.to_string()).collect())
    } else if tag == SESSION_TAG {
        Some(
            transcript(lines)
                .into_iter()
                .flat_map(|e| e.typed)
                .collect(),
        )
    } else {
        None
    }
}

/// Every topic of `reference`, in its order: the marked ones, then the built-in functions, then
/// the commands.
pub fn topics_of(reference: &str) -> Vec<Topic> {
    let parts = parts(reference);
    let mut topics = marked_topics(DOCUMENTS[0].0, &parts);
    let names: Vec<Vec<String>> = BUILTINS.iter().map(|b| vec![b.name.to_string()]).collect();
    topics.extend(table_topics(
        &parts,
        FUNCTIONS_SECTION,
        TopicKind::Function,
        &names,
    ));
    let commands = command_names(&parts);
    topics.extend(table_topics(
        &parts,
        COMMANDS_SECTION,
        TopicKind::Command,
        &commands,
    ));
    topics.retain(|t| !t.markdown.iter().all(|l| l.trim().is_empty()));
    topics
}

/// The topics marked in `document`, whose text is `parts`, in their order.
fn marked_topics(document: &'static str, parts: &[(&str, Part<'_>)]) -> Vec<Topic> {
    let mut topics: Vec<Topic> = Vec::new();
    let mut open = false;
    for (section, part) in parts {
        match part {
            Part::Marker(names) => {
                topics.push(Topic {
                    names: names.clone(),
                    kind: TopicKind::Language,
                    document,
                    section: section.to_string(),
                    markdown: Vec::new(),
                    examples: Vec::new(),
                });
                open = true;
            }
            Part::Heading | Part::EndMarker => open = false,
            Part::Text(line) if open => topics.last_mut().unwrap().markdown.push(line.to_string()),
            Part::Code { tag, lines } if open => {
                let topic = topics.last_mut().unwrap();
                topic.markdown.push(format!("```{tag}"));
                topic.markdown.extend(lines.iter().map(|l| l.to_string()));
                topic.markdown.push("```".to_string());
                topic.examples.extend(example_lines(tag, lines));
            }
            _ => {}
        }
    }
    topics
}

/// The words in backquotes in the first cell of a row of a table: `` `:limit N` `` gives
/// `:limit`, `` `min(a, b)` `` gives `min`.
fn row_words(row: &str) -> Vec<&str> {
    let cell = row.split('|').nth(1).unwrap_or("");
    let mut words: Vec<&str> = cell
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|code| code.split(['(', ' ']).next())
        .collect();
    words.dedup();
    words
}

/// The commands of the table in the commands section, each with its other spellings.
fn command_names(parts: &[(&str, Part<'_>)]) -> Vec<Vec<String>> {
    parts
        .iter()
        .filter(|(section, _)| *section == COMMANDS_SECTION)
        .filter_map(|(_, part)| match part {
            Part::Text(line) if line.starts_with("| `:") => {
                Some(row_words(line).into_iter().map(String::from).collect())
            }
            _ => None,
        })
        .collect()
}

/// Whether `line` uses `word` (a built-in called, or a command at its start).
fn uses(line: &str, word: &str) -> bool {
    if word.starts_with(':') {
        let first = line.split_whitespace().next().unwrap_or("");
        return first == word;
    }
    line.match_indices(&format!("{word}(")).any(|(i, _)| {
        !line[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The topics of the rows of the table in `section`: for each list of names, the header, the
/// rows that name the first of them and the example lines of the section that use it.
fn table_topics(
    parts: &[(&str, Part<'_>)],
    section: &str,
    kind: TopicKind,
    names: &[Vec<String>],
) -> Vec<Topic> {
    let in_section = || parts.iter().filter(move |(s, _)| *s == section);
    let table: Vec<&str> = in_section()
        .filter_map(|(_, part)| match part {
            Part::Text(line) if line.starts_with('|') => Some(*line),
            _ => None,
        })
        .collect();
    let header: Vec<&str> = table
        .iter()
        .copied()
        .take_while(|l| !l.starts_with("| `"))
        .collect();
    let examples: Vec<&str> = in_section()
        .filter_map(|(_, part)| match part {
            Part::Code { tag, lines } if runnable(tag) => Some(lines),
            _ => None,
        })
        .flatten()
        .copied()
        .collect();
    names
        .iter()
        .map(|names| {
            let name = names[0].as_str();
            let rows = table
                .iter()
                .filter(|row| row.starts_with("| `") && row_words(row).contains(&name));
            let example: Vec<String> = examples
                .iter()
                .filter(|line| uses(line, name))
                .map(|l| l.to_string())
                .collect();
            let mut markdown: Vec<String> = Vec::new();
            if rows.clone().next().is_some() {
                markdown.extend(header.iter().map(|l| l.to_string()));
                markdown.extend(rows.map(|l| l.to_string()));
            }
            if !example.is_empty() {
                markdown.push(String::new());
                markdown.push("```".to_string());
                markdown.extend(example.iter().cloned());
                markdown.push("```".to_string());
            }
            Topic {
                names: names.clone(),
                kind,
                document: DOCUMENTS[0].0,
                section: section.to_string(),
                markdown,
                examples: if example.is_empty() {
                    Vec::new()
                } else {
                    vec![example]
                },
            }
        })
        .collect()
}

/// Every topic of the documents built into the binary: the reference's, then the tutorial's.
pub fn topics() -> &'static [Topic] {
    static TOPICS: OnceLock<Vec<Topic>> = OnceLock::new();
    TOPICS.get_or_init(|| {
        let mut topics = topics_of(REFERENCE);
        let (tutorial, text) = DOCUMENTS[1];
        topics.extend(marked_topics(tutorial, &parts(text)));
        topics
    })
}

/// `:help`: how to start, and the topics by kind.
pub fn index() -> String {
    let mut text = String::from(
        "New here? `:help tutorial` walks through a first session.\n\n\
         Type statements; an entry that is not finished (an open brace, a trailing operator)\n\
         continues on the next line, and a blank line abandons it. Ctrl-C cancels a computation\n\
         or the current entry. Tab completes names.\n\n\
         Topics (`:help TOPIC`, e.g. `:help period`, `:help len`, `:help :limit`):\n",
    );
    let groups = [
        (TopicKind::Language, "the language"),
        (TopicKind::Function, "functions"),
    ];
    for (kind, title) in groups {
        let mut names: Vec<&str> = Vec::new();
        for name in topics()
            .iter()
            .filter(|t| t.kind == kind)
            .flat_map(|t| &t.names)
        {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        text.push_str(&wrap(&format!("{title}:"), &names, 90));
    }
    text.push_str("\nCommands (any unambiguous prefix will do):\n");
    let width = COMMANDS.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    for (command, what) in COMMANDS {
        text.push_str(&format!("  {command:<width$}  {what}\n"));
    }
    text
}

/// `label` and then `words`, wrapped to `width` columns under a hanging indent.
fn wrap(label: &str, words: &[&str], width: usize) -> String {
    let indent = 16;
    let mut text = format!("  {label:<w$}", w = indent - 2);
    let mut column = indent;
    for (i, word) in words.iter().enumerate() {
        let separator = if i + 1 < words.len() { "," } else { "" };
        if column > indent && column + word.len() + 2 > width {
            text.push('\n');
            text.push_str(&" ".repeat(indent));
            column = indent;
        } else if column > indent {
            text.push(' ');
            column += 1;
        }
        text.push_str(word);
        text.push_str(separator);
        column += word.len() + separator.len();
    }
    text.push('\n');
    text
}

/// `:help TOPIC`: every topic found by that name, or what the nearest names are.
pub fn help(name: &str) -> Result<String, String> {
    let found = |name: &str| -> Vec<&Topic> {
        topics()
            .iter()
            .filter(|t| t.names.iter().any(|n| n == name))
            .collect()
    };
    let mut matching = found(name);
    if matching.is_empty() && !name.starts_with(':') {
        matching = found(&format!(":{name}"));
    }
    if matching.is_empty() {
        return Err(unknown_topic(name));
    }
    let mut text = String::new();
    for topic in matching {
        if !text.is_empty() {
            text.push('\n');
        }
        let what = match topic.kind {
            TopicKind::Function => format!("{}(...)", topic.names[0]),
            _ => topic.names.join(", "),
        };
        text.push_str(&format!(
            "{what}  ({}, section \"{}\")\n\n",
            topic.document, topic.section
        ));
        text.push_str(&render(&topic.markdown));
    }
    Ok(text)
}

fn unknown_topic(name: &str) -> String {
    let bare = name.trim_start_matches(':');
    let mut nearest: Vec<(usize, &str)> = topics()
        .iter()
        .flat_map(|t| t.names.iter())
        .map(|n| {
            (
                strsim::levenshtein(bare, n.trim_start_matches(':')),
                n.as_str(),
            )
        })
        .collect();
    nearest.sort();
    nearest.dedup();
    let hint = match nearest.first() {
        Some(&(distance, _)) if distance <= 2.max(bare.len() / 3) => {
            let close: Vec<String> = nearest
                .iter()
                .take_while(|(d, _)| *d == distance)
                .map(|(_, n)| format!("`:help {n}`"))
                .collect();
            format!("did you mean {}? ", close.join(" or "))
        }
        _ => String::new(),
    };
    format!("no help topic `{name}`: {hint}`:help` lists the topics\n")
}

/// Markdown as plain text for a terminal: code blocks indented, tables aligned, links as their
/// text, blank lines at most one in a row.
fn render(markdown: &[String]) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut code = false;
    let mut table: Vec<Vec<String>> = Vec::new();
    for line in markdown {
        if line.trim_start().starts_with("```") {
            code = !code;
            continue;
        }
        if code {
            lines.push(format!("    {line}"));
            continue;
        }
        if line.starts_with('|') {
            if !line.starts_with("|-") && !line.starts_with("|:") {
                table.push(cells(line));
            }
            continue;
        }
        lines.extend(aligned(&std::mem::take(&mut table)));
        lines.push(plain(line));
    }
    lines.extend(aligned(&table));
    let mut text = String::new();
    let mut blank = true;
    for line in lines {
        let is_blank = line.trim().is_empty();
        if !(is_blank && blank) {
            text.push_str(line.trim_end());
            text.push('\n');
        }
        blank = is_blank;
    }
    while text.ends_with("\n\n") {
        text.pop();
    }
    text
}

fn cells(row: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = row.trim().trim_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => cell.push(chars.next().unwrap()),
            '|' => cells.push(plain(std::mem::take(&mut cell).trim())),
            _ => cell.push(c),
        }
    }
    cells.push(plain(cell.trim()));
    cells
}

fn aligned(table: &[Vec<String>]) -> Vec<String> {
    let columns = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            let width = |row: &Vec<String>| row.get(i).map_or(0, |c| c.chars().count());
            table.iter().map(width).max().unwrap_or(0)
        })
        .collect();
    table
        .iter()
        .map(|row| {
            let padded: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, &width)| format!("{cell:<width$}"))
                .collect();
            format!("  {}", padded.join("   "))
        })
        .collect()
}

/// A line of text with its links written as their text: `[limits](#limits)` is `limits`.
fn plain(line: &str) -> String {
    let mut text = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let link = after.find("](").and_then(|close| {
            after[close + 2..]
                .find(')')
                .map(|end| (close, close + 3 + end))
        });
        match link {
            Some((close, end)) if !after[..close].contains(['[', ']']) => {
                text.push_str(&rest[..open]);
                text.push_str(&after[..close]);
                rest = &after[end..];
            }
            _ => {
                text.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    text.push_str(rest);
    text.replace("\\|", "|")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "# Page\n\n<!-- help: alpha a -->\nAlpha [text](#x).\n\n```\nalpha 1\n```\n\
        <!-- /help -->\nNot alpha.\n<!-- help: beta -->\nBeta.\n```text\nbeta FORM\n```\n\
        ## Next\nNot beta.\n";

    #[test]
    fn a_marked_topic_runs_to_its_end_marker_or_the_next_heading() {
        let topics = topics_of(PAGE);
        let alpha = topics.iter().find(|t| t.names == ["alpha", "a"]).unwrap();
        assert_eq!(alpha.section, "Page");
        assert_eq!(alpha.examples, [vec!["alpha 1".to_string()]]);
        assert_eq!(render(&alpha.markdown), "Alpha text.\n\n    alpha 1\n");
        let beta = topics.iter().find(|t| t.names == ["beta"]).unwrap();
        assert!(beta.examples.is_empty(), "a `text` block is not an example");
        assert_eq!(render(&beta.markdown), "Beta.\n    beta FORM\n");
    }

    #[test]
    fn a_session_block_is_typed_lines_and_what_was_printed() {
        let block = [
            "grundy> game g on n {",
            "   ...>   for k in 1..=n { n -= k }",
            "   ...> }",
            "grundy> grundy g[3]",
            "3",
            "   ...> not typed: printed after an answer",
        ];
        let exchanges = transcript(&block);
        assert_eq!(exchanges.len(), 2);
        assert_eq!(
            exchanges[0].typed,
            ["game g on n {", "  for k in 1..=n { n -= k }", "}"]
        );
        assert_eq!(exchanges[0].printed, "");
        assert_eq!(exchanges[1].typed, ["grundy g[3]"]);
        assert_eq!(
            exchanges[1].printed,
            "3\n   ...> not typed: printed after an answer\n"
        );
        let page = format!(
            "# P\n<!-- help: s -->\n```session\n{}\n```\n",
            block.join("\n")
        );
        let topics = topics_of(&page);
        let topic = topics.iter().find(|t| t.names == ["s"]).unwrap();
        assert_eq!(topic.examples.len(), 1);
        assert_eq!(topic.examples[0].len(), 4, "the typed lines only");
    }

    #[test]
    fn tables_are_aligned_and_escaped_bars_kept() {
        let rows = ["| a | bb |", "|---|---|", "| `x \\| y` | z |"].map(String::from);
        assert_eq!(render(&rows), "  a         bb\n  `x | y`   z\n");
    }
}
