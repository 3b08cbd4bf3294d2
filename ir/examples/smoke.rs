//! Smoke run: parses and prints the files given on the command line.
fn main() {
    for a in std::env::args().skip(1) {
        match absinthe_ir::load_file(&a) {
            Ok(absinthe_ir::Loaded::Air(m)) => print!("{}", absinthe_ir::print_module(&m)),
            Ok(absinthe_ir::Loaded::Toy(t)) => {
                print!("{t}");
                let (f, _) = t.lower();
                let m = absinthe_ir::Module {
                    functions: vec![f],
                    fields: vec![],
                };
                print!("{m}");
            }
            Err(e) => println!("{e}  [{:?}]", e.expected),
        }
    }
}
