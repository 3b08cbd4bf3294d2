//! Data-driven tests of the `.dom` compiler: every file in `test_data/{parse,sema,codegen}/
//! {ok,err}/`. A file under `err/` must fail with exactly the diagnostics in its `.stderr`
//! (the full rendered text, place and help included); a file under `ok/` must compile, and one
//! under `codegen/ok/` must generate exactly its `.rs`. Bless new expectations with
//! `UPDATE_EXPECT=1 cargo test -p absinthe-domc --test corpus`.

use std::path::{Path, PathBuf};

/// The `.dom` files of `dir` (none when the folder does not exist: git keeps no empty folders).
fn files(dir: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .map(|entry| entry.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dom"))
        .collect();
    out.sort();
    out
}

/// Compares `actual` with the file `expected`, or writes it when blessing.
fn check(expected: &Path, actual: &str, failures: &mut Vec<String>) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(expected, actual).expect("write expectation");
        return;
    }
    let want = std::fs::read_to_string(expected).unwrap_or_default();
    if want != actual {
        failures.push(format!(
            "{}: expected\n{want}\n--- got\n{actual}",
            expected.display()
        ));
    }
}

fn run(phase: &str) -> (usize, usize) {
    let mut failures = Vec::new();
    let mut counts = (0, 0);
    for file in files(&format!("test_data/{phase}/err")) {
        counts.1 += 1;
        match absinthe_domc::compile_file(&file) {
            Ok(_) => failures.push(format!("{}: compiled, expected errors", file.display())),
            Err(failure) => check(
                &file.with_extension("stderr"),
                &failure.to_string(),
                &mut failures,
            ),
        }
    }
    for file in files(&format!("test_data/{phase}/ok")) {
        counts.0 += 1;
        match absinthe_domc::compile_file(&file) {
            Ok(compiled) => {
                if phase == "codegen" {
                    check(&file.with_extension("rs"), &compiled.rust, &mut failures);
                }
            }
            Err(failure) => failures.push(format!("{}: {failure}", file.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    counts
}

#[test]
fn parse_corpus() {
    let (ok, err) = run("parse");
    assert!(ok >= 1 && err >= 10, "{ok} ok, {err} err");
}

#[test]
fn sema_corpus() {
    let (ok, err) = run("sema");
    assert!(ok >= 2 && err >= 30, "{ok} ok, {err} err");
}

#[test]
fn codegen_corpus() {
    let (ok, _) = run("codegen");
    assert!(ok >= 2);
}

#[test]
fn generated_code_is_deterministic() {
    for file in files("test_data/codegen/ok") {
        let a = absinthe_domc::compile_file(&file).expect("compiles").rust;
        let b = absinthe_domc::compile_file(&file).expect("compiles").rust;
        assert_eq!(a, b, "{}", file.display());
    }
}

/// Compiled for calls (`absinthe analyze --compiled`'s cache), a file's code is the same but
/// for the `#[inline]` of each rule, reduction and written-out operation: the corpus's
/// expectations, less those lines, are what it generates.
#[test]
fn code_for_calls_leaves_out_the_inline_of_each_function_only() {
    use absinthe_domc::{Inlining, compile_file_with};
    let mut functions = 0;
    for file in files("test_data/codegen/ok") {
        let rules = compile_file_with(&file, Inlining::Rules)
            .expect("compiles")
            .rust;
        let calls = compile_file_with(&file, Inlining::Calls)
            .expect("compiles")
            .rust;
        let inline = function_inline_lines(&rules);
        functions += inline.len();
        let mut kept: Vec<&str> = rules.lines().collect();
        for i in inline.iter().rev() {
            kept.remove(*i);
        }
        assert_eq!(kept.join("\n"), calls.trim_end(), "{}", file.display());
        assert!(
            !calls.contains("#[inline]\n    pub fn"),
            "{}",
            file.display()
        );
    }
    assert!(
        functions > 0,
        "no function of the corpus was marked `#[inline]`"
    );
}

/// The lines of `rust` that are a function's `#[inline]`: those followed by a `pub fn` or
/// `fn` at the same indentation, directly inside the module.
fn function_inline_lines(rust: &str) -> Vec<usize> {
    let lines: Vec<&str> = rust.lines().collect();
    (0..lines.len().saturating_sub(1))
        .filter(|&i| {
            lines[i] == "    #[inline]"
                && (lines[i + 1].starts_with("    pub fn ") || lines[i + 1].starts_with("    fn "))
        })
        .collect()
}
