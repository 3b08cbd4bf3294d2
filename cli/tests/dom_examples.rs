//! The `.dom` examples against their hand-written and `#[lattice]` counterparts: on the same
//! random programs they give the same value at every program point.

use absinthe::engine::Limits;
use absinthe::lattice::Flat;
use absinthe::program::NameId;
use absinthe::value::{Env, ValueDomain};
use absinthe_cli::driver::{Strategy, ToyAnalysis, analyze_function, analyze_toy};
use absinthe_dsl_examples::dom::const_prop::ConstValue;
use absinthe_ir::generate::{GenConfig, ToyGenConfig, random_function, random_toy};

const PROGRAMS: u64 = 1000;

/// A value as the three facts constant propagation reports: bottom, top, or one constant.
fn summary<D: ValueDomain>(value: &D) -> String {
    if value.is_bottom() {
        "⊥".into()
    } else if value.is_top() {
        "⊤".into()
    } else {
        match value.as_constant() {
            Some(c) => c.to_string(),
            None => value.to_string(),
        }
    }
}

/// How values are compared: constant propagation by its three facts, products by their full
/// printed value.
type Show<D> = fn(&D) -> String;

fn env_summary<D: ValueDomain>(env: &Env<D>, names: usize, show: Show<D>) -> Vec<String> {
    if !env.is_reachable() {
        return vec!["unreachable".into()];
    }
    (0..names).map(|n| show(&env.get(NameId::new(n)))).collect()
}

fn full<D: ValueDomain>(value: &D) -> String {
    value.to_string()
}

fn toy_config(seed: u64) -> ToyGenConfig {
    ToyGenConfig {
        instrs: 4 + (seed % 23) as usize,
        names: 2 + (seed % 4) as usize,
        jump_percent: 15 + (seed % 4) as u32 * 10,
        init_names: seed % 3 != 0,
    }
}

fn same_on_toy<A: ValueDomain, B: ValueDomain>(
    conditional: bool,
    what: &str,
    show_a: Show<A>,
    show_b: Show<B>,
) -> u64 {
    let mut compared = 0;
    for seed in 0..PROGRAMS {
        let program = random_toy(seed, &toy_config(seed));
        let a: ToyAnalysis<A> = analyze_toy(
            &program,
            conditional,
            Strategy::Worklist,
            &Limits::default(),
        );
        let b: ToyAnalysis<B> = analyze_toy(
            &program,
            conditional,
            Strategy::Worklist,
            &Limits::default(),
        );
        assert!(
            a.stop.is_stable() && b.stop.is_stable(),
            "{what}, seed {seed}"
        );
        let names = program.names.len();
        for (pc, (x, y)) in a
            .points
            .iter()
            .chain([&a.exit])
            .zip(b.points.iter().chain([&b.exit]))
            .enumerate()
        {
            assert_eq!(
                env_summary(x, names, show_a),
                env_summary(y, names, show_b),
                "{what}, seed {seed}, pc {pc}\n{program}"
            );
            compared += 1;
        }
    }
    compared
}

