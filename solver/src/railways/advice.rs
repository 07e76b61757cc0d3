//! The answer of `railways advise`: the fewest tiles that link a player's four cities within the
//! supply ([`super::link`]) with one plan that builds that few, every player's fewest tiles and
//! expected turns ([`super::race`]), and with a roll its best use ([`super::roll`]), as one serde
//! type. The CLI's `--json`, its pages and the web board all print this type, so the answer is
//! serialised the same way everywhere.

use serde::{Deserialize, Serialize};
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::catalogue::Supply;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::Die;
use signalbox_engine::railways::game::{Action, Game};
use signalbox_engine::railways::track::Ends;

use super::link::{Linked, NoPlan};
use super::race::{Course, expected_turns};
use super::roll::Advice;

/// The link plan of one player, as `railways advise --json` prints it. The fields are serialised
/// in this order; the `Option` fields print `null` when they do not apply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanAdvice {
    /// What was planned: the file (or the sample position), and for a game record the turn
    /// (`..., turn N`).
    pub position: String,
    /// The player planned for (the player to move, or `--player`).
    pub player: Colour,
    /// The fewest tiles still to build within the supply to link the player's four cities
    /// (rulebook: Objective), or `null` with a `reason` when no plan was found.
    pub tiles: Option<usize>,
    /// Why there is no plan, in words; `null` with a plan.
    pub reason: Option<String>,
    /// Whether the answer is proven (false: the time limit stopped the search).
    pub proven: bool,
    /// A lower bound on the fewest tiles: `tiles` with a plan, the bound reached when the search
    /// stopped, `null` when no plan exists.
    pub at_least: Option<usize>,
    /// The plan's tiles in building order (empty without a plan).
    pub plan: Vec<PlanTile>,
    /// The tiles the plan takes from each pile of the supply (`docs/rules/railways-express.md`,
    /// T1); `null` without a plan.
    pub draws: Option<Supply>,
    /// The supply left before the plan, shared by all players (rulebook: Components; T1).
    pub supply: Supply,
    /// The player's cities still to link when the plan starts, by name; `null` without a plan.
    pub to_link: Option<Vec<String>>,
    /// Every player's answer, in seat order.
    pub players: Vec<PlayerLink>,
    /// With a roll: its best use and the re-rolls; `null` without a roll, or when no advice was
    /// found (no plan, or the time limit came first).
    pub roll: Option<RollAdvice>,
}

/// One tile of a plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanTile {
    /// The hex as the map's rows number it: `[column, row]` ([`at`]).
    pub at: [i32; 2],
    /// The two sides its track joins.
    pub ends: Ends,
    /// The tile's kind under the game's curves: `straight` or `curved` (`?` if neither).
    pub kind: String,
    /// The hex's terrain (`?` off the map's terrain), which a terrain die must allow (rulebook:
    /// Description of Dice, Build Track Tiles).
    pub terrain: String,
    /// Whether the engine took it from the crossing tiles: laid over another player's tile while
    /// any is left (`docs/rules/railways-express.md`, T1).
    pub crossing: bool,
}

/// One player's fewest tiles and expected turns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerLink {
    /// The player.
    pub colour: Colour,
    /// The fewest tiles still to build within the supply to link its four cities; `null` without
    /// a plan.
    pub tiles: Option<usize>,
    /// Whether the answer is proven (false: the time limit stopped the search).
    pub proven: bool,
    /// Why there is no plan, in words ([`reason`]); `null` with a plan.
    pub reason: Option<String>,
    /// The expected turns to build the plan under the dice alone (exact for that plan, the other
    /// players and re-rolls left out; [`expected_turns`]); `null` without a plan.
    pub expected_turns: Option<f64>,
    /// Its cities still to link, by name; `null` without a plan.
    pub to_link: Option<Vec<String>>,
}

