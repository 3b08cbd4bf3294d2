//! The law checker's hooks in generated code: strategies for random values, the `Laws` impl that
//! runs the generic checker, and the place to blame for each law (the written-out operation's
//! `.dom` line, or the declaration an operation was derived for).

use super::common::rt;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// `impl Arbitrary` from `strategy` and `impl Laws`, both only with the runtime's `laws` feature.
pub(super) fn laws_impls(
    name: &Ident,
    has_top: bool,
    strategy: TokenStream,
    located: TokenStream,
) -> TokenStream {
    laws_impls_checking(name, has_top, strategy, located, TokenStream::new())
}

/// [`laws_impls`] whose `check_laws` also runs `more` (a product's reduction laws) after the
/// lattice laws.
pub(super) fn laws_impls_checking(
    name: &Ident,
    has_top: bool,
    strategy: TokenStream,
    located: TokenStream,
    more: TokenStream,
) -> TokenStream {
    let rt = rt();
    laws_impls_with(
        quote!(impl #rt::laws::Arbitrary for #name),
        quote!(impl #rt::laws::Laws for #name),
        has_top,
        strategy,
        located,
        more,
    )
}

/// The laws the checker names, and the operations each is about.
const LAW_OPERATIONS: [(&str, &[&str]); 9] = [
    ("order", &["leq"]),
    ("bottom", &["bottom", "empty"]),
    ("join", &["join"]),
    ("meet", &["meet"]),
    ("in-place forms", &["join", "meet"]),
    ("widening is an upper bound", &["widen"]),
    ("widening stabilises", &["widen"]),
    ("narrowing", &["narrow"]),
    ("top", &["top"]),
];

/// `Laws::law_origin`: for each law, where its operations come from — the line of a
/// written-out operation (`written`, by name), else the declaration they are derived for.
pub(super) fn law_origin(
    origin: &crate::model::Origin,
    written: &[(String, String)],
) -> TokenStream {
    let rt = rt();
    let arms = LAW_OPERATIONS.iter().map(|(law, ops)| {
        let places: Vec<String> = ops
            .iter()
            .filter_map(|op| match written.iter().find(|(w, _)| w == op) {
                Some((_, at)) => Some(format!("`{op}`, written out at {at}")),
                // `empty` is only ever written out.
                None if *op == "empty" => None,
                None => Some(format!("`{op}`, derived for {}", origin.describe)),
            })
            .collect();
        let text = places.join("; ");
        quote!(#law => #text)
    });
    quote! {
        fn law_origin(law: &str) -> #rt::Option<::std::string::String> {
            let place: &str = match law {
                #(#arms,)*
                _ => return #rt::Option::None,
            };
            #rt::Option::Some(::std::string::String::from(place))
        }
    }
}

/// [`laws_impls_checking`] with the two impl headers given.
pub(super) fn laws_impls_with(
    arbitrary: TokenStream,
    laws: TokenStream,
    has_top: bool,
    strategy: TokenStream,
    located: TokenStream,
    more: TokenStream,
) -> TokenStream {
    let rt = rt();
    let check = if has_top {
        quote!(#rt::laws::check_laws_with_top::<Self>())
    } else {
        quote!(#rt::laws::check_laws::<Self>())
    };
    quote! {
        #rt::if_laws! {
            #arbitrary {
                fn strategy() -> #rt::laws::BoxedStrategy<Self> {
                    use #rt::laws::Strategy as _;
                    (#strategy).boxed()
                }
            }

            #laws {
                fn check_laws() {
                    #rt::laws::locate_failure(<Self as #rt::laws::Laws>::law_origin, || #check);
                    #more
                }

                #located
            }
        }
    }
}
