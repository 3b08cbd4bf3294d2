//! Relational numeric domains: constraints between variables, not only on each one.
//! [`Octagon`] keeps `±x ± y ≤ c`.

mod octagon;

pub use octagon::Octagon;
