//! The README and the book say what is true: every Rust snippet of the book is included from a
//! file that is compiled (and so cannot rot), and every command of a shell block runs.
//!
//! A command is one of:
//! - `absinthe ARGS`, `target/release/absinthe ARGS` or `cargo run [--release] -p absinthe-cli --
//!   ARGS`: run (this build's `absinthe`) in a directory that mirrors the workspace, where it must
//!   succeed; an `.ll` file needs the `llvm` feature and is only checked as a synopsis without it;
//! - a synopsis, with placeholders (`FILE`, `NAME`, `[--flag …]`, `a|b`): every `--flag` it names
//!   must be one the subcommand's `--help` lists;
//! - `cargo SUBCOMMAND …` of another package, or of a crate an earlier command of the block wrote:
//!   the packages, binaries, features and manifests it names must exist (building them is other
//!   tests' work: the benches print figures, the LLVM tests run in `.ci/run`);
//! - `scripts/NAME`: the script exists and is executable;
//! - `cd DIR` (the next commands run there).

use crate::common;

use common::markdown::{self, blocks};
use common::{absinthe_in, link, scratch, workspace};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The chapter whose code blocks are the files and commands of a crate outside the workspace,
/// which `new_crate.rs` writes, runs and checks; the tests here leave its blocks to it.
const NEW_CRATE: &str = "book/src/new-crate.md";

/// The README and every chapter of the book, with their text.
fn documents() -> Vec<(String, String)> {
    let root = workspace();
    let mut files = vec![root.join("README.md")];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root.join("book/src"))
        .expect("read book/src")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    files.extend(chapters);
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read a document");
            let name = p
                .strip_prefix(&root)
                .expect("under the workspace")
                .display()
                .to_string();
            (name, text)
        })
        .collect()
}

#[test]
fn every_rust_snippet_of_the_book_is_included_from_a_compiled_file() {
    let root = workspace();
    let mut snippets = 0;
    for (name, text) in documents() {
        let dir = root
            .join(&name)
            .parent()
            .expect("a directory")
            .to_path_buf();
        for block in blocks(&text) {
            if !block.info.starts_with("rust") {
                continue;
            }
            snippets += 1;
            let place = format!("{name}:{}", block.line);
            if name == NEW_CRATE {
                // Compiled by `new_crate.rs`, in the crate the chapter builds.
                assert!(
                    block
                        .note
                        .as_deref()
                        .is_some_and(|n| n.starts_with("file: ")),
                    "{place}: a Rust snippet of the new-crate chapter is a file of its crate \
                     (`<!-- file: src/… -->` before it), or `new_crate.rs` never compiles it"
                );
                continue;
            }
            let include = block
                .body
                .trim()
                .strip_prefix("{{#include ")
                .and_then(|rest| rest.strip_suffix("}}"))
                .unwrap_or_else(|| {
                    panic!(
                        "{place}: a Rust snippet written in the book is never compiled; put it in \
                         a compiled file (a test or an example) and `{{{{#include file:anchor}}}}` it"
                    )
                });
            let (file, anchor) = match include.split_once(':') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (include, None),
            };
            let path = dir.join(file);
            let source = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{place}: cannot read `{file}`: {e}"));
            let compiled = path.extension().is_some_and(|e| e == "rs");
            assert!(compiled, "{place}: `{file}` is not a Rust file");
            if let Some(anchor) = anchor {
                assert!(
                    source.contains(&format!("ANCHOR: {anchor}"))
                        && source.contains(&format!("ANCHOR_END: {anchor}")),
                    "{place}: `{file}` has no anchor `{anchor}`"
                );
            }
        }
    }
    assert!(snippets >= 10, "only {snippets} Rust snippets found");
}

/// A command of a shell block, with where it is written.
#[derive(Debug)]
struct Written {
    place: String,
    words: Vec<String>,
    text: String,
}

/// The commands of every shell block (`sh`, `bash`, `console`), continuation lines joined and
/// comments dropped.
fn commands() -> Vec<Vec<Written>> {
    let mut out = Vec::new();
    for (name, text) in documents() {
        // The new-crate chapter's commands run in the crate it builds (`new_crate.rs`).
        if name == NEW_CRATE {
            continue;
        }
        for block in blocks(&text) {
            if !matches!(block.info.as_str(), "sh" | "bash" | "console" | "shell") {
                continue;
            }
            let mut written: Vec<Written> = Vec::new();
            for (line, text) in markdown::commands(&block) {
                // A synopsis goes on over lines that start with an option.
                if let (true, Some(last)) = (text.starts_with('['), written.last_mut()) {
                    last.text = format!("{} {text}", last.text);
                    last.words.extend(text.split(' ').map(str::to_owned));
                } else {
                    written.push(Written {
                        place: format!("{name}:{line}"),
                        words: text.split(' ').map(str::to_owned).collect(),
                        text,
                    });
                }
            }
            out.push(written);
        }
    }
    out
}

