//! A new game ("Setup", and "The Game with the USA Expansion: Setup"): the base cards as the
//! board, the upgrade cards sorted into decks by kind and stage and shuffled, six cards of the
//! blue route deck dealt to each player, the turn order from the cards shown, and the black
//! engine to turn order 1 for the first round's government aid. The seed decides everything a
//! table would leave to chance or to the players, by the rules G1 and G2 of
//! `docs/rules/express-01.md`, so that a seed is one start position forever.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::card::{CardKind, CardNumber, Stage};
use super::catalogue::Catalogue;
use super::position::{PlayerSetup, PositionSetup, deck_names};

/// The cards each player is dealt from the blue route deck ("Setup": "deal 6 secret cards to
/// each player").
pub const DEALT: usize = 6;

/// The fewest and the most players (four player boards; the turn order needs two to matter).
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=4;

/// Why no game can be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The map is not in the content.
    #[error("no map `{map}` in this content (maps: {known})")]
    UnknownMap {
        /// As asked.
        map: String,
        /// The maps there are.
        known: String,
    },
    /// Too few or too many players.
    #[error("{0} players: Express 01 is for 2 to 4")]
    Players(usize),
    /// Two players have the same name.
    #[error("two players are named `{0}`")]
    SameName(String),
    /// Not one card shown per player.
    #[error("cards shown: {given} given for {players} players (one card each, in seat order)")]
    ShownCount {
        /// Cards given.
        given: usize,
        /// Players.
        players: usize,
    },
    /// A card shown that is not in the player's hand ("chooses one of his cards from his hand").
    #[error("cards shown: {player} shows card {card}, which is not in their hand ({hand})")]
    NotShown {
        /// The player.
        player: String,
        /// The card.
        card: u16,
        /// The hand dealt.
        hand: String,
    },
    /// Not one hand per player.
    #[error("hands: {given} given for {players} players (one hand each, in seat order)")]
    HandCount {
        /// Hands given.
        given: usize,
        /// Players.
        players: usize,
    },
    /// A hand of other than six cards.
    #[error("hands: {player} has {given} cards; each player is dealt 6 (\"deal 6 secret cards to each player\")")]
    HandSize {
        /// The player.
        player: String,
        /// Cards given.
        given: usize,
    },
    /// A card dealt that is not a blue route card.
    #[error(
        "hands: {player}'s card {card} is not a blue route card (numbers 201 to 236); the hands are dealt from the route cards deck of the 3rd stage (\"Take the route cards deck of the 3rd stage (blue) and deal 6 secret cards to each player\")"
    )]
    NotDealt {
        /// The player.
        player: String,
        /// The card.
        card: u16,
    },
    /// The blue route deck is too small to deal the starting hands.
    #[error("the blue route deck holds {held} cards, too few to deal {needed}")]
    ShortDeck {
        /// Cards in the deck.
        held: usize,
        /// Cards to deal.
        needed: usize,
    },
}

/// The decks of a new game on the map `kinds` names, by deck name, each top card first: every
/// copy of every card of the deck's kind and stage, in card-number order, then shuffled by `rng`
/// (one shuffle per deck, in the order of the deck names; ruling G1).
fn shuffled_decks(
    catalogue: &Catalogue,
    kinds: &[CardKind],
    rng: &mut ChaCha8Rng,
) -> BTreeMap<String, Vec<CardNumber>> {
    let mut decks = BTreeMap::new();
    for (name, (kind, stage)) in deck_names(kinds) {
        let mut cards: Vec<CardNumber> = catalogue
            .cards()
            .filter(|c| c.kind == kind && c.stage == stage)
            .flat_map(|c| std::iter::repeat_n(c.number, usize::from(c.copies)))
            .collect();
        cards.sort_unstable();
        cards.shuffle(rng);
        decks.insert(name.to_string(), cards);
    }
    decks
}

/// The turn order from the cards shown ("Setup": the highest card number shown becomes turn
/// order 1). Each player shows the highest-numbered card of their hand; players who show the
/// same number (copies of a card) compare their next-highest cards, and so on; players whose
/// hands hold the same numbers keep their seat order (ruling G2). Returns each seat's turn order
/// number, from 1.
pub fn turn_order_by_cards_shown(hands: &[Vec<CardNumber>]) -> Vec<u8> {
    let mut seats: Vec<usize> = (0..hands.len()).collect();
    let sorted: Vec<Vec<CardNumber>> = hands
        .iter()
        .map(|h| {
            let mut h = h.clone();
            h.sort_unstable_by(|a, b| b.cmp(a));
            h
        })
        .collect();
    // Highest first; a stable sort keeps seat order between equal hands.
    seats.sort_by(|&a, &b| sorted[b].cmp(&sorted[a]));
    let mut order = vec![0u8; hands.len()];
    for (place, &seat) in seats.iter().enumerate() {
        order[seat] = place as u8 + 1;
    }
    order
}

