//! Express 01's legal steps against the naive reference (`naive_game::naive_legal`): on
//! positions of self-played games (both maps, 2 to 4 players, the random and the greedy policy,
//! every part of a turn), the games reached by the steps of `Game::legal` are exactly the games
//! reached by every step `Game::check` accepts (among them builds of a card with a face-up copy
//! just above a face-down one); each listed step passes `check` and leads to a game of its own;
//! and a step `check` refuses leaves the game unchanged when played.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Step};
use signalbox_engine::express01::record::StartSetup;
use signalbox_engine::express01::round::Length;
use signalbox_solver::express01::naive_game::{
    StateKey, every_step, naive_legal, outcome, phase_kind, selfplay_positions, state_key, straddles,
};
use signalbox_solver::express01::selfplay::{BestRoute, Policy};

/// Positions kept per part of the turn and game.
const PER_KIND: usize = 2;

/// The sampled positions, labelled by their game.
fn positions(catalogue: &Catalogue) -> Vec<(String, Game<'_>)> {
    let mut out = Vec::new();
    for map in ["germany", "usa"] {
        for players in 2..=4usize {
            for (policy, seed) in [(Policy::Random, 1u64), (Policy::Greedy, 2)] {
                let seed = seed + 10 * players as u64;
                let names = (0..players).map(|p| format!("P{p}")).collect();
                let start = StartSetup::new(map, seed, names, Length::Short);
                let label = format!("{map}, {players} players, {}, seed {seed}", policy.name());
                let games = selfplay_positions(catalogue, &start, policy, PER_KIND).expect("a new game");
                out.extend(games.into_iter().map(|g| (label.clone(), g)));
            }
        }
    }
    // A long game on the USA map, which reaches the West (the bonus of the expansion's rule b).
    let start = StartSetup::new("usa", 3, (0..3).map(|p| format!("P{p}")).collect(), Length::Long);
    let games = selfplay_positions(catalogue, &start, Policy::Random, PER_KIND).expect("a new game");
    out.extend(games.into_iter().map(|g| ("usa, 3 players, long, random, seed 3".to_string(), g)));
    out
}

/// The game a step leads to, by key, with the step (the first of equals).
fn reached(game: &Game<'_>, steps: &[Step]) -> HashMap<StateKey, Step> {
    let mut out = HashMap::new();
    for &s in steps {
        out.entry(outcome(game, s)).or_insert(s);
    }
    out
}

#[test]
fn legal_steps_reach_the_games_every_checked_step_reaches() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    let all = positions(&catalogue);
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut straddled: BTreeMap<&str, usize> = BTreeMap::new();
    for (label, game) in &all {
        let kind = phase_kind(game);
        *kinds.entry(kind).or_default() += 1;
        if straddles(game) {
            *straddled.entry(kind).or_default() += 1;
        }
        let at = format!("{label}, round {}, turn {}, {kind} ({})", game.round(), game.turn(), game.expecting());
        assert!(game.problems().is_empty(), "{at}: {:?}", game.problems());
        let legal = game.legal(&referee);
        for &s in &legal {
            assert!(game.check(s, &referee).is_ok(), "{at}: legal step {s:?} refused: {:?}", game.check(s, &referee));
        }
        let fast = reached(game, &legal);
        assert_eq!(fast.len(), legal.len(), "{at}: two legal steps lead to the same game: {legal:?}");
        let slow = reached(game, &naive_legal(game, &referee));
        let missing: BTreeSet<String> =
            slow.iter().filter(|(k, _)| !fast.contains_key(*k)).map(|(_, s)| game.describe(*s)).collect();
        let extra: BTreeSet<String> =
            fast.iter().filter(|(k, _)| !slow.contains_key(*k)).map(|(_, s)| game.describe(*s)).collect();
        assert!(missing.is_empty() && extra.is_empty(), "{at}: not listed {missing:?}; listed, not legal {extra:?}");
        if !game.is_over() {
            assert!(!legal.is_empty(), "{at}: no legal step before the end");
        }
    }
    // Every part of a turn was met, so none went untested.
    for kind in [
        "pair",
        "expand-spent",
        "expand-fresh",
        "expand-one-route",
        "expand-west",
        "shares",
        "buying",
        "taking-decks",
        "taking-player",
        "bonus",
        "paying",
        "order",
        "over",
    ] {
        assert!(kinds.contains_key(kind), "no position in part {kind}; met {kinds:?}");
    }
    // And a build where one copy per run of equal cards must stop at the face-up boundary.
    assert!(straddled.keys().any(|k| k.starts_with("expand")), "no build across a face-up boundary: {straddled:?}");
}

#[test]
fn a_refused_step_leaves_the_game_unchanged() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    let mut refused = 0usize;
    for (label, game) in positions(&catalogue).iter().step_by(5) {
        let before = state_key(game);
        // Every 97th step written out: each kind of step, refused for many reasons.
        for s in every_step(game).into_iter().step_by(97) {
            if game.check(s, &referee).is_ok() {
                continue;
            }
            refused += 1;
            let mut g = game.clone();
            assert!(g.play(s, &referee).is_err(), "{label}: {s:?}");
            assert_eq!(state_key(&g), before, "{label}: refused {s:?} changed the game");
            assert_eq!(g.seats(), game.seats(), "{label}: refused {s:?} changed a hand or shares");
            assert_eq!(g.decks(), game.decks(), "{label}: refused {s:?} changed a deck");
        }
    }
    assert!(refused > 1000, "only {refused} refused steps tried");
}
