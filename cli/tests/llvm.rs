//! `absinthe analyze FILE.ll` end to end (with the `llvm` feature): the per-function and total
//! counts, JSON output, skipped functions, and a clear error for a module LLVM cannot read.
#![cfg(feature = "llvm")]

use crate::common;
use common::absinthe;

/// The output without the timing columns and lines, which change from run to run.
fn without_times(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("# time:"))
        .map(|l| match l.rsplit_once(' ') {
            Some((rest, last))
                if !l.starts_with('#') && (last.parse::<f64>().is_ok() || last == "ms") =>
            {
                rest.trim_end().to_owned()
            }
            _ => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn analyze_prints_counts_per_function_and_in_total() {
    let (code, stdout, stderr) = absinthe(&[
        "analyze",
        "ir-llvm/test_data/control.ll",
        "--analysis",
        "sccp",
    ]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    expect_test::expect![[r#"
        # ir-llvm/test_data/control.ll: analysis sccp
        # ran: engine flow (declared); state chosen per function: ssa in SSA form, else dense below 2000 blocks × names, else sparse (the LLVM front end's choice without --state; the declaration says dense); context each function alone (the LLVM front end analyzes functions alone; the declaration says insensitive)
        function               blocks unreach   values constants branches decided indices bounded in-bounds
        dead_branch                 4       1        3         2        1       1       0       0         0
        switch_const                4       2        1         1        1       1       0       0         0
        undef_phi                   3       0        1         1        1       0       0       0         0
        constant_loads              1       0       11         9        0       0       0       0         0
        unknowns                    3       0        4         0        1       0       0       0         0
        loop                        4       0        4         1        1       0       0       0         0
        unknowns_stay_unknown       5       0        8         0        3       0       0       0         0
        tested_load                 3       0        4         1        1       0       0       0         0
        total                      27       3       36        15        9       2       0       0         0
        # 8 functions; values proven constant: 15; branches decided: 2; blocks proven unreachable: 3; getelementptr indices proven within [0, n): 0 of 0 with a known n (0 indices)"#]]
    .assert_eq(&without_times(&stdout));
    assert!(stdout.contains("# time: parse "), "{stdout}");
    // The process's peak resident memory (Linux's VmHWM): LLVM's libraries alone are megabytes.
    assert!(stdout.contains("; peak memory "), "{stdout}");
}

#[test]
fn analyze_prints_json() {
    let (code, stdout, _) = absinthe(&[
        "analyze",
        "ir-llvm/test_data/widths.ll",
        "--analysis",
        "interval",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["analysis"], "interval");
    assert_eq!(doc["total"]["functions"], 7);
    assert!(doc["time_s"]["analysis"].is_number());
    assert!(
        doc["peak_memory_bytes"]
            .as_u64()
            .is_some_and(|b| b > 1_000_000),
        "{stdout}"
    );
}

#[test]
fn unreadable_modules_are_errors_not_crashes() {
    let (code, stdout, stderr) = absinthe(&["analyze", "ir-llvm/test_data/err/syntax.ll"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with("ir-llvm/test_data/err/syntax.ll: error: ")
            && stderr.contains("syntax.ll:3:3: error: expected type"),
        "{stderr}"
    );
    // llvm-ir could not represent this one; LLVM reads it.
    let (code, _, stderr) = absinthe(&["analyze", "ir-llvm/test_data/err/dso_local_equivalent.ll"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn an_llvm_function_is_traced_by_name() {
    let (code, stdout, stderr) = absinthe(&[
        "trace",
        "ir-llvm/test_data/control.ll",
        "--function",
        "loop",
        "--analysis",
        "sccp",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let trace: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(trace["function"], "loop");
    let labels: Vec<&str> = trace["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .map(|b| b["label"].as_str().expect("a label"))
        .collect();
    assert_eq!(labels, ["entry", "head", "body", "exit"]);
    assert_eq!(trace["back_edges"], serde_json::json!([[2, 1]]));
    let (code, stdout, stderr) = absinthe(&[
        "trace",
        "ir-llvm/test_data/control.ll",
        "--function",
        "loop",
        "--format",
        "html",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains(r#""function":"loop""#));
    let (code, _, stderr) = absinthe(&[
        "trace",
        "ir-llvm/test_data/control.ll",
        "--function",
        "nope",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("no function `nope`; the functions are dead_branch,"),
        "{stderr}"
    );
}

#[test]
fn functions_that_cannot_be_lowered_are_skipped_and_listed() {
    let (code, stdout, stderr) = absinthe(&["analyze", "ir-llvm/test_data/skip.ll"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(stdout.contains("\nbefore "), "{stdout}");
    assert!(stdout.contains("\nafter "), "{stdout}");
    assert!(
        stdout.contains("# skipped: 1 functions could not be lowered"),
        "{stdout}"
    );
    assert!(
        stdout.contains("# function `broken` skipped: LLVM's verifier rejects it: "),
        "{stdout}"
    );
    let (code, stdout, _) = absinthe(&["analyze", "ir-llvm/test_data/skip.ll", "--format", "json"]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["skipped"][0]["function"], "broken");
    assert!(doc["skipped"][0]["reason"].is_string());
}

#[test]
fn analyze_reads_a_module_in_pieces_with_the_same_results() {
    let run = |pieces: &str| {
        let (code, stdout, stderr) = absinthe(&[
            "analyze",
            "ir-llvm/test_data/intrinsics.ll",
            "--analysis",
            "sccp-ranges-dom",
            "--threads",
            "2",
            "--pieces",
            pieces,
        ]);
        assert_eq!((code, stderr.as_str()), (0, ""));
        stdout
    };
    let whole = run("1");
    assert!(whole.contains(" wall in 1 piece;"), "{whole}");
    for pieces in ["2", "3", "5"] {
        let split = run(pieces);
        assert!(
            split.contains(&format!(" wall in {pieces} pieces;")),
            "{split}"
        );
        assert_eq!(without_times(&split), without_times(&whole));
    }
}

/// `--dom FILE` on an LLVM module: the interpreted file runs on every worker thread and on every
/// piece the module is read in, and prints what the same file built in (`sccp-ranges-dom`)
/// prints, whatever the threads and pieces. (The file's analysis ran only on the thread that
/// loaded it before: any module read in pieces or on two threads panicked.)
#[test]
fn a_dom_file_runs_on_modules_read_in_pieces_and_on_threads() {
    let body = |text: &str| {
        // The header names the analysis: the file's, or the built-in's.
        let text = without_times(text);
        let (header, rest) = text.split_once('\n').expect("a header and a table");
        assert!(header.starts_with("# "), "{header}");
        rest.to_owned()
    };
    for module in [
        "ir-llvm/test_data/intrinsics.ll",
        "ir-llvm/test_data/control.ll",
        "ir-llvm/test_data/float_flow.ll",
        "ir-llvm/test_data/pointers.ll",
    ] {
        let (code, built_in, stderr) =
            absinthe(&["analyze", module, "--analysis", "sccp-ranges-dom"]);
        assert_eq!((code, stderr.as_str()), (0, ""), "{module}");
        // The last pair leaves both to the command (threads per core, pieces by size).
        let counts = [("1", "1"), ("1", "3"), ("2", "1"), ("2", "4"), ("", "")];
        for (threads, pieces) in counts {
            let mut args = vec![
                "analyze",
                module,
                "--dom",
                "dsl-examples/dom/sccp_ranges.dom",
            ];
            for (flag, count) in [("--threads", threads), ("--pieces", pieces)] {
                if !count.is_empty() {
                    args.extend([flag, count]);
                }
            }
            let (code, interpreted, stderr) = absinthe(&args);
            assert_eq!(
                (code, stderr.as_str()),
                (0, ""),
                "{module}, {threads} threads, {pieces} pieces"
            );
            assert_eq!(
                body(&interpreted),
                body(&built_in),
                "{module}, {threads} threads, {pieces} pieces"
            );
        }
    }
}

/// No count is zero: `--threads 0` and `--pieces 0` are refused by name (leaving the flag out
/// is how the command picks the count itself).
#[test]
fn zero_threads_or_pieces_are_refused() {
    for flag in ["--threads", "--pieces"] {
        let (code, _, stderr) = absinthe(&["analyze", "ir-llvm/test_data/control.ll", flag, "0"]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&format!("invalid value '0' for '{flag} <N>'")),
            "{stderr}"
        );
    }
}

/// The `.ll` files of `ir-llvm/test_data`.
fn test_modules() -> Vec<String> {
    let dir = common::workspace().join("ir-llvm/test_data");
    let mut modules: Vec<String> = std::fs::read_dir(&dir)
        .expect("read ir-llvm/test_data")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .map(|p| {
            format!(
                "ir-llvm/test_data/{}",
                p.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    modules.sort();
    assert!(modules.len() >= 5, "{modules:?}");
    modules
}

/// `verify FILE.ll` runs every defined function of the lowered module on random arguments, the
/// calls of its declarations and of the lowering's pseudo functions returning drawn values, and
/// checks each state against the analysis: built-in, compiled from a `.dom` file, or the same
/// file interpreted, which check the same points.
#[test]
fn verify_checks_lowered_modules_against_concrete_runs() {
    for module in test_modules() {
        let mut summaries = Vec::new();
        for analysis in [
            &["--analysis", "interval"][..],
            &["--analysis", "sccp"],
            &["--analysis", "sccp-ranges-dom"],
            &["--dom", "dsl-examples/dom/sccp_ranges.dom"],
        ] {
            let mut args = vec!["verify", module.as_str(), "--runs", "20"];
            args.extend(analysis);
            let (code, stdout, stderr) = absinthe(&args);
            assert_eq!((code, stderr.as_str()), (0, ""), "{args:?}\n{stdout}");
            let summary = stdout.lines().last().expect("a summary").to_owned();
            assert!(summary.ends_with(": 0 violations"), "{args:?}: {summary}");
            let runs: usize = summary
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a count of runs");
            assert!(runs >= 20, "{args:?}: {summary}");
            summaries.push(summary);
        }
        assert!(summaries.windows(2).all(|w| w[0] == w[1]), "{summaries:?}");
    }
}

/// A planted wrong reduction in a `.dom` file (a positive sign is refined to `[2, +∞]`, one
/// too high) is caught on a lowered LLVM module and blamed at the reduction's line, and an
/// operation no one rule is to blame for names the rules behind it, not a Rust type.
#[test]
fn verify_blames_a_planted_reduction_on_an_llvm_module() {
    let signs = std::fs::read_to_string(common::workspace().join("dsl-examples/dom/signs.dom"))
        .expect("read signs.dom");
    let right = "Sign::Pos => Interval::new(1, int::MAX),";
    assert!(
        signs.contains(right),
        "signs.dom changed: plant the bug elsewhere"
    );
    let line = 1 + signs[..signs.find("meet_ext interval_from_sign").unwrap()]
        .matches('\n')
        .count();
    let dir = common::scratch("verify-llvm-planted");
    let file = dir.join("planted.dom");
    std::fs::write(
        &file,
        signs.replace(right, "Sign::Pos => Interval::new(2, int::MAX),"),
    )
    .expect("write the planted file");
    let file = file.to_str().expect("a UTF-8 path");
    let (code, stdout, stderr) =
        absinthe(&["verify", "ir-llvm/test_data/pointers.ll", "--dom", file]);
    assert_eq!((code, stderr.as_str()), (1, ""), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "reduction into component `interval`: `meet_ext interval_from_sign` at {file}:{line}:1"
        )),
        "{stdout}"
    );
    let (code, stdout, _) = absinthe(&["verify", "ir-llvm/test_data/control.ll", "--dom", file]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        !stdout.contains("DynValue") && !stdout.contains("__private"),
        "{stdout}"
    );
    assert!(
        stdout.contains("rule `assume(==)` by the rules component `sign`: "),
        "{stdout}"
    );
}

/// The analyses with drivers of their own verify on core IR only, and say so.
#[test]
fn verify_refuses_an_llvm_module_for_the_heap_engines() {
    let (code, stdout, stderr) = absinthe(&[
        "verify",
        "ir-llvm/test_data/control.ll",
        "--analysis",
        "alias-heap",
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stderr.starts_with("ir-llvm/test_data/control.ll: error: this analysis is verified on"),
        "{stderr}"
    );
}

/// The per-function counts of `analyze FILE.ll --format json` as lines.
fn counts_of(module: &str, analysis: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "analyze",
        module,
        "--analysis",
        analysis,
        "--format",
        "json",
    ];
    args.extend(extra);
    let (code, stdout, stderr) = absinthe(&args);
    assert_eq!((code, stderr.as_str()), (0, ""), "{args:?}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    doc["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .map(|f| {
            format!(
                "{}: {} unreachable, {} of {} decided, {} of {} indices in [0, n)",
                f["name"].as_str().expect("a name"),
                f["unreachable"],
                f["decided"],
                f["branches"],
                f["in_bounds"],
                f["bounded"]
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The classic relational examples, from C (`ir-llvm/test_data/relational.c`, compiled at -O0
/// with `mem2reg`), proven from the command line: `octagon` (intervals, congruences and a
/// packed octagon) decides `x = y; x++; if (x > y)` and proves `a[i]` within a variable-length
/// array of `n` elements for `0 ≤ i < n`, where `interval` does neither; an increment that may
/// wrap (`unsigned`, unbounded) stays undecided. No warning: the relation is kept on LLVM.
#[test]
fn octagon_proves_the_classic_examples_where_intervals_do_not() {
    let module = "ir-llvm/test_data/relational.ll";
    expect_test::expect![[r#"
        fill: 0 unreachable, 0 of 1 decided, 0 of 2 indices in [0, n)
        copy_increment: 0 unreachable, 0 of 1 decided, 0 of 0 indices in [0, n)
        copy_increment_wraps: 0 unreachable, 0 of 1 decided, 0 of 0 indices in [0, n)
        copy_increment_bounded: 0 unreachable, 0 of 2 decided, 0 of 0 indices in [0, n)
        fill_unsigned: 0 unreachable, 0 of 2 decided, 0 of 2 indices in [0, n)
        pairs: 0 unreachable, 0 of 3 decided, 0 of 3 indices in [0, n)
        table: 0 unreachable, 0 of 3 decided, 2 of 2 indices in [0, n)
        two_loads: 0 unreachable, 0 of 2 decided, 0 of 0 indices in [0, n)"#]]
    .assert_eq(&counts_of(module, "interval", &[]));
    expect_test::expect![[r#"
        fill: 0 unreachable, 0 of 1 decided, 2 of 2 indices in [0, n)
        copy_increment: 1 unreachable, 1 of 1 decided, 0 of 0 indices in [0, n)
        copy_increment_wraps: 0 unreachable, 0 of 1 decided, 0 of 0 indices in [0, n)
        copy_increment_bounded: 1 unreachable, 1 of 2 decided, 0 of 0 indices in [0, n)
        fill_unsigned: 0 unreachable, 0 of 2 decided, 2 of 2 indices in [0, n)
        pairs: 0 unreachable, 0 of 3 decided, 3 of 3 indices in [0, n)
        table: 0 unreachable, 0 of 3 decided, 2 of 2 indices in [0, n)
        two_loads: 0 unreachable, 0 of 2 decided, 0 of 0 indices in [0, n)"#]]
    .assert_eq(&counts_of(module, "octagon", &[]));
    let (code, stdout, _) = absinthe(&["analyze", module, "--analysis", "octagon"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains(
            "# relation: Octagon (packs of at most 8 names), beside the values, in dense states"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("getelementptr indices proven within [0, n): 9 of 9 with a known n"),
        "{stdout}"
    );
}

/// The relation on a module read in pieces and analyzed on threads: the counts of one thread
/// and the whole module.
#[test]
fn the_relation_is_the_same_on_pieces_and_threads() {
    let module = "ir-llvm/test_data/relational.ll";
    let whole = counts_of(module, "octagon", &["--threads", "1", "--pieces", "1"]);
    for (threads, pieces) in [("2", "1"), ("1", "3"), ("2", "4")] {
        assert_eq!(
            counts_of(
                module,
                "octagon",
                &["--threads", threads, "--pieces", pieces]
            ),
            whole,
            "{threads} threads, {pieces} pieces"
        );
    }
}

/// `--state` does not apply to a relational domain's states, which are dense: the flag is
/// overridden with a note, and the line under the header says what ran.
#[test]
fn a_state_flag_overridden_by_the_relation_says_so() {
    let (code, stdout, stderr) = absinthe(&[
        "analyze",
        "ir-llvm/test_data/relational.ll",
        "--analysis",
        "octagon",
        "--state",
        "sparse",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "note: `--state sparse` is overridden: the relational component of `octagon` is kept in \
         dense states\n"
    );
    assert!(
        stdout.contains("state dense (the relational component keeps dense states;"),
        "{stdout}"
    );
}

/// `verify --analysis octagon` on every test module: each constraint of the relation, and each
/// value, holds in every state concrete runs of the lowered module reach.
#[test]
fn verify_checks_the_relation_on_lowered_modules() {
    for module in test_modules() {
        let args = [
            "verify",
            module.as_str(),
            "--analysis",
            "octagon",
            "--runs",
            "20",
        ];
        let (code, stdout, stderr) = absinthe(&args);
        assert_eq!((code, stderr.as_str()), (0, ""), "{args:?}\n{stdout}");
        let summary = stdout.lines().last().expect("a summary");
        assert!(summary.ends_with(": 0 violations"), "{args:?}: {summary}");
    }
}

/// Random modules from `llvm-stress` (fixed seeds), lowered whole: `verify --analysis octagon`
/// finds every state of concrete runs within the values and the relation.
#[test]
fn verify_checks_the_relation_on_random_llvm_modules() {
    let dir = common::scratch("verify-llvm-stress-octagon");
    let mut checked = 0;
    for seed in 1..=12 {
        let module = dir.join(format!("s{seed}.ll"));
        let status = std::process::Command::new("llvm-stress-15")
            .args([
                format!("-seed={seed}"),
                "-size=200".to_owned(),
                "-o".to_owned(),
            ])
            .arg(&module)
            .status()
            .expect("llvm-stress-15 runs (scripts/install-llvm.sh installs it)");
        assert!(status.success(), "llvm-stress -seed={seed}");
        let module = module.to_str().expect("a UTF-8 path");
        let args = ["verify", module, "--analysis", "octagon", "--runs", "5"];
        let (code, stdout, stderr) = absinthe(&args);
        assert_eq!((code, stderr.as_str()), (0, ""), "{args:?}\n{stdout}");
        let summary = stdout.lines().last().expect("a summary");
        assert!(summary.ends_with(": 0 violations"), "{args:?}: {summary}");
        checked += summary
            .split(' ')
            .nth(2)
            .and_then(|n| n.parse::<usize>().ok())
            .expect("a count of points");
    }
    assert!(checked > 1000, "{checked} points checked");
}
