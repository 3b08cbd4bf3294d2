//! Checking the alias heap of `absinthe_heap` against runs: whether a run's variables, with the
//! sites the interpreter recorded for its objects, are one of the states a heap describes.

use std::collections::BTreeSet;

use absinthe::lattice::{Generation, Lattice};
use absinthe_heap::{AliasHeap, Site};

/// Whether the concrete variables `env` may be described by `heap`, the run's objects allocated
/// at `sites`. A heap joined from several (past the disjunction's size) may put a variable in
/// more than one object, read as "one of them". So: every variable holding a reference is in an
/// object that may be its own (of the unknown site, which may alias anything, or of the site
/// that allocated it with a generation allowing its younger live siblings held by variables);
/// two variables holding the same reference share an object (or one may be unknown); two
/// holding different references are not both only in one same object.
pub fn describes(
    heap: &AliasHeap,
    env: &[Option<crate::interp::Value>],
    sites: &[crate::interp::AllocSite],
) -> bool {
    use crate::interp::Value;
    let candidates = |x: usize| -> Vec<(&absinthe_heap::Object, Generation)> {
        heap.objects()
            .filter(|((_, vars), _)| vars.contains(&absinthe::program::NameId(x as u32)))
            .map(|(o, g)| (o, *g))
            .collect()
    };
    let refs: Vec<(usize, u32)> = env
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v {
            Some(Value::Ref(r)) => Some((i, *r)),
            _ => None,
        })
        .collect();
    for &(x, r) in &refs {
        let site = sites[r as usize];
        let younger: BTreeSet<u32> = refs
            .iter()
            .map(|&(_, s)| s)
            .filter(|&s| s > r && sites[s as usize] == site)
            .collect();
        let own = |(o, g): &(&absinthe_heap::Object, Generation)| {
            o.0 == Site::UNKNOWN
                || ((o.0.block, o.0.index) == (site.block, site.index)
                    && Generation::AtMost(younger.len() as u32).leq(g))
        };
        let cx = candidates(x);
        if !cx.iter().any(own) {
            return false;
        }
        let unknown = |c: &[(&absinthe_heap::Object, Generation)]| {
            c.iter().any(|(o, _)| o.0 == Site::UNKNOWN)
        };
        for &(y, s) in &refs {
            let cy = candidates(y);
            if unknown(&cx) || unknown(&cy) {
                continue;
            }
            let shared = cx.iter().any(|(o, _)| cy.iter().any(|(p, _)| o == p));
            if r == s && !shared {
                return false;
            }
            if r != s && cx.len() == 1 && cy.len() == 1 && cx[0].0 == cy[0].0 {
                return false;
            }
        }
    }
    true
}
