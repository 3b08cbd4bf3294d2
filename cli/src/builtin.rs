//! The library's generic entry points (generic over the catalog of analyses, so that a crate
//! built from a `.dom` file runs its own) instantiated for the built-in catalog
//! [`AnalysisName`], as plain functions.
//!
//! A caller outside this crate that calls the generic ones with [`AnalysisName`] compiles again
//! every value domain, engine and renderer they reach (generic code is instantiated in each crate
//! that names its type arguments, unless the compiler shares it, which it does only without
//! optimizations). Calling these instead uses the copy compiled here: the tests do.

use crate::analyses::AnalysisName;
use crate::driver::{Format, Input, Report};
use crate::kernel::KernelEngine;
use crate::trace::TraceFormat;
use crate::verify::{VerifyConfig, VerifyReport};
use absinthe::engine::Limits;
use absinthe::program::FuncId;
use absinthe_interproc::ContextPolicy;
use absinthe_ir::Module;

/// [`crate::trace::trace`] with a built-in analysis.
pub fn trace(
    input: &Input,
    analysis: AnalysisName,
    function: Option<&str>,
    format: TraceFormat,
    limits: &Limits,
) -> Result<String, String> {
    crate::trace::trace(input, analysis, function, format, limits)
}

/// [`crate::kernel::run`] with a built-in analysis.
pub fn kernel_run(
    file: &str,
    text: &str,
    analysis: AnalysisName,
    engine: KernelEngine,
    format: Format,
) -> Result<Report, String> {
    crate::kernel::run(file, text, analysis, engine, format)
}

/// [`crate::optimize::optimize_with`] with a built-in analysis.
pub fn optimize(
    module: &Module,
    analysis: AnalysisName,
    max_visits: u64,
) -> crate::optimize::Optimized {
    crate::optimize::optimize_with(module, analysis, max_visits)
}

/// [`crate::interproc::verify`] with a built-in analysis.
pub fn interproc_verify(
    module: &Module,
    analysis: AnalysisName,
    policy: ContextPolicy,
    entry: FuncId,
    limits: &Limits,
    config: &VerifyConfig,
) -> VerifyReport {
    crate::interproc::verify(module, analysis, policy, entry, limits, config)
}
