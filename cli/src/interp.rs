//! The running `.dom` file's analyses as the command line's catalog: the drivers take
//! [`Interpreted`] as they take the built-in [`crate::analyses::AnalysisName`]. The file itself,
//! and the value domain the engines run, are [`absinthe_dom_interp`]'s.

use crate::analyses::{Analysis, ForDomain};
use absinthe::spec::AnalysisSpec;
use absinthe_dom_interp::{DynValue, Interp, Running};
use absinthe_domc::dom::AnalysisDecl;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};

/// An analysis of the running file, by its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interpreted(pub usize);

/// The running file: the catalog is asked only while one runs.
fn running() -> Arc<Interp> {
    match Running::interp() {
        Some(interp) => interp,
        None => unreachable!("the catalog of interpreted analyses is asked while no file runs"),
    }
}

fn decl<R>(i: usize, f: impl FnOnce(&AnalysisDecl) -> R) -> R {
    let interp = running();
    match interp.analyses().get(i) {
        Some(analysis) => f(analysis),
        None => unreachable!("the running file has no analysis {i}"),
    }
}

/// Text that lives as long as the process, each distinct text once: the catalog's names and
/// descriptions are `&'static str`, and a process may run many files.
fn interned(text: String) -> &'static str {
    static TEXTS: Mutex<BTreeMap<String, &'static str>> = Mutex::new(BTreeMap::new());
    let mut texts = TEXTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    texts
        .entry(text)
        .or_insert_with_key(|text| Box::leak(text.clone().into_boxed_str()))
}

impl Analysis for Interpreted {
    fn all() -> Vec<Interpreted> {
        (0..running().analyses().len()).map(Interpreted).collect()
    }

    fn as_str(self) -> &'static str {
        decl(self.0, |a| interned(a.name.clone()))
    }

    fn description(self) -> &'static str {
        decl(self.0, |a| {
            let place = a.describe.rsplit(" at ").next().unwrap_or(&a.describe);
            interned(format!("from {place}"))
        })
    }

    fn spec(self) -> &'static AnalysisSpec {
        decl(self.0, |a| crate::analyses::interned(a.spec.clone()))
    }

    fn dispatch<F: ForDomain>(self, f: F) -> F::Output {
        Running::switch(self.0);
        f.run::<DynValue>()
    }
}

impl fmt::Display for Interpreted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
