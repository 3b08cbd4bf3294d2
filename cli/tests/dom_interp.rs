//! The interpreter of `.dom` files against the code generated from the same files: every product
//! of every example in `dsl-examples/dom/` and of the compiler's accepted test corpus, on random
//! toy programs and core-IR functions (and random kernel terms for the analyses that run on
//! them), gives the same value, printed, at every point. The compiled side is the examples as
//! `absinthe-dsl-examples` compiles them, the corpus's generated files as the compiler's own
//! tests expect them (`domc/test_data/codegen/ok/*.rs`, included below), and the other accepted
//! files of the compiler's corpora as `include_dom!` compiles them. Both also name the
//! same declared rules for every operation (`ValueDomain::rules_*`).

use absinthe::engine::Limits;
use absinthe::program::NameId;
use absinthe::value::{Env, ValueDomain};
use absinthe_behavior::{BehaviorGraph, DomainTask};
use absinthe_cli::driver::{Strategy, ToyAnalysis, analyze_function, analyze_toy};
use absinthe_cli::kernel::task_lines;
use absinthe_dom_interp::{DynValue, Interp, Running};
use absinthe_dsl_examples::dom;
use absinthe_ir::generate::{GenConfig, ToyGenConfig, random_function, random_toy};
use absinthe_ir::kernel::{KernelGenConfig, random_terms};
use std::sync::Arc;

use crate::common;
use common::workspace;

/// The compiler's corpus, compiled as its tests expect it.
#[allow(unreachable_pub, clippy::all, dead_code)]
pub(crate) mod corpus {
    include!("../../domc/test_data/codegen/ok/backward.rs");
    include!("../../domc/test_data/codegen/ok/const_prop.rs");
    include!("../../domc/test_data/codegen/ok/finite_sum_names.rs");
    include!("../../domc/test_data/codegen/ok/kernel_rules.rs");
    include!("../../domc/test_data/codegen/ok/normalize.rs");
    include!("../../domc/test_data/codegen/ok/numeric_builtins.rs");
    include!("../../domc/test_data/codegen/ok/planted_join.rs");
    include!("../../domc/test_data/codegen/ok/planted_lines.rs");
    include!("../../domc/test_data/codegen/ok/recursion.rs");
    include!("../../domc/test_data/codegen/ok/relation.rs");
    include!("../../domc/test_data/codegen/ok/known_bits.rs");
    include!("../../domc/test_data/codegen/ok/traps_eval.rs");
    include!("../../domc/test_data/codegen/ok/tuple_match.rs");
    include!("../../domc/test_data/codegen/ok/tuples.rs");
    include!("../../domc/test_data/codegen/ok/widen_thresholds.rs");
    include!("../../domc/test_data/codegen/ok/wrong_reduction.rs");
}

/// The other accepted files of the repository (the compiler's checker and parser corpora, the
/// macro tests' and the browser tests' files), compiled as a crate compiles them. (`sema/ok/extern_fn.dom` is left out: only Rust can provide its
/// `extern fn`, and the interpreter refuses it.)
#[allow(unreachable_pub, clippy::all, dead_code)]
mod accepted {
    absinthe::include_dom!("../domc/test_data/sema/ok/analysis_context.dom");
    absinthe::include_dom!("../domc/test_data/sema/ok/imports.dom");
    absinthe::include_dom!("../domc/test_data/parse/ok/optional_semicolons.dom");
    absinthe::include_dom!("../ui-tests/tests/ui/dom/parity.dom");
    absinthe::include_dom!("../browser-tests/data/wrong_parity.dom");
}

/// Random programs per product and program kind.
const PROGRAMS: u64 = 500;

fn load(file: &str) -> Arc<Interp> {
    let path = workspace().join(file);
    let checked = absinthe_domc::check_file(&path).unwrap_or_else(|f| panic!("{f}"));
    Arc::new(Interp::new(&checked).unwrap_or_else(|f| panic!("{f}")))
}

