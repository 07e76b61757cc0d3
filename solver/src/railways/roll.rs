//! The best use of a roll: every pairing and every sequence of legal builds (a tile off every
//! minimum plan may still turn the track so that the next tiles fit the dice), each end of turn
//! valued by the fewest tiles still needed and the expected turns to build them
//! ([`super::race`]); and
//! whether spending a cube on re-rolling one or two dice first pays, by the same expected turns
//! with the plan of the position held fixed.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::{Die, Roll};
use signalbox_engine::railways::game::{Action, Game, Phase};
use signalbox_engine::railways::track::Ends;

use super::link::{Linked, link, link_at_most};
use super::race::{Course, Race, expected_turns};

/// One use of the roll.
#[derive(Clone, Debug, PartialEq)]
pub struct Use {
    /// The pairing.
    pub crossed: bool,
    /// The builds, in order.
    pub builds: Vec<Action>,
    /// The fewest tiles still needed after them.
    pub remaining: usize,
    /// The expected turns after this one to build those tiles (exact for the plan found then).
    pub turns: f64,
}

/// A re-roll and what it is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Reroll {
    /// The dice rolled again.
    pub dice: Vec<Die>,
    /// The expected turns after this one, averaged over the new faces (the plan held fixed).
    pub turns: f64,
}

/// The advice for a roll.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// The best use: among the ends of turn that leave the fewest tiles or one more, the fewest
    /// expected turns, then the fewest tiles.
    pub best: Use,
    /// The ends of turn valued: those that leave the fewest tiles any use of the roll leaves, or
    /// one more.
    pub considered: usize,
    /// The fewest tiles still needed after any use of the roll.
    pub fewest: usize,
    /// The expected turns after this one with the roll as it is, by the fixed plan (to compare
    /// with the re-rolls).
    pub keep: f64,
    /// Each re-roll of one or two dice with its expected turns, best first (empty without a
    /// cube in hand).
    pub rerolls: Vec<Reroll>,
    /// Whether every use of the roll was searched (false: the deadline came first, and `best`
    /// is the best of the uses searched).
    pub complete: bool,
}

/// A player's tiles on the board, to tell ends of turn apart.
pub type Track = BTreeSet<(Hex, Ends)>;

/// A plan's tiles in building order.
pub type Tiles = Vec<(Hex, Ends)>;

/// What the linker's answer depends on during a turn: the player's track and the supply left.
pub type Key = (Track, [u32; 3]);

/// The [`Key`] of `colour` in `game`: its track and the supply left.
pub fn key(game: &Game, colour: Colour) -> Key {
    let s = game.supply();
    (track(game, colour), [s.straight, s.curved, s.crossing])
}

/// What is known of a position's fewest tiles.
enum Known {
    /// The linker's answer.
    Linked(Linked),
    /// More than this many.
    Beyond(usize),
}

impl Known {
    /// Whether this says too little for a search of plans of at most `most` tiles.
    fn beyond(&self, most: usize) -> bool {
        matches!(self, Known::Beyond(m) if *m < most)
    }
}

/// After build `b` of a tile of `plan` (a plan of the fewest tiles before it), the rest of the
/// plan when the engine lays it and it links the cities: then it is a plan of the fewest tiles,
/// one fewer (a build lowers the fewest by one at most, ruling T2).
pub fn on_plan(after: &Game, colour: Colour, plan: &[(Hex, Ends)], b: &Action) -> Option<Tiles> {
    let Action::Build { hex, ends, .. } = *b else { return None };
    let at = plan.iter().position(|&t| t == (hex, ends))?;
    let mut rest = plan.to_vec();
    rest.remove(at);
    let linked = after.with_track(colour, &rest).ok()?;
    linked.has_linked_all(colour).then_some(rest)
}

/// Which of the turn's four build slots are used (none before the pairing).
pub fn slots_used(game: &Game) -> [bool; 4] {
    game.slots().map_or([false; 4], |s| s.map(|(_, u)| u))
}

