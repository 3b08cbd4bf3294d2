//! The typing environment (`--analysis typing-env`) on the talk's examples written in the core
//! IR, and checked against concrete runs of random modules with blocks, tags, closures and calls.

use absinthe_cli::driver::{Format, Input};
use absinthe_cli::typing;
use std::path::Path;

fn sample() -> Input {
    test_data("typing.air")
}

fn test_data(file: &str) -> Input {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../ir/test_data")
        .join(file);
    Input::load(&path).expect("the test data parses")
}

/// The line of `output` that starts (after indentation) with `code`.
fn line<'a>(output: &'a str, function: &str, code: &str) -> &'a str {
    let body = output
        .split("\nfn ")
        .find(|f| f.starts_with(function))
        .unwrap_or_else(|| panic!("no function `{function}` in\n{output}"));
    body.lines()
        .find(|l| l.trim_start().starts_with(code))
        .unwrap_or_else(|| panic!("no `{code}` in\n{body}"))
}

/// The environment printed on a line.
fn env(line: &str) -> &str {
    line.split("│ ")
        .nth(1)
        .expect("an annotated line")
        .trim_end()
}

#[test]
fn the_talk_s_examples_in_the_core_ir() {
    let output = typing::run(&sample(), Format::Text, &typing::Declared::builtin()).output;
    // `let y = fst x in match y with A -> …`: `y` is `x`'s first field, and in the branch
    // where it is `A` (0) so is that field.
    assert_eq!(
        env(line(&output, "fst_branch", "br y_1 == 0")),
        "{x0 : ⊤; x1 : ⊤; x_1 : (=x0, =x1); y_1 : =x0 | aliases : {x0, y_1}}"
    );
    assert!(env(line(&output, "fst_branch", "z_1 = x_1[0]")).contains("y_1 : =0"));
    // The same on a parameter: the read gives `x` a partial shape of unknown tag, and the
    // second read is the first one's value, `A`.
    assert_eq!(
        env(line(&output, "fst_param", "br y_1 == 0")),
        "{x : ?(=y_1, …); y_1 : ⊤}"
    );
    assert_eq!(
        env(line(&output, "fst_param", "ret z_1")),
        "{x : ?(=0, …); y_1 : =0; z_1 : =0 | aliases : {y_1, 0, z_1}}"
    );
    assert_eq!(
        env(line(&output, "fst_param", "ret w_1")),
        "{x : ?(=y_1, =w_1, …); y_1 : ⊤; w_1 : ⊤}"
    );
    // A match on the tag of a parameter makes it a block of that tag in each case, and the
    // other read of its tag that tag; a field read of `y` that did not trap makes `isblock y`,
    // read before, 1.
    assert_eq!(
        env(line(&output, "tag_param", "a_1 = x[0]")),
        "{x : (…); y : ⊤; k_1 : 0 | 1; t_1 : 0; u_1 : 0}"
    );
    assert_eq!(
        env(line(&output, "tag_param", "v_1 = y[0]")),
        "{x : #2(…); y : ⊤; k_1 : 0 | 1; t_1 : 2; u_1 : 2}"
    );
    assert_eq!(
        env(line(&output, "tag_param", "ret k_1")),
        "{x : #2(…); y : ?(=v_1, …); k_1 : 1; t_1 : 2; u_1 : 2; v_1 : ⊤}"
    );
    // Three branches join into one existential, and the fields read from it are one value,
    // so the branch comparing them cannot go the other way.
    assert_eq!(
        env(line(&output, "three_way", "f_1 = p_4[0]")),
        "{c : ⊤; x : ⊤; w : ⊤; v : ⊤; p_4 : (=∃y_1, =∃y_1); ∃y_1 : ⊤}"
    );
    assert_eq!(env(line(&output, "three_way", "ret 0")), "unreachable");
    // The talk's two meets, as branches. The first: `{x : (A, ⊤); y : ⊤}` met with
    // `(=y, B)` is `{x : (=y, B); y : A}` (here `y` is in the class of `0`, `A`, and the second
    // field `t` in that of `1`, `B`).
    assert_eq!(
        env(line(&output, "meet_first", "ret 1")),
        "{t : =1; y : =0; x_1 : (=0, =t); a_1 : =0; b_1 : =1 | aliases : {y, 0, a_1}, {t, b_1, 1}}"
    );
    // The second: `{x : (=y, ⊤); y : ⊤; z : A}` met with `(=z, ⊤)` makes `y` and `z` one
    // class, `A`; `x` a parameter, its shape is partial. The branch on `a_1 == y` between two
    // unknown names is what aliases them.
    assert_eq!(
        env(line(&output, "meet_second", "br c_1 == z_1")),
        "{x : ?(=y, …); y : ⊤; z_1 : =0; a_1 : =y; c_1 : =y | aliases : {y, a_1, c_1}, {0, z_1}}"
    );
    assert_eq!(
        env(line(&output, "meet_second", "ret 1")),
        "{x : ?(=y, …); y : =0; z_1 : =0; a_1 : =0; c_1 : =0 | aliases : {y, 0, z_1, a_1, c_1}}"
    );
    // The pair of one variable matched on (A, B) or (B, A) is dead.
    assert_eq!(
        env(line(&output, "field_to_field", "ret 12")),
        "unreachable"
    );
    assert!(env(line(&output, "field_to_field", "ret 10")).starts_with("{v : 0;"));
    assert!(env(line(&output, "field_to_field", "ret 11")).starts_with("{v : 1;"));
    // Variant unboxing: each tag keeps its argument.
    assert_eq!(
        env(line(&output, "unbox", "br tag_3 == 0")),
        "{c : ⊤; y : ⊤; z : ⊤; tag_3 : (0{arg_3 : =y} | 1{arg_3 : =z}); arg_3 : ⊤}"
    );
    assert!(env(line(&output, "unbox", "ret arg_3")).contains("arg_3 : =y"));
    // `let f x y = (x, y)`: its summary, and the call that uses it.
    assert!(
        output.contains("\n# pair: {result : (=x, =y)}\n"),
        "{output}"
    );
    assert_eq!(
        env(line(&output, "caller", "first_1 = r_1[0]")),
        "{a : ⊤; b : ⊤; r_1 : (=a, =b)}"
    );
    assert!(env(line(&output, "caller", "ret a")).starts_with("{a : =0;"));
    // A closure with known code, applied: a direct call through its summary, captures included.
    assert!(
        output.contains("\n# adder: {result : (=x, =k)}\n"),
        "{output}"
    );
    assert!(
        env(line(&output, "closures", "r_1 = apply f_1(a)")).contains("f_1 : [adder{k ↦ =k_1}]")
    );
    assert!(output.contains("\n# closures: {result : 7}\n"), "{output}");
    // Blocks of two tags joined: a disjunction split on the tag, related to the tag read from
    // it; each case of the match knows its block, and the default case is dead.
    assert!(
        env(line(&output, "variant", "switch t_1"))
            .contains("v_3 : (#0(=y) | #1(=z, =z)); t_1 : (0{v_3 : (=y)} | 1{v_3 : #1(=z, =z)})"),
        "{output}"
    );
    assert!(env(line(&output, "variant", "ret a_1")).contains("a_1 : =y"));
    assert!(env(line(&output, "variant", "ret b_1")).contains("b_1 : =z"));
    assert_eq!(env(line(&output, "variant", "ret 0")), "unreachable");
    // An immediate on one branch, a block on the other: both parts kept, and `isblock` says
    // which one holds.
    assert!(
        env(line(&output, "mixed", "br b_1"))
            .contains("v_3 : (0 | #0(=y)); b_1 : (0{v_3 : 0} | 1{v_3 : (=y)})"),
        "{output}"
    );
    assert!(env(line(&output, "mixed", "ret f_1")).contains("f_1 : =y"));
    assert!(env(line(&output, "mixed", "ret v_3")).contains("v_3 : 0;"));
    // `isblock x` true says nothing of `x`: a heap object (`new`) is a reference too.
    assert_eq!(
        env(line(&output, "boxed", "t_1 = tag x")),
        "{x : ⊤; b_1 : 1}"
    );
    // Past eight immediates, the declared domain (an interval and a parity): `x` is even, so
    // `x == 3` is dead; the join of `[-9, 9]` and 100 is refined by `v < 10` both ways.
    assert_eq!(
        env(line(&output, "ranges", "br x_1 == 3")),
        "{n : ⊤; c : ⊤; m_1 : {interval: [-9, 9], parity: ⊤}; \
         x_1 : {interval: [-18, 18], parity: Even}}"
    );
    assert_eq!(env(line(&output, "ranges", "ret 1")), "unreachable");
    assert!(
        env(line(&output, "ranges", "br v_3 < 10"))
            .ends_with("v_3 : {interval: [-9, 100], parity: ⊤}}")
    );
    assert!(
        env(line(&output, "ranges", "ret v_3")).ends_with("v_3 : {interval: [-9, 9], parity: ⊤}}")
    );
    assert!(
        env(line(&output, "ranges", "ret 0")).ends_with("v_3 : {interval: [10, 100], parity: ⊤}}")
    );
    assert!(
        output.contains("\n# ranges: {result : {interval: [-9, 9], parity: ⊤}}\n"),
        "{output}"
    );
    // Names each branch defined, passed in the same places, are one existential at the join:
    // both fields of `v` are `∃y_1`, so the two reads are aliases.
    assert_eq!(
        env(line(&output, "shared", "f_1 = v_3[0]")),
        "{c : ⊤; a : ⊤; b : ⊤; v_3 : (=∃y_1, =∃y_1); ∃y_1 : (⊤)}"
    );
    assert!(
        env(line(&output, "shared", "h_1 = g_1[0]")).ends_with("aliases : {∃y_1, f_1, g_1}}"),
        "{output}"
    );
    // Function slots: `closure self` is the running closure, `closure odd of me` its sibling in
    // the set, with the same value slots.
    assert_eq!(
        env(line(&output, "even", "m_1 = n - 1")),
        "{n : ⊤; k : ⊤; me_1 : [even{k ↦ =k}]; other_1 : [odd{k ↦ =k}]}"
    );
    assert!(
        env(line(&output, "parity", "r_1 = apply o_1(n)")).ends_with("o_1 : [odd{k ↦ =k}]}"),
        "{output}"
    );
}