fn shown<D: ValueDomain>(env: &Env<D>, names: usize) -> Vec<String> {
    if !env.is_reachable() {
        return vec!["unreachable".into()];
    }
    (0..names)
        .map(|n| env.get(NameId::new(n)).to_string())
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

/// Compiled `D` and the interpreted product `product` of `file`: the same at every point of
/// random toy programs and core-IR functions, with and without branch conditions. Returns the
/// points compared.
fn same_on_flow_programs<D: ValueDomain>(file: &str, product: &str) -> u64 {
    let interp = load(file);
    let _running = Running::enter_domain(interp, product)
        .unwrap_or_else(|| panic!("{file} has no `{product}`"));
    let mut compared = 0;
    let limits = Limits::default();
    for seed in 0..PROGRAMS {
        let conditional = seed % 2 == 0;
        let program = random_toy(seed, &toy_config(seed));
        let a: ToyAnalysis<D> = analyze_toy(&program, conditional, Strategy::Worklist, &limits);
        let b: ToyAnalysis<DynValue> =
            analyze_toy(&program, conditional, Strategy::Worklist, &limits);
        assert_eq!(a.work, b.work, "{file} {product}: toy seed {seed}");
        let names = program.names.len();
        for (pc, (x, y)) in a
            .points
            .iter()
            .chain([&a.exit])
            .zip(b.points.iter().chain([&b.exit]))
            .enumerate()
        {
            assert_eq!(
                shown(x, names),
                shown(y, names),
                "{file} {product}: toy seed {seed}, conditions {conditional}, pc {pc}\n{program}"
            );
            compared += 1;
        }

        let config = GenConfig {
            blocks: 2 + (seed % 9) as usize,
            max_stmts: 1 + (seed % 5) as usize,
            names: 2 + (seed % 5) as usize,
            init_names: seed % 4 != 0,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let main = &module.functions[0];
        let a = analyze_function::<D>(main, conditional, &limits);
        let b = analyze_function::<DynValue>(main, conditional, &limits);
        // A product with a relational component: the same relation at every point.
        assert_eq!(
            a.relations, b.relations,
            "{file} {product}: core-IR seed {seed}, conditions {conditional}, relations\n{module}"
        );
        compared += a.relations.iter().flatten().flatten().count() as u64;
        for (x, y) in a.points.iter().flatten().zip(b.points.iter().flatten()) {
            assert_eq!(
                shown(x, main.names.len()),
                shown(y, main.names.len()),
                "{file} {product}: core-IR seed {seed}, conditions {conditional}\n{module}"
            );
            compared += 1;
        }
    }
    compared
}

/// Compiled `D` and the interpreted product on random kernel terms through the behavior graph:
/// the same value for every flow. Returns the flows compared.
fn same_on_kernel_terms<D: ValueDomain>(file: &str, product: &str) -> u64 {
    let interp = load(file);
    let _running = Running::enter_domain(interp, product)
        .unwrap_or_else(|| panic!("{file} has no `{product}`"));
    let mut compared = 0;
    for seed in 0..PROGRAMS {
        let config = KernelGenConfig {
            functions: (seed % 4) as usize,
            depth: 3 + (seed % 3) as usize,
            ..KernelGenConfig::default()
        };
        let (text, terms) = random_terms(seed, &config);
        let graph = BehaviorGraph::build(&terms);
        let a = task_lines(&terms, &graph, &DomainTask::<D>::new());
        let b = task_lines(&terms, &graph, &DomainTask::<DynValue>::new());
        assert_eq!(a, b, "{file} {product}: kernel seed {seed}\n{text}");
        compared += a.len() as u64;
    }
    compared
}

/// A deterministic generator (xorshift64*), so that a failure names the seed that shows it.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Literals near the edges where rules and reductions differ.
const LITERALS: [i64; 12] = [0, 1, -1, 2, 3, 7, -8, 255, 256, 1 << 40, i64::MIN, i64::MAX];

/// Compiled `D` and the interpreted product on random sequences of the value domain's
/// operations (literals, every operation, branch refinement, join, meet, widening, narrowing):
/// after each step the values print the same, and order, extremes, constants and membership
/// agree. Reductions run after every transfer, so this reaches them more often than programs
/// do. Returns the steps compared.
fn same_on_operations<D: ValueDomain>(file: &str, product: &str) -> u64 {
    use absinthe::lattice::{Lattice, Top};
    use absinthe::program::Op;
    use absinthe::value::Concrete;
    let interp = load(file);
    let _running = Running::enter_domain(interp, product)
        .unwrap_or_else(|| panic!("{file} has no `{product}`"));
    assert_eq!(
        DynValue::has_finite_height(),
        D::FINITE_HEIGHT,
        "{file} {product}: finite height"
    );
    let mut steps = 0;
    for seed in 1..=PROGRAMS {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut a: Vec<D> = Vec::new();
        let mut b: Vec<DynValue> = Vec::new();
        for c in LITERALS.iter().take(4) {
            a.push(D::constant(*c));
            b.push(DynValue::constant(*c));
        }
        for step in 0..40 {
            let (i, j) = (rng.below(a.len()), rng.below(a.len()));
            let op = Op::ALL[rng.below(Op::ALL.len())];
            let what = rng.below(10);
            let (x, y): (D, DynValue) = match what {
                0 => {
                    let c = LITERALS[rng.below(LITERALS.len())];
                    (D::constant(c), DynValue::constant(c))
                }
                1 | 2 => (
                    D::binary(op, &a[i], &a[j]),
                    DynValue::binary(op, &b[i], &b[j]),
                ),
                3 if op.is_comparison() => {
                    let (p, _) = D::assume(op, &a[i], &a[j]);
                    let (q, _) = DynValue::assume(op, &b[i], &b[j]);
                    (p, q)
                }
                3 => (a[i].join(&a[j]), b[i].join(&b[j])),
                4 => (a[i].meet(&a[j]), b[i].meet(&b[j])),
                5 => (a[i].widen(&a[j]), b[i].widen(&b[j])),
                6 => (a[i].narrow(&a[j]), b[i].narrow(&b[j])),
                // The backward rules (top for a product without any).
                7 => (
                    D::demand_binary(op, &a[i]),
                    DynValue::demand_binary(op, &b[i]),
                ),
                8 if op.is_comparison() => (D::observed(), DynValue::observed()),
                8 => (D::demand_copy(&a[i]), DynValue::demand_copy(&b[i])),
                _ => (D::top(), DynValue::top()),
            };
            let context = || {
                format!(
                    "{file} {product}: seed {seed}, step {step} (kind {what}, {op:?}) on {} and {}",
                    a[i], a[j]
                )
            };
            assert_eq!(x.to_string(), y.to_string(), "{}", context());
            assert_eq!(x.is_bottom(), y.is_bottom(), "{}", context());
            assert_eq!(x.is_top(), y.is_top(), "{}", context());
            assert_eq!(x.as_constant(), y.as_constant(), "{}", context());
            assert_eq!(x.leq(&a[i]), y.leq(&b[i]), "{}", context());
            assert_eq!(a[i].leq(&x), b[i].leq(&y), "{}", context());
            assert_eq!(x == a[j], y == b[j], "{}", context());
            for c in LITERALS {
                assert_eq!(x.contains(c), y.contains(c), "{} contains {c}", context());
            }
            a.push(x);
            b.push(y);
            steps += 1;
        }
    }
    steps
}

/// Compiled `D` and the interpreted product name the same rules (`ValueDomain::rules_*`) for
/// literals, every operation and every comparison's refinement, and name one per component.
/// The compiled side names a `.dom` file as its build did, relative to the crate that built it
/// (`dom/signs.dom` for the examples, `test_data/codegen/ok/…` for the corpus,
/// `../domc/test_data/…` for the files `include_dom!` compiles here); the interpreter as it was
/// loaded, under the workspace: both are compared with each place's file by its name alone.
/// Returns the lists compared.
fn same_rules<D: ValueDomain>(file: &str, product: &str) -> u64 {
    use absinthe::program::Op;
    let interp = load(file);
    let _running = Running::enter_domain(interp, product)
        .unwrap_or_else(|| panic!("{file} has no `{product}`"));
    let by_name = |lines: Vec<String>| -> Vec<String> {
        lines
            .iter()
            .map(|line| {
                line.split(' ')
                    .map(|word| match word.rsplit_once('/') {
                        Some((_, name)) if word.contains(".dom:") => name,
                        _ => word,
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let check = |what: &str, compiled: Vec<String>, dynamic: Vec<String>| {
        assert!(
            !compiled.is_empty(),
            "{file} {product}: no rules for {what}"
        );
        assert_eq!(
            by_name(compiled),
            by_name(dynamic),
            "{file} {product}: {what}"
        );
    };
    check("literals", D::rules_constant(), DynValue::rules_constant());
    let mut compared = 1;
    for op in Op::ALL {
        check(
            &format!("`{op}`"),
            D::rules_binary(op),
            DynValue::rules_binary(op),
        );
        compared += 1;
        if op.is_comparison() {
            check(
                &format!("refinement on `{op}`"),
                D::rules_assume(op),
                DynValue::rules_assume(op),
            );
            compared += 1;
        }
    }
    compared
}

/// One test per row, each comparing one product of one file in every mode the row names, and
/// [`COVERED`], the rows' files and products (which
/// `every_product_of_every_accepted_file_is_compared` holds against the repository's files).
macro_rules! differentials {
    ($(
        $test:ident: $file:literal, $product:literal, $compiled:ty
        $(, kernel = $kernel:literal)?;
    )*) => {
        /// Every file and product a test below compares.
        const COVERED: &[(&str, &str)] = &[$(($file, $product)),*];
        $(
            #[test]
            fn $test() {
                let rules = same_rules::<$compiled>($file, $product);
                let steps = same_on_operations::<$compiled>($file, $product);
                let points = same_on_flow_programs::<$compiled>($file, $product);
                // The analyses that run on kernel terms are compared there too.
                let kernel: bool = false $(|| $kernel)?;
                let flows = if kernel {
                    let flows = same_on_kernel_terms::<$compiled>($file, $product);
                    format!(", {flows} kernel flows")
                } else {
                    String::new()
                };
                eprintln!(
                    "{} {}: {rules} rule lists, {steps} operations, {points} points and constraints{flows} \
                     identical",
                    $file, $product
                );
            }
        )*
    };
}

differentials! {
    const_prop: "dsl-examples/dom/const_prop.dom", "ConstValue", dom::const_prop::ConstValue;
    signs: "dsl-examples/dom/signs.dom", "Signals", dom::signs::Signals;
    signs_direct: "dsl-examples/dom/signs.dom", "DirectSignals", dom::signs::DirectSignals;
    disjunctive: "dsl-examples/dom/disjunctive.dom", "Disjunctive", dom::disjunctive::Disjunctive;
    seed: "dsl-examples/dom/seed.dom", "SeedValue", dom::seed::SeedValue;
    interval: "dsl-examples/dom/interval.dom", "Range", dom::interval::Range;
    bounds: "dsl-examples/dom/bounds.dom", "Value", dom::bounds::Value;
    sccp_ranges: "dsl-examples/dom/sccp_ranges.dom", "SccpRange", dom::sccp_ranges::SccpRange;
    congruence: "dsl-examples/dom/congruence.dom", "CongRange", dom::congruence::CongRange;
    octagon: "dsl-examples/dom/octagon.dom", "OctagonRanges", dom::octagon::OctagonRanges;
    liveness: "dsl-examples/dom/liveness.dom", "Live", dom::liveness::Live;
    needed: "dsl-examples/dom/needed.dom", "Demand", dom::needed::Demand;
    types: "dsl-examples/dom/types.dom", "Types", dom::types::Types, kernel = true;
    induction: "dsl-examples/dom/induction.dom", "Induction",
        dom::induction::Induction, kernel = true;
    dependence: "dsl-examples/dom/dependence.dom", "Dependence",
        dom::dependence::Dependence, kernel = true;
    strictness: "dsl-examples/dom/strictness.dom", "Strictness",
        dom::strictness::Strictness, kernel = true;
    typing_ints: "dsl-examples/dom/typing_env.dom", "TypingInts", dom::typing_env::TypingInts;
    // `heap_values.dom` is compiled as the two files that import it.
    heap_values: "dsl-examples/dom/heap_values.dom", "HeapValue", dom::escape::HeapValue;
    heap_values_of_escape: "dsl-examples/dom/escape.dom", "HeapValue", dom::escape::HeapValue;
    heap_values_of_shape: "dsl-examples/dom/shape.dom", "HeapValue", dom::shape::HeapValue;
    corpus_backward: "domc/test_data/codegen/ok/backward.dom", "Demand", corpus::backward::Demand;
    corpus_backward_direct: "domc/test_data/codegen/ok/backward.dom", "DirectDemand",
        corpus::backward::DirectDemand;
    corpus_const_prop: "domc/test_data/codegen/ok/const_prop.dom", "ConstValue",
        corpus::const_prop::ConstValue;
    corpus_kernel_rules: "domc/test_data/codegen/ok/kernel_rules.dom", "Deps",
        corpus::kernel_rules::Deps, kernel = true;
    corpus_finite_sum_names: "domc/test_data/codegen/ok/finite_sum_names.dom", "Value",
        corpus::finite_sum_names::Value;
    corpus_known_bits: "domc/test_data/codegen/ok/known_bits.dom", "Bits", corpus::known_bits::Bits;
    corpus_normalize: "domc/test_data/codegen/ok/normalize.dom", "Mod4", corpus::normalize::Mod4;
    corpus_numeric_builtins: "domc/test_data/codegen/ok/numeric_builtins.dom", "Numbers",
        corpus::numeric_builtins::Numbers;
    corpus_planted_join: "domc/test_data/codegen/ok/planted_join.dom", "Joined",
        corpus::planted_join::Joined;
    corpus_planted_lines: "domc/test_data/codegen/ok/planted_lines.dom", "Planted",
        corpus::planted_lines::Planted;
    corpus_recursion: "domc/test_data/codegen/ok/recursion.dom", "Zeros", corpus::recursion::Zeros;
    corpus_relation: "domc/test_data/codegen/ok/relation.dom", "ZoneRanges",
        corpus::relation::ZoneRanges;
    corpus_traps_eval: "domc/test_data/codegen/ok/traps_eval.dom", "Value",
        corpus::traps_eval::Value;
    corpus_tuple_match: "domc/test_data/codegen/ok/tuple_match.dom", "Signed",
        corpus::tuple_match::Signed;
    corpus_tuples: "domc/test_data/codegen/ok/tuples.dom", "Value", corpus::tuples::Value;
    corpus_widen_thresholds: "domc/test_data/codegen/ok/widen_thresholds.dom", "Value",
        corpus::widen_thresholds::Value;
    corpus_wrong_reduction: "domc/test_data/codegen/ok/wrong_reduction.dom", "NullInt",
        corpus::wrong_reduction::NullInt;
    accepted_analysis_context: "domc/test_data/sema/ok/analysis_context.dom", "P",
        accepted::analysis_context::P;
    accepted_imports: "domc/test_data/sema/ok/imports.dom", "P", accepted::imports::P;
    accepted_optional_semicolons_value: "domc/test_data/parse/ok/optional_semicolons.dom", "Value",
        accepted::optional_semicolons::Value;
    accepted_optional_semicolons_other: "domc/test_data/parse/ok/optional_semicolons.dom", "Other",
        accepted::optional_semicolons::Other;
    accepted_parity: "ui-tests/tests/ui/dom/parity.dom", "Value", accepted::parity::Value;
    accepted_wrong_parity: "browser-tests/data/wrong_parity.dom", "Value",
        accepted::wrong_parity::Value;
}

/// The accepted files the interpreter cannot run: only Rust provides their `extern`s.
const EXTERN: &[&str] = &["domc/test_data/sema/ok/extern_fn.dom"];

/// The files the macro tests expect to be rejected (the compiler's own rejected files are those
/// in `err/` directories).
const REJECTED: &[&str] = &[
    "ui-tests/tests/ui/dom/mismatch.dom",
    "ui-tests/tests/ui/dom/not_a_lattice.dom",
    "ui-tests/tests/ui/dom/syntax_error.dom",
];

/// Every `.dom` file below `dir` (build output, version control and installed packages left
/// out), as paths relative to the workspace.
fn dom_files(dir: &std::path::Path, relative: &str, out: &mut Vec<String>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.expect("a directory entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if relative.is_empty() {
            name.clone()
        } else {
            format!("{relative}/{name}")
        };
        let kind = entry.file_type().expect("a file type");
        if kind.is_dir() {
            if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                dom_files(&entry.path(), &path, out);
            }
        } else if name.ends_with(".dom") {
            out.push(path);
        }
    }
}

/// Every product (direct products included) of every `.dom` file in the repository that the
/// compiler accepts — the examples, the compiler's three corpora, the macro and browser tests'
/// files — is compared by a test above, except in the files the interpreter refuses for their
/// `extern`s; a new file or product without a comparison fails here. The files listed as
/// rejected or refused are held to it too.
#[test]
fn every_product_of_every_accepted_file_is_compared() {
    let mut files = Vec::new();
    dom_files(&workspace(), "", &mut files);
    files.sort();
    let mut missing = Vec::new();
    let (mut accepted, mut products) = (0, 0);
    for file in &files {
        let checked = absinthe_domc::check_file(&workspace().join(file));
        if file.contains("/err/") || REJECTED.contains(&file.as_str()) {
            assert!(checked.is_err(), "{file} is listed as rejected but checks");
            continue;
        }
        let checked = checked.unwrap_or_else(|f| panic!("{f}"));
        let interp = Interp::new(&checked);
        if EXTERN.contains(&file.as_str()) {
            assert!(interp.is_err(), "{file} is listed as refused but runs");
            continue;
        }
        interp.unwrap_or_else(|f| panic!("{file}: {f}"));
        accepted += 1;
        let names = checked.program.products.iter().flat_map(|(decl, direct)| {
            std::iter::once(decl.name.to_string()).chain(direct.clone())
        });
        for product in names {
            products += 1;
            if !COVERED.contains(&(file.as_str(), product.as_str())) {
                missing.push(format!("{file}: {product}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "products no test compares:\n{}",
        missing.join("\n")
    );
    // The other way round: every row names a file found above (so the walk found them all).
    for (file, product) in COVERED {
        assert!(
            files.iter().any(|f| f == file),
            "`{file}` ({product}) is compared but was not found in the repository"
        );
    }
    eprintln!(
        "{} .dom files, {accepted} accepted and interpreted, {products} products, every one \
         compared",
        files.len()
    );
}

/// Each function of `module` analyzed with the running file's product, the functions shared out
/// to two threads of this run (as the LLVM front end's workers share them): what each point
/// prints.
fn analyzed_on_workers(module: &absinthe_ir::function::Module) -> Vec<Vec<String>> {
    let limits = Limits::default();
    let half = module.functions.len() / 2;
    let analyze = |functions: &[absinthe_ir::function::Function]| -> Vec<Vec<String>> {
        functions
            .iter()
            .map(|f| {
                let a = analyze_function::<DynValue>(f, true, &limits);
                a.points
                    .iter()
                    .flatten()
                    .flat_map(|env| shown(env, f.names.len()))
                    .collect()
            })
            .collect()
    };
    let (first, second) = module.functions.split_at(half);
    std::thread::scope(|s| {
        let worker = s.spawn(|| analyze(second));
        let mut all = analyze(first);
        all.extend(worker.join().expect("the worker ends"));
        all
    })
}

/// Two different files loaded in one process, run alternately from several threads, each run
/// sharing its functions out to worker threads: every run gives what the file gives alone, so
/// no run sees the other file (a loaded file is a value, and the running one is the process's,
/// not a thread's).
#[test]
fn two_files_alternate_on_several_threads() {
    let files = [
        ("dsl-examples/dom/const_prop.dom", "ConstValue"),
        ("dsl-examples/dom/interval.dom", "Range"),
    ];
    let interps: Vec<_> = files.iter().map(|(file, _)| load(file)).collect();
    let modules: Vec<_> = (0..6u64)
        .map(|seed| {
            let config = GenConfig {
                blocks: 3 + (seed % 6) as usize,
                names: 3,
                ..GenConfig::default()
            };
            let mut module = random_function(seed, &config);
            let other = random_function(seed + 100, &config);
            module.functions.extend(other.functions);
            module
        })
        .collect();
    // What each file gives alone, on this thread.
    let alone: Vec<Vec<_>> = files
        .iter()
        .zip(&interps)
        .map(|((_, product), interp)| {
            let _running = Running::enter_domain(interp.clone(), product).expect("a product");
            modules.iter().map(analyzed_on_workers).collect()
        })
        .collect();
    assert_ne!(alone[0], alone[1], "the two files tell the programs apart");
    std::thread::scope(|s| {
        for thread in 0..4 {
            let (files, interps, modules, alone) = (&files, &interps, &modules, &alone);
            s.spawn(move || {
                for round in 0..6 {
                    let which = (thread + round) % 2;
                    let _running = Running::enter_domain(interps[which].clone(), files[which].1)
                        .expect("a product");
                    let module = (thread * 7 + round) % modules.len();
                    assert_eq!(
                        analyzed_on_workers(&modules[module]),
                        alone[which][module],
                        "{} on thread {thread}, round {round}, module {module}",
                        files[which].0
                    );
                }
            });
        }
    });
}

/// A thread that runs a file and enters another run would wait for itself forever: it is told
/// instead.
#[test]
#[should_panic(expected = "this thread already runs a `.dom` file")]
fn entering_a_second_run_on_the_same_thread_is_refused() {
    let interp = load("dsl-examples/dom/const_prop.dom");
    let _first = Running::enter_domain(interp.clone(), "ConstValue").expect("a product");
    let _second = Running::enter_domain(interp, "ConstValue");
}
