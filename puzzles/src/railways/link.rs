//! `railways-link`: the fewest tiles that link a player's cities, when exactly one set of tiles
//! does it with that few (`docs/rules/railways-express.md`, Puzzles P1 to P4).
//!
//! The answer is the linker's plan ([`signalbox_solver::railways::link::min_link`]); the
//! runner-up is the fewest tiles of any plan that lacks some tile of the answer, found exactly by
//! forbidding each of the answer's tiles in turn ([`link_without`]): every plan that is not the
//! answer, nor the answer with tiles to spare, lacks one of them.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::catalogue::{CityId, Content};
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::options::Curve;
use signalbox_engine::railways::track::{Ends, Side, TileKind};
use signalbox_solver::analysis::Better;
use signalbox_solver::railways::link::{LinkPlan, LinkStats, Linked, link_without, min_link};

use super::{Read, Spec, at, house_game, over_other, parse_tile, parts, picture, read, small_game, tile_words, write};
use crate::kind::{Kind, Theme};
use crate::puzzle::{Answer, Attempt, Difficulty, Grade, Proof, PuzzleError, Solved, Verdict};

/// The kind.
pub struct RailwaysLink;

/// The kind, for [`crate::kinds`].
pub static RAILWAYS_LINK: RailwaysLink = RailwaysLink;

const THEMES: &[Theme] = &[
    Theme {
        name: "branch",
        description: "The plan leaves a city it links itself: one of the player's cities becomes a junction of new track.",
    },
    Theme {
        name: "crossing",
        description: "The plan lays a tile over another player's track (a crossing tile while any is left).",
    },
    Theme {
        name: "detour",
        description: "A path of the plan is at least two tiles longer than the hexes between its ends: the way straight across is shut.",
    },
    Theme { name: "gray-city", description: "The plan runs into a gray city and out of it again." },
    Theme {
        name: "short-supply",
        description: "The tiles left in the supply make the plan longer than the fewest tiles on the board.",
    },
];

/// Rating thresholds: below `MEDIUM` easy, below `HARD` medium.
const MEDIUM: f64 = 6.0;
const HARD: f64 = 7.5;

/// What the solve finds.
struct Found {
    plan: LinkPlan,
    runner_up: Option<usize>,
    near_misses: usize,
    work: u64,
}

/// The most plans the linker may take from its queues for one question of a puzzle (see
/// [`link_without`]); past it the position is no puzzle of this kind. A fixed count, so that the
/// same candidates are passed over on every machine: the solves of kept puzzles take a few
/// thousand, and a position beyond this one would hold the memory of many.
pub const LINK_STEPS: u64 = 200_000;

/// The linker within [`LINK_STEPS`], without the tiles in `forbidden`: the plan with the fewest
/// tiles, `None` where there is none, an error where the linker reached the limit.
fn fewest(
    game: &Game,
    colour: Colour,
    forbidden: &BTreeSet<(Hex, Ends)>,
) -> Result<(Option<LinkPlan>, LinkStats), PuzzleError> {
    match link_without(game, colour, forbidden, Some(LINK_STEPS)) {
        (Linked::Plan(p), stats) => Ok((Some(p), stats)),
        (Linked::Stopped { .. }, _) => {
            Err(PuzzleError::Unfit(format!("the linker needs more than {LINK_STEPS} steps in this position")))
        }
        (Linked::None(_), stats) => Ok((None, stats)),
    }
}

fn work(stats: &LinkStats) -> u64 {
    (stats.expanded + stats.supply_expanded + stats.order_splits) as u64
}

/// The player of a link position.
fn player(read: &Read) -> Result<Colour, PuzzleError> {
    let p =
        read.written.player.ok_or_else(|| PuzzleError::Position("player: missing (whose cities to link)".into()))?;
    if read.game.seat(p).is_none() {
        return Err(PuzzleError::Position(format!("player: {p} does not play")));
    }
    if read.written.roll.is_some() {
        return Err(PuzzleError::Position("roll: a link position has no roll".into()));
    }
    Ok(p)
}

