//! The book's chapter "Your own crate" (`book/src/new-crate.md`), followed word for word in a
//! directory outside the workspace: each code block marked `<!-- file: PATH -->` is written to
//! (or, when the path came before, appended to) that file of the crate; each shell block's
//! commands run in turn (`cd` moves on); a block marked `<!-- output -->` is what the command
//! just before it prints on standard output, and one marked `<!-- output excerpt -->` lines each
//! found in what it prints on either stream (in any order: tests run in parallel); `status N`
//! says how it exits (0 when not said). Any other block fails the test, so nothing the chapter
//! shows goes unchecked.
//!
//! The clone the chapter depends on (`../absinthe`) is a link to this workspace. The crate is
//! built in this workspace's target directory, with the settings of `common::OUTSIDE_PROFILES`
//! (unoptimized, the same for `cargo run` and `cargo test`, so that the two share what they
//! compile); that changes how fast it builds, not what it does.

use crate::common::markdown::{self, Block};
use crate::common::{OUTSIDE_PROFILES, link, outside_checkout, target_dir, workspace};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The chapter, from the workspace's root.
const CHAPTER: &str = "book/src/new-crate.md";

/// What a command printed and how it exited.
struct Ran {
    place: String,
    text: String,
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Ran {
    fn describe(&self) -> String {
        format!(
            "{}: `{}` exited with {:?}\n--- stdout\n{}--- stderr\n{}",
            self.place, self.text, self.status, self.stdout, self.stderr
        )
    }
}

/// A fresh directory under the system's temporary directory, outside the workspace, with
/// `absinthe` linked to the workspace. Its name is the same on every run of a checkout: cargo
/// tells path dependencies apart by their paths, and a new path each run would compile absinthe
/// again each run into the shared target directory.
fn outside() -> PathBuf {
    let root = workspace().canonicalize().expect("the checkout");
    // One directory per checkout: two checkouts testing at once (a CI clone beside a working
    // copy) must not build in each other's crate.
    let mut hasher = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(&root, &mut hasher);
    let key = std::hash::Hasher::finish(&hasher);
    let dir = outside_checkout(&format!("absinthe-new-crate-{key:016x}"));
    link(&root, &dir.join("absinthe"));
    dir
}

/// Runs `text` with `sh -c` in `dir`, with this test's cargo first on the path.
fn run(dir: &Path, place: String, text: &str) -> Ran {
    let mut path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(cargo) = std::env::var_os("CARGO") {
        let bin = Path::new(&cargo)
            .parent()
            .expect("cargo sits in a directory");
        let mut paths = vec![bin.to_path_buf()];
        paths.extend(std::env::split_paths(&path));
        path = std::env::join_paths(paths).expect("a path");
    }
    let output = Command::new("sh")
        .arg("-c")
        .arg(text)
        .current_dir(dir)
        .env("PATH", path)
        .env("CARGO_TARGET_DIR", target_dir())
        .envs(OUTSIDE_PROFILES)
        .env("CARGO_TERM_COLOR", "never")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LOG")
        .output()
        .unwrap_or_else(|e| panic!("{place}: cannot run `{text}`: {e}"));
    Ran {
        place,
        text: text.to_owned(),
        status: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// What an `output` note asks of the command before it: (an excerpt?, the exit status).
fn expectation(note: &str) -> (bool, i32) {
    let mut excerpt = false;
    let mut status = 0;
    for word in note.split(',').map(str::trim) {
        match word.split_whitespace().collect::<Vec<_>>()[..] {
            ["output"] => {}
            ["output", "excerpt"] => excerpt = true,
            ["status", n] => status = n.parse().expect("a status is a number"),
            _ => panic!("`<!-- {note} -->`: this test does not know `{word}`"),
        }
    }
    (excerpt, status)
}

/// Checks that `ran` printed `block` and exited as `note` says.
fn check_output(ran: &Ran, block: &Block, note: &str) {
    let (excerpt, status) = expectation(note);
    assert_eq!(
        ran.status,
        Some(status),
        "{CHAPTER}:{}: the chapter says status {status}\n{}",
        block.line,
        ran.describe()
    );
    if excerpt {
        let both = format!("{}{}", ran.stdout, ran.stderr);
        for line in block.body.lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                both.contains(line),
                "{CHAPTER}:{}: `{line}` is not printed\n{}",
                block.line,
                ran.describe()
            );
        }
    } else {
        assert_eq!(
            ran.stdout,
            block.body,
            "{CHAPTER}:{}: the chapter shows other output than the command prints\n{}",
            block.line,
            ran.describe()
        );
    }
}

#[test]
fn the_new_crate_chapter_builds_runs_verifies_and_traces_its_crate() {
    let chapter = std::fs::read_to_string(workspace().join(CHAPTER)).expect("read the chapter");
    let root = outside();
    let mut dir = root.clone();
    let mut written: Vec<PathBuf> = Vec::new();
    // The last command run, until an output block checks it or another block comes.
    let mut last: Option<Ran> = None;
    let finish = |last: Option<Ran>| {
        if let Some(ran) = last {
            assert_eq!(ran.status, Some(0), "{}", ran.describe());
        }
    };
    let (mut files, mut commands, mut outputs) = (0, 0, 0);
    for block in markdown::blocks(&chapter) {
        let note = block.note.as_deref().unwrap_or("");
        if note.starts_with("output") {
            let ran = last
                .take()
                .unwrap_or_else(|| panic!("{CHAPTER}:{}: output of no command", block.line));
            check_output(&ran, &block, note);
            outputs += 1;
            continue;
        }
        finish(last.take());
        if let Some(file) = note.strip_prefix("file: ") {
            let path = dir.join(file);
            if written.contains(&path) {
                let mut text = std::fs::read_to_string(&path).expect("read a written file");
                text.push_str(&block.body);
                std::fs::write(&path, text).expect("append to a file");
            } else {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).expect("create a directory");
                }
                std::fs::write(&path, &block.body).expect("write a file");
                written.push(path);
            }
            files += 1;
        } else if matches!(block.info.as_str(), "sh" | "bash" | "console" | "shell") {
            for (line, text) in markdown::commands(&block) {
                finish(last.take());
                let place = format!("{CHAPTER}:{line}");
                if let Some(to) = text.strip_prefix("cd ") {
                    dir = dir.join(to);
                    assert!(dir.is_dir(), "{place}: no directory `{to}`");
                    continue;
                }
                let start = std::time::Instant::now();
                last = Some(run(&dir, place, &text));
                eprintln!(
                    "{CHAPTER}:{line}: `{text}` ({:.1} s)",
                    start.elapsed().as_secs_f64()
                );
                commands += 1;
            }
        } else {
            panic!(
                "{CHAPTER}:{}: a `{}` block that is neither a file of the crate \
                 (`<!-- file: PATH -->`), a command, nor a command's output (`<!-- output -->`)",
                block.line, block.info
            );
        }
    }
    finish(last.take());
    eprintln!("{CHAPTER}: {files} file blocks, {commands} commands, {outputs} outputs checked");
    assert!(files >= 5 && commands >= 6 && outputs >= 3);
    // The trace is a page that names the analysis.
    let page = std::fs::read_to_string(dir.join("trace.html")).expect("the trace is written");
    assert!(
        page.contains("NullIntAnalysis"),
        "the page names the analysis"
    );
    std::fs::remove_dir_all(&root).expect("remove the crate");
}
