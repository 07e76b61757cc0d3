//! A player that follows a minimum link plan ([`super::link::min_link`]): each turn it plans,
//! pairs the dice the way that builds more of the plan, spends a cube on re-rolling the terrain
//! dice when neither pairing builds anything, builds the plan's tiles as the slots allow, and
//! ends the turn. Used to play games out and to estimate the odds ([`super::odds`]).

use rand::Rng;
use rand::RngExt;
use signalbox_engine::railways::dice::{Die, Roll};
use signalbox_engine::railways::game::{Action, Game, Illegal, Phase};

use super::link::{LinkPlan, min_link};

/// The builds of `plan` the player to move can make now with the paired dice, in order: each
/// time the first tile of the plan not yet built that the rules allow with a slot left.
fn builds(game: &Game, plan: &LinkPlan) -> Vec<Action> {
    let mut g = game.clone();
    let mut out = Vec::new();
    let mut left: Vec<_> = plan.tiles.clone();
    'next: loop {
        for (i, &(hex, ends)) in left.iter().enumerate() {
            for slot in 0..4u8 {
                let action = Action::Build { hex, ends, slot };
                if g.apply(&action).is_ok() {
                    out.push(action);
                    left.remove(i);
                    continue 'next;
                }
            }
        }
        return out;
    }
}

/// The tiles of `plan` the dice `roll` would build with pairing `crossed`.
fn with_pairing(game: &Game, plan: &LinkPlan, crossed: bool) -> Vec<Action> {
    let mut g = game.clone();
    if g.apply(&Action::Pair { crossed }).is_err() {
        return Vec::new();
    }
    builds(&g, plan)
}

/// Plays one turn of the player to move from its start (the dice drawn from `rng`): the actions
/// played, or the one the engine refused (a bug, reported rather than hidden).
pub fn play_turn<R: Rng + ?Sized>(game: &mut Game, rng: &mut R) -> Result<Vec<Action>, (Action, Illegal)> {
    let mut actions = Vec::new();
    let play = |game: &mut Game, action: Action, actions: &mut Vec<Action>| {
        game.apply(&action).map_err(|e| (action.clone(), e))?;
        actions.push(action);
        Ok(())
    };
    if game.phase() == Phase::Roll {
        play(game, Action::Roll { roll: Roll::random(&game.content().dice, rng) }, &mut actions)?;
    }
    let seat = game.active();
    let colour = game.players()[seat].colour;
    let plan = min_link(game, colour).map(|(p, _)| p).unwrap_or(LinkPlan {
        tiles: Vec::new(),
        to_link: Vec::new(),
        paths: Vec::new(),
    });
    loop {
        let best = [false, true].map(|c| with_pairing(game, &plan, c).len());
        if best.iter().any(|&n| n > 0) || game.players()[seat].cubes == 0 || plan.tiles.is_empty() {
            break;
        }
        let Some(roll) = game.roll() else { break };
        let dice = vec![Die::Terrain(0), Die::Terrain(1)];
        let roll = roll.reroll(&game.content().dice, &dice, rng);
        play(game, Action::Reroll { dice, roll }, &mut actions)?;
    }
    let [straight, crossed] = [false, true].map(|c| with_pairing(game, &plan, c).len());
    let crossed = crossed > straight || (crossed == straight && rng.random());
    play(game, Action::Pair { crossed }, &mut actions)?;
    for action in builds(game, &plan) {
        play(game, action, &mut actions)?;
    }
    play(game, Action::End, &mut actions)?;
    Ok(actions)
}
