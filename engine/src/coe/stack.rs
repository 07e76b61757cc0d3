//! A stack of at most `N` small values stored inline: the game's card piles and pending
//! choices, so that copying a game (as search does at every step) allocates nothing.

/// A stack of at most `N` values of a small `Copy` type, stored inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stack<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: u8,
}

impl<T: Copy + Default, const N: usize> Default for Stack<T, N> {
    fn default() -> Self {
        Stack { items: [T::default(); N], len: 0 }
    }
}

impl<T: Copy + Default, const N: usize> Stack<T, N> {
    /// Adds a value on top. The game's piles never hold more than their capacity (nine cards;
    /// a few pending choices); a value beyond it would be dropped, and the engine's invariant
    /// tests (cards and cubes conserved) would see it.
    pub fn push(&mut self, value: T) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = value;
            self.len += 1;
        }
    }

    /// Takes the top value.
    pub fn pop(&mut self) -> Option<T> {
        self.len = self.len.checked_sub(1)?;
        Some(self.items[usize::from(self.len)])
    }

    /// The top value.
    pub fn last(&self) -> Option<T> {
        self.as_slice().last().copied()
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values, bottom first.
    pub fn as_slice(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }

    /// Removes every value.
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Stack<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut s = Stack::default();
        for x in iter {
            s.push(x);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_pushes_and_pops_in_order_and_keeps_its_capacity() {
        let mut s: Stack<u8, 3> = Stack::default();
        assert!(s.is_empty() && s.pop().is_none());
        s.push(1);
        s.push(2);
        assert_eq!(s.last(), Some(2));
        assert_eq!(s.as_slice(), &[1, 2]);
        s.push(3);
        s.push(4); // beyond the capacity: dropped
        assert_eq!(s.len(), 3);
        assert_eq!(s.pop(), Some(3));
        assert_eq!((0..5).collect::<Stack<u8, 3>>().as_slice(), &[0, 1, 2]);
    }
}
