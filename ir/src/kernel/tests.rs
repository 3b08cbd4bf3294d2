//! Tests of kernel terms' extensions: the evaluator's multiple values and exit functions on
//! programs with their answers written first, the parser's errors for misused exit names and
//! `block`, printing, and the generator's use of both.

use super::{
    EvalLimits, EvalOutcome, KValue, KernelGenConfig, evaluate, parse_terms, print_terms,
    random_terms,
};

/// The integers a program gives, or how it stopped.
fn run(text: &str) -> String {
    let terms = parse_terms("t.kt", text).unwrap_or_else(|e| panic!("{e:?}"));
    let inputs: Vec<_> = super::inputs(&terms)
        .into_iter()
        .map(|p| (p, KValue::Int(5)))
        .collect();
    let outcome = evaluate(
        &terms,
        &inputs,
        &EvalLimits::default(),
        &mut |_, _| {},
        &mut |_, _| {},
    );
    let show = |v: &KValue| match v.as_int() {
        Some(i) => i.to_string(),
        None => format!("{v:?}"),
    };
    match outcome {
        EvalOutcome::Value(v) => show(&v),
        EvalOutcome::Values(vs) => {
            let all: Vec<String> = vs.iter().map(show).collect();
            format!("({})", all.join(" "))
        }
        EvalOutcome::Trap(_, why) => format!("trap: {why}"),
        EvalOutcome::OutOfSteps => "out of steps".to_owned(),
        EvalOutcome::TooDeep => "too deep".to_owned(),
    }
}

#[test]
fn block_gives_its_arguments_as_values() {
    // An application's parts give their values in order; the first is the operator.
    assert_eq!(run("(+ (block 1 2))"), "3");
    assert_eq!(run("(- (block) 10 (block 4))"), "6");
    assert_eq!(run("(block 1 2 3)"), "(1 2 3)");
    assert_eq!(run("(block)"), "()");
    assert_eq!(run("((block (lambda (a b) (* a b)) 6) 7)"), "42");
    assert_eq!(
        run("((lambda (q r) (+ (* q 10) r)) ((lambda (a b) (block (/ a b) (% a b))) 17 5))"),
        "32"
    );
    // `block` is a value like the other primitives.
    assert_eq!(run("(+ ((lambda (b) (b 1 2)) block))"), "3");
    assert_eq!(run("((block))"), "trap: an application of no values");
    assert_eq!(
        run("(+ (block 1 2 3))"),
        "trap: `+` takes 2 arguments, not 3"
    );
    assert_eq!(
        run("(letrec ((x (block 1 2))) x)"),
        "trap: a letrec name bound to 2 values"
    );
}

#[test]
fn exit_functions_leave_their_application() {
    assert_eq!(run("((lambda (^k x) (+ 1 (^k x))) 7)"), "7");
    // The exit leaves from inside a callee, through the frames between.
    assert_eq!(
        run("(letrec ((f (lambda (g n) (+ 100 (g n))))) ((lambda (^k x) (+ 1 (f ^k x))) 7))"),
        "7"
    );
    // Only its own application: the outer one goes on.
    assert_eq!(
        run("(+ 1 ((lambda (^k x) (* 2 ((lambda (^j y) (^k y)) x))) 20))"),
        "21"
    );
    // Two values through an exit, and none.
    assert_eq!(run("(+ ((lambda (^k x) (block 0 (^k x x))) 4))"), "8");
    assert_eq!(run("(+ 3 ((lambda (^k) (^k))) 4)"), "7");
    // Chosen by cond through thunks (cond evaluates both branches).
    let search = "((lambda (^found n)
         (letrec ((loop (lambda (i) ((cond (> (* i i) n) (lambda () (^found i)) (lambda () (loop (+ i 1))))))))
           (loop 0)))
       20)";
    assert_eq!(run(search), "5");
    // Called after its application returned: catch and throw have dynamic extent.
    assert_eq!(
        run("((lambda (k) (k 1)) ((lambda (^e x) ^e) 0))"),
        "trap: an exit function called after its application returned"
    );
}

#[test]
fn misused_exit_names_and_block_get_errors_with_places() {
    let errors = |text: &str| -> Vec<String> {
        match parse_terms("t.kt", text) {
            Ok(_) => vec!["ok".to_owned()],
            Err(errors) => errors.iter().map(ToString::to_string).collect(),
        }
    };
    let first = |text: &str| errors(text).remove(0);
    assert!(
        first("(lambda (x ^k) x)").starts_with(
            "t.kt:1:12: error: exit name `^k` must be the abstraction's first parameter"
        ),
        "{}",
        first("(lambda (x ^k) x)")
    );
    assert!(
        first("(+ 1 (^k 2))")
            .starts_with("t.kt:1:7: error: exit name `^k` is bound by no enclosing abstraction"),
        "{}",
        first("(+ 1 (^k 2))")
    );
    assert!(
        first("(letrec ((^f 1)) 2)")
            .starts_with("t.kt:1:11: error: exit name `^f` cannot be bound by `letrec`"),
        "{}",
        first("(letrec ((^f 1)) 2)")
    );
    // `block` is a keyword: it binds nothing.
    assert!(
        first("(lambda (block) 1)").starts_with("t.kt:1:10: error: expected"),
        "{}",
        first("(lambda (block) 1)")
    );
    assert!(
        first("(lambda (^) 1)").starts_with("t.kt:1:10: error: expected"),
        "{}",
        first("(lambda (^) 1)")
    );
    assert_eq!(errors("((lambda (^k x) (^k x)) 1)"), ["ok"]);
}

#[test]
fn generated_extensions_print_parse_and_run() {
    let config = KernelGenConfig {
        multiple_values: true,
        exits: true,
        ..KernelGenConfig::default()
    };
    let (mut blocks, mut exits, mut returned) = (0, 0, 0);
    for seed in 0..300 {
        let (text, terms) = random_terms(seed, &config);
        // Deterministic in the seed.
        assert_eq!(random_terms(seed, &config).0, text, "seed {seed}");
        let printed = print_terms(&terms);
        let again = parse_terms("printed.kt", &printed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e:?}\n{printed}"));
        assert_eq!(again, terms, "seed {seed}\n{printed}");
        blocks += usize::from(text.contains("block"));
        exits += usize::from(text.contains("^k"));
        let result = run(&text);
        // Typed by construction: a program gives one integer or runs out of budget.
        assert!(
            result.parse::<i64>().is_ok()
                || result == "trap: division by zero"
                || result == "out of steps"
                || result == "too deep",
            "seed {seed}: {result}\n{text}"
        );
        returned += usize::from(result.parse::<i64>().is_ok());
    }
    assert!(
        blocks > 150 && exits > 150 && returned > 200,
        "{blocks} {exits} {returned}"
    );
    // Off by default: the generator's other users see the programs they saw.
    assert!(
        !random_terms(7, &KernelGenConfig::default())
            .0
            .contains("block")
    );
}
