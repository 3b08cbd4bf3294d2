//! `#[absinthe::analysis(domain = D, …)]` on a unit struct: the attribute form of a `.dom`
//! `analysis` declaration. It implements `DeclaredAnalysis`, whose `solve` runs the
//! non-relational analysis of `D` with the declared state representation — one word, `state =
//! "sparse"`, selects the sparse engine.

use crate::args;
use crate::errors::Errors;
use absinthe_domc::codegen;
use absinthe_spec::{AnalysisSpec, ContextPolicy, Direction, Engine, StateRepr, one_of};
use darling::FromMeta;
use proc_macro2::TokenStream;
use quote::quote;

/// The options of `#[absinthe::analysis(…)]`.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
struct AnalysisArgs {
    /// The value domain.
    domain: Option<syn::Path>,
    /// `"forward"` or `"backward"`.
    direction: Option<darling::util::SpannedValue<String>>,
    /// `"dense"`, `"sparse"`, `"sparse-temporal"` or `"ssa"`.
    state: Option<darling::util::SpannedValue<String>>,
    /// `"evaluated"` or `"ignored"`.
    conditions: Option<darling::util::SpannedValue<String>>,
    /// `"insensitive"`, `"kcfa=K"`, `"functional"` or `"functional=N"`.
    context: Option<darling::util::SpannedValue<String>>,
    /// `"flow"`, `"behavior_graph"`, `"typing_env"`, `"escape"` or `"shape"`.
    engine: Option<darling::util::SpannedValue<String>>,
    /// Joins at a loop head before widening: a number.
    widening_delay: Option<syn::Lit>,
    /// Descending passes after the ascending phase: a number.
    narrowing: Option<syn::Lit>,
    /// For the engine `typing_env`: the most immediates a set of constants keeps (1 to 1024).
    immediates: Option<syn::Lit>,
    /// For the engine `typing_env`: the most values a set of naked numbers keeps, per kind:
    /// `"float 4, int32 16"`.
    numbers: Option<darling::util::SpannedValue<String>>,
    /// For the engine `escape`: how many heaps a point keeps apart (1 to 64).
    heaps: Option<syn::Lit>,
    /// The analysis's name (defaults to the struct's).
    name: Option<String>,
}

impl args::Options for AnalysisArgs {
    const ATTRIBUTE: &'static str = "`#[absinthe::analysis(…)]`";
    const NAMES: &'static [&'static str] = &[
        "domain",
        "direction",
        "state",
        "conditions",
        "context",
        "engine",
        "widening_delay",
        "narrowing",
        "immediates",
        "numbers",
        "heaps",
        "name",
    ];
}

