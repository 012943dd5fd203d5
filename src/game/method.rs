//! Which method computes a game's values, as the engine chose it when the game was made (asked
//! by `:method`, shown by `:time`, and compared by the tests).

use std::fmt;

use super::vocabulary::{HeapRules, Structure};

/// How the engine computes the values of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// A heap game described as take-and-break moves ([`HeapRules`]), computed in order of heap
    /// size by the methods of [`super::heap`].
    HeapSequence {
        /// Some move leaves one heap, or none, after taking a listed number of tokens.
        takes: bool,
        /// Some move takes any number of tokens in a range.
        ranges: bool,
        /// Some move splits a heap in two (computed by the sparse space when there are no ranges).
        splits: bool,
        /// Some move splits a heap in three (every split is visited).
        three_way: bool,
        /// What proves the periods found.
        proof: Proof,
        /// The sparse space's strategy in use for the values so far, and the name of its
        /// kernels; `None` without a sparse space.
        sparse: Option<(&'static str, &'static str)>,
    },
    /// A two-counter game whose moves take along lines, swept in boxes ([`super::lines`]).
    LineSweep,
    /// A game on cells whose moves are [`super::vocabulary::CellMove`]s, played on bit sets by
    /// [`super::cells`]: `parts`, a set valued as the XOR of its connected parts; `symmetric`,
    /// a grid region stored once for its eight images; `pruned`, values by the pruned search
    /// (an option asked only whether its value is one number), else by the mex of every option.
    Cells {
        parts: bool,
        symmetric: bool,
        pruned: bool,
    },
    /// Chomp on Young diagrams ([`super::chomp`]): every diagram of a position's bounding box
    /// ranked by its lattice path and valued in rank order in a flat table (a list that is no
    /// diagram is searched through its options).
    Chomp,
    /// The memoized mex search over the options the rules give.
    Search,
    /// A game found to have loops: generalized values by Smith's labelling ([`super::loopy`]).
    Loopy,
}

/// What proves the periods of a heap sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Every smaller heap is an option and no move splits: `G(n) = n`.
    Nim,
    /// A finite subtraction game: a period is proved once it has repeated as long as the largest take.
    Subtraction,
    /// An octal game: the periodicity theorem of Guy and Smith.
    Octal,
    /// A hexadecimal game that splits in three: Guy and Smith's theorem carried to three heaps
    /// ([`super::period::THREE_HEAP_THEOREM`]).
    ThreeHeaps,
    /// Every smaller heap is an option and some moves split: arithmetic periods are proved by
    /// the test of [`super::period::arithmetic`].
    Arithmetic,
    /// No theorem applies: periods are apparent only.
    None,
}

impl Method {
    /// The method of a heap sequence with these moves, whose game has this structure; `sparse`:
    /// the sparse space's strategy in use and its kernels, when it has one.
    pub fn heap_sequence(
        rules: &HeapRules,
        structure: &Structure,
        sparse: Option<(&'static str, &'static str)>,
    ) -> Method {
        Method::HeapSequence {
            sparse,
            takes: rules.takes.iter().any(|t| t.none || t.one),
            ranges: !rules.ranges.is_empty(),
            splits: rules.takes.iter().any(|t| t.two),
            three_way: rules.takes.iter().any(|t| t.three),
            proof: match structure {
                Structure::Octal { .. } if structure.splits_in_three() => Proof::ThreeHeaps,
                Structure::Nim => Proof::Nim,
                Structure::Subtraction { .. } => Proof::Subtraction,
                Structure::Octal { .. } => Proof::Octal,
                Structure::TakeAnyOrSplit { .. } => Proof::Arithmetic,
                Structure::Unknown => Proof::None,
            },
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (takes, ranges, splits, three_way, proof, sparse) = match self {
            Method::HeapSequence {
                takes,
                ranges,
                splits,
                three_way,
                proof,
                sparse,
            } => (*takes, *ranges, *splits, *three_way, *proof, *sparse),
            Method::LineSweep => return write!(f, "line sweep (two counters, moves along lines)"),
            Method::Cells {
                parts,
                symmetric,
                pruned,
            } => {
                write!(f, "cells: bit sets")?;
                if *parts {
                    write!(f, ", connected parts valued apart")?;
                }
                if *symmetric {
                    write!(f, ", the eight symmetries of a grid folded")?;
                }
                if *pruned {
                    write!(
                        f,
                        ", values by pruned search (Lemoine–Viennot, Beling–Rogalski)"
                    )?;
                } else {
                    write!(f, ", values by the mex of every option")?;
                }
                return Ok(());
            }
            Method::Chomp => {
                return write!(
                    f,
                    "chomp: the Young diagrams of the bounding box ranked by their lattice \
                     paths, values filled in rank order in a flat table"
                )
            }
            Method::Search => return write!(f, "plain memoized search"),
            Method::Loopy => return write!(f, "loopy: generalized values by Smith's labelling"),
        };
        write!(f, "heap sequence: ")?;
        if let Some((strategy, kernels)) = sparse {
            write!(f, "sparse space ({strategy}; {kernels} kernels), ")?;
        }
        let moves: Vec<&str> = [
            (takes, "takes"),
            (ranges, "take ranges"),
            (splits, "splits"),
            (three_way, "splits in three"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        write!(f, "{}", moves.join(" and "))?;
        match proof {
            Proof::Nim => write!(f, "; G(n) = n (every smaller heap is an option)"),
            Proof::Subtraction => write!(f, "; periods proved (subtraction game)"),
            Proof::Octal => write!(f, "; periods proved by Guy–Smith"),
            Proof::ThreeHeaps => write!(f, "; periods proved by Guy–Smith for three heaps"),
            Proof::Arithmetic => write!(f, "; arithmetic periods proved (take any or split)"),
            Proof::None => write!(f, "; periods apparent only"),
        }
    }
}