/// The best use of a roll (rulebook: Description of Dice, Build Track Tiles) and the re-rolls
/// ([`Advice`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RollAdvice {
    /// The pairing: false pairs the first track die with the first terrain die (and the second
    /// with the second), true the first with the second.
    pub crossed: bool,
    /// The builds, in order.
    pub builds: Vec<AdvisedBuild>,
    /// The fewest tiles still needed after them.
    pub remaining: usize,
    /// The expected turns after this one to build those tiles (exact for the plan found then).
    pub turns: f64,
    /// The ends of turn compared: those that leave the fewest tiles any use leaves, or one more.
    pub considered: usize,
    /// Whether every use of the roll was searched (false: the time limit came first).
    pub complete: bool,
    /// The expected turns after this one with the roll kept, by the position's plan held fixed.
    pub keep: f64,
    /// Each re-roll of one or two dice with a cube (rulebook: Cubes), best first; empty without a
    /// cube in hand.
    pub rerolls: Vec<RerollTurns>,
}

/// One advised build.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdvisedBuild {
    /// The hex as the map's rows number it: `[column, row]` ([`at`]).
    pub at: [i32; 2],
    /// The two sides its track joins.
    pub ends: Ends,
    /// The slot of the pairing (0 and 1: the first pair's tiles; 2 and 3: the second's).
    pub slot: u8,
}

/// A re-roll and what it is worth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RerollTurns {
    /// The dice rolled again.
    pub dice: Vec<Die>,
    /// The expected turns after this one, averaged over the new faces (the plan held fixed).
    pub turns: f64,
}

impl PlanAdvice {
    /// The advice for `player` in `game`: `all` is every player's linker answer in seat order
    /// ([`super::link::link_all`]), `built` the game after the player's plan as the engine built
    /// it (its certificate; `None` without a plan), `advice` the best use of the roll if one was
    /// found; `position` names what was planned.
    pub fn new(
        position: impl Into<String>,
        game: &Game,
        player: Colour,
        all: &[(Colour, Linked)],
        built: Option<&Game>,
        advice: Option<&Advice>,
    ) -> PlanAdvice {
        let supply = game.supply();
        let mine = all.iter().find(|(c, _)| *c == player).map_or(&Linked::None(NoPlan::Board), |(_, l)| l);
        let plan = mine.plan();
        // Each plan tile's pile, as the engine took it.
        let crossing: Vec<bool> = match (plan, built) {
            (Some(p), Some(after)) => {
                after.tiles()[after.tiles().len() - p.tiles.len()..].iter().map(|t| t.crossing).collect()
            }
            _ => Vec::new(),
        };
        let draws = built.map(|after| {
            let left = after.supply();
            Supply {
                straight: supply.straight - left.straight,
                curved: supply.curved - left.curved,
                crossing: supply.crossing - left.crossing,
            }
        });
        let tiles = plan
            .iter()
            .flat_map(|p| &p.tiles)
            .zip(crossing.iter().copied().chain(std::iter::repeat(false)))
            .map(|(&(hex, ends), crossing)| PlanTile {
                at: at(game, hex),
                ends,
                kind: kind(game, ends),
                terrain: terrain(game, hex),
                crossing,
            })
            .collect();
        let players = all
            .iter()
            .map(|(c, l)| PlayerLink {
                colour: *c,
                tiles: l.plan().map(|p| p.tiles.len()),
                proven: !matches!(l, Linked::Stopped { .. }),
                reason: reason(l, supply),
                expected_turns: l
                    .plan()
                    .map(|p| expected_turns(&Course::of(p, game.content(), game.options().curve), game.content())),
                to_link: l.plan().map(|p| city_names(game, &p.to_link)),
            })
            .collect();
        let at_least = match mine {
            Linked::Plan(p) => Some(p.tiles.len()),
            Linked::Stopped { at_least } => Some(*at_least),
            Linked::None(_) => None,
        };
        PlanAdvice {
            position: position.into(),
            player,
            tiles: plan.map(|p| p.tiles.len()),
            reason: reason(mine, supply),
            proven: !matches!(mine, Linked::Stopped { .. }),
            at_least,
            plan: tiles,
            draws,
            supply,
            to_link: plan.map(|p| city_names(game, &p.to_link)),
            players,
            roll: advice.map(|adv| RollAdvice::new(game, adv)),
        }
    }
}

