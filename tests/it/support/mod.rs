//! Helpers shared by the test modules.

pub mod grundys_rules;
pub mod measured;
pub mod octal_values;
pub mod printed;
pub mod published;
pub mod random;
pub mod reach;
