//! Handing out a bonus payment (rulebook, "Payment of the Bonus" and "Order of Payment").

/// A player taking part in a bonus payment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// The player's name.
    pub name: String,
    /// The turn order card's number (1 to 4).
    pub turn_order: u8,
    /// Shares of the paying company the player holds.
    pub shares: u32,
    /// Whether the player uses the black engine as one more share for this payment
    /// ("Cards explanation: The black engine": "Use it as one company share").
    pub black_engine: bool,
}

impl Holder {
    /// The most cards this player may receive: one per share, plus one for the black engine
    /// ("No shareholder can receive more cards from the bonus payment than he holds shares").
    pub fn cap(&self) -> u32 {
        self.shares + u32::from(self.black_engine)
    }
}

/// The cards each player receives, in the order of `holders`.
///
/// The initiator takes the first card, then the shareholders follow by turn order number upward
/// from the initiator and around, one card each, again and again, skipping anyone who has as
/// many cards as shares. What is left when nobody may take more falls to the initiator.
/// `initiator` indexes `holders`.
pub fn distribute(payout: u32, holders: &[Holder], initiator: usize) -> Vec<u32> {
    let turn_orders: Vec<u8> = holders.iter().map(|h| h.turn_order).collect();
    let caps: Vec<u32> = holders.iter().map(Holder::cap).collect();
    let mut received = vec![0u32; holders.len()];
    for i in payment_order(payout, &turn_orders, &caps, initiator) {
        received[i] += 1;
    }
    received
}

/// Who takes each card of a payment, card by card: the rule of [`distribute`] on plain numbers
/// (each player's turn order number and the most cards they may take), for the whole game,
/// where each receiver chooses the deck of their card in this order.
pub fn payment_order(payout: u32, turn_orders: &[u8], caps: &[u32], initiator: usize) -> Vec<usize> {
    let n = turn_orders.len().min(caps.len());
    let mut order_of_payment = Vec::with_capacity(payout as usize);
    if initiator >= n {
        return order_of_payment;
    }
    let start = turn_orders[initiator];
    let mut seats: Vec<usize> = (0..n).collect();
    // Turn order numbers from the initiator's upward, then the lower ones.
    seats.sort_by_key(|&i| (turn_orders[i] < start, turn_orders[i]));
    let mut received = vec![0u32; n];
    let mut left = payout;
    while left > 0 {
        let mut given = false;
        for &i in &seats {
            if left > 0 && received[i] < caps[i] {
                received[i] += 1;
                order_of_payment.push(i);
                left -= 1;
                given = true;
            }
        }
        if !given {
            order_of_payment.extend(std::iter::repeat_n(initiator, left as usize));
            left = 0;
        }
    }
    order_of_payment
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holder(name: &str, turn_order: u8, shares: u32) -> Holder {
        Holder { name: name.into(), turn_order, shares, black_engine: false }
    }

    /// The rulebook's example (page 8): Peter starts a red train; 5 red shares are issued, Peter
    /// holds 1, Martina 2, Philipp 2; the route pays 4. Peter, Martina and Philipp take one card
    /// each; Peter may take no more, so the last card falls to Martina.
    #[test]
    fn peter_martina_philipp() {
        let holders = [holder("Peter", 1, 1), holder("Martina", 2, 2), holder("Philipp", 3, 2)];
        assert_eq!(holders.iter().map(|h| h.shares).sum::<u32>(), 5);
        assert_eq!(distribute(4, &holders, 0), vec![1, 2, 1]);
    }

    /// The rulebook's order example: turn order 3 initiates in a 4-player game; the order is
    /// 3, 4, 1, 2, 3, ...
    #[test]
    fn order_starts_at_the_initiator_and_wraps() {
        let holders = [holder("A", 1, 5), holder("B", 2, 5), holder("C", 3, 5), holder("D", 4, 5)];
        assert_eq!(distribute(1, &holders, 2), vec![0, 0, 1, 0]);
        assert_eq!(distribute(2, &holders, 2), vec![0, 0, 1, 1]);
        assert_eq!(distribute(3, &holders, 2), vec![1, 0, 1, 1]);
        assert_eq!(distribute(5, &holders, 2), vec![1, 1, 2, 1]);
    }

    #[test]
    fn leftover_falls_to_the_initiator_and_non_holders_get_nothing() {
        let holders = [holder("A", 1, 0), holder("B", 2, 1), holder("C", 3, 1)];
        assert_eq!(distribute(6, &holders, 1), vec![0, 5, 1]);
    }

    #[test]
    fn black_engine_counts_as_one_more_share() {
        let mut holders = [holder("A", 1, 1), holder("B", 2, 3)];
        assert_eq!(distribute(4, &holders, 0), vec![1, 3]);
        holders[0].black_engine = true;
        assert_eq!(distribute(4, &holders, 0), vec![2, 2]);
    }

    #[test]
    fn every_card_is_handed_out() {
        for payout in 0..20 {
            let holders = [holder("A", 2, 1), holder("B", 1, 2), holder("C", 4, 0), holder("D", 3, 3)];
            for init in [0, 1, 3] {
                let got = distribute(payout, &holders, init);
                assert_eq!(got.iter().sum::<u32>(), payout);
                for (i, h) in holders.iter().enumerate() {
                    if i != init {
                        assert!(got[i] <= h.cap());
                    }
                }
            }
        }
    }
}