fn same_on_air<A: ValueDomain, B: ValueDomain>(
    conditional: bool,
    what: &str,
    show_a: Show<A>,
    show_b: Show<B>,
) -> u64 {
    let mut compared = 0;
    for seed in 0..PROGRAMS {
        let config = GenConfig {
            blocks: 2 + (seed % 9) as usize,
            max_stmts: 1 + (seed % 5) as usize,
            names: 2 + (seed % 5) as usize,
            init_names: seed % 4 != 0,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let main = &module.functions[0];
        let a = analyze_function::<A>(main, conditional, &Limits::default());
        let b = analyze_function::<B>(main, conditional, &Limits::default());
        for (x, y) in a.points.iter().flatten().zip(b.points.iter().flatten()) {
            assert_eq!(
                env_summary(x, main.names.len(), show_a),
                env_summary(y, main.names.len(), show_b),
                "{what}, seed {seed}\n{module}"
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn dom_constant_propagation_equals_the_foundations_const() {
    let points = same_on_toy::<ConstValue, Flat<i64>>(false, "const", summary, summary);
    let blocks = same_on_air::<ConstValue, Flat<i64>>(false, "const", summary, summary);
    eprintln!("const: {points} toy points and {blocks} core-IR points identical");
}

#[test]
fn dom_conditional_constant_propagation_equals_the_foundations_sccp() {
    let points = same_on_toy::<ConstValue, Flat<i64>>(true, "sccp", summary, summary);
    let blocks = same_on_air::<ConstValue, Flat<i64>>(true, "sccp", summary, summary);
    eprintln!("sccp: {points} toy points and {blocks} core-IR points identical");
}

#[test]
fn dom_signs_product_equals_the_attribute_one() {
    use absinthe_dsl_examples::dom::signs as dom;
    use absinthe_dsl_examples::signs::value as attr;
    let points = same_on_toy::<dom::Signals, attr::Signals>(true, "signs", full, full);
    let blocks = same_on_air::<dom::Signals, attr::Signals>(true, "signs", full, full);
    let direct_points =
        same_on_toy::<dom::DirectSignals, attr::DirectSignals>(true, "signs-direct", full, full);
    let direct_blocks =
        same_on_air::<dom::DirectSignals, attr::DirectSignals>(true, "signs-direct", full, full);
    eprintln!(
        "signs: {points} toy and {blocks} core-IR points identical; direct: {direct_points} and {direct_blocks}"
    );
}

#[test]
fn dom_finite_disjunction_equals_the_attribute_one() {
    use absinthe_dsl_examples::disjunctive::value as attr;
    use absinthe_dsl_examples::dom::disjunctive as dom;
    let points =
        same_on_toy::<dom::Disjunctive, attr::Disjunctive>(true, "disjunctive", full, full);
    let blocks =
        same_on_air::<dom::Disjunctive, attr::Disjunctive>(true, "disjunctive", full, full);
    eprintln!("disjunctive: {points} toy and {blocks} core-IR points identical");
}

/// The seed's Const × Interval product in `.dom` has no `#[lattice]` twin with the same
/// intervals (the attribute version declares its own bounds), so it is checked for soundness
/// against concrete runs instead, on 500 random core-IR functions, and on prog0.
#[test]
fn dom_seed_product_is_sound_and_finds_prog0s_constants() {
    use absinthe_cli::verify::verify_random_shapes;
    use absinthe_dsl_examples::dom::seed::SeedValue;
    let values = verify_random_shapes::<SeedValue>(500, 4, true, &Limits::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .values_checked;
    eprintln!("seed.dom: {values} concrete values checked, no violation");
    let program = absinthe_ir::toy::prog0();
    let result: ToyAnalysis<SeedValue> =
        analyze_toy(&program, true, Strategy::Worklist, &Limits::default());
    let r = program.names.iter().position(|n| n == "r").expect("r");
    assert_eq!(
        result.points[8].get(NameId::new(r)).to_string(),
        "{constant: 5, interval: [5, 5]}"
    );
}

#[test]
fn dom_intervals_equal_the_foundations_interval() {
    use absinthe::lattice::Interval;
    use absinthe_dsl_examples::dom::interval::Range;
    fn interval_of(r: &Range) -> String {
        r.interval.to_string()
    }
    fn itself(i: &Interval) -> String {
        i.to_string()
    }
    let points = same_on_toy::<Range, Interval>(true, "interval", interval_of, itself);
    let blocks = same_on_air::<Range, Interval>(true, "interval", interval_of, itself);
    eprintln!("interval: {points} toy and {blocks} core-IR points identical");
}

/// `sccp_ranges.dom` (what the comparison with LLVM's SCCP measures) is sound against concrete
/// runs on 500 random core-IR functions (taking addresses of symbols too), with dense and sparse
/// states alike.
#[test]
fn dom_sccp_ranges_is_sound() {
    use absinthe::value::StateRepr;
    use absinthe_cli::verify::{VerifyConfig, verify_module};
    use absinthe_dsl_examples::dom::sccp_ranges::{SccpRange, SccpRangesAnalysis};
    let limits = <SccpRangesAnalysis as absinthe::value::DeclaredAnalysis>::limits();
    let mut values = 0;
    for seed in 0..500 {
        let config = GenConfig {
            blocks: 2 + (seed % 9) as usize,
            max_stmts: 1 + (seed % 5) as usize,
            names: 2 + (seed % 5) as usize,
            init_names: seed % 4 != 0,
            // Addresses of zero to two symbols: the pointer rules meet integers.
            symbols: (seed % 3) as usize,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        for state in [StateRepr::Dense, StateRepr::Sparse] {
            let verify = VerifyConfig {
                runs: 4,
                seed,
                state,
                ..VerifyConfig::default()
            };
            let report = verify_module::<SccpRange>(&module, true, &limits, &verify);
            assert!(
                report.violations.is_empty(),
                "seed {seed}, {state}: {:?}",
                report.violations
            );
            values += report.values_checked;
        }
    }
    eprintln!("sccp_ranges.dom: {values} concrete values checked, no violation");
}

/// `congruence.dom` on the loop that counts by 4 (the book's `.dom` tutorial): interpreted and
/// compiled alike, `i` leaves the loop exactly 100, where intervals alone give [100, 103]; and
/// the compiled product is sound against concrete runs of 300 random core-IR functions with
/// products and differences (its rules for `*` and `-` included).
#[test]
fn dom_congruences_pin_the_loop_exit_and_are_sound() {
    use absinthe::value::StateRepr;
    use absinthe_cli::verify::{VerifyConfig, verify_module};
    use absinthe_dsl_examples::dom::congruence::{CongRange, CongRangeAnalysis};
    let program = "ir/test_data/count_by4.air";
    let (code, out, err) = crate::common::absinthe(&[
        "analyze",
        program,
        "--dom",
        "dsl-examples/dom/congruence.dom",
    ]);
    assert_eq!(code, 0, "{err}");
    let exit = crate::common::annotation(&out, "main", "ret i");
    assert_eq!(
        exit, "i = {cong: {m: 0, r: 100}, range: [100, 100]}",
        "{out}"
    );
    let (_, intervals, _) =
        crate::common::absinthe(&["analyze", program, "--analysis", "interval"]);
    assert_eq!(
        crate::common::annotation(&intervals, "main", "ret i"),
        "i = [100, 103]"
    );

    let limits = <CongRangeAnalysis as absinthe::value::DeclaredAnalysis>::limits();
    let mut values = 0;
    for seed in 0..300 {
        let config = GenConfig {
            blocks: 2 + (seed % 7) as usize,
            max_stmts: 1 + (seed % 5) as usize,
            names: 2 + (seed % 4) as usize,
            init_names: seed % 4 != 0,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let verify = VerifyConfig {
            runs: 4,
            seed,
            state: StateRepr::Dense,
            ..VerifyConfig::default()
        };
        let report = verify_module::<CongRange>(&module, true, &limits, &verify);
        assert!(
            report.violations.is_empty(),
            "seed {seed}: {:?}",
            report.violations
        );
        values += report.values_checked;
    }
    eprintln!("congruence.dom: {values} concrete values checked, no violation");
}
