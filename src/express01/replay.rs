//! `signalbox express01 replay ANSWER`: the engine checks a bonus route answer (as `route --json`
//! prints it) against its position on its own: the route's steps are legal, the payout and the
//! card count are what the rules give, and the cards are handed out as claimed.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::json;
use signalbox_engine::express01::payout::distribute;
use signalbox_engine::express01::route::{LengthRule, Route, RouteRules, RouteTask, Step};
use signalbox_engine::source::parse_json;

use super::{load_content, load_position};
use crate::input::{bad, read_text};

/// Arguments of `express01 replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A game record (JSON with a `record` field), or a route answer: a JSON object as
    /// `express01 route --json` prints it (its `steps` are the certificate).
    #[arg(value_name = "RECORD|ANSWER")]
    answer: PathBuf,
    /// The position the answer is for (default: the file its `position` field names, or the
    /// embedded sample when it names that).
    #[arg(long, value_name = "FILE")]
    position: Option<PathBuf>,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// What replay reads of an answer; other fields of `route --json` are carried, not checked.
#[derive(Debug, Deserialize)]
struct Answer {
    position: String,
    company: String,
    player: String,
    #[serde(default)]
    black_engine: bool,
    max_cards: u32,
    length_rule: String,
    payout: u32,
    cards: u32,
    steps: Option<Vec<StepText>>,
    #[serde(default)]
    distribution: Vec<Share>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepText {
    cell: String,
    from: String,
    to: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Share {
    player: String,
    shares: u32,
    cards: u32,
}

const SAMPLE: &str = "the sample position";

/// Runs `express01 replay`.
pub fn run(a: ReplayArgs) -> anyhow::Result<()> {
    let label = a.answer.display().to_string();
    let text = read_text(&a.answer)?;
    if super::record::is_record(&text) {
        return super::record::replay(&label, &text, a.content.as_deref(), a.json);
    }
    let answer: Answer = parse_json(&label, &text).map_err(|e| bad(e.to_string()))?;
    let (_, catalogue) = load_content(a.content.as_deref())?;
    let position_path: Option<PathBuf> = match (&a.position, answer.position.as_str()) {
        (Some(p), _) => Some(p.clone()),
        (None, SAMPLE) => None,
        (None, named) => {
            let p = PathBuf::from(named);
            let p =
                if p.is_relative() && !p.exists() { a.answer.parent().unwrap_or(Path::new(".")).join(p) } else { p };
            Some(p)
        }
    };
    let from_answer = a.position.is_none();
    let (position_label, position) = load_position(position_path.as_deref(), &catalogue)
        .map_err(|e| if from_answer { bad(format!("{label}: field `position`: {e}")) } else { e })?;
    let field = |name: &str, message: String| bad(format!("{label}: field `{name}`: {message}"));
    let payment = position
        .payment(Some(&answer.company), Some(&answer.player), Some(answer.black_engine))
        .map_err(|p| bad(format!("{label}: on {position_label}: {p}")))?;
    let length = match answer.length_rule.as_str() {
        "all-cards" => LengthRule::AllCards,
        "cards-entered" => LengthRule::CardsEntered,
        other => return Err(field("length_rule", format!("`{other}`: expected all-cards or cards-entered"))),
    };
    let issued = position.issued_shares(payment.company);
    if answer.max_cards > issued + u32::from(payment.use_black_engine) {
        return Err(field(
            "max_cards",
            format!("{}: the position issues {issued} shares of {}", answer.max_cards, answer.company),
        ));
    }
    let network = position.network();
    let task = RouteTask { company: payment.company, max_cards: answer.max_cards, rules: RouteRules { length } };
    let (payout, cards) = match answer.steps.as_deref() {
        None | Some([]) => {
            if answer.payout != 0 {
                return Err(field("steps", format!("no route, yet the answer claims payout {}", answer.payout)));
            }
            (0, 0)
        }
        Some(steps) => {
            let mut route = Route { steps: Vec::new() };
            for (i, s) in steps.iter().enumerate() {
                let cell = network
                    .cells
                    .iter()
                    .position(|c| c.label.to_string() == s.cell)
                    .ok_or_else(|| field(&format!("steps[{i}].cell"), format!("`{}`: no such cell", s.cell)))?;
                let from = s.from.parse().map_err(|e| field(&format!("steps[{i}].from"), e))?;
                let to = s.to.parse().map_err(|e| field(&format!("steps[{i}].to"), e))?;
                route.steps.push(Step { cell, from, to });
            }
            let score = route.check(&network, task).map_err(|e| field("steps", e.to_string()))?;
            (score.payout, score.cards)
        }
    };
    if payout != answer.payout {
        return Err(field("payout", format!("the answer claims {} but its route pays {payout}", answer.payout)));
    }
    if cards != answer.cards {
        return Err(field("cards", format!("the answer claims {} but its route travels {cards} cards", answer.cards)));
    }
    let holders = position.holders(payment);
    let handed = distribute(payout, &holders, payment.player);
    if !answer.distribution.is_empty() {
        for (i, claim) in answer.distribution.iter().enumerate() {
            let at = holders.iter().position(|h| h.name == claim.player);
            match at {
                Some(k) if (holders[k].shares, handed[k]) == (claim.shares, claim.cards) => {}
                Some(k) => {
                    return Err(field(
                        &format!("distribution[{i}]"),
                        format!(
                            "{} holds {} shares and receives {} cards; the answer says {} and {}",
                            claim.player, holders[k].shares, handed[k], claim.shares, claim.cards
                        ),
                    ));
                }
                None => {
                    return Err(field(&format!("distribution[{i}]"), format!("no player is named `{}`", claim.player)));
                }
            }
        }
    }
    if a.json {
        let out = json!({
            "answer": label,
            "position": position_label,
            "replayed": true,
            "payout": payout,
            "cards": cards,
            "distribution": holders.iter().zip(&handed).map(|(h, &n)| json!({ "player": h.name, "shares": h.shares, "cards": n })).collect::<Vec<_>>(),
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    say!("{label}: the route replays on {position_label}: payout {payout}, {cards} cards, as claimed");
    let received: Vec<String> = holders.iter().zip(&handed).map(|(h, n)| format!("{} {n}", h.name)).collect();
    say!("Cards received: {}", received.join(", "));
    say!("(replay checks the route and its payout; `express01 route` proves that none pays more)");
    Ok(())
}
