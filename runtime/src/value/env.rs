//! The dense environment lattice: one abstract value per program name, or unreachable.

use crate::lattice::{Changed, Lattice, Thresholds};
use crate::program::NameId;
use std::fmt;

/// A dense map from every name of a function to an abstract value, or the unreachable state.
///
/// Bottom is [`Env::Unreachable`]; a reachable environment whose values are all bottom means
/// "reachable, but no name has a value yet". Environments of one function all have the same
/// width; where widths differ, missing entries count as bottom.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Env<D> {
    /// No execution reaches this point.
    Unreachable,
    /// Some execution may reach this point; the value of each name, indexed by [`NameId`].
    Reachable(Vec<D>),
}

impl<D: Lattice> Env<D> {
    /// A reachable environment of `width` names, all bottom.
    pub fn reachable(width: usize) -> Env<D> {
        Env::Reachable(vec![D::bottom(); width])
    }

    /// Whether some execution may reach this point.
    pub fn is_reachable(&self) -> bool {
        matches!(self, Env::Reachable(_))
    }

    /// The value of `name`: bottom when unreachable or out of range.
    pub fn get(&self, name: NameId) -> D {
        match self {
            Env::Reachable(values) => values.get(name.index()).cloned().unwrap_or_else(D::bottom),
            Env::Unreachable => D::bottom(),
        }
    }

    /// The value of `name` by reference, `None` when unreachable or out of range.
    pub fn get_ref(&self, name: NameId) -> Option<&D> {
        match self {
            Env::Reachable(values) => values.get(name.index()),
            Env::Unreachable => None,
        }
    }

    /// Sets `name` to `value`; does nothing on an unreachable environment.
    pub fn set(&mut self, name: NameId, value: D) {
        if let Env::Reachable(values) = self {
            if name.index() >= values.len() {
                values.resize(name.index() + 1, D::bottom());
            }
            values[name.index()] = value;
        }
    }

    /// The values, empty when unreachable.
    pub fn values(&self) -> &[D] {
        match self {
            Env::Reachable(values) => values,
            Env::Unreachable => &[],
        }
    }

    /// The state as text, each name of `names` (by [`NameId`]) with its value as `show` writes
    /// it: `x = 1, y = ⊤`, or `unreachable`. (Names past the environment's width are bottom.)
    pub fn text_with(&self, names: &[String], show: impl Fn(&D) -> String) -> String {
        if !self.is_reachable() {
            return "unreachable".to_owned();
        }
        let bottom = D::bottom();
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let value = self.values().get(i).unwrap_or(&bottom);
                format!("{name} = {}", show(value))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// [`Env::text_with`], each value as it displays.
    pub fn text(&self, names: &[String]) -> String
    where
        D: fmt::Display,
    {
        self.text_with(names, ToString::to_string)
    }

    fn zip_with(&self, other: &Env<D>, f: impl Fn(&D, &D) -> D) -> Vec<D> {
        let (a, b) = (self.values(), other.values());
        let bottom = D::bottom();
        (0..a.len().max(b.len()))
            .map(|i| f(a.get(i).unwrap_or(&bottom), b.get(i).unwrap_or(&bottom)))
            .collect()
    }
}

impl<D: Lattice> Lattice for Env<D> {
    const FINITE_HEIGHT: bool = D::FINITE_HEIGHT;
    const EXACT: bool = D::EXACT;

    fn bottom() -> Env<D> {
        Env::Unreachable
    }

    fn is_bottom(&self) -> bool {
        matches!(self, Env::Unreachable)
    }

    fn leq(&self, other: &Env<D>) -> bool {
        match (self, other) {
            (Env::Unreachable, _) => true,
            (Env::Reachable(_), Env::Unreachable) => false,
            (Env::Reachable(a), Env::Reachable(b)) => {
                let bottom = D::bottom();
                a.iter()
                    .enumerate()
                    .all(|(i, x)| x.leq(b.get(i).unwrap_or(&bottom)))
            }
        }
    }

    fn join(&self, other: &Env<D>) -> Env<D> {
        match (self, other) {
            (Env::Unreachable, x) | (x, Env::Unreachable) => x.clone(),
            _ => Env::Reachable(self.zip_with(other, D::join)),
        }
    }

    fn meet(&self, other: &Env<D>) -> Env<D> {
        match (self, other) {
            (Env::Unreachable, _) | (_, Env::Unreachable) => Env::Unreachable,
            _ => Env::Reachable(self.zip_with(other, D::meet)),
        }
    }

    fn join_with(&mut self, other: &Env<D>) -> Changed {
        match (&mut *self, other) {
            (_, Env::Unreachable) => Changed::No,
            (Env::Unreachable, _) => {
                *self = other.clone();
                Changed::Yes
            }
            (Env::Reachable(a), Env::Reachable(b)) => {
                if a.len() < b.len() {
                    a.resize(b.len(), D::bottom());
                }
                let mut changed = Changed::No;
                for (x, y) in a.iter_mut().zip(b) {
                    changed |= x.join_with(y);
                }
                changed
            }
        }
    }

    fn widen(&self, newer: &Env<D>) -> Env<D> {
        match (self, newer) {
            (Env::Unreachable, x) | (x, Env::Unreachable) => x.clone(),
            _ => Env::Reachable(self.zip_with(newer, D::widen)),
        }
    }

    fn widen_with_thresholds(&self, newer: &Env<D>, thresholds: &Thresholds) -> Env<D> {
        match (self, newer) {
            (Env::Unreachable, x) | (x, Env::Unreachable) => x.clone(),
            _ => {
                Env::Reachable(self.zip_with(newer, |a, b| a.widen_with_thresholds(b, thresholds)))
            }
        }
    }

    fn narrow(&self, newer: &Env<D>) -> Env<D> {
        match (self, newer) {
            (_, Env::Unreachable) => Env::Unreachable,
            (Env::Unreachable, _) => Env::Unreachable,
            _ => Env::Reachable(self.zip_with(newer, D::narrow)),
        }
    }
}

impl<D: fmt::Debug> fmt::Debug for Env<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Env::Unreachable => f.write_str("Unreachable"),
            Env::Reachable(values) => f.debug_list().entries(values).finish(),
        }
    }
}
