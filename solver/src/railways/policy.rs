//! A player that follows a minimum link plan ([`super::link::min_link`]) and plays each roll at
//! its best for that plan ([`super::race::Race`]): each turn it plans, spends a cube on the
//! re-roll of one or two dice that most lowers the expected turns still needed (while one does
//! and a cube is left), then pairs the dice and builds the plan's tiles that leave the fewest
//! expected turns. Used to play games out and to estimate the odds ([`super::odds`]).
//!
//! The plan fits the tile supply in the order the linker gives; the race may build its paths in
//! another order, and a build the supply no longer allows is left out (with the rest of its
//! path this turn) rather than played; any other refusal is a bug, returned.

use rand::Rng;
use signalbox_engine::railways::dice::Roll;
use signalbox_engine::railways::game::{Action, Game, Illegal, Phase};

use super::link::min_link;
use super::race::{Course, Race};
use super::roll::reroll_options;

/// Plays one turn of the player to move from its start (the dice drawn from `rng`): the actions
/// played, or the one the engine refused (a bug, reported rather than hidden).
pub fn play_turn<R: Rng + ?Sized>(game: &mut Game, rng: &mut R) -> Result<Vec<Action>, (Action, Illegal)> {
    turn(game, rng, false)
}

/// [`play_turn`] with every race value computed afresh ([`Race::isolated`]): the same turn, to
/// check and time [`play_turn`] against.
pub fn play_turn_isolated<R: Rng + ?Sized>(game: &mut Game, rng: &mut R) -> Result<Vec<Action>, (Action, Illegal)> {
    turn(game, rng, true)
}

/// One turn as [`play_turn`] says, its races [`Race::isolated`] when `isolated`.
fn turn<R: Rng + ?Sized>(game: &mut Game, rng: &mut R, isolated: bool) -> Result<Vec<Action>, (Action, Illegal)> {
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
    let Some((plan, _)) = min_link(game, colour) else {
        play(game, Action::Pair { crossed: false }, &mut actions)?;
        play(game, Action::End, &mut actions)?;
        return Ok(actions);
    };
    let content = game.content().clone();
    let course = Course::of(&plan, &content, game.options().curve);
    let mut race = if isolated { Race::isolated(&course, &content) } else { Race::new(&course, &content) };
    let start = vec![0u8; course.paths.len()];
    while game.players()[seat].cubes > 0 && !plan.tiles.is_empty() {
        let Some(roll) = game.roll() else { break };
        let keep = race.choose(&start, roll).2;
        let best = reroll_options()
            .into_iter()
            .map(|dice| {
                let v = race.reroll(&start, roll, &dice);
                (v, dice)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let Some((v, dice)) = best else { break };
        if v + 1e-9 >= keep {
            break;
        }
        let roll = roll.reroll(&content.dice, &dice, rng);
        play(game, Action::Reroll { dice, roll }, &mut actions)?;
    }
    let Some(roll) = game.roll() else { return Ok(actions) };
    let (crossed, steps, _) = race.choose(&start, roll);
    play(game, Action::Pair { crossed }, &mut actions)?;
    let mut built = vec![0usize; course.paths.len()];
    let mut blocked = vec![false; course.paths.len()];
    for (path, slot) in steps {
        let (hex, ends) = plan.paths[path].tiles[built[path]];
        built[path] += 1;
        // The race orders the builds by the dice alone; a plan that fits the supply only in
        // its own order may find a pile empty in the race's (ruling T1): that path waits.
        if blocked[path] || matches!(game.check_build(hex, ends, slot as u8), Err(Illegal::Supply(_))) {
            blocked[path] = true;
            continue;
        }
        play(game, Action::Build { hex, ends, slot: slot as u8 }, &mut actions)?;
    }
    play(game, Action::End, &mut actions)?;
    Ok(actions)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn turns_with_shared_race_values_are_the_turns_computed_afresh() {
        // Whole games from the sample position, each turn played both ways from the same
        // position and dice: the same actions every turn.
        let mut turns = 0;
        for seed in 0..3u64 {
            let mut game = Game::sample();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while !game.is_over() && turns < 400 {
                let (mut shared, mut fresh) = (game.clone(), game.clone());
                let (mut a, mut b) = (rng.clone(), rng.clone());
                let played = play_turn(&mut shared, &mut a).expect("a legal turn");
                assert_eq!(played, play_turn_isolated(&mut fresh, &mut b).expect("a legal turn"), "seed {seed}");
                (game, rng) = (shared, a);
                turns += 1;
            }
        }
        assert!(turns > 30, "only {turns} turns");
    }
}
