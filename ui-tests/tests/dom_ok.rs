//! Every `.dom` file the compiler accepts in its corpus compiles as Rust without a warning:
//! `build.rs` generates them, this file includes them under `#![deny(warnings)]`.

#![deny(warnings)]

include!(concat!(env!("OUT_DIR"), "/dom_ok.rs"));

/// The corpus's `extern fn` example, implemented in ordinary Rust.
// ANCHOR: externs
impl sema_extern_fn::extern_fn::Externs for sema_extern_fn::extern_fn::Host {
    fn popcount(x: i64) -> i64 {
        i64::from(x.count_ones())
    }
}
// ANCHOR_END: externs

#[test]
fn extern_functions_are_called_through_the_host() {
    use absinthe::value::ValueDomain;
    let p = <sema_extern_fn::extern_fn::P as ValueDomain>::constant(7);
    assert_eq!(p.i, absinthe::lattice::Interval::constant(3));
}

#[test]
fn written_out_operations_are_used() {
    use absinthe::lattice::{Interval, Lattice};
    use codegen_struct_overrides::struct_overrides::Range;
    let a = Range {
        lo: Interval::constant(1),
        hi: Interval::constant(5),
    };
    let b = Range {
        lo: Interval::constant(3),
        hi: Interval::empty(),
    };
    assert!(
        b.is_bottom(),
        "`empty` is written out: an empty bound makes the range empty"
    );
    assert_eq!(a.join(&b), a);
}

#[test]
fn a_written_out_widening_stops_at_thresholds() {
    use absinthe::lattice::{Lattice, Thresholds};
    use codegen_widen_thresholds::widen_thresholds::{BoundedAnalysis, Bounds};
    let a = Bounds { lo: 0, hi: 10 };
    let b = Bounds { lo: -3, hi: 11 };
    let t = Thresholds::new([-1, 100]);
    assert_eq!(
        a.widen_with_thresholds(&b, &t),
        Bounds {
            lo: i64::MIN,
            hi: 100
        }
    );
    assert_eq!(
        a.widen(&b),
        Bounds {
            lo: i64::MIN,
            hi: i64::MAX
        }
    );
    use absinthe::value::DeclaredAnalysis;
    assert_eq!(*BoundedAnalysis::spec().thresholds, [-1, 0, 255, 0xFFFF]);
}
