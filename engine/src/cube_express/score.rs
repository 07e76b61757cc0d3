//! Final scoring in the rulebook's order ("Final Scoring"): objective cards left to right,
//! passengers, factories, train stations, stock value, dividends; and the 9-VP tokens. Computed
//! from scratch, so the tests can check it against the running scores the game keeps.

use serde::Serialize;

use super::catalogue::COLUMNS;
use super::game::{Game, TOKEN_VP};
use super::objective::Measure;
use super::tile::Centre;
use crate::cube_express::board::Piece;

/// One player's final score by part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Breakdown {
    /// Objective cards.
    pub objectives: i32,
    /// Passengers, 1 each.
    pub passengers: i32,
    /// Cubes on factory spaces, at the space's value.
    pub factories: i32,
    /// Train stations, 3 per house icon of their city.
    pub stations: i32,
    /// The stock value space's points.
    pub stock: i32,
    /// Dividends, 1 each.
    pub dividends: i32,
    /// 9-VP tokens.
    pub tokens: i32,
}

impl Breakdown {
    /// The total.
    pub fn total(&self) -> i32 {
        self.objectives + self.passengers + self.factories + self.stations + self.stock + self.dividends + self.tokens
    }

    /// Everything but the objective cards: what the game's running score keeps.
    pub fn banked(&self) -> i32 {
        self.total() - self.objectives
    }
}

/// What a seat has of `measure` now.
pub fn measure(game: &Game, seat: usize, measure: Measure) -> u16 {
    let s = seat as u8;
    let p = &game.players()[seat];
    let tiles = game.board().tiles();
    let owned = || tiles.iter().filter(move |t| t.owner == Some(s));
    match measure {
        Measure::Stations => tiles.iter().filter(|t| t.station == Some(s)).count() as u16,
        Measure::Technology => u16::from(game.tech_level(seat)),
        Measure::Facilities => owned().count() as u16,
        Measure::FacilityResources => {
            let mut rs: Vec<_> = owned().filter_map(|t| t.face.production).collect();
            rs.sort_unstable();
            rs.dedup();
            rs.len() as u16
        }
        Measure::Factories => tiles.iter().filter(|t| t.first == Some(s) || t.later[seat] > 0).count() as u16,
        Measure::FirstDeliveries => tiles.iter().filter(|t| t.first == Some(s)).count() as u16,
        Measure::Deliveries => tiles.iter().map(|t| u16::from(t.first == Some(s)) + u16::from(t.later[seat])).sum(),
        Measure::Passengers => tiles.iter().map(|t| u16::from(t.passengers[seat])).sum(),
        Measure::Houses => {
            let cities = game.board().cities();
            let mut seen = Vec::new();
            for (i, t) in tiles.iter().enumerate() {
                if t.station == Some(s)
                    && let Some(c) = cities.city_of[i]
                    && !seen.contains(&c)
                {
                    seen.push(c);
                }
            }
            seen.iter().map(|&c| cities.houses[c]).sum()
        }
        Measure::Stock => u16::from(p.stock),
        Measure::Dividends => u16::from(p.dividends),
        Measure::Locomotives => 1 + u16::from(p.locomotives[1].is_some()),
        Measure::Crossings => tiles
            .iter()
            .filter(|t| {
                t.laid_by == Some(s)
                    && matches!(t.piece, Piece::Front { .. })
                    && t.face.centre == Some(Centre::Crossing)
            })
            .count() as u16,
        Measure::Resources => u16::from(p.store.total()),
    }
}

/// Whether a seat achieves the objective card in `column` now.
pub fn achieves(game: &Game, seat: usize, column: usize) -> bool {
    let id = game.objectives()[column];
    game.content().objective(id).is_some_and(|o| measure(game, seat, o.condition.kind) >= o.condition.at_least)
}

/// The points each seat scores on the objective card of `column`: cubes of players who have not
/// achieved it are put aside; the players with the most remaining cubes (ties included; the
/// unused colour's cubes count for the majority with 2 players but score nothing) score the
/// majority points per cube, the others the non-majority points per cube.
pub fn objective_points(game: &Game, column: usize) -> Vec<i32> {
    let n = game.players().len();
    let cubes = game.objective_cubes(column);
    let kept: Vec<u8> = (0..n).map(|s| if achieves(game, s, column) { cubes[s] } else { 0 }).collect();
    let most = kept.iter().copied().max().unwrap_or(0).max(game.neutral_cubes(column));
    let (maj, non) = game.track().objective_points[column];
    kept.iter().map(|&k| i32::from(k) * i32::from(if k == most { maj } else { non })).collect()
}

/// Every seat's final score, computed from scratch.
pub fn final_scores(game: &Game) -> Vec<Breakdown> {
    let n = game.players().len();
    let track = game.track();
    let cities = game.board().cities();
    let mut out = vec![Breakdown::default(); n];
    for column in 0..COLUMNS {
        for (s, pts) in objective_points(game, column).into_iter().enumerate() {
            out[s].objectives += pts;
        }
    }
    for (i, t) in game.board().tiles().iter().enumerate() {
        for (s, b) in out.iter_mut().enumerate() {
            b.passengers += i32::from(t.passengers[s]);
            if let Some(f) = t.face.factory {
                b.factories += i32::from(t.later[s]) * i32::from(f.b);
                if t.first == Some(s as u8) {
                    b.factories += i32::from(f.a);
                }
            }
        }
        if let (Some(owner), Some(c)) = (t.station, cities.city_of[i]) {
            out[usize::from(owner)].stations += 3 * i32::from(cities.houses[c]);
        }
    }
    for (s, p) in game.players().iter().enumerate() {
        out[s].stock = i32::from(track.vp[usize::from(p.stock)]);
        out[s].dividends = i32::from(p.dividends);
        out[s].tokens = TOKEN_VP * i32::from(p.tokens);
    }
    out
}

/// The winners' seats: most points; ties broken by more train stations built, then by the
/// stock value further advanced; players still tied share the victory.
pub fn winners(game: &Game) -> Vec<usize> {
    let scores = final_scores(game);
    let key = |s: usize| (scores[s].total(), measure(game, s, Measure::Stations), game.players()[s].stock);
    let best = (0..scores.len()).map(key).max();
    (0..scores.len()).filter(|&s| Some(key(s)) == best).collect()
}
