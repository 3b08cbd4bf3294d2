//! Tests of the SSA conversion: the result defines every name once, prints and parses back, and
//! runs like the original on random arguments.

use absinthe::program::{FuncId, NameId, Program};
use absinthe_ir::function::Module;
use absinthe_ir::generate::{GenConfig, Rng, random_function};
use absinthe_ir::interp::{Limits, NoObserver, Outcome, run};
use absinthe_ir::ssa::to_ssa;

fn ssa_module(module: &Module) -> Module {
    Module {
        functions: vec![to_ssa(&module.functions[0])],
        fields: module.fields.clone(),
        symbols: module.symbols.clone(),
    }
}

/// The outcome without the place of a trap (the conversion may add an entry block).
fn kind(outcome: Outcome) -> String {
    match outcome {
        Outcome::Trap { reason, .. } => format!("trap {reason:?}"),
        Outcome::ReadUnassigned { .. } => "read unassigned".to_owned(),
        other => format!("{other:?}"),
    }
}

#[test]
fn every_name_is_defined_once_and_the_text_round_trips() {
    for seed in 0..300 {
        let config = GenConfig {
            back_percent: 10 + (seed % 5) as u32 * 15,
            ..GenConfig::default()
        };
        let module = ssa_module(&random_function(seed, &config));
        let function = &module.functions[0];
        assert!(function.is_ssa());
        let mut defined = vec![0u32; function.names.len()];
        for block in function.blocks() {
            for phi in &block.phis {
                defined[phi.dest.index()] += 1;
            }
            for d in block.stmts.iter().filter_map(|s| s.def()) {
                defined[d.index()] += 1;
            }
        }
        for p in &function.params {
            defined[p.index()] += 1;
        }
        let twice: Vec<&str> = (0..defined.len())
            .filter(|&n| defined[n] > 1)
            .map(|n| function.name(NameId::new(n)))
            .collect();
        assert!(
            twice.is_empty(),
            "seed {seed}: {twice:?} defined twice\n{module}"
        );
        let text = absinthe_ir::print_module(&module);
        let parsed = absinthe_ir::parse_module("ssa.air", &text);
        assert!(parsed.is_ok(), "seed {seed}: {parsed:?}\n{text}");
    }
}

#[test]
fn the_ssa_form_runs_like_the_original() {
    let mut rng = Rng::new(3);
    let mut returned = 0;
    for seed in 0..300 {
        let config = GenConfig {
            init_names: true,
            back_percent: 10 + (seed % 5) as u32 * 15,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let ssa = ssa_module(&module);
        let limits = Limits {
            max_steps: 2_000,
            max_depth: 8,
            ..Limits::default()
        };
        for _ in 0..4 {
            let args: Vec<i64> = module.functions[0]
                .params
                .iter()
                .map(|_| rng.literal())
                .collect();
            let a = run(&module, FuncId(0), &args, &limits, &mut NoObserver).outcome;
            let b = run(&ssa, FuncId(0), &args, &limits, &mut NoObserver).outcome;
            if matches!(a, Outcome::OutOfSteps | Outcome::TooDeep) {
                continue;
            }
            returned += u32::from(matches!(a, Outcome::Returned(Some(_))));
            assert_eq!(
                kind(a),
                kind(b),
                "seed {seed}, arguments {args:?}\n{module}\n{ssa}"
            );
        }
    }
    assert!(returned > 100, "only {returned} runs returned a value");
}
