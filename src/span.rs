//! Byte ranges into the source, carried by every AST node.

use miette::SourceSpan;

/// A byte range `start..end` in the source text of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span that covers both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

impl From<pest::Span<'_>> for Span {
    fn from(span: pest::Span<'_>) -> Span {
        Span::new(span.start(), span.end())
    }
}

impl From<Span> for SourceSpan {
    fn from(span: Span) -> SourceSpan {
        SourceSpan::new((span.start as usize).into(), span.len())
    }
}
