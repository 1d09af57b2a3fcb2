/*!
Periods excluded without solving (Riley): if `G(l) = 0` (a losing position), every heap `n` has the
option `G(l) ^ G(n - l - 1) = G(n - l - 1)`, so `G(n) != G(n - l - 1)`, and `l + 1` cannot be a
multiple of the period: every divisor of `l + 1` is excluded.
*/

/// Heaps `n` with `values[n] = 0` (the losing positions), increasing.
pub fn losing_positions(values: &[crate::values::Value]) -> Vec<u64> {
    values
        .iter()
        .enumerate()
        .filter(|(_, v)| **v == 0)
        .map(|(n, _)| n as u64)
        .collect()
}

/// The losing position `l` whose `l + 1` is a multiple of `p`, if any (the smallest).
pub fn excluded_by(p: u64, losing: &[u64]) -> Option<u64> {
    (p > 0)
        .then(|| losing.iter().copied().find(|&l| (l + 1) % p == 0))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rileys_list_of_excluded_small_periods() {
        // Riley: "excludes the periods 1, 2, 3, 5, 7, 9, 11, 13, 15, 21, 25, ..." for Officers.
        let losing = [0, 1, 4, 12, 20, 30, 46, 72, 98, 124, 150, 176, 314, 408];
        let excluded: Vec<u64> = (1..=26)
            .filter(|&p| excluded_by(p, &losing).is_some())
            .collect();
        assert_eq!(excluded, vec![1, 2, 3, 5, 7, 9, 11, 13, 15, 21, 25]);
        assert_eq!(excluded_by(27, &losing), None);
        assert_eq!(excluded_by(0, &losing), None);
    }
}
