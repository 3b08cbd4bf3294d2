//! What the macros require of field and component types, checked once per type: a field that is
//! not a lattice, or a component that is not `Concrete`, is one error at its type.
//!
//! A proc-macro cannot know whether a type implements a trait. So for every field type it emits
//! one assertion (`__private::lattice_field_with_top::<T>()`, whose helper trait carries the
//! message), and it makes every generated impl require the same trait through a bound of the
//! form `for<'__absinthe> T: Trait`. Rustc checks a bound that names no generic parameter where
//! the impl is declared (and reports it); the binder makes it one it checks only where the impl
//! is used, so the bodies, which call `T`'s methods, report nothing more.

use proc_macro2::TokenStream;
use quote::quote;

/// `const _: () = ::absinthe::__private::CHECK::<T>();` at `ty`'s span.
pub fn assertion(ty: &syn::Type, check: &str) -> TokenStream {
    let check = syn::Ident::new(check, proc_macro2::Span::call_site());
    quote!(const _: () = ::absinthe::__private::#check::<#ty>();)
}

/// `for<'__absinthe> T: ::absinthe::__private::TRAIT`, a bound checked only where it is used.
pub fn deferred(ty: &syn::Type, bound: &str) -> syn::WherePredicate {
    let bound = syn::Ident::new(bound, proc_macro2::Span::call_site());
    syn::parse_quote!(for<'__absinthe> #ty: ::absinthe::__private::#bound)
}

/// Adds `predicates` to every impl for `names` in `tokens`, including those inside
/// `if_laws! { … }`.
pub fn restrict_impls(
    tokens: TokenStream,
    names: &[&syn::Ident],
    predicates: &[syn::WherePredicate],
) -> TokenStream {
    if predicates.is_empty() {
        return tokens;
    }
    let Ok(mut file) = syn::parse2::<syn::File>(tokens.clone()) else {
        return tokens;
    };
    restrict_items(&mut file.items, names, predicates);
    let items = &file.items;
    quote!(#(#items)*)
}

fn restrict_items(
    items: &mut [syn::Item],
    names: &[&syn::Ident],
    predicates: &[syn::WherePredicate],
) {
    for item in items {
        match item {
            syn::Item::Impl(item) => {
                let for_us = match &*item.self_ty {
                    syn::Type::Path(path) => names.iter().any(|n| path.path.is_ident(*n)),
                    _ => false,
                };
                if for_us {
                    item.generics
                        .make_where_clause()
                        .predicates
                        .extend(predicates.iter().cloned());
                }
            }
            syn::Item::Macro(item) => {
                let Ok(mut inner) = syn::parse2::<syn::File>(item.mac.tokens.clone()) else {
                    continue;
                };
                restrict_items(&mut inner.items, names, predicates);
                let inner = &inner.items;
                item.mac.tokens = quote!(#(#inner)*);
            }
            _ => {}
        }
    }
}

/// Whether `ty` names one of the type parameters `params`.
pub fn names_param(ty: &syn::Type, params: &[String]) -> bool {
    fn walk(tokens: TokenStream, params: &[String]) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => params.iter().any(|p| i == p),
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), params),
            _ => false,
        })
    }
    !params.is_empty() && walk(quote!(#ty), params)
}
