//! The rules the signs products name for explanations (`ValueDomain::rules_*`): for each
//! component, its declared rule and where it is declared (a Rust `file:line` for the attribute
//! form, a `.dom` `file:line:col` for the `.dom` twin), or the built-in function it uses.

use absinthe::program::Op;
use absinthe::value::ValueDomain;
use absinthe_dsl_examples::dom;
use absinthe_dsl_examples::signs::value::{DirectSignals, Signals};
use std::path::Path;

/// The source line a report line names (`… at FILE:LINE` or `… at FILE:LINE:COL`): FILE is
/// relative to the workspace for Rust (`file!()`), to this crate for `.dom` files (as the build
/// script names them).
fn declared_line(rule: &str) -> String {
    let (_, place) = rule.rsplit_once(" at ").expect("a place");
    let mut parts = place.split(':');
    let file = parts.next().expect("a file");
    let line: usize = parts
        .next()
        .expect("a line")
        .parse()
        .expect("a line number");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = [here.join(file), here.join("..").join(file)]
        .into_iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("no file {file}"));
    let text = std::fs::read_to_string(path).expect("readable");
    text.lines()
        .nth(line - 1)
        .expect("the line exists")
        .to_string()
}

/// What a component's report line says after its label.
enum Expect<'a> {
    /// A declared rule: the line names this function and points at a line declaring it.
    Rule(&'a str),
    /// Exactly this text (a built-in function, or no rule).
    Text(&'a str),
}
use Expect::{Rule, Text};

/// Checks `lines`, one per component: each starts with `component `NAME`: ` and goes on as
/// expected.
fn check(lines: &[String], expected: &[(&str, Expect<'_>)]) {
    assert_eq!(lines.len(), expected.len(), "{lines:#?}");
    for (line, (component, rule)) in lines.iter().zip(expected) {
        let rest = line
            .strip_prefix(&format!("component `{component}`: "))
            .unwrap_or_else(|| panic!("{line} is about `{component}`"));
        match rule {
            Rule(function) => {
                assert!(rest.contains(function), "{line} names `{function}`");
                let source = declared_line(line);
                assert!(
                    source.contains(function),
                    "{line} points at a line declaring `{function}`: {source}"
                );
            }
            Text(text) => assert_eq!(rest, *text, "{line}"),
        }
    }
}

#[test]
fn the_attribute_product_names_its_rules_where_they_are_declared() {
    check(
        &Signals::rules_binary(Op::Add),
        &[
            ("sign", Rule("sign_other")),
            ("parity", Rule("parity_add")),
            (
                "interval",
                Text("the built-in transfer function of `Interval`"),
            ),
            (
                "constant",
                Text("the built-in transfer function of `Flat<i64>`"),
            ),
        ],
    );
    assert!(Signals::rules_binary(Op::Add)[1].contains("dsl-examples/src/signs.rs:"));
    check(
        &Signals::rules_binary(Op::Mul),
        &[
            ("sign", Rule("sign_mul")),
            ("parity", Rule("parity_mul")),
            (
                "interval",
                Text("the built-in transfer function of `Interval`"),
            ),
            (
                "constant",
                Text("the built-in transfer function of `Flat<i64>`"),
            ),
        ],
    );
    check(
        &Signals::rules_binary(Op::Xor),
        &[
            ("sign", Rule("sign_other")),
            ("parity", Text("no rule (component `parity` is top)")),
            (
                "interval",
                Text("the built-in transfer function of `Interval`"),
            ),
            (
                "constant",
                Text("the built-in transfer function of `Flat<i64>`"),
            ),
        ],
    );
    check(
        &Signals::rules_constant(),
        &[
            ("sign", Rule("sign_literal")),
            ("parity", Rule("parity_literal")),
            ("interval", Text("the built-in literal rule of `Interval`")),
            ("constant", Text("the built-in literal rule of `Flat<i64>`")),
        ],
    );
    check(
        &Signals::rules_assume(Op::Lt),
        &[
            ("sign", Text("no rule (not refined)")),
            ("parity", Text("no rule (not refined)")),
            (
                "interval",
                Text("the built-in branch refinement of `Interval`"),
            ),
            (
                "constant",
                Text("the built-in branch refinement of `Flat<i64>`"),
            ),
        ],
    );
}

#[test]
fn the_direct_product_names_the_same_rules() {
    for op in Op::ALL {
        assert_eq!(DirectSignals::rules_binary(op), Signals::rules_binary(op));
        assert_eq!(DirectSignals::rules_assume(op), Signals::rules_assume(op));
    }
    assert_eq!(DirectSignals::rules_constant(), Signals::rules_constant());
    assert_eq!(
        dom::signs::DirectSignals::rules_binary(Op::Add),
        dom::signs::Signals::rules_binary(Op::Add)
    );
}

#[test]
fn the_dom_product_names_its_rules_where_they_are_declared() {
    let interval = "the built-in transfer function of `Interval`";
    let constant = "the built-in transfer function of `Flat<i64>`";
    let add = dom::signs::Signals::rules_binary(Op::Add);
    check(
        &add,
        &[
            ("sign", Rule("transfer sign_other")),
            ("parity", Rule("transfer parity_add")),
            ("interval", Text(interval)),
            ("constant", Text(constant)),
        ],
    );
    assert!(add[1].contains("dom/signs.dom:"), "{}", add[1]);
    check(
        &dom::signs::Signals::rules_binary(Op::Mul),
        &[
            ("sign", Rule("transfer sign_mul")),
            ("parity", Rule("transfer parity_mul")),
            ("interval", Text(interval)),
            ("constant", Text(constant)),
        ],
    );
    check(
        &dom::signs::Signals::rules_constant(),
        &[
            ("sign", Rule("transfer sign_literal")),
            ("parity", Rule("transfer parity_literal")),
            ("interval", Text("the built-in literal rule of `Interval`")),
            ("constant", Text("the built-in literal rule of `Flat<i64>`")),
        ],
    );
}

#[test]
fn the_attribute_and_dom_products_name_rules_alike() {
    // The same rules under the two front ends' names for them and their places.
    let shape = |line: &str| {
        line.split(" at ")
            .next()
            .unwrap_or(line)
            .replace("#[transfer] fn ", "transfer ")
    };
    for op in [Op::Add, Op::Sub, Op::Mul, Op::Lt] {
        let attribute: Vec<String> = Signals::rules_binary(op).iter().map(|l| shape(l)).collect();
        let dom: Vec<String> = dom::signs::Signals::rules_binary(op)
            .iter()
            .map(|l| shape(l))
            .collect();
        assert_eq!(attribute, dom, "`{op}`");
    }
}
