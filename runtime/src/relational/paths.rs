//! The cubic part of the closures from scratch — shortest paths through every node of a zone's
//! matrix, and an octagon's tight closure — run in the narrowest integers that give exactly the
//! `i128` result.
//!
//! A matrix's entries are `i128`s because the 64-bit box puts entries near `2⁶³` and `2⁶⁴` in
//! every matrix (the `trivial` bounds of [`super::zone`] and [`super::octagon`]), and sums of
//! two must not overflow. But in most matrices every entry is such a box bound, or half one,
//! plus or minus a little: `a·2⁶² + r` with `a` in `0..=4` and `r` small. The closures only add,
//! halve and compare entries, and the map `a·2⁶² + r ↦ a·2ᵘ + r` keeps all three as long as `r`
//! stays well below `2ᵘ` ([`most_r`]): the closure then runs on `i32`s (`u = 27`) or `i64`s
//! (`u = 59`), which cost one machine word instead of two and, for `i32`, vectorize. The result
//! is mapped back, bit for bit the `i128` closure's; a matrix with an entry out of reach (a bound
//! such as `2⁶¹`) is closed on its `i128`s.
//!
//! The octagon's closure also leaves out the work the box would make it do: an entry no tighter
//! than the unary bounds of its ends give (as every entry of a new variable is) is `+∞` to the
//! shortest paths, which skip the rows that cannot reach a step's variable, and the
//! strengthening puts it back.

use super::bound::with_scratch;
use std::ops::Add;

/// An integer the shortest paths run on.
trait Weight: Copy + Ord + Default + Add<Output = Self> {
    /// Values from here on are `+∞` ([`Narrow::INFINITE`]; none in an `i128` matrix).
    const FAR: Self;
}

impl Weight for i32 {
    const FAR: i32 = 5 << 27;
}

impl Weight for i64 {
    const FAR: i64 = 5 << 59;
}

impl Weight for i128 {
    const FAR: i128 = i128::MAX;
}

/// An integer narrower than `i128` that bounds `a·2⁶² + r` are narrowed to, as `a·2ᵘ + r`.
trait Narrow: Weight {
    /// The `u` of `2⁶² ↦ 2ᵘ`: every value a closure computes is below `13·2ᵘ` in size
    /// ([`most_r`]), which fits.
    const UNIT: u32;
    /// `+∞`, `6·2ᵘ`: what `a = 6`, past every bound, stands for. A path through it weighs at
    /// least `6·2ᵘ` give or take its `r`, at least [`Weight::FAR`], `5·2ᵘ`, which no bound
    /// reaches.
    const INFINITE: Self;
    /// `a·2ᵘ + r`, wrapped to the width (exact for the `a` and `r` [`narrow`] admits).
    fn from_parts(a: i64, r: i64) -> Self;
    /// The value, as an `i64`.
    fn to_i64(self) -> i64;
    /// `⌊self / 2⌋`.
    fn half(self) -> Self;
}

impl Narrow for i32 {
    const UNIT: u32 = 27;
    const INFINITE: i32 = 6 << 27;
    fn from_parts(a: i64, r: i64) -> i32 {
        (a << Self::UNIT).wrapping_add(r) as i32
    }
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn half(self) -> i32 {
        self >> 1
    }
}

impl Narrow for i64 {
    const UNIT: u32 = 59;
    const INFINITE: i64 = 6 << 59;
    fn from_parts(a: i64, r: i64) -> i64 {
        (a << Self::UNIT).wrapping_add(r)
    }
    fn to_i64(self) -> i64 {
        self
    }
    fn half(self) -> i64 {
        self >> 1
    }
}

/// The greatest `|r|` with which the closures of a `w × w` matrix whose entries are all
/// `a·2⁶² + r` with `a` in `0..=4` (or `+∞`, [`Narrow::INFINITE`]) run exactly on `T`.
///
/// Every entry the shortest paths hold is the weight of a path of at most `w` edges (before a
/// negative cycle is found, none of the paths compared goes around one), or a matrix entry it
/// was never below: `a ≥ 0`, as every edge has, `a ≤ 4`, as the entry it started from has (a
/// path with a greater `a` weighs more than `2⁶⁴ + 2⁶¹`), or `a = 6` for `+∞`, and
/// `|r| ≤ w·most_r`. A sum of two has `a ≤ 12` and `|r| ≤ 2w·most_r`; the octagon's halves of
/// unary bounds, which it takes only when their `a` is even, are `(a/2)·2ᵘ + ⌊r/2⌋`, and sums of
/// two have `|r| ≤ w·most_r + 1`. Two values compared then differ in `r` by less than `2ᵘ`, the
/// least difference of `a·2ᵘ` that tells them apart otherwise, so `a·2ᵘ + r` is ordered as
/// `a·2⁶² + r` is, and an entry read back, with `|r|` below `2ᵘ⁻¹`, has the nearest multiple as
/// its `a`. No value reaches `13·2ᵘ` in size, which fits an `i32` for `u = 27` and an `i64` for
/// `u = 59`.
fn most_r<T: Narrow>(w: usize) -> i64 {
    (1i64 << T::UNIT) / (4 * w.max(1) as i64)
}

