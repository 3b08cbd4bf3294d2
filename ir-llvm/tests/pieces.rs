//! Reading a module in pieces on threads (`read_module`) lowers it exactly as reading it whole
//! does: on every hand-written module of `test_data/`, on generated modules whose functions
//! call each other (forward and backward), take addresses of globals and functions and read
//! constant tables, and on modules the split cannot take (which are read whole, with LLVM's
//! errors at the file's own lines).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use absinthe_llvm::split::split;
use absinthe_llvm::{Memory, Read, read_module};
use std::num::NonZeroUsize;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_data")
        .join(name)
}

/// Reads `path` in exactly `pieces` pieces on exactly `threads` threads (both at least 1).
fn read(path: &Path, memory: Memory, threads: usize, pieces: usize) -> Read {
    let exactly = |n: usize| Some(NonZeroUsize::new(n).expect("at least one"));
    read_module(path, memory, exactly(threads), exactly(pieces), |_, _| {})
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Reads `path` whole and in 2 to 5 pieces, with memory erased and kept, and checks that every
/// lowering is the whole one; `must_split`: the pieces were really read apart.
fn same_in_pieces(path: &Path, must_split: bool) {
    for memory in [Memory::Erase, Memory::Keep] {
        let whole = read(path, memory, 1, 1);
        assert_eq!(whole.pieces, 1);
        for pieces in 2..=5 {
            for threads in [1, 2, 3] {
                let split = read(path, memory, threads, pieces);
                let at = format!(
                    "{} ({memory:?}, {pieces} pieces, {threads} threads)",
                    path.display()
                );
                if must_split {
                    assert!(split.pieces > 1, "{at}: read whole");
                }
                assert_eq!(split.lowered.module, whole.lowered.module, "{at}");
                assert_eq!(split.lowered.functions, whole.lowered.functions, "{at}");
                let names = |r: &Read| -> Vec<String> {
                    r.lowered
                        .skipped
                        .iter()
                        .map(|s| s.function.clone())
                        .collect()
                };
                assert_eq!(names(&split), names(&whole), "{at}");
            }
        }
    }
}

#[test]
fn every_test_module_lowers_the_same_in_pieces() {
    let mut checked = 0;
    for entry in std::fs::read_dir(data("")).expect("test_data") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "ll") {
            let text = std::fs::read_to_string(&path).expect("text");
            same_in_pieces(&path, split(&text, 2).is_some());
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked} modules");
}

/// A module of `n` functions: each reads a global and a constant table, takes the address of
/// another function, calls the next function (a forward reference) and the previous one, and
/// branches on a comparison; declarations and inline assembly in between.
fn generated(n: usize, seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let mut text = String::from(
        "; generated\n@table = internal constant [4 x i32] [i32 3, i32 5, i32 7, i32 11]\n",
    );
    for i in 0..n {
        let _ = writeln!(text, "@g{i} = internal global i32 {}", next(100));
    }
    text.push_str("declare i32 @external(i32)\n\n");
    for i in 0..n {
        let (callee, previous, other) = ((i + 1) % n, i.saturating_sub(1), next(n));
        let k = next(4);
        let _ = write!(
            text,
            "define internal i32 @f{i}(i32 %a) {{\nentry:\n  %t = getelementptr [4 x i32], ptr @table, i64 0, i64 {k}\n  %v = load i32, ptr %t\n  %w = load i32, ptr @g{other}\n  %s = add nsw i32 %v, {i}\n  %c = icmp slt i32 %a, %s\n  br i1 %c, label %then, label %else\nthen:\n  %r = call i32 @f{callee}(i32 %s)\n  %p = ptrtoint ptr @f{other} to i64\n  br label %join\nelse:\n  %q = call i32 @f{previous}(i32 %w)\n  %e = call i32 @external(i32 %q)\n  %x = call i32 asm \"mov $1, $0\", \"=r,r\"(i32 %e)\n  br label %join\njoin:\n  %m = phi i32 [ %r, %then ], [ %x, %else ]\n  %n = mul i32 %m, %v\n  ret i32 %n\n}}\n\n"
        );
        if next(3) == 0 {
            let _ = writeln!(text, "declare void @between{i}()\n");
        }
    }
    text.push_str("attributes #0 = { nounwind }\n!0 = !{i32 1}\n");
    text
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("absinthe-pieces-{}-{name}.ll", std::process::id()));
    std::fs::write(&path, text).expect("temp file");
    path
}

#[test]
fn generated_modules_lower_the_same_in_pieces() {
    for (n, seed) in [(2, 1), (5, 2), (17, 3), (40, 4)] {
        let text = generated(n, seed);
        let path = write_temp(&format!("generated-{n}"), &text);
        let whole = read(&path, Memory::Erase, 1, 1);
        assert_eq!(whole.lowered.functions.len(), n, "seed {seed}:\n{text}");
        assert!(
            whole.lowered.skipped.is_empty(),
            "seed {seed}: {:?}",
            whole.lowered.skipped
        );
        same_in_pieces(&path, true);
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn what_the_split_cannot_take_is_read_whole() {
    // A call through an alias: the alias is not in the tables every piece starts from, so the
    // pieces disagree and the module is read whole.
    let alias = format!(
        "{}@alias = internal alias i32 (i32), ptr @f0\ndefine i32 @user(i32 %a) {{\n  %r = call i32 @alias(i32 %a)\n  ret i32 %r\n}}\n",
        generated(3, 9)
    );
    let path = write_temp("alias", &alias);
    same_in_pieces(&path, false);
    let _ = std::fs::remove_file(&path);
    // Block addresses name other functions' blocks: never split.
    let address = format!(
        "{}@where = global ptr blockaddress(@f1, %then)\n",
        generated(3, 10)
    );
    assert!(split(&address, 2).is_none());
    let path = write_temp("blockaddress", &address);
    same_in_pieces(&path, false);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn errors_in_a_piece_are_reported_at_the_files_own_line() {
    let mut text = generated(6, 11);
    let line = text.lines().count() + 3;
    text.push_str(
        "define i32 @bad(i32 %a) {\nentry:\n  %x = add i32 %a, %undefined_value\n  ret i32 %x\n}\n",
    );
    let path = write_temp("error", &text);
    let Err(err) = read_module(
        &path,
        Memory::Erase,
        NonZeroUsize::new(2),
        NonZeroUsize::new(3),
        |_, _| {},
    ) else {
        panic!("a broken module was read");
    };
    let message = err.to_string();
    assert!(
        message.contains(&format!(":{line}:")),
        "line {line}: {message}"
    );
    assert!(message.contains("undefined_value"), "{message}");
    let _ = std::fs::remove_file(&path);
}
