//! The names that stand for values nobody knows: the shared unknown value (⊤), its wrapped
//! forms for narrow types, the private copies branches test, and `undef`/`poison` (⊥).

#[allow(clippy::wildcard_imports)]
use super::*;

impl FnLower<'_, '_> {
    /// The name that holds an unknown value (⊤) everywhere in the function.
    pub(super) fn unknown(&mut self) -> Operand {
        let id = match self.unknown {
            Some(id) => id,
            None => {
                let id = self.fresh("unknown".to_owned());
                let callee = self.pseudo(UNKNOWN);
                self.prologue.push(Stmt::Assign {
                    dest: id,
                    rhs: Rhs::Call(callee, Box::new([])),
                });
                self.unknown = Some(id);
                id
            }
        };
        Operand::Name(id)
    }

    /// The unknown value of a `k` result: for `iN` with `N < 64`, the shared unknown wrapped to
    /// `N` bits (one name per width, in the prologue), so that domains know the bounds of its
    /// type, as LLVM's SCCP does; otherwise the shared unknown itself.
    pub(super) fn unknown_of(&mut self, k: Kind) -> Operand {
        let bits = match k {
            Kind::Int(bits) if bits < 64 => bits,
            _ => return self.unknown(),
        };
        if let Some(&(_, id)) = self.narrow_unknowns.iter().find(|(b, _)| *b == bits) {
            return Operand::Name(id);
        }
        let u = self.unknown();
        let id = self.fresh(format!("unknown.i{bits}"));
        let rhs = if bits == 1 {
            Rhs::Binary(Op::And, u, Operand::Int(1))
        } else {
            Rhs::Binary(Op::Trunc, u, Operand::Int(i64::from(bits)))
        };
        self.prologue.push(Stmt::Assign { dest: id, rhs });
        self.narrow_unknowns.push((bits, id));
        Operand::Name(id)
    }

    /// Whether `n` is one of the names that stand for every unknown value (of a width).
    pub(super) fn is_unknown_name(&self, n: NameId) -> bool {
        Some(n) == self.unknown || self.narrow_unknowns.iter().any(|&(_, id)| id == n)
    }

    /// `o`, or a fresh copy of it when it is the shared unknown name. Branches refine the names
    /// they test on each edge; refining the name that stands for every unknown value at once
    /// would be unsound, so a terminator tests a private copy instead.
    pub(super) fn private(&mut self, o: Operand) -> Operand {
        match o {
            Operand::Name(n) if self.is_unknown_name(n) => {
                self.temps += 1;
                let t = self.fresh(format!("unknown#{}", self.temps));
                self.emit(t, Rhs::Use(o));
                Operand::Name(t)
            }
            _ => o,
        }
    }

    /// The name that stands for `undef` and `poison`: never assigned, so ⊥.
    pub(super) fn undef(&mut self) -> Operand {
        let id = match self.undef {
            Some(id) => id,
            None => {
                let id = self.fresh("undef".to_owned());
                self.undef = Some(id);
                id
            }
        };
        Operand::Name(id)
    }
}
