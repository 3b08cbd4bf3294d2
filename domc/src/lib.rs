//! The `.dom` compiler: grammar, syntax, sema, model and code generation. It arrives with the
//! `.dom` issue; the crate exists so the workspace has its final shape.
