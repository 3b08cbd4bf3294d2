//! What an editor asks of a `.dom` file, answered from a [`Study`](super::Study): the index of
//! declarations and references, hover text, completion, the words' classes, and formatting.
//! The language server (`absinthe lsp`) turns these into the protocol's messages.

pub mod complete;
pub mod format;
pub mod hover;
pub mod index;
pub mod tokens;