/// The talk's running example, "sum of squares using streams" (`ir/test_data/streams.air`):
/// the program with its calls, then one function per step of the simplifier, each printing the
/// environment the talk shows.
#[test]
fn the_streams_example_prints_the_talk_s_environments() {
    let output = typing::run(
        &test_data("streams.air"),
        Format::Text,
        &typing::Declared::builtin(),
    )
    .output;
    // Summaries carry what a function learned of its parameters, with existentials for the
    // names it defined.
    assert!(
        output.contains(
            "\n# map: {st : ?(=∃s_1, =∃next_1, …); ∃g_1 : [map_anon{next ↦ =∃next_1, f ↦ =f}]; \
             result : (=∃s_1, =∃g_1)}\n"
        ),
        "{output}"
    );
    // The program as written: `ints 0 11` and `map square s1` through their summaries.
    assert_eq!(
        env(line(&output, "foo(", "r_1 = call sum")),
        "{∃f_1 : [ints_anon{hi ↦ =11}]; s1_1 : (=0, =∃f_1); square_1 : [square{}]; \
         ∃s_1 : =0; ∃next_1 : =∃f_1; \
         ∃g_1 : [map_anon{next ↦ =∃next_1, f ↦ =square_1}]; s2_1 : (=∃s_1, =∃g_1) \
         | aliases : {0, ∃s_1}, {∃f_1, ∃next_1}}"
    );
    // `f1 : [ints.anon{hi ↦ 11}]`, `s1 : (0, =f1)`.
    assert!(
        env(line(&output, "step_ints(", "square_1 = closure"))
            .starts_with("{f1_1 : [ints_anon{hi ↦ =11}]; s1_1 : (=0, =f1_1)}"),
        "{output}"
    );
    // `s : 0`, `next : =f1`, `f2 : [map.anon{next ↦ =f1, f ↦ =square}]`, `s2 : (0, =f2)`.
    assert!(
        env(line(&output, "step_map(", "r_1 = call sum")).contains(
            "s_1 : =0; next_1 : =f1_1; f2_1 : [map_anon{next ↦ =next_1, f ↦ =square_1}]; \
             s2_1 : (=s_1, =f2_1) | aliases : {f1_1, next_1}, {0, s_1}"
        ),
        "{output}"
    );
    // `s : 0`, `next : =f2` where `sum`'s loop begins; in the loop, `s` and `acc` are `⊤`.
    assert!(
        env(line(&output, "step_sum(", "goto loop"))
            .contains("s2_1 : (=0, =f2_1); s_1 : =0; next_1 : =f2_1;"),
        "{output}"
    );
    let applied = env(line(&output, "step_sum(", "b_1 = isblock"));
    assert!(
        applied.contains("cur_2 : ⊤; acc_2 : ⊤; n_1 : (0 | #0(⊤, ⊤))"),
        "{applied}"
    );
    // The loop's body with `f2 s` and `f1 s` inlined: `p : Empty | Cons(=s, =t)`; `y` is out
    // of scope at the join after `Cons (y, t)`, so `r : (0 | #0(⊤, =t))`.
    let mapped = env(line(&output, "step_loop(", "k_1 = isblock"));
    assert!(
        mapped.contains("t_1 : ⊤; p_3 : (0 | #0(=s_2, =t_1));"),
        "{mapped}"
    );
    assert!(mapped.contains("r_3 : (0 | #0(⊤, =t_1))"), "{mapped}");
    // Both closure codes are made at several places: their bodies start from the join.
    assert!(output.contains(
        "# map_anon: under the lock, from the 4 places that make its closures, joined\n"
    ));
}

