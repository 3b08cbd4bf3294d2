//! The macros as rustc judges them: every misuse in `tests/ui/fail` gets exactly the error its
//! committed `.stderr` shows, at the offending token; every file in `tests/ui/pass` compiles and
//! runs. Regenerate the expected output with `TRYBUILD=overwrite cargo test -p absinthe-ui-tests`.

#[test]
#[expect(
    unsafe_code,
    reason = "setting an environment variable is unsafe since Rust 2024; this binary runs only \
              this test, so no other thread reads the environment meanwhile"
)]
fn ui() {
    // trybuild builds the cases in a crate of its own under `target/`; `include_dom!` reads
    // paths relative to this directory instead of that crate's.
    // SAFETY: no other thread of this process reads or writes the environment (see above).
    unsafe {
        std::env::set_var("CARGO_MANIFEST_DIR_OVERRIDE", env!("CARGO_MANIFEST_DIR"));
    }
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
