//! Exact expectations of capital over the cards nobody has seen (ruling T3 of
//! `docs/rules/express-01.md`): a capital is a whole number of cards, and an expectation over
//! the cards that could come from a face-down deck is a fraction; kept as a fraction it compares
//! exactly, so two lines of equal worth are tied as the tie rules say, not by rounding.

use std::cmp::Ordering;

/// A capital or an expected capital: `num / den`, in lowest terms, `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capital {
    num: i128,
    den: i128,
}

impl Capital {
    /// A capital of `n` cards.
    pub fn whole(n: i64) -> Capital {
        Capital { num: i128::from(n), den: 1 }
    }

    /// Whether it is a whole number of cards.
    pub fn is_whole(self) -> bool {
        self.den == 1
    }

    /// The whole number of cards, when it is one.
    pub fn as_whole(self) -> Option<u32> {
        (self.den == 1).then(|| u32::try_from(self.num).ok()).flatten()
    }

    /// The value as a decimal, for the output.
    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// `self - other`.
    pub fn minus(self, other: Capital) -> Capital {
        Capital::reduced(self.num * other.den - other.num * self.den, self.den * other.den)
    }

    /// The weighted mean of `values`, each with its weight (a positive count): the expectation
    /// when each value comes with probability weight / total.
    pub fn mean(values: &[(u32, Capital)]) -> Capital {
        let total: i128 = values.iter().map(|&(w, _)| i128::from(w)).sum();
        let mut sum = Capital::whole(0);
        for &(w, v) in values {
            sum = Capital::reduced(sum.num * v.den + i128::from(w) * v.num * sum.den, sum.den * v.den);
        }
        Capital::reduced(sum.num, sum.den * total.max(1))
    }

    fn reduced(num: i128, den: i128) -> Capital {
        let g = gcd(num.unsigned_abs(), den.unsigned_abs()).max(1) as i128;
        let sign = if den < 0 { -1 } else { 1 };
        Capital { num: sign * num / g, den: sign * den / g }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ord for Capital {
    fn cmp(&self, other: &Capital) -> Ordering {
        if self.den == other.den {
            return self.num.cmp(&other.num);
        }
        (self.num * other.den).cmp(&(other.num * self.den))
    }
}

impl PartialOrd for Capital {
    fn partial_cmp(&self, other: &Capital) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mean_is_exact_and_compares_exactly() {
        let third = Capital::mean(&[(1, Capital::whole(1)), (2, Capital::whole(0))]);
        assert!(!third.is_whole());
        let again = Capital::mean(&[(2, Capital::whole(1)), (4, Capital::whole(0))]);
        assert_eq!(third, again, "1/3 in lowest terms either way");
        assert!(third < Capital::whole(1) && third > Capital::whole(0));
        let whole = Capital::mean(&[(3, Capital::whole(7))]);
        assert_eq!(whole.as_whole(), Some(7));
        assert_eq!(Capital::whole(2).minus(third), Capital::mean(&[(1, Capital::whole(5)), (2, Capital::whole(0))]));
    }
}