/// The lock: a closure body starts from what its creator knew, the creator's names out of
/// scope (existentials).
#[test]
fn a_closure_body_starts_under_the_lock() {
    let output = typing::run(&sample(), Format::Text, &typing::Declared::builtin()).output;
    assert!(
        output.contains(
            "\n# lock_body: under the lock, from the one place that makes its closures\n"
        ),
        "{output}"
    );
    assert_eq!(
        env(line(&output, "lock_body", "a_1 = k[0]")),
        "{k : (=y, =∃x); y : 0; ∃x : ?(=y, …); z : ⊤}"
    );
    assert_eq!(env(line(&output, "lock_body", "ret 1")), "unreachable");
    assert!(env(line(&output, "lock_body", "ret c_1")).contains("c_1 : =y"));
    // `lock_outer` makes closures of `lock_body` that callers see through its summary, which
    // keeps the field it read before its two returns.
    assert!(output.contains(
        "\n# lock_outer: {x : ?(=∃y_1, …); result : (0 | [lock_body{k ↦ (0, =x), y ↦ 0}])}\n"
    ));
    let check = typing::verify(&sample(), &typing::Declared::builtin(), 100, 7, 10_000);
    assert!(check.violations.is_empty(), "{:#?}", check.violations);
}

/// Naked numbers of each kind keep small sets of their own, bounded as declared.
#[test]
fn naked_numbers_keep_sets_of_their_own() {
    let run = |numbers: [usize; 4]| {
        let declared = typing::Declared {
            numbers,
            ..typing::Declared::builtin()
        };
        typing::run(&sample(), Format::Text, &declared).output
    };
    let output = run(typing::Declared::builtin().numbers);
    assert_eq!(typing::Declared::builtin().numbers, [4, 8, 8, 8]);
    let ret = env(line(&output, "numbers", "ret k_1"));
    assert!(
        ret.contains("half_1 : 0.5; x_3 : 1.5 | 4.0; n_1 : 1l | 4l; m_1 : 3 | 12; k_1 : 3l | 12l; g_1 : 4294967296n"),
        "{ret}"
    );
    // One float at most: the join of 1.5 and 4.0 is any float, and the `int32` made from it
    // is the declared domain's.
    let output = run([1, 8, 8, 8]);
    let ret = env(line(&output, "numbers", "ret k_1"));
    assert!(
        ret.contains("x_3 : float; n_1 : {interval: [-2147483648, 2147483647], parity: ⊤}"),
        "{ret}"
    );
}

