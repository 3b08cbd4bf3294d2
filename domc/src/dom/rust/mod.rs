//! Code generation from the checked tree: [`Program`] → the Rust items of a `.dom` file
//! that are not the shared generator's (`crate::codegen` turns the model into the lattice and
//! product impls): the lattices' and products' types, every function (helpers, rules,
//! reductions, written-out operations), the concretizations and the `extern fn` trait.
//!
//! This is the first back end of the tree; the interpreter (`dom-interp`) is the second. It
//! reads only the tree, never the syntax: what a body means is decided by the checker.

mod calls;
mod expr;
mod names;

use crate::dom::tree::{Decl, Fallback, Function, Program, Role, Shape, Ty, TypeTable};
use crate::model::{LatticeDecl, ProductDecl};
use expr::Exprs;
use names::{field_ident, ident};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// The type of a declared lattice: an enum (flat, finite, sum) or a struct.
pub fn lattice_type(program: &Program, decl: &LatticeDecl) -> TokenStream {
    let name = &decl.name;
    let doc = format!(" From {}.", decl.origin.describe);
    let types = &program.types;
    let Some(Ty::Lat(id)) = types.lookup(&name.to_string()) else {
        unreachable!("every lattice of the model is a type of the program, `{name}` too")
    };
    match types.shape(id) {
        Shape::Flat { payload } => {
            let payload = types.rust(payload);
            quote! {
                #[doc = #doc]
                #[derive(Clone, Copy)]
                pub enum #name { Bottom, Value(#payload), Top }
            }
        }
        Shape::Finite { variants, .. } => {
            let variants = variants.iter().map(|v| ident(v));
            quote! {
                #[doc = #doc]
                #[derive(Clone, Copy)]
                pub enum #name { #(#variants),* }
            }
        }
        Shape::Sum { summands } => {
            let variants = summands.iter().map(|(v, t)| {
                let v = ident(v);
                match t {
                    Some(t) => {
                        let t = types.rust(t);
                        quote!(#v(#t))
                    }
                    None => quote!(#v),
                }
            });
            quote! {
                #[doc = #doc]
                #[derive(Clone)]
                pub enum #name { Bottom, #(#variants,)* Top }
            }
        }
        Shape::Struct { fields, .. } => {
            let members = fields.iter().map(|(f, _)| ident(f));
            let types = fields.iter().map(|(_, t)| types.rust(t));
            quote! {
                #[doc = #doc]
                #[derive(Clone)]
                pub struct #name { #(pub #members: #types),* }
            }
        }
        _ => unreachable!("the model declares flat, finite, sum and struct lattices only"),
    }
}

/// The struct of a product: one public field per component.
pub fn product_type(decl: &ProductDecl) -> TokenStream {
    let name = &decl.name;
    let doc = format!(" From {}.", decl.origin.describe);
    let fields = decl.components.iter().map(|c| {
        let (member, ty) = (&c.member, &c.ty);
        quote!(pub #member: #ty)
    });
    quote! {
        #[doc = #doc]
        #[derive(Clone)]
        pub struct #name { #(#fields),* }
    }
}

/// Whether the generated functions of rules, reductions and written-out operations are marked
/// `#[inline]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inlining {
    /// They are: a crate that uses the domain inlines them into its engines (the default, for
    /// `dom build`, `include_dom!` and the `Builder`).
    Rules,
    /// They are not: a crate that uses the domain calls them, so that an edit of a rule
    /// recompiles the generated library and not the engines instantiated on it
    /// (`absinthe analyze --compiled`, whose cached crate is rebuilt after every edit).
    Calls,
}

/// The functions and concretizations, in the order they were declared; `inlining` says whether
/// those of rules, reductions and written-out operations are `#[inline]`.
pub fn decls(program: &Program, inlining: Inlining) -> Vec<TokenStream> {
    program
        .decls
        .iter()
        .map(|decl| match decl {
            Decl::Function(name) => match program.functions.get(name) {
                Some(f) => function(program, name, f, inlining),
                None => unreachable!("the checker declares functions it records, not `{name}`"),
            },
            Decl::Concretization {
                lattice,
                contains,
                place,
            } => concretization(program, lattice, contains.as_deref(), place),
        })
        .collect()
}

/// The trait of the `extern fn`s and the type the generated code calls them on, if there are
/// any.
pub fn externs(program: &Program) -> Option<TokenStream> {
    if program.externs.is_empty() {
        return None;
    }
    let functions = program.externs.iter().map(|e| {
        let name = ident(&e.name);
        let params = params(&program.types, &e.params);
        let result = program.types.rust(&e.result);
        let doc = format!(" `extern fn {}`, declared at {}.", e.name, e.place);
        quote!(#[doc = #doc] fn #name(#(#params),*) -> #result;)
    });
    Some(quote! {
        /// The `extern fn`s of this file: implement this trait for [`Host`] in ordinary Rust.
        pub trait Externs {
            #(#functions)*
        }

        /// The type the generated code calls the `extern fn`s on.
        #[derive(Debug)]
        pub struct Host;
    })
}

/// `name: Type` per parameter: lattices (and thresholds) by reference, the rest by value.
fn params(types: &TypeTable, params: &[(String, Ty)]) -> Vec<TokenStream> {
    params
        .iter()
        .map(|(n, t)| {
            let n = ident(n);
            let t = types.param_rust(t);
            quote!(#n: #t)
        })
        .collect()
}

/// A function of the program.
fn function(program: &Program, name: &str, f: &Function, inlining: Inlining) -> TokenStream {
    let types = &program.types;
    let callee = ident(name);
    let params = params(types, &f.params);
    let result = types.rust(&f.result);
    let recursive = f.recursion.map(|_| name);
    let body = Exprs::body_of(program, &f.body, recursive);
    let (doc, public) = match &f.role {
        Role::Helper => {
            let doc = format!(" `fn {name}`, from {}.", f.place);
            let Some(limit) = f.recursion else {
                return quote! {
                    #[doc = #doc]
                    pub fn #callee(#(#params),*) -> ::core::option::Option<#result> {
                        #body
                    }
                };
            };
            // Declared `recursion N`: the body runs in a function that counts the calls to
            // itself it may still make.
            let within = calls::within_ident(name);
            let names: Vec<Ident> = f.params.iter().map(|(n, _)| ident(n)).collect();
            let within_doc = format!(
                " The body of `fn {name}`, which may still call itself `__absinthe_depth` calls \
                 deep (`recursion {limit}`)."
            );
            return quote! {
                #[doc = #doc]
                pub fn #callee(#(#params),*) -> ::core::option::Option<#result> {
                    #within(#(#names,)* #limit)
                }
                #[doc = #within_doc]
                fn #within(
                    #(#params,)*
                    __absinthe_depth: u32,
                ) -> ::core::option::Option<#result> {
                    #body
                }
            };
        }
        Role::Site(of) => {
            let doc = format!(
                " Which value of `{of}` a call gives: the index of its place (for blame), or none \
                 where the body fails."
            );
            let names: Vec<Ident> = f.params.iter().map(|(n, _)| ident(n)).collect();
            return quote! {
                #[doc = #doc]
                pub fn #callee(#(#params),*) -> ::core::option::Option<#result> {
                    let _ = (#(&#names),*);
                    #body
                }
            };
        }
        Role::Rule => (format!(" From `transfer {name}` at {}.", f.place), true),
        Role::Reduction => (format!(" From `meet_ext {name}` at {}.", f.place), true),
        Role::Written(lattice, op) => (
            format!(
                " `{op}` of `{}`, written out at {}.",
                types.name(lattice),
                f.place
            ),
            false,
        ),
    };
    let names: Vec<Ident> = f.params.iter().map(|(n, _)| ident(n)).collect();
    let fallback = fallback(types, f, &names);
    let vis = if public { quote!(pub) } else { quote!() };
    let inline = match inlining {
        Inlining::Rules => quote!(#[inline]),
        Inlining::Calls => quote!(),
    };
    // The body in an inner function whose `?` leaves it with `None`, then the fallback. The
    // inner function is always inlined, so the function costs what its body does.
    quote! {
        #[doc = #doc]
        #inline
        #vis fn #callee(#(#params),*) -> #result {
            #[inline(always)]
            fn __absinthe_body(#(#params),*) -> ::core::option::Option<#result> {
                let _ = (#(&#names),*);
                #body
            }
            __absinthe_body(#(#names),*).unwrap_or_else(|| #fallback)
        }
    }
}

/// What a function gives when its body fails.
fn fallback(types: &TypeTable, f: &Function, names: &[Ident]) -> TokenStream {
    match &f.fallback {
        Fallback::Top(t) => {
            let rust = types.rust(t);
            quote!(<#rust as ::absinthe::__private::Top>::top())
        }
        Fallback::Param(i) => {
            let p = &names[*i];
            quote!(::core::clone::Clone::clone(#p))
        }
        Fallback::Operands(component) => {
            // The last two parameters are the operands, of the product's type.
            let [.., (_, product), _] = f.params.as_slice() else {
                unreachable!("the checker gives a branch rule two operands")
            };
            let m = field_ident(types, product, *component);
            let (a, b) = (&names[names.len() - 2], &names[names.len() - 1]);
            quote!((::core::clone::Clone::clone(&#a.#m), ::core::clone::Clone::clone(&#b.#m)))
        }
        Fallback::Bool(b) => quote!(#b),
        Fallback::Fail => match &f.role {
            // Written-out `bottom` and `top`: the checker refuses a body that may fail.
            Role::Written(lattice, op) => {
                let why = format!(
                    "`{op}` of `{}` cannot fail: the checker refuses one that may",
                    types.name(lattice)
                );
                quote!(::core::unreachable!(#why))
            }
            Role::Helper | Role::Rule | Role::Reduction | Role::Site(_) => unreachable!(
                "a helper has no fallback (its failure is its caller's), and the checker gives \
                 rules and reductions one"
            ),
        },
    }
}

/// Membership of concrete integers: written out with `contains(x, v)`, derived for
/// `flat(int)`, and otherwise every integer for every value but bottom (sound, if coarse).
fn concretization(
    program: &Program,
    lattice: &Ty,
    contains: Option<&str>,
    place: &str,
) -> TokenStream {
    let lattice_name = program.types.name(lattice);
    let name = ident(&lattice_name);
    let flat_int = matches!(
        lattice,
        Ty::Lat(id) if matches!(program.types.shape(*id), Shape::Flat { payload: Ty::Int })
    );
    let (contains, as_constant) = match (contains, flat_int) {
        (Some(f), _) => {
            let f = ident(f);
            (quote!(#f(self, v)), quote!(::core::option::Option::None))
        }
        (None, true) => (
            quote!(match self { #name::Bottom => false, #name::Value(c) => *c == v, #name::Top => true }),
            quote!(match self { #name::Value(c) => ::core::option::Option::Some(*c), _ => ::core::option::Option::None }),
        ),
        (None, false) => (
            quote!({ let _ = v; !<#name as ::absinthe::__private::Lattice>::is_bottom(self) }),
            quote!(::core::option::Option::None),
        ),
    };
    let doc = format!(" Concretization of `{lattice_name}`, from {place}.");
    quote! {
        #[doc = #doc]
        impl ::absinthe::__private::Concrete for #name {
            fn contains(&self, v: i64) -> bool { #contains }
            fn as_constant(&self) -> ::core::option::Option<i64> { #as_constant }
        }
    }
}
