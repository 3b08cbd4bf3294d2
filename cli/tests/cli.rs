//! End-to-end tests of the `absinthe` binary: what a user sees on stdout and stderr, and the exit
//! codes.

use crate::common;
use common::absinthe;
use expect_test::{Expect, expect};

fn check(args: &[&str], expected: Expect) {
    let (code, stdout, stderr) = absinthe(args);
    expected.assert_eq(&format!(
        "exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}"
    ));
}

#[test]
fn analyze_without_arguments_prints_prog0() {
    check(
        &["analyze"],
        expect![[r#"
            exit 0
            --- stdout
            # analysis: const (worklist); stable; 10 steps
            # ran: engine flow (declared); state dense (declared); context none: toy programs have no calls (the declaration says insensitive)
              0  x = 1              │ x = ⊥, y = ⊥, z = ⊥, r = ⊥
              1  y = 2              │ x = 1, y = ⊥, z = ⊥, r = ⊥
              2  z = 3              │ x = 1, y = 2, z = ⊥, r = ⊥
              3  @goto 8            │ x = 1, y = 2, z = 3, r = ⊥
              4  r = y + z          │ x = ⊤, y = 2, z = 3, r = 5
              5  x <= z && @goto 7  │ x = ⊤, y = 2, z = 3, r = 5
              6  r = z + y          │ x = ⊤, y = 2, z = 3, r = 5
              7  x = x + 1          │ x = ⊤, y = 2, z = 3, r = 5
              8  x < 10 && @goto 4  │ x = ⊤, y = 2, z = 3, r = 5
            exit                    │ x = ⊤, y = 2, z = 3, r = 5
            --- stderr
        "#]],
    );
}

#[test]
fn json_of_a_toy_file() {
    let (code, stdout, _) = absinthe(&[
        "analyze",
        "ir/test_data/prog0.toy",
        "--analysis",
        "sccp",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    assert_eq!(doc["analysis"], "sccp");
    assert_eq!(doc["points"].as_array().map(Vec::len), Some(9));
    assert_eq!(doc["points"][0]["pc"], 0);
    assert_eq!(doc["points"][0]["state"]["x"], "bottom");
    assert_eq!(doc["points"][8]["state"]["r"], 5);
    assert_eq!(doc["points"][8]["state"]["x"], "top");
    assert_eq!(doc["exit"]["y"], 2);
    // Every name appears in every state, in program order.
    let names: Vec<&String> = doc["exit"]
        .as_object()
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    assert_eq!(names, ["x", "y", "z", "r"]);
}

#[test]
fn intervals_on_a_core_ir_loop() {
    check(
        &[
            "analyze",
            "ir/test_data/count.air",
            "--analysis",
            "interval",
        ],
        expect![[r#"
            exit 0
            --- stdout
            # analysis: interval
            # ran: engine flow (declared); state dense (declared); context none: the module has no calls (the declaration says insensitive)
            # main: stable; 9 block visits
            fn main() {
            bb0:
                i = 0                  │ i = ⊥
                goto head              │ i = [0, 0]
            head:
                br i < 10, body, done  │ i = [0, 10]
            body:
                i = i + 1              │ i = [0, 9]
                goto head              │ i = [1, 10]
            done:
                ret i                  │ i = [10, 10]
            }
            --- stderr
        "#]],
    );
}

#[test]
fn a_malformed_file_is_reported_with_its_place() {
    let dir = std::env::temp_dir().join(format!("absinthe-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bad.toy");
    std::fs::write(&file, "x = 1\ny = x +\n@goto 9\n").expect("write");
    let (code, stdout, stderr) = absinthe(&["analyze", file.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    let place = format!("{}:2:", file.display());
    assert!(stderr.contains(&place), "{stderr}");
    assert!(stderr.contains("error"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors() {
    let (code, _, stderr) = absinthe(&["analyze", "--analysis", "nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown analysis `nope`"), "{stderr}");
    // One analysis a line, its description in a column of its own.
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("  sccp-ranges-dom  sccp with")),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("  const            constant")),
        "{stderr}"
    );
    assert!(stderr.contains("sccp"), "{stderr}");
    let (code, _, stderr) = absinthe(&[
        "analyze",
        "ir/test_data/count.air",
        "--strategy",
        "graph-free",
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("toy programs only"), "{stderr}");
    let (code, _, stderr) = absinthe(&["analyze", "does/not/exist.toy"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("does/not/exist.toy"), "{stderr}");
}

#[test]
fn a_budget_that_runs_out_is_reported() {
    let (code, stdout, stderr) = absinthe(&["analyze", "--max-visits", "3"]);
    assert_eq!(code, 3);
    assert!(
        stdout.contains("budget exhausted after 3 visits"),
        "{stdout}"
    );
    assert!(stderr.contains("ran out of budget"), "{stderr}");
}

#[test]
fn every_state_representation_prints_the_same() {
    let files: [&[&str]; 5] = [
        &[],
        &["ir/test_data/prog0.toy"],
        &["ir/test_data/count.air"],
        &["ir/test_data/ssa_sum.air"],
        &["ir/test_data/memory.air"],
    ];
    for file in files {
        for analysis in ["const", "sccp", "interval"] {
            for format in ["text", "json"] {
                // The line under the header (the `ran` member of a JSON document) names the
                // representation; the rest is the same.
                let run = |state: &str| {
                    let mut args = vec!["analyze"];
                    args.extend_from_slice(file);
                    args.extend(["--analysis", analysis, "--format", format]);
                    args.extend(["--state", state]);
                    let (code, stdout, stderr) = absinthe(&args);
                    if format == "json" {
                        let mut doc: serde_json::Value =
                            serde_json::from_str(&stdout).expect("one JSON document");
                        let ran = doc
                            .as_object_mut()
                            .and_then(|d| d.remove("ran"))
                            .expect("a `ran` member");
                        assert_eq!(ran["state"]["value"], state, "{file:?} {analysis}: {ran}");
                        return (code, doc.to_string(), stderr);
                    }
                    let expected = format!("# ran: engine flow (declared); state {state} ");
                    let ran = stdout.lines().find(|l| l.starts_with("# ran: "));
                    assert!(
                        ran.is_some_and(|l| l.starts_with(&expected)),
                        "{file:?} {analysis} {state}: {stdout}"
                    );
                    let rest: Vec<&str> = stdout
                        .lines()
                        .filter(|l| !l.starts_with("# ran: "))
                        .collect();
                    (code, rest.join("\n"), stderr)
                };
                let dense = run("dense");
                assert_eq!(dense.0, 0, "{file:?} {analysis}: {}", dense.2);
                for state in ["sparse", "sparse-temporal"] {
                    assert_eq!(run(state), dense, "{file:?} {analysis} {format} {state}");
                }
            }
        }
    }
    for file in ["ir/test_data/count.air", "ir/test_data/prog0.toy"] {
        let verify = |state: &str| absinthe(&["verify", file, "--runs", "20", "--state", state]);
        let dense = verify("dense");
        assert_eq!(dense.0, 0, "{file}: {}", dense.1);
        assert_eq!(verify("sparse"), dense, "{file}");
        assert_eq!(verify("sparse-temporal"), dense, "{file}");
    }
}

#[test]
fn sparse_states_of_a_loop() {
    check(
        &[
            "analyze",
            "ir/test_data/count.air",
            "--analysis",
            "interval",
            "--state",
            "sparse-temporal",
        ],
        expect![[r#"
            exit 0
            --- stdout
            # analysis: interval
            # ran: engine flow (declared); state sparse-temporal (--state; the declaration says dense); context none: the module has no calls (the declaration says insensitive)
            # main: stable; 9 block visits
            fn main() {
            bb0:
                i = 0                  │ i = ⊥
                goto head              │ i = [0, 0]
            head:
                br i < 10, body, done  │ i = [0, 10]
            body:
                i = i + 1              │ i = [0, 9]
                goto head              │ i = [1, 10]
            done:
                ret i                  │ i = [10, 10]
            }
            --- stderr
        "#]],
    );
    let (code, _, stderr) = absinthe(&["analyze", "--strategy", "graph-free", "--state", "sparse"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("needs `--strategy worklist`"), "{stderr}");
}

#[cfg(not(feature = "llvm"))]
#[test]
fn llvm_modules_need_the_llvm_feature() {
    check(
        &["analyze", "ir-llvm/test_data/control.ll"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            ir-llvm/test_data/control.ll: error: this absinthe was built without the LLVM front end; install LLVM 15 with scripts/install-llvm.sh and build with `cargo build --release -p absinthe-cli --features llvm`
        "#]],
    );
}

#[test]
fn analyze_help_lists_every_analysis_with_a_line() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_absinthe"))
        .args(["analyze", "--help"])
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&out.stdout);
    for (name, line) in [
        ("const", "constant propagation"),
        ("sccp-ranges-dom", "signed and unsigned ranges"),
        ("strict", "strict parameters"),
    ] {
        assert!(
            help.lines()
                .any(|l| l.starts_with(&format!("  {name} ")) && l.contains(line)),
            "{help}"
        );
    }
}

/// `--state` and `--context` are the flow engine's: an analysis whose engine keeps states of its
/// own refuses them by name instead of running as if they had not been given.
#[test]
fn flags_an_engine_does_not_use_are_refused() {
    for analysis in ["escape", "shape", "typing-env", "alias-heap"] {
        for command in ["analyze", "verify"] {
            for flags in [["--state", "sparse"], ["--context", "kcfa=1"]] {
                let mut args = vec![command, "ir/test_data/escape.air", "--analysis", analysis];
                args.extend(flags);
                let (code, stdout, stderr) = absinthe(&args);
                assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
                let expected = format!("error: `{}` does not apply to `{analysis}`: ", flags[0]);
                assert!(stderr.starts_with(&expected), "{args:?}: {stderr}");
            }
        }
    }
}

/// Every built-in analysis on every sample program of `ir/test_data` (toy, core IR, kernel
/// terms), with `analyze`, `verify` and `trace`: each run ends with an exit code the command
/// documents (0, 1 for an error or a violation, 2 for a usage error, 3 for a budget that ran
/// out), never a panic, whatever the combination.
#[test]
fn no_analysis_panics_on_any_sample_with_any_command() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut samples: Vec<String> = Vec::new();
    for dir in ["ir/test_data", "ir/test_data/kernel"] {
        let entries = std::fs::read_dir(root.join(dir)).expect("read the samples");
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if [".toy", ".air", ".kt"].iter().any(|e| name.ends_with(e)) {
                samples.push(format!("{dir}/{name}"));
            }
        }
    }
    samples.sort();
    assert!(samples.len() >= 10, "samples: {samples:?}");
    let (mut runs, mut clean) = (0, 0);
    for analysis in absinthe_cli::analyses::AnalysisName::all() {
        for sample in &samples {
            for command in [
                &["analyze"][..],
                &["verify", "--runs", "3"][..],
                &["trace"][..],
            ] {
                let mut args = command.to_vec();
                args.extend([sample.as_str(), "--analysis", analysis.as_str()]);
                let (code, _, stderr) = absinthe(&args);
                assert!(
                    (0..=3).contains(&code) && !stderr.contains("panicked"),
                    "`absinthe {}` exited {code}:\n{stderr}",
                    args.join(" ")
                );
                runs += 1;
                clean += usize::from(code == 0);
            }
        }
    }
    // Most combinations run: the samples were found, and refusals stay the exception.
    assert!(
        runs > 500 && clean * 2 > runs,
        "{clean} of {runs} runs exited 0"
    );
}
