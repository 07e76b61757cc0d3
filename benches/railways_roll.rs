//! Railways Express: the best use of a roll and the win chances, each against the way they were
//! computed before, in the same run, on the embedded sample position (four players on the house
//! map, twelve turns played).
//!
//! Group `rx_roll/{best_use,every_build}/<roll>`: `best_use` is the library's search (the linker
//! asked once per track and supply, the race values shared between the ends of turn);
//! `every_build` is the search as it was, written out here: the linker asked again for every
//! build of every node, every end of turn raced afresh ([`Race::isolated`]). Before timing, both
//! run once and must give the same advice.
//!
//! Group `rx_odds/{odds,isolated}/<games>`: `odds` is the library's simulation on one thread;
//! `isolated` plays the same games here with [`play_turn_isolated`] (every race value computed
//! afresh each turn, as before). Before timing, both run once and must count the same wins.
//!
//! Each case writes `answer.json` next to criterion's estimates:
//!
//! ```text
//! cargo bench --bench railways_roll
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde_json::json;
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::Roll;
use signalbox_engine::railways::game::{Action, Game, Phase};
use signalbox_engine::railways::track::Ends;
use signalbox_solver::railways::link::{LinkPlan, Linked, link};
use signalbox_solver::railways::odds::{OddsOptions, TURN_LIMIT, odds};
use signalbox_solver::railways::policy::play_turn_isolated;
use signalbox_solver::railways::race::{Course, Race};
use signalbox_solver::railways::roll::{Advice, Reroll, Use, best_use, reroll_options};

#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;

/// The rolls advised on.
const ROLLS: [&str; 2] = ["SS,SC,plains,any", "CC,SC,water,mountain"];
/// The games played out.
const GAMES: usize = 40;
/// The seed of the first game's dice.
const SEED: u64 = 1;

fn write_answer(group: &str, function: &str, parameter: &str, answer: serde_json::Value) {
    let dir = criterion_dir().join(group).join(function).join(parameter);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("answer.json"), answer.to_string());
}

type Track = BTreeSet<(Hex, Ends)>;

fn track(game: &Game, colour: Colour) -> Track {
    game.tiles().iter().filter(|t| t.owner == colour).map(|t| (t.hex, t.ends)).collect()
}

/// The expected turns of a plan, raced afresh.
fn turns(plan: &LinkPlan, game: &Game) -> f64 {
    let course = Course::of(plan, game.content(), game.options().curve);
    Race::isolated(&course, game.content()).value(&vec![0u8; course.paths.len()])
}

