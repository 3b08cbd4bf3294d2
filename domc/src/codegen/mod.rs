//! The shared code generator: turns the checked [`model`](crate::model) into Rust tokens.
//!
//! Both front ends call it: the `#[lattice]` and `#[absinthe::domain]` macros return its tokens
//! to rustc, the `.dom` compiler formats them into a file. Generated code names only
//! `::absinthe::__private` paths, never emits a `HashMap` iteration order, and documents each
//! impl with the declaration it came from.

mod backward;
mod common;
mod explain;
mod lattice;
mod laws;
mod product;

pub use lattice::lattice;
pub use product::product;

use absinthe_spec::{AnalysisSpec, ContextPolicy, Direction, Engine, ProgramKind, StateRepr};
use common::rt;
use proc_macro2::TokenStream;
use quote::quote;

/// `impl DeclaredAnalysis for #name`: the analysis `name` (its name in the declaration `text`)
/// of the value domain `domain`, declared as `spec` says. The spec is written out whole, as a
/// `static`, so that the generated code states every setting of the declaration, defaults
/// included.
pub fn declared_analysis(
    name: &syn::Ident,
    text: &str,
    domain: &TokenStream,
    spec: &AnalysisSpec,
) -> TokenStream {
    let rt = rt();
    let engine = engine(spec.engine);
    let direction = match spec.direction {
        Direction::Forward => quote!(#rt::Direction::Forward),
        Direction::Backward => quote!(#rt::Direction::Backward),
    };
    let state = state_repr(spec.state);
    let context = context_policy(spec.context);
    let program = program_kind(spec.program);
    let conditional = spec.conditional;
    let count = |n: u32| proc_macro2::Literal::u32_unsuffixed(n);
    let (widening_delay, narrowing) = (count(spec.widening_delay), count(spec.narrowing));
    let (immediates, heaps) = (count(spec.immediates), count(spec.heaps));
    let numbers = spec.numbers.map(count);
    let thresholds = spec.thresholds.iter().map(|&t| {
        let magnitude = proc_macro2::Literal::u64_unsuffixed(t.unsigned_abs());
        if t < 0 {
            quote!(-#magnitude)
        } else {
            quote!(#magnitude)
        }
    });
    quote! {
        impl #rt::DomAnalysis for #name {
            type Domain = #domain;
            const NAME: &'static str = #text;
            fn spec() -> &'static #rt::AnalysisSpec {
                static SPEC: #rt::AnalysisSpec = #rt::AnalysisSpec {
                    engine: #engine,
                    direction: #direction,
                    state: #state,
                    context: #context,
                    program: #program,
                    conditional: #conditional,
                    widening_delay: #widening_delay,
                    narrowing: #narrowing,
                    thresholds: #rt::Cow::Borrowed(&[#(#thresholds),*]),
                    immediates: #immediates,
                    numbers: [#(#numbers),*],
                    heaps: #heaps,
                };
                &SPEC
            }
        }
    }
}

/// The runtime's `StateRepr` variant `state`, as generated code writes it.
pub fn state_repr(state: StateRepr) -> TokenStream {
    let rt = rt();
    match state {
        StateRepr::Dense => quote!(#rt::StateRepr::Dense),
        StateRepr::Sparse => quote!(#rt::StateRepr::Sparse),
        StateRepr::SparseTemporal => quote!(#rt::StateRepr::SparseTemporal),
        StateRepr::Ssa => quote!(#rt::StateRepr::Ssa),
    }
}

/// The runtime's `ContextPolicy` `policy`, as generated code writes it.
pub fn context_policy(policy: ContextPolicy) -> TokenStream {
    let rt = rt();
    match policy {
        ContextPolicy::Insensitive => quote!(#rt::ContextPolicy::Insensitive),
        ContextPolicy::CallStrings(k) => quote!(#rt::ContextPolicy::CallStrings(#k)),
        ContextPolicy::Functional { max_per_function } => {
            quote!(#rt::ContextPolicy::Functional { max_per_function: #max_per_function })
        }
    }
}

/// The runtime's `Engine` variant `engine`, as generated code writes it.
pub fn engine(engine: Engine) -> TokenStream {
    let rt = rt();
    match engine {
        Engine::Flow => quote!(#rt::Engine::Flow),
        Engine::BehaviorGraph => quote!(#rt::Engine::BehaviorGraph),
        Engine::TypingEnv => quote!(#rt::Engine::TypingEnv),
        Engine::Escape => quote!(#rt::Engine::Escape),
        Engine::Shape => quote!(#rt::Engine::Shape),
        Engine::AliasHeap => unreachable!(
            "the checker and the attribute refuse `engine alias_heap` in a declaration"
        ),
    }
}

/// The runtime's `ProgramKind` variant `kind`, as generated code writes it.
pub fn program_kind(kind: ProgramKind) -> TokenStream {
    let rt = rt();
    match kind {
        ProgramKind::Toy => quote!(#rt::ProgramKind::Toy),
        ProgramKind::Air => quote!(#rt::ProgramKind::Air),
        ProgramKind::Any => quote!(#rt::ProgramKind::Any),
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Field, LatticeDecl, LatticeKind, Origin, Pointwise};
    use proc_macro2::Span;

    fn decl() -> LatticeDecl {
        let field = |name: &str, ty: &str| Field {
            member: syn::Member::Named(syn::Ident::new(name, Span::call_site())),
            ty: syn::parse_str(ty).expect("a type"),
            ignored: false,
            value: false,
        };
        LatticeDecl {
            name: syn::Ident::new("Pair", Span::call_site()),
            origin: Origin::new(Span::call_site(), "`#[lattice] struct Pair`"),
            kind: LatticeKind::Pointwise(Box::new(Pointwise {
                fields: vec![field("a", "Interval"), field("b", "Parity")],
                smash: true,
                empty_if: None,
                normalize: None,
                bottom: None,
                top: None,
                overrides: Vec::new(),
                written_at: Vec::new(),
                generics: syn::Generics::default(),
            })),
            has_top: true,
        }
    }

    #[test]
    fn generation_is_deterministic_and_parses() {
        let first = super::lattice(&decl(), true).to_string();
        let second = super::lattice(&decl(), true).to_string();
        assert_eq!(first, second);
        let file: syn::File = syn::parse_str(&first).expect("generated code parses");
        assert!(
            file.items.len() >= 5,
            "PartialEq, Eq, Lattice, Top, Debug and more"
        );
        assert!(first.contains(":: absinthe :: __private"));
        assert!(
            !first.contains(":: absinthe :: lattice"),
            "generated code names only the private paths"
        );
        assert!(first.contains("generated from `#[lattice] struct Pair`"));
    }
}
