//! The spellings every part of the generator shares: the runtime's path and the Rust names of
//! `.dom` names and fields. A leaf: it imports none of its siblings.

use crate::dom::tree::{Shape, Ty, TypeTable};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// The path generated code reaches the runtime through.
pub(super) fn rt() -> TokenStream {
    quote!(::absinthe::__private)
}

/// A `.dom` name as a Rust identifier (the checker refuses names Rust cannot take).
pub(super) fn ident(name: &str) -> Ident {
    format_ident!("{}", name)
}

/// The name of the field (of a struct lattice) or component (of a product) at `index` of the
/// lattice `ty`.
pub(super) fn field_ident(types: &TypeTable, ty: &Ty, index: usize) -> syn::Member {
    let fields = match ty {
        Ty::Tuple(_) => return syn::Member::Unnamed(syn::Index::from(index)),
        Ty::Lat(id) => match types.shape(*id) {
            Shape::Struct { fields, .. } => fields,
            Shape::Product { components } => components,
            _ => unreachable!("the checker reads fields of structs and products only"),
        },
        _ => unreachable!("the checker reads fields of lattices and parts of tuples only"),
    };
    syn::Member::Named(ident(&fields[index].0))
}
