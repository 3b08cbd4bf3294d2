//! A value domain with a relational component (`absinthe_dsl_examples::relational`, the
//! analysis `octagon`): the relation printed beside the values, deciding what intervals cannot,
//! checked against concrete runs by `verify` on the examples and on random functions, and the
//! warning where a run does not keep it.

use absinthe::engine::Limits;
use absinthe::value::ValueDomain;
use absinthe_cli::driver::analyze_function;
use absinthe_cli::verify::{VerifyConfig, verify_function};
use absinthe_dsl_examples::dom;
use absinthe_dsl_examples::relational::value::OctagonRanges;
use absinthe_ir::generate::{GenConfig, random_function};

use crate::common::{absinthe, annotation};

/// A planted mistake: the relation learns a range one too small at the top, and nothing flows
/// back to the range, so only the relation is wrong.
#[absinthe::domain]
mod planted {
    use absinthe::lattice::{Interval, Lattice};
    use absinthe::relational::{Bounds, Octagon};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        #[lattice(value_domain)]
        pub range: Interval,
        #[lattice(relation(packs = 8))]
        pub octagon: Bounds<Octagon>,
    }

    #[absinthe::meet_ext]
    pub fn octagon_from_range_one_short(o: &Bounds<Octagon>, x: &Interval) -> Bounds<Octagon> {
        let short = match x.bounds() {
            Some((lo, hi)) if lo < hi => Interval::new(lo, hi - 1),
            _ => *x,
        };
        Bounds::within(o.bounds().meet(&short))
    }
}

