//! pest's parse errors as [`Error`] diagnostics: every grammar rule has a readable name, and an
//! error at the end of the input is [`Error::Unfinished`] so the REPL can ask for more.

use pest::error::{ErrorVariant, InputLocation};
use pest::Parser;

use super::parse::{GrundyParser, Rule};
use super::slips;
use crate::error::Error;
use crate::span::Span;

/// Converts a pest error on `source` to a diagnostic.
pub(crate) fn convert(error: &pest::error::Error<Rule>, source: &str) -> Error {
    let pos = error_pos(error).min(source.len());
    let parsing = matches!(error.variant, ErrorVariant::ParsingError { .. });
    if parsing && !is_blank(&source[pos..]) {
        if let Some(slip) = slips::slip(source, pos) {
            return slip;
        }
    }
    let (span, found) = found(source, pos);
    let (message, label) = match &error.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let word = &source[span.start as usize..span.end as usize];
            let wants_name = [Rule::ident, Rule::primary, Rule::operand, Rule::expr]
                .iter()
                .any(|wanted| positives.contains(wanted));
            if positives.contains(&Rule::game_rule) {
                if let Some(update) = update_at(&source[pos..]) {
                    return Error::syntax(
                        "expected a rule, and a rule's updates go in braces of their own",
                        format!("an update outside a rule: write `{{ {update} }}`"),
                        Span::new(pos, pos + update.len()),
                    );
                }
            }
            let label = if wants_name && is_keyword(word) {
                format!("`{word}` is a reserved word")
            } else {
                format!("unexpected {found}")
            };
            (expectation(positives, negatives), label)
        }
        ErrorVariant::CustomError { message } if message.contains("limit") => (
            "the input is nested too deeply".to_string(),
            "too deep here".to_string(),
        ),
        ErrorVariant::CustomError { message } => (message.clone(), "here".to_string()),
    };
    if is_blank(&source[pos..]) {
        return Error::Unfinished {
            message,
            span: end_span(source),
        };
    }
    Error::syntax(message, label, span)
}

/// Where pest stopped.
pub(super) fn error_pos(error: &pest::error::Error<Rule>) -> usize {
    match error.location {
        InputLocation::Pos(pos) => pos,
        InputLocation::Span((start, _)) => start,
    }
}

/// The update that `rest` starts with (`n += 1` of `n += 1 }`), if it does.
fn update_at(rest: &str) -> Option<&str> {
    let pairs = GrundyParser::parse(Rule::update, rest).ok()?;
    Some(pairs.as_str().trim_end())
}

fn is_keyword(word: &str) -> bool {
    GrundyParser::parse(Rule::keyword, word).is_ok_and(|pairs| pairs.as_str() == word)
}

/// "expected a name, `(` or `=`", with what was not allowed when pest reports it.
fn expectation(positives: &[Rule], negatives: &[Rule]) -> String {
    let expected = names(positives);
    let unexpected = names(negatives);
    match (expected.is_empty(), unexpected.is_empty()) {
        (false, true) => format!("expected {expected}"),
        (false, false) => format!("expected {expected}, not {unexpected}"),
        (true, false) => format!("unexpected {unexpected}"),
        (true, true) => "unexpected input".to_string(),
    }
}

