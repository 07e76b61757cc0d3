//! Whole-game positions for tests and benchmarks: the turn starts of self-played games, and the
//! same positions cut down (hands, shares, the black engine) to a size a naive search finishes.
//! Every card stays in the game: what is cut goes to the bottom of its deck, so a cut position is
//! as legal as the one it came from.

use signalbox_engine::express01::card::CardNumber;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Phase};
use signalbox_engine::express01::position::{Position, PositionSetup, deck_names};
use signalbox_engine::express01::record::StartSetup;
use signalbox_engine::express01::round::Length;

use super::selfplay::{MAX_ROUNDS, Policy, play_out, policy_rng};

/// Every turn start of the game self-played by `policy` from the seed's new game, as positions.
pub fn turn_starts(
    catalogue: &Catalogue,
    map: &str,
    seed: u64,
    players: usize,
    length: Length,
    policy: Policy,
) -> Vec<PositionSetup> {
    let names = ["A", "B", "C", "D"][..players.clamp(1, 4)].iter().map(|s| s.to_string()).collect();
    let start = StartSetup::new(map, seed, names, length);
    let Ok(setup) = start.position(catalogue) else { return Vec::new() };
    let Ok(position) = Position::from_setup(setup, catalogue) else { return Vec::new() };
    let Ok(mut game) = Game::from_position(&position) else { return Vec::new() };
    let mut starts = Vec::new();
    play_out(&mut game, policy, &mut policy_rng(seed), MAX_ROUNDS, &mut |g, _| {
        if *g.phase() == Phase::Pair {
            starts.push(g.to_setup());
        }
    });
    starts
}

/// What [`cut`] keeps of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Cards kept in each hand (the lowest numbers; the rest go to their decks).
    pub hand: usize,
    /// Whether the black engine stays (otherwise it counts as used this round).
    pub engine: bool,
    /// Whether the player to move keeps their shares (without them they cannot start a bonus
    /// payment, whose draws multiply a naive search's work).
    pub mover_shares: bool,
    /// Shares kept by each player (the lowest numbers; `None`: all).
    pub shares: Option<usize>,
}

/// `setup` cut down as `cut` says; `mover` is the seat to move.
pub fn cut(catalogue: &Catalogue, mut setup: PositionSetup, mover: usize, cut: Cut) -> PositionSetup {
    if !cut.engine && setup.black_engine.take().is_some() {
        setup.black_engine_used = true;
    }
    let kinds: Vec<_> = catalogue.maps.iter().flat_map(|m| deck_names(&m.kinds)).collect();
    let mut to_decks: Vec<u16> = Vec::new();
    for (seat, p) in setup.players.iter_mut().enumerate() {
        p.hand.sort_unstable();
        to_decks.extend(p.hand.drain(cut.hand.min(p.hand.len())..));
        let keep = if seat == mover && !cut.mover_shares { 0 } else { cut.shares.unwrap_or(usize::MAX) };
        if keep < p.shares.len() {
            to_decks.extend(p.shares.drain(keep..));
            p.share_counts = None;
        }
    }
    if let Some(decks) = setup.decks.as_mut() {
        for n in to_decks {
            let Some(card) = catalogue.card(CardNumber(n)) else { continue };
            let Some((name, _)) = kinds.iter().find(|(_, (k, st))| *k == card.kind && *st == card.stage) else {
                continue;
            };
            // Positions list decks top first: the card goes under the deck.
            decks.entry(name.to_string()).or_default().push(n);
        }
    }
    setup
}

/// The turn starts of the last round of the game [`turn_starts`] plays (random policy): from the
/// turn that reached the end on (its start has the end not yet reached: its mover can reach
/// it), and with `before` the round's earlier turn starts too (there the mover may not reach it).
pub fn last_round_starts(
    catalogue: &Catalogue,
    map: &str,
    seed: u64,
    players: usize,
    before: bool,
) -> Vec<PositionSetup> {
    let starts = turn_starts(catalogue, map, seed, players, Length::Short, Policy::Random);
    let Some(last) = starts.last().map(|s| s.round) else { return Vec::new() };
    let starts: Vec<PositionSetup> = starts.into_iter().filter(|s| s.round == last).collect();
    // The turn that reached the end: the last start without it.
    let reaching = starts.iter().rposition(|s| !s.end_reached);
    starts.into_iter().enumerate().filter(|(i, _)| before || reaching.is_none_or(|r| *i >= r)).map(|(_, s)| s).collect()
}

/// The game of a position, if it is a legal whole game.
pub fn game_of<'c>(catalogue: &'c Catalogue, setup: PositionSetup) -> Option<Game<'c>> {
    let position = Position::from_setup(setup, catalogue).ok()?;
    Game::from_position(&position).ok()
}

/// The embedded sample of `express01 advise`: round 7 of a greedy self-played 3-player short game
/// on the Germany map (seed 1), the first player to move with seven cards in hand.
/// Regenerated and compared by a test (`tests/cli_express01_advise.rs`).
pub fn advice_sample(catalogue: &Catalogue) -> Option<PositionSetup> {
    turn_starts(catalogue, "germany", 1, 3, Length::Short, Policy::Greedy).into_iter().nth(18)
}

/// The last-round position of the `express01 advise` tests: the turn start of a greedy
/// self-played 3-player short Germany game (seed 6) where the end has just been reached and two
/// players still move, every hand cut to nothing (the search of a whole last round with cards in hand is slow, see
/// `reports/performance.md`).
pub fn last_round_sample(catalogue: &Catalogue) -> Option<PositionSetup> {
    let setup = turn_starts(catalogue, "germany", 6, 3, Length::Short, Policy::Greedy).into_iter().nth(7)?;
    let mover = game_of(catalogue, setup.clone())?.mover();
    Some(cut(catalogue, setup, mover, Cut { hand: 0, engine: true, mover_shares: true, shares: None }))
}

/// The small positions of the best-turn agreement test and bench: turn starts of random and
/// greedy self-played short games on both maps (2 and 3 players, seeds from 1), every third
/// one, cut to hands of at most one card, the mover's shares taken away on boards with more than
/// three stations, the black engine kept in a third of them. The first `count`.
pub fn agreement_positions(catalogue: &Catalogue, count: usize) -> Vec<Game<'_>> {
    let mut out = Vec::new();
    let mut seed = 0u64;
    while out.len() < count {
        seed += 1;
        let map = if seed.is_multiple_of(2) { "usa" } else { "germany" };
        let players = 2 + (seed % 2) as usize;
        let policy = if seed.is_multiple_of(3) { Policy::Greedy } else { Policy::Random };
        for (i, setup) in turn_starts(catalogue, map, seed, players, Length::Short, policy).into_iter().enumerate() {
            if out.len() >= count || i % 3 != (seed % 3) as usize {
                continue;
            }
            let Some(full) = game_of(catalogue, setup.clone()) else { continue };
            let stations: usize =
                full.board().iter().filter_map(|p| catalogue.card(p.card)).map(|c| c.stations.len()).sum();
            let shape = Cut {
                hand: usize::from(i % 4 != 0),
                engine: (seed + i as u64).is_multiple_of(3),
                mover_shares: stations <= 3,
                shares: None,
            };
            out.extend(game_of(catalogue, cut(catalogue, setup, full.mover(), shape)));
        }
    }
    out
}
