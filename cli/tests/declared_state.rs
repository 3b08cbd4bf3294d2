//! The state representation is one word of an analysis declaration, in `.dom`
//! (`state sparse;`) and in the attribute (`state = "sparse"`): the declared analyses run on the
//! sparse engine with no sparse code written by their authors, and give the dense results.

use absinthe::program::BlockId;
use absinthe::value::{DeclaredAnalysis, ValueDomain};
use absinthe_dsl_examples::dom::signs as dom;
use absinthe_dsl_examples::signs::{SignsDense, SignsSparse};
use absinthe_ir::function::Function;
use absinthe_ir::generate::{GenConfig, random_function};

fn same<A, B, D>(function: &Function, what: &str)
where
    D: ValueDomain,
    A: DeclaredAnalysis<Domain = D>,
    B: DeclaredAnalysis<Domain = D>,
{
    let a = A::solve(function);
    let b = B::solve(function);
    assert!(
        a.as_sparse().is_none(),
        "{what}: the dense declaration runs densely"
    );
    assert!(
        b.as_sparse().is_some(),
        "{what}: the sparse declaration runs sparsely"
    );
    assert_eq!(a.stop(), b.stop(), "{what}");
    for block in 0..function.blocks().len() {
        let block = BlockId::new(block);
        assert_eq!(a.entry(block), b.entry(block), "{what}: entry of {block:?}");
        assert_eq!(a.exit(block), b.exit(block), "{what}: exit of {block:?}");
    }
}

#[test]
fn one_word_selects_the_sparse_engine() {
    for seed in 0..300 {
        let config = GenConfig {
            blocks: 2 + (seed % 12) as usize,
            max_stmts: 1 + (seed % 5) as usize,
            names: 2 + (seed % 6) as usize,
            init_names: seed % 4 != 0,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let main = &module.functions[0];
        same::<SignsDense, SignsSparse, _>(main, &format!("attributes, seed {seed}"));
        same::<dom::SignsAnalysis, dom::SignsSparseAnalysis, _>(
            main,
            &format!(".dom, seed {seed}"),
        );
    }
    assert_eq!(
        <dom::SignsSparseAnalysis as DeclaredAnalysis>::spec().state,
        absinthe::value::StateRepr::Sparse
    );
}
