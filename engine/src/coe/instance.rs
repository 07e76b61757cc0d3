//! An instance: everything chance fixes in one game (rulebook, "Setup" and "Gameplay"): the board
//! card, the order of the market deck, the order of the reshuffle, and every die roll. The yellow
//! start space stays the player's choice.
//!
//! A seed maps to one instance on every machine and thread count: a ChaCha8 generator (from
//! `rand_chacha`, seeded with `seed_from_u64`, which is specified to be portable) draws, in this
//! order: the board card (uniform over the 9 ids), a shuffle of the other 8 (the deck, top card
//! first), a shuffle of all 9 ids (the reshuffle order: the second deck is the market cards in
//! this order), and [`MAX_TURNS`] pairs of dice. Golden tests pin a few seeds.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::catalogue::CARDS;

/// The most turns a game can last: 7 turns to go through the first deck of 8 (one card starts
/// the market), at most 7 through the second.
pub const MAX_TURNS: usize = 14;

/// Everything chance fixes in one game, or what the table has seen of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "InstanceFile", into = "InstanceFile")]
pub struct Instance {
    /// The seed it came from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The card laid board side up.
    pub board: u8,
    /// The market deck, top card first: the other eight cards.
    pub deck: Vec<u8>,
    /// The reshuffle: an order of all nine ids; when the deck runs out the first time, the cards
    /// then in the market form the new deck in this order (top first).
    pub reshuffle: Vec<u8>,
    /// The dice of each turn.
    pub dice: Vec<[u8; 2]>,
    /// How much of it the table has seen: `None` for a whole instance (from a seed, or written
    /// out in full); otherwise the rest of `deck`, `reshuffle` and `dice` is the blind
    /// completion, written to no file.
    pub seen: Option<Seen>,
}

/// How much of an instance the table has seen: the first `deck` cards of the deck (the first
/// starts the market, the next is the deck's top), the first `reshuffle` cards of the reshuffled
/// deck as they came up, and the rolls of the first `dice` turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// Cards of the first deck seen, in order from its top.
    pub deck: usize,
    /// Cards of the reshuffled deck seen, in the order they came up.
    pub reshuffle: usize,
    /// Turns whose roll was seen.
    pub dice: usize,
}

impl Seen {
    /// Whether `self` holds no more than `other` of each part.
    pub fn within(&self, other: &Seen) -> bool {
        self.deck <= other.deck && self.reshuffle <= other.reshuffle && self.dice <= other.dice
    }
}

/// An instance as a file writes it: the seen parts only, for a table instance.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct InstanceFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    board: u8,
    #[serde(default)]
    deck: Vec<u8>,
    #[serde(default)]
    reshuffle: Vec<u8>,
    #[serde(default)]
    dice: Vec<[u8; 2]>,
}

impl TryFrom<InstanceFile> for Instance {
    type Error = String;

    fn try_from(f: InstanceFile) -> Result<Instance, String> {
        Instance::table(f.seed, f.board, &f.deck, &f.reshuffle, &f.dice)
    }
}

impl From<Instance> for InstanceFile {
    fn from(i: Instance) -> InstanceFile {
        let seen = i.seen();
        InstanceFile {
            seed: i.seed,
            board: i.board,
            deck: i.deck[..seen.deck.min(i.deck.len())].to_vec(),
            reshuffle: i.reshuffle[..seen.reshuffle.min(i.reshuffle.len())].to_vec(),
            dice: i.dice[..seen.dice.min(i.dice.len())].to_vec(),
        }
    }
}

impl Instance {
    /// The instance a seed fixes.
    pub fn from_seed(seed: u64) -> Instance {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let board = rng.random_range(1..=CARDS as u8);
        let mut deck: Vec<u8> = (1..=CARDS as u8).filter(|&c| c != board).collect();
        deck.shuffle(&mut rng);
        let mut reshuffle: Vec<u8> = (1..=CARDS as u8).collect();
        reshuffle.shuffle(&mut rng);
        let dice = (0..MAX_TURNS).map(|_| [rng.random_range(1..=6u8), rng.random_range(1..=6u8)]).collect();
        Instance { seed: Some(seed), board, deck, reshuffle, dice, seen: None }
    }

