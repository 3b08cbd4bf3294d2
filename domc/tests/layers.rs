//! The `.dom` front end's phases depend on each other one way: checking (`sema/` and the body
//! checker `check/`) produces the typed tree and diagnostics and no Rust, and the body checker
//! never reaches back into `sema/`. These tests read the sources to hold that.

use std::path::{Path, PathBuf};

/// The `.rs` files of `domc/src/dom/<dir>`.
fn sources(dir: &str) -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/dom")
        .join(dir);
    let mut out: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|entry| entry.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read source");
            (p, text)
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no sources in {}", dir.display());
    out
}

#[test]
fn checking_generates_no_rust() {
    for dir in ["sema", "check"] {
        for (path, text) in sources(dir) {
            for generating in ["quote!", "TokenStream", "super::rust", "dom::rust"] {
                assert!(
                    !text.contains(generating),
                    "{} mentions `{generating}`: checking produces the tree, `rust/` the code",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn the_body_checker_does_not_import_sema() {
    for (path, text) in sources("check") {
        for upward in ["super::sema", "dom::sema", "super::super::sema"] {
            assert!(
                !text.contains(upward),
                "{} imports `sema`: `sema` calls the body checker, not the other way round",
                path.display()
            );
        }
    }
}

#[test]
fn the_generator_reads_the_tree_not_the_syntax() {
    for (path, text) in sources("rust") {
        for earlier in [
            "dom::ast",
            "dom::sema",
            "dom::check",
            "super::ast",
            "super::sema",
        ] {
            assert!(
                !text.contains(earlier),
                "{} imports `{earlier}`: the generator reads only the checked tree",
                path.display()
            );
        }
    }
}
