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
