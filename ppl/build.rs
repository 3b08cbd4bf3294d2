//! Links the Parma Polyhedra Library's C interface, and what it is built on, only with the `ppl`
//! feature: without it the crate links nothing outside Rust.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_PPL").is_none() {
        return;
    }
    for lib in ["ppl_c", "ppl", "gmpxx", "gmp"] {
        println!("cargo:rustc-link-lib={lib}");
    }
}