/// The player to move's tiles on the board.
fn track(game: &Game, colour: Colour) -> Track {
    game.tiles().iter().filter(|t| t.owner == colour).map(|t| (t.hex, t.ends)).collect()
}

/// The advice for `roll` to the player to move in `game` (at the start of a turn); `None` when
/// the game is over or the player cannot link their cities any more (within the supply), or
/// when `deadline` passed before the position's own plan was found. Past `deadline` the search
/// stops and advises the best use found (`complete` false). The builds after each node are
/// planned on rayon's threads; the answer does not depend on their number.
pub fn best_use(game: &Game, roll: Roll, deadline: Option<Instant>) -> Option<Advice> {
    if game.is_over() || game.phase() != Phase::Roll {
        return None;
    }
    let past = || deadline.is_some_and(crate::stop::passed);
    let colour = game.players()[game.active()].colour;
    let mut rolled = game.clone();
    rolled.apply(&Action::Roll { roll }).ok()?;
    let Linked::Plan(start_plan) = link(&rolled, colour, deadline).0 else { return None };
    let start = start_plan.tiles.len();
    // The linker's answers by the player's track and the supply: nothing else of the position
    // changes during the turn, so the same track and supply get the same answer, reached in
    // whatever order.
    let mut memo: FxHashMap<Key, Known> = FxHashMap::default();
    memo.insert(key(&rolled, colour), Known::Linked(Linked::Plan(start_plan.clone())));
    let mut complete = true;
    // The nodes searched: the track, the pairing, the slots used (the same track with other
    // slots left may lead further).
    let mut seen: BTreeSet<(Track, bool, [bool; 4])> = BTreeSet::new();
    // Every end of turn reached: its track, the first way found to it (the pairing, the builds
    // and the position), and the fewest tiles still needed then.
    let mut ends: BTreeMap<Track, (bool, Vec<Action>, Game, usize)> = BTreeMap::new();
    let mut fewest = start;
    'search: for crossed in [false, true] {
        let mut paired = rolled.clone();
        paired.apply(&Action::Pair { crossed }).ok()?;
        // Depth first, the builds that leave the fewest tiles first; a node whose every
        // continuation must leave more than one tile above the fewest found is cut off (a build
        // lowers the fewest tiles needed by one at most: ruling T2). Each node carries the
        // fewest tiles still needed and a plan of that many.
        let mut stack: Vec<(Game, Vec<Action>, Tiles)> = vec![(paired, Vec::new(), start_plan.tiles.clone())];
        while let Some((g, builds, plan)) = stack.pop() {
            if past() {
                complete = false;
                break 'search;
            }
            let remaining = plan.len();
            let (here, slots) = (track(&g, colour), slots_used(&g));
            let left = slots.iter().filter(|&&u| !u).count();
            if remaining.saturating_sub(left) > fewest + 1 || !seen.insert((here.clone(), crossed, slots)) {
                continue;
            }
            fewest = fewest.min(remaining);
            // A child is searched when it leaves at most `most` tiles (one slot fewer left), and
            // every build leaves at least one tile fewer than now (ruling T2).
            let most = fewest + left;
            ends.entry(here).or_insert_with(|| (crossed, builds.clone(), g.clone(), remaining));
            if remaining.saturating_sub(1) > most {
                continue;
            }
            let mut next: Vec<(Game, Action, Option<Tiles>)> = Vec::new();
            for b in g.legal_builds() {
                let mut n = g.clone();
                if n.apply(&b).is_err() || seen.contains(&(track(&n, colour), crossed, slots_used(&n))) {
                    continue;
                }
                let shortcut = on_plan(&n, colour, &plan, &b);
                next.push((n, b, shortcut));
            }
            // The positions off the node's plan not planned yet (or not far enough), each once,
            // planned on rayon's threads.
            let mut todo: Vec<(&Game, Key)> = Vec::new();
            for (n, _, shortcut) in &next {
                if shortcut.is_some() {
                    continue;
                }
                let k = key(n, colour);
                if memo.get(&k).is_none_or(|m| m.beyond(most)) && !todo.iter().any(|t| t.1 == k) {
                    todo.push((n, k));
                }
            }
            let planned: Vec<Known> = todo
                .par_iter()
                .map(|(n, _)| match link_at_most(n, colour, deadline, most).0 {
                    Some(found) => Known::Linked(found),
                    None => Known::Beyond(most),
                })
                .collect();
            for ((_, k), found) in todo.into_iter().zip(planned) {
                memo.insert(k, found);
            }
            let mut children = Vec::new();
            for (n, b, shortcut) in next {
                let tiles = match shortcut {
                    Some(tiles) => tiles,
                    None => match &memo[&key(&n, colour)] {
                        Known::Linked(Linked::Plan(p)) => p.tiles.clone(),
                        Known::Linked(Linked::Stopped { .. }) => {
                            complete = false;
                            continue;
                        }
                        Known::Linked(Linked::None(_)) | Known::Beyond(_) => continue,
                    },
                };
                let mut more = builds.clone();
                more.push(b);
                children.push((n, more, tiles));
            }
            // The stack pops the last first: the fewest tiles last.
            children.sort_by_key(|c| std::cmp::Reverse(c.2.len()));
            stack.extend(children);
        }
    }
    // The ends that leave the fewest tiles or one more, each valued exactly by the linker's plan.
    let mut best: Option<Use> = None;
    let mut considered = 0;
    for (crossed, builds, end, remaining) in ends.into_values() {
        if remaining > fewest + 1 {
            continue;
        }
        let k = key(&end, colour);
        let plan = match memo.get(&k) {
            Some(Known::Linked(Linked::Plan(p))) => p.clone(),
            _ => match link(&end, colour, deadline).0 {
                Linked::Plan(p) => p,
                _ => {
                    complete = false;
                    continue;
                }
            },
        };
        considered += 1;
        let turns = expected_turns(&Course::of(&plan, game.content(), game.options().curve), game.content());
        if best.as_ref().is_none_or(|b| (turns, remaining) < (b.turns, b.remaining)) {
            best = Some(Use { crossed, builds, remaining, turns });
        }
    }
    let best = best?;
    // The re-rolls, by the plan of the position held fixed.
    let course = Course::of(&start_plan, game.content(), game.options().curve);
    let mut race = Race::new(&course, game.content());
    let state = vec![0u8; course.paths.len()];
    let keep = race.choose(&state, roll).2;
    let mut rerolls = Vec::new();
    if game.players()[game.active()].cubes > 0 {
        for dice in reroll_options() {
            let turns = race.reroll(&state, roll, &dice);
            rerolls.push(Reroll { dice, turns });
        }
        rerolls.sort_by(|a, b| a.turns.total_cmp(&b.turns));
    }
    Some(Advice { best, considered, fewest, keep, rerolls, complete })
}

