//! The backward rules of a product (`on backward "+"`, `on backward any`, `on backward copy`,
//! `on backward observe`), as the generated code runs them: each component's rule, else top
//! (a built-in component's own backward methods are top too), then the product's reductions. A
//! product without backward rules demands top everywhere, as `ValueDomain`'s defaults do.

use super::Interp;
use super::val::Val;
use crate::plan::RuleKind;
use absinthe::program::Op;
use absinthe_domc::dom::tree::Ty;

impl Interp {
    /// Whether the product `t` declares backward rules.
    fn has_backward_rules(&self, t: &Ty) -> bool {
        self.decl(t).rules.iter().any(|r| r.kind.is_backward())
    }

    /// `ValueDomain::demand_binary`: what `dest = a op b` demands of each operand, `d` being
    /// the demand on `dest`.
    pub fn demand_binary(&self, t: &Ty, op: Op, d: &Val) -> Val {
        if !self.has_backward_rules(t) {
            return self.top(t);
        }
        let decl = self.decl(t);
        let types = self.part_types(t);
        let raw = self.assemble(
            t,
            (0..decl.components.len()).map(|i| match decl.demand_rule(op, i) {
                Some(r) if r.kind == RuleKind::AnyDemand => {
                    self.call(r.function, &[Val::Op(op), d.clone()])
                }
                Some(r) => self.call(r.function, std::slice::from_ref(d)),
                None => self.top(&types[i]),
            }),
        );
        self.reduced(t, raw, self.policy(t))
    }

    /// `ValueDomain::demand_copy`: what a copy demands of its source.
    pub fn demand_copy(&self, t: &Ty, d: &Val) -> Val {
        self.backward_leaf(t, &RuleKind::DemandCopy, std::slice::from_ref(d))
    }

    /// `ValueDomain::observed`: what an observation demands.
    pub fn observed(&self, t: &Ty) -> Val {
        self.backward_leaf(t, &RuleKind::Observe, &[])
    }

    /// Each component's rule of `kind` on `args`, else top; reduced.
    fn backward_leaf(&self, t: &Ty, kind: &RuleKind, args: &[Val]) -> Val {
        if !self.has_backward_rules(t) {
            return self.top(t);
        }
        let decl = self.decl(t);
        let types = self.part_types(t);
        let raw = self.assemble(
            t,
            (0..decl.components.len()).map(|i| match decl.rule(kind, i) {
                Some(r) => self.call(r.function, args),
                None => self.top(&types[i]),
            }),
        );
        self.reduced(t, raw, self.policy(t))
    }
}
