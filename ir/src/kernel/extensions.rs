//! How kernel terms write the paper's two extensions in the runtime's plain terms: `block` is one
//! free name of its own, an exit name is spelled with a leading `^` and is the first parameter of
//! the abstraction that binds it.

use absinthe::terms::{Binder, ParamId, Term, TermId, Terms};

/// The spelling of the multiple-values primitive.
pub const BLOCK: &str = "block";

/// Whether `name` is an exit name (in the name space N̂, spelled with a leading `^`).
pub fn is_exit_name(name: &str) -> bool {
    name.starts_with('^')
}

/// Whether `p` is the name of the `block` primitive.
pub fn is_block(terms: &Terms, p: ParamId) -> bool {
    terms
        .params
        .get(p.index())
        .is_some_and(|q| q.binder == Binder::Free && q.name == BLOCK)
}

/// The inputs of a program: its free names but `block`.
pub fn inputs(terms: &Terms) -> Vec<ParamId> {
    (0..terms.params.len())
        .map(|p| ParamId(p as u32))
        .filter(|&p| terms.params[p.index()].binder == Binder::Free && !is_block(terms, p))
        .collect()
}

/// The exit name abstraction `lambda` binds, if any, and the parameters its arguments are bound
/// to.
pub fn lambda_parts(terms: &Terms, lambda: TermId) -> (Option<ParamId>, &[ParamId]) {
    let Term::Lambda { params, .. } = terms.term(lambda) else {
        return (None, &[]);
    };
    match params.first() {
        Some(&p) if is_exit_name(terms.param_name(p)) => (Some(p), &params[1..]),
        _ => (None, params),
    }
}

/// Whether the program uses an extension (`block` or an exit name) the core IR cannot express.
pub fn uses_extensions(terms: &Terms) -> bool {
    terms
        .params
        .iter()
        .any(|p| p.name == BLOCK && p.binder == Binder::Free || is_exit_name(&p.name))
}
