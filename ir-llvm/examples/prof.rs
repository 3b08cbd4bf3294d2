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
    let mut limits = Limits::default();
    if let Ok(w) = std::env::var("WD") { limits.widening_delay = w.parse().unwrap(); }
    limits.narrowing_passes = 0;
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let t: Duration = match dom {
            "flat" => analyze_module::<Flat<i64>>(&lowered, true, state, &limits, |_, _| {}).iter().map(|r| r.counts.cpu).sum(),
            "interval" => analyze_module::<Interval>(&lowered, true, state, &limits, |_, _| {}).iter().map(|r| r.counts.cpu).sum(),
            _ => analyze_module::<absinthe_dsl_examples::dom::sccp_ranges::SccpRange>(&lowered, true, state, &limits, |_, _| {}).iter().map(|r| r.counts.cpu).sum(),
        };
        best = best.min(t);
    }
    println!("best {:.2} ms", best.as_secs_f64() * 1000.0);
    if let Ok(name) = std::env::var("ONE") {
        let i = lowered.functions.iter().position(|f| f.name == name).unwrap();
        let f = &lowered.module.functions[i];
        for repr in [StateRepr::Dense, StateRepr::Sparse, StateRepr::SparseTemporal] {
            one::<Flat<i64>>(f, repr, &limits);
            one::<absinthe_dsl_examples::dom::sccp_ranges::SccpRange>(f, repr, &limits);
        }
    }
    if std::env::var("TOP").is_ok() {
        let r = analyze_module::<absinthe_dsl_examples::dom::sccp_ranges::SccpRange>(&lowered, true, state, &limits, |_, _| {});
        let mut v: Vec<_> = r.iter().zip(&lowered.module.functions).map(|(r, f)| (r.counts.cpu, r.counts.name.clone(), r.counts.blocks, absinthe::program::Program::name_count(f))).collect();
        v.sort_by(|a, b| b.0.cmp(&a.0));
        let total: Duration = v.iter().map(|x| x.0).sum();
        let mut acc = Duration::ZERO;
        for (i, (t, n, b, names)) in v.iter().enumerate() {
            acc += *t;
            if i < 15 || i % 200 == 0 { println!("{i} {:.2} ms cum {:.0}% {n} blocks {b} names {names}", t.as_secs_f64()*1000.0, acc.as_secs_f64()/total.as_secs_f64()*100.0); }
        }
    }
}

#[allow(dead_code)]
pub fn one<D: absinthe::value::ValueDomain>(f: &absinthe_ir::Function, repr: StateRepr, limits: &Limits) {
    let a = absinthe::value::NonRelational::<D>::new(true);
    let t = std::time::Instant::now();
    let s = a.solve(f, repr, limits);
    println!("{repr:?}: {:.2} ms {:?}", t.elapsed().as_secs_f64() * 1000.0, s.stats());
}
