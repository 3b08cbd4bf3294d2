//! The macros as rustc judges them: every misuse in `tests/ui/fail` gets exactly the error its
//! committed `.stderr` shows, at the offending token; every file in `tests/ui/pass` compiles and
//! runs. Regenerate the expected output with `TRYBUILD=overwrite cargo test -p absinthe-ui-tests`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
