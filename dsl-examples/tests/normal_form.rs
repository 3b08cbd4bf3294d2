//! A struct lattice with a normal form declared with attributes, `#[lattice(normalize = …)]`:
//! a residue class mod 4 written with any of its members. With the normal form it passes the
//! lattice laws; the same struct without it fails antisymmetry (two representations of one
//! class are each below the other and unequal), which is what the option is for.

use absinthe::lattice;
use absinthe::laws::Laws;

/// The least non-negative residue mod 4.
fn residue(v: i64) -> i64 {
    v.rem_euclid(4)
}

macro_rules! residue_class {
    ($name:ident, $($normalize:tt)*) => {
        /// A residue class mod 4 by any of its members: `state` below 0 is bottom, 0 the class
        /// of `r`, above 0 top.
        #[lattice(
            $($normalize)*
            empty_if = $name::is_empty,
            bottom = $name::nothing,
            top = $name::anything,
            join = $name::either,
            meet = $name::both,
            leq = $name::below,
            widen = $name::either
        )]
        #[derive(Clone, Copy)]
        pub struct $name {
            #[lattice(value)]
            state: i64,
            #[lattice(value)]
            r: i64,
        }

        impl $name {
            fn is_empty(&self) -> bool {
                self.state < 0
            }
            fn nothing() -> $name {
                $name { state: -1, r: 0 }
            }
            fn anything() -> $name {
                $name { state: 1, r: 0 }
            }
            fn same(&self, other: &$name) -> bool {
                self.state == 0 && other.state == 0 && residue(self.r) == residue(other.r)
            }
            fn below(&self, other: &$name) -> bool {
                self.state < 0 || other.state > 0 || self.same(other)
            }
            fn either(&self, other: &$name) -> $name {
                match (self.state < 0, other.state < 0) {
                    (true, _) => *other,
                    (_, true) => *self,
                    _ if self.same(other) => *self,
                    _ => $name::anything(),
                }
            }
            fn both(&self, other: &$name) -> $name {
                match (self.state > 0, other.state > 0) {
                    (true, _) => *other,
                    (_, true) => *self,
                    _ if self.same(other) => *self,
                    _ => $name::nothing(),
                }
            }
            /// One representation per value: the least residue, one bottom, one top.
            #[allow(dead_code)]
            fn normal(&self) -> $name {
                match self.state {
                    s if s < 0 => $name::nothing(),
                    0 => $name { state: 0, r: residue(self.r) },
                    _ => $name::anything(),
                }
            }
        }
    };
}

residue_class!(Normalized, normalize = Normalized::normal,);
residue_class!(Raw,);

#[test]
fn a_struct_with_a_normal_form_obeys_the_laws() {
    Normalized::check_laws();
    // Equality and printing go through the normal form.
    assert!(Normalized { state: 0, r: 1 } == Normalized { state: 0, r: 5 });
    assert!(Normalized { state: 2, r: 7 } == Normalized { state: 1, r: 0 });
    assert_eq!(
        Normalized { state: 0, r: -3 }.to_string(),
        "{state: 0, r: 1}"
    );
}

#[test]
fn without_it_the_same_struct_fails_antisymmetry() {
    let failure = std::panic::catch_unwind(Raw::check_laws)
        .expect_err("two representations of one class pass the laws");
    let message = failure
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("law `order` violated: `a ⊑ b && b ⊑ a` disagrees with `a == b`"),
        "{message}"
    );
}
