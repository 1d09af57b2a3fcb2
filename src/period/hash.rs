/*!
A rolling polynomial hash of the last `W` values: `H(n) = sum over i < W of (G(n - i) + 1) B^i`
modulo the Mersenne prime `2^61 - 1`, updated in O(1) per value:
`H(n + 1) = B H(n) + (G(n + 1) + 1) - (G(n + 1 - W) + 1) B^W`.

Why not modulo `2^64`: polynomial hashes modulo a power of two collide on Thue-Morse-like sequences
whatever the base. A prime modulus has no such family; two different windows collide with
probability about `W / 2^61` per comparison. Collisions are still possible, so a match only
proposes a candidate, which is always confirmed by comparing the windows value by value.
*/

/// The Mersenne prime `2^61 - 1`.
pub const MERSENNE_61: u64 = (1 << 61) - 1;

/// A rolling hash over a window of `w` values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollingHash {
    modulus: u64,
    base: u64,
    base_w: u64,
    w: usize,
    value: u64,
}

#[inline]
fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    let x = u128::from(a) * u128::from(b);
    if m == MERSENNE_61 {
        // 2^61 = 1 (mod m): fold the high bits onto the low ones, no division.
        let folded = (x as u64 & MERSENNE_61) + (x >> 61) as u64;
        let once = (folded & MERSENNE_61) + (folded >> 61);
        if once >= MERSENNE_61 {
            once - MERSENNE_61
        } else {
            once
        }
    } else {
        (x % u128::from(m)) as u64
    }
}

impl RollingHash {
    /// A hash over windows of `w` values with a fixed odd base (runs are reproducible).
    pub fn new(w: usize) -> RollingHash {
        RollingHash::with_modulus(w, MERSENNE_61)
    }

    /// The same with another modulus: tests use a tiny one to force collisions.
    pub fn with_modulus(w: usize, modulus: u64) -> RollingHash {
        let base = 0x1f3d_5b79_a2c4_e681 % modulus;
        let mut base_w = 1 % modulus;
        for _ in 0..w {
            base_w = mul_mod(base_w, base, modulus);
        }
        RollingHash {
            modulus,
            base,
            base_w,
            w,
            value: 0,
        }
    }

    pub fn window(&self) -> usize {
        self.w
    }

    pub fn value(&self) -> u64 {
        self.value
    }

    /// Hashes `window` (its last element is the newest) from scratch.
    pub fn reset(&mut self, window: &[u16]) {
        debug_assert_eq!(window.len(), self.w);
        self.value = 0;
        for &v in window {
            self.value =
                (mul_mod(self.value, self.base, self.modulus) + u64::from(v) + 1) % self.modulus;
        }
    }

    /// Slides the window: `incoming` enters, `outgoing` (the value `w` places back) leaves.
    #[inline]
    pub fn roll(&mut self, incoming: u16, outgoing: u16) {
        let m = self.modulus;
        let shifted = mul_mod(self.value, self.base, m) + u64::from(incoming) + 1;
        let dropped = mul_mod(u64::from(outgoing) + 1, self.base_w, m);
        let v = shifted + m - dropped; // below 2m + 2^16 + 1
        self.value = if m == MERSENNE_61 {
            let v = if v >= m { v - m } else { v };
            if v >= m { v - m } else { v }
        } else {
            v % m
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolling_equals_from_scratch() {
        let values: Vec<u16> = (0..500u32).map(|i| ((i * 7919) % 301) as u16).collect();
        let w = 37;
        let mut rolling = RollingHash::new(w);
        rolling.reset(&values[..w]);
        for n in w..values.len() {
            rolling.roll(values[n], values[n - w]);
            let mut fresh = RollingHash::new(w);
            fresh.reset(&values[n + 1 - w..=n]);
            assert_eq!(rolling.value(), fresh.value(), "{n}");
        }
    }
}
