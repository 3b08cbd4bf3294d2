//! Relational numeric domains: constraints between variables, not only on each one.
//! [`Zone`] keeps `x - y ≤ c`, [`Octagon`] also `x + y ≤ c` and `-x - y ≤ c`; both keep each
//! variable's bounds and meet every state with the box of 64-bit values.

mod bound;
mod octagon;
mod zone;

pub use octagon::Octagon;
pub use zone::Zone;
