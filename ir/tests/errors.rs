//! Snapshot tests of parse errors of both text formats: the exact `file:line:col: error: …` text
//! a user sees. Bless with `UPDATE_EXPECT=1`.

use absinthe_ir::error::render_errors;
use absinthe_ir::{parse_module_all, parse_toy_all};
use expect_test::{Expect, expect};

fn check_air(text: &str, expect: Expect) {
    let actual = match parse_module_all("t.air", text) {
        Ok(_) => "ok\n".to_string(),
        Err(errors) => render_errors(&errors),
    };
    expect.assert_eq(&actual);
}

fn check_toy(text: &str, expect: Expect) {
    let actual = match parse_toy_all("t.toy", text) {
        Ok(_) => "ok\n".to_string(),
        Err(errors) => render_errors(&errors),
    };
    expect.assert_eq(&actual);
}

#[test]
fn air_valid_input_has_no_errors() {
    check_air(
        "fn f() {\nbb0:\n    ret\n}\n",
        expect![[r#"
        ok
    "#]],
    );
}

#[test]
fn air_missing_equals() {
    check_air(
        "fn f() {\nbb0:\n    x 1\n    ret\n}\n",
        expect![[r#"
        t.air:3:7: error: expected `.`, `:` or `=`, found `1`
    "#]],
    );
}

#[test]
fn air_missing_operand() {
    check_air(
        "fn f() {\nbb0:\n    x = \n    ret\n}\n",
        expect![[r#"
            t.air:3:9: error: expected `addr`, `apply`, `block`, `call`, `closure`, `isblock`, `new`, `phi`, `select`, `table`, `tag` or an operand, found end of line
        "#]],
    );
}

#[test]
fn air_missing_operand_after_operator() {
    check_air(
        "fn f() {\nbb0:\n    x = 1 +\n    ret\n}\n",
        expect![[r#"
        t.air:3:12: error: expected an operand, found end of line
    "#]],
    );
}

#[test]
fn air_keyword_as_name() {
    check_air(
        "fn f() {\nbb0:\n    goto = 1\n    ret\n}\n",
        expect![[r#"
        t.air:3:10: error: expected a name, found `=`
    "#]],
    );
}

#[test]
fn air_unclosed_function() {
    check_air(
        "fn f() {\nbb0:\n    ret\n",
        expect![[r#"
            t.air:4:1: error: expected `apply`, `call`, `}`, a name, a terminator, an operand or end of line, found end of file
        "#]],
    );
}

#[test]
fn air_branch_missing_label() {
    check_air(
        "fn f(a) {\nbb0:\n    br a < 1, bb0\n}\n",
        expect![[r#"
        t.air:3:18: error: expected `,`, found end of line
    "#]],
    );
}

#[test]
fn air_unknown_block_label() {
    check_air(
        "fn f() {\nbb0:\n    goto bb7\n}\n",
        expect![[r#"
        t.air:3:10: error: unknown block `bb7`
    "#]],
    );
}

#[test]
fn air_duplicate_label() {
    check_air(
        "fn f() {\nbb0:\n    goto bb0\nbb0:\n    ret\n}\n",
        expect![[r#"
            t.air:4:1: error: duplicate block label `bb0` (first on line 2)
        "#]],
    );
}

#[test]
fn air_unknown_callee_and_arity() {
    check_air(
        "fn f(a) {\nbb0:\n    x = call g(a)\n    call f(a, a)\n    ret x\n}\n",
        expect![[r#"
            t.air:3:14: error: unknown function `g`
            t.air:4:10: error: `f` takes 1 argument but 2 were given
        "#]],
    );
}

#[test]
fn air_duplicate_function() {
    check_air(
        "fn f() {\nbb0:\n    ret\n}\nfn f() {\nbb0:\n    ret\n}\n",
        expect![[r#"
            t.air:5:4: error: duplicate function `f` (first defined on line 1)
        "#]],
    );
}

#[test]
fn air_phi_in_non_ssa_function() {
    check_air(
        "fn f() {\nbb0:\n    goto bb1\nbb1:\n    x = phi [bb0: 1]\n    ret x\n}\n",
        expect![[r#"
            t.air:5:5: error: φ in function `f`, which is not marked `ssa`
        "#]],
    );
}

#[test]
fn air_phi_incoming_not_a_predecessor_and_missing() {
    check_air(
        "fn f(a) ssa {\nbb0:\n    br a, bb1, bb2\nbb1:\n    goto bb2\nbb2:\n    x = phi [bb0: 1, bb3: 2]\n    ret x\nbb3:\n    ret\n}\n",
        expect![[r#"
            t.air:7:5: error: φ has no value for predecessor `bb1` of `bb2`
            t.air:7:22: error: `bb3` is not a predecessor of `bb2`
        "#]],
    );
}

#[test]
fn air_ssa_name_defined_twice() {
    check_air(
        "fn f(a) ssa {\nbb0:\n    x = 1\n    x = 2\n    a = 3\n    ret x\n}\n",
        expect![[r#"
            t.air:4:5: error: `x` is defined twice in an SSA function (first on line 3)
            t.air:5:5: error: `a` is defined twice in an SSA function (first on line 1)
        "#]],
    );
}

#[test]
fn air_literal_out_of_range() {
    check_air(
        "fn f() {\nbb0:\n    x = 9223372036854775808\n    y = -9223372036854775808\n    ret x\n}\n",
        expect![[r#"
            t.air:3:9: error: integer literal `9223372036854775808` does not fit in 64 bits
        "#]],
    );
}

#[test]
fn air_function_without_blocks() {
    check_air(
        "fn f() {\n}\n",
        expect![[r#"
        t.air:1:4: error: function `f` has no blocks
    "#]],
    );
}

#[test]
fn air_block_shape() {
    check_air(
        "fn f() ssa {\n    x = 1\nbb0:\n    y = 1\n    z = phi []\n    ret\n    w = 2\nbb1:\n    v = 3\n}\n",
        expect![[r#"
            t.air:2:5: error: expected a block label before the first statement
            t.air:5:5: error: φ after a statement; φs come first in a block
            t.air:7:5: error: block `bb0` continues after its terminator
            t.air:8:1: error: block `bb1` does not end with a terminator
        "#]],
    );
}

#[test]
fn toy_valid_input_has_no_errors() {
    check_toy(
        absinthe_ir::PROG0,
        expect![[r#"
        ok
    "#]],
    );
}

#[test]
fn toy_missing_operand() {
    check_toy(
        "x = 1\ny = \n",
        expect![[r#"
        t.toy:2:5: error: expected an operand, found end of line
    "#]],
    );
}

#[test]
fn toy_bad_goto() {
    check_toy(
        "x = 1\n@goto\n",
        expect![[r#"
        t.toy:2:6: error: expected a jump target (an instruction number), found end of line
    "#]],
    );
}

#[test]
fn toy_missing_and_and() {
    check_toy(
        "x = 1\nx < 3 @goto 0\n",
        expect![[r#"
        t.toy:2:7: error: expected `&&`, found `@`
    "#]],
    );
}

#[test]
fn toy_arithmetic_in_condition() {
    check_toy(
        "x = 1\nx + 1 && @goto 0\n",
        expect![[r#"
        t.toy:2:3: error: expected `&&`, `=` or a comparison operator, found `+`
    "#]],
    );
}

#[test]
fn toy_jump_past_the_end() {
    check_toy(
        "x = 1\n@goto 3\nx < 1 && @goto 5\n@goto 18446744073709551616\n",
        expect![[r#"
        t.toy:3:16: error: jump target 5 is past the end (there are 4 instructions, so the exit is 4)
        t.toy:4:7: error: jump target 18446744073709551616 is past the end (there are 4 instructions, so the exit is 4)
    "#]],
    );
}

#[test]
fn toy_literal_out_of_range() {
    check_toy(
        "x = 99999999999999999999\n",
        expect![[r#"
        t.toy:1:5: error: integer literal `99999999999999999999` does not fit in 64 bits
    "#]],
    );
}

#[test]
fn toy_unknown_character() {
    check_toy(
        "x = 1 $ 2\n",
        expect![[r#"
        t.toy:1:7: error: expected an operator, end of file or end of line, found `$`
    "#]],
    );
}

#[test]
fn air_phi_in_entry_block() {
    check_air(
        "fn f() ssa {\nbb0:\n    x = phi [bb1: 1]\n    goto bb1\nbb1:\n    goto bb0\n}\n",
        expect![[r#"
            t.air:3:5: error: φ in the entry block `bb0`, which is entered without an edge
        "#]],
    );
}

#[test]
fn air_switch_without_default() {
    check_air(
        "fn f(a) {\nbb0:\n    switch a [0: bb0]\n}\n",
        expect![[r#"
            t.air:3:22: error: expected `,`, found end of line
        "#]],
    );
}

#[test]
fn air_closure_errors() {
    check_air(
        concat!(
            "fn main() {\nbb0:\n",
            "    a = closure nope []\n",
            "    b = closure add [1]\n",
            "    c = closure scaled []\n",
            "    d = call scaled(1)\n",
            "    ret\n}\n",
            "fn add(x) {\nbb0:\n    ret x\n}\n",
            "fn scaled(x) [k, x] {\nbb0:\n    ret x\n}\n",
        ),
        expect![[r#"
            t.air:3:17: error: unknown function `nope`
            t.air:4:17: error: `add` captures 0 values but 1 was given
            t.air:5:17: error: `scaled` captures 2 values but 0 were given
            t.air:6:14: error: `scaled` captures values, so it is called through a closure: `c = closure scaled [...]` then `apply c(...)`
            t.air:13:18: error: `x` is already a parameter or a capture
        "#]],
    );
}

#[test]
fn air_function_slot_errors() {
    check_air(
        concat!(
            "fn main(c) {\nbb0:\n",
            "    a = closure nope of c\n",
            "    b = closure self\n",
            "    ret\n}\n",
        ),
        expect![[r#"
            t.air:3:17: error: unknown function `nope`
            t.air:4:9: error: `closure self` is the closure `main` was applied through, but `main` captures nothing, so it may be called directly; give it a capture list `fn main(…) [k] {`
        "#]],
    );
    check_air(
        "fn main(c) {\nbb0:\n    d = closure add of\n    ret\n}\n",
        expect![[r#"
            t.air:3:23: error: expected an operand, found end of line
        "#]],
    );
}

#[test]
fn air_block_errors() {
    check_air(
        "fn f(a) {\nbb0:\n    b = block -1 [a]\n    c = a[4294967296]\n    ret\n}\n",
        expect![[r#"
            t.air:3:15: error: block tag `-1` is not an integer from 0 to 4294967295
            t.air:4:11: error: field position `4294967296` is not an integer from 0 to 4294967295
        "#]],
    );
    check_air(
        "fn f(a) {\nbb0:\n    b = block 1 a\n    ret\n}\n",
        expect![[r#"
            t.air:3:17: error: expected `[`, found `a`
        "#]],
    );
    check_air(
        "fn f(a) [ {\nbb0:\n    ret\n}\n",
        expect![[r#"
            t.air:1:11: error: expected `]` or a name, found `{`
        "#]],
    );
}