/// The answer and the exact runner-up (see the module documentation).
fn find(game: &Game, colour: Colour) -> Result<Found, PuzzleError> {
    let (Some(plan), stats) = fewest(game, colour, &BTreeSet::new())? else {
        return Err(PuzzleError::Position(format!("{colour} cannot link its cities any more (within the supply)")));
    };
    if plan.tiles.is_empty() {
        return Err(PuzzleError::Position(format!("{colour} has linked all its cities already")));
    }
    let best = plan.tiles.len();
    let mut total = work(&stats);
    let mut runner_up: Option<usize> = None;
    let mut near_misses = 0;
    for &tile in &plan.tiles {
        let (linked, stats) = fewest(game, colour, &BTreeSet::from([tile]))?;
        total += work(&stats);
        if let Some(p) = linked {
            let n = p.tiles.len();
            runner_up = Some(runner_up.map_or(n, |r| r.min(n)));
            near_misses += usize::from(n == best + 1);
        }
    }
    Ok(Found { plan, runner_up, near_misses, work: total })
}

/// The fewest tiles on the board: the position with endless straight and curved piles.
fn board_fewest(game: &Game, colour: Colour) -> Option<usize> {
    let mut content: Content = (**game.content()).clone();
    content.supply.straight += 1000;
    content.supply.curved += 1000;
    let endless = Game::from_setup(Arc::new(content), &game.to_setup()).ok()?;
    fewest(&endless, colour, &BTreeSet::new()).ok()?.0.map(|p| p.tiles.len())
}

/// Every straight and curved track under `curve`.
fn all_ends(curve: Curve) -> Vec<Ends> {
    [TileKind::Straight, TileKind::Curved].iter().flat_map(|&k| Ends::all(k, curve)).collect()
}

/// The simple technique: link the nearest city not yet linked (the fewest tiles from the track
/// as it stands, by a breadth-first search over paths of tiles the engine accepts), lay that path,
/// and again until every city is linked. `None` when it gets stuck.
pub(crate) fn greedy(game: &Game, colour: Colour) -> Option<Vec<(Hex, Ends)>> {
    let mut g = game.clone();
    let mut tiles = Vec::new();
    for _ in 0..8 {
        if g.has_linked_all(colour) {
            return Some(tiles);
        }
        let path = nearest(&g, colour)?;
        g = g.with_track(colour, &path).ok()?;
        tiles.extend(path);
    }
    None
}

/// The fewest tiles of a path from `colour`'s track that links one more of its cities: each
/// path extended tile by tile from its open end (or out of a gray city it entered), every tile
/// checked by the engine, each last tile reached once.
fn nearest(game: &Game, colour: Colour) -> Option<Vec<(Hex, Ends)>> {
    let content = game.content();
    let seat = game.seat(colour)?;
    let linked = game.players()[seat].linked.clone();
    let own: BTreeSet<CityId> = content.cities_of(colour).into_iter().collect();
    let ends = all_ends(game.options().curve);
    let mut starts: BTreeSet<Hex> = BTreeSet::new();
    for t in game.tiles().iter().filter(|t| t.owner == colour) {
        starts.extend(t.ends.sides().map(|s| s.step(t.hex)));
    }
    for &c in &linked {
        starts.extend(content.cities[c].hex.neighbours());
    }
    let mut seen: BTreeSet<(Hex, Ends)> = BTreeSet::new();
    let mut queue: VecDeque<(Vec<(Hex, Ends)>, Game)> = VecDeque::new();
    for hex in starts {
        for &e in &ends {
            if let Ok(after) = game.with_track(colour, &[(hex, e)])
                && seen.insert((hex, e))
            {
                queue.push_back((vec![(hex, e)], after));
            }
        }
    }
    while let Some((path, after)) = queue.pop_front() {
        let now = &after.players()[seat].linked;
        if now.iter().any(|c| own.contains(c) && !linked.contains(c)) {
            return Some(path);
        }
        let &(hex, e) = path.last()?;
        for s in e.sides() {
            let beyond = s.step(hex);
            // The next hexes, each with the side a tile there must have to continue.
            let next: Vec<(Hex, Side)> = match content.city_at.get(&beyond) {
                Some(&c) if content.cities[c].colour == CityColour::Gray && !linked.contains(&c) => {
                    Side::ALL.iter().map(|&x| (x.step(beyond), x.opposite())).filter(|&(h, _)| h != hex).collect()
                }
                Some(_) => Vec::new(),
                None => vec![(beyond, s.opposite())],
            };
            for (h, side) in next {
                for &x in ends.iter().filter(|x| x.has(side)) {
                    if seen.contains(&(h, x)) {
                        continue;
                    }
                    if let Ok(more) = after.with_track(colour, &[(h, x)]) {
                        seen.insert((h, x));
                        let mut p = path.clone();
                        p.push((h, x));
                        queue.push_back((p, more));
                    }
                }
            }
        }
    }
    None
}

