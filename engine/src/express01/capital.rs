//! A player's capital ("Government Aid" and "Determine the Winner", computed the same way):
//! a) each card in hand 1; b) each share as many as its company has stations in the network;
//! c) each pair of unequal base cards in front of the player (a route card and a station card)
//! 1; d) the black engine 2, when its owner has not used it (ruling G3).

use super::card::{CardKind, CompanyId};
use super::position::Position;

/// A player's capital, by its four parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Capital {
    /// a) Cards in hand (active capital).
    pub hand: u32,
    /// b) Shares, each worth its company's stations in the network.
    pub shares: u32,
    /// c) Pairs of unequal base cards in front of the player.
    pub pairs: u32,
    /// d) The black engine: 2 when owned and not used, else 0.
    pub black_engine: u32,
}

impl Capital {
    /// The four parts from what they count: cards in hand, for each share held the stations of
    /// its company, the route and the station base cards in front, and whether the player owns
    /// an unused black engine.
    pub fn of(
        hand: usize,
        share_stations: &[u32],
        route_bases: usize,
        station_bases: usize,
        black_engine: bool,
    ) -> Capital {
        Capital {
            hand: hand as u32,
            shares: share_stations.iter().sum(),
            pairs: route_bases.min(station_bases) as u32,
            black_engine: if black_engine { 2 } else { 0 },
        }
    }

    /// The total.
    pub fn total(&self) -> u32 {
        self.hand + self.shares + self.pairs + self.black_engine
    }
}

/// The stations of a company in the network: every station of the company on a card of the
/// board (ruling G3: "within the network" is the board, connected or not).
pub fn stations_of(position: &Position<'_>, company: CompanyId) -> u32 {
    let catalogue = position.catalogue();
    position
        .board()
        .iter()
        .filter_map(|p| catalogue.card(p.card))
        .flat_map(|c| c.stations.iter())
        .filter(|s| s.company == Some(company))
        .count() as u32
}

/// The capital of player `player` (an index into [`Position::players`]); `engine_used` says
/// whether the owner of the black engine used it this round (then it adds nothing).
pub fn capital(position: &Position<'_>, player: usize, engine_used: bool) -> Capital {
    let catalogue = position.catalogue();
    let p = &position.players()[player];
    let share_stations: Vec<u32> = p
        .shares
        .iter()
        .filter_map(|&n| catalogue.card(n).and_then(|c| c.share))
        .map(|s| stations_of(position, s.company))
        .collect();
    let kind_count =
        |kind: CardKind| p.base_cards.iter().filter(|&&n| catalogue.card(n).is_some_and(|c| c.kind == kind)).count();
    Capital::of(
        p.hand.len(),
        &share_stations,
        kind_count(CardKind::BaseRoute),
        kind_count(CardKind::BaseStation),
        position.black_engine() == Some(player) && !engine_used,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::express01::catalogue::Catalogue;

    /// The rulebook's example of "Government Aid": 5 cards in hand, 2 red shares with 2 red
    /// stations in the network, 1 route and 1 station base card besides 2 more route base cards,
    /// the black engine: 12.
    #[test]
    fn the_government_aid_example_is_12() {
        let c = Capital::of(5, &[2, 2], 3, 1, true);
        assert_eq!((c.hand, c.shares, c.pairs, c.black_engine), (5, 4, 1, 2));
        assert_eq!(c.total(), 12);
    }

    /// The rulebook's example of "Determine the Winner": 10 cards in hand, 2 red shares (3 red
    /// stations), 3 blue shares (2 blue stations), 1 yellow share (no yellow station), 2 pairs
    /// of unequal base cards, the black engine: 26.
    #[test]
    fn the_final_capital_example_is_26() {
        let c = Capital::of(10, &[3, 3, 2, 2, 2, 0], 2, 2, true);
        assert_eq!(c.total(), 26);
        assert_eq!(Capital::of(10, &[3, 3, 2, 2, 2, 0], 2, 2, false).total(), 24, "a used engine adds nothing");
    }

    /// On the sample position, each player's capital recounted card by card.
    #[test]
    fn the_sample_positions_capitals_recount() {
        let catalogue = Catalogue::house();
        let position = Position::sample(&catalogue).expect("the sample");
        for (i, p) in position.players().iter().enumerate() {
            let c = capital(&position, i, false);
            assert_eq!(c.hand as usize, p.hand.len());
            let mut shares = 0;
            for &n in &p.shares {
                let company = catalogue.card(n).and_then(|c| c.share).expect("a share").company;
                for cell in position.board() {
                    let card = catalogue.card(cell.card).expect("a card");
                    shares += card.stations.iter().filter(|s| s.company == Some(company)).count() as u32;
                }
            }
            assert_eq!(c.shares, shares, "{}", p.name);
            assert_eq!(c.black_engine, if position.black_engine() == Some(i) { 2 } else { 0 });
            assert_eq!(c.total(), c.hand + c.shares + c.pairs + c.black_engine);
        }
    }
}
