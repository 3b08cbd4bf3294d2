//! `absinthe optimize` checked by concrete execution: random functions, random modules with
//! calls and closures, and random modules that allocate, each rewritten with the facts of an
//! analysis and run beside the original on the same arguments, must end alike (return or throw
//! alike values, trap for the same reason); and the examples of `ir/test_data`, whose rewritten
//! text is kept, so that what the optimizer does is seen to change. Every rewritten module
//! prints and parses back to itself. A failure names the seed and the arguments.

use crate::common::{absinthe, markdown, workspace};
use crate::random_air::config as function_config;
use absinthe::program::BlockId;
use absinthe_cli::analyses::AnalysisName;
use absinthe_cli::builtin;
use absinthe_cli::optimize::{Check, Optimized, check};
use absinthe_ir::function::Module;
use absinthe_ir::generate::{
    HeapGenConfig, ModuleConfig, random_function, random_heap_module, random_module,
};
use absinthe_ir::optimize::{Counts, FunctionFacts, optimize_module};
use expect_test::{Expect, expect};

const MAX_VISITS: u64 = 100_000;
const RUNS: usize = 4;
const MAX_STEPS: u64 = 2_000;

/// What the optimizer changed in some programs, and how many runs compared them.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    counts: Counts,
    runs: usize,
    skipped: usize,
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}; {} runs, {} of them skipped (the original ran out of steps or read an \
             unassigned name)",
            self.counts, self.runs, self.skipped
        )
    }
}

/// `module` optimized with `analysis`, checked on runs and reparsed; what changed.
fn optimized(module: &Module, analysis: AnalysisName, what: &str) -> Tally {
    let Optimized {
        module: rewritten,
        counts,
        warnings,
    } = builtin::optimize(module, analysis, MAX_VISITS);
    assert!(warnings.is_empty(), "{what}: {warnings:?}\n{module}");
    let Check {
        differences,
        runs,
        skipped,
    } = check(module, &rewritten, RUNS, 3, MAX_STEPS);
    assert!(
        differences.is_empty(),
        "{what} with {analysis:?}: {differences:?}\noriginal:\n{module}\nrewritten:\n{rewritten}"
    );
    assert!(skipped <= runs);
    // Removing uses leaves names that no longer appear: the canonical module is what parses back.
    let mut canonical = rewritten.clone();
    canonical.canonicalize();
    let text = absinthe_ir::print_module(&canonical);
    let parsed = absinthe_ir::parse_module("rewritten.air", &text)
        .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(
        parsed, canonical,
        "{what}: printing and parsing changed it\n{text}"
    );
    Tally {
        counts,
        runs,
        skipped,
    }
}

/// The sum of `tallies`; at most half of its runs skipped, so that most were compared (random
/// modules that allocate read a name never assigned in 40% of their runs, random functions in 22%).
fn total(tallies: impl IntoIterator<Item = Tally>) -> Tally {
    let mut sum = Tally::default();
    for t in tallies {
        sum.counts.add(t.counts);
        sum.runs += t.runs;
        sum.skipped += t.skipped;
    }
    assert!(sum.skipped * 2 <= sum.runs, "{sum}");
    sum
}

#[test]
fn random_functions_compute_what_they_did() {
    let sccp = total((0..1000).map(|seed| {
        let module = random_function(seed, &function_config(seed));
        optimized(
            &module,
            AnalysisName::Sccp,
            &format!("function seed {seed}"),
        )
    }));
    let interval = total((0..200).map(|seed| {
        let module = random_function(seed, &function_config(seed));
        optimized(
            &module,
            AnalysisName::Interval,
            &format!("function seed {seed}"),
        )
    }));
    let octagon = total((0..50).map(|seed| {
        let module = random_function(seed, &function_config(seed));
        optimized(
            &module,
            AnalysisName::Octagon,
            &format!("function seed {seed}"),
        )
    }));
    // Declared products and a `.dom` analysis: their facts drive the same rewrites.
    let declared = total((0..100).flat_map(|seed| {
        let module = random_function(seed, &function_config(seed));
        [AnalysisName::Signs, AnalysisName::SccpRangesDom]
            .map(|analysis| optimized(&module, analysis, &format!("function seed {seed}")))
    }));
    eprintln!(
        "1,000 functions, sccp: {sccp}\n200, interval: {interval}\n50, octagon: {octagon}\n\
         100, signs and sccp-ranges-dom: {declared}"
    );
    assert!(
        declared.counts.folded > 100 && declared.counts.branches > 20,
        "{declared}"
    );
    // Measured: sccp 3,035 constants folded, 609 branches decided, 3,526 blocks removed, 7,203
    // dead assignments removed, 154 allocations on the stack.
    assert!(
        sccp.counts.folded > 2000 && sccp.counts.branches > 400 && sccp.counts.blocks > 2000,
        "{sccp}"
    );
    assert!(sccp.counts.dead > 5000 && sccp.counts.stack > 100, "{sccp}");
    for counts in [interval, octagon] {
        assert!(
            counts.counts.folded > 100 && counts.counts.branches > 20,
            "{counts}"
        );
        assert!(
            counts.counts.blocks > 100 && counts.counts.dead > 100 && counts.counts.stack > 5,
            "{counts}"
        );
    }
}