/// Whether `word` is a placeholder or synopsis notation rather than something to run.
fn placeholder(word: &str) -> bool {
    let stem = word.split('.').next().unwrap_or(word);
    word.contains(['[', ']', '|', '…', '*'])
        || (!stem.is_empty()
            && stem.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            && !word.starts_with('-'))
}

/// The workspace's packages: name → (binaries, features).
fn packages() -> BTreeMap<String, (Vec<String>, Vec<String>)> {
    let root = workspace();
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .expect("read Cargo.toml")
        .parse()
        .expect("Cargo.toml is TOML");
    let members = manifest["workspace"]["members"]
        .as_array()
        .expect("workspace members");
    let mut out = BTreeMap::new();
    for member in members {
        let dir = root.join(member.as_str().expect("a member path"));
        let package: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml"))
            .expect("read a member's Cargo.toml")
            .parse()
            .expect("TOML");
        let name = package["package"]["name"]
            .as_str()
            .expect("a name")
            .to_owned();
        let mut bins: Vec<String> = package
            .get("bin")
            .and_then(|b| b.as_array())
            .map(|bins| {
                bins.iter()
                    .filter_map(|b| b.get("name").and_then(|n| n.as_str()).map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        if let Ok(entries) = std::fs::read_dir(dir.join("src/bin")) {
            bins.extend(entries.filter_map(|e| {
                let path = e.ok()?.path();
                Some(path.file_stem()?.to_string_lossy().into_owned())
            }));
        }
        if dir.join("src/main.rs").is_file() {
            bins.push(name.clone());
        }
        let features = package
            .get("features")
            .and_then(|f| f.as_table())
            .map(|f| f.keys().cloned().collect())
            .unwrap_or_default();
        out.insert(name, (bins, features));
    }
    out
}

/// A directory that looks like the workspace (every top-level entry linked), where commands that
/// write files (`dom build --out …`) write them.
fn mirror() -> PathBuf {
    let dir = scratch("book-commands");
    for entry in std::fs::read_dir(workspace()).expect("read the workspace") {
        let entry = entry.expect("an entry");
        let name = entry.file_name();
        if name == "target" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        link(&entry.path(), &dir.join(&name));
    }
    dir
}

/// `absinthe ARGS` in `dir`: exit code, stdout and stderr.
fn absinthe(dir: &Path, args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    absinthe_in(dir, &args)
}

/// The `--flags` the help of `absinthe SUBCOMMAND…` lists.
fn help_flags(dir: &Path, subcommand: &[String]) -> Vec<String> {
    let mut args = subcommand.to_vec();
    args.push("--help".to_owned());
    let (code, stdout, stderr) = absinthe(dir, &args);
    assert_eq!(code, 0, "absinthe {args:?}: {stderr}");
    stdout
        .split(|c: char| c.is_whitespace() || c == ',' || c == '=' || c == '<')
        .filter(|w| w.starts_with("--"))
        .map(str::to_owned)
        .collect()
}

/// What to do with a command whose program is `absinthe`: run it, or check it as a synopsis.
fn absinthe_command(dir: &Path, written: &Written, args: &[String]) -> &'static str {
    let synopsis = args.iter().any(|a| placeholder(a));
    let needs_llvm = args
        .iter()
        .any(|a| a.ends_with(".ll") || a.ends_with(".bc"));
    if synopsis || (needs_llvm && !cfg!(feature = "llvm")) {
        let subcommand: Vec<String> = args
            .iter()
            .take_while(|a| !a.starts_with('-') && !placeholder(a) && !a.contains('.'))
            .cloned()
            .collect();
        let flags = help_flags(dir, &subcommand);
        for word in args {
            let flag = word
                .trim_start_matches('[')
                .split(['=', ']'])
                .next()
                .unwrap_or(word);
            if flag.starts_with("--") {
                assert!(
                    flags.iter().any(|f| f == flag),
                    "{}: `absinthe {}` has no `{flag}` (`{}`)",
                    written.place,
                    subcommand.join(" "),
                    written.text
                );
            }
        }
        return "checked";
    }
    let (code, stdout, stderr) = absinthe(dir, args);
    assert_eq!(
        code, 0,
        "{}: `{}` failed:\n{stdout}{stderr}",
        written.place, written.text
    );
    "ran"
}

/// Checks a `cargo …` command that is not run: what it names exists.
fn cargo_command(
    dir: &Path,
    written: &Written,
    packages: &BTreeMap<String, (Vec<String>, Vec<String>)>,
) {
    let words = &written.words;
    let value = |flag: &str| {
        words
            .iter()
            .position(|w| w == flag)
            .and_then(|i| words.get(i + 1))
            .cloned()
    };
    let place = &written.place;
    let subcommand = words.get(1).map(String::as_str).unwrap_or("");
    assert!(
        ["run", "test", "build", "install", "bench", "doc"].contains(&subcommand),
        "{place}: unexpected `cargo {subcommand}`"
    );
    if let Some(manifest) = value("--manifest-path") {
        assert!(
            dir.join(&manifest).is_file(),
            "{place}: no `{manifest}` written by the commands before it"
        );
    }
    let Some(package) = value("-p") else {
        return;
    };
    let (bins, features) = packages
        .get(&package)
        .unwrap_or_else(|| panic!("{place}: no package `{package}` in the workspace"));
    if let Some(bin) = value("--bin") {
        assert!(
            bins.contains(&bin),
            "{place}: `{package}` has no binary `{bin}`"
        );
    }
    if let Some(feature) = value("--features") {
        assert!(
            features.contains(&feature),
            "{place}: `{package}` has no feature `{feature}`"
        );
    }
}

#[test]
fn every_command_of_the_readme_and_the_book_runs_or_names_what_exists() {
    let mirror = mirror();
    let packages = packages();
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for block in commands() {
        let mut dir = mirror.clone();
        // Commands inside a crate an earlier command wrote are that crate's, not absinthe's.
        let mut in_generated_crate = false;
        for written in &block {
            let words = &written.words;
            let program = words[0].as_str();
            let what = match program {
                "absinthe" | "target/release/absinthe" => {
                    absinthe_command(&dir, written, &words[1..])
                }
                "cargo" => {
                    let cli = words.windows(2).any(|w| w == ["-p", "absinthe-cli"]);
                    let separator = words.iter().position(|w| w == "--");
                    match (words.get(1).map(String::as_str), separator) {
                        (Some("run"), Some(at))
                            if cli && !words.contains(&"--features".to_owned()) =>
                        {
                            absinthe_command(&dir, written, &words[at + 1..])
                        }
                        (Some("run"), Some(at)) if in_generated_crate => {
                            // The crate's binary is `analyze` and `verify` with its analyses.
                            let sub = words.get(at + 1).map(String::as_str).unwrap_or("");
                            assert!(
                                ["analyze", "verify", "--help"].contains(&sub),
                                "{}: the generated binary has no `{sub}`",
                                written.place
                            );
                            // The binary is built only with the crate's feature `cli` (which
                            // `llvm` turns on).
                            let feature = words
                                .iter()
                                .position(|w| w == "--features")
                                .and_then(|i| words.get(i + 1));
                            assert!(
                                matches!(feature.map(String::as_str), Some("cli" | "llvm")),
                                "{}: the generated binary needs `--features cli`",
                                written.place
                            );
                            "checked"
                        }
                        _ => {
                            cargo_command(&dir, written, &packages);
                            "checked"
                        }
                    }
                }
                "cd" => {
                    let target = &words[1];
                    assert!(
                        placeholder(target)
                            || dir.join(target).is_dir()
                            || block
                                .iter()
                                .any(|w| w.text.contains(&format!("--out {target}"))),
                        "{}: no directory `{target}`",
                        written.place
                    );
                    dir = dir.join(target);
                    in_generated_crate = true;
                    "checked"
                }
                _ if program.starts_with("scripts/") => {
                    let path = workspace().join(program);
                    let mode = std::fs::metadata(&path)
                        .unwrap_or_else(|e| panic!("{}: `{program}`: {e}", written.place));
                    #[cfg(unix)]
                    {
                        use std::os::unix::fs::PermissionsExt;
                        assert!(
                            mode.permissions().mode() & 0o111 != 0,
                            "{}: `{program}` is not executable",
                            written.place
                        );
                    }
                    let _ = mode;
                    "checked"
                }
                _ => panic!(
                    "{}: `{}`: this test does not know how to check `{program}`; teach it",
                    written.place, written.text
                ),
            };
            *tally.entry(what).or_default() += 1;
        }
    }
    eprintln!("commands of the README and the book: {tally:?}");
    assert!(tally.get("ran").copied().unwrap_or(0) >= 10, "{tally:?}");
}

/// The book's table of analyses (in `cli.md`, between the two markers) is the built-in catalog
/// that `absinthe analyze --help` lists, generated by `catalog_markdown`; `UPDATE_EXPECT=1`
/// writes it.
#[test]
fn the_book_lists_the_analyses_of_the_catalog() {
    const START: &str = "  <!-- The catalog of `absinthe analyze --help`, generated: run the tests \
                         with UPDATE_EXPECT=1 to write it. -->\n";
    const END: &str = "  <!-- End of the generated catalog. -->\n";
    let path = workspace().join("book/src/cli.md");
    let text = std::fs::read_to_string(&path).expect("read cli.md");
    let (Some(start), Some(end)) = (text.find(START), text.find(END)) else {
        panic!("cli.md has no generated catalog between `{START}` and `{END}`");
    };
    let generated =
        absinthe_cli::analyses::catalog_markdown::<absinthe_cli::analyses::AnalysisName>("  ");
    let written = &text[start + START.len()..end];
    if written != generated {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            let updated = format!(
                "{}{generated}{}",
                &text[..start + START.len()],
                &text[end..]
            );
            std::fs::write(&path, updated).expect("write cli.md");
        } else {
            panic!(
                "the book's table of analyses is not the catalog; run the tests with \
                 UPDATE_EXPECT=1.\nwritten:\n{written}\ngenerated:\n{generated}"
            );
        }
    }
}