impl RollAdvice {
    /// `adv`, the best use of a roll in `game` ([`super::roll::best_use`]), with its builds'
    /// hexes as the map numbers them.
    pub fn new(game: &Game, adv: &Advice) -> RollAdvice {
        let builds = adv
            .best
            .builds
            .iter()
            .filter_map(|a| match *a {
                Action::Build { hex, ends, slot } => Some(AdvisedBuild { at: at(game, hex), ends, slot }),
                _ => None,
            })
            .collect();
        RollAdvice {
            crossed: adv.best.crossed,
            builds,
            remaining: adv.best.remaining,
            turns: adv.best.turns,
            considered: adv.considered,
            complete: adv.complete,
            keep: adv.keep,
            rerolls: adv.rerolls.iter().map(|r| RerollTurns { dice: r.dice.clone(), turns: r.turns }).collect(),
        }
    }
}

/// A hex as the map's rows number it: `[column, row]` (the axial coordinates off the map's rows).
pub fn at(game: &Game, hex: Hex) -> [i32; 2] {
    game.content().offsets.get(&hex).map_or([hex.q, hex.r], |&(c, r)| [c, r])
}

/// The names of `cities`.
pub fn city_names(game: &Game, cities: &[usize]) -> Vec<String> {
    cities.iter().map(|&c| game.content().cities[c].name.clone()).collect()
}

/// A supply in words: `S straight, C curved, X crossing`.
pub fn supply_words(s: Supply) -> String {
    format!("{} straight, {} curved, {} crossing", s.straight, s.curved, s.crossing)
}

/// Why a player has no plan, in words (the JSON's `reason`); `None` with a plan.
pub fn reason(answer: &Linked, supply: Supply) -> Option<String> {
    match answer {
        Linked::Plan(_) => None,
        Linked::None(NoPlan::Board) => Some("no way left on the board to link all four cities".to_string()),
        Linked::None(NoPlan::Supply { board }) => Some(format!(
            "no plan within the supply: the fewest tiles on the board are {board}, but the supply left ({}) cannot provide any plan in an order the rules allow",
            supply_words(supply)
        )),
        Linked::Stopped { at_least } => Some(format!(
            "stopped at the time limit before a plan was found: at least {at_least} {} (a lower bound; the fewest is not proven)",
            if *at_least == 1 { "tile" } else { "tiles" }
        )),
    }
}

/// A tile's kind under the game's curves, `?` if neither.
fn kind(game: &Game, ends: Ends) -> String {
    ends.kind(game.options().curve).map_or("?".to_string(), |k| k.to_string())
}

/// A hex's terrain, `?` off the map's terrain.
fn terrain(game: &Game, hex: Hex) -> String {
    game.content().terrain(hex).map_or("?".to_string(), |t| t.to_string())
}

#[cfg(test)]
mod tests {
    use signalbox_engine::railways::track::Side;

    use super::*;

    #[test]
    fn the_advice_reads_back_as_written_with_its_nulls_in_place() {
        let ends = Ends::new(Side::new(0), Side::new(3)).unwrap();
        let supply = Supply { straight: 3, curved: 2, crossing: 1 };
        let advice = PlanAdvice {
            position: "the sample position".to_string(),
            player: Colour::Blue,
            tiles: None,
            reason: Some("no way left on the board to link all four cities".to_string()),
            proven: true,
            at_least: None,
            plan: vec![PlanTile {
                at: [1, 2],
                ends,
                kind: "straight".to_string(),
                terrain: "plains".to_string(),
                crossing: false,
            }],
            draws: None,
            supply,
            to_link: None,
            players: vec![],
            roll: Some(RollAdvice {
                crossed: true,
                builds: vec![AdvisedBuild { at: [1, 2], ends, slot: 3 }],
                remaining: 4,
                turns: 2.5,
                considered: 7,
                complete: false,
                keep: 3.0,
                rerolls: vec![RerollTurns { dice: vec![Die::Track(1)], turns: 2.25 }],
            }),
        };
        let text = serde_json::to_string(&advice).unwrap();
        assert!(text.starts_with(r#"{"position":"the sample position","player":"blue","tiles":null,"reason":"#));
        assert!(text.contains(r#""draws":null,"supply":{"straight":3,"curved":2,"crossing":1},"to_link":null"#));
        assert_eq!(serde_json::from_str::<PlanAdvice>(&text).unwrap(), advice);
    }
}