/// `v` narrowed, and whether it is `a·2⁶² + r` with `a` in `0..=4` and `|r| ≤ limit` (below
/// `2⁶⁰`), which the narrow value then is exactly.
fn narrow<T: Narrow>(v: i128, limit: i64) -> (T, bool) {
    // `a·2⁶² + (r + limit)`, with `r + limit` in `0..=2·limit` when `v` fits (and a huge `a`
    // when `v` is below `-limit`).
    let y = v.wrapping_add(i128::from(limit)) as u128;
    let a = y >> 62;
    let shifted = (y as u64 & ((1 << 62) - 1)) as i64;
    let fits = a <= 4 && shifted <= 2 * limit;
    (T::from_parts(a as i64, shifted - limit), fits)
}

/// The `a` of a narrow value `a·2ᵘ + r` with `|r| < 2ᵘ⁻¹`.
fn units<T: Narrow>(e: T) -> i64 {
    (e.to_i64() + (1 << (T::UNIT - 1))) >> T::UNIT
}

/// The bound whose narrow form is `e = a·2ᵘ + r`, `|r| < 2ᵘ⁻¹`.
fn widen<T: Narrow>(e: T) -> i128 {
    let a = units(e);
    (i128::from(a) << 62) + i128::from(e.to_i64() - (a << T::UNIT))
}

/// Shortest paths through every node (Floyd–Warshall) of the `w × w` row-major matrix `m`, whose
/// entries are finite (a matrix's entries never exceed what 64-bit values allow); false, with
/// `m` left half done or as it was, when a cycle is negative.
pub(super) fn shortest_paths(m: &mut [i128], w: usize) -> bool {
    narrow_paths::<i32>(m, w)
        .or_else(|| narrow_paths::<i64>(m, w))
        .unwrap_or_else(|| floyd_warshall(m, w))
}

/// [`shortest_paths`] on `T`, or `None` when `m` does not narrow to it.
///
/// In a zone's matrix node 0 is zero, and an entry `(i, j)` at least `m[i][0] + m[0][j]` (as
/// every entry of a new variable is) is no shorter than the path through zero: leaving it out
/// (`+∞`) changes no shortest path. Zero is then the last step, which puts every such entry
/// back, and the steps before it skip the rows that have no path yet to their node.
fn narrow_paths<T: Narrow>(m: &mut [i128], w: usize) -> Option<bool> {
    let limit = most_r::<T>(w);
    let mut fits = true;
    let mut narrowed = vec![T::default(); w * w];
    // Row 0: the entries from zero.
    let from_zero = &m[..w];
    for (i, (row, wide)) in narrowed
        .chunks_exact_mut(w)
        .zip(m.chunks_exact(w))
        .enumerate()
    {
        let to_zero = wide[0];
        for (j, ((e, &v), &from)) in row.iter_mut().zip(wide).zip(from_zero).enumerate() {
            let (narrow, ok) = narrow(v, limit);
            fits &= ok;
            *e = if v >= to_zero + from && i != j && i != 0 && j != 0 {
                T::INFINITE
            } else {
                narrow
            };
        }
    }
    if !fits {
        return None;
    }
    if !floyd_warshall(&mut narrowed, w) {
        return Some(false);
    }
    for (v, &e) in m.iter_mut().zip(&narrowed) {
        *v = widen(e);
    }
    Some(true)
}

/// What [`tight_coherent_closure`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Closure {
    /// The matrix is tightly closed.
    Closed,
    /// The matrix has no integer point (and was left as it was, or half done).
    Empty,
    /// The matrix is closed for paths, with some entries above what 64-bit values allow; the
    /// caller rounds and strengthens it on its `i128`s (a variable's bound closed to near
    /// `±2⁶¹` or `±3·2⁶¹`, whose doubled entry the narrow widths cannot halve exactly).
    Paths,
    /// An entry is out of reach of the narrow widths: nothing was done, the caller closes the
    /// matrix on its `i128`s ([`coherent_shortest_paths`], then the integer steps).
    Wide,
}