/// The names of `rules`, without repeats, as "a, b or c". A name that is itself a list
/// ("`=`, `+=` or `-=`") is spread into the outer list.
fn names(rules: &[Rule]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for &rule in rules {
        let name = rule_name(rule);
        let pieces: Vec<&str> = if name.contains(" (") {
            vec![name]
        } else {
            name.split(", ")
                .flat_map(|piece| piece.split(" or "))
                .collect()
        };
        for piece in pieces {
            if !names.contains(&piece) {
                names.push(piece);
            }
        }
    }
    if rules.contains(&Rule::infix) {
        let continues = ["`(`", "`[`", "`..`", rule_name(Rule::infix)];
        names.sort_by_key(|name| continues.iter().position(|c| c == name));
    }
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Whether `rest` holds only whitespace, newlines and comments.
fn is_blank(rest: &str) -> bool {
    rest.lines()
        .all(|line| matches!(line.trim_start().chars().next(), None | Some('#')))
}

/// Where an unfinished input ends: its last character that is not whitespace or in a comment,
/// so that the label has something to underline.
fn end_span(source: &str) -> Span {
    let mut last = None;
    let (mut in_string, mut in_comment, mut escaped) = (false, false, false);
    for (at, c) in source.char_indices() {
        if c == '\n' {
            (in_string, in_comment, escaped) = (false, false, false);
        } else if in_comment || (c.is_whitespace() && !in_string) {
            continue;
        } else if c == '#' && !in_string {
            in_comment = true;
            continue;
        } else if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else {
            in_string = c == '"';
        }
        if !c.is_whitespace() {
            last = Some(Span::new(at, at + c.len_utf8()));
        }
    }
    last.unwrap_or_default()
}

/// The token at `pos` (a word, a number, a run of operator characters or one character) and
/// its description.
fn found(source: &str, pos: usize) -> (Span, String) {
    let rest = &source[pos..];
    let Some(first) = rest.chars().next() else {
        return (Span::new(pos, pos), "end of input".to_string());
    };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let operator = |c: char| "=<>!+-*/%^&|.".contains(c);
    let len = if word(first) {
        rest.find(|c| !word(c)).unwrap_or(rest.len())
    } else if operator(first) {
        rest.find(|c| !operator(c)).unwrap_or(rest.len())
    } else {
        first.len_utf8()
    };
    let span = Span::new(pos, pos + len);
    match first {
        '\n' | '\r' => (span, "end of line".to_string()),
        _ => (span, format!("`{}`", &rest[..len])),
    }
}

/// A readable name for each grammar rule, used in "expected ..." messages. The match is
/// exhaustive on purpose: a new rule in the grammar must be given a name here.
pub(crate) fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of input",
        Rule::WHITESPACE => "whitespace",
        Rule::COMMENT => "a comment",
        Rule::program => "a program",
        Rule::next_statement => "a statement",
        Rule::sep => "a newline or `;`",
        Rule::line_break => "a line break",
        Rule::statement => "a statement",
        Rule::let_stmt => "a `let` statement",
        Rule::query_stmt => "a query",
        Rule::sequence_stmt => "a `sequence` statement",
        Rule::table_stmt => "a `table` statement",
        Rule::ppos_stmt => "a `ppos` statement",
        Rule::check_stmt => "a `check` statement",
        Rule::assert_stmt => "an `assert` statement",
        Rule::print_stmt => "a `print` statement",
        Rule::expr_stmt => "an expression",
        Rule::game_decl => "a game declaration",
        Rule::params => "parameters",
        Rule::rules_def => "`on` and a state",
        Rule::state => "a state (`n`, `(a, b)` or `s[]`)",
        Rule::tuple_state => "a tuple state `(a, b)`",
        Rule::list_state => "a list state `s[]`",
        Rule::cells_state => "a state of cells `cells c`",
        Rule::heap_state => "a heap state `n`",
        Rule::game_rule => "a rule",
        Rule::binder => "a binder (`x in ...` or `x = ...`)",
        Rule::guard => "a guard (`if COND`)",
        Rule::swept_value => "an expression and `for`",
        Rule::swept_grid => "an expression and `for` with two ranges",
        Rule::axis => "`NAME in RANGE`",
        Rule::output => "`to \"FILE\"`",
        Rule::for_clause => "`for` and binders",
        Rule::updates => "a block of updates",
        Rule::step => "an update or a loop",
        Rule::update_loop => "a loop of updates",
        Rule::update => "an update",
        Rule::update_op => "`=`, `+=` or `-=`",
        Rule::octal_def => "`= octal`",
        Rule::octal_code => "an octal code",
        Rule::subtraction_def => "`= subtraction`",
        Rule::graph_def => "`= graph`",
        Rule::graph_line => "a node or an edge list (`a -> b, c`)",
        Rule::expr => "an expression",
        Rule::game_expr => "a game",
        Rule::operand => "an expression",
        Rule::prefix => "an expression",
        Rule::postfix => "`(` or `[`",
        Rule::infix | Rule::continued_infix => "an operator",
        Rule::primary => "an expression",
        Rule::if_expr => "an `if` expression",
        Rule::xor_name => "`xor`",
        Rule::paren => "a parenthesised expression",
        Rule::list => "a list",
        Rule::set => "a set",
        Rule::call_args => "arguments",
        Rule::index_args => "`[`",
        Rule::items => "expressions",
        Rule::eq => "`==`",
        Rule::ne => "`!=`",
        Rule::le => "`<=`",
        Rule::ge => "`>=`",
        Rule::lt => "`<`",
        Rule::gt => "`>`",
        Rule::range_incl => "`..=`",
        Rule::range_excl => "`..`",
        Rule::open_range => "`..`",
        Rule::bit_or => "`|`",
        Rule::bit_and => "`&`",
        Rule::shl => "`<<`",
        Rule::shr => "`>>`",
        Rule::concat => "`++`",
        Rule::add => "`+`",
        Rule::sub | Rule::neg => "`-`",
        Rule::mul => "`*`",
        Rule::div => "`/`",
        Rule::rem => "`%`",
        Rule::pow => "`^`",
        Rule::int => "an integer",
        Rule::string => "a string",
        Rule::ident => "a name",
        Rule::ident_char => "a letter, digit or `_`",
        Rule::keyword => "a reserved word",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::lbracket => "`[`",
        Rule::rbracket => "`]`",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::comma => "`,`",
        Rule::assign => "`=`",
        Rule::arrow => "`->`",
        Rule::kw_and => "`and`",
        Rule::kw_or => "`or`",
        Rule::kw_not => "`not`",
        Rule::kw_xor => "`xor`",
        Rule::kw_if => "`if`",
        Rule::kw_then => "`then`",
        Rule::kw_else => "`else`",
        Rule::kw_for => "`for`",
        Rule::kw_in => "`in`",
        Rule::kw_let => "`let`",
        Rule::kw_game => "`game`",
        Rule::kw_on => "`on`",
        Rule::kw_unordered => "`unordered`",
        Rule::kw_misere => "`misere`",
        Rule::kw_true => "`true`",
        Rule::kw_false => "`false`",
        Rule::kw_grundy => "`grundy`",
        Rule::kw_outcome => "`outcome`",
        Rule::kw_moves => "`moves`",
        Rule::kw_win => "`win`",
        Rule::kw_sequence => "`sequence`",
        Rule::kw_table => "`table`",
        Rule::kw_ppos => "`ppos`",
        Rule::kw_period => "`period`",
        Rule::kw_compare => "`compare`",
        Rule::kw_survey => "`survey`",
        Rule::kw_dot => "`dot`",
        Rule::kw_plot => "`plot`",
        Rule::kw_to => "`to`",
        Rule::word_size => "`size`",
        Rule::word_cells => "`cells`",
        Rule::word_up => "`up`",
        Rule::period_bound => "`up to HEAPS`",
        Rule::word_x => "`x`",
        Rule::word_title => "`title`",
        Rule::word_xlabel => "`xlabel`",
        Rule::word_ylabel => "`ylabel`",
        Rule::word_barlabel => "`barlabel`",
        Rule::word_colours => "`colours`",
        Rule::plot_option => "an option (`size`, `title`, `xlabel`, `ylabel`, `colours`)",
        Rule::plot_size => "`size WIDTH x HEIGHT`",
        Rule::plot_text => "`title \"TEXT\"` or an axis label",
        Rule::plot_colours => "`colours NAME`",
        Rule::period_stmt => "a `period` statement",
        Rule::genus_stmt => "a `genus` statement",
        Rule::genus_heaps => "`genus GAME RANGE`",
        Rule::kw_genus => "`genus`",
        Rule::quotient_stmt => "a `quotient` statement",
        Rule::kw_quotient => "`quotient`",
        Rule::compare_stmt => "a `compare` statement",
        Rule::survey_stmt => "a `survey` statement",
        Rule::survey_octal => "`octal` and how many digits",
        Rule::survey_hex => "`hex` and how many digits",
        Rule::survey_subtraction => "`subtraction` and the largest take",
        Rule::dot_stmt => "a `dot` statement",
        Rule::plot_stmt => "a `plot` statement",
        Rule::plot_sequence => "`sequence GAME RANGE`",
        Rule::plot_table => "`table GAME RANGE, RANGE`",
        Rule::kw_check => "`check`",
        Rule::kw_assert => "`assert`",
        Rule::kw_print => "`print`",
        Rule::kw_octal => "`octal`",
        Rule::kw_hex => "`hex`",
        Rule::kw_subtraction => "`subtraction`",
        Rule::kw_graph => "`graph`",
    }
}