    /// An instance from what was seen: the board card, the deck's cards as they came up (top
    /// first; the first starts the market), the reshuffled deck's cards as they came up, the
    /// rolls so far. Where all of it is given (the deck's eight cards, an order of all nine for
    /// the reshuffle, [`MAX_TURNS`] rolls or more) it is a whole instance; otherwise a table
    /// instance, completed blindly (see the module's documentation). Refused, with the field:
    /// an id that is not a card 1 to 9, the board card in the deck or coming up after the
    /// reshuffle, a card twice, a die outside 1 to 6.
    pub fn table(
        seed: Option<u64>,
        board: u8,
        deck: &[u8],
        reshuffle: &[u8],
        dice: &[[u8; 2]],
    ) -> Result<Instance, String> {
        let n = CARDS as u8;
        if !(1..=n).contains(&board) {
            return Err(format!("board: {board} is not a card id 1 to 9"));
        }
        let distinct = |field: &str, cards: &[u8], board_allowed: bool| -> Result<(), String> {
            let mut seen = 0u16;
            for (i, &c) in cards.iter().enumerate() {
                if !(1..=n).contains(&c) {
                    return Err(format!("{field}[{i}]: {c} is not a card id 1 to 9"));
                }
                if c == board && !board_allowed {
                    return Err(format!("{field}[{i}]: card {c} is the board; it never comes up"));
                }
                if seen >> c & 1 == 1 {
                    return Err(format!("{field}[{i}]: card {c} came up before; each card once"));
                }
                seen |= 1 << c;
            }
            Ok(())
        };
        distinct("deck", deck, false)?;
        if deck.len() > CARDS - 1 {
            return Err(format!("deck: {} cards; the deck holds the eight cards other than the board", deck.len()));
        }
        let whole_reshuffle = reshuffle.len() == CARDS;
        distinct("reshuffle", reshuffle, whole_reshuffle)?;
        if let Some((t, d)) = dice.iter().enumerate().find(|(_, d)| d.iter().any(|x| !(1..=6).contains(x))) {
            return Err(format!("dice[{t}]: {d:?} has a die outside 1 to 6"));
        }
        if deck.len() == CARDS - 1 && whole_reshuffle && dice.len() >= MAX_TURNS {
            return Ok(Instance {
                seed,
                board,
                deck: deck.to_vec(),
                reshuffle: reshuffle.to_vec(),
                dice: dice.to_vec(),
                seen: None,
            });
        }
        let seen = Seen { deck: deck.len(), reshuffle: reshuffle.len(), dice: dice.len() };
        let rest = |given: &[u8], with_board: bool| -> Vec<u8> {
            let mut all = given.to_vec();
            all.extend((1..=n).filter(|c| (with_board || *c != board) && !given.contains(c)));
            all
        };
        let mut full_dice = dice.to_vec();
        full_dice.resize(dice.len().max(MAX_TURNS), [1, 1]);
        Ok(Instance {
            seed,
            board,
            deck: rest(deck, false),
            reshuffle: rest(reshuffle, true),
            dice: full_dice,
            seen: Some(seen),
        })
    }

    /// What the table has seen of it (everything, for a whole instance).
    pub fn seen(&self) -> Seen {
        self.seen.unwrap_or(Seen { deck: self.deck.len(), reshuffle: self.reshuffle.len(), dice: self.dice.len() })
    }

    /// Whether this is a table instance (some of it was never seen).
    pub fn is_table(&self) -> bool {
        self.seen.is_some()
    }