#[test]
fn the_relation_is_printed_beside_the_values() {
    let (code, out, err) = absinthe(&[
        "analyze",
        "ir/test_data/below_n.air",
        "--analysis",
        "octagon",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let body = annotation(&out, "main", "i = i + 1");
    assert!(body.ends_with("| i - n ≤ -1"), "{body}");
    let done = annotation(&out, "main", "ret i");
    assert!(done.ends_with("| n - i ≤ 0, i - n ≤ 0"), "{done}");
    // Intervals alone know no bound of `i` from `n`.
    let (_, out, _) = absinthe(&[
        "analyze",
        "ir/test_data/below_n.air",
        "--analysis",
        "interval",
    ]);
    assert_eq!(
        annotation(&out, "main", "ret i"),
        "n = [0, +∞], i = [0, +∞]"
    );
}

#[test]
fn a_copy_and_an_increment_decide_the_branch() {
    let (code, out, err) = absinthe(&[
        "analyze",
        "ir/test_data/copy_increment.air",
        "--analysis",
        "octagon",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        annotation(&out, "main", "ret 0").starts_with("unreachable"),
        "{out}"
    );
    let (_, out, _) = absinthe(&[
        "analyze",
        "ir/test_data/copy_increment.air",
        "--analysis",
        "interval",
    ]);
    assert!(
        !annotation(&out, "main", "ret 0").starts_with("unreachable"),
        "{out}"
    );
}

#[test]
fn the_json_output_lists_the_relation() {
    let (code, out, err) = absinthe(&[
        "analyze",
        "ir/test_data/below_n.air",
        "--analysis",
        "octagon",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"relation\""), "{out}");
    assert!(out.contains("i - n ≤ -1"), "{out}");
}

/// Every constraint holds on every state concrete runs reach, on the examples, with the
/// attribute product, the same product compiled from `.dom` and interpreted from it.
#[test]
fn verify_finds_every_constraint_holds() {
    for file in [
        "ir/test_data/below_n.air",
        "ir/test_data/copy_increment.air",
    ] {
        for analysis in [
            &["--analysis", "octagon"][..],
            &["--analysis", "octagon-dom"],
            &["--dom", "dsl-examples/dom/octagon.dom"],
        ] {
            let mut args = vec!["verify", file, "--runs", "50"];
            args.extend(analysis);
            let (code, out, err) = absinthe(&args);
            assert_eq!(code, 0, "{file} {analysis:?}: {out}{err}");
            assert!(
                out.ends_with(": 0 violations\n"),
                "{file} {analysis:?}: {out}"
            );
        }
    }
}

/// Every constraint of `D`'s relation, and every value, holds on every state concrete runs
/// reach on 1,000 random functions (4 runs each); returns how many points hold relations
/// between names.
fn holds_on_random_functions<D: ValueDomain>() -> usize {
    let config = VerifyConfig {
        runs: 4,
        ..VerifyConfig::default()
    };
    let mut relations = 0;
    for seed in 0..1000 {
        let module = random_function(
            seed,
            &GenConfig {
                back_percent: 10 + (seed % 5) as u32 * 15,
                ..GenConfig::default()
            },
        );
        let result = analyze_function::<D>(&module.functions[0], true, &Limits::default());
        relations += result
            .relations
            .iter()
            .flatten()
            .filter(|r| r.len() > 2)
            .count();
        let report = verify_function(&module, absinthe::program::FuncId(0), &result, &config);
        assert!(
            report.violations.is_empty(),
            "seed {seed}: {:?}\n{module}",
            report.violations
        );
    }
    relations
}

#[test]
fn the_attribute_product_holds_on_random_functions() {
    let relations = holds_on_random_functions::<OctagonRanges>();
    assert!(relations > 100, "only {relations} points hold relations");
}

#[test]
fn the_dom_product_holds_on_random_functions() {
    let relations = holds_on_random_functions::<dom::octagon::OctagonRanges>();
    assert!(relations > 100, "only {relations} points hold relations");
}

/// `verify` finds the bound a wrong reduction gave the relational component, and blames that
/// reduction at its line: the component is checked as every component is.
#[test]
fn verify_blames_a_wrong_reduction_into_the_relation() {
    let module = absinthe_ir::air::parse_module(
        "test.air",
        "fn main(p) {
bb0:
    x = p & 7
    y = x
    ret y
}",
    )
    .expect("parses");
    let result = analyze_function::<planted::Value>(&module.functions[0], true, &Limits::default());
    let report = verify_function(
        &module,
        absinthe::program::FuncId(0),
        &result,
        &VerifyConfig::default(),
    );
    let violation = report
        .violations
        .first()
        .expect("the planted mistake is found");
    let text = violation.to_string();
    assert!(
        text.contains("x = 7 is not in {range: [0, 7], octagon: [0, 6]}"),
        "{text}"
    );
    assert!(text.contains("produced by `x = p & 7`"), "{text}");
    assert!(
        text.contains(
            "rule reduction into component `octagon`: \
             `#[meet_ext] fn octagon_from_range_one_short` at cli/tests/relational.rs:"
        ),
        "{text}"
    );
}

#[test]
fn a_run_that_keeps_no_relation_says_so() {
    let (code, _, err) = absinthe(&["analyze", "ir/test_data/calls.air", "--analysis", "octagon"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("is not kept in interprocedural analysis"),
        "{err}"
    );
    let (_, _, err) = absinthe(&[
        "analyze",
        "ir/test_data/calls.air",
        "--analysis",
        "octagon",
        "--context",
        "intra",
    ]);
    assert!(err.is_empty(), "{err}");
}

/// `--state` other than dense is overridden by the relational component, and both the note and
/// the `# ran:` line say so (the results are the dense ones).
#[test]
fn a_state_flag_overridden_by_the_relation_says_so() {
    let (code, dense, _) = absinthe(&[
        "analyze",
        "ir/test_data/below_n.air",
        "--analysis",
        "octagon",
    ]);
    assert_eq!(code, 0);
    for state in ["ssa", "sparse"] {
        let (code, out, err) = absinthe(&[
            "analyze",
            "ir/test_data/below_n.air",
            "--analysis",
            "octagon",
            "--state",
            state,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains(&format!("note: `--state {state}` is overridden")),
            "{err}"
        );
        assert!(
            out.contains(&format!(
                "state dense (the relational component keeps dense states; --state says {state})"
            )),
            "{out}"
        );
        let body = |text: &str| text.lines().skip(2).collect::<Vec<_>>().join("\n");
        assert_eq!(body(&out), body(&dense));
    }
}