/// The tight closure of a coherent `w × w` octagon matrix (`m[i][j] = m[j̄][ī]`, both bounds of
/// `v_j - v_i`, with `j̄ = j ^ 1`) on `i32`s or `i64`s: shortest paths, then unary bounds
/// rounded down to even and every entry strengthened through the unary bounds of its ends.
pub(super) fn tight_coherent_closure(m: &mut [i128], w: usize) -> Closure {
    if w == 0 {
        return Closure::Closed;
    }
    narrow_tight_closure::<i32>(m, w)
        .or_else(|| narrow_tight_closure::<i64>(m, w))
        .unwrap_or(Closure::Wide)
}

/// [`tight_coherent_closure`] on `T`, or `None` when `m` does not narrow to it.
///
/// Only the half [`coherent_floyd_warshall`] computes is narrowed, and each entry read back is
/// written to its twin too. An entry `(i, j)` at least `⌊m[i][ī]/2⌋ + ⌊m[j̄][j]/2⌋` (not unary,
/// `j ≠ ī`) says nothing the unary bounds of its ends do not say of integers, so leaving it out
/// (`+∞`) keeps the integer points and with them the tight closure, which is their canonical
/// form: the strengthening gives it back. The shortest paths then skip every row that has no
/// path yet to a step's variable.
fn narrow_tight_closure<T: Narrow>(m: &mut [i128], w: usize) -> Option<Closure> {
    let limit = most_r::<T>(w);
    let mut fits = true;
    let mut narrowed = vec![T::default(); w * w];
    let paths = with_scratch(w, |into: &mut [i128]| {
        // `into[j]`: `⌊m[j̄][j]/2⌋`, half the unary bound into node `j`.
        for (j, h) in into.iter_mut().enumerate() {
            *h = m[bar(j) * w + j].div_euclid(2);
        }
        for i in 0..w {
            let half = (i | 1) + 1;
            let out = into[bar(i)];
            let row = narrowed[i * w..][..half]
                .iter_mut()
                .zip(&m[i * w..][..half]);
            for (j, ((e, &v), &h)) in row.zip(&*into).enumerate() {
                let (narrow, ok) = narrow(v, limit);
                fits &= ok;
                *e = if v >= out + h && j != i && j != bar(i) {
                    T::INFINITE
                } else {
                    narrow
                };
            }
        }
        fits && coherent_floyd_warshall(&mut narrowed, w)
    });
    if !fits {
        return None;
    }
    if !paths {
        return Some(Closure::Empty);
    }
    let closed = match tighten_and_strengthen(&mut narrowed, w) {
        Some(false) => return Some(Closure::Empty),
        Some(true) => Closure::Closed,
        None => Closure::Paths,
    };
    for i in 0..w {
        for j in 0..=i | 1 {
            let v = widen(narrowed[i * w + j]);
            m[i * w + j] = v;
            m[bar(j) * w + bar(i)] = v;
        }
    }
    Some(closed)
}

/// The integer steps of the octagon's tight closure on the half of a narrowed matrix closed for
/// paths: entry `(i, j)` becomes the least of itself and `⌊m[i][ī]/2⌋ + ⌊m[j̄][j]/2⌋`, which
/// rounds unary bounds down to even (`j = ī`) and strengthens the others through them (and puts
/// back the entries left out as `+∞`). False when some variable's two unary bounds, so rounded,
/// contradict each other; `None`, with nothing done, when a unary bound's `a` is odd (half of it
/// would be a quarter of `2ᵘ`, which is not narrowed exactly).
///
/// A contradiction is the only way the tightening empties a narrowed matrix: its entries are at
/// least `-|r|`, while an entry no two 64-bit values meet is below `-2⁶⁴ + 2`.
fn tighten_and_strengthen<T: Narrow>(m: &mut [T], w: usize) -> Option<bool> {
    let zero = T::default();
    with_scratch(w, |into: &mut [T]| {
        // `into[j]`: half the unary bound into node `j`, `⌊m[j̄][j]/2⌋` (in the half computed).
        for (j, h) in into.iter_mut().enumerate() {
            let unary = m[bar(j) * w + j];
            if units(unary) % 2 != 0 {
                return None;
            }
            *h = unary.half();
        }
        if (0..w).step_by(2).any(|i| into[i] + into[i + 1] < zero) {
            return Some(false);
        }
        for (i, row) in m.chunks_exact_mut(w).enumerate() {
            let out = into[bar(i)];
            for (e, &h) in row[..=i | 1].iter_mut().zip(&*into) {
                *e = (*e).min(out + h);
            }
        }
        Some(true)
    })
}