/// The re-rolls a cube buys: each die alone, and each pair of dice.
pub fn reroll_options() -> Vec<Vec<Die>> {
    let dice = [Die::Track(0), Die::Track(1), Die::Terrain(0), Die::Terrain(1)];
    let mut options: Vec<Vec<Die>> = dice.iter().map(|&d| vec![d]).collect();
    for i in 0..4 {
        for j in i + 1..4 {
            options.push(vec![dice[i], dice[j]]);
        }
    }
    options
}

#[cfg(test)]
mod tests {
    use signalbox_engine::railways::terrain::TerrainFace;

    use super::*;
    use crate::railways::link::{LinkPlan, min_link};
    use crate::railways::race::Race;
    use crate::railways::reference::small_game;

    /// The search as first written, to check [`best_use`] against: every build of every node
    /// planned by the linker ([`link`], no memory, no shortcut, no bound), every end of turn
    /// planned then and raced afresh ([`Race::isolated`]).
    fn every_build(game: &Game, roll: Roll) -> Option<Advice> {
        let colour = game.players()[game.active()].colour;
        let mut rolled = game.clone();
        rolled.apply(&Action::Roll { roll }).ok()?;
        let Linked::Plan(start_plan) = link(&rolled, colour, None).0 else { return None };
        let mut seen: BTreeSet<(Track, bool, [bool; 4])> = BTreeSet::new();
        let mut ends: BTreeMap<Track, (bool, Vec<Action>, LinkPlan)> = BTreeMap::new();
        let mut fewest = start_plan.tiles.len();
        for crossed in [false, true] {
            let mut paired = rolled.clone();
            paired.apply(&Action::Pair { crossed }).ok()?;
            let mut stack: Vec<(Game, Vec<Action>, LinkPlan)> = vec![(paired, Vec::new(), start_plan.clone())];
            while let Some((g, builds, plan)) = stack.pop() {
                let remaining = plan.tiles.len();
                let (here, slots) = (track(&g, colour), slots_used(&g));
                let left = slots.iter().filter(|&&u| !u).count();
                if remaining.saturating_sub(left) > fewest + 1 || !seen.insert((here.clone(), crossed, slots)) {
                    continue;
                }
                fewest = fewest.min(remaining);
                ends.entry(here).or_insert_with(|| (crossed, builds.clone(), plan.clone()));
                let mut children = Vec::new();
                for b in g.legal_builds() {
                    let mut next = g.clone();
                    if next.apply(&b).is_err() || seen.contains(&(track(&next, colour), crossed, slots_used(&next))) {
                        continue;
                    }
                    if let Linked::Plan(p) = link(&next, colour, None).0 {
                        let mut more = builds.clone();
                        more.push(b);
                        children.push((next, more, p));
                    }
                }
                children.sort_by_key(|c| std::cmp::Reverse(c.2.tiles.len()));
                stack.extend(children);
            }
        }
        let race = |plan: &LinkPlan| {
            let course = Course::of(plan, game.content(), game.options().curve);
            Race::isolated(&course, game.content()).value(&vec![0u8; course.paths.len()])
        };
        let mut best: Option<Use> = None;
        let mut considered = 0;
        for (crossed, builds, plan) in ends.into_values() {
            let remaining = plan.tiles.len();
            if remaining > fewest + 1 {
                continue;
            }
            considered += 1;
            let turns = race(&plan);
            if best.as_ref().is_none_or(|b| (turns, remaining) < (b.turns, b.remaining)) {
                best = Some(Use { crossed, builds, remaining, turns });
            }
        }
        let best = best?;
        let course = Course::of(&start_plan, game.content(), game.options().curve);
        let mut race = Race::isolated(&course, game.content());
        let state = vec![0u8; course.paths.len()];
        let keep = race.choose(&state, roll).2;
        let mut rerolls = Vec::new();
        if game.players()[game.active()].cubes > 0 {
            for dice in reroll_options() {
                let turns = race.reroll(&state, roll, &dice);
                rerolls.push(Reroll { dice, turns });
            }
            rerolls.sort_by(|a, b| a.turns.total_cmp(&b.turns));
        }
        Some(Advice { best, considered, fewest, keep, rerolls, complete: true })
    }