/// Without a declared domain, integers past eight immediates are `⊤`: nothing is decided.
#[test]
fn without_a_declared_domain_large_sets_are_top() {
    let declared = typing::Declared {
        name: "sets-only".into(),
        ints: None,
        ..typing::Declared::builtin()
    };
    let output = typing::run(&sample(), Format::Text, &declared).output;
    assert!(output.starts_with("# analysis: sets-only "), "{output}");
    assert_eq!(
        env(line(&output, "ranges", "br x_1 == 3")),
        "{n : ⊤; c : ⊤; m_1 : ⊤; x_1 : ⊤}"
    );
    assert_ne!(env(line(&output, "ranges", "ret 1")), "unreachable");
}

#[test]
fn the_sample_agrees_with_its_runs() {
    let check = typing::verify(&sample(), &typing::Declared::builtin(), 200, 1, 10_000);
    assert!(check.violations.is_empty(), "{:#?}", check.violations);
    assert!(check.values > 1000, "{check:?}");
}

/// Found by review, each on a module the random ones never drew: a join whose existential's
/// description names another existential panicked (a list borrowed while it grew), two
/// existentials of one join printed with one label, and `isblock` of a heap object (`new`),
/// which is 1, made the object a block.
#[test]
fn nested_existentials_and_objects_are_handled() {
    let text = "\
fn nested(c, x, w) {
bb0:
    br c == 0, m0, m1
m0:
    y = w + 2
    inner = block 0 [y, y]
    p = block 0 [y, inner]
    goto join
m1:
    z = x * 2
    inner = block 0 [z, x]
    p = block 0 [z, inner]
    goto join
join:
    ret p
}

