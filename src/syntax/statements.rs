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
/// peak of the longest statements allowed is measured in `tests/runaway.rs`.
pub const BYTES_PER_BYTE: usize = 1024;

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
        let extent = extent(rest);
        let needs = extent.saturating_mul(BYTES_PER_BYTE);
        if needs > self.room {
            self.done = true;
            let start = self.at + (rest.len() - rest.trim_start().len());
            let first_line = self.source[start..].find('\n').unwrap_or(rest.len());
            return Some(Err(Error::StatementMemory {
                bytes: extent,
                needs: needs.div_ceil(1 << 20),
                limit: self.room >> 20,
                span: Span::new(start, start + first_line.min(extent)),
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
            b'\n' if depth == 0 && last != b'\n' => {
                if !goes_on(last) && !text[i..].trim_start().starts_with("for") {
                    return i + 1;
                }
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