#[test]
fn random_modules_compute_what_they_did() {
    let calls = total((0..300).map(|seed| {
        let config = ModuleConfig {
            function_slots: seed % 2 == 0,
            ..ModuleConfig::default()
        };
        let module = random_module(seed, &config);
        optimized(&module, AnalysisName::Sccp, &format!("module seed {seed}"))
    }));
    let heaps = total((0..300).map(|seed| {
        let module = random_heap_module(seed, &HeapGenConfig::default());
        optimized(
            &module,
            AnalysisName::Sccp,
            &format!("heap module seed {seed}"),
        )
    }));
    eprintln!("300 modules with calls: {calls}\n300 modules that allocate: {heaps}");
    assert!(
        calls.counts.folded > 100 && calls.counts.dead > 100,
        "{calls}"
    );
    assert!(heaps.counts.stack > 100, "{heaps}");
}

/// The module of example `file` of `ir/test_data`.
fn load(file: &str) -> Module {
    let path = workspace().join("ir/test_data").join(file);
    match absinthe_cli::driver::Input::load(&path) {
        Ok(input) => input.module(),
        Err(message) => panic!("{message}"),
    }
}

/// The counts and the rewritten text of example `file`.
fn example(file: &str, expect: Expect) {
    let module = load(file);
    let counts = optimized(&module, AnalysisName::Sccp, file).counts;
    let rewritten = builtin::optimize(&module, AnalysisName::Sccp, MAX_VISITS).module;
    expect.assert_eq(&format!("{counts}\n{rewritten}"));
}

