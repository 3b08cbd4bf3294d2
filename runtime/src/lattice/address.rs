//! Addresses of symbols: which global or function a pointer points into, and where.
//!
//! [`Address`] is the flat lattice of `(symbol, byte offset)` pairs. An integer analysis that
//! keeps one next to its numeric components knows `@g + 8` without knowing the number the linker
//! gives `@g`: enough to decide `p == q` for two pointers into distinct globals, `p - q` for two
//! pointers into the same one, and which function a function pointer holds.

use std::fmt;

use super::{Lattice, Top};
use crate::program::{Op, SymbolId, symbol_address};
use crate::value::{Concrete, ValueDomain};

/// No address yet, the address of one symbol plus a constant offset, or any value.
///
/// # Laws
///
/// A flat lattice: `At` values are pairwise incomparable, `Bottom` is below and `Top` above
/// them all; the height is two, so [`Lattice::FINITE_HEIGHT`] is `true`. `At(s, o)` stands for
/// the one integer `symbol_address(s) + o` of the concrete layout; `Top` for every integer.
/// [`Concrete::as_constant`] is always `None`: which number an address is belongs to the
/// layout, not to the program, so no analysis may fold it into an integer constant.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Address, Lattice, Top};
/// use absinthe::program::SymbolId;
///
/// let g = Address::at(SymbolId(0), 8);
/// let h = Address::at(SymbolId(1), 0);
/// assert_eq!(g.join(&g), g);
/// assert_eq!(g.join(&h), Address::Top);
/// assert_eq!(g.meet(&h), Address::Bottom);
/// assert!(Address::bottom().leq(&g) && g.leq(&Address::top()) && !g.leq(&h));
/// // The height is finite, so the widening is the join.
/// assert_eq!(g.widen(&h), Address::Top);
/// assert_eq!(format!("{g} {}", h.moved(-4)), "@0+8 @1-4");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Address {
    /// No value.
    Bottom,
    /// The address of the symbol plus a byte offset (wrapping).
    At(SymbolId, i64),
    /// Any value: an integer, or an address not known.
    Top,
}

impl Address {
    /// The address of `symbol` plus `offset`: `Address::At(symbol, offset)`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Address;
    /// use absinthe::program::SymbolId;
    ///
    /// let a = Address::at(SymbolId(2), 16);
    /// assert_eq!(a, Address::At(SymbolId(2), 16));
    /// assert_eq!(a.to_string(), "@2+16");
    /// ```
    pub fn at(symbol: SymbolId, offset: i64) -> Address {
        Address::At(symbol, offset)
    }

    /// This address moved by `k` bytes (wrapping); `Top` and `Bottom` stay.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Address;
    /// use absinthe::program::SymbolId;
    ///
    /// let g = SymbolId(0);
    /// assert_eq!(Address::at(g, 8).moved(-8), Address::at(g, 0));
    /// assert_eq!(Address::at(g, i64::MAX).moved(1), Address::at(g, i64::MIN));
    /// assert_eq!(Address::Top.moved(4), Address::Top);
    /// assert_eq!(Address::Bottom.moved(4), Address::Bottom);
    /// ```
    pub fn moved(self, k: i64) -> Address {
        match self {
            Address::At(s, o) => Address::At(s, o.wrapping_add(k)),
            other => other,
        }
    }

    /// Whether `v` is the address this value stands for in the concrete layout
    /// ([`symbol_address`] plus the offset, wrapping); every `v` for `Top`, none for `Bottom`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Address;
    /// use absinthe::program::{SymbolId, symbol_address};
    ///
    /// let g = SymbolId(3);
    /// let a = Address::at(g, 8);
    /// assert!(a.contains(symbol_address(g) + 8));
    /// assert!(!a.contains(symbol_address(g)) && !a.contains(8));
    /// assert!(Address::Top.contains(0) && !Address::Bottom.contains(0));
    /// ```
    pub fn contains(&self, v: i64) -> bool {
        match self {
            Address::Bottom => false,
            Address::At(s, o) => symbol_address(*s).wrapping_add(*o) == v,
            Address::Top => true,
        }
    }

