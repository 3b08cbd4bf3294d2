//! `verify` blames a planted bug at the line that wrote the wrong value, not only at the rule's
//! first line: in a transfer rule, a reduction and a branch refinement, each a body of several
//! branches, inside the one expression of a rule, and a comparison that makes a branch taken
//! infeasible (`domc/test_data/codegen/ok/planted_lines.dom`); and a written-out join that is no
//! upper bound (`planted_join.dom`). Compiled (the generated code the compiler's corpus expects,
//! as `dom_interp.rs` includes it) and interpreted (`absinthe verify --dom`) alike.

use crate::common::absinthe;
use absinthe::engine::Limits;
use absinthe_cli::verify::{VerifyConfig, verify_module};

use crate::dom_interp::corpus;

const FILE: &str = "domc/test_data/codegen/ok/planted_lines.dom";

/// The five programs, each meeting one bug, and the line (and column) of the wrong value: for
/// the fourth, the innermost sub-expression of the rule's one value that loses the concrete one;
/// for the last, the comparison whose value made a branch that is taken infeasible.
const CASES: [(&str, &str, &str); 5] = [
    (
        "sum",
        "fn main() {\nbb0:\n    i = 2\n    j = i + 3\n    ret j\n}\n",
        "`transfer planted_add` at {FILE}:16:1, its value written at {FILE}:21:13",
    ),
    (
        "seven",
        "fn main() {\nbb0:\n    x = 7\n    ret x\n}\n",
        "`meet_ext range_from_constant` at {FILE}:29:1, its value written at {FILE}:32:13",
    ),
    (
        "branch",
        "fn main() {\nbb0:\n    x = 5\n    br x < 10, small, large\nsmall:\n    ret x\nlarge:\n    ret x\n}\n",
        "`transfer planted_less` at {FILE}:39:1, its value written at {FILE}:41:9",
    ),
    (
        "product",
        "fn main() {\nbb0:\n    x = 3\n    y = x * 4\n    ret y\n}\n",
        "`transfer planted_mul` at {FILE}:48:1, its value written at {FILE}:49:53",
    ),
    (
        "feasibility",
        "fn main() {\nbb0:\n    x = 6\n    br x < 10, small, large\nsmall:\n    ret x\nlarge:\n    ret x\n}\n",
        "`transfer planted_lt` at {FILE}:52:1, its value written at {FILE}:53:33 (its value for `<` says the edge cannot be taken)",
    ),
];

#[test]
fn compiled_and_interpreted_blame_the_line_of_the_wrong_value() {
    let dir = crate::common::scratch("blame-lines");
    for (name, program, want) in CASES {
        let want = want.replace("{FILE}", FILE);
        // Compiled: the generated code names places as the corpus test compiled it (relative
        // to `domc/`).
        let module = absinthe_ir::air::parse_module("planted.air", program).expect("parses");
        let config = VerifyConfig {
            runs: 5,
            ..VerifyConfig::default()
        };
        let report = verify_module::<corpus::planted_lines::Planted>(
            &module,
            true,
            &Limits::default(),
            &config,
        );
        let first = report
            .violations
            .first()
            .expect("verify finds the planted bug");
        let compiled = first.rule().expect("a rule is named").to_string();
        let compiled_want = want.replace("domc/test_data", "test_data");
        assert!(
            compiled.ends_with(&compiled_want),
            "{name}, compiled: {compiled}"
        );

        // Interpreted, from the command line.
        let path = dir.join(format!("{name}.air"));
        std::fs::write(&path, program).expect("write");
        let (code, out, err) = absinthe(&[
            "verify",
            &path.display().to_string(),
            "--dom",
            FILE,
            "--runs",
            "5",
        ]);
        assert_eq!(code, 1, "{name}: verify fails on the bug: {out}{err}");
        assert!(out.contains(&want), "{name}, interpreted: {out}");
    }
}

/// A join that is no upper bound is blamed, at the head of the block where it lost the value,
/// on the component's written-out `join` and its place, compiled and interpreted alike.
#[test]
fn compiled_and_interpreted_blame_a_join_at_its_place() {
    const JOIN: &str = "domc/test_data/codegen/ok/planted_join.dom";
    let program = "fn main(p) {\nbb0:\n    br p, a, b\na:\n    x = 1\n    goto j\nb:\n    x = 5\n    goto j\nj:\n    ret x\n}\n";
    let want = format!(
        "component `bounds`: `join` of `Bounds`, written out at {JOIN}:9:5, is not above what it \
         joins"
    );
    let module = absinthe_ir::air::parse_module("join.air", program).expect("parses");
    let config = VerifyConfig {
        runs: 20,
        ..VerifyConfig::default()
    };
    let report =
        verify_module::<corpus::planted_join::Joined>(&module, true, &Limits::default(), &config);
    let first = report
        .violations
        .first()
        .expect("verify finds the planted join");
    let compiled = first.rule().expect("the join is named").to_string();
    assert_eq!(compiled, want.replace("domc/test_data", "test_data"));

    let dir = crate::common::scratch("blame-join");
    let path = dir.join("join.air");
    std::fs::write(&path, program).expect("write");
    let (code, out, err) = absinthe(&[
        "verify",
        &path.display().to_string(),
        "--dom",
        JOIN,
        "--runs",
        "20",
    ]);
    assert_eq!(code, 1, "verify fails on the join: {out}{err}");
    assert!(
        out.contains(&format!(
            "lost by the join at the head of j (the edge a -> j carried it), {want}"
        )),
        "interpreted: {out}"
    );
    assert!(out.contains("along the edge: x = {lo: 1, hi: 1}"), "{out}");
}
