//! The common slips, recognised where pest stops: a misspelled statement word (`sequnce kayles
//! 0..=10`), `=` for `==`, a game form where a game is expected (`period octal 0.6`), braces for
//! a position's brackets (`nim{3}`) and IPython's `?period`. A correction is named only when
//! the corrected text parses past the point where the parse stopped, so a guess that would not
//! help is never offered.

use pest::Parser;

use super::parse::{GrundyParser, Rule};
use super::pest_error::error_pos;
use crate::error::Error;
use crate::span::Span;

/// The words a statement starts with: the first `kw_` rule of each statement of the grammar.
pub(crate) const STATEMENT_WORDS: &[&str] = &[
    "let", "game", "grundy", "outcome", "moves", "win", "sequence", "table", "ppos", "genus",
    "quotient", "check", "period", "compare", "survey", "dot", "plot", "assert", "print",
];

/// The words of the game forms that follow `game NAME =`.
const FORM_WORDS: &[&str] = &["octal", "hex", "subtraction", "graph"];

/// The diagnostic of a slip that makes the parse of `source` stop at `pos`, if it is one.
pub(super) fn slip(source: &str, pos: usize) -> Option<Error> {
    misspelled_word(source, pos)
        .or_else(|| single_equals(source, pos))
        .or_else(|| game_form(source, pos))
        .or_else(|| braced_position(source, pos))
        .or_else(|| question_mark(source, pos))
}

/// `sequnce kayles 0..=10`: a word near a statement word starts the statement.
fn misspelled_word(source: &str, pos: usize) -> Option<Error> {
    let (start, end) = word_before(source, pos)?;
    let before = source[..start].trim_end_matches([' ', '\t']);
    if !(before.is_empty() || before.ends_with(['\n', ';'])) {
        return None;
    }
    let word = &source[start..end];
    let most = if word.len() <= 5 { 1 } else { 2 };
    let mut near: Vec<(usize, &str)> = STATEMENT_WORDS
        .iter()
        .map(|w| (strsim::damerau_levenshtein(word, w), *w))
        .filter(|&(d, _)| d > 0 && d <= most)
        .collect();
    near.sort();
    let (_, meant) = near
        .into_iter()
        .find(|(_, w)| gets_past(source, (start, end), w, pos))?;
    Some(Error::syntax_with_help(
        format!("`{word}` is not a statement word"),
        format!("did you mean `{meant}`?"),
        Span::new(start, end),
        format!(
            "`{meant}` starts a statement: `:help {meant}` at the prompt, or docs/LANGUAGE.md, section \"Statements\""
        ),
    ))
}

/// `check grundy(nim[n]) = n for ...`: `=` where `==` compares.
fn single_equals(source: &str, pos: usize) -> Option<Error> {
    let rest = &source[pos..];
    let lone = rest.starts_with('=') && !rest[1..].starts_with(['=', '<', '>', '!']);
    if !lone || !gets_past(source, (pos, pos + 1), "==", pos) {
        return None;
    }
    Some(Error::syntax_with_help(
        "`=` does not compare",
        "to compare, write `==`",
        Span::new(pos, pos + 1),
        "`==` compares two values; `=` gives a name its value (`let x = 3`, `game g = octal 0.6`) or updates a state in a rule",
    ))
}

/// `period octal 0.6`: a game form where a game is expected, rather than after `game g =`.
fn game_form(source: &str, pos: usize) -> Option<Error> {
    let line_start = source[..pos].rfind(['\n', ';']).map_or(0, |i| i + 1);
    let (start, word) = FORM_WORDS
        .iter()
        .flat_map(|w| whole_words(source, line_start, pos, w))
        .max()?;
    if source[..start].trim_end().ends_with('=') {
        return None;
    }
    let code_start = start + word.len() + leading_blanks(&source[start + word.len()..]);
    let rest = &source[code_start..];
    let code_len = match word {
        "octal" | "hex" => GrundyParser::parse(Rule::octal_code, rest)
            .ok()?
            .as_str()
            .len(),
        "subtraction" => GrundyParser::parse(Rule::expr, rest)
            .ok()?
            .as_str()
            .trim_end()
            .len(),
        _ => closing_brace(rest)? + 1,
    };
    let end = code_start + code_len;
    if !source[end.min(pos)..pos].trim().is_empty() || !gets_past(source, (start, end), "g", pos) {
        return None;
    }
    let form = &source[start..end];
    let declared = if form.contains('\n') {
        format!("{word} {{ ... }}")
    } else {
        form.to_string()
    };
    Some(Error::syntax_with_help(
        "a game form cannot stand where a game is expected",
        format!("`{declared}` is a game form"),
        Span::new(start, end),
        format!("declare the game first, then use its name: `game g = {declared}`"),
    ))
}

