//! A deliberately naive fair-play value, the reference the fair-play solver ([`super::fair`]) is
//! tested against on shortened games (ruling G1) and small decks (ruling G2).
//!
//! The fair-play value of a position is the expected final score under the best play when the
//! dice still to roll are uniform ("Gameplay": "roll both dice") and the cards the player cannot
//! see come in a uniformly random order: the deck below its top card ("Setup", "Create Market":
//! only the top card of the deck is in the market; [`Game::hidden`]) and, when the deck runs out
//! the first time, the order of the reshuffle ("End of Turn": "reshuffle all market cards").
//!
//! Naive means that it shares none of the solver's narrowings:
//!
//! - **Moves.** Every move a record can write ([`Move::every`]) that [`Game::check`] allows, one
//!   move at a time: each die use with the free shift taken (`Some(true)`) and paid for
//!   (`Some(false)`) (ruling A8; left unsaid, a move is one of these two), both dice of a
//!   double (ruling A9), and no merging of a turn's lines by the position they reach. The value
//!   of a decision is the best over these moves.
//! - **Chance.** Whenever a move ends a turn (the turn count goes up, or the game ends), the
//!   game's own future is not used: the value is the average over *every* permutation of the
//!   hidden cards of the position before the move (each passed to [`Game::rebind`] before the
//!   move is replayed); if that turn's end reshuffles, over every order of the cards then in the
//!   market piles (instances differing in `reshuffle` only: the place of the board and the
//!   tucked cards in that order changes nothing, Y2 and Y3); and then, unless the game is over,
//!   over all 36 *ordered* rolls of the next turn ([`Game::set_roll`]). After the start space
//!   ("Setup") no card moves: only the 36 rolls of the first turn. A game over scores its total
//!   ("End of Game").
//! - **No bound, no pruning, no dominance.** The only shortcut is a memo, and it is keyed by a
//!   complete description of what the player has seen: [`Game::key`] (the board, cubes,
//!   workers, turn, dice, choices open, the piles' and tucked cards as sets) together with the
//!   deck's size, the deck's top card, the discard in order and the tucked cards in order. The
//!   value of a position does not depend on the order of the hidden cards or on the future
//!   dice (every turn's end averages over all of them afresh), so two positions alike in all
//!   that is seen have the same value; the memo only saves recomputing it. A second memo of the
//!   same kind holds the average over the 36 rolls of a turn's start whose roll is not yet
//!   made (its key holds the dice the game had before the roll was set, a placeholder: that
//!   only makes the key finer).
//!
//! The work grows with the factorial of the hidden cards and about 36 times the positions of a
//! turn per turn: for games of one to three turns, or with few cards in the deck
//! (`Rules::tucked_at_start`).

use rustc_hash::FxHashMap as HashMap;
use signalbox_engine::coe::instance::MAX_TURNS;
use signalbox_engine::coe::{Game, Instance, Move};

use super::naive::asked;

/// Everything the player has seen of a position (see the module's comment): the engine's key;
/// the deck's size, its top card and the discard in order (4 bits a card, the top last); and
/// the tucked cards in order (4 bits a card), each after a leading 1 so that the packing is
/// one to one. Card ids are 1 to 9 and a pile holds at most 9.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Seen {
    key: u128,
    piles: u64,
    tucked: u64,
}

impl Seen {
    fn of(game: &Game<'_>) -> Seen {
        let pack = |start: u64, cards: &[u8]| cards.iter().fold(start, |x, &c| x << 4 | u64::from(c));
        let deck = game.deck();
        let head = (1 << 4 | deck.len() as u64) << 4 | u64::from(deck.last().copied().unwrap_or(0));
        Seen { key: game.key(), piles: pack(head, game.discard()), tucked: pack(1, game.tucked()) }
    }
}

/// The two memos, both keyed by what is seen.
#[derive(Default)]
struct Memo {
    /// The value of a position where the player is to move.
    to_move: HashMap<Seen, f64>,
    /// The average over the 36 rolls of a turn's start not yet rolled.
    to_roll: HashMap<Seen, f64>,
}

/// The naive fair-play value of `game`, a position where the player is to move: a turn's start
/// with its dice rolled, the middle of a turn (a die left or an effect's choice open), a game not
/// started (the start space to choose, then the first roll), or a game over (its score). See
/// the module's comment for what is averaged and what is maximised.
pub fn expected(game: &Game<'_>) -> f64 {
    value(game, &mut Memo::default())
}

/// The naive fair-play value after `mv` is played from `game` (a legal move of a position
/// where the player is to move): over every future the module's comment describes when `mv` ends
/// a turn, else the value of the position it leads to.
pub fn expected_after(game: &Game<'_>, mv: Move) -> f64 {
    after(game, mv, &mut Memo::default())
}

