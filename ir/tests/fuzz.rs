//! Fuzz tests of both parsers: random bytes, token soup and mutated sample files must never make
//! a parser panic. Whatever parses must also print and parse back to the same program, and run
//! under both interpreters without panicking.

use std::sync::atomic::{AtomicUsize, Ordering};

use absinthe::program::FuncId;
use absinthe_ir::interp::{Limits, NoObserver, run, run_toy};
use absinthe_ir::{PROG0, ParseError, parse_module_all, parse_toy_all, print_module};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const CASES: u32 = 10_000;

const MEMORY_AIR: &str = include_str!("../test_data/memory.air");
const SSA_AIR: &str = include_str!("../test_data/ssa_sum.air");
const CLOSURES_AIR: &str = include_str!("../test_data/closures.air");

/// Tokens of both languages, and some near misses.
const TOKENS: &[&str] = &[
    "fn",
    "ssa",
    "closure",
    "apply",
    "block",
    "tag",
    "isblock",
    "phi",
    "new",
    "stack",
    "call",
    "goto",
    "br",
    "switch",
    "ret",
    "throw",
    "unreachable",
    "@goto",
    "&&",
    "main",
    "f",
    "x",
    "y",
    "bb0",
    "bb1",
    "exit",
    "val",
    "0",
    "1",
    "7",
    "-5",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "=",
    ":",
    ",",
    ".",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "|",
    "^",
    "<<",
    ">>",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
    "≤",
    "≥",
    "≠",
    "#",
    "# comment",
    "\n",
    "\n",
    "\n",
    "\r\n",
    " ",
    "\t",
    "é",
    "\0",
];

/// Errors point into the text and describe expectations in words, not rule names.
fn check_errors(text: &str, errors: &[ParseError]) {
    assert!(!errors.is_empty());
    let lines = text.split('\n').count();
    for e in errors {
        assert!(
            e.line >= 1 && e.line <= lines && e.col >= 1,
            "{e} in {text:?}"
        );
        if let Some(expected) = &e.expected {
            assert!(!expected.contains('_'), "rule name in {e}");
        }
    }
}

/// Feeds `text` to both parsers; whatever parses must round-trip and run.
fn check(text: &str) {
    if let Err(errors) = parse_module_all("fuzz.air", text) {
        check_errors(text, &errors);
    }
    if let Err(errors) = parse_toy_all("fuzz.toy", text) {
        check_errors(text, &errors);
    }
    if let Ok(module) = parse_module_all("fuzz.air", text) {
        let printed = print_module(&module);
        let again = parse_module_all("printed.air", &printed).expect("printed module parses");
        assert_eq!(again, module, "{printed}");
        let limits = Limits {
            max_steps: 200,
            max_depth: 8,
            ..Limits::default()
        };
        for (i, f) in module.functions.iter().enumerate() {
            let args = vec![1; f.params.len()];
            run(&module, FuncId::new(i), &args, &limits, &mut NoObserver);
        }
    }
    if let Ok(prog) = parse_toy_all("fuzz.toy", text) {
        let printed = prog.to_string();
        let again = parse_toy_all("printed.toy", &printed).expect("printed program parses");
        assert_eq!(again, prog, "{printed}");
        run_toy(&prog, 200, |_, _| {});
        prog.lower();
    }
}

fn fuzz<S: Strategy>(what: &str, strategy: S, to_text: impl Fn(S::Value) -> String) {
    let runs = AtomicUsize::new(0);
    let parsed = AtomicUsize::new(0);
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&strategy, |value| {
        let text = to_text(value);
        runs.fetch_add(1, Ordering::Relaxed);
        if parse_module_all("a", &text).is_ok() || parse_toy_all("t", &text).is_ok() {
            parsed.fetch_add(1, Ordering::Relaxed);
        }
        check(&text);
        Ok(())
    });
    eprintln!(
        "fuzz {what}: {} inputs run, {} parsed by one of the parsers",
        runs.load(Ordering::Relaxed),
        parsed.load(Ordering::Relaxed)
    );
    if let Err(e) = result {
        panic!("{what}: {e}");
    }
}

#[test]
fn random_bytes_never_panic() {
    fuzz(
        "random bytes",
        prop::collection::vec(any::<u8>(), 0..300),
        |bytes| String::from_utf8_lossy(&bytes).into_owned(),
    );
}

#[test]
fn token_soup_never_panics() {
    fuzz(
        "token soup",
        prop::collection::vec((0..TOKENS.len(), prop::bool::ANY), 0..80),
        |tokens| {
            let mut text = String::new();
            for (i, space) in tokens {
                text.push_str(TOKENS[i]);
                if space {
                    text.push(' ');
                }
            }
            text
        },
    );
}

/// One edit of a text: delete, insert or swap characters.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Insert(usize, char),
    InsertToken(usize, usize),
    Swap(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), prop::char::any()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (
            any::<usize>(),
            prop::sample::select(&[' ', '\n', '-', '0', '9', ':', ',', '=', 'x', '#'][..])
        )
            .prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(i, t)| Edit::InsertToken(i, t)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::Swap(i, j)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len().max(1);
        match *e {
            Edit::Delete(i) => {
                if !chars.is_empty() {
                    chars.remove(i % chars.len());
                }
            }
            Edit::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
            Edit::InsertToken(i, t) => {
                let at = i % (chars.len() + 1);
                for (k, c) in TOKENS[t].chars().enumerate() {
                    chars.insert(at + k, c);
                }
            }
            Edit::Swap(i, j) => {
                if !chars.is_empty() {
                    chars.swap(i % n, j % n);
                }
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_samples_never_panic() {
    let samples = [PROG0, MEMORY_AIR, SSA_AIR, CLOSURES_AIR];
    fuzz(
        "mutated samples",
        (0..samples.len(), prop::collection::vec(edit(), 1..6)),
        |(s, edits)| apply(samples[s], &edits),
    );
}

#[test]
fn the_fuzz_checks_can_fail() {
    // The unmutated samples parse, so `check` exercises its round-trip and run paths.
    assert!(parse_toy_all("p", PROG0).is_ok());
    assert!(parse_module_all("m", MEMORY_AIR).is_ok());
    assert!(parse_module_all("s", SSA_AIR).is_ok());
    check(PROG0);
    check(MEMORY_AIR);
}
