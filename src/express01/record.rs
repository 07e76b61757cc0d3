//! Game records on the command line: `express01 replay RECORD` (every rule checked, each round's
//! capitals and the winner), and the summary `selfplay` and `play` print of a game.

use std::path::Path;

use anyhow::Context as _;
use serde_json::json;
use signalbox_engine::express01::game::Game;
use signalbox_engine::express01::record::{self, Record, RoundCapitals};
use signalbox_solver::express01::selfplay::BestRoute;

use super::load_content;
use crate::input::bad;

/// Whether a file's text is a game record rather than a route answer: records name their format
/// in the field `record`.
pub fn is_record(text: &str) -> bool {
    text.contains("\"record\"")
}

/// Replays a record file with every rule checked and prints each round's capitals and the result.
pub fn replay(label: &str, text: &str, content: Option<&Path>, json: bool) -> anyhow::Result<()> {
    let (_, catalogue) = load_content(content)?;
    let (record, replayed) =
        record::read_and_replay(label, text, &catalogue, &BestRoute).map_err(|e| bad(e.to_string()))?;
    if json {
        let out = json!({
            "record": label,
            "replayed": true,
            "steps": replayed.steps,
            "turns": record.turns.len(),
            "rounds": rounds_json(&replayed.game, &replayed.rounds),
            "over": replayed.game.is_over(),
            "result": replayed.game.is_over().then(|| record::result_of(&replayed.game)),
            "position": replayed.game.to_setup(),
        });
        say!("{}", serde_json::to_string_pretty(&out).context("the replay as JSON")?);
        return Ok(());
    }
    say!("{label}: {}", describe_start(&record, &replayed.game));
    for line in summary(&replayed.game, &replayed.rounds) {
        say!("{line}");
    }
    say!("every rule checked: {} steps in {} turns", replayed.steps, record.turns.len());
    Ok(())
}

/// `express01 check RECORD`: the record replayed with every rule checked, in the shape of the
/// other checks.
pub fn check(label: &str, text: &str, content: Option<&Path>, json: bool) -> anyhow::Result<()> {
    let (_, catalogue) = load_content(content)?;
    let found = record::read_and_replay(label, text, &catalogue, &BestRoute)
        .map(|(r, p)| {
            let state = if p.game.is_over() {
                format!("the game is over after round {}", p.game.round())
            } else {
                format!("the game goes on in round {}", p.game.round())
            };
            format!("{label}: a legal Express 01 game record: {} turns, {} steps; {state}", r.turns.len(), p.steps)
        })
        .map_err(|e| vec![e.to_string()]);
    crate::output::check_result(label, found, json)
}

/// What the record starts from, in words.
pub fn describe_start(record: &Record, game: &Game<'_>) -> String {
    let from = match &record.start {
        Some(s) => format!("a new game from seed {}", s.seed),
        None => "a game from a position".to_string(),
    };
    format!(
        "Express 01 on {} ({}), {} players, {} game, {from}",
        game.map().name,
        game.catalogue().label(),
        game.seats().len(),
        game.rules().length.name()
    )
}

/// Each round's capitals, then the result or where the game stands.
pub fn summary(game: &Game<'_>, rounds: &[RoundCapitals]) -> Vec<String> {
    let mut out = Vec::new();
    for r in rounds {
        out.push(format!("round {:>2}: {}", r.round, capitals_line(game, &r.capitals)));
    }
    if game.is_over() {
        let capitals: Vec<u32> = (0..game.seats().len()).map(|p| game.capital(p).total()).collect();
        let winners: Vec<&str> = game.winners().iter().map(|&p| game.seats()[p].name.as_str()).collect();
        let verb = if winners.len() > 1 { "share the victory" } else { "wins" };
        out.push(format!(
            "game over after round {} ({} base cards upgraded, {} decks used up): {}",
            game.round(),
            game.upgraded(),
            game.empty_decks(),
            capitals_line(game, &capitals)
        ));
        out.push(format!("{} {verb}", winners.join(" and ")));
    } else {
        out.push(format!(
            "the record ends in round {}, turn {}: {} to move; the game expects {}",
            game.round(),
            game.turn(),
            game.seats()[game.mover()].name,
            game.expecting()
        ));
    }
    out
}

fn capitals_line(game: &Game<'_>, capitals: &[u32]) -> String {
    game.seats().iter().zip(capitals).map(|(s, c)| format!("{} {c}", s.name)).collect::<Vec<_>>().join(" · ")
}

/// Each round's capitals by name, for JSON.
pub fn rounds_json(game: &Game<'_>, rounds: &[RoundCapitals]) -> serde_json::Value {
    rounds
        .iter()
        .map(|r| {
            let by_name: serde_json::Map<String, serde_json::Value> =
                game.seats().iter().zip(&r.capitals).map(|(s, &c)| (s.name.clone(), json!(c))).collect();
            json!({ "round": r.round, "capitals": by_name })
        })
        .collect()
}
