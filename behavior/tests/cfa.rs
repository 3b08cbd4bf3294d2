//! The behavior graph's control-flow facts on random kernel programs: with one context they are
//! the least fixpoint of the seed's 0-CFA equations (a naive reference), and more call sites of
//! context never find more functions at a term.

use absinthe::terms::{ParamId, Prim, Term, TermId, Terms};
use absinthe_behavior::BehaviorGraph;
use absinthe_ir::kernel::{KernelGenConfig, random_terms};
use std::collections::BTreeSet;

/// 0-CFA by the seed's equations (§7.2), iterated naively to their least fixpoint: the flow of
/// a λ term holds it, a parameter holds what every argument in its position at an application
/// whose operator may be its λ holds, an application holds what the bodies of those λs hold
/// (and `cond` what its branches hold), a letrec name what its term holds.
fn naive_cfa(terms: &Terms) -> (Vec<BTreeSet<TermId>>, Vec<BTreeSet<TermId>>) {
    let n = terms.terms.len();
    let mut term_sets: Vec<BTreeSet<TermId>> = vec![BTreeSet::new(); n];
    let mut param_sets: Vec<BTreeSet<TermId>> = vec![BTreeSet::new(); terms.params.len()];
    loop {
        let mut changed = false;
        for i in 0..n {
            let t = TermId(i as u32);
            let mut new: BTreeSet<TermId> = match terms.term(t) {
                Term::Const(_) => BTreeSet::new(),
                Term::Prim(_) | Term::Lambda { .. } => BTreeSet::from([t]),
                Term::Param(p) => param_sets[p.index()].clone(),
                Term::Letrec { body, .. } => term_sets[body.index()].clone(),
                Term::App { op, args, .. } => {
                    let mut out = BTreeSet::new();
                    for &f in &term_sets[op.index()] {
                        match terms.term(f) {
                            Term::Lambda { params, body } if params.len() == args.len() => {
                                out.extend(term_sets[body.index()].iter().copied());
                                for (&p, &a) in params.iter().zip(args.iter()) {
                                    let add: Vec<TermId> =
                                        term_sets[a.index()].iter().copied().collect();
                                    for v in add {
                                        changed |= param_sets[p.index()].insert(v);
                                    }
                                }
                            }
                            Term::Prim(Prim::Cond) if args.len() == 3 => {
                                out.extend(term_sets[args[1].index()].iter().copied());
                                out.extend(term_sets[args[2].index()].iter().copied());
                            }
                            _ => {}
                        }
                    }
                    out
                }
            };
            if let Term::Letrec { bindings, .. } = terms.term(t) {
                for &(p, bound) in bindings.iter() {
                    let add: Vec<TermId> = term_sets[bound.index()].iter().copied().collect();
                    for v in add {
                        changed |= param_sets[p.index()].insert(v);
                    }
                }
            }
            new.extend(term_sets[i].iter().copied());
            if new != term_sets[i] {
                term_sets[i] = new;
                changed = true;
            }
        }
        if !changed {
            return (term_sets, param_sets);
        }
    }
}

#[test]
fn zero_cfa_equals_the_naive_reference_on_random_programs() {
    let mut functions_found = 0usize;
    for seed in 0..1000 {
        let config = KernelGenConfig {
            functions: (seed % 4) as usize,
            depth: 3 + (seed % 3) as usize,
            ..KernelGenConfig::default()
        };
        let (text, terms) = random_terms(seed, &config);
        let graph = BehaviorGraph::build(&terms);
        let (term_sets, param_sets) = naive_cfa(&terms);
        for (i, expected) in term_sets.iter().enumerate() {
            let t = TermId(i as u32);
            assert_eq!(
                graph.term_functions(t),
                expected,
                "seed {seed}: {}\n{text}",
                terms.flow_name(t)
            );
            functions_found += expected.len();
        }
        for (i, expected) in param_sets.iter().enumerate() {
            let p = ParamId(i as u32);
            assert_eq!(
                graph.param_functions(p),
                expected,
                "seed {seed}: Φ_{}\n{text}",
                terms.param_name(p)
            );
        }
    }
    assert!(functions_found > 10_000, "{functions_found}");
}

#[test]
fn more_call_sites_never_find_more_functions() {
    // A flow's functions over its contexts, with k call sites, are among those with fewer.
    let mut narrower = 0usize;
    for seed in 0..600 {
        let config = KernelGenConfig {
            functions: (seed % 4) as usize,
            multiple_values: seed % 2 == 1,
            exits: seed % 2 == 1,
            ..KernelGenConfig::default()
        };
        let (text, terms) = random_terms(seed, &config);
        let graphs: Vec<BehaviorGraph> = (0..3)
            .map(|k| BehaviorGraph::build_with_contexts(&terms, k))
            .collect();
        for t in 0..terms.terms.len() {
            let t = TermId(t as u32);
            for k in 1..3 {
                let (fine, coarse) = (graphs[k].term_functions(t), graphs[k - 1].term_functions(t));
                assert!(
                    fine.is_subset(coarse),
                    "seed {seed}, k = {k}, {}\n{text}",
                    terms.flow_name(t)
                );
                narrower += usize::from(fine.len() < coarse.len());
            }
        }
    }
    assert!(narrower > 0);
}
