//! Source text to syntax tree: the pest grammar, the tree, and pest errors as diagnostics.

pub mod ast;
mod parse;
mod pest_error;
mod slips;

pub use parse::parse;
