//! Snapshots of each kind of diagnostic, rendered without colour at a fixed width.

use grundy::game::Limits;

fn diagnostic(source: &str) -> String {
    diagnostic_with(source, Limits::default())
}

fn diagnostic_with(source: &str, limits: Limits) -> String {
    match grundy::run_to_string_with("input.game", source, limits) {
        Ok(out) => panic!("expected an error, got output:\n{out}"),
        Err(e) => e,
    }
}

macro_rules! snapshot {
    ($name:ident, $source:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(diagnostic($source));
        }
    };
}

snapshot!(syntax_error, "let = 3");
snapshot!(
    syntax_error_in_rule,
    "game g on n {\n    for k in 1..=n { n -= }\n}"
);
snapshot!(
    unfinished_input,
    "game g on n {\n    for k in 1..=n { n -= k }\n"
);
snapshot!(literal_too_large, "print 99999999999999999999");
snapshot!(unknown_name_with_nearest, "grundy nmi[3, 4, 5]");
snapshot!(unknown_name_without_nearest, "print zzzzzz + 1");
snapshot!(
    several_errors_at_once,
    "print nmi[1]\nprint 1 + true\nprint min(1, 2, 3)"
);
snapshot!(game_arity, "grundy bash(1, 2)[3]");
snapshot!(family_without_parameters, "grundy bash[3]");
snapshot!(builtin_arity, "print mex()");
snapshot!(tuple_arity, "grundy wythoff[1, 2, 3]");
snapshot!(type_mismatch, "print 1 + true");
snapshot!(query_needs_a_position, "grundy 3");
snapshot!(
    negative_counter,
    "game g on n {\n    for k in 0..=n + 1 { n -= k }\n}\ngrundy g[2]"
);
snapshot!(overflow, "print 2^63");
snapshot!(
    overflow_in_multiplication,
    "let big = 10^18\nprint big * 10"
);
snapshot!(division_by_zero, "let z = 0\nprint 7 / z");
snapshot!(
    loop_under_misere_play,
    "game g = graph { a -> b; b -> c; c -> a }\ngrundy misere g[a]"
);
snapshot!(
    loopy_game_that_splits,
    "game g on n {\n    if n > 0 { n = [n, 0] }\n}\ngrundy g[1]"
);
snapshot!(
    infinite_value,
    "game g = graph { a -> b; b -> a }\nprint grundy(g[a])"
);
snapshot!(malformed_octal, "game o = octal 0.08");
snapshot!(octal_without_point, "game o = octal 77");
snapshot!(failed_assert, "assert grundy(nim[3, 4, 5]) == 0");
snapshot!(
    failed_check,
    "check grundy(nim[n]) == n % 4 for n in 0..=10"
);
snapshot!(
    update_outside_state,
    "game g on n {\n    for k in 1..=n { m -= k }\n}"
);
snapshot!(
    split_in_tuple_game,
    "game g on (a, b) {\n    { a = [1, 2] }\n}"
);
snapshot!(index_out_of_range, "let s = [1, 2, 3]\nprint s[3]");
snapshot!(duplicate_state_variable, "game g on (a, a) { { a -= 1 } }");
snapshot!(
    non_positive_subtraction,
    "game s = subtraction {0, 1}\ngrundy s[3]"
);

#[test]
fn state_limit() {
    let limits = Limits {
        max_states: 1000,
        ..Limits::default()
    };
    // Not bash(2), nor `n -= 1` (a subtraction game): their values are answered from a proved
    // period, within any limit. `n % 1` keeps the rules from the fast paths.
    insta::assert_snapshot!(diagnostic_with(
        "game chain on n { if n > 0 { n -= 1 + n % 1 } }; grundy chain[5000]",
        limits
    ));
}
snapshot!(
    builtin_argument_kinds,
    "print 1\nprint read(3)\nprint len(7)\nprint min(true, 1)\nprint grundy([3])"
);
snapshot!(
    a_runtime_mismatch_names_the_game_found,
    "let gs = [wythoff, kayles]\nsequence gs[0] 0..10"
);
snapshot!(
    a_runtime_mismatch_names_the_family_found,
    "let gs = [bash, kayles]\ntable gs[0] 0..3, 0..3"
);
snapshot!(
    a_static_mismatch_names_the_game_found,
    "table kayles 0..3, 0..3\ngrundy wythoff\nlet x = bash(3) + 1\nplot sequence wythoff 0..9 to \"w.png\""
);
snapshot!(a_static_mismatch_names_the_family_found, "grundy bash");

// A line past column 65,535 (miette's widest) is shown cut around the error, and says so.
snapshot!(
    long_line_cut_around_the_error,
    &format!("print {}nosuchname + 1", " ".repeat(70_000))
);
// The slips of a newcomer, each with the help that names its fix.
snapshot!(misspelled_statement_word, "sequnce kayles 0..=10");
snapshot!(misspelled_query_word, "print 1\noutcom nim[3]");
snapshot!(
    single_equals_where_a_comparison_is_meant,
    "check grundy(nim[n]) = n for n in 0..=10"
);
snapshot!(a_game_called_with_its_state, "grundy nim(3)");
snapshot!(a_position_in_braces, "grundy nim{3, 4}");
snapshot!(help_as_in_python, "help");
snapshot!(help_called_as_in_python, "help(period)");
snapshot!(quit_as_in_python, "exit");
snapshot!(help_as_in_ipython, "?period");
snapshot!(an_octal_form_where_a_game_is_expected, "period octal 0.6");
snapshot!(an_octal_form_before_a_range, "sequence octal 0.6 0..=10");
snapshot!(
    a_subtraction_form_before_a_range,
    "sequence subtraction {1, 2} 0..=10"
);
snapshot!(a_position_plus_an_integer_is_one_error, "grundy nim[3] + 1");
snapshot!(
    dot_to_a_file_that_is_not_graphviz,
    "dot nim[2] to \"nim.png\""
);

/// The first line of the help of the diagnostic of `source`.
fn help_of(source: &str) -> String {
    let rendered = diagnostic(source);
    let help = rendered.split("help: ").nth(1).unwrap_or("");
    help.lines().next().unwrap_or("").to_string()
}

#[test]
fn a_correction_is_offered_only_where_it_parses() {
    // `win` is two edits from `nim`, but `nim 3` is not a misspelled `win 3`.
    assert!(!help_of("nim 3").contains("win"), "{}", help_of("nim 3"));
    // A near statement word that would stop at the same place is not offered.
    assert!(
        !help_of("prnt ]").contains("print"),
        "{}",
        help_of("prnt ]")
    );
    // Inside an expression a word is not a statement word.
    assert!(!help_of("let x = prnt 3").contains("print"));
    // `help` declared is a name like any other.
    assert_eq!(
        grundy::run_to_string("input.game", "let help = 3\nprint help").unwrap(),
        "3\n"
    );
    // A declared form is a declaration, not a slip.
    assert!(grundy::run_to_string("input.game", "game g = octal 0.6\nperiod g").is_ok());
}
