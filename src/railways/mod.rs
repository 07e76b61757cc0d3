//! `signalbox railways ...`: Railways Express commands.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Subcommand;
use serde_json::json;
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::catalogue::{Content, HOUSE_MAP_LABEL, HOUSE_MAP_TOML};
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::Roll;
use signalbox_engine::railways::game::Action;
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::position::{SAMPLE_POSITION_JSON, SAMPLE_POSITION_LABEL};
use signalbox_engine::railways::track::Ends;
use signalbox_solver::railways::link::{LinkPlan, min_link};
use signalbox_solver::railways::odds::odds;
use signalbox_solver::railways::race::{Course, expected_turns};
use signalbox_solver::railways::roll::{Advice, best_use};

use crate::input::{bad, text_or_embedded, write_new};

mod picture;

/// Railways Express commands.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// How far each player really is from linking their four cities: the fewest tiles each must
    /// still build, proven, and one plan that builds that few for the player to move (or
    /// --player).
    ///
    /// A plan is a tree of new track over the player's network and the cities still to link:
    /// tiles only on hexes between the cities, one tile of the player per hex, no entry into
    /// another colour's city, at most two connections to a gray city, each city side entered
    /// once, the curves of the game's options (docs/rules/railways-express.md). Terrain does not
    /// change the count (a die face builds anywhere) but is printed for each tile, and it sets
    /// the expected turns each plan takes under the dice (exact for that plan, by dynamic
    /// programming; the other players and re-rolls left out). The plan is replayed by the rules
    /// engine before it is printed. With no POSITION, an embedded sample
    /// position is planned.
    ///
    /// Examples:
    ///   signalbox railways plan
    ///   signalbox railways plan position.json --player red --svg plan.svg
    ///   signalbox railways plan --json
    ///   signalbox railways plan --roll SS,SC,plains,any
    ///
    /// With --roll: every pairing and every sequence of builds that keeps to a minimum plan
    /// (each tile brings the fewest tiles still needed down by one) is compared by the expected
    /// turns still needed afterwards: exact, by dynamic programming over the plan found then,
    /// under the dice alone (re-rolls and the other players left out). Each re-roll of one or
    /// two dice is valued the same way, averaged over the new faces, with the plan of the
    /// position held fixed.
    #[command(verbatim_doc_comment)]
    Plan(PlanArgs),
    /// Each player's chance to win from the position, by playing it out many times: every
    /// player follows its minimum link plan and plays each roll at its best for that plan (the
    /// pairing and builds that leave the fewest expected turns, and a re-roll with a cube when
    /// one lowers them; the same reckoning as plan --roll with the plan held fixed). Prints each
    /// chance with its 95% interval.
    ///
    /// Game i rolls its dice from seed SEED + i, so the answer is the same on every machine and
    /// thread count.
    ///
    /// Examples:
    ///   signalbox railways odds
    ///   signalbox railways odds position.json --games 5000 --json
    #[command(verbatim_doc_comment)]
    Odds(OddsArgs),
}

#[derive(clap::Args, Debug)]
struct PlanArgs {
    /// A position (JSON, docs/formats/railways-position.md); default: the embedded sample.
    position: Option<PathBuf>,
    /// The player to plan for (blue, yellow, red, purple); default: the player to move.
    #[arg(long, value_name = "COLOUR")]
    player: Option<String>,
    /// The dice the player to move has rolled, as four faces: the track dice (SS, CC, SC) and
    /// the terrain dice (plains, mountain, water, any), e.g. `SS,SC,plains,any`. Prints the best
    /// use of the roll and whether a re-roll with a cube pays.
    #[arg(long, value_name = "DICE")]
    roll: Option<String>,
    /// Print JSON: `tiles` (the fewest), `plan` (each tile's hex, sides and terrain), `to_link`,
    /// every player's fewest tiles and expected turns, and with --roll the advice (`roll`).
    #[arg(long)]
    json: bool,
    /// Draw the map, the track and the plan (dashed) to FILE (SVG); with --roll, the advised
    /// builds too (solid, on a dark edge).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replace an existing --svg file.
    #[arg(long)]
    force: bool,
    /// Content file (TOML, docs/formats/railways-content.md); default: the embedded house map.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct OddsArgs {
    /// A position (JSON, docs/formats/railways-position.md); default: the embedded sample.
    position: Option<PathBuf>,
    /// Games to play out (500 give intervals about 4 points either side of an even chance).
    #[arg(long, default_value_t = 500)]
    games: usize,
    /// The seed of the first game's dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON: each player's `chance` and `interval`, `games`, `mean_turns`.
    #[arg(long)]
    json: bool,
    /// Content file (TOML, docs/formats/railways-content.md); default: the embedded house map.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

/// Runs a Railways Express command.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Plan(a) => plan(a),
        Command::Odds(a) => run_odds(a),
    }
}