    /// Whether a seed dealt it: it names its seed and is exactly that seed's deal, so the
    /// future it holds is the seed's, not a guess. Only such a game is reviewed knowing the
    /// future (the hindsight values); of any other only what the table saw is used.
    pub fn is_dealt(&self) -> bool {
        self.seed.is_some_and(|seed| *self == Instance::from_seed(seed))
    }

    /// Checks an instance read from a file: ids 1 to 9, the deck is the other eight cards, the
    /// reshuffle all nine, dice 1 to 6, enough turns.
    pub fn check(&self) -> Result<(), String> {
        let ids = |v: &[u8]| {
            let mut s = v.to_vec();
            s.sort_unstable();
            s
        };
        if !(1..=CARDS as u8).contains(&self.board) {
            return Err(format!("board: {} is not a card id 1 to 9", self.board));
        }
        let others: Vec<u8> = (1..=CARDS as u8).filter(|&c| c != self.board).collect();
        if ids(&self.deck) != others {
            return Err(format!("deck: must hold the eight cards other than the board ({others:?}), once each"));
        }
        if ids(&self.reshuffle) != (1..=CARDS as u8).collect::<Vec<_>>() {
            return Err("reshuffle: must order all nine card ids, once each".into());
        }
        if let Some((t, d)) = self.dice.iter().enumerate().find(|(_, d)| d.iter().any(|x| !(1..=6).contains(x))) {
            return Err(format!("dice[{t}]: {d:?} has a die outside 1 to 6"));
        }
        if self.dice.len() < MAX_TURNS {
            return Err(format!("dice: {} turns of dice; a game can last {MAX_TURNS}", self.dice.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_a_legal_instance_and_always_the_same() {
        for seed in 0..200 {
            let a = Instance::from_seed(seed);
            assert_eq!(a.check(), Ok(()));
            assert_eq!(a, Instance::from_seed(seed));
        }
        assert_ne!(Instance::from_seed(1), Instance::from_seed(2));
    }

    /// Golden seeds: these instances are forever.
    #[test]
    fn golden_seeds() {
        let text: Vec<String> = [1u64, 2, 3, 42, 1000]
            .iter()
            .map(|&s| {
                let i = Instance::from_seed(s);
                let all = i.dice.iter().fold(0u64, |h, d| h.wrapping_mul(31).wrapping_add(u64::from(d[0] * 7 + d[1])));
                format!(
                    "{s}: board {} deck {:?} reshuffle {:?} dice {:?}.. #{all:x}",
                    i.board,
                    i.deck,
                    i.reshuffle,
                    &i.dice[..3]
                )
            })
            .collect();
        let pinned = [
            "1: board 5 deck [2, 8, 1, 7, 9, 4, 3, 6] reshuffle [8, 2, 5, 4, 6, 3, 9, 7, 1] dice [[2, 4], [3, 2], [5, 2]].. #dc82eb8ac9bc42a5",
            "2: board 2 deck [6, 3, 9, 5, 8, 1, 4, 7] reshuffle [6, 4, 2, 9, 3, 8, 7, 5, 1] dice [[4, 1], [5, 2], [6, 2]].. #72d3e7d8dd4abd6",
            "3: board 1 deck [3, 4, 2, 6, 7, 8, 9, 5] reshuffle [3, 5, 9, 4, 2, 1, 8, 7, 6] dice [[2, 5], [1, 5], [4, 2]].. #b48c3377d0326186",
            "42: board 3 deck [1, 6, 8, 5, 2, 7, 4, 9] reshuffle [8, 3, 9, 7, 4, 6, 2, 5, 1] dice [[6, 5], [3, 3], [4, 5]].. #48ae3d83c85bc7f2",
            "1000: board 3 deck [7, 4, 8, 6, 2, 9, 5, 1] reshuffle [7, 5, 2, 9, 3, 4, 1, 8, 6] dice [[4, 5], [6, 3], [2, 6]].. #a19013565796050c",
        ];
        assert_eq!(text, pinned, "{text:#?}");
    }
}
