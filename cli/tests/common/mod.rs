//! What the command-line tests share.

// Each test module uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub mod markdown;

/// The workspace's root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the CLI crate sits in the workspace")
        .to_path_buf()
}

/// This workspace's target directory (the one the `absinthe` binary was built in): a crate
/// built there reuses the dependencies absinthe's own build compiled.
pub fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_absinthe"))
        .parent()
        .and_then(Path::parent)
        .expect("the binary sits in target/<profile>")
        .to_path_buf()
}

/// The profile settings, as cargo reads them from the environment, for every crate the tests
/// build outside the workspace (the book's "Your own crate", the crates `dom build` writes),
/// given to each `cargo` they run. Such a crate cannot reuse the workspace's own build: its
/// features differ (the command line without `builtin`, fewer features of shared dependencies),
/// so every crate it depends on compiles again whatever the profile. Unoptimized and without
/// debug information compiles fastest, and the same settings for `dev` and `test` let
/// `cargo run` and `cargo test` share what they compile (cargo tells units apart by their
/// settings, not by the profile's name). What these crates run is small.
pub const OUTSIDE_PROFILES: [(&str, &str); 4] = [
    ("CARGO_PROFILE_DEV_OPT_LEVEL", "0"),
    ("CARGO_PROFILE_DEV_DEBUG", "false"),
    ("CARGO_PROFILE_TEST_OPT_LEVEL", "0"),
    ("CARGO_PROFILE_TEST_DEBUG", "false"),
];

/// A fresh, empty directory `name` under the system's temporary directory, which must not lie
/// inside the checkout (a crate written there is outside the workspace).
pub fn outside_checkout(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .canonicalize()
        .expect("the temporary directory")
        .join(name);
    let root = workspace().canonicalize().expect("the checkout");
    assert!(
        !dir.starts_with(&root),
        "the temporary directory {} is inside the checkout",
        dir.display()
    );
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear the directory");
    }
    std::fs::create_dir_all(&dir).expect("create the directory");
    dir
}

/// Makes `to` a symbolic link to `from`.
#[cfg(unix)]
pub fn link(from: &Path, to: &Path) {
    std::os::unix::fs::symlink(from, to).expect("make a link");
}

/// Makes `to` a symbolic link to `from` (a file is copied where links need rights).
#[cfg(windows)]
pub fn link(from: &Path, to: &Path) {
    if from.is_file() {
        std::fs::copy(from, to).expect("copy a file");
    } else {
        std::os::windows::fs::symlink_dir(from, to).expect("link a directory");
    }
}

/// A fresh, empty directory for one test, under Cargo's scratch directory for integration tests.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear the scratch directory");
    }
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// Runs `absinthe ARGS` in `dir`, with the cache of compiled `.dom` files the tests share (and
/// no `ABSINTHE_PATH` from the caller's environment); returns the exit code, stdout and stderr.
///
/// `--compiled` builds the cache with `cargo build --release`; here the release profile is
/// unoptimized and without debug information (`CARGO_PROFILE_RELEASE_*`, which cargo reads from
/// the environment the command passes on): these tests check what the compiled analyses print,
/// and an optimized build of absinthe and all its dependencies took minutes on 2 cores.
/// Overflow checks and debug assertions stay as the release profile has them (off).
pub fn absinthe_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("absinthe-cache");
    let mut command = Command::new(env!("CARGO_BIN_EXE_absinthe"));
    command
        .args(args)
        .current_dir(dir)
        .env("ABSINTHE_CACHE", cache)
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env_remove("ABSINTHE_PATH");
    // The binary finds the checkout its generated crates depend on by where it sits; built
    // into a target directory outside the checkout (CARGO_TARGET_DIR), it is told instead.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let inside = match (
        Path::new(env!("CARGO_BIN_EXE_absinthe")).canonicalize(),
        root.canonicalize(),
    ) {
        (Ok(exe), Ok(root)) => exe.starts_with(root),
        _ => true,
    };
    if !inside {
        command.env("ABSINTHE_PATH", root);
    }
    let output = command.output().expect("the absinthe binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `absinthe ARGS` from the workspace root; returns the exit code, stdout and stderr.
pub fn absinthe(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_absinthe"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("the absinthe binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The annotation (after `│ `) of the line of function `function` in an annotated printout that
/// starts, after indentation, with `code`.
pub fn annotation<'a>(output: &'a str, function: &str, code: &str) -> &'a str {
    let body = output
        .split("\nfn ")
        .find(|f| f.starts_with(function))
        .unwrap_or_else(|| panic!("no function `{function}` in\n{output}"));
    let line = body
        .lines()
        .find(|l| l.trim_start().starts_with(code))
        .unwrap_or_else(|| panic!("no `{code}` in\n{body}"));
    line.split("│ ").nth(1).expect("annotated").trim_end()
}