fn load(content: Option<&Path>, position: Option<&Path>) -> anyhow::Result<(String, Game)> {
    let (label, text) = text_or_embedded(content, HOUSE_MAP_LABEL, HOUSE_MAP_TOML)?;
    let content = Content::from_toml(&label, &text).map(Arc::new).map_err(|e| bad(e.to_string()))?;
    let (label, text) = text_or_embedded(position, SAMPLE_POSITION_LABEL, SAMPLE_POSITION_JSON)?;
    let game = Game::from_json(content, &label, &text).map_err(|e| bad(e.to_string()))?;
    Ok((label, game))
}

fn content_label(content: &Content) -> String {
    let mark = if content.house_set { " (house map, not the publisher's board)" } else { "" };
    format!("{}{mark}", content.name)
}

/// A hex as the map's rows number it: `[column, row]`.
fn at(game: &Game, hex: Hex) -> [i32; 2] {
    game.content().offsets.get(&hex).map_or([hex.q, hex.r], |&(c, r)| [c, r])
}

fn city_names(game: &Game, cities: &[usize]) -> Vec<String> {
    cities.iter().map(|&c| game.content().cities[c].name.clone()).collect()
}

fn plan(a: PlanArgs) -> anyhow::Result<()> {
    let (label, game) = load(a.content.as_deref(), a.position.as_deref())?;
    let player = match &a.player {
        Some(p) => {
            let c: Colour = p.parse().map_err(|e: String| bad(format!("--player: {e}")))?;
            if game.seat(c).is_none() {
                return Err(bad(format!("--player {c}: {c} does not play in {label}")));
            }
            c
        }
        None => game.players()[game.active()].colour,
    };
    let roll: Option<Roll> = match &a.roll {
        None => None,
        Some(r) => {
            let roll: Roll = r.parse().map_err(|e: String| bad(format!("--roll: {e}")))?;
            let faces = &game.content().dice;
            if roll.track.iter().any(|f| !faces.track.contains(f))
                || roll.terrain.iter().any(|f| !faces.terrain.contains(f))
            {
                return Err(bad(format!("--roll {r}: the dice have no such face")));
            }
            if player != game.players()[game.active()].colour {
                return Err(bad(format!(
                    "--roll: the roll is for the player to move, {}",
                    game.players()[game.active()].colour
                )));
            }
            if game.is_over() {
                return Err(bad(format!("{label}: the game is over")));
            }
            Some(roll)
        }
    };
    let advice: Option<Advice> = roll.and_then(|r| best_use(&game, r));
    let started = Instant::now();
    let all: Vec<(Colour, Option<LinkPlan>)> =
        game.players().iter().map(|p| (p.colour, min_link(&game, p.colour).map(|(plan, _)| plan))).collect();
    let seconds = started.elapsed().as_secs_f64();
    // The expected turns to build each plan under the dice alone (exact for that plan).
    let turns: Vec<Option<f64>> = all
        .iter()
        .map(|(_, p)| {
            p.as_ref().map(|p| expected_turns(&Course::of(p, game.content(), game.options().curve), game.content()))
        })
        .collect();
    let plan = all.iter().find(|(c, _)| *c == player).and_then(|(_, p)| p.clone());
    // The certificate: the engine builds the plan from the position and the cities are linked.
    if let Some(p) = &plan {
        let after = game
            .with_track(player, &p.tiles)
            .map_err(|(i, e)| anyhow::anyhow!("the plan's tile {} failed its check: {e}", i + 1))?;
        anyhow::ensure!(after.has_linked_all(player), "the plan does not link {player}'s cities");
    }
    let terrain = |hex: Hex| game.content().terrain(hex).map_or("?".to_string(), |t| t.to_string());
    let kind = |ends: Ends| ends.kind(game.options().curve).map_or("?".to_string(), |k| k.to_string());
    if let Some(path) = &a.svg {
        let mut title = match &plan {
            Some(p) => format!("{player}: {} tiles to link all four cities", p.tiles.len()),
            None => format!("{player}: no way to link all four cities"),
        };
        if let (Some(r), Some(adv)) = (roll, &advice) {
            title.push_str(&format!("; roll {r}: {} builds (solid)", adv.best.builds.len()));
        }
        let tiles = plan.as_ref().map_or(&[][..], |p| &p.tiles[..]);
        let advised: Vec<(Hex, Ends)> = advice
            .iter()
            .flat_map(|adv| &adv.best.builds)
            .filter_map(|b| match *b {
                Action::Build { hex, ends, .. } => Some((hex, ends)),
                _ => None,
            })
            .collect();
        write_new(path, &picture::position_svg(&game, player, tiles, &advised, &title), a.force)?;
    }
    if a.json {
        let tiles: Vec<serde_json::Value> = plan
            .iter()
            .flat_map(|p| &p.tiles)
            .map(
                |&(hex, ends)| json!({"at": at(&game, hex), "ends": ends, "kind": kind(ends), "terrain": terrain(hex)}),
            )
            .collect();
        let players: Vec<serde_json::Value> = all
            .iter()
            .zip(&turns)
            .map(|((c, p), t)| {
                json!({"colour": c, "tiles": p.as_ref().map(|p| p.tiles.len()), "expected_turns": t, "to_link": p.as_ref().map(|p| city_names(&game, &p.to_link))})
            })
            .collect();
        let out = json!({
            "position": label,
            "player": player,
            "tiles": plan.as_ref().map(|p| p.tiles.len()),
            "plan": tiles,
            "to_link": plan.as_ref().map(|p| city_names(&game, &p.to_link)),
            "proven": true,
            "players": players,
            "seconds": seconds,
            "roll": advice.as_ref().map(|adv| advice_json(&game, adv)),
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    let mover = game.players()[game.active()].colour;
    say!("Railways Express · {label} · {} players, {mover} to play (turn {})", game.players().len(), game.turns() + 1);
    say!("Map: {}", content_label(game.content()));
    say!("Fewest tiles still to build to link all four cities (proven), and the turns that plan takes on average:");
    for ((c, p), t) in all.iter().zip(&turns) {
        match p {
            Some(p) => {
                let linked = 4 - p.to_link.len();
                let t = t.map_or("-".to_string(), |t| format!("{t:.2}"));
                say!("  {c:<7} {:>3} tiles  {t:>6} turns  ({linked} of 4 cities linked)", p.tiles.len());
            }
            None => say!("  {c:<7}   -    no way left to link all four cities"),
        }
    }
    say!();
    match &plan {
        None => say!("{player} cannot link all four cities any more."),
        Some(p) if p.tiles.is_empty() => say!("{player} has linked all four cities."),
        Some(p) => {
            say!(
                "{player}: {} tiles to link {} ({:.1} ms for all players):",
                p.tiles.len(),
                city_names(&game, &p.to_link).join(", "),
                seconds * 1e3
            );
            for (i, &(hex, ends)) in p.tiles.iter().enumerate() {
                let [c, r] = at(&game, hex);
                say!("  {:>3}. {:<8} {ends:<6} on [{c}, {r}] ({})", i + 1, kind(ends), terrain(hex));
            }
            say!(
                "Checked: the rules engine built these {} tiles from the position, in this order, and {player}'s four cities are linked.",
                p.tiles.len()
            );
        }
    }
    if let (Some(roll), Some(adv)) = (roll, &advice) {
        say!();
        say!("Roll: {roll}");
        let b = &adv.best;
        say!(
            "Best use ({} ends of turn compared): pair {} and build {}:",
            adv.considered,
            if b.crossed { "track die 1 with terrain die 2" } else { "track die 1 with terrain die 1" },
            b.builds.len()
        );
        for (i, action) in b.builds.iter().enumerate() {
            if let &Action::Build { hex, ends, slot } = action {
                let [c, r] = at(&game, hex);
                say!("  {:>3}. {:<8} {ends:<6} on [{c}, {r}] ({}), slot {}", i + 1, kind(ends), terrain(hex), slot + 1);
            }
        }
        say!(
            "Afterwards: {} tiles still to build, {:.2} expected turns more (exact for the plan then, under the dice alone).",
            b.remaining,
            b.turns
        );
        match adv.rerolls.first() {
            None => say!("No cube in hand: no re-roll."),
            Some(r) => {
                let dice: Vec<String> = r.dice.iter().map(ToString::to_string).collect();
                let verdict = if r.turns + 1e-9 < adv.keep { "re-roll" } else { "keep the roll" };
                say!(
                    "Re-roll? Reckoned alike, with the position's plan held fixed (the use above may re-plan): keeping the roll {:.2} expected turns more, re-rolling {} {:.2} (the best of {} re-rolls, one cube): {verdict}.",
                    adv.keep,
                    dice.join(" and "),
                    r.turns,
                    adv.rerolls.len()
                );
            }
        }
    } else if roll.is_some() {
        say!();
        say!("{player} cannot link all four cities any more: no use of the roll helps.");
    }
    if let Some(path) = &a.svg {
        say!("Picture: {}", path.display());
    }
    Ok(())
}

fn advice_json(game: &Game, adv: &Advice) -> serde_json::Value {
    let builds: Vec<serde_json::Value> = adv
        .best
        .builds
        .iter()
        .filter_map(|a| match *a {
            Action::Build { hex, ends, slot } => Some(json!({"at": at(game, hex), "ends": ends, "slot": slot + 1})),
            _ => None,
        })
        .collect();
    let rerolls: Vec<serde_json::Value> =
        adv.rerolls.iter().map(|r| json!({"dice": r.dice, "turns": r.turns})).collect();
    json!({
        "crossed": adv.best.crossed,
        "builds": builds,
        "remaining": adv.best.remaining,
        "turns": adv.best.turns,
        "considered": adv.considered,
        "keep": adv.keep,
        "rerolls": rerolls,
    })
}

fn run_odds(a: OddsArgs) -> anyhow::Result<()> {
    if a.games == 0 {
        return Err(bad("--games 0: expected at least one game"));
    }
    let (label, game) = load(a.content.as_deref(), a.position.as_deref())?;
    if game.is_over() {
        return Err(bad(format!("{label}: the game is over")));
    }
    let bar = crate::flags::progress(a.games as u64, "games", a.json);
    let started = Instant::now();
    let result = odds(&game, a.games, a.seed, &|| bar.inc(1));
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if a.json {
        let chances: Vec<serde_json::Value> = result
            .chances
            .iter()
            .map(|c| json!({"colour": c.colour, "chance": c.chance, "interval": [c.interval.0, c.interval.1], "wins": c.wins}))
            .collect();
        let out = json!({
            "position": label,
            "games": result.games,
            "seed": a.seed,
            "chances": chances,
            "mean_turns": result.mean_turns,
            "unfinished": result.unfinished,
            "seconds": seconds,
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    let mover = game.players()[game.active()].colour;
    say!("Railways Express · {label} · {mover} to play (turn {})", game.turns() + 1);
    say!(
        "Win chances over {} games played out (every player playing each roll at its best for its minimum link plan; seeds {} to {}):",
        result.games,
        a.seed,
        a.seed + result.games as u64 - 1
    );
    for c in &result.chances {
        say!(
            "  {:<7} {:>5.1}%   95% interval {:.1}% to {:.1}%",
            c.colour,
            100.0 * c.chance,
            100.0 * c.interval.0,
            100.0 * c.interval.1
        );
    }
    say!("Games lasted {:.1} more turns on average ({:.1} s).", result.mean_turns, seconds);
    if result.unfinished > 0 {
        say!("{} games did not end within the turn limit and count as nobody's win.", result.unfinished);
    }
    Ok(())
}
