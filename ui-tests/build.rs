//! Compiles every accepted `.dom` file of the compiler's corpus (`domc/test_data/*/ok/`) so that
//! `tests/dom_ok.rs` can check, under `#![deny(warnings)]`, that accepted `.dom` files always
//! give Rust that compiles without a warning.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let corpus = Path::new("../domc/test_data");
    let out = std::env::var("OUT_DIR").expect("OUT_DIR is set by Cargo");
    let mut all = String::new();
    println!("cargo:rerun-if-changed={}", corpus.display());
    for phase in ["parse", "sema", "codegen"] {
        let dir = corpus.join(phase).join("ok");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "dom"))
            .collect();
        files.sort();
        for file in files {
            println!("cargo:rerun-if-changed={}", file.display());
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let dest = Path::new(&out).join(phase);
            std::fs::create_dir_all(&dest).expect("create the output folder");
            let written = absinthe_domc::Builder::new()
                .file(&file)
                .out_dir(&dest)
                .compile();
            if let Err(error) = written {
                panic!(
                    "{} is in an ok folder but does not compile:\n{error}",
                    file.display()
                );
            }
            let _ = writeln!(
                all,
                "pub mod {phase}_{stem} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{phase}/{stem}.rs\")); }}"
            );
        }
    }
    std::fs::write(Path::new(&out).join("dom_ok.rs"), all).expect("write the list");
}
