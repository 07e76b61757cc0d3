//! The naive reference the exact linker ([`super::link::min_link`]) is checked against: a brute
//! force over every sequence of tiles blue can build, by size, with every tile checked by the
//! engine ([`Game::with_track`], which also takes each tile from the supply); and the random
//! small maps and supplies it can still handle.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use signalbox_engine::grid::hex::{Hex, hexagon};
use signalbox_engine::railways::catalogue::{City, Content, Supply};
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::dice::{DiceFaces, TrackFace};
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::options::{Curve, GrayExits, Options};
use signalbox_engine::railways::terrain::{Terrain, TerrainFace};
use signalbox_engine::railways::track::{Ends, TileKind};

/// Random small game `index` (the same on every machine): a hexagon of radius 2 or 3 with a few
/// holes, blue's four cities, one or two gray cities, yellow's home city, and a few random turns
/// of both players. A third of the games have the house set's supply (100 straight, 100 curved,
/// 31 crossing tiles); the others a small one (0 to 2 tiles of one kind, 2 to 8 of the other, 0
/// to 2 crossing tiles, before the random turns take theirs), often too small for the fewest
/// tiles on the board, sometimes for any plan.
pub fn small_game(index: u64) -> Option<Game> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let radius = if rng.random_range(0..4) == 0 { 3 } else { 2 };
    let mut hexes = BTreeMap::new();
    for h in hexagon(radius) {
        if rng.random_range(0..8) != 0 {
            let t = [Terrain::Plains, Terrain::Plains, Terrain::Mountain, Terrain::Water][rng.random_range(0..4)];
            hexes.insert(h, t);
        }
    }
    let mut spots: Vec<Hex> = hexes.keys().copied().collect();
    let mut take = |rng: &mut ChaCha8Rng| -> Option<Hex> {
        let h = *spots.choose(rng)?;
        spots.retain(|&x| x != h);
        Some(h)
    };
    let mut cities = Vec::new();
    for (i, home) in [true, false, false, false].into_iter().enumerate() {
        cities.push(City {
            name: format!("blue {i}"),
            hex: take(&mut rng)?,
            colour: CityColour::Player(Colour::Blue),
            home,
        });
    }
    cities.push(City {
        name: "yellow home".into(),
        hex: take(&mut rng)?,
        colour: CityColour::Player(Colour::Yellow),
        home: true,
    });
    for i in 0..rng.random_range(1..=2) {
        cities.push(City { name: format!("gray {i}"), hex: take(&mut rng)?, colour: CityColour::Gray, home: false });
    }
    let dice = DiceFaces {
        track: [TrackFace::StraightStraight, TrackFace::CurvedCurved, TrackFace::StraightCurved]
            .repeat(2)
            .try_into()
            .ok()?,
        terrain: [TerrainFace::Any; 6],
    };
    let (short, long) = (rng.random_range(0..=3), rng.random_range(3..=8));
    let crossing = rng.random_range(0..=2);
    let supply = match rng.random_range(0..3) {
        0 => Supply { straight: 100, curved: 100, crossing: 31 },
        1 => Supply { straight: short, curved: long, crossing },
        _ => Supply { straight: long, curved: short, crossing },
    };
    let content = Content::from_parts("random", hexes, cities, dice, supply).ok()?;
    let options = Options {
        curve: if rng.random_range(0..4) == 0 { Curve::Sharp } else { Curve::Gentle },
        gray_exits: if rng.random_range(0..4) == 0 { GrayExits::OwnCitiesOnly } else { GrayExits::Allowed },
        service_bounties: false,
    };
    let mut game = Game::new(Arc::new(content), &[Colour::Blue, Colour::Yellow], options, index).ok()?;
    // A few random turns; yellow, with only its home city, has linked all its cities, so the
    // play stops before an end of turn would end the game.
    let turns = rng.random_range(0..=4);
    while game.turns() < turns {
        let action = game.random_action(&mut rng)?;
        let mut next = game.clone();
        next.apply(&action).ok()?;
        if next.is_over() {
            break;
        }
        game = next;
    }
    Some(game)
}

/// The fewest tiles blue must build within the supply, by a deliberately naive brute force:
/// every sequence of tiles blue can build, by length, each checked and laid by the engine (so
/// each tile is taken from the supply as the rules say), a board reached twice with the same
/// supply left searched once, until one links blue's four cities. `Some(None)` when no sequence
/// links them (the board or the supply runs out first); `None` past `limit` tiles or `budget`
/// positions.
pub fn brute_force(game: &Game, limit: usize, budget: usize) -> Option<Option<usize>> {
    let blue = Colour::Blue;
    if game.has_linked_all(blue) {
        return Some(Some(0));
    }
    let curve = game.options().curve;
    let all: Vec<Ends> = [TileKind::Straight, TileKind::Curved].iter().flat_map(|&k| Ends::all(k, curve)).collect();
    let mut level: Vec<(Vec<(Hex, Ends)>, Game)> = vec![(Vec::new(), game.clone())];
    type Seen = (BTreeSet<(Hex, Ends)>, [u32; 3]);
    let mut seen: HashSet<Seen> = HashSet::new();
    for size in 1..=limit {
        let mut next = Vec::new();
        for (tiles, g) in &level {
            // A new tile touches blue's track or a city blue has linked (the engine checks the
            // rest): the hexes next to those.
            let seat = g.seat(blue)?;
            let mut near: BTreeSet<Hex> = BTreeSet::new();
            for t in g.tiles().iter().filter(|t| t.owner == blue) {
                near.extend(t.hex.neighbours());
            }
            for &c in &g.players()[seat].linked {
                near.extend(g.content().cities[c].hex.neighbours());
            }
            for hex in near {
                for &ends in &all {
                    let Ok(after) = g.with_track(blue, &[(hex, ends)]) else { continue };
                    let mut more = tiles.clone();
                    more.push((hex, ends));
                    let left = after.supply();
                    let key = (more.iter().copied().collect(), [left.straight, left.curved, left.crossing]);
                    if !seen.insert(key) {
                        continue;
                    }
                    if after.has_linked_all(blue) {
                        return Some(Some(size));
                    }
                    next.push((more, after));
                    if seen.len() > budget {
                        return None;
                    }
                }
            }
        }
        if next.is_empty() {
            return Some(None);
        }
        level = next;
    }
    None
}
