//! What the interprocedural engines see of a module ([`Module`]), and how calls are told apart
//! ([`CallSite`], [`Context`], [`ContextPolicy`]).

use absinthe::program::{BlockId, FuncId, Program};
use std::fmt;

/// A module of functions, as the interprocedural engine sees it.
pub trait Module {
    /// The functions' type.
    type Function: Program;
    /// Number of functions; ids are `0..function_count()`.
    fn function_count(&self) -> usize;
    /// The function `f`, if it exists.
    fn function(&self, f: FuncId) -> Option<&Self::Function>;
    /// The function's name, for output.
    fn function_name(&self, f: FuncId) -> &str;
}

/// A call site: statement `index` of `block` of `func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallSite {
    /// The calling function.
    pub func: FuncId,
    /// The block of the call.
    pub block: BlockId,
    /// The statement's position in the block.
    pub index: u32,
}

/// How calls of one function are told apart (one word of the shared vocabulary).
pub use absinthe::spec::ContextPolicy;

/// Which calls an instance stands for.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Context {
    /// Every call (0-CFA), or the analysis's entry.
    All,
    /// Calls whose last call sites, innermost last, are these.
    Sites(Box<[CallSite]>),
    /// Calls with the `n`-th distinct input of the function (functional policy).
    Input(u32),
    /// Calls beyond the functional policy's bound.
    Merged,
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Context::All => f.write_str("*"),
            Context::Sites(sites) => {
                f.write_str("[")?;
                for (i, s) in sites.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{:?}:{:?}:{}", s.func, s.block, s.index)?;
                }
                f.write_str("]")
            }
            Context::Input(n) => write!(f, "input#{n}"),
            Context::Merged => f.write_str("merged"),
        }
    }
}
