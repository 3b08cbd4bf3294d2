//! Tidy checks over the whole workspace (they live here because the CLI crate sits on top of all
//! the others): module docs, dependency boundaries, no machine paths, and a book whose links and
//! includes resolve.

use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the CLI crate sits in the workspace")
        .to_path_buf()
}

/// Every file under `dir` whose name ends with one of `extensions`, skipping build output.
fn files(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            // Build output (cargo's and mdBook's), and the compiler's expected outputs, which are
            // generated code kept as data.
            let generated = name == "target"
                || name == ".git"
                || path.ends_with("book/book")
                || path.ends_with("domc/test_data/codegen");
            if !generated {
                files(&path, extensions, out);
            }
        } else if extensions.iter().any(|e| name.ends_with(e)) {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_opens_with_a_module_doc() {
    let mut sources = Vec::new();
    files(&workspace(), &[".rs"], &mut sources);
    assert!(sources.len() > 40, "found only {} files", sources.len());
    let missing: Vec<String> = sources
        .iter()
        .filter(|f| !std::fs::read_to_string(f).is_ok_and(|text| text.starts_with("//! ")))
        .map(|f| f.display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a `//!` doc: {missing:?}");
}

#[test]
fn the_runtime_knows_nothing_about_syntax() {
    let manifest = std::fs::read_to_string(workspace().join("runtime/Cargo.toml")).expect("read");
    let dependencies = manifest
        .split("[dependencies]")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .unwrap_or("");
    for forbidden in ["syn", "quote", "proc-macro2", "pest", "darling"] {
        assert!(
            !dependencies
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{forbidden} "))
                    || l.trim_start().starts_with(&format!("{forbidden}="))),
            "the runtime must not depend on {forbidden}"
        );
    }
}

#[test]
fn no_path_of_a_development_machine_is_committed() {
    let mut texts = Vec::new();
    files(
        &workspace(),
        &[
            ".rs", ".md", ".toml", ".pest", ".air", ".toy", ".dom", ".stderr",
        ],
        &mut texts,
    );
    let marker = ["/wo", "rk/"].concat();
    let offending: Vec<String> = texts
        .iter()
        .filter(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains(&marker)))
        .map(|f| f.display().to_string())
        .collect();
    assert!(offending.is_empty(), "machine paths in {offending:?}");
}

#[test]
fn the_book_links_and_includes_resolve() {
    let src = workspace().join("book/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).expect("SUMMARY.md");
    let mut chapters = 0;
    for link in summary.split("](").skip(1) {
        let target = link.split(')').next().unwrap_or("");
        assert!(
            src.join(target).is_file(),
            "SUMMARY.md links to missing {target}"
        );
        chapters += 1;
    }
    assert!(chapters >= 5);
    let mut pages = Vec::new();
    files(&src, &[".md"], &mut pages);
    for page in pages {
        let text = std::fs::read_to_string(&page).expect("read page");
        for include in text.split("{{#include ").skip(1) {
            let target = include.split("}}").next().unwrap_or("").trim();
            let file = target.split(':').next().unwrap_or("");
            let path = page.parent().expect("page dir").join(file);
            let Ok(included) = std::fs::read_to_string(&path) else {
                panic!("{} includes missing {file}", page.display());
            };
            if let Some(anchor) = target.split(':').nth(1).filter(|a| !a.is_empty()) {
                if anchor.parse::<usize>().is_err() {
                    assert!(
                        included.contains(&format!("ANCHOR: {anchor}")),
                        "{} includes missing anchor {anchor} of {file}",
                        page.display()
                    );
                }
            }
        }
    }
}

#[test]
fn the_book_closes_every_code_fence() {
    let mut pages = Vec::new();
    files(&workspace().join("book/src"), &[".md"], &mut pages);
    for page in pages {
        let text = std::fs::read_to_string(&page).expect("read page");
        let mut open: Option<(usize, String)> = None;
        for (i, line) in text.lines().enumerate() {
            let fence = line.trim_start();
            if !fence.starts_with("```") {
                continue;
            }
            let info = fence.trim_start_matches('`').trim();
            open = match open {
                // A fence that opens a block inside a block is the mistake: the first block
                // was never closed.
                Some((at, _)) if !info.is_empty() => panic!(
                    "{}:{}: a code block opens inside the one opened on line {at}",
                    page.display(),
                    i + 1
                ),
                Some(_) => None,
                None => Some((i + 1, info.to_string())),
            };
        }
        if let Some((at, _)) = open {
            panic!("{}:{at}: a code block is never closed", page.display());
        }
    }
}
