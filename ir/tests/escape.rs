//! The escape and alias analysis (`absinthe::heap::escape`) on seed 004's examples, written in
//! the core IR (`test_data/escape.air`): the exact forwarded loads, strong and weak stores,
//! escapes, summaries and sinkable allocations.

use absinthe::heap::escape::{FunctionFacts, MAX_HEAPS, Place, solve_module};
use absinthe::lattice::Interval;
use absinthe::program::{BlockId, Operand};
use absinthe_ir::Module;
use absinthe_ir::air::parse_module;

fn module() -> Module {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/escape.air");
    let text = std::fs::read_to_string(path).expect("the sample exists");
    parse_module("escape.air", &text).expect("the sample parses")
}

fn dump(module: &Module, facts: &[FunctionFacts<Interval>]) -> String {
    let mut out = String::new();
    for (f, func) in module.functions.iter().enumerate() {
        let facts = &facts[f];
        out += &format!("fn {}\n", func.name);
        let place = |p: &Place| format!("{}:{}", func.blocks()[p.block.index()].label, p.index);
        let operand = |o: &Operand| match o {
            Operand::Name(n) => func.names[n.index()].clone(),
            Operand::Int(c) => c.to_string(),
        };
        for (p, fact) in &facts.loads {
            out += &format!(
                "  load {} → {}\n",
                place(p),
                fact.forwarded
                    .as_ref()
                    .map_or("not forwarded".to_owned(), operand)
            );
        }
        for (p, strong) in &facts.stores {
            out += &format!(
                "  store {} {}\n",
                place(p),
                if *strong { "strong" } else { "weak" }
            );
        }
        for a in &facts.allocations {
            out += &format!(
                "  alloc {} {}: {}{}{}\n",
                place(&Place {
                    block: a.site.block,
                    index: a.site.index
                }),
                func.names[a.dest.index()],
                a.escape,
                if a.scalar { "; scalar" } else { "" },
                a.sink_to.map_or(String::new(), |b| format!(
                    "; sink to {}",
                    func.blocks()[b.index()].label
                ))
            );
        }
        out += &format!("  summary {:?}\n", facts.summary);
    }
    let _ = BlockId(0);
    out
}

#[test]
fn dump_all() {
    let module = module();
    let facts = solve_module::<Interval, _>(&module, MAX_HEAPS);
    println!("{}", dump(&module, &facts));
    let facts = solve_module::<Interval, _>(&module, 1);
    println!("ONE HEAP\n{}", dump(&module, &facts));
}