/// Whether some path of the plan is at least two tiles longer than the hexes between its ends.
fn detour(game: &Game, plan: &LinkPlan) -> bool {
    plan.paths.iter().any(|p| {
        let Some(&(first, ends)) = p.tiles.first() else { return false };
        let city = game.content().cities[p.to].hex;
        let next = p.tiles.get(1).map_or(city, |t| t.0);
        let Some(anchor) = ends.sides().map(|s| s.step(first)).into_iter().find(|&h| h != next) else {
            return false;
        };
        p.tiles.len() as i32 > anchor.distance(city)
    })
}

/// The themes of the answer.
fn themes(game: &Game, colour: Colour, plan: &LinkPlan) -> Vec<String> {
    let mut out = BTreeSet::new();
    if plan.paths.iter().any(|p| p.from.is_some()) {
        out.insert("branch");
    }
    if plan.tiles.iter().any(|&(h, _)| over_other(game, colour, h)) {
        out.insert("crossing");
    }
    if detour(game, plan) {
        out.insert("detour");
    }
    if let (Ok(after), Some(seat)) = (game.with_track(colour, &plan.tiles), game.seat(colour)) {
        let before = &game.players()[seat].linked;
        let gray = after.players()[seat]
            .linked
            .iter()
            .any(|c| !before.contains(c) && game.content().cities[*c].colour == CityColour::Gray);
        if gray {
            out.insert("gray-city");
        }
    }
    if board_fewest(game, colour).is_some_and(|b| b < plan.tiles.len()) {
        out.insert("short-supply");
    }
    out.into_iter().map(String::from).collect()
}

/// The answer in words and as moves.
fn answer(game: &Game, plan: &LinkPlan) -> Answer {
    let text = plan.tiles.iter().map(|&t| tile_words(game, t)).collect::<Vec<_>>().join("; ");
    let moves: Vec<Value> = plan.tiles.iter().map(|&(h, e)| json!({"at": at(game, h), "ends": e})).collect();
    Answer { text, moves: Value::Array(moves) }
}

/// Lays `tiles` in the order given or, failing that, each time the first of those left that the
/// engine accepts; the game after, or why the order given fails.
fn lay(game: &Game, colour: Colour, tiles: &[(Hex, Ends)]) -> Result<Game, String> {
    let given = match game.with_track(colour, tiles) {
        Ok(g) => return Ok(g),
        Err((i, e)) => format!("tile {i} ({}): {e}", tile_words(game, tiles[i])),
    };
    let mut g = game.clone();
    let mut left = tiles.to_vec();
    while !left.is_empty() {
        let Some((k, next)) =
            left.iter().enumerate().find_map(|(k, &t)| g.with_track(colour, &[t]).ok().map(|n| (k, n)))
        else {
            return Err(given);
        };
        g = next;
        left.remove(k);
    }
    Ok(g)
}

