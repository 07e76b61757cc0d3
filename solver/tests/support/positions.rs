//! Random Cube Express positions for the planner tests: a few random turns into a game, then
//! shaken (cubes conserved) so that trades, deliveries, `$` spaces, the stock maximum, an empty
//! reserve, full objective cards, both locomotives built and storage past its limit all come up.

#![allow(dead_code)]

use std::sync::Arc;

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::{Game, Phase, State};
use signalbox_engine::cube_express::options::{CrossingDividends, Options, Passengers, StationPayment};
use signalbox_engine::cube_express::position::from_state;
use signalbox_engine::cube_express::resource::Resource;

/// How hard the positions are.
#[derive(Clone, Copy)]
pub struct Shake {
    /// Most random turns before the position.
    pub turns: u32,
    /// Most resources moved from the reserve into storage.
    pub resources: u8,
    /// Lays tried per position.
    pub lays: usize,
    /// Plans an enumeration may value before it counts as cut short.
    pub plans: u64,
    /// Also the kinds of position the best-turn search narrows: both locomotives built, storage
    /// filled to its limit.
    pub narrowed: bool,
}

/// A position a few random turns into a game, then shaken: resources, dividends, stock and
/// objective cubes moved about (cubes conserved), so that trades, deliveries, `$` spaces, the
/// stock maximum, an empty reserve and full objective cards all come up.
pub fn random_position(content: &Arc<Content>, rng: &mut ChaCha8Rng, shake: Shake) -> Option<Game> {
    // One player: the solitaire game (no market, no objective cards).
    let players = rng.random_range(1..=4usize);
    let turns = rng.random_range(0..=shake.turns);
    // Every rule option comes up (the regressions were found under both station payments and
    // with passengers on and off).
    let options = Options {
        station_payment: if rng.random_bool(0.5) {
            StationPayment::DividendsAndResources
        } else {
            StationPayment::DividendsOnly
        },
        passengers: if rng.random_bool(0.5) { Passengers::StationCities } else { Passengers::Off },
        crossing_dividends: if rng.random_bool(0.5) {
            CrossingDividends::AllTracks
        } else {
            CrossingDividends::JoinedTracks
        },
    };
    let game = Game::after_random_turns(content.clone(), players, rng.random(), turns, options).ok()?;
    if game.is_over() || game.phase() != Phase::Lay {
        return None;
    }
    shaken(content, game.state(), rng, shake)
}

/// The position `s` shaken: resources, dividends, stock and objective cubes of the player to
/// move moved about, cubes conserved.
pub fn shaken(content: &Arc<Content>, mut s: State, rng: &mut ChaCha8Rng, shake: Shake) -> Option<Game> {
    let players = s.players.len();
    let seat = usize::from(s.active);
    let p = &mut s.players[seat];
    for _ in 0..rng.random_range(0..=shake.resources) {
        if p.reserve > 0 {
            p.reserve -= 1;
            let r = *[Resource::Coal, Resource::Wood, Resource::Iron].choose(rng)?;
            *p.store.get_mut(r) += 1;
        }
    }
    if shake.narrowed && p.locomotives[1].is_none() && rng.random_bool(0.3) {
        // Both locomotives built: the second at one of the player's stations (each player has
        // one on their start tile).
        let stations: Vec<_> = s.board.iter().filter(|t| t.station == Some(seat as u8)).map(|t| t.cell).collect();
        p.locomotives[1] = Some(*stations.choose(rng)?);
    }
    if shake.narrowed && rng.random_bool(0.25) {
        // Storage filled to its limit (past it where the comparison takes larger positions), two
        // wood or two iron among it: a pickup then forces a discard that a conversion with a
        // dividend can save.
        let limit = content.levels.get(usize::from(p.built)).or(content.levels.last()).copied()?;
        let pair = *[Resource::Wood, Resource::Iron].choose(rng)?;
        let past = if shake.resources >= 4 { rng.random_range(0..=2u8) } else { 0 };
        while p.reserve > 0 && (p.store.get(pair) < 2 || p.store.total() < limit + past) {
            let r = if p.store.get(pair) < 2 {
                pair
            } else {
                *[Resource::Coal, Resource::Wood, Resource::Iron].choose(rng)?
            };
            p.reserve -= 1;
            *p.store.get_mut(r) += 1;
        }
    }
    if rng.random_bool(0.2) {
        // A nearly empty reserve.
        let keep = rng.random_range(0..=3);
        let moved = p.reserve.saturating_sub(keep);
        p.reserve -= moved;
        p.dividends += moved;
    }
    if rng.random_bool(0.3) {
        let track = content.stock(players).clone();
        // Half the time within four spaces of the maximum, where rises are cut short.
        let low = if rng.random_bool(0.5) { p.stock.max(track.max().saturating_sub(4)) } else { p.stock };
        let target = rng.random_range(low..=track.max());
        for (i, &d) in track.dollars.iter().enumerate() {
            if d <= target && p.dollars[i] {
                p.dollars[i] = false;
                p.dividends += 1;
            }
        }
        p.stock = target;
        p.reached_max |= target == track.max();
    }
    if players > 1 && rng.random_bool(0.2) {
        for c in 0..4 {
            let n = rng.random_range(0..=5u8).min(p.reserve);
            p.reserve -= n;
            s.cubes[c][seat] += n;
        }
    }
    from_state(content.clone(), &s).ok()
}

/// Whether some legal lay of the player to move joins two or more cities into one.
pub fn a_lay_joins_cities(game: &Game) -> bool {
    let before = game.board().cities().houses.len();
    game.legal_lays().into_iter().any(|lay| {
        let mut g = game.clone();
        g.apply_in_place(&signalbox_engine::cube_express::action::Action::Lay(lay)).is_ok()
            && g.board().cities().houses.len() < before
    })
}

/// A position with a lay that joins two cities: `base` (such a position) shaken, its hand kept.
pub fn city_joining_position(content: &Arc<Content>, base: &Game, rng: &mut ChaCha8Rng, shake: Shake) -> Option<Game> {
    let game = shaken(content, base.state(), rng, shake)?;
    a_lay_joins_cities(&game).then_some(game)
}