/// Expands `#[absinthe::analysis(args)] struct X;`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let parsed: darling::Result<AnalysisArgs> = args::parse(args);
    let item: syn::ItemStruct = match syn::parse2(item.clone()) {
        Ok(item) => item,
        Err(_) => {
            let error = syn::Error::new_spanned(
                &item,
                "`#[absinthe::analysis]` applies to a unit struct: `struct MyAnalysis;`",
            )
            .to_compile_error();
            return quote!(#item #error);
        }
    };
    // Options that do not parse are the only errors reported: the others would follow from them
    // (an option misspelt is also missing).
    let options = match parsed {
        Ok(options) => options,
        Err(error) => {
            errors.darling::<AnalysisArgs>(error);
            let errors = errors.to_compile_errors();
            return quote!(#item #errors);
        }
    };
    let delay = count(
        options.widening_delay.as_ref(),
        "widening_delay",
        &mut errors,
    );
    let narrowing = count(options.narrowing.as_ref(), "narrowing", &mut errors);
    let immediates = count(options.immediates.as_ref(), "immediates", &mut errors);
    if let (Some(n @ (0 | 1025..)), Some(literal)) = (immediates, options.immediates.as_ref()) {
        errors.at(
            literal,
            format!("`immediates` is from 1 to 1024, not {n}: `immediates = 16`"),
        );
    }
    let heaps = count(options.heaps.as_ref(), "heaps", &mut errors);
    if let (Some(n @ (0 | 65..)), Some(literal)) = (heaps, options.heaps.as_ref()) {
        errors.at(
            literal,
            format!("`heaps` is from 1 to 64, not {n}: `heaps = 4`"),
        );
    }
    if !matches!(item.fields, syn::Fields::Unit) {
        errors.at(
            &item.fields,
            "an analysis is a unit struct: `struct MyAnalysis;`; its settings are the \
             attribute's options (`widening_delay = 2`, `state = \"sparse\"`, …)",
        );
    }
    let state = match options.state.as_ref() {
        None => StateRepr::default(),
        Some(text) => StateRepr::parse(text.as_str()).unwrap_or_else(|| {
            let words = StateRepr::EVERY.map(StateRepr::as_str);
            errors.push(syn::Error::new(
                text.span(),
                format!(
                    "unknown state `{}`; expected {}",
                    text.as_str(),
                    one_of(&words)
                ),
            ));
            StateRepr::default()
        }),
    };
    let conditional = match options.conditions.as_ref().map(|s| s.as_str()) {
        None | Some("evaluated") => true,
        Some("ignored") => false,
        Some(other) => {
            let span = options.conditions.as_ref().map(|s| s.span());
            errors.push(syn::Error::new(
                span.unwrap_or_else(proc_macro2::Span::call_site),
                format!("unknown `conditions = \"{other}\"`; expected `evaluated` or `ignored`"),
            ));
            true
        }
    };
    // On an unknown word, the error below stops the expansion before the default is used.
    let context = match options.context.as_ref() {
        None => ContextPolicy::default(),
        Some(text) => ContextPolicy::parse(text.as_str()).unwrap_or_else(|| {
            errors.push(syn::Error::new(
                text.span(),
                format!(
                    "unknown context policy `{}`; expected {}",
                    text.as_str(),
                    ContextPolicy::FORMS
                ),
            ));
            ContextPolicy::default()
        }),
    };
    let engine = match options.engine.as_ref() {
        None => Engine::default(),
        Some(text) => match Engine::from_word(text.as_str()).map(|e| (e, e.declarable())) {
            Some((engine, Ok(()))) => engine,
            Some((_, Err(why))) => {
                errors.push(syn::Error::new(text.span(), why));
                Engine::default()
            }
            None => {
                errors.push(syn::Error::new(
                    text.span(),
                    format!(
                        "unknown engine `{}`; expected {}",
                        text.as_str(),
                        one_of(&Engine::WORDS)
                    ),
                ));
                Engine::default()
            }
        },
    };
    let direction = match options.direction.as_ref() {
        None => Direction::default(),
        Some(text) => Direction::from_word(text.as_str()).unwrap_or_else(|| {
            errors.push(syn::Error::new(
                text.span(),
                format!(
                    "unknown direction `{}`; expected {}",
                    text.as_str(),
                    one_of(&Direction::WORDS)
                ),
            ));
            Direction::default()
        }),
    };
    // Settings the engine does not read are errors, not settings silently dropped.
    let written: [(&str, Option<proc_macro2::Span>); 5] = [
        ("state", options.state.as_ref().map(|s| s.span())),
        ("context", options.context.as_ref().map(|s| s.span())),
        (
            "immediates",
            options.immediates.as_ref().map(syn::Lit::span),
        ),
        ("numbers", options.numbers.as_ref().map(|s| s.span())),
        ("heaps", options.heaps.as_ref().map(syn::Lit::span)),
    ];
    for (setting, span) in written {
        if let (Some(span), Err(help)) = (span, engine.reads(setting)) {
            errors.push(syn::Error::new(
                span,
                format!("`{setting}` does not apply to the engine `{engine}`: {help}"),
            ));
        }
    }
    let Some(domain) = options.domain else {
        errors.at(
            &item.ident,
            "say which value domain the analysis runs: `#[absinthe::analysis(domain = MyProduct)]`",
        );
        let errors = errors.to_compile_errors();
        return quote!(#item #errors);
    };
    if !errors.is_empty() {
        let errors = errors.to_compile_errors();
        return quote!(#item #errors);
    }
    let ident = &item.ident;
    let name = options.name.unwrap_or_else(|| ident.to_string());
    let defaults = AnalysisSpec::declared_default();
    let mut numbers = defaults.clone();
    if let Some(text) = &options.numbers {
        if let Err(message) = numbers.parse_numbers(text.as_str()) {
            let errors = syn::Error::new(text.span(), message).to_compile_error();
            return quote!(#item #errors);
        }
    }
    let spec = AnalysisSpec {
        engine,
        direction,
        state,
        context,
        conditional,
        widening_delay: delay.unwrap_or(defaults.widening_delay),
        narrowing: narrowing.unwrap_or(defaults.narrowing),
        immediates: immediates.unwrap_or(defaults.immediates),
        numbers: numbers.numbers,
        heaps: heaps.unwrap_or(defaults.heaps),
        ..defaults
    };
    if let (Direction::Backward, Some(conditions)) = (direction, options.conditions.as_ref()) {
        let error = syn::Error::new(
            conditions.span(),
            "`conditions` does not apply to a backward analysis: it evaluates no branch, it walks \
             every edge against control flow",
        )
        .to_compile_error();
        return quote!(#item #error);
    }
    if let Some((setting, why)) = spec.backward_conflict() {
        let span = match setting {
            "engine" => options.engine.as_ref().map(|s| s.span()),
            "state" => options.state.as_ref().map(|s| s.span()),
            _ => options.context.as_ref().map(|s| s.span()),
        };
        let error = syn::Error::new(
            span.unwrap_or_else(proc_macro2::Span::call_site),
            format!("`{setting}` does not apply to a backward analysis: {why}"),
        )
        .to_compile_error();
        return quote!(#item #error);
    }
    let declared = codegen::declared_analysis(ident, &name, &quote!(#domain), &spec);
    quote! {
        #item

        #declared
    }
}

/// The number an option such as `widening_delay = 2` gives, or an error at the literal.
fn count(literal: Option<&syn::Lit>, option: &str, errors: &mut Errors) -> Option<u32> {
    let literal = literal?;
    let number = match literal {
        syn::Lit::Int(int) => int.base10_parse::<u32>().ok(),
        _ => None,
    };
    if number.is_none() {
        errors.at(
            literal,
            format!(
                "`{option}` is a number (at most {}): `{option} = 2`",
                u32::MAX
            ),
        );
    }
    number
}