    /// The symbol and offset, when known: `Some` for `At`, `None` for `Bottom` and `Top`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Address;
    /// use absinthe::program::SymbolId;
    ///
    /// assert_eq!(Address::at(SymbolId(1), -4).known(), Some((SymbolId(1), -4)));
    /// assert_eq!(Address::Top.known(), None);
    /// ```
    pub fn known(self) -> Option<(SymbolId, i64)> {
        match self {
            Address::At(s, o) => Some((s, o)),
            Address::Bottom | Address::Top => None,
        }
    }
}

impl Lattice for Address {
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> Self {
        Address::Bottom
    }

    fn is_bottom(&self) -> bool {
        *self == Address::Bottom
    }

    fn leq(&self, other: &Self) -> bool {
        match (self, other) {
            (Address::Bottom, _) | (_, Address::Top) => true,
            (a, b) => a == b,
        }
    }

    fn join(&self, other: &Self) -> Self {
        match (self, other) {
            (Address::Bottom, x) | (x, Address::Bottom) => *x,
            (a, b) if a == b => *a,
            _ => Address::Top,
        }
    }

    fn meet(&self, other: &Self) -> Self {
        match (self, other) {
            (Address::Top, x) | (x, Address::Top) => *x,
            (a, b) if a == b => *a,
            _ => Address::Bottom,
        }
    }
}

impl Top for Address {
    fn top() -> Self {
        Address::Top
    }

    fn is_top(&self) -> bool {
        *self == Address::Top
    }
}

impl Concrete for Address {
    fn contains(&self, v: i64) -> bool {
        Address::contains(self, v)
    }

    fn as_address(&self) -> Option<(SymbolId, i64)> {
        self.known()
    }
}

/// On its own an address knows only where `addr @g` points: literals and every operation's
/// result are `Top` (an offset added needs the other operand's constant, which a product's
/// rules read from a numeric component).
impl ValueDomain for Address {
    fn constant(_: i64) -> Self {
        Address::Top
    }

    fn address(symbol: SymbolId) -> Self {
        Address::At(symbol, 0)
    }

    fn binary(_: Op, a: &Self, b: &Self) -> Self {
        if a.is_bottom() || b.is_bottom() {
            Address::Bottom
        } else {
            Address::Top
        }
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Address::Bottom => f.write_str("⊥"),
            Address::At(s, 0) => write!(f, "@{}", s.0),
            Address::At(s, o) if *o < 0 => write!(f, "@{}-{}", s.0, o.unsigned_abs()),
            Address::At(s, o) => write!(f, "@{}+{o}", s.0),
            Address::Top => f.write_str("⊤"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_follow_the_layout() {
        let g = SymbolId(3);
        let a = Address::at(g, 8);
        assert!(a.contains(symbol_address(g) + 8));
        assert!(!a.contains(symbol_address(g)));
        assert!(!a.contains(0));
        assert_eq!(a.as_constant(), None);
        assert_eq!(a.as_address(), Some((g, 8)));
        assert_eq!(a.moved(-8), Address::at(g, 0));
        assert_eq!(Address::Top.moved(4), Address::Top);
    }

    #[test]
    fn flat_order() {
        let (a, b) = (Address::at(SymbolId(0), 0), Address::at(SymbolId(1), 0));
        assert_eq!(a.join(&b), Address::Top);
        assert_eq!(a.meet(&b), Address::Bottom);
        assert_eq!(a.join(&a), a);
        assert!(a.leq(&Address::Top) && Address::Bottom.leq(&a) && !a.leq(&b));
        assert_eq!(
            <Address as ValueDomain>::binary(Op::Add, &a, &Address::Top),
            Address::Top
        );
        assert_eq!(format!("{a} {}", Address::at(SymbolId(1), -4)), "@0 @1-4");
    }
}