fn dup(c, x, w) {
bb0:
    br c == 0, a, b
a:
    y = x[0]
    p = block 0 [y, y]
    q = block 0 [y, y]
    goto join
b:
    z = w[1]
    r = w[2]
    p = block 0 [z, z]
    q = block 0 [r, r]
    goto join
join:
    f = p[0]
    g = q[0]
    ret g
}

fn object(n) {
bb0:
    q = new
    d = isblock q
    br d == 1, yes, no
yes:
    ret 1
no:
    ret 0
}
";
    let input = Input::parse("review.air", text, false).expect("the module parses");
    let output = typing::run(&input, Format::Text, &typing::Declared::builtin()).output;
    assert!(
        output.contains("p_3 : (=∃y_1, =∃inner_2); ∃y_1 : ⊤; ∃inner_2 : (=∃y_1, ⊤)}"),
        "{output}"
    );
    // Two existentials of one join whose names share a label print apart.
    assert!(
        output.contains("p_3 : (=∃y_1, =∃y_1); q_3 : (=∃y_1', =∃y_1'); ∃y_1 : ⊤; ∃y_1' : ⊤}"),
        "{output}"
    );
    let check = typing::verify(&input, &typing::Declared::builtin(), 100, 1, 10_000);
    assert!(check.violations.is_empty(), "{:#?}", check.violations);
    assert!(check.values > 1000, "{check:?}");
}

