//! Sets of stations as fixed-size bit sets: the search's "stations reached", and the keys of its
//! transposition table. Small boards use arrays (no allocation); very large ones a boxed slice.

use std::hash::Hash;

/// A set of station indices, stored as 64-bit words.
pub trait StationSet: Clone + Eq + Hash + Send + Sync {
    /// The empty set, able to hold stations `0..n`.
    fn empty(n: usize) -> Self;
    /// The words, station `i` at bit `i % 64` of word `i / 64`.
    fn words(&self) -> &[u64];
    /// The words, to change.
    fn words_mut(&mut self) -> &mut [u64];

    /// Whether station `i` is in the set.
    fn contains(&self, i: usize) -> bool {
        self.words()[i / 64] >> (i % 64) & 1 == 1
    }

    /// Adds station `i` if absent, removes it if present.
    fn flip(&mut self, i: usize) {
        self.words_mut()[i / 64] ^= 1 << (i % 64);
    }
}

impl<const N: usize> StationSet for [u64; N] {
    fn empty(_: usize) -> Self {
        [0; N]
    }
    fn words(&self) -> &[u64] {
        self
    }
    fn words_mut(&mut self) -> &mut [u64] {
        self
    }
}

impl StationSet for Box<[u64]> {
    fn empty(n: usize) -> Self {
        vec![0; n.div_ceil(64)].into_boxed_slice()
    }
    fn words(&self) -> &[u64] {
        self
    }
    fn words_mut(&mut self) -> &mut [u64] {
        self
    }
}

/// Stations in `a`, in `b` and not in `c`, counted; all three of the same length.
pub fn count_and_and_not(a: &[u64], b: &[u64], c: &[u64]) -> u32 {
    a.iter().zip(b).zip(c).map(|((x, y), z)| (x & y & !z).count_ones()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_and_boxes_agree() {
        let mut a = <[u64; 4]>::empty(200);
        let mut b = <Box<[u64]>>::empty(200);
        for i in [0, 5, 63, 64, 130, 199] {
            a.flip(i);
            b.flip(i);
        }
        b.flip(5);
        a.flip(5);
        for i in 0..200 {
            assert_eq!(a.contains(i), b.contains(i), "{i}");
        }
        assert!(a.contains(199) && !a.contains(5));
        assert_eq!(a.words(), b.words());
        let all = [u64::MAX; 4];
        assert_eq!(count_and_and_not(&all, &all, a.words()), 200 + 56 - 5);
    }
}
