//! Compiles a `.dom` file and prints the generated Rust, or the diagnostics: `cargo run -p
//! absinthe-domc --example domc -- FILE.dom`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: domc FILE.dom");
        std::process::exit(2);
    };
    match absinthe_domc::compile_file(std::path::Path::new(&path)) {
        Ok(compiled) => print!("{}", compiled.rust),
        Err(failure) => {
            eprint!("{failure}");
            std::process::exit(1);
        }
    }
}
