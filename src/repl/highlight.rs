//! Colours for the line being edited: keywords, numbers, strings and comments.

use super::KEYWORDS;

const KEYWORD: &str = "\x1b[1;35m";
const NUMBER: &str = "\x1b[36m";
const STRING: &str = "\x1b[32m";
const COMMENT: &str = "\x1b[2;37m";
const COMMAND: &str = "\x1b[1;34m";
const RESET: &str = "\x1b[0m";

/// `line` with ANSI colours; the text itself is unchanged.
pub fn highlight(line: &str) -> String {
    let mut out = String::with_capacity(line.len() * 2);
    if line.trim_start().starts_with(':') {
        let end = line.find(':').unwrap_or(0);
        let word_end = line[end..]
            .find(char::is_whitespace)
            .map_or(line.len(), |i| end + i);
        out.push_str(&line[..end]);
        paint(&mut out, COMMAND, &line[end..word_end]);
        out.push_str(&line[word_end..]);
        return out;
    }
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        let len = if c == '#' {
            paint(&mut out, COMMENT, rest);
            rest.len()
        } else if c == '"' {
            let len = string_len(rest);
            paint(&mut out, STRING, &rest[..len]);
            len
        } else if c.is_ascii_digit() {
            let len = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '_'))
                .unwrap_or(rest.len());
            paint(&mut out, NUMBER, &rest[..len]);
            len
        } else if c.is_alphabetic() || c == '_' {
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let word = &rest[..len];
            if KEYWORDS.contains(&word) {
                paint(&mut out, KEYWORD, word);
            } else {
                out.push_str(word);
            }
            len
        } else {
            out.push(c);
            c.len_utf8()
        };
        rest = &rest[len..];
    }
    out
}

fn string_len(text: &str) -> usize {
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return i + 1,
            _ => {}
        }
    }
    text.len()
}

fn paint(out: &mut String, colour: &str, text: &str) {
    out.push_str(colour);
    out.push_str(text);
    out.push_str(RESET);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn keeps_the_text() {
        for line in [
            "grundy nim[3, 4, 5]  # a comment",
            "print \"N\" + \"a \\\" b\"",
            "let x = 1_000 xor 2",
            ":load examples/nim.game",
            "\"unterminated",
            "é + ∞",
        ] {
            assert_eq!(strip(&highlight(line)), line);
        }
    }

    #[test]
    fn colours_each_kind() {
        let shown = highlight("let x = 42 # c");
        assert!(shown.contains(&format!("{KEYWORD}let{RESET}")));
        assert!(shown.contains(&format!("{NUMBER}42{RESET}")));
        assert!(shown.contains(&format!("{COMMENT}# c{RESET}")));
        assert!(highlight("\"P\"").contains(&format!("{STRING}\"P\"{RESET}")));
        assert!(!highlight("nim").contains('\x1b'));
    }
}
