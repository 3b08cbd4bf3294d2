//! The core IR as the runtime's interprocedural engine sees it.

use absinthe::program::FuncId;

use crate::function::{Function, Module};

impl absinthe_interproc::Module for Module {
    type Function = Function;

    fn function_count(&self) -> usize {
        self.functions.len()
    }

    fn function(&self, f: FuncId) -> Option<&Function> {
        self.functions.get(f.index())
    }

    fn function_name(&self, f: FuncId) -> &str {
        self.functions
            .get(f.index())
            .map_or("?", |func| func.name.as_str())
    }
}
