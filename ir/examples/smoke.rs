//! Parses the files given on the command line and prints them back in canonical form (toy
//! programs also lowered to core IR); with no arguments, prints a random module.

use absinthe_ir::generate::{GenConfig, random_function};
use absinthe_ir::{Loaded, Module, load_file, print_module};

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        print!(
            "{}",
            print_module(&random_function(7, &GenConfig::default()))
        );
    }
    for file in files {
        match load_file(&file) {
            Ok(Loaded::Air(module)) => print!("{}", print_module(&module)),
            Ok(Loaded::Toy(prog)) => {
                print!("{prog}");
                let (func, _) = prog.lower();
                let module = Module {
                    functions: vec![func],
                    fields: Vec::new(),
                    symbols: Vec::new(),
                };
                print!("{}", print_module(&module));
            }
            Err(e) => println!("{e}"),
        }
    }
}
