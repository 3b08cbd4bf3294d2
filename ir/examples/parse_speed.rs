//! Measures how long generating, printing and parsing the benchmark shapes takes.

use std::time::Instant;

use absinthe_ir::generate::{diamonds, nested_loops, straight_line};
use absinthe_ir::{parse_module, print_module};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    for (name, make) in [
        (
            "straight_line",
            (|n| straight_line(n, 64)) as fn(usize) -> absinthe_ir::Module,
        ),
        ("nested_loops", |n| nested_loops(n, 4)),
        ("diamonds", diamonds),
    ] {
        let t = Instant::now();
        let module = make(n);
        let generated = t.elapsed();
        let t = Instant::now();
        let text = print_module(&module);
        let printed = t.elapsed();
        let t = Instant::now();
        let parsed = parse_module("shape.air", &text).map(|m| m == module);
        let parse_time = t.elapsed();
        println!(
            "{name}: {n} stmts, {} blocks: generate {generated:?}, print {printed:?}, parse {parse_time:?} ({parsed:?})",
            module.functions[0].blocks().len()
        );
    }
}
