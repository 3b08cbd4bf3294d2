//! Tidy checks on this crate's sources: every Rust file opens with a `//!` module doc.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_opens_with_a_module_doc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "examples"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 10, "found only {files:?}");
    let missing: Vec<String> = files
        .iter()
        .filter(|f| !std::fs::read_to_string(f).is_ok_and(|text| text.starts_with("//! ")))
        .map(|f| f.display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a `//!` doc: {missing:?}");
}
