use absinthe::engine::Limits;
use absinthe::lattice::{Flat, Interval};
use absinthe::value::StateRepr;
use absinthe_llvm::analyze::{States, analyze_module};
use absinthe_llvm::flags::NswFlags;
use absinthe_llvm::lower::Memory;
use absinthe_llvm::{load_module, lower_module};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = std::path::Path::new(&args[1]);
    let state = match args[2].as_str() {
        "by-size" => States::BySize,
        s => States::Fixed(StateRepr::parse(s).unwrap()),
    };
    let dom = args[3].as_str();
    let runs: usize = args[4].parse().unwrap();
    let module = load_module(file).unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    let lowered = lower_module(&module, &NswFlags::scan(&text), Memory::Erase, |_, _| {}).unwrap();
    drop(module);
    let limits = Limits::default();
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let t: Duration = match dom {
            "flat" => analyze_module::<Flat<i64>>(&lowered, true, state, &limits, |_, _| {}).iter().map(|r| r.counts.cpu).sum(),
            _ => analyze_module::<Interval>(&lowered, true, state, &limits, |_, _| {}).iter().map(|r| r.counts.cpu).sum(),
        };
        best = best.min(t);
    }
    println!("best {:.2} ms", best.as_secs_f64() * 1000.0);
}
