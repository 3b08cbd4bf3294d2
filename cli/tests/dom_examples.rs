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

fn env_summary<D: ValueDomain>(env: &Env<D>, names: usize) -> Vec<String> {
    if !env.is_reachable() {
        return vec!["unreachable".into()];
    }
    (0..names)
        .map(|n| summary(&env.get(NameId::new(n))))
        .collect()
}

fn toy_config(seed: u64) -> ToyGenConfig {
    ToyGenConfig {
        instrs: 4 + (seed % 23) as usize,
        names: 2 + (seed % 4) as usize,
        jump_percent: 15 + (seed % 4) as u32 * 10,
        init_names: seed % 3 != 0,
    }
}

fn same_on_toy<A: ValueDomain, B: ValueDomain>(conditional: bool, what: &str) -> u64 {
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
                env_summary(x, names),
                env_summary(y, names),
                "{what}, seed {seed}, pc {pc}\n{program}"
            );
            compared += 1;
        }
    }
    compared
}

fn same_on_air<A: ValueDomain, B: ValueDomain>(conditional: bool, what: &str) -> u64 {
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
                env_summary(x, main.names.len()),
                env_summary(y, main.names.len()),
                "{what}, seed {seed}\n{module}"
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn dom_constant_propagation_equals_the_foundations_const() {
    let points = same_on_toy::<ConstValue, Flat<i64>>(false, "const");
    let blocks = same_on_air::<ConstValue, Flat<i64>>(false, "const");
    eprintln!("const: {points} toy points and {blocks} core-IR points identical");
}

#[test]
fn dom_conditional_constant_propagation_equals_the_foundations_sccp() {
    let points = same_on_toy::<ConstValue, Flat<i64>>(true, "sccp");
    let blocks = same_on_air::<ConstValue, Flat<i64>>(true, "sccp");
    eprintln!("sccp: {points} toy points and {blocks} core-IR points identical");
}
