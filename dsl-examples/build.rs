//! Compiles the `.dom` examples into `OUT_DIR` (the first of the three ways to build a `.dom`
//! file); `src/dom.rs` includes the results.

fn main() {
    let built = absinthe_domc::Builder::new()
        .file("dom/const_prop.dom")
        .file("dom/signs.dom")
        .file("dom/disjunctive.dom")
        .file("dom/seed.dom")
        .file("dom/interval.dom")
        .file("dom/bounds.dom")
        .file("dom/sccp_ranges.dom")
        .file("dom/types.dom")
        .file("dom/induction.dom")
        .file("dom/dependence.dom")
        .file("dom/strictness.dom")
        .file("dom/typing_env.dom")
        .file("dom/escape.dom")
        .file("dom/shape.dom")
        .file("dom/congruence.dom")
        .file("dom/octagon.dom")
        .file("dom/liveness.dom")
        .file("dom/needed.dom")
        .compile();
    if let Err(error) = built {
        eprintln!("{error}");
        std::process::exit(1);
    }
}
