//! A program parsed one statement at a time, each within a memory bound.
//!
//! pest holds two tokens for every rule it matched until the parse ends, and a parse of a
//! whole file held them for every statement at once (a 10 MB file of `let x = 1` took 1.2 GiB,
//! a 100 MB one aborted). Parsed statement by statement, a program holds its text and one
//! statement's tokens and tree. Before a statement is parsed, the bytes it can span are
//! found by [`extent`], and the parse is refused when [`BYTES_PER_BYTE`] times that is more
//! than the room the memory limit leaves.

use super::ast::Stmt;
use super::parse::next_statement;
use crate::error::Error;
use crate::span::Span;

/// What parsing a statement can take at most, in bytes for each byte of its text: pest's
/// tokens (two of 40 bytes for each rule matched, up to six rules matched a byte, as in
/// `[-1,-1]`; their vector while it doubles, three times that), and the syntax tree. The
/// peak of the longest statements allowed is measured in `tests/it/runaway.rs`.
pub const BYTES_PER_BYTE: usize = 1024;

/// The parse memory a statement may always take, whatever the limit leaves: it is the
/// interpreter's own slack (the few MiB the limit's promise allows beside it), so that a
/// statement of up to 1 KB parses even under the tiny limits that tests of searches use.
pub const PARSE_SLACK: usize = 1 << 20;

/// The statements of `source`, in order; an error ends them.
pub struct Statements<'s> {
    source: &'s str,
    at: usize,
    room: usize,
    done: bool,
}

impl<'s> Statements<'s> {
    /// The statements of `source`, each parsed only if [`BYTES_PER_BYTE`] times its extent
    /// fits in `room` bytes (else the statement is [`Error::StatementMemory`]).
    pub fn new(source: &'s str, room: usize) -> Statements<'s> {
        Statements {
            source,
            at: 0,
            room,
            done: false,
        }
    }
}

impl Iterator for Statements<'_> {
    type Item = Result<Stmt, Error>;

    fn next(&mut self) -> Option<Result<Stmt, Error>> {
        if self.done {
            return None;
        }
        let rest = &self.source[self.at..];
        // What the statement can span, from its first character (blanks and comments before
        // it cost pest nothing).
        let skipped = rest.len() - after_blanks(rest).len();
        let bytes = extent(rest).saturating_sub(skipped);
        let needs = bytes.saturating_mul(BYTES_PER_BYTE);
        if needs > self.room {
            self.done = true;
            let start = self.at + skipped;
            let first_line = self.source[start..].find('\n').unwrap_or(rest.len());
            return Some(Err(Error::StatementMemory {
                bytes,
                needs: needs.div_ceil(1 << 20),
                limit: self.room >> 20,
                span: Span::new(start, start + first_line.min(bytes)),
            }));
        }
        match next_statement(self.source, self.at) {
            Ok(Some((statement, next))) => {
                self.at = next;
                Some(Ok(statement))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(error) => {
                self.done = true;
                Some(Err(error))
            }
        }
    }
}

/// How many bytes of `text` the statement at its start can span at most (it may span fewer):
/// up to the first `;`, or line break, outside brackets, braces and strings, after which the
/// statement cannot go on. A statement goes on over a line break after a character that can
/// end an operator or after a comma, and before a `for` (a `check` and a swept `sequence`);
/// the scan takes any such line break as going on, so it never stops before the statement's
/// end. A comment runs to its line's end, a string to its closing quote or its line's end.
fn extent(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut last = b'\n';
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                i += text[i..].find('\n').unwrap_or(text.len() - i);
                continue;
            }
            b'"' => {
                let close = text[i + 1..]
                    .find(['"', '\n'])
                    .map_or(text.len(), |j| i + 1 + j);
                i = if bytes.get(close) == Some(&b'"') {
                    close + 1
                } else {
                    close
                };
                last = b'"';
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b';' if depth == 0 && last != b'\n' => return i + 1,
            b'\n'
                if depth == 0
                    && last != b'\n'
                    && !goes_on(last)
                    && !after_blanks(&text[i..]).starts_with("for") =>
            {
                return i + 1;
            }
            _ => {}
        }
        let leading = last == b'\n' && bytes[i] == b';';
        if !leading && (!bytes[i].is_ascii_whitespace() || bytes[i] == b'\n') {
            last = bytes[i];
        }
        i += 1;
    }
    text.len()
}

/// Whether a line ending in `last` can go on over the line break (an infix operator or a
/// comma; `\` for a string's escape).
fn goes_on(last: u8) -> bool {
    b"=<>!+-*/%^&|.,\\".contains(&last)
}

/// `text` from its first character that is not whitespace, a line break or in a comment.
fn after_blanks(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        match text.strip_prefix('#') {
            Some(comment) => text = comment.find('\n').map_or("", |end| &comment[end..]),
            None => return text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The extent of every statement reaches at least to where its parse ends (with the
    /// separator after it), so that the memory bound is never too low.
    fn covers(source: &str) {
        let mut at = 0;
        while let Some((_, next)) = next_statement(source, at).unwrap() {
            let reach = extent(&source[at..]);
            assert!(
                next - at <= reach,
                "{:?} parsed to {next}, extent {reach}",
                &source[at..next]
            );
            at = next;
        }
    }

    #[test]
    fn the_extent_covers_every_statement() {
        covers(include_str!("../prelude.game"));
        covers(
            "let a = 1 +\n  2\ncheck a == 3\n  # why\n\n  for n in 0..3,\n    m in 0..2\n\
             let s = \"a ; b # c\" ; print s\nsequence grundy(nim[n])\n# the heaps\nfor n in 0..4\n\
             game g on n {\n  for k in 1..=n { n -= k }\n}\nlet l = [\n1,\n2]\n\n;;\nprint l",
        );
    }

    #[test]
    fn a_statement_too_long_for_its_room_is_refused_before_it_is_parsed() {
        let source = format!("print 1\nprint len([{}0])\nprint 2", "0,".repeat(1000));
        let statements: Vec<_> = Statements::new(&source, 1000 * BYTES_PER_BYTE).collect();
        assert_eq!(statements.len(), 2);
        assert!(statements[0].is_ok());
        let Err(Error::StatementMemory { bytes, span, .. }) = &statements[1] else {
            panic!("{:?}", statements[1]);
        };
        // `print len([`, 1,000 times `0,`, `0])` and the line break, counted by hand.
        assert_eq!(*bytes, 11 + 2000 + 4);
        assert_eq!(span.start, 8);
    }
}