/// Shortest paths through every node of a coherent `w × w` matrix on its `i128`s; false, with
/// `m` left half done, when a cycle is negative.
pub(super) fn coherent_shortest_paths(m: &mut [i128], w: usize) -> bool {
    if !coherent_floyd_warshall(m, w) {
        return false;
    }
    for i in 0..w {
        for j in (i | 1) + 1..w {
            m[i * w + j] = m[bar(j) * w + bar(i)];
        }
    }
    true
}

/// [`shortest_paths`] at one width, node 0 last (with `+∞` entries when narrow, which are
/// gone after it: see [`narrow_paths`]).
///
/// A negative cycle is found at the step of its node taken last, whose diagonal entry the
/// earlier steps have brought below zero; until then no entry is below the shortest path
/// without a repeated node, so the sums need no check against overflow (nor `+∞`). Row `k` is
/// left out of step `k`, which cannot change it when `m[k][k]` is not negative, and so is every
/// row with no path yet to `k`.
fn floyd_warshall<T: Weight>(m: &mut [T], w: usize) -> bool {
    for k in (1..w).chain(0..w.min(1)) {
        if m[k * w + k] < T::default() {
            return false;
        }
        let (before, rest) = m.split_at_mut(k * w);
        let (row_k, after) = rest.split_at_mut(w);
        for row_i in before.chunks_exact_mut(w).chain(after.chunks_exact_mut(w)) {
            let ik = row_i[k];
            if ik >= T::FAR {
                continue;
            }
            for (ij, &kj) in row_i.iter_mut().zip(row_k.iter()) {
                *ij = (*ij).min(ik + kj);
            }
        }
    }
    true
}

/// The other node of the same octagon variable.
fn bar(i: usize) -> usize {
    i ^ 1
}