    #[test]
    fn the_best_use_is_the_advice_of_the_search_that_plans_every_build_afresh() {
        // Small games and positions of games on the house map, a few rolls each.
        let rolls: Vec<Roll> = ["SS,SC,plains,any", "CC,SC,water,mountain", "SC,SC,any,any", "CC,SS,any,mountain"]
            .iter()
            .map(|r| r.parse().expect("a roll"))
            .collect();
        let mut games: Vec<Game> = (0..120u64).filter_map(small_game).filter(|g| g.phase() == Phase::Roll).collect();
        let small = games.len();
        games.push(Game::sample());
        let content = std::sync::Arc::new(signalbox_engine::railways::catalogue::Content::house());
        for seed in [2u64, 3] {
            let mut game =
                Game::new(content.clone(), &Colour::ALL, signalbox_engine::railways::options::Options::default(), seed)
                    .expect("a game");
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
            while game.turns() < 8 * seed as u32 && !game.is_over() {
                crate::railways::policy::play_turn(&mut game, &mut rng).expect("a legal turn");
            }
            games.push(game);
        }
        let checked: usize = games
            .par_iter()
            .enumerate()
            .map(|(i, game)| {
                let mut checked = 0;
                for (r, roll) in rolls.iter().enumerate() {
                    // The small games' terrain dice show "any" only; two rolls on the house map.
                    if (i < small && r == 3) || (i >= small && r != 0 && r != 3) {
                        continue;
                    }
                    let roll = if i < small { Roll { terrain: [TerrainFace::Any; 2], ..*roll } } else { *roll };
                    let fast = best_use(game, roll, None);
                    assert_eq!(fast, every_build(game, roll), "game {i}, roll {roll:?}");
                    checked += usize::from(fast.is_some());
                }
                checked
            })
            .sum();
        assert!(checked >= 60, "only {checked} cases");
    }

