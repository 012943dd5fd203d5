//! Source text to syntax tree: the pest grammar, the tree, and pest errors as diagnostics.

pub mod ast;
mod parse;
mod pest_error;
mod slips;
mod statements;

pub use parse::parse;
pub use statements::{Statements, PARSE_SLACK};
