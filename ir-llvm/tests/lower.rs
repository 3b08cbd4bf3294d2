//! The LLVM front end on small hand-written modules in `test_data/`: the facts `sccp` and
//! `interval` prove for every value (compared with the `.expect` files next to them; bless with
//! `UPDATE_EXPECT=1`), the same facts whether memory is kept or erased, bitcode and text alike,
//! per-function skipping, and clear errors for modules LLVM cannot read.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use absinthe::engine::Limits;
use absinthe::lattice::{Flat, Interval};
use absinthe::value::ValueDomain;
use absinthe_llvm::analyze::{Fact, States, analyze_module};
use absinthe_llvm::flags::NswFlags;
use absinthe_llvm::{Lowered, Memory, load_module, lower_module};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_data")
        .join(name)
}

fn lower(path: &Path, memory: Memory) -> Lowered {
    let module = load_module(path).unwrap_or_else(|e| panic!("{e}"));
    let flags = match std::fs::read_to_string(path) {
        Ok(text) if path.extension().is_some_and(|e| e == "ll") => NswFlags::scan(&text),
        _ => NswFlags::none(),
    };
    lower_module(&module, &flags, memory, |_, _| {})
}

/// Every function's proven-unreachable blocks and every integer value's fact, as text.
fn facts<D: ValueDomain>(lowered: &Lowered) -> String {
    let results = analyze_module::<D>(
        lowered,
        true,
        States::Auto,
        &Limits::default(),
        Some(std::num::NonZeroUsize::MIN),
        |_, _| {},
    );
    let mut out = String::new();
    for (info, result) in lowered.functions.iter().zip(&results) {
        let function = &lowered.module.functions[info.func.index()];
        let dead: Vec<&str> = function
            .blocks()
            .iter()
            .zip(&result.dead)
            .filter(|(_, d)| **d)
            .map(|(b, _)| b.label.as_str())
            .collect();
        let _ = writeln!(
            out,
            "{}: unreachable {:?}, {} of {} branches decided",
            info.name, dead, result.counts.decided, result.counts.branches
        );
        for (value, fact) in info.values.iter().zip(&result.facts) {
            if !value.integer && !value.float && !matches!(fact, Fact::Address(..)) {
                continue;
            }
            let fact = match fact {
                // The bits of a double, shown as the double (`{:?}` keeps `-0.0` and `inf`).
                Fact::Constant(c) if value.float => format!("{:?}", f64::from_bits(*c as u64)),
                Fact::Constant(c) => c.to_string(),
                Fact::Address(s, 0) => format!("@{}", lowered.module.symbol_name(*s)),
                Fact::Address(s, offset) => {
                    format!("@{}{offset:+}", lowered.module.symbol_name(*s))
                }
                Fact::Unreachable => "unreachable".to_owned(),
                Fact::Undefined => "undefined".to_owned(),
                Fact::Unknown => "?".to_owned(),
            };
            let _ = writeln!(out, "  %{} = {fact}", value.name);
        }
    }
    out
}

fn check(module: &str) {
    let lowered = lower(&data(module), Memory::Erase);
    let stem = module.trim_end_matches(".ll");
    expect_test::expect_file![data(&format!("{stem}.sccp.expect"))]
        .assert_eq(&facts::<Flat<i64>>(&lowered));
    expect_test::expect_file![data(&format!("{stem}.interval.expect"))]
        .assert_eq(&facts::<Interval>(&lowered));
}

#[test]
fn pointer_constants_are_addresses() {
    use absinthe::value::DeclaredAnalysis;
    use absinthe_dsl_examples::dom::sccp_ranges::SccpRangesAnalysis;
    let lowered = lower(&data("pointers.ll"), Memory::Erase);
    expect_test::expect_file![data("pointers.ranges.expect")].assert_eq(&facts::<
        <SccpRangesAnalysis as DeclaredAnalysis>::Domain,
    >(&lowered));
}

#[test]
fn intrinsics_structs_range_metadata_and_floats() {
    use absinthe::value::DeclaredAnalysis;
    use absinthe_dsl_examples::dom::sccp_ranges::SccpRangesAnalysis;
    for stem in ["intrinsics", "floats", "float_flow"] {
        let lowered = lower(&data(&format!("{stem}.ll")), Memory::Erase);
        assert!(lowered.skipped.is_empty(), "{:?}", lowered.skipped);
        expect_test::expect_file![data(&format!("{stem}.ranges.expect"))].assert_eq(&facts::<
            <SccpRangesAnalysis as DeclaredAnalysis>::Domain,
        >(
            &lowered
        ));
    }
}