/// The best over the legal moves of the expected value after each.
fn value(game: &Game<'_>, memo: &mut Memo) -> f64 {
    if game.is_over() {
        return f64::from(game.score().total());
    }
    let seen = Seen::of(game);
    if let Some(&v) = memo.to_move.get(&seen) {
        return v;
    }
    let mut best: Option<f64> = None;
    for mv in asked(game).into_iter().flatten().copied() {
        if game.check(mv).is_err() {
            continue;
        }
        let v = after(game, mv, memo);
        best = Some(best.map_or(v, |b: f64| b.max(v)));
    }
    // A game not over always has a legal move (the engine's playouts test it).
    let v = best.unwrap_or_else(|| f64::from(game.score().total()));
    memo.to_move.insert(seen, v);
    v
}

/// A placeholder future for `board`: the reshuffle `reshuffle` (an order of all nine ids) and
/// every die a 1 (each turn's roll is set by [`rolled`]). Its deck is never dealt from:
/// [`Game::rebind`] takes the deck from the order it is given.
fn instance(board: u8, reshuffle: Vec<u8>) -> Instance {
    let deck = (1..=9u8).filter(|&c| c != board).collect();
    Instance { seed: None, board, deck, reshuffle, dice: vec![[1, 1]; MAX_TURNS], seen: None }
}

/// Every permutation of `cards`.
fn permutations(cards: &[u8]) -> Vec<Vec<u8>> {
    if cards.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for i in 0..cards.len() {
        let mut rest = cards.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.push(first);
            out.push(tail);
        }
    }
    out
}

/// The expected value after `mv` from `game`.
fn after(game: &Game<'_>, mv: Move, memo: &mut Memo) -> f64 {
    let mut next = game.clone();
    next.play_unchecked(mv);
    if !game.is_started() {
        // The start space: no card moves; the first turn's roll comes ("Gameplay").
        return rolled(&next, memo);
    }
    if !next.is_over() && next.turn() == game.turn() {
        return value(&next, memo);
    }
    // The turn ends: every order of the hidden cards ("End of Turn": the deck's top card moves
    // to the discard and the next one comes up), and every reshuffle order if the deck runs out.
    let board = game.board_card();
    let plain = instance(board, (1..=9).collect());
    let orders = permutations(game.hidden());
    let mut total = 0.0;
    for order in &orders {
        let Ok(mut g) = game.rebind(&plain, order) else { continue };
        g.play_unchecked(mv);
        if !g.is_reshuffled() || game.is_reshuffled() {
            total += rolled(&g, memo);
            continue;
        }
        // The cards then in the market piles (not the board, not tucked) form the new deck in
        // the reshuffle's order (rulings Y2, Y3); the other cards' places in it change nothing.
        let pile: Vec<u8> = (1..=9u8).filter(|&c| c != board && !g.tucked().contains(&c)).collect();
        let others: Vec<u8> = (1..=9u8).filter(|c| !pile.contains(c)).collect();
        let shuffles = permutations(&pile);
        let mut sum = 0.0;
        for shuffle in shuffles.iter() {
            let future = instance(board, shuffle.iter().chain(&others).copied().collect());
            let Ok(mut g) = game.rebind(&future, order) else { continue };
            g.play_unchecked(mv);
            sum += rolled(&g, memo);
        }
        total += sum / shuffles.len() as f64;
    }
    total / orders.len() as f64
}

/// The value of a turn's start before its roll: the average over the 36 ordered rolls (each
/// set with [`Game::set_roll`]) of the value with that roll; a game over scores its total.
fn rolled(game: &Game<'_>, memo: &mut Memo) -> f64 {
    if game.is_over() {
        return f64::from(game.score().total());
    }
    let seen = Seen::of(game);
    if let Some(&v) = memo.to_roll.get(&seen) {
        return v;
    }
    let (mut total, mut n) = (0.0, 0u32);
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            let mut g = game.clone();
            // A turn's start of a game started and not over: every roll is accepted.
            if g.set_roll([a, b]).is_ok() {
                total += value(&g, memo);
                n += 1;
            }
        }
    }
    let v = if n == 0 { f64::from(game.score().total()) } else { total / f64::from(n) };
    memo.to_roll.insert(seen, v);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_all_the_orders() {
        let p = permutations(&[1, 2, 3, 4]);
        assert_eq!(p.len(), 24);
        let mut q = p.clone();
        q.sort();
        q.dedup();
        assert_eq!(q.len(), 24);
        assert_eq!(permutations(&[]), vec![Vec::<u8>::new()]);
    }
}