/// `nim{3}`: braces where a position's heaps go in square brackets.
fn braced_position(source: &str, pos: usize) -> Option<Error> {
    let (start, end) = word_before(source, pos)?;
    let rest = &source[pos..];
    if end != pos || !rest.starts_with('{') {
        return None;
    }
    let close = pos + closing_brace(rest)?;
    let inner = &source[pos + 1..close];
    if inner.contains('\n') || !gets_past(source, (pos, close + 1), &format!("[{inner}]"), pos) {
        return None;
    }
    Some(Error::syntax_with_help(
        "a position's heaps or counters go in square brackets",
        "braces here",
        Span::new(pos, close + 1),
        format!(
            "write `{}[{inner}]`; braces make a set",
            &source[start..end]
        ),
    ))
}

/// `?period` or `period?`, as IPython asks for help.
fn question_mark(source: &str, pos: usize) -> Option<Error> {
    if !source[pos..].starts_with('?') {
        return None;
    }
    let after = &source[pos + 1..];
    let topic = match after
        .find(|c: char| !is_word_char(c))
        .unwrap_or(after.len())
    {
        0 => word_before(source, pos).map(|(start, end)| &source[start..end]),
        len => Some(&after[..len]),
    };
    let help = match topic {
        Some(topic) => {
            format!("help is a command of the prompt: `:help {topic}` shows that topic")
        }
        None => "help is a command of the prompt: `:help` lists the topics".to_string(),
    };
    Some(Error::syntax_with_help(
        "`?` is not part of the language",
        "unexpected `?`",
        Span::new(pos, pos + 1),
        help,
    ))
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The word that ends at `pos` or before the blanks before it, if there is one.
fn word_before(source: &str, pos: usize) -> Option<(usize, usize)> {
    let end = source[..pos].trim_end_matches([' ', '\t']).len();
    let start = source[..end]
        .rfind(|c: char| !is_word_char(c))
        .map_or(0, |i| i + 1);
    let word = &source[start..end];
    let starts_with_letter = word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    starts_with_letter.then_some((start, end))
}

/// Where `word` stands as a whole word in `source[from..to]`.
fn whole_words<'w>(source: &str, from: usize, to: usize, word: &'w str) -> Vec<(usize, &'w str)> {
    source[from..to]
        .match_indices(word)
        .map(|(i, _)| from + i)
        .filter(|&at| {
            let before = source[..at].chars().next_back();
            let after = source[at + word.len()..].chars().next();
            !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
        })
        .map(|at| (at, word))
        .collect()
}

fn leading_blanks(text: &str) -> usize {
    text.len() - text.trim_start_matches([' ', '\t']).len()
}

/// The offset of the `}` that closes the `{` that `text` starts with.
fn closing_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                // A `}` before any `{`: `text` does not start with one.
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `source` with `replacement` in place of `source[start..end]` parses, or stops
/// further on than `stopped`, where the original stopped.
fn gets_past(
    source: &str,
    (start, end): (usize, usize),
    replacement: &str,
    stopped: usize,
) -> bool {
    let fixed = format!("{}{replacement}{}", &source[..start], &source[end..]);
    match GrundyParser::parse(Rule::program, &fixed) {
        Ok(_) => true,
        Err(error) => error_pos(&error) + (end - start) > stopped + replacement.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The brace that closes the first, counted by hand; a text that closes before it opens
    /// has none (it once underflowed the depth).
    #[test]
    fn the_closing_brace_is_the_one_that_balances_the_first() {
        assert_eq!(closing_brace("{a{b}}c"), Some(5));
        assert_eq!(closing_brace("{a{b}"), None);
        assert_eq!(closing_brace("} {"), None);
        assert_eq!(closing_brace(""), None);
    }

    /// Every word in [`STATEMENT_WORDS`] starts a statement of the grammar, and every statement
    /// word of the grammar is in it: `kw_WORD` as the first part of a `*_stmt` rule or of
    /// `game_decl`.
    #[test]
    fn the_statement_words_are_those_of_the_grammar() {
        let grammar = include_str!("../../grammar/grundy.pest");
        let mut found: Vec<&str> = grammar
            .lines()
            .filter_map(|line| line.split_once('='))
            .filter(|(rule, _)| rule.trim().ends_with("_stmt") || rule.trim() == "game_decl")
            .flat_map(|(_, body)| {
                let first = body.trim_start_matches([' ', '{']).split('~').next();
                first
                    .unwrap_or("")
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter_map(|token| token.strip_prefix("kw_"))
            })
            .collect();
        let mut listed = STATEMENT_WORDS.to_vec();
        found.sort_unstable();
        listed.sort_unstable();
        assert_eq!(found, listed);
    }
}