/// Every example of `ir/test_data` ends its runs alike once optimized; the table is what `sccp`'s
/// facts changed in each (an example edited changes its row: bless with `UPDATE_EXPECT=1`).
#[test]
fn every_example_computes_what_it_did() {
    let mut files: Vec<String> = std::fs::read_dir(workspace().join("ir/test_data"))
        .expect("read ir/test_data")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|f| f.ends_with(".air") || f.ends_with(".toy"))
        .collect();
    files.sort();
    let mut table = String::new();
    for file in &files {
        let counts = optimized(&load(file), AnalysisName::Sccp, file).counts;
        table.push_str(&format!("{file}: {counts}\n"));
    }
    expect![[r#"
        backward.air: 0 constants folded, 0 branches decided, 0 blocks removed, 2 dead assignments removed, 0 allocations on the stack
        below_n.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 0 allocations on the stack
        calls.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 0 allocations on the stack
        closures.air: 2 constants folded, 0 branches decided, 0 blocks removed, 2 dead assignments removed, 0 allocations on the stack
        copy_increment.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 0 allocations on the stack
        count.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 0 allocations on the stack
        count_by4.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 0 allocations on the stack
        escape.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 5 allocations on the stack
        fixed_width.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 0 allocations on the stack
        memory.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 0 allocations on the stack
        optimize.air: 4 constants folded, 1 branch decided, 1 block removed, 3 dead assignments removed, 1 allocation on the stack
        prog0.toy: 7 constants folded, 0 branches decided, 0 blocks removed, 4 dead assignments removed, 0 allocations on the stack
        seed_loop.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 2 allocations on the stack
        shape.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 1 allocation on the stack
        ssa_sum.air: 0 constants folded, 0 branches decided, 0 blocks removed, 0 dead assignments removed, 0 allocations on the stack
        streams.air: 0 constants folded, 0 branches decided, 0 blocks removed, 3 dead assignments removed, 0 allocations on the stack
        typing.air: 16 constants folded, 1 branch decided, 0 blocks removed, 6 dead assignments removed, 0 allocations on the stack
    "#]].assert_eq(&table);
}

/// Every `absinthe optimize` command of the chapter "From facts to transformations" prints what
/// the `text` blocks after it show (each block a part of the output, in order).
#[test]
fn the_chapter_shows_what_optimize_prints() {
    let chapter = "book/src/optimize.md";
    let text = std::fs::read_to_string(workspace().join(chapter)).expect("read the chapter");
    let blocks = markdown::blocks(&text);
    let mut shown = 0;
    for (i, block) in blocks.iter().enumerate().filter(|(_, b)| b.info == "sh") {
        let commands = markdown::commands(block);
        let [(_, command)] = commands.as_slice() else {
            continue;
        };
        let Some(args) = command.strip_prefix("absinthe optimize ") else {
            continue;
        };
        if args.contains(['[', 'F']) {
            continue;
        }
        let mut args: Vec<&str> = args.split(' ').collect();
        args.insert(0, "optimize");
        let (code, stdout, stderr) = absinthe(&args);
        assert_eq!(code, 0, "{chapter}:{}: {stderr}", block.line);
        let mut rest = stdout.as_str();
        for output in blocks[i + 1..].iter().take_while(|b| b.info == "text") {
            let Some(at) = rest.find(&output.body) else {
                panic!(
                    "{chapter}:{}: `{command}` does not print this (next) block; it prints\n{stdout}",
                    output.line
                );
            };
            rest = &rest[at + output.body.len()..];
            shown += 1;
        }
    }
    assert!(shown >= 3, "only {shown} outputs checked");
}

#[test]
fn examples() {
    example(
        "prog0.toy",
        expect![[r#"
        7 constants folded, 0 branches decided, 0 blocks removed, 4 dead assignments removed, 0 allocations on the stack
        fn main() {
        bb0:
            x = 1
            goto bb4
        bb1:
            br x <= 3, bb3, bb2
        bb2:
            goto bb3
        bb3:
            x = x + 1
            goto bb4
        bb4:
            br x < 10, bb1, exit
        exit:
            ret
        }
    "#]],
    );
    example(
        "optimize.air",
        expect![[r#"
            4 constants folded, 1 branch decided, 1 block removed, 3 dead assignments removed, 1 allocation on the stack
            fn main(n) {
            bb0:
                box = new stack
                box.count = n
                unused = n + 1
                goto work
            work:
                c = box.count
                r = c * 8
                ret r
            }

            fn log(x) {
            bb0:
                ret x
            }

            fn low_bits(n) {
            bb0:
                k = n & 7
                br k < 8, small, big
            small:
                ret k
            big:
                ret -1
            }
        "#]],
    );
}

/// The check can fail: a constant that is not one, or an allocation put on the stack that
/// escapes, makes the rewritten module end differently.
#[test]
fn a_wrong_fact_is_caught() {
    let text = "fn main(n) {
bb0:
    o = call make(n)
    v = o.f
    ret v
}

fn make(n) {
bb0:
    b = new
    b.f = n
    ret b
}
";
    let module = absinthe_ir::parse_module("wrong.air", text).unwrap_or_else(|e| panic!("{e}"));
    let main = &module.functions[0];
    let v = main.name_id("v").expect("v");
    // `v` is whatever `n` was: claim it is 99 where `ret v` reads it.
    let lying = FunctionFacts::gather(
        main,
        |_| true,
        |_, _| true,
        |b, i, n| (b == BlockId(0) && i == 2 && n == v).then_some(99),
    );
    let (folded, counts) = optimize_module(
        &module,
        &[lying, FunctionFacts::unknown(&module.functions[1])],
    );
    assert_eq!(counts.folded, 1);
    assert!(
        !check(&module, &folded, 20, 0, MAX_STEPS)
            .differences
            .is_empty()
    );
    // `b` is returned: claim it never escapes.
    let mut escaping = FunctionFacts::unknown(&module.functions[1]);
    escaping.stack = vec![(BlockId(0), 0)];
    let (stacked, counts) = optimize_module(&module, &[FunctionFacts::unknown(main), escaping]);
    assert_eq!(counts.stack, 1);
    let found = check(&module, &stacked, 20, 0, MAX_STEPS).differences;
    assert!(
        found.first().is_some_and(|d| d.contains("DeadStackObject")),
        "{found:?}"
    );
}

/// Input it does not rewrite is refused with its place and why, never misread or a panic: an
/// LLVM module, a kernel-terms program, a file that does not parse, one that does not exist.
#[test]
fn other_input_is_refused_with_a_reason() {
    let refused = |file: &str| {
        let (code, stdout, stderr) = absinthe(&["optimize", file]);
        assert_ne!(code, 0, "{file}: {stdout}");
        assert!(stdout.is_empty(), "{file}: {stdout}");
        assert!(stderr.starts_with(file), "{file}: {stderr}");
        stderr
    };
    assert!(refused("ir-llvm/test_data/control.ll").contains("this is an LLVM module"));
    assert!(refused("ir/test_data/kernel/p1.kt").contains("this is a kernel-terms program"));
    assert!(refused("ir/test_data/no-such-file.air").contains("cannot read the file"));
    assert!(refused("README.md").contains("README.md:3:1: error: expected `fn`"));
}
