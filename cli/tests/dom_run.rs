//! A `.dom` file run from the command line with no Rust written, in both modes (interpreted, the
//! default, and `--compiled`): a new author's parity × sign domain with two reductions, written
//! in a directory of its own, analyzed and verified on a program with a loop (`analyze --dom`,
//! `verify --dom`), then with an off-by-one planted in one rule, which `verify` names by its
//! `.dom` line. And the file's analyses, interpreted or compiled, print exactly what the built-in
//! ones compiled from the same file print.
//!
//! Compiled analyses go into a cache under this workspace's target directory, shared by the
//! tests (the first build compiles absinthe in the release profile, which the tests leave
//! unoptimized: see `common::absinthe_in`).

use crate::common;

use common::{absinthe_in as absinthe, scratch, workspace};
use std::path::PathBuf;

const PARITY_SIGN: &str = "\
// Parity × sign, each refining the other.
lattice Parity = finite { Bottom < Even < Top, Bottom < Odd < Top } with {
    contains(p, v) = match p {
        Parity::Bottom => false,
        Parity::Even => v % 2 == 0,
        Parity::Odd => v % 2 != 0,
        Parity::Top => true,
    };
}

lattice Sign = finite { Bottom < Neg < Top, Bottom < Zero < Top, Bottom < Pos < Top } with {
    contains(s, v) = match s {
        Sign::Bottom => false,
        Sign::Neg => v < 0,
        Sign::Zero => v == 0,
        Sign::Pos => v > 0,
        Sign::Top => true,
    };
}

product PS reduce fixpoint(4) {
    parity: Parity,
    sign: Sign,
}

transfer parity_literal on literal (c: int) -> Parity =
    if c % 2 == 0 { Parity::Even } else { Parity::Odd };

transfer sign_literal on literal (c: int) -> Sign =
    if c < 0 { Sign::Neg } else { if c == 0 { Sign::Zero } else { Sign::Pos } };

transfer parity_add on \"+\" (a: PS, b: PS) -> Parity =
    match a.parity {
        Parity::Top => Parity::Top,
        _ => match b.parity {
            Parity::Top => Parity::Top,
            _ => if a.parity == b.parity { Parity::Even } else { Parity::Odd },
        },
    };

// Checked: a sum that overflows makes the rule's result top.
transfer sign_add on \"+\" (a: PS, b: PS) -> Sign =
    if a.sign == Sign::Zero { b.sign } else {
        if b.sign == Sign::Zero { a.sign } else {
            if a.sign == b.sign { a.sign } else { Sign::Top }
        }
    };

// Zero is even.
meet_ext even_zero(p: Parity, s: Sign) -> Parity =
    if s == Sign::Zero { Parity::Even } else { Parity::Top };

// An odd number is not zero.
meet_ext odd_not_zero(s: Sign, p: Parity) -> Sign =
    if p == Parity::Odd { if s == Sign::Zero { Sign::Bottom } else { s } } else { s };

analysis parity_sign {
    domain PS;
    conditions evaluated;
}
";

const LOOP: &str = "\
fn main(n) {
entry:
    i = 0
    s = 1
    goto head
head:
    br i < n, body, done
body:
    i = i + 2
    s = s + 2
    goto head
done:
    ret s
}
";

/// The author's directory: the domain and a program with a loop.
fn author(name: &str, dom: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::write(dir.join("ps.dom"), dom).expect("write ps.dom");
    std::fs::write(dir.join("loop.air"), LOOP).expect("write loop.air");
    dir
}

/// The two modes: interpreted (no flag) and compiled.
const MODES: [&[&str]; 2] = [&[], &["--compiled"]];

