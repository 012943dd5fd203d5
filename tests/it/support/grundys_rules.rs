//! Grundy's game as the engine's heap rules, for the tests that drive `HeapSequence` directly.

use grundy::game::vocabulary::{HeapRules, Take};

/// Grundy's game as heap rules: split a heap into two unequal heaps.
pub fn grundys_rules() -> HeapRules {
    HeapRules {
        takes: vec![Take {
            take: 0,
            none: false,
            one: false,
            two: true,
            three: false,
            unequal: true,
        }],
        ranges: vec![],
    }
}