#[test]
fn random_modules_agree_with_their_runs() {
    use absinthe_ir::generate::{ModuleConfig, random_module};
    let (mut runs, mut values, mut with_intervals, mut locked) = (0, 0, 0, 0);
    for seed in 0..1000 {
        // Odd seeds make closures from function slots too (`closure self`, `closure g of k`).
        let config = ModuleConfig {
            function_slots: seed % 2 == 1,
            ..ModuleConfig::default()
        };
        let module = random_module(seed, &config);
        let text = module.to_string();
        let input = Input::Air {
            file: format!("<random {seed}>"),
            module,
        };
        // The integers past small sets in each kind of domain, in turn: the declared
        // `typing_env.dom` product, intervals, constants, none.
        let declared = match seed % 4 {
            0 => typing::Declared::builtin(),
            1 => typing::Declared::of::<absinthe::lattice::Interval>("interval"),
            2 => typing::Declared::of::<absinthe::lattice::Flat<i64>>("const"),
            _ => typing::Declared {
                name: "sets".into(),
                ints: None,
                ..typing::Declared::builtin()
            },
        };
        let output = typing::run(&input, Format::Text, &declared).output;
        if seed % 4 == 0 && output.contains("interval: [") {
            with_intervals += 1;
        }
        locked += output.matches(": under the lock, from").count();
        let check = typing::verify(&input, &declared, 4, seed, 2_000);
        assert!(
            check.violations.is_empty(),
            "seed {seed}: {:#?}\n{text}",
            check.violations
        );
        runs += check.runs;
        values += check.values;
    }
    eprintln!(
        "1000 random modules: {runs} runs, {values} values checked; \
         {with_intervals} of the 250 with the declared product have integers in it; \
         {locked} closure bodies solved under the lock"
    );
    assert!(locked > 500, "{locked} closure bodies under the lock");
    assert!(
        with_intervals > 25,
        "{with_intervals} modules use the declared domain"
    );
    assert!(values > 100_000, "{values} values");
}

/// `immediates N;` bounds the sets of constants: past `N`, the declared domain.
#[test]
fn the_declared_bound_on_immediates_is_kept() {
    const SOURCE: &str = "\
fn small(c) {
bb0:
    br c, a, b
a:
    x = 1
    goto j
b:
    x = 2
    goto j
j:
    y = x + 10
    z = y * x
    ret z
}
";
    let module = absinthe_ir::air::parse_module("small.air", SOURCE).expect("the module parses");
    let input = Input::Air {
        file: "small.air".into(),
        module,
    };
    let run = |max_imms: usize| {
        let declared = typing::Declared {
            max_imms,
            ..typing::Declared::builtin()
        };
        typing::run(&input, Format::Text, &declared).output
    };
    assert_eq!(typing::Declared::builtin().max_imms, 8);
    let eight = run(8);
    assert!(
        env(line(&eight, "small", "ret z_1")).ends_with("z_1 : 11 | 12 | 22 | 24}"),
        "{eight}"
    );
    let two = run(2);
    assert!(
        env(line(&two, "small", "ret z_1")).ends_with("z_1 : {interval: [11, 24], parity: ⊤}}"),
        "{two}"
    );
    assert!(env(line(&two, "small", "z_1 = y_1 * x_3")).contains("y_1 : 11 | 12"));
}

/// Found by review: an `int32` joined with the declared domain's integers is joined in the
/// domain (it was `⊤`), two NaNs of a set print as two, and a branch on a float keeps it one.
#[test]
fn naked_numbers_join_the_declared_domain_and_keep_their_kind() {
    const SOURCE: &str = "\
fn sw(c) {
bb0:
    y = c % 3
    br c < 0, l, r
l:
    f = 2 sitofp 0
    v = f fbits 32
    goto j
r:
    v = y fptosi 32
    goto j
j:
    switch v [0: zero], other
zero:
    ret 0
other:
    ret v
}

fn nans(c) {
bb0:
    one = 1 sitofp 0
    nan = 9221120237041090560 fadd one
    br c == 0, a, b
a:
    x = nan
    goto j
b:
    x = 9221120237041090561
    goto j
j:
    br x == 0, never, then
never:
    ret 0
then:
    ret x
}
";
    let module = absinthe_ir::air::parse_module("numbers.air", SOURCE).expect("the module parses");
    let input = Input::Air {
        file: "numbers.air".into(),
        module,
    };
    let output = typing::run(&input, Format::Text, &typing::Declared::builtin()).output;
    let switch = env(line(&output, "sw", "switch v_3"));
    assert!(switch.contains("v_3 : {interval: ["), "{switch}");
    let then = env(line(&output, "nans", "ret x_3"));
    assert!(
        then.contains("x_3 : NaN:0x7ff8000000000000 | NaN:0x7ff8000000000001"),
        "{then}"
    );
    let check = typing::verify(&input, &typing::Declared::builtin(), 50, 3, 10_000);
    assert!(check.violations.is_empty(), "{:#?}", check.violations);
}