/// `args` then the mode's flags.
fn with_mode<'a>(args: &[&'a str], mode: &[&'a str]) -> Vec<&'a str> {
    args.iter().chain(mode).copied().collect()
}

#[test]
fn a_new_domain_is_analyzed_and_verified_then_a_planted_bug_is_named_by_its_line() {
    for mode in MODES {
        new_domain_in_mode(mode);
    }
}

fn new_domain_in_mode(mode: &[&str]) {
    let dir = author("dom-run-author", PARITY_SIGN);
    let absinthe = |dir: &std::path::Path, args: &[&str]| absinthe(dir, &with_mode(args, mode));
    let (code, stdout, stderr) = absinthe(&dir, &["analyze", "loop.air", "--dom", "ps.dom"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with("# analysis: parity_sign\n"), "{stdout}");
    // The loop keeps `s` odd, and so (by the reduction) not zero; it stays positive.
    let ret = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("ret s"))
        .expect("a line for `ret s`");
    assert!(ret.contains("s = {parity: Odd, sign: Pos}"), "{stdout}");
    assert!(ret.contains("i = {parity: Even, sign: ⊤}"), "{stdout}");

    let (code, stdout, stderr) = absinthe(
        &dir,
        &["verify", "loop.air", "--dom", "ps.dom", "--runs", "50"],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.ends_with(": 0 violations\n"), "{stdout}");

    // Off by one: zero becomes negative.
    let planted = PARITY_SIGN.replace("if c < 0 { Sign::Neg }", "if c < 1 { Sign::Neg }");
    assert_ne!(planted, PARITY_SIGN);
    std::fs::write(dir.join("ps.dom"), planted).expect("plant the bug");
    let (code, stdout, stderr) = absinthe(
        &dir,
        &["verify", "loop.air", "--dom", "ps.dom", "--runs", "50"],
    );
    assert_eq!(code, 1, "{stdout}{stderr}");
    let line = PARITY_SIGN
        .lines()
        .position(|l| l.starts_with("transfer sign_literal"))
        .expect("the rule")
        + 1;
    assert!(
        stdout.contains(&format!("`transfer sign_literal` at ps.dom:{line}:1")),
        "{mode:?}: {stdout}"
    );
}

#[test]
fn interpreted_and_compiled_analyses_print_what_the_built_in_ones_print() {
    let signs = workspace().join("dsl-examples/dom/signs.dom");
    let signs = signs.display().to_string();
    for (program, mode, format) in [
        "dsl-examples/test_data/reduction.air",
        "ir/test_data/calls.air",
    ]
    .into_iter()
    .flat_map(|p| MODES.map(|m| (p, m)))
    .flat_map(|(p, m)| ["text", "json"].map(|f| (p, m, f)))
    {
        {
            let args = [
                "analyze",
                program,
                "--dom",
                &signs,
                "--analysis",
                "signs",
                "--format",
                format,
            ];
            let (code, hosted, stderr) = absinthe(&workspace(), &with_mode(&args, mode));
            assert_eq!(code, 0, "{hosted}{stderr}");
            let (code, built_in, stderr) = absinthe(
                &workspace(),
                &[
                    "analyze",
                    program,
                    "--analysis",
                    "signs-dom",
                    "--format",
                    format,
                ],
            );
            assert_eq!(code, 0, "{built_in}{stderr}");
            // Only the analysis's name differs.
            assert_eq!(
                hosted.replace("signs", "signs-dom"),
                built_in,
                "{program} {mode:?}"
            );
        }
    }
}

#[test]
fn the_catalog_is_the_file_s_in_both_modes() {
    for mode in MODES {
        catalog_in_mode(mode);
    }
}

fn catalog_in_mode(mode: &[&str]) {
    let dir = author("dom-run-catalog", PARITY_SIGN);
    let args = [
        "analyze",
        "loop.air",
        "--dom",
        "ps.dom",
        "--analysis",
        "parity",
    ];
    let (code, stdout, stderr) = absinthe(&dir, &with_mode(&args, mode));
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("error: unknown analysis `parity`; known analyses:\n  parity_sign "),
        "{stderr}"
    );
    assert!(stderr.contains("from ps.dom:"), "{stderr}");
}

#[test]
fn a_broken_file_is_reported_before_anything_is_built() {
    let dir = author("dom-run-broken", "lattice Const = flat(integer);\n");
    for mode in MODES {
        let args = with_mode(&["analyze", "loop.air", "--dom", "ps.dom"], mode);
        let (code, stdout, stderr) = absinthe(&dir, &args);
        assert_eq!(code, 1, "{stdout}{stderr}");
        assert!(stderr.contains("ps.dom:"), "{stderr}");
        assert!(!stderr.contains("compiling the analyses"), "{stderr}");
    }
}

#[test]
fn the_interpreter_refuses_extern_declarations_where_they_are() {
    let dom = "extern fn bump(x: int) -> int;\n\nlattice C = flat(int);\n";
    let dir = author("dom-run-extern", dom);
    let (code, stdout, stderr) = absinthe(&dir, &["analyze", "loop.air", "--dom", "ps.dom"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("the interpreter cannot run `extern` declarations"),
        "{stderr}"
    );
    assert!(stderr.contains("ps.dom:1:1"), "{stderr}");
}
