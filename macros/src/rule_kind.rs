//! What a `#[transfer(…)]` attribute says its rule is for: the rule kinds its options name.

use crate::args::TransferArgs;
use crate::errors::Errors;
use absinthe_domc::model::{COMPARISONS, RuleKind, op_symbols, op_variant};

/// What the rule is for, one entry per option that says so (a rule is for one thing: the caller
/// reports two or none), with the option's word; `None` after an error at an operation the
/// options name wrongly.
pub fn transfer_kinds(
    args: &TransferArgs,
    errors: &mut Errors,
) -> Option<Vec<(RuleKind, &'static str)>> {
    let mut kinds: Vec<(RuleKind, &'static str)> = Vec::new();
    if let Some(op) = &args.op {
        match op_variant(op.as_str()) {
            Some(variant) => kinds.push((
                RuleKind::Binary(proc_macro2::Ident::new(variant, op.span())),
                "op",
            )),
            None => {
                errors.push(syn::Error::new(
                    op.span(),
                    format!(
                        "unknown operation `{}`; expected one of {}",
                        op.as_str(),
                        op_symbols()
                    ),
                ));
                return None;
            }
        }
    }
    if args.binary.is_present() {
        kinds.push((RuleKind::AnyBinary, "binary"));
    }
    if args.literal.is_present() {
        kinds.push((RuleKind::Literal, "literal"));
    }
    if args.address.is_present() {
        kinds.push((RuleKind::Address, "address"));
    }
    for (flag, kind, word) in [
        (&args.cond, RuleKind::Cond, "cond"),
        (&args.param, RuleKind::Param, "param"),
        (&args.apply, RuleKind::Apply, "apply"),
        (&args.function, RuleKind::Function, "function"),
        (&args.backward_copy, RuleKind::DemandCopy, "backward_copy"),
        (&args.observe, RuleKind::Observe, "observe"),
    ] {
        if flag.is_present() {
            kinds.push((kind, word));
        }
    }
    if let Some(backward) = &args.backward {
        match (**backward).as_ref().explicit() {
            None => kinds.push((RuleKind::AnyDemand, "backward")),
            Some(op) => match op_variant(op.as_str()) {
                Some(variant) => kinds.push((
                    RuleKind::Demand(proc_macro2::Ident::new(variant, backward.span())),
                    "backward",
                )),
                None => {
                    errors.push(syn::Error::new(
                        backward.span(),
                        format!("unknown operation `{op}`; expected one of {}", op_symbols()),
                    ));
                    return None;
                }
            },
        }
    }
    if let Some(assume) = &args.assume {
        match (**assume).as_ref().explicit() {
            None => kinds.push((RuleKind::AnyAssume, "assume")),
            Some(op) if COMPARISONS.contains(&op.as_str()) => {
                let variant = op_variant(op.as_str()).unwrap_or("Eq");
                kinds.push((
                    RuleKind::Assume(proc_macro2::Ident::new(variant, assume.span())),
                    "assume",
                ));
            }
            Some(op) => {
                errors.push(syn::Error::new(
                    assume.span(),
                    format!(
                        "a branch can only assume a comparison; `{op}` is not one of {}",
                        COMPARISONS.map(|c| format!("`{c}`")).join(", ")
                    ),
                ));
                return None;
            }
        }
    }
    Some(kinds)
}