impl Kind for RailwaysLink {
    fn name(&self) -> &'static str {
        "railways-link"
    }
    fn game(&self) -> &'static str {
        "railways"
    }
    fn title(&self) -> &'static str {
        "The fewest tiles"
    }
    fn unit(&self) -> &'static str {
        "tiles"
    }
    fn better(&self) -> Better {
        Better::Lower
    }
    fn themes(&self) -> &'static [Theme] {
        THEMES
    }
    fn grading(&self) -> &'static str {
        "Factors: tiles (the answer's), paths (its paths of new track), greedy_finds (1 when linking the nearest city again and again finds it), near_misses (the answer's tiles that a plan of one tile more can do without). Rating = tiles / 2 + paths - 1 + 2 x (1 - greedy_finds) + near_misses / 2; easy below 6, medium below 7.5, hard from 7.5."
    }
    fn simple_technique(&self) -> &'static str {
        "linking the nearest city not yet linked, again and again"
    }

    fn position(&self, candidate: u64) -> Result<Value, &'static str> {
        let mut rng = ChaCha8Rng::seed_from_u64(candidate);
        // One candidate in four: a late position on the house map.
        if candidate.is_multiple_of(4) {
            let stop = rng.random_range(5..=12);
            let game = house_game(&mut rng, stop).ok_or("the game ended first")?;
            return match fewest(&game, Colour::Blue, &BTreeSet::new()) {
                Err(_) => Err("too large a search"),
                Ok((Some(p), _)) if p.tiles.len() >= 3 => Ok(write(&game, true, Some(Colour::Blue), None)),
                Ok(_) => Err("fewer than three tiles to find"),
            };
        }
        let spec = Spec {
            width: rng.random_range(8..=10),
            height: rng.random_range(6..=8),
            yellow_cities: 4,
            grays: rng.random_range(1..=3),
            rounds: rng.random_range(0..=4),
            stop: 8,
        };
        let game = small_game(&mut rng, spec).ok_or("no game on the map drawn")?;
        match fewest(&game, Colour::Blue, &BTreeSet::new()) {
            Err(_) => Err("too large a search"),
            Ok((None, _)) => Err("blue cannot link its cities"),
            Ok((Some(p), _)) if p.tiles.len() < 3 => Err("fewer than three tiles to find"),
            Ok(_) => Ok(write(&game, false, Some(Colour::Blue), None)),
        }
    }

    fn question(&self, position: &Value) -> Result<String, PuzzleError> {
        let read = read(position)?;
        let p = player(&read)?;
        Ok(format!(
            "Which fewest tiles link all of {p}'s cities? Give the tiles in an order they can be built, as `build e-w on [column, row]`, separated by `;`."
        ))
    }

    fn solve(&self, position: &Value) -> Result<Solved, PuzzleError> {
        let read = read(position)?;
        let colour = player(&read)?;
        let game = &read.game;
        let found = find(game, colour)?;
        let best = found.plan.tiles.len();
        // The certificate: the engine lays the answer and the cities are linked.
        match game.with_track(colour, &found.plan.tiles) {
            Ok(after) if after.has_linked_all(colour) => {}
            _ => return Err(PuzzleError::Solver("the linker's plan does not replay".into())),
        }
        let greedy_finds = greedy(game, colour).is_some_and(|g| g.len() == best);
        let paths = found.plan.paths.len();
        let rating = best as f64 / 2.0 + paths as f64 - 1.0
            + 2.0 * f64::from(u8::from(!greedy_finds))
            + found.near_misses as f64 / 2.0;
        let factors = BTreeMap::from([
            ("tiles".to_string(), best as f64),
            ("paths".to_string(), paths as f64),
            ("greedy_finds".to_string(), f64::from(u8::from(greedy_finds))),
            ("near_misses".to_string(), found.near_misses as f64),
        ]);
        let proof = Proof {
            best: best as f64,
            runner_up: found.runner_up.map(|r| r as f64),
            margin: found.runner_up.map(|r| r as f64 - best as f64),
            work: found.work,
            details: Value::Null,
        };
        Ok(Solved {
            answer: answer(game, &found.plan),
            proof,
            grade: Grade { difficulty: Difficulty::of_rating(rating, MEDIUM, HARD), rating, factors },
            themes: themes(game, colour, &found.plan),
        })
    }

    fn attempt(&self, position: &Value, text: &str) -> Result<Attempt, PuzzleError> {
        let read = read(position)?;
        let colour = player(&read)?;
        let game = &read.game;
        let mut tiles = Vec::new();
        for part in parts(text) {
            let (tile, rest) = parse_tile(part).map_err(PuzzleError::Answer)?;
            if !rest.is_empty() {
                return Err(PuzzleError::Answer(format!("{part:?}: unexpected {rest:?} after the hex")));
            }
            tiles.push(tile);
        }
        if tiles.is_empty() {
            return Err(PuzzleError::Answer("no tiles: expected build e-w on [column, row]; ...".into()));
        }
        let Some((plan, _)) = min_link(game, colour) else {
            return Err(PuzzleError::Position(format!("{colour} cannot link its cities any more")));
        };
        let best = plan.tiles.len() as f64;
        let understood = tiles.iter().map(|&t| tile_words(game, t)).collect::<Vec<_>>().join("; ");
        let illegal = |reason: String| Attempt {
            verdict: Verdict::Illegal { reason },
            value: None,
            best,
            understood: understood.clone(),
        };
        let set: BTreeSet<(Hex, Ends)> = tiles.iter().copied().collect();
        if set.len() != tiles.len() {
            return Ok(illegal("a tile is named twice".into()));
        }
        let after = match lay(game, colour, &tiles) {
            Ok(g) => g,
            Err(reason) => return Ok(illegal(reason)),
        };
        if !after.has_linked_all(colour) {
            let seat = after.seat(colour).unwrap_or(0);
            let missing: Vec<String> = game
                .content()
                .cities_of(colour)
                .into_iter()
                .filter(|c| !after.players()[seat].linked.contains(c))
                .map(|c| game.content().cities[c].name.clone())
                .collect();
            return Ok(illegal(format!(
                "the tiles do not link all of {colour}'s cities: {} not linked",
                missing.join(", ")
            )));
        }
        let value = tiles.len() as f64;
        let answer: BTreeSet<(Hex, Ends)> = plan.tiles.iter().copied().collect();
        let verdict = if set == answer { Verdict::Solved } else { Verdict::Short { loss: value - best } };
        Ok(Attempt { verdict, value: Some(value), best, understood })
    }

    fn simple_finds(&self, position: &Value) -> Result<bool, PuzzleError> {
        let read = read(position)?;
        let colour = player(&read)?;
        let Some((plan, _)) = min_link(&read.game, colour) else { return Ok(false) };
        Ok(greedy(&read.game, colour).is_some_and(|g| g.len() == plan.tiles.len()))
    }

    fn picture(&self, position: &Value, answer: Option<&Answer>) -> Result<String, PuzzleError> {
        let read = read(position)?;
        let colour = player(&read)?;
        let mut title = vec![format!("Railways Express: the fewest tiles that link all of {colour}'s cities")];
        let mut plan = Vec::new();
        if let Some(a) = answer {
            for part in parts(&a.text) {
                plan.push(parse_tile(part).map_err(PuzzleError::Answer)?.0);
            }
            title.push(format!("Answer: {} tiles, drawn hollow", plan.len()));
        }
        Ok(picture(&read.game, colour, &plan, &[], &title))
    }
}