    /// Replays the advice's use from the position: legal, and leaving the tiles it says.
    fn replay(game: &Game, roll: Roll, advice: &Advice) -> Game {
        let mut g = game.clone();
        g.apply(&Action::Roll { roll }).expect("the roll");
        g.apply(&Action::Pair { crossed: advice.best.crossed }).expect("the pairing");
        for b in &advice.best.builds {
            g.apply(b).expect("a legal build");
        }
        g
    }

    /// The fewest tiles still needed after any sequence of builds the roll allows, by trying
    /// every one.
    fn fewest_by_brute_force(game: &Game, roll: Roll, colour: Colour) -> usize {
        let mut best = usize::MAX;
        for crossed in [false, true] {
            let mut g = game.clone();
            let _ = g.apply(&Action::Roll { roll });
            let _ = g.apply(&Action::Pair { crossed });
            let mut stack = vec![g];
            let mut seen = BTreeSet::new();
            while let Some(g) = stack.pop() {
                let used = slots_used(&g);
                if !seen.insert((track(&g, colour), used)) {
                    continue;
                }
                best = best.min(min_link(&g, colour).map_or(usize::MAX, |(p, _)| p.tiles.len()));
                for b in g.legal_builds() {
                    let mut next = g.clone();
                    if next.apply(&b).is_ok() {
                        stack.push(next);
                    }
                }
            }
        }
        best
    }

    #[test]
    fn the_best_use_replays_and_the_search_reaches_the_fewest_tiles_any_use_leaves() {
        let rolls: Vec<Roll> = ["SS,SC,plains,any", "CC,SC,water,mountain", "SC,SC,any,any"]
            .iter()
            .map(|r| r.parse().expect("a roll"))
            .collect();
        use rayon::prelude::*;
        let checked: usize = (0..300u64)
            .into_par_iter()
            .map(|index| {
                let Some(game) = small_game(index) else { return 0 };
                // Blue's turn at its start (the small games' terrain dice show "any" only: the
                // rolls keep to that face).
                if game.phase() != Phase::Roll || game.active() != 0 {
                    return 0;
                }
                let mut checked = 0;
                for roll in &rolls {
                    let roll = Roll { terrain: [TerrainFace::Any; 2], ..*roll };
                    let colour = game.players()[0].colour;
                    let Some(advice) = best_use(&game, roll, None) else { continue };
                    assert!(advice.complete);
                    let after = replay(&game, roll, &advice);
                    let left = min_link(&after, colour).map(|(p, _)| p.tiles.len());
                    assert_eq!(left, Some(advice.best.remaining), "small game {index}");
                    assert!(advice.best.remaining >= advice.fewest);
                    assert_eq!(advice.fewest, fewest_by_brute_force(&game, roll, colour), "small game {index}");
                    checked += 1;
                }
                checked
            })
            .sum();
        assert!(checked >= 40, "only {checked} cases");
    }
}
