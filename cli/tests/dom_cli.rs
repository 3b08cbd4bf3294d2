//! `absinthe dom check` and `absinthe dom build` as a user runs them: the summary or the rendered
//! diagnostics with their exit codes, and a standalone crate that Cargo builds and tests as it is.

use expect_test::expect;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the CLI crate sits in the workspace")
        .to_path_buf()
}

/// A fresh directory for one test, under Cargo's scratch directory for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear the scratch directory");
    }
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// Runs `absinthe ARGS` in `dir`; returns the exit code, stdout and stderr.
fn absinthe(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_absinthe"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the absinthe binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

const BROKEN: &str = "\
// The literal rule returns an integer where a lattice value is due.
lattice Const = flat(int);

product Value reduce never {
    constant: Const,
}

transfer from_literal on literal (c: int) -> Const = c + 1;
";

#[test]
fn check_reports_a_summary_for_a_good_file() {
    let (code, stdout, stderr) = absinthe(
        &workspace(),
        &["dom", "check", "dsl-examples/dom/const_prop.dom"],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    let rest = stdout
        .strip_prefix("dsl-examples/dom/const_prop.dom: ok (")
        .unwrap_or_else(|| panic!("unexpected summary: {stdout}"));
    assert!(
        rest.contains(" lattices, ") && rest.ends_with(" analyses)\n"),
        "{stdout}"
    );
}

#[test]
fn check_renders_the_diagnostics_of_a_broken_file() {
    let dir = scratch("dom-check-broken");
    std::fs::write(dir.join("broken.dom"), BROKEN).expect("write broken.dom");
    let (code, stdout, stderr) = absinthe(&dir, &["dom", "check", "broken.dom"]);
    expect![[r#"
        exit 1
        --- stdout
        --- stderr
        error: expected `Const` (the declared result), found `int`
          ┌─ broken.dom:8:54
          │
        8 │ transfer from_literal on literal (c: int) -> Const = c + 1;
          │                                                      ^^^^^ this is `int`

    "#]]
    .assert_eq(&format!(
        "exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}"
    ));
}

#[test]
fn build_of_a_broken_file_writes_nothing() {
    let dir = scratch("dom-build-broken");
    std::fs::write(dir.join("broken.dom"), BROKEN).expect("write broken.dom");
    let (code, _, stderr) = absinthe(&dir, &["dom", "build", "broken.dom", "--out", "crate"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("broken.dom:8:54"), "{stderr}");
    assert!(!dir.join("crate").exists());
}

#[test]
fn build_refuses_extern_declarations() {
    let dir = scratch("dom-build-extern");
    let text = "extern fn clamp(x: int) -> int;\nlattice Const = flat(int);\n";
    std::fs::write(dir.join("host.dom"), text).expect("write host.dom");
    let (code, _, stderr) = absinthe(&dir, &["dom", "build", "host.dom", "--out", "crate"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("cannot provide `extern` declarations") && stderr.contains("host.dom:1:1"),
        "{stderr}"
    );
    assert!(!dir.join("crate").exists());
}

/// Builds the crate of `dsl-examples/dom/const_prop.dom` into a fresh directory.
fn build_const_prop(name: &str) -> PathBuf {
    let out = scratch(name);
    let file = workspace().join("dsl-examples/dom/const_prop.dom");
    let (code, stdout, stderr) = absinthe(
        &workspace(),
        &[
            "dom",
            "build",
            &file.display().to_string(),
            "--out",
            &out.display().to_string(),
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    out
}

#[test]
fn build_writes_a_well_formed_crate() {
    let out = build_const_prop("dom-build-files");
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "src/lib.rs",
        "tests/generated.rs",
    ] {
        assert!(out.join(file).is_file(), "{file} is missing");
    }
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).expect("read Cargo.toml");
    let manifest: toml::Table = manifest.parse().expect("Cargo.toml is TOML");
    assert_eq!(manifest["package"]["name"].as_str(), Some("const_prop"));
    assert!(manifest["workspace"].is_table(), "not its own workspace");
    let path = |section: &str, dependency: &str| {
        let path = manifest[section][dependency]["path"]
            .as_str()
            .unwrap_or_else(|| panic!("{section}.{dependency} has no path"));
        PathBuf::from(path)
    };
    assert_eq!(
        path("dependencies", "absinthe"),
        workspace().join("runtime")
    );
    assert_eq!(
        path("dev-dependencies", "absinthe"),
        workspace().join("runtime")
    );
    assert_eq!(
        path("dev-dependencies", "absinthe-ir"),
        workspace().join("ir")
    );
    assert_eq!(
        manifest["dev-dependencies"]["absinthe"]["features"]
            .as_array()
            .map(|f| f.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>()),
        Some(vec!["laws"])
    );
    let library = std::fs::read_to_string(out.join("src/lib.rs")).expect("read lib.rs");
    assert!(library.starts_with("//! "));
    assert!(library.contains("pub mod const_prop {"));
    assert!(library.ends_with("pub use const_prop::*;\n"));
    let tests = std::fs::read_to_string(out.join("tests/generated.rs")).expect("read tests");
    for expected in [
        "<dom::Const as Laws>::check_laws();",
        "<dom::ConstValue as Laws>::check_laws();",
        "fn const_prop_reaches_a_stable_fixpoint()",
        "fn sccp_prop_reaches_a_stable_fixpoint()",
    ] {
        assert!(tests.contains(expected), "no `{expected}` in\n{tests}");
    }
}

/// The real thing: Cargo builds the crate and its tests pass. It shares this workspace's target
/// directory (the one the `absinthe` binary was built in), so absinthe is not built again.
#[test]
fn the_built_crate_passes_its_tests() {
    let out = build_const_prop("dom-build-cargo");
    let binary = Path::new(env!("CARGO_BIN_EXE_absinthe"));
    let target = binary
        .parent()
        .and_then(Path::parent)
        .expect("the binary sits in target/<profile>");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .arg("test")
        .arg("--manifest-path")
        .arg(out.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .current_dir(&out)
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("test const_prop_reaches_a_stable_fixpoint ... ok")
            && stdout.contains("test const_value_obeys_the_lattice_laws ... ok"),
        "{stdout}"
    );
}