#[test]
fn fixed_width_arithmetic_folds_like_llvm() {
    check("widths.ll");
}

#[test]
fn branches_switches_undef_and_constant_memory() {
    check("control.ll");
}

#[test]
fn keeping_memory_changes_no_fact() {
    for module in ["widths.ll", "control.ll"] {
        let keep = lower(&data(module), Memory::Keep);
        let erase = lower(&data(module), Memory::Erase);
        assert_eq!(
            facts::<Flat<i64>>(&keep),
            facts::<Flat<i64>>(&erase),
            "{module}"
        );
        assert_eq!(
            facts::<Interval>(&keep),
            facts::<Interval>(&erase),
            "{module}"
        );
    }
}

#[test]
fn memory_operations_are_lowered_when_kept() {
    let lowered = lower(&data("control.ll"), Memory::Keep);
    let printed = absinthe_ir::print_module(&lowered.module);
    let unknowns = printed
        .lines()
        .skip_while(|l| !l.starts_with("fn unknowns"))
        .take_while(|l| *l != "}")
        .collect::<Vec<_>>()
        .join("\n");
    expect_test::expect![[r#"
        fn unknowns(%p, %q) ssa {
        entry:
            %a = %p.mem
            %b = %q.mem
            br %a == 7, seven, other
        seven:
            %d#1 = %b + 0
            %d = %d#1 trunc 32
            ret %d
        other:
            ret 0"#]]
    .assert_eq(&unknowns);
}

#[test]
fn bitcode_gives_the_same_facts_as_text() {
    // Bitcode is made from the text with LLVM's assembler, when it is installed.
    let Ok(status) = std::process::Command::new("llvm-as-15")
        .arg(data("control.ll"))
        .arg("-o")
        .arg(std::env::temp_dir().join("absinthe-control.bc"))
        .status()
    else {
        return;
    };
    assert!(status.success());
    let bitcode = lower(
        &std::env::temp_dir().join("absinthe-control.bc"),
        Memory::Erase,
    );
    let text = lower(&data("control.ll"), Memory::Erase);
    assert_eq!(facts::<Flat<i64>>(&bitcode), facts::<Flat<i64>>(&text));
}

#[test]
fn modules_llvm_ir_could_not_represent_are_read() {
    // llvm-ir 0.11 panicked on `dso_local_equivalent`; LLVM reads it, and the pointer is unknown.
    let lowered = lower(&data("err/dso_local_equivalent.ll"), Memory::Erase);
    assert!(lowered.skipped.is_empty(), "{:?}", lowered.skipped);
    assert_eq!(lowered.functions.len(), 1);
}

#[test]
fn syntax_errors_name_the_file_and_the_place() {
    let Err(err) = load_module(&data("err/syntax.ll")) else {
        panic!("syntax.ll loaded");
    };
    let text = err.to_string();
    assert!(
        text.contains("syntax.ll:3:3: error: expected type"),
        "{text}"
    );
}

#[test]
fn missing_files_are_errors() {
    let Err(err) = load_module(&data("no_such_module.ll")) else {
        panic!("a missing file loaded");
    };
    assert!(err.message.starts_with("cannot read the file"), "{err}");
}

#[test]
fn a_function_that_cannot_be_lowered_is_skipped_and_reported() {
    let lowered = lower(&data("skip.ll"), Memory::Erase);
    let names: Vec<&str> = lowered.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["before", "pair_first", "after"]);
    let [skipped] = &lowered.skipped[..] else {
        panic!("{:?}", lowered.skipped);
    };
    assert_eq!(skipped.function, "broken");
    assert!(
        skipped
            .message
            .starts_with("LLVM's verifier rejects it: Instruction does not dominate all uses!"),
        "{skipped}"
    );
    assert!(skipped.message.contains("%y = add i32 %x, 1"), "{skipped}");
    // The rest of the module is analyzed: `after` calls the skipped function (now bodyless).
    let facts = facts::<Flat<i64>>(&lowered);
    assert!(
        facts.contains("%x = 5") && facts.contains("%y = 20"),
        "{facts}"
    );
    assert!(facts.contains("pair_first: "), "{facts}");
}

/// The `getelementptr` indices of `test_data/relational.ll` (compiled from `relational.c`
/// beside it) with the length each steps through: an array type's, the element count of a
/// variable-length `alloca` (the `int` count before its `zext`), or none for a pointer
/// parameter.
#[test]
fn getelementptr_indices_are_recorded_with_their_bounds() {
    use absinthe::program::Operand;
    use absinthe_llvm::lower::IndexBound;
    let lowered = lower(&data("relational.ll"), Memory::Erase);
    let mut out = String::new();
    for info in &lowered.functions {
        let function = &lowered.module.functions[info.func.index()];
        let name = |o: Operand| match o {
            Operand::Name(n) => function.names[n.index()].clone(),
            Operand::Int(c) => c.to_string(),
        };
        for index in &info.indices {
            let bound = match index.bound {
                IndexBound::Length(n) => n.to_string(),
                IndexBound::Count(c) => format!("count {}", name(c)),
                IndexBound::Unknown => "unknown".to_owned(),
            };
            let _ = writeln!(
                out,
                "{}: {} before statement {}: {} below {bound}",
                info.name,
                function.blocks()[index.block.index()].label,
                index.stmt,
                name(index.index),
            );
        }
    }
    expect_test::expect![[r#"
        fill: for.body before statement 0: %i.0 below count %n
        fill: for.body before statement 0: %i.0 below count %n
        fill_unsigned: for.body before statement 1: %idxprom below count %n
        fill_unsigned: for.body before statement 2: %idxprom2 below count %n
        pairs: for.body before statement 1: %i.0 below count %add
        pairs: for.body before statement 2: %add3 below count %add
        pairs: for.end before statement 0: %n below count %add
        table: for.body before statement 1: %i.0 below 16
        table: if.then before statement 0: %k below 16
    "#]]
    .assert_eq(&out);
}

/// What intervals with a packed octagon prove on `test_data/relational.ll` that intervals alone
/// do not: the dead `return 2` of `x = y; x++; if (x > y)` (with `nsw`, and with a wrapping
/// increment whose operand is bounded first), and every index of a variable-length array below
/// its length; and not what would tie two loads together through the shared unknown value
/// they both read in the core IR (`two_loads`: nothing decided).
#[test]
fn the_octagon_decides_what_intervals_cannot_on_llvm() {
    use absinthe_dsl_examples::relational::value::OctagonRanges;
    let lowered = lower(&data("relational.ll"), Memory::Erase);
    let counts = |results: Vec<absinthe_llvm::analyze::FunctionAnalysis>| {
        results
            .iter()
            .map(|r| {
                let c = &r.counts;
                format!(
                    "{}: {} unreachable, {} of {} decided, {} of {} indices in bounds",
                    c.name, c.unreachable, c.decided, c.branches, c.in_bounds, c.bounded
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let run = |octagon: bool| {
        let (limits, threads) = (Limits::default(), Some(std::num::NonZeroUsize::MIN));
        if octagon {
            analyze_module::<OctagonRanges>(
                &lowered,
                true,
                States::Auto,
                &limits,
                threads,
                |_, _| {},
            )
        } else {
            analyze_module::<Interval>(&lowered, true, States::Auto, &limits, threads, |_, _| {})
        }
    };
    expect_test::expect![[r#"
        fill: 0 unreachable, 0 of 1 decided, 0 of 2 indices in bounds
        copy_increment: 0 unreachable, 0 of 1 decided, 0 of 0 indices in bounds
        copy_increment_wraps: 0 unreachable, 0 of 1 decided, 0 of 0 indices in bounds
        copy_increment_bounded: 0 unreachable, 0 of 2 decided, 0 of 0 indices in bounds
        fill_unsigned: 0 unreachable, 0 of 2 decided, 0 of 2 indices in bounds
        pairs: 0 unreachable, 0 of 3 decided, 0 of 3 indices in bounds
        table: 0 unreachable, 0 of 3 decided, 2 of 2 indices in bounds
        two_loads: 0 unreachable, 0 of 2 decided, 0 of 0 indices in bounds"#]]
    .assert_eq(&counts(run(false)));
    expect_test::expect![[r#"
        fill: 0 unreachable, 0 of 1 decided, 2 of 2 indices in bounds
        copy_increment: 1 unreachable, 1 of 1 decided, 0 of 0 indices in bounds
        copy_increment_wraps: 0 unreachable, 0 of 1 decided, 0 of 0 indices in bounds
        copy_increment_bounded: 1 unreachable, 1 of 2 decided, 0 of 0 indices in bounds
        fill_unsigned: 0 unreachable, 0 of 2 decided, 2 of 2 indices in bounds
        pairs: 0 unreachable, 0 of 3 decided, 3 of 3 indices in bounds
        table: 0 unreachable, 0 of 3 decided, 2 of 2 indices in bounds
        two_loads: 0 unreachable, 0 of 2 decided, 0 of 0 indices in bounds"#]]
    .assert_eq(&counts(run(true)));
}
