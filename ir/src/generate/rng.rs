//! The generators' randomness: [`Rng`], and the comparison operators every generator draws
//! branch conditions from.

use absinthe::program::Op;

/// SplitMix64: a tiny, fast, seedable pseudo-random generator (not for cryptography).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        // The modulo bias is irrelevant for test programs.
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi` (`lo` when the range is empty).
    pub fn within(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = (i128::from(hi) - i128::from(lo) + 1) as u128;
        (i128::from(lo) + (u128::from(self.next_u64()) % span) as i128) as i64
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// True with probability `percent / 100`.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// A random element of `items` (which must not be empty for a meaningful result).
    pub fn pick<T: Copy>(&mut self, items: &[T], fallback: T) -> T {
        items
            .get(self.below(items.len()))
            .copied()
            .unwrap_or(fallback)
    }

    /// A literal: mostly small, sometimes near the ends of the `i64` range so arithmetic
    /// overflows.
    pub fn literal(&mut self) -> i64 {
        match self.below(10) {
            0 => self.pick(&[i64::MAX, i64::MIN, i64::MAX - 1, 1 << 62, -(1 << 40)], 0),
            1 => self.next_u64() as i64,
            _ => self.below(25) as i64 - 4,
        }
    }
}

/// The comparison operators, for branch conditions.
pub(super) const COMPARISONS: [Op; 6] = [Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Eq, Op::Ne];