/// [`coherent_shortest_paths`] at one width, on the half `j ≤ i | 1` of the matrix only (with
/// `+∞` entries when narrow).
///
/// Miné's closure: the two nodes of a variable, `k = 2p` and `k̄ = 2p + 1`, are one step, and
/// only the entries `(i, j)` with `j ≤ i | 1` are computed (and read), the others are their
/// twins: half the work of Floyd–Warshall. A step reads the rows and columns of `k` and `k̄`
/// before it writes, so it is exactly two steps of Floyd–Warshall. A negative cycle is found at
/// the step of its greatest variable (through `k`, `k̄` or both), before any entry can fall far
/// enough for the sums to overflow.
fn coherent_floyd_warshall<T: Weight>(m: &mut [T], w: usize) -> bool {
    // Entry `(i, j)` read from the half computed.
    let at = |m: &[T], i: usize, j: usize| {
        if j <= i | 1 {
            m[i * w + j]
        } else {
            m[bar(j) * w + bar(i)]
        }
    };
    let zero = T::default();
    with_scratch(4 * w, |scratch: &mut [T]| {
        let (out_k, rest) = scratch.split_at_mut(w);
        let (out_tk, rest) = rest.split_at_mut(w);
        let (into_k, into_tk) = rest.split_at_mut(w);
        for k in (0..w).step_by(2) {
            let tk = k + 1;
            let (k_tk, tk_k) = (m[k * w + tk], m[tk * w + k]);
            if m[k * w + k] < zero || m[tk * w + tk] < zero || k_tk + tk_k < zero {
                return false;
            }
            // Rows `k` and `k̄` up to `k̄` are in the half computed, the rest of them is read from
            // columns `k̄` and `k`; columns `k` and `k̄` from row `k` on likewise, and above it
            // they are rows `k̄` and `k` read backwards (`m[j][k] = m[k̄][j̄]`).
            out_k[..=tk].copy_from_slice(&m[k * w..][..=tk]);
            out_tk[..=tk].copy_from_slice(&m[tk * w..][..=tk]);
            for j in tk + 1..w {
                out_k[j] = m[bar(j) * w + tk];
                out_tk[j] = m[bar(j) * w + k];
                into_k[j] = m[j * w + k];
                into_tk[j] = m[j * w + tk];
            }
            into_k[k] = m[k * w + k];
            into_tk[k] = m[k * w + tk];
            into_k[tk] = m[tk * w + k];
            into_tk[tk] = m[tk * w + tk];
            for j in 0..k {
                into_k[j] = out_tk[bar(j)];
                into_tk[j] = out_k[bar(j)];
            }
            debug_assert!((0..w).all(|j| {
                (out_k[j], out_tk[j], into_k[j], into_tk[j])
                    == (at(m, k, j), at(m, tk, j), at(m, j, k), at(m, j, tk))
            }));
            for (i, row) in m.chunks_exact_mut(w).enumerate() {
                // The best ways from `i` to `k` and to `k̄`, each maybe through the other; none
                // yet, nothing to do.
                let (ik, itk) = (into_k[i], into_tk[i]);
                let (x, y) = (ik.min(itk + tk_k), itk.min(ik + k_tk));
                if x >= T::FAR && y >= T::FAR {
                    continue;
                }
                for ((e, &p), &q) in row[..=i | 1].iter_mut().zip(&*out_k).zip(&*out_tk) {
                    *e = (*e).min(x + p).min(y + q);
                }
            }
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use proptest::collection::vec;
    use proptest::prelude::*;

    use super::*;

    /// An entry `a·2⁶² + r`, `r` within `-spread/4..=spread`.
    fn entry(spread: i128) -> impl Strategy<Value = i128> {
        (0i128..=4, -spread / 4..=spread).prop_map(|(a, r)| (a << 62) + r)
    }

    /// A `w × w` matrix with a zero diagonal and, for `coherent`, `m[i][j] = m[j̄][ī]`: its
    /// entries near the box's bounds (closed on `i32`s), less near (on `i64`s), or anywhere
    /// (on `i128`s).
    fn matrix(coherent: bool) -> impl Strategy<Value = (Vec<i128>, usize)> {
        let spread = prop_oneof![Just(40i128), Just(1 << 24), Just(1 << 62)];
        (1usize..7, spread).prop_flat_map(move |(half, spread)| {
            let w = 2 * half;
            vec(entry(spread), w * w).prop_map(move |mut m| {
                for i in 0..w {
                    m[i * w + i] = 0;
                    for j in 0..w {
                        if coherent && j > i | 1 {
                            m[i * w + j] = m[bar(j) * w + bar(i)];
                        }
                    }
                }
                (m, w)
            })
        })
    }

    /// The tight closure on `i128`s, as the octagon's own steps compute it: false when empty.
    fn wide_tight_closure(m: &mut [i128], w: usize) -> bool {
        coherent_shortest_paths(m, w) && finish(m, w)
    }

    /// The integer steps on a matrix closed for paths: false when empty.
    fn finish(m: &mut [i128], w: usize) -> bool {
        let into: Vec<i128> = (0..w).map(|j| m[bar(j) * w + j].div_euclid(2)).collect();
        for i in 0..w {
            for j in 0..w {
                m[i * w + j] = m[i * w + j].min(into[bar(i)] + into[j]);
            }
        }
        (0..w).all(|i| m[i * w + i] >= 0)
    }

    /// A unary bound of `2⁶³` (`a = 2`) halves to `2⁶²`, which strengthens an entry to it; the
    /// entry is read back as such (narrowing in multiples of `2⁶³` misread it).
    #[test]
    fn half_a_box_bound_is_read_back() {
        let big = 1i128 << 63;
        let m = vec![0, 0, big, 0, big, 0, big, 0, 0, 0, 0, 0, big, big, big, 0];
        let mut wide = m.clone();
        assert!(wide_tight_closure(&mut wide, 4));
        let mut narrow = m;
        assert_eq!(tight_coherent_closure(&mut narrow, 4), Closure::Closed);
        assert_eq!(wide, narrow);
        assert_eq!(narrow[2], 1 << 62);
    }

    proptest! {
        /// Narrowed or not, shortest paths give the same matrix and find the same negative
        /// cycles.
        #[test]
        fn narrow_paths_are_the_wide_ones((m, w) in matrix(false)) {
            let mut wide = m.clone();
            let wide_ok = floyd_warshall(&mut wide, w);
            let mut narrow = m;
            let narrow_ok = shortest_paths(&mut narrow, w);
            prop_assert_eq!(wide_ok, narrow_ok);
            if wide_ok {
                prop_assert_eq!(wide, narrow);
            }
        }

        /// Likewise for the tight closure of octagons, whenever the matrix narrows.
        #[test]
        fn narrow_tight_closure_is_the_wide_one((m, w) in matrix(true)) {
            let mut wide = m.clone();
            let wide_ok = wide_tight_closure(&mut wide, w);
            let mut narrow = m;
            match tight_coherent_closure(&mut narrow, w) {
                Closure::Closed => {
                    prop_assert!(wide_ok);
                    prop_assert_eq!(wide, narrow);
                }
                Closure::Paths => {
                    // The caller's integer steps, as the octagon's own.
                    prop_assert_eq!(wide_ok, finish(&mut narrow, w));
                    if wide_ok {
                        prop_assert_eq!(wide, narrow);
                    }
                }
                Closure::Empty => prop_assert!(!wide_ok),
                Closure::Wide => {}
            }
        }
    }
}
