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
        function               blocks unreach   values constants branches decided
        dead_branch                 4       1        3         2        1       1
        switch_const                4       2        1         1        1       1
        undef_phi                   3       0        1         1        1       0
        constant_loads              1       0       11         9        0       0
        unknowns                    3       0        4         0        1       0
        loop                        4       0        4         1        1       0
        unknowns_stay_unknown       5       0        8         0        3       0
        tested_load                 3       0        4         1        1       0
        total                      27       3       36        15        9       2
        # 8 functions; values proven constant: 15; branches decided: 2; blocks proven unreachable: 3"#]]
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
