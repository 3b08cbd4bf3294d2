//! Specialised queries: the common questions a simplifier asks of a name ("is it a block?",
//! "which tags?", "which immediates?", "what is field `i`?"), answered from the name's class as
//! the environment holds it, borrowed: no meet, no new environment, no description cloned, no
//! alias followed past the class.
//!
//! A meet answers any question, exactly as far as the domain can (meet `=x` with a candidate and
//! look at the result, or at whether it is bottom) and it gives the refined environment too; it
//! also costs a new environment. These queries are the fast path, and are less precise where
//! the answer needs reasoning rather than reading:
//!
//! - a declared domain's integers ([`Desc::Ints`], e.g. an interval `[0, 3]`) answer no
//!   [`prove_immediates`](TypingEnv::prove_immediates), where a meet with `5` is bottom;
//! - a mix of immediates and blocks ([`Desc::Either`]) answers no
//!   [`prove_is_block`](TypingEnv::prove_is_block) nor
//!   [`prove_tags`](TypingEnv::prove_tags), where a meet with a block keeps only the block
//!   part (and lifts what its extension says);
//! - a field is read from the class's own description only: a variant's field known alike in
//!   every case answers [`Proof::Unknown`], where expanding the variant would join the cases.
//!
//! Every answer holds of every value the environment admits (the typing environment's laws
//! check it against concrete valuations).

use super::approx::{Approx, Desc, Fields, Imm, Name};
use super::env::{Own, TypingEnv};
use std::collections::BTreeSet;

/// What a query proves of a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof<T> {
    /// This holds of every value the name may have.
    Proved(T),
    /// The environment does not say (or not without reasoning a meet would do).
    Unknown,
    /// The name has no value: the environment is bottom, or the name is.
    Invalid,
}

impl TypingEnv {
    /// Whether `name` is a block (or closure), read from its class.
    pub fn prove_is_block(&self, name: Name) -> Proof<bool> {
        match self.class(name) {
            Class::Described(Approx::Known(
                Desc::Block(_)
                | Desc::Variant(_)
                | Desc::Closure(_)
                | Desc::AnyBlock
                | Desc::Untagged(_),
            )) => Proof::Proved(true),
            Class::Described(Approx::Known(Desc::Imms(_) | Desc::Ints(_) | Desc::Naked(_)))
            | Class::Constant(_) => Proof::Proved(false),
            Class::Described(Approx::Bottom) | Class::Bottom => Proof::Invalid,
            Class::Described(Approx::Top | Approx::Alias(_) | Approx::Known(Desc::Either(..))) => {
                Proof::Unknown
            }
        }
    }

    /// The tags `name` may have, when it is a block of known tags (not a closure).
    pub fn prove_tags(&self, name: Name) -> Proof<BTreeSet<u32>> {
        match self.class(name) {
            Class::Described(Approx::Known(Desc::Block(block))) => {
                Proof::Proved(BTreeSet::from([block.tag]))
            }
            Class::Described(Approx::Known(Desc::Variant(cases))) => {
                Proof::Proved(cases.keys().copied().collect())
            }
            Class::Described(Approx::Bottom) | Class::Bottom => Proof::Invalid,
            _ => Proof::Unknown,
        }
    }

    /// The immediates `name` may be, when it is one of a known set.
    pub fn prove_immediates(&self, name: Name) -> Proof<BTreeSet<Imm>> {
        match self.class(name) {
            Class::Constant(imm) => Proof::Proved(BTreeSet::from([imm.clone()])),
            Class::Described(Approx::Known(Desc::Imms(cases))) => {
                Proof::Proved(cases.keys().cloned().collect())
            }
            Class::Described(Approx::Bottom) | Class::Bottom => Proof::Invalid,
            _ => Proof::Unknown,
        }
    }

    /// What field `index` of `name` is, when `name` is a block whose own description says (a
    /// block of known tag, full or partial, or a partial shape of unknown tag).
    pub fn prove_field(&self, name: Name, index: usize) -> Proof<Approx> {
        match self.class(name) {
            Class::Described(Approx::Known(Desc::Block(block))) => {
                match (&block.fields, block.fields.get(index)) {
                    (_, Some(field)) => Proof::Proved(field.clone()),
                    // A full shape without that field: reading it traps.
                    (Fields::Full(_), None) => Proof::Invalid,
                    (Fields::Partial(_), None) => Proof::Unknown,
                }
            }
            Class::Described(Approx::Known(Desc::Untagged(known))) => known
                .get(&index)
                .cloned()
                .map_or(Proof::Unknown, Proof::Proved),
            Class::Described(Approx::Bottom) | Class::Bottom => Proof::Invalid,
            _ => Proof::Unknown,
        }
    }

    /// `name`'s class, borrowed.
    fn class(&self, name: Name) -> Class<'_> {
        if self.is_bottom() {
            return Class::Bottom;
        }
        match self.own(name) {
            Own::Constant(imm) => Class::Constant(imm),
            Own::Described(approx) => Class::Described(approx),
        }
    }
}

/// A name's class as the queries read it.
enum Class<'a> {
    /// The environment is bottom.
    Bottom,
    /// The class of a constant.
    Constant(&'a Imm),
    /// The canonical name's description.
    Described(&'a Approx),
}
