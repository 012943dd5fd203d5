//! The integration tests, one crate (as ripgrep has it): a module per kind, so a change
//! links one test binary. Where a new test goes: tests/README.md.

mod support;

// the layers keep to what they may know (ARCHITECTURE.md, "Invariants")
mod architecture;
// the heap-sequence cache: resume, damage, forgery, sharing
mod cache;
// Cram, Node Kayles and remove-a-cell written in the language, native and walked, against brute force
mod cell_games;
// Chomp over a list of row lengths: its table of diagrams against the walker
mod chomp;
// games on cells: boards and graphs against a brute force, parts, symmetry, Cram's nimbers
mod cells;
// the command line: files, -e, standard input, exit codes, Ctrl-C
mod cli;
// long chains of positions, solved without deep recursion
mod deep_games;
// a snapshot of each kind of diagnostic
mod diagnostics;
// every bad program in tests/inputs/errors/ and its diagnostic
mod error_corpus;
// every file in examples/ runs and checks itself
mod examples;
// equal games, with an offset, against a brute force of octal codes
mod equal_games;
// periods, huge heaps, loopy games, compare, dot, plot, read
mod explore;
// files stay under their root: paths, links, --root
mod files;
// heap sequences past 2^20 heaps, and their memory
mod far_heaps;
// hexadecimal codes against a brute force
mod hex;
// random and mutated programs under a watchdog
mod hostile_input;
// Grundy sequences against published values
mod known_sequences;
// comprehensions, functions, guards, against the same in Rust
mod language_forms;
// every example of docs/LANGUAGE.md and the README runs
mod language_reference;
// the layout of answers, snapshot-tested
mod layout;
// loopy games against a retrograde labelling
mod loopy_answers;
// lowered rules and fast paths against the AST walker
mod lowered;
// misère values and genera against a brute force
mod misere;
// misère play of loopy games against a retrograde analysis
mod misere_loopy;
// parallel sweeps give the sequential answers
mod parallel;
// period and huge heaps against a brute force
mod periods;
// plots: sizes, text, colours, ticks
mod pictures;
// game laws, property-tested against brute force
mod properties;
// misère quotients against a brute force
mod quotient;
// the REPL's back end, lines in and a transcript out
mod repl_backend;
// the REPL on a real pseudo-terminal
mod repl_terminal;
// limits hold: peak memory stays within --max-memory
mod runaway;
// heap games of sparse reach, searched from the target
mod sparse_reach;
// survey: rows against the plain mex and published tables, files, the memory limit
mod survey;
// a survey's progress in the cache, its parts and their merge, against one run
mod survey_parts;
// winning moves counted and listed against brute force
mod wins;
