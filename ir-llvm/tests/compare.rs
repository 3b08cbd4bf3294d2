//! The head-to-head with LLVM's SCCP on the hand-written modules: `absinthe-llvm-compare
//! --check` runs `opt-15 -passes=sccp` and absinthe's `sccp`, and fails if any constant the two
//! both prove differs. Needs `opt-15` (scripts/install-llvm.sh).

use std::process::Command;

#[test]
fn absinthe_agrees_with_llvm_sccp_on_the_test_modules() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data");
    let output = Command::new(env!("CARGO_BIN_EXE_absinthe-llvm-compare"))
        .args(["--check", "--runs", "1"])
        .arg(format!("{dir}/widths.ll"))
        .arg(format!("{dir}/control.ll"))
        .output()
        .expect("the comparison runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    // Every constant LLVM folds in control.ll, absinthe proves too.
    assert!(
        stdout.contains("LLVM's SCCP folds 13 named values; absinthe also proves 13 of them"),
        "{stdout}"
    );
    assert!(stdout.contains("0 disagree"), "{stdout}");
}

#[test]
fn absinthe_proves_every_intrinsic_float_pointer_and_range_fold_llvm_makes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data");
    for (module, folds) in [
        ("intrinsics.ll", 55),
        ("floats.ll", 44),
        ("float_flow.ll", 95),
        ("pointers.ll", 0),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_absinthe-llvm-compare"))
            .args(["--check", "--runs", "1"])
            .arg(format!("{dir}/{module}"))
            .output()
            .expect("the comparison runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stdout}\n{stderr}");
        if folds > 0 {
            let all = format!(
                "LLVM's SCCP folds {folds} named values; absinthe also proves {folds} of them"
            );
            assert!(stdout.contains(&all), "{stdout}");
        }
        assert!(stdout.contains("0 disagree"), "{stdout}");
    }
}

/// The first of `names` that runs.
fn tool(names: &[&str]) -> String {
    names
        .iter()
        .find(|n| Command::new(n).arg("--version").output().is_ok())
        .unwrap_or_else(|| {
            panic!("none of {names:?} found (scripts/install-llvm.sh installs them)")
        })
        .to_string()
}

/// Random modules from `llvm-stress` (fixed seeds; the seed is in each function's name,
/// `autogen_SD<seed>`), linked into one: every function is read and lowered, the parallel
/// analysis equals the sequential one, and no constant absinthe proves differs from LLVM's.
#[test]
fn random_modules_are_read_in_pieces_analyzed_in_parallel_and_agree_with_llvm() {
    let stress = tool(&["llvm-stress-15", "llvm-stress"]);
    let link = tool(&["llvm-link-15", "llvm-link"]);
    let dir = std::env::temp_dir().join(format!("absinthe-stress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut parts = Vec::new();
    for seed in 1..=40 {
        let part = dir.join(format!("s{seed}.ll"));
        let status = Command::new(&stress)
            .args([
                format!("-seed={seed}"),
                "-size=300".to_owned(),
                "-o".to_owned(),
            ])
            .arg(&part)
            .status()
            .expect("llvm-stress runs");
        assert!(status.success(), "llvm-stress -seed={seed}");
        parts.push(part);
    }
    let linked = dir.join("linked.ll");
    let status = Command::new(&link)
        .arg("-S")
        .args(&parts)
        .arg("-o")
        .arg(&linked)
        .status()
        .expect("llvm-link runs");
    assert!(status.success(), "llvm-link");
    let output = Command::new(env!("CARGO_BIN_EXE_absinthe-llvm-compare"))
        .args(["--check", "--runs", "1", "--threads", "3"])
        .arg(&linked)
        .output()
        .expect("the comparison runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("skipped"), "{stdout}");
    assert!(
        stdout.contains("results equal the sequential run's"),
        "{stdout}"
    );
    assert!(stdout.contains("0 disagree"), "{stdout}");
    // Read in three pieces on three threads, the lowering is the whole module's.
    assert!(
        stdout.contains("in 3 pieces on 3 threads")
            && stdout.contains("lowering equal to the whole module's"),
        "{stdout}"
    );
}
