//! `include_dom!("dom/interval.dom")`: compiles a `.dom` file (and the files it imports) while the
//! invoking crate compiles, and expands to the generated module — the third way to build a `.dom`
//! file, after `absinthe_domc::Builder` in `build.rs` and `absinthe dom build`.
//!
//! Spans cannot point into a `.dom` file, so each diagnostic becomes a `compile_error!` at the
//! path literal whose message is the rendered diagnostic (`file:line:col`, the source line, the
//! label, the help). Every file read is also named in an `include_bytes!`, which makes Cargo
//! rebuild the crate when one of them changes.

use absinthe_domc::diagnostic::{Failure, Sources, render};
use absinthe_domc::dom::module_name;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use std::path::{Path, PathBuf};
use syn::LitStr;

/// Replaces `CARGO_MANIFEST_DIR` when set: trybuild builds its cases in a generated crate of its
/// own, whose manifest directory holds none of the test's files (see trybuild issue 202).
const MANIFEST_DIR_OVERRIDE: &str = "CARGO_MANIFEST_DIR_OVERRIDE";

pub fn expand(input: TokenStream) -> TokenStream {
    let literal: LitStr = match syn::parse2(input) {
        Ok(literal) => literal,
        Err(error) => {
            let message = format!(
                "{error}; expected the path of a `.dom` file: `include_dom!(\"dom/interval.dom\")`"
            );
            return syn::Error::new(error.span(), message).into_compile_error();
        }
    };
    let Some(base) = manifest_dir() else {
        return error_at(
            &literal,
            "`CARGO_MANIFEST_DIR` is not set: `include_dom!` reads paths relative to the \
             invoking crate, so it must be built by Cargo",
        );
    };
    let relative = literal.value();
    let text = match std::fs::read_to_string(base.join(&relative)) {
        Ok(text) => text,
        Err(error) => {
            let message = format!(
                "cannot read `{relative}`: {error}\n  = help: the path is relative to the \
                 directory of the invoking crate's Cargo.toml"
            );
            return error_at(&literal, &message);
        }
    };
    let directory = Path::new(&relative)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    // Imports are relative to the root file, as `compile_file` reads them; files are reported
    // under their paths relative to the crate, so messages do not name this machine's folders.
    let mut load = |imported: &str| -> std::io::Result<(String, String)> {
        let name = directory.join(imported);
        let text = std::fs::read_to_string(base.join(&name))?;
        Ok((name.display().to_string(), text))
    };
    match absinthe_domc::compile_text(&relative, &text, &mut load) {
        Ok(compiled) => {
            let tracked = track(&base, &compiled.sources);
            match compiled.rust.parse::<TokenStream>() {
                Ok(module) => quote!(#tracked #module),
                Err(error) => error_at(
                    &literal,
                    &format!(
                        "absinthe-domc generated Rust that does not lex ({error}); please report it"
                    ),
                ),
            }
        }
        Err(failure) => {
            let tracked = track(&base, &failure.sources);
            let errors = compile_errors(&literal, &failure);
            // An empty module of the expected name, so that only the `.dom` errors are reported
            // and not every use of the module as well.
            let module = format_ident!("{}", module_name(&relative));
            quote! {
                #tracked
                #errors
                pub mod #module {}
            }
        }
    }
}

fn manifest_dir() -> Option<PathBuf> {
    std::env::var_os(MANIFEST_DIR_OVERRIDE)
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from)
}

/// One `compile_error!` per diagnostic, each with the diagnostic rendered against its file.
fn compile_errors(literal: &LitStr, failure: &Failure) -> TokenStream {
    failure
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let rendered = render(std::slice::from_ref(diagnostic), &failure.sources);
            // rustc prints `error: ` before the message itself.
            let message = rendered.strip_prefix("error: ").unwrap_or(&rendered);
            error_at(literal, message.trim_end())
        })
        .collect()
}

fn error_at(literal: &LitStr, message: &str) -> TokenStream {
    syn::Error::new(literal.span(), message).into_compile_error()
}

/// `const _: &[u8] = include_bytes!("…");` for every file read that exists, so that rustc lists
/// it in the crate's dependencies and Cargo rebuilds when it changes.
fn track(base: &Path, sources: &Sources) -> TokenStream {
    sources
        .files()
        .iter()
        .filter_map(|file| {
            let path = base.join(&file.name);
            let path = path.to_str().filter(|_| path.is_file())?;
            let path = LitStr::new(path, Span::call_site());
            Some(quote! {
                const _: &[u8] = ::core::include_bytes!(#path);
            })
        })
        .collect()
}
