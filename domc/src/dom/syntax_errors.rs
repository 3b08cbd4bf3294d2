//! Syntax errors of `.dom` text as diagnostics in words: what was expected where, named by the
//! grammar's rules (`rule_words`), and nesting deeper than [`MAX_NESTING`].

use super::parser::{MAX_NESTING, Rule};
use crate::diagnostic::{Diagnostic, FileId};

/// The error for text nesting too deep at byte `at`, pointing at the character there.
pub(super) fn nesting_error(id: FileId, text: &str, at: usize, message: String) -> Diagnostic {
    let at = at.min(text.len());
    let end = at
        + text
            .get(at..)
            .and_then(|t| t.chars().next())
            .map_or(0, char::len_utf8);
    Diagnostic::new(id, at..end, message, "too deeply nested")
        .with_help("split the expression into helper `fn`s")
}

/// The offset where the nesting first exceeds [`MAX_NESTING`], found without recursion (pairs
/// come in pre-order; a stack holds the end and depth of the enclosing ones).
pub(super) fn too_deep(pairs: &pest::iterators::Pairs<'_, Rule>) -> Option<usize> {
    let mut enclosing: Vec<(usize, usize)> = Vec::new();
    for pair in pairs.clone().flatten() {
        let (start, end) = (pair.as_span().start(), pair.as_span().end());
        while enclosing
            .last()
            .is_some_and(|&(e, _)| e <= start && start < end)
        {
            enclosing.pop();
        }
        let children = || pair.clone().into_inner().count();
        let extra = match pair.as_rule() {
            Rule::or_expr
            | Rule::and_expr
            | Rule::cmp_expr
            | Rule::bitor_expr
            | Rule::bitxor_expr
            | Rule::bitand_expr
            | Rule::shift_expr
            | Rule::add_expr
            | Rule::mul_expr => children() / 2,
            Rule::unary | Rule::postfix => children().saturating_sub(1),
            _ => 0,
        };
        let depth = enclosing.last().map_or(0, |&(_, d)| d) + 1 + extra;
        if depth > MAX_NESTING {
            return Some(start);
        }
        enclosing.push((end, depth));
    }
    None
}

/// pest's error as one diagnostic saying, in words, what was expected and what was found.
pub(super) fn syntax_error(id: FileId, text: &str, error: pest::error::Error<Rule>) -> Diagnostic {
    let offset = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let expected = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => describe(positives),
        // pest's own guards: the stack, or the number of calls.
        pest::error::ErrorVariant::CustomError { message } => {
            let message = format!("this nests too deeply to parse ({message})");
            return nesting_error(id, text, offset, message);
        }
    };
    let found = found_at(text, offset);
    let end = (offset + found.len().max(1)).min(text.len().max(offset));
    Diagnostic::new(
        id,
        offset..end,
        format!("expected {expected}, found {}", found_text(&found)),
        format!("expected {expected}"),
    )
}

/// The token at `offset`, for messages.
fn found_at(text: &str, offset: usize) -> String {
    let rest = text.get(offset..).unwrap_or("");
    let rest = rest.trim_start_matches([' ', '\t']);
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if !word.is_empty() {
        return word;
    }
    rest.chars().next().map(String::from).unwrap_or_default()
}

fn found_text(found: &str) -> String {
    match found {
        "" => "the end of the file".to_string(),
        "\n" | "\r" => "the end of the line".to_string(),
        other => format!("`{other}`"),
    }
}

/// Rule names in words.
fn describe(rules: &[Rule]) -> String {
    let mut words: Vec<&str> = rules.iter().map(|r| rule_words(*r)).collect();
    words.sort_unstable();
    words.dedup();
    match words.as_slice() {
        [] => "something else".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn rule_words(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end of the file",
        Rule::file
        | Rule::import
        | Rule::extern_type
        | Rule::extern_fn
        | Rule::function
        | Rule::lattice
        | Rule::product
        | Rule::meet_ext
        | Rule::transfer
        | Rule::analysis => {
            "a declaration (`lattice`, `product`, `meet_ext`, `transfer`, `analysis`, `fn`, `type`, `extern`, `import`)"
        }
        Rule::ident => "a name",
        Rule::int => "an integer",
        Rule::string => "a string",
        Rule::ty | Rule::named_ty | Rule::tuple_ty => "a type",
        Rule::ty_arg => "a type or an integer",
        Rule::params | Rule::param => "a parameter `name: Type`",
        Rule::flat_body | Rule::finite_body | Rule::sum_body | Rule::struct_body | Rule::smash => {
            "a lattice body (`= flat(T);`, `= finite { … }`, `= sum { … }` or `{ fields }`)"
        }
        Rule::chain => "an order such as `A < B`",
        Rule::summand => "a variant",
        Rule::field => "a field `name: Type`",
        Rule::overrides => "`with { … }`",
        Rule::override_def => "an operation such as `join(a, b) = …;`",
        Rule::reduce_opt | Rule::direct_opt => "`reduce`, `direct` or `{`",
        Rule::policy | Rule::never | Rule::once | Rule::fixpoint => {
            "a policy (`never`, `once`, `fixpoint` or `fixpoint(K)`)"
        }
        Rule::component => "a component `name: Type`",
        Rule::uses => "`uses`",
        Rule::relation | Rule::relation_kw | Rule::packs_kw => "`relation(packs = K)`",
        Rule::trigger
        | Rule::literal_t
        | Rule::address_t
        | Rule::any_t
        | Rule::assume_t
        | Rule::op_t => {
            "a trigger (`\"+\"`, `any`, `literal`, `address`, `assume \"<\"` or `assume any`)"
        }
        Rule::analysis_entry => "a setting such as `direction forward;`",
        Rule::setting | Rule::word | Rule::neg_int => "a value",
        Rule::expr
        | Rule::let_expr
        | Rule::if_expr
        | Rule::match_expr
        | Rule::or_expr
        | Rule::and_expr
        | Rule::cmp_expr
        | Rule::bitor_expr
        | Rule::bitxor_expr
        | Rule::bitand_expr
        | Rule::shift_expr
        | Rule::add_expr
        | Rule::mul_expr
        | Rule::unary
        | Rule::postfix
        | Rule::primary
        | Rule::paren
        | Rule::call
        | Rule::path
        | Rule::bool_lit => "an expression",
        Rule::block => "`{`",
        Rule::arm => "a match arm `pattern => expression`",
        Rule::pattern
        | Rule::wildcard
        | Rule::int_pattern
        | Rule::path_pattern
        | Rule::tuple_pattern => "a pattern",
        Rule::binder => "a name or `_`",
        Rule::recursion | Rule::recursion_kw => "`recursion N`",
        Rule::struct_lit => "a struct literal `Name { field: value, … }`",
        Rule::field_init => "`field: value`",
        Rule::let_tuple => "`(a, b, …)`",
        Rule::field_access => "`.field`",
        Rule::tuple_index => "a tuple position (`.0`, `.1`, …)",
        Rule::or_op
        | Rule::and_op
        | Rule::cmp_op
        | Rule::bitor_op
        | Rule::bitxor_op
        | Rule::bitand_op
        | Rule::shift_op
        | Rule::add_op
        | Rule::mul_op => "an operator",
        Rule::unary_op => "`-`, `!` or `~`",
        Rule::neg => "`-`",
        Rule::ident_list => "parameter names",
        Rule::semi => "`;`",
        Rule::else_kw => "`else`",
        _ => "a token",
    }
}
