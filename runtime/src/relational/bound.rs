//! Bounds of difference-bound matrices — `i128`s with `+∞`, so that sums of two bounds of
//! 64-bit values never overflow — and what zones and octagons do alike on their matrices.

/// `+∞`: no bound.
pub(super) const INF: i128 = i128::MAX;
/// Bounds from here on are kept as `+∞` (they say nothing about 64-bit values, and sums of two
/// bounds below it fit an `i128`).
const WEAK: i128 = 1 << 100;
/// Bounds below this are kept here (no two 64-bit values satisfy them).
const FLOOR: i128 = -(1 << 100);

/// `a + b` on bounds.
pub(super) fn add(a: i128, b: i128) -> i128 {
    if a == INF || b == INF {
        return INF;
    }
    normal(a + b)
}

/// A bound as kept: `+∞` from `WEAK` on, `FLOOR` below it.
pub(super) fn normal(c: i128) -> i128 {
    if c >= WEAK {
        INF
    } else if c < FLOOR {
        FLOOR
    } else {
        c
    }
}

/// The bound a widening moves a growing bound `c` to: the next threshold at or above it
/// (`+∞` when there is none).
pub(super) fn threshold_above(c: i128, thresholds: &crate::lattice::Thresholds) -> i128 {
    i64::try_from(c)
        .ok()
        .and_then(|v| thresholds.at_least(v))
        .map_or(INF, i128::from)
}

/// The bound a widening moves a growing bound `c` of `-x` to: `-t` for the next threshold `t`
/// at or below `-c` (`+∞` when there is none).
pub(super) fn threshold_below(c: i128, thresholds: &crate::lattice::Thresholds) -> i128 {
    i64::try_from(-c)
        .ok()
        .and_then(|v| thresholds.at_most(v))
        .map_or(INF, |t| -i128::from(t))
}

/// Runs `f` on `len` bounds of scratch space (zeroes), on the stack when they are few.
pub(super) fn with_scratch<B: Copy + Default, T>(len: usize, f: impl FnOnce(&mut [B]) -> T) -> T {
    if len <= 32 {
        f(&mut [B::default(); 32][..len])
    } else if len <= 256 {
        f(&mut [B::default(); 256][..len])
    } else {
        f(&mut vec![B::default(); len])
    }
}

/// Whether every entry of `a` is at most the same entry of `b` (two closed matrices: the
/// states of `a` are among those of `b`).
pub(super) fn below(a: &[i128], b: &[i128]) -> bool {
    a.iter().zip(b).all(|(p, q)| p <= q)
}

/// `f` of each pair of entries.
pub(super) fn entrywise(a: &[i128], b: &[i128], f: impl Fn(i128, i128) -> i128) -> Vec<i128> {
    a.iter().zip(b).map(|(&p, &q)| f(p, q)).collect()
}