/// The start position of a new game on `map` for `players` (names, in seat order) from `seed`:
/// every card of the map once, on the board (the base cards), in a hand or in a deck; turn order
/// cards on their front; the black engine with turn order 1. [`super::Position::from_setup`]
/// accepts it as it is.
pub fn new_game(catalogue: &Catalogue, map: &str, players: &[String], seed: u64) -> Result<PositionSetup, SetupError> {
    new_game_shown(catalogue, map, players, seed, None)
}

/// Turn order numbers from the cards the players chose to show ("each player chooses one of his
/// cards from his hand"): the highest card first; players showing equal numbers compare their
/// hands as [`turn_order_by_cards_shown`] does (ruling G2), then seat order.
pub fn turn_order_by_choice(hands: &[Vec<CardNumber>], shown: &[CardNumber]) -> Vec<u8> {
    let by_hand = turn_order_by_cards_shown(hands);
    let mut seats: Vec<usize> = (0..hands.len()).collect();
    seats.sort_by(|&a, &b| shown[b].cmp(&shown[a]).then(by_hand[a].cmp(&by_hand[b])));
    let mut order = vec![0u8; hands.len()];
    for (place, &seat) in seats.iter().enumerate() {
        order[seat] = place as u8 + 1;
    }
    order
}

/// A new game in which the players chose the cards they show for the turn order (one per player,
/// in seat order; each must be in that player's hand); `None` plays the choice by ruling G2.
pub fn new_game_shown(
    catalogue: &Catalogue,
    map: &str,
    players: &[String],
    seed: u64,
    shown: Option<&[u16]>,
) -> Result<PositionSetup, SetupError> {
    let Some((_, the_map)) = catalogue.map(map) else {
        return Err(SetupError::UnknownMap {
            map: map.to_string(),
            known: catalogue.maps.iter().map(|m| m.id.clone()).collect::<Vec<_>>().join(", "),
        });
    };
    if !PLAYERS.contains(&players.len()) {
        return Err(SetupError::Players(players.len()));
    }
    for (i, p) in players.iter().enumerate() {
        if players[..i].contains(p) {
            return Err(SetupError::SameName(p.clone()));
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut decks = shuffled_decks(catalogue, &the_map.kinds, &mut rng);
    let blue = decks.entry("route-blue".to_string()).or_default();
    let needed = DEALT * players.len();
    if blue.len() < needed {
        return Err(SetupError::ShortDeck { held: blue.len(), needed });
    }
    // Dealt from the top, one card at a time round the table, in seat order (ruling G1).
    let mut hands = vec![Vec::with_capacity(DEALT); players.len()];
    for (i, card) in blue.drain(..needed).enumerate() {
        hands[i % players.len()].push(card);
    }
    let order = match shown {
        None => turn_order_by_cards_shown(&hands),
        Some(shown) => {
            if shown.len() != players.len() {
                return Err(SetupError::ShownCount { given: shown.len(), players: players.len() });
            }
            for ((name, hand), &card) in players.iter().zip(&hands).zip(shown) {
                if !hand.contains(&CardNumber(card)) {
                    let hand = hand.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
                    return Err(SetupError::NotShown { player: name.clone(), card, hand });
                }
            }
            let shown: Vec<CardNumber> = shown.iter().map(|&c| CardNumber(c)).collect();
            turn_order_by_choice(&hands, &shown)
        }
    };
    let first = order.iter().position(|&o| o == 1).map(|seat| players[seat].clone());
    Ok(PositionSetup {
        map: map.to_string(),
        note: Some(format!("a new game from seed {seed}")),
        board: Vec::new(),
        players: players
            .iter()
            .zip(hands)
            .zip(&order)
            .map(|((name, hand), &turn_order)| PlayerSetup {
                name: name.clone(),
                turn_order,
                turn_taken: false,
                hand: hand.iter().map(|c| c.0).collect(),
                shares: Vec::new(),
                share_counts: None,
                base_cards: Vec::new(),
            })
            .collect(),
        black_engine: first,
        decks: Some(decks.into_iter().map(|(name, cards)| (name, cards.iter().map(|c| c.0).collect())).collect()),
        round: Some(1),
        ..PositionSetup::default()
    })
}

/// The start of a game at the table (ruling T1): the players in seat order with the six cards
/// each was dealt ("deal 6 secret cards to each player"), entered as the table holds them, and
/// the card each showed for the turn order (`None`: each showed their highest, ruling G2). No
/// deck is shuffled here: the position is a table position (`table: true`), its decks face down
/// in an order never seen; [`super::Position::from_setup`] checks that no card is dealt more
/// often than the box holds it.
pub fn table_game(
    catalogue: &Catalogue,
    map: &str,
    players: &[String],
    hands: &[Vec<u16>],
    shown: Option<&[u16]>,
) -> Result<PositionSetup, SetupError> {
    if catalogue.map(map).is_none() {
        return Err(SetupError::UnknownMap {
            map: map.to_string(),
            known: catalogue.maps.iter().map(|m| m.id.clone()).collect::<Vec<_>>().join(", "),
        });
    }
    if !PLAYERS.contains(&players.len()) {
        return Err(SetupError::Players(players.len()));
    }
    for (i, p) in players.iter().enumerate() {
        if players[..i].contains(p) {
            return Err(SetupError::SameName(p.clone()));
        }
    }
    if hands.len() != players.len() {
        return Err(SetupError::HandCount { given: hands.len(), players: players.len() });
    }
    let mut dealt: Vec<Vec<CardNumber>> = Vec::new();
    for (name, hand) in players.iter().zip(hands) {
        if hand.len() != DEALT {
            return Err(SetupError::HandSize { player: name.clone(), given: hand.len() });
        }
        for &n in hand {
            let ok = catalogue.card(CardNumber(n)).is_some_and(|c| (c.kind, c.stage) == DEALT_FROM);
            if !ok {
                return Err(SetupError::NotDealt { player: name.clone(), card: n });
            }
        }
        dealt.push(hand.iter().map(|&n| CardNumber(n)).collect());
    }
    let order = match shown {
        None => turn_order_by_cards_shown(&dealt),
        Some(shown) => {
            if shown.len() != players.len() {
                return Err(SetupError::ShownCount { given: shown.len(), players: players.len() });
            }
            for ((name, hand), &card) in players.iter().zip(&dealt).zip(shown) {
                if !hand.contains(&CardNumber(card)) {
                    let hand = hand.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
                    return Err(SetupError::NotShown { player: name.clone(), card, hand });
                }
            }
            let shown: Vec<CardNumber> = shown.iter().map(|&c| CardNumber(c)).collect();
            turn_order_by_choice(&dealt, &shown)
        }
    };
    let first = order.iter().position(|&o| o == 1).map(|seat| players[seat].clone());
    Ok(PositionSetup {
        map: map.to_string(),
        note: Some("a game at the table".into()),
        players: players
            .iter()
            .zip(hands)
            .zip(&order)
            .map(|((name, hand), &turn_order)| PlayerSetup {
                name: name.clone(),
                turn_order,
                turn_taken: false,
                hand: hand.clone(),
                shares: Vec::new(),
                share_counts: None,
                base_cards: Vec::new(),
            })
            .collect(),
        black_engine: first,
        round: Some(1),
        table: true,
        ..PositionSetup::default()
    })
}

/// The stage whose route deck the starting hands come from.
pub const DEALT_FROM: (CardKind, Stage) = (CardKind::Route, Stage::Blue);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::express01::position::Position;

    fn names(n: usize) -> Vec<String> {
        ["Peter", "Martina", "Philipp", "Anna"][..n].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_new_game_holds_every_card_once_on_both_maps() {
        let catalogue = Catalogue::house();
        for map in ["germany", "usa"] {
            for n in 2..=4 {
                for seed in 0..5 {
                    let setup = new_game(&catalogue, map, &names(n), seed).expect("a game");
                    let decks = setup.decks.clone().expect("decks");
                    let expected = if map == "usa" { 9 } else { 12 };
                    assert_eq!(decks.len(), expected, "{map}: decks by kind and stage");
                    let position = Position::from_setup(setup.clone(), &catalogue)
                        .unwrap_or_else(|e| panic!("{map}, {n} players, seed {seed}: {:?}", e.problems));
                    for p in position.players() {
                        assert_eq!(p.hand.len(), DEALT);
                        for c in &p.hand {
                            let card = catalogue.card(*c).expect("a card");
                            assert_eq!((card.kind, card.stage), DEALT_FROM, "dealt from the blue route deck");
                        }
                        assert!(!p.turn_taken && p.shares.is_empty() && p.base_cards.is_empty());
                    }
                    let mut orders: Vec<u8> = position.players().iter().map(|p| p.turn_order).collect();
                    orders.sort_unstable();
                    assert_eq!(orders, (1..=n as u8).collect::<Vec<_>>());
                    let first = position.black_engine().expect("the black engine is owned");
                    assert_eq!(position.players()[first].turn_order, 1, "the black engine goes to turn order 1");
                    let blue = &decks["route-blue"];
                    let all_blue: usize = catalogue
                        .cards()
                        .filter(|c| (c.kind, c.stage) == DEALT_FROM)
                        .map(|c| usize::from(c.copies))
                        .sum();
                    assert_eq!(blue.len() + DEALT * n, all_blue);
                }
            }
        }
    }

    #[test]
    fn a_seed_is_one_start_position_and_another_seed_another() {
        let catalogue = Catalogue::house();
        let a = serde_json::to_string(&new_game(&catalogue, "germany", &names(3), 7).expect("a")).expect("json");
        let b = serde_json::to_string(&new_game(&catalogue, "germany", &names(3), 7).expect("b")).expect("json");
        let c = serde_json::to_string(&new_game(&catalogue, "germany", &names(3), 8).expect("c")).expect("json");
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn the_highest_card_shown_moves_first_and_copies_compare_the_next_card() {
        let h = |cs: &[u16]| cs.iter().map(|&c| CardNumber(c)).collect::<Vec<_>>();
        assert_eq!(turn_order_by_cards_shown(&[h(&[201, 236]), h(&[230, 202]), h(&[205])]), vec![1, 2, 3]);
        // Both show 236; the next-highest cards decide.
        assert_eq!(turn_order_by_cards_shown(&[h(&[236, 201]), h(&[236, 210])]), vec![2, 1]);
        // The same numbers throughout: seat order.
        assert_eq!(turn_order_by_cards_shown(&[h(&[236, 201]), h(&[201, 236])]), vec![1, 2]);
    }

    #[test]
    fn the_cards_chosen_decide_the_turn_order_and_go_back_to_hand() {
        let catalogue = Catalogue::house();
        let auto = new_game(&catalogue, "germany", &names(3), 4).expect("a game");
        // Each player shows their lowest card instead of their highest.
        let lowest: Vec<u16> = auto.players.iter().map(|p| p.hand.iter().copied().min().expect("a hand")).collect();
        let chosen = new_game_shown(&catalogue, "germany", &names(3), 4, Some(&lowest)).expect("a game");
        let mut by_card: Vec<(u16, usize)> = lowest.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        by_card.sort_by(|a, b| b.cmp(a));
        for (place, &(_, seat)) in by_card.iter().enumerate() {
            if by_card.iter().filter(|(c, _)| *c == by_card[place].0).count() == 1 {
                assert_eq!(usize::from(chosen.players[seat].turn_order), place + 1);
            }
        }
        for (a, c) in auto.players.iter().zip(&chosen.players) {
            assert_eq!(a.hand, c.hand, "the card shown goes back to the hand");
        }
        let first = chosen.players.iter().find(|p| p.turn_order == 1).map(|p| p.name.clone());
        assert_eq!(chosen.black_engine, first);
        let mut wrong = lowest.clone();
        wrong[1] = 999;
        assert!(matches!(
            new_game_shown(&catalogue, "germany", &names(3), 4, Some(&wrong)),
            Err(SetupError::NotShown { card: 999, .. })
        ));
        assert!(matches!(
            new_game_shown(&catalogue, "germany", &names(3), 4, Some(&lowest[..2])),
            Err(SetupError::ShownCount { given: 2, players: 3 })
        ));
    }

    #[test]
    fn a_table_start_keeps_no_deck_order_and_tells_each_card_drawn() {
        use crate::express01::game::{Game, StepError};
        let catalogue = Catalogue::house();
        let dealt = new_game(&catalogue, "germany", &names(3), 1).expect("a game");
        let hands: Vec<Vec<u16>> = dealt.players.iter().map(|p| p.hand.clone()).collect();
        let setup = table_game(&catalogue, "germany", &names(3), &hands, None).expect("a table start");
        assert!(setup.table && setup.decks.is_none());
        let position = Position::from_setup(setup.clone(), &catalogue).expect("a table position");
        let game = Game::from_position(&position).expect("a game");
        for d in game.decks() {
            assert_eq!(d.face_up, 0, "{}", d.name);
            assert!(d.cards.windows(2).all(|w| w[0] >= w[1]), "{}: number order, the lowest on top", d.name);
        }
        let blue = game.decks().iter().position(|d| d.name == "route-blue").expect("route-blue");
        assert_eq!(game.decks()[blue].cards.len(), 36 - 18);
        // The same start with the decks written in some order: the same game.
        let mut with_order = setup.clone();
        with_order.decks =
            Some(game.decks().iter().map(|d| (d.name.to_string(), d.cards.iter().map(|c| c.0).collect())).collect());
        let other =
            Game::from_position(&Position::from_setup(with_order, &catalogue).expect("a position")).expect("a game");
        assert_eq!(game, other);
        assert!(game.to_setup().decks.is_some_and(|d| d.is_empty()));
        // A card in a hand cannot come from the deck; one of the face-down cards can.
        let mut g = game.clone();
        let in_hand = CardNumber(hands[0][0]);
        assert!(matches!(g.reveal(blue, in_hand), Err(StepError::CannotCome { .. })));
        let could = g.could_come(blue);
        assert_eq!(could.len(), 18);
        g.reveal(blue, could[5]).expect("it can come");
        assert_eq!(g.decks()[blue].top(), Some(could[5]));
        // Bad hands are named.
        assert!(matches!(
            table_game(&catalogue, "germany", &names(3), &hands[..2], None),
            Err(SetupError::HandCount { given: 2, players: 3 })
        ));
        let mut short = hands.clone();
        short[1].pop();
        assert!(matches!(table_game(&catalogue, "germany", &names(3), &short, None), Err(SetupError::HandSize { .. })));
        let mut yellow = hands.clone();
        yellow[2][0] = 101;
        assert!(matches!(
            table_game(&catalogue, "germany", &names(3), &yellow, None),
            Err(SetupError::NotDealt { card: 101, .. })
        ));
    }

    #[test]
    fn bad_requests_are_named() {
        let catalogue = Catalogue::house();
        assert!(matches!(new_game(&catalogue, "mars", &names(2), 1), Err(SetupError::UnknownMap { .. })));
        assert_eq!(new_game(&catalogue, "germany", &names(1), 1).err(), Some(SetupError::Players(1)));
        let twice = vec!["Ann".to_string(), "Ann".to_string()];
        assert_eq!(new_game(&catalogue, "germany", &twice, 1).err(), Some(SetupError::SameName("Ann".into())));
    }
}

#[cfg(test)]
mod golden {
    //! Seeds are forever: three start positions pinned, by the first seat's hand, the turn
    //! order and the tops of two decks.
    use super::*;

    #[test]
    fn three_start_positions_are_pinned() {
        let catalogue = Catalogue::house();
        /// A map and seed; the first seat's hand, the turn order, the top three of two decks.
        type Pin = (&'static str, u64, [u16; 6], [u8; 3], [u16; 3], [u16; 3]);
        let pinned: [Pin; 3] = [
            ("germany", 1, [231, 217, 220, 221, 225, 236], [1, 2, 3], [107, 101, 102], [542, 532, 535]),
            ("germany", 2, [226, 215, 235, 228, 207, 236], [1, 2, 3], [103, 106, 107], [531, 545, 546]),
            ("usa", 3, [213, 230, 224, 232, 209, 215], [3, 1, 2], [105, 102, 108], [534, 538, 535]),
        ];
        for (map, seed, hand, orders, route_yellow, through_red) in pinned {
            let names: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
            let s = new_game(&catalogue, map, &names, seed).expect("a game");
            let d = s.decks.as_ref().expect("decks");
            assert_eq!(s.players[0].hand, hand, "{map} {seed}");
            assert_eq!(s.players.iter().map(|p| p.turn_order).collect::<Vec<_>>(), orders, "{map} {seed}");
            assert_eq!(d["route-yellow"][..3], route_yellow, "{map} {seed}");
            assert_eq!(d["through-red"][..3], through_red, "{map} {seed}");
        }
    }
}