/// The search for the best use of a roll as it was: every node's builds each planned by the
/// linker, however often the same track comes back, and every end of turn raced afresh.
fn every_build(game: &Game, roll: Roll) -> Option<Advice> {
    let colour = game.players()[game.active()].colour;
    let mut rolled = game.clone();
    rolled.apply(&Action::Roll { roll }).ok()?;
    let Linked::Plan(start_plan) = link(&rolled, colour, None).0 else { return None };
    let mut seen: BTreeSet<(Track, bool, [bool; 4])> = BTreeSet::new();
    let used = |g: &Game| g.slots().map_or([false; 4], |s| s.map(|(_, u)| u));
    let mut ends: BTreeMap<Track, (bool, Vec<Action>, LinkPlan)> = BTreeMap::new();
    let mut fewest = start_plan.tiles.len();
    for crossed in [false, true] {
        let mut paired = rolled.clone();
        paired.apply(&Action::Pair { crossed }).ok()?;
        let mut stack: Vec<(Game, Vec<Action>, LinkPlan)> = vec![(paired, Vec::new(), start_plan.clone())];
        while let Some((g, builds, plan)) = stack.pop() {
            let remaining = plan.tiles.len();
            let (here, slots) = (track(&g, colour), used(&g));
            let left = slots.iter().filter(|&&u| !u).count();
            if remaining.saturating_sub(left) > fewest + 1 || !seen.insert((here.clone(), crossed, slots)) {
                continue;
            }
            fewest = fewest.min(remaining);
            ends.entry(here).or_insert_with(|| (crossed, builds.clone(), plan.clone()));
            let planned: Vec<Option<(Game, Action, Linked)>> = g
                .legal_builds()
                .into_par_iter()
                .map(|b| {
                    let mut next = g.clone();
                    if next.apply(&b).is_err() || seen.contains(&(track(&next, colour), crossed, used(&next))) {
                        return None;
                    }
                    let found = link(&next, colour, None).0;
                    Some((next, b, found))
                })
                .collect();
            let mut children = Vec::new();
            for (next, b, found) in planned.into_iter().flatten() {
                if let Linked::Plan(p) = found {
                    let mut more = builds.clone();
                    more.push(b);
                    children.push((next, more, p));
                }
            }
            children.sort_by_key(|c| std::cmp::Reverse(c.2.tiles.len()));
            stack.extend(children);
        }
    }
    let mut best: Option<Use> = None;
    let mut considered = 0;
    for (crossed, builds, plan) in ends.into_values() {
        let remaining = plan.tiles.len();
        if remaining > fewest + 1 {
            continue;
        }
        considered += 1;
        let turns = turns(&plan, game);
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

fn roll(c: &mut Criterion) {
    let mut group = c.benchmark_group("rx_roll");
    group.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_millis(300));
    let game = Game::sample();
    assert_eq!(game.phase(), Phase::Roll);
    for text in ROLLS {
        let r: Roll = text.parse().expect("a roll");
        let advice = best_use(&game, r, None).expect("advice");
        assert_eq!(every_build(&game, r).as_ref(), Some(&advice), "{text}: the two searches disagree");
        let case = text.replace(',', "-");
        let answer =
            json!({"remaining": advice.best.remaining, "turns": advice.best.turns, "considered": advice.considered});
        write_answer("rx_roll", "best_use", &case, answer.clone());
        write_answer("rx_roll", "every_build", &case, answer);
        group.bench_with_input(BenchmarkId::new("best_use", &case), &r, |b, &r| {
            b.iter(|| best_use(black_box(&game), r, None))
        });
        group.bench_with_input(BenchmarkId::new("every_build", &case), &r, |b, &r| {
            b.iter(|| every_build(black_box(&game), r))
        });
    }
    group.finish();
}

/// Each game's winners, played from `game` with every race value computed afresh (game `i` from
/// seed `SEED + i`, as the library plays it).
fn isolated(game: &Game, games: usize) -> Vec<Vec<Colour>> {
    (0..games)
        .map(|i| {
            let mut g = game.clone();
            let mut rng = ChaCha8Rng::seed_from_u64(SEED.wrapping_add(i as u64));
            let start = g.turns();
            while !g.is_over() && g.turns() - start < TURN_LIMIT {
                if play_turn_isolated(&mut g, &mut rng).is_err() {
                    break;
                }
            }
            g.winners()
        })
        .collect()
}

fn simulation(c: &mut Criterion) {
    let mut group = c.benchmark_group("rx_odds");
    group.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_millis(300));
    let game = Game::sample();
    let options = OddsOptions { games: Some(GAMES), seed: SEED, threads: Some(1), ..OddsOptions::default() };
    let result = odds(&game, options, &|| {});
    let winners = isolated(&game, GAMES);
    for (p, chance) in game.players().iter().zip(&result.chances) {
        let wins = winners.iter().filter(|w| w.contains(&p.colour)).fold(0.0, |sum, w| sum + 1.0 / w.len() as f64);
        assert_eq!(wins, chance.wins, "{}: the two simulations disagree", p.colour);
    }
    let case = format!("g{GAMES}");
    let answer = json!({"games": GAMES, "mean_turns": result.mean_turns,
        "wins": result.chances.iter().map(|c| c.wins).collect::<Vec<_>>()});
    write_answer("rx_odds", "odds", &case, answer.clone());
    write_answer("rx_odds", "isolated", &case, answer);
    group.bench_function(BenchmarkId::new("odds", &case), |b| b.iter(|| odds(black_box(&game), options, &|| {})));
    group.bench_function(BenchmarkId::new("isolated", &case), |b| b.iter(|| isolated(black_box(&game), GAMES)));
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    roll(&mut c);
    simulation(&mut c);
    c.final_summary();
}
