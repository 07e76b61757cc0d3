//! The order of a round: the turn order cards and their sides ("Taking Your Turn", "End of Your
//! Turn", "End of a Round", "D) Change the Turn Order"), who receives the government aid
//! ("Government Aid"), and when the game ends ("End of the Game"). Pure rules on small values,
//! so that the whole game's state machine and its tests use one statement of each.

use serde::{Deserialize, Serialize};

/// A player's turn order card: its number and whether it shows its back ("The train has left").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TurnCard {
    /// The number, 1 to the number of players.
    pub number: u8,
    /// Whether it shows its back: the player has had their turn this round.
    pub flipped: bool,
}

/// The seat to move: the one whose card shows the lowest number on its front ("Then it is the
/// player's turn whose turn order card shows the lowest number and who has not taken his turn
/// yet"); `None` when every card shows its back and the round is over.
pub fn to_move(cards: &[TurnCard]) -> Option<usize> {
    (0..cards.len()).filter(|&s| !cards[s].flipped).min_by_key(|&s| cards[s].number)
}

/// "D) Change the Turn Order": the mover exchanges their card's number with `other`'s. Each
/// player keeps the side their card showed, so a player who has moved still has and one who has
/// not still has not ("the new turn order card of that other player must also show its back ...
/// must also show the front side"). Returns `false`, changing nothing, when `other` is the mover.
pub fn exchange(cards: &mut [TurnCard], mover: usize, other: usize) -> bool {
    if mover == other || mover >= cards.len() || other >= cards.len() {
        return false;
    }
    let n = cards[mover].number;
    cards[mover].number = cards[other].number;
    cards[other].number = n;
    true
}

/// "End of Your Turn": the mover's card is flipped to its back.
pub fn end_turn(cards: &mut [TurnCard], mover: usize) {
    if let Some(c) = cards.get_mut(mover) {
        c.flipped = true;
    }
}

/// "End of a Round": every card back on its front for the next round.
pub fn new_round(cards: &mut [TurnCard]) {
    for c in cards {
        c.flipped = false;
    }
}

/// Who receives the government aid: the lowest capital, a tie to the lowest turn order number
/// ("the tie is won by the tied player with the lowest turn order number"). `capitals` and
/// `cards` are by seat; `None` with no players.
pub fn government_aid(capitals: &[u32], cards: &[TurnCard]) -> Option<usize> {
    (0..capitals.len().min(cards.len())).min_by_key(|&s| (capitals[s], cards[s].number))
}

/// The length of the game ("End of the Game": "Be sure to agree on a version before you start").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Length {
    /// 12 or more base cards upgraded, or 3 decks used up.
    #[default]
    Short,
    /// 24 or more base cards upgraded, or 4 decks used up.
    Long,
}

impl Length {
    /// `short` or `long`, as files and messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Length::Short => "short",
            Length::Long => "long",
        }
    }

    /// Base cards upgraded that end the game after the round.
    pub fn upgraded_bases(self) -> usize {
        match self {
            Length::Short => 12,
            Length::Long => 24,
        }
    }

    /// Decks used up that end the game after the round.
    pub fn decks_used_up(self) -> usize {
        match self {
            Length::Short => 3,
            Length::Long => 4,
        }
    }

    /// Whether an end condition is met ("Check at the end of every action"): `upgraded` base
    /// cards no longer on the board, `empty` decks holding no card (ruling G4).
    pub fn ends(self, upgraded: usize, empty: usize) -> bool {
        upgraded >= self.upgraded_bases() || empty >= self.decks_used_up()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(numbers: &[u8]) -> Vec<TurnCard> {
        numbers.iter().map(|&number| TurnCard { number, flipped: false }).collect()
    }

    #[test]
    fn a_round_goes_by_the_lowest_front_card_and_ends_when_all_show_their_backs() {
        let mut c = cards(&[2, 3, 1]);
        let mut order = Vec::new();
        while let Some(s) = to_move(&c) {
            order.push(s);
            end_turn(&mut c, s);
        }
        assert_eq!(order, [2, 0, 1]);
        new_round(&mut c);
        assert_eq!(to_move(&c), Some(2));
    }

    /// The rulebook's note: a player who takes a higher number moves no more this round, and
    /// only players whose cards still show their front follow.
    #[test]
    fn an_exchange_keeps_each_players_side() {
        // Seat 0 holds 1 and moves; seat 1 (3) has not moved; seat 2 (2) has not moved.
        let mut c = cards(&[1, 3, 2]);
        assert!(exchange(&mut c, 0, 1));
        assert_eq!((c[0].number, c[1].number), (3, 1));
        end_turn(&mut c, 0);
        // The lowest front card is now seat 1's 1, then seat 2's 2; seat 0 does not move again.
        assert_eq!(to_move(&c), Some(1));
        end_turn(&mut c, 1);
        assert_eq!(to_move(&c), Some(2));
        end_turn(&mut c, 2);
        assert_eq!(to_move(&c), None);

        // Taking the card of a player who has moved: that player's new card shows its back too.
        let mut c = vec![TurnCard { number: 1, flipped: true }, TurnCard { number: 2, flipped: false }];
        assert!(exchange(&mut c, 1, 0));
        assert_eq!(c, vec![TurnCard { number: 2, flipped: true }, TurnCard { number: 1, flipped: false }]);
        assert!(!exchange(&mut c, 1, 1), "no exchange with oneself");
    }

    #[test]
    fn the_lowest_capital_receives_the_aid_and_a_tie_goes_to_the_lowest_number() {
        let c = cards(&[2, 1, 3]);
        assert_eq!(government_aid(&[7, 9, 8], &c), Some(0));
        assert_eq!(government_aid(&[8, 8, 8], &c), Some(1), "the first round: all equal, turn order 1");
        assert_eq!(government_aid(&[9, 8, 8], &c), Some(1));
        assert_eq!(government_aid(&[], &c), None);
    }

    #[test]
    fn the_end_conditions_of_both_lengths() {
        assert!(!Length::Short.ends(11, 2));
        assert!(Length::Short.ends(12, 0) && Length::Short.ends(0, 3));
        assert!(!Length::Long.ends(23, 3));
        assert!(Length::Long.ends(24, 0) && Length::Long.ends(0, 4));
    }
}
