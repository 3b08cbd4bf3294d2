//! Error collection and the fallbacks emitted when a declaration is wrong.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// Errors collected while reading one item; reported together.
#[derive(Default)]
pub struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    /// Records `error`.
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// Records an error at `tokens` saying `message`.
    pub fn at(&mut self, tokens: impl quote::ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records a darling error found reading the options of `T`'s attribute, each at its token.
    /// An unknown option is reported in the attribute's words: its name, the closest option when
    /// darling finds one, and otherwise every option the attribute takes.
    pub fn darling<T: crate::args::Options>(&mut self, error: darling::Error) {
        for error in error.flatten() {
            let span = error.span();
            let text = error.to_string();
            let Some(rest) = text.strip_prefix("Unknown field: ") else {
                self.push(error.into());
                continue;
            };
            let (name, suggestion) = match rest.split_once(". Did you mean ") {
                Some((name, suggestion)) => (name, Some(suggestion.trim_end_matches('?'))),
                None => (
                    rest.split(". Available values").next().unwrap_or(rest),
                    None,
                ),
            };
            let hint = match suggestion {
                Some(suggestion) => format!("did you mean {suggestion}?"),
                None => format!(
                    "the options are {}",
                    T::NAMES
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            self.push(syn::Error::new(
                span,
                format!("{} has no option {name}; {hint}", T::ATTRIBUTE),
            ));
        }
    }

    /// How many errors were recorded.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The errors as `compile_error!` invocations.
    pub fn to_compile_errors(&self) -> TokenStream {
        let errors = self.errors.iter().map(syn::Error::to_compile_error);
        quote!(#(#errors)*)
    }
}

/// A stand-in implementation of the lattice traits for a type whose declaration was rejected, so
/// that code using the type reports nothing more.
pub fn stub(name: &Ident, generics: &syn::Generics) -> TokenStream {
    let rt = quote!(::absinthe::__private);
    let (params, args, _) = generics.split_for_impl();
    quote! {
        impl #params #rt::PartialEq for #name #args {
            fn eq(&self, _: &Self) -> bool { true }
        }
        impl #params #rt::Eq for #name #args {}
        impl #params #rt::fmt::Debug for #name #args {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                f.write_str("<invalid lattice>")
            }
        }
        impl #params #rt::Lattice for #name #args where Self: #rt::Clone {
            const FINITE_HEIGHT: bool = true;
            fn bottom() -> Self { ::core::unreachable!() }
            fn is_bottom(&self) -> bool { true }
            fn leq(&self, _: &Self) -> bool { true }
            fn join(&self, _: &Self) -> Self { ::core::unreachable!() }
            fn meet(&self, _: &Self) -> Self { ::core::unreachable!() }
        }
        impl #params #rt::Top for #name #args where Self: #rt::Clone {
            fn top() -> Self { ::core::unreachable!() }
            fn is_top(&self) -> bool { true }
        }
    }
}

/// [`stub`] for a product of a `#[absinthe::domain]` module that has errors: also `Concrete`,
/// `Display` and `ValueDomain`, so that an analysis declared over the product
/// (`#[absinthe::analysis(domain = …)]`) adds no error to the module's own. Nothing runs them:
/// the module's errors stop the build.
pub fn product_stub(name: &Ident, generics: &syn::Generics) -> TokenStream {
    let rt = quote!(::absinthe::__private);
    let (params, args, _) = generics.split_for_impl();
    let lattice = stub(name, generics);
    quote! {
        #lattice
        impl #params #rt::Concrete for #name #args {
            fn contains(&self, _: i64) -> bool { true }
        }
        impl #params #rt::fmt::Display for #name #args {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                f.write_str("<invalid product>")
            }
        }
        impl #params #rt::ValueDomain for #name #args where Self: #rt::Clone + 'static {
            fn constant(_: i64) -> Self {
                ::core::unreachable!("a product of a domain module with errors never runs: its errors stop the build")
            }
            fn binary(_: #rt::Op, _: &Self, _: &Self) -> Self {
                ::core::unreachable!("a product of a domain module with errors never runs: its errors stop the build")
            }
        }
    }
}

/// `#[meet_ext]` or `#[transfer]` used outside a `#[absinthe::domain]` module: the item, and one
/// error saying where the attribute belongs.
pub fn misplaced(attribute: &str, args: TokenStream, item: TokenStream) -> TokenStream {
    let _ = args;
    let message = format!(
        "`#[{attribute}]` marks a function inside a `#[absinthe::domain]` module; put this function \
         in the module that declares the product it belongs to"
    );
    let error = match syn::parse2::<syn::ItemFn>(item.clone()) {
        Ok(function) => syn::Error::new_spanned(&function.sig.ident, message),
        Err(_) => syn::Error::new(
            proc_macro2::Span::call_site(),
            format!(
                "`#[{attribute}]` marks a function (`fn …`) inside a `#[absinthe::domain]` \
                 module, and this item is not one; remove the attribute, or put it on a function"
            ),
        ),
    };
    let error = error.to_compile_error();
    quote!(#item #error)
}

/// Whether `attr` is `#[name]` or `#[path::name]` (for example `#[absinthe::lattice]`).
pub fn is_attr(attr: &syn::Attribute, name: &str) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == name)
}

/// The span of a darling flag that was given, `None` when it was not.
pub fn flag_span(flag: &darling::util::Flag) -> Option<proc_macro2::Span> {
    flag.is_present().then(|| flag.span())
}
