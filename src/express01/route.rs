//! `signalbox express01 route`: the optimal bonus route.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};
use serde_json::{Value, json};
use signalbox_engine::express01::network::Network;
use signalbox_engine::express01::payout::distribute;
use signalbox_engine::express01::route::{RouteRules, RouteScore, RouteTask};
use signalbox_solver::express01::{RouteSolution, SearchOptions, best_routes};

use super::{LengthArg, Sources, load_content, load_position};
use crate::input::{bad, check_new, write_new};

/// Arguments of `express01 route`.
#[derive(clap::Args, Debug)]
pub struct RouteArgs {
    #[command(flatten)]
    sources: Sources,
    /// The company sending off the train (a colour, e.g. red); default: the position's pending
    /// bonus payment.
    #[arg(long, value_name = "COLOUR")]
    company: Option<String>,
    /// The player initiating the payment; default: the position's pending bonus payment.
    #[arg(long, value_name = "NAME")]
    player: Option<String>,
    /// The route length in cards; default: the company's issued shares.
    #[arg(long, value_name = "N")]
    shares: Option<u32>,
    /// The initiator uses the black engine as one more share for the payment.
    #[arg(long)]
    black_engine: bool,
    /// Show the K best distinct routes (a route and its reverse are one route).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    top: u32,
    /// How route length is counted.
    #[arg(long, value_enum, default_value_t = LengthArg::AllCards)]
    length_rule: LengthArg,
    /// Stop after S seconds and print the best route found with an upper bound, marked not proven.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    time_limit: Option<Duration>,
    /// Threads (default: one per core). The answer does not depend on it.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads)]
    threads: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also draw the board with the route to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replace the SVG file if it exists.
    #[arg(long)]
    force: bool,
}

/// A route the solver found, checked and re-scored by the engine.
struct Checked {
    solution: RouteSolution,
    score: RouteScore,
}

pub fn run(args: RouteArgs) -> anyhow::Result<()> {
    if let Some(path) = &args.svg {
        check_new(path, args.force)?;
    }
    let (content_label, catalogue) = load_content(args.sources.content.as_deref())?;
    let (position_label, position) = load_position(args.sources.position.as_deref(), &catalogue)?;
    let use_black_engine = args.black_engine.then_some(true);
    let payment = position
        .payment(args.company.as_deref(), args.player.as_deref(), use_black_engine)
        .map_err(|p| bad(format!("{position_label}: {p}")))?;
    let issued = position.issued_shares(payment.company);
    let max_cards = args.shares.unwrap_or(issued);
    let rules = RouteRules { length: args.length_rule.into() };
    let task = RouteTask { company: payment.company, max_cards, rules };
    let options = SearchOptions {
        top: args.top as usize,
        time_limit: args.time_limit,
        threads: args.threads,
        ..SearchOptions::default()
    };

    let network = position.network();
    let started = Instant::now();
    let answer = best_routes(&network, task, &options);
    let elapsed = started.elapsed();
    // The engine checks every certificate on its own before anything is printed.
    let mut routes = Vec::new();
    for solution in answer.routes {
        let score = solution
            .route
            .check(&network, task)
            .map_err(|e| anyhow::anyhow!("internal error: the solver's route fails the rules check: {e}"))?;
        if (score.payout, score.cards) != (solution.payout, solution.cards) {
            anyhow::bail!(
                "internal error: the solver scored its route {} but the engine scores it {}",
                solution.payout,
                score.payout
            );
        }
        routes.push(Checked { solution, score });
    }
    let payout = routes.first().map_or(0, |r| r.score.payout);
    let holders = position.holders(payment);
    let cards = distribute(payout, &holders, payment.player);
    let company = catalogue.company_name(payment.company).to_string();
    let player = position.players()[payment.player].name.clone();

    if let Some(path) = &args.svg {
        let title = format!(
            "Express 01 · {} · {company} train by {player} · payout {payout}{}",
            position.map().name,
            if answer.proven { "" } else { " (not proven)" }
        );
        let svg = signalbox_render::express01::picture::board_svg(
            &network,
            routes.first().map(|r| &r.solution.route),
            &title,
        );
        write_new(path, &svg, args.force)?;
    }

    if args.json {
        let best = routes.first();
        let out = json!({
            "content": { "name": catalogue.name, "house_set": catalogue.house_set, "source": content_label },
            "position": position_label,
            "map": position.map().id,
            "company": company,
            "player": player,
            "black_engine": payment.use_black_engine,
            "issued_shares": issued,
            "max_cards": max_cards,
            "length_rule": rules.length.name(),
            "proven": answer.proven,
            "upper_bound": answer.upper_bound,
            "payout": payout,
            "cards": best.map_or(0, |r| r.score.cards),
            "stations": best.map_or(Vec::new(), |r| station_labels(&network, &r.score)),
            "cells": best.map_or(Vec::new(), |r| cell_labels(&network, &r.score)),
            "breakdown": best.map_or(Value::Null, |r| breakdown_json(&network, &r.score)),
            "steps": best.map_or(Value::Null, |r| steps_json(&network, &r.solution)),
            "distribution": holders.iter().zip(&cards).map(|(h, &n)| json!({ "player": h.name, "shares": h.shares, "cards": n })).collect::<Vec<_>>(),
            "routes": routes.iter().map(|r| json!({
                "payout": r.score.payout,
                "cards": r.score.cards,
                "stations": station_labels(&network, &r.score),
                "cells": cell_labels(&network, &r.score),
            })).collect::<Vec<_>>(),
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }

    say!("Express 01 · bonus route");
    say!("Content:  {}", catalogue.label());
    say!("Position: {position_label} (map {})", position.map().name);
    say!(
        "Payment:  {company} train, started by {player}{}; {issued} {company} share{} issued, so at most {max_cards} card{}{} (length rule: {})",
        if payment.use_black_engine { " with the black engine" } else { "" },
        if issued == 1 { "" } else { "s" },
        if max_cards == 1 { "" } else { "s" },
        if args.shares.is_some() { " (--shares)" } else { "" },
        rules.length.name()
    );
    say!();
    let Some(best) = routes.first() else {
        if answer.proven {
            say!(
                "No legal route: no two stations, one of them {company}, are joined within {max_cards} cards. Payout 0."
            );
        } else {
            say!("No route found before the time limit; no route pays more than {} (not proven).", answer.upper_bound);
        }
        return Ok(());
    };
    let status = if answer.proven {
        "proven optimal".to_string()
    } else {
        format!("NOT PROVEN: time limit reached; no route pays more than {}", answer.upper_bound)
    };
    say!("Best route ({status}): payout {}, {} cards", best.score.payout, best.score.cards);
    say!("  {}", route_line(&network, &best.score));
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header(vec!["#", "station", "city", "company", "+1", "pays"]);
    for (i, s) in best.score.stations.iter().enumerate() {
        let cell = &network.cells[s.station.cell];
        table.add_row(vec![
            (i + 1).to_string(),
            network.station_label(s.station),
            cell.name.clone().unwrap_or_default(),
            network.company_label(s.company).to_string(),
            if s.bonus { "+1".into() } else { String::new() },
            s.value.to_string(),
        ]);
    }
    say!("{table}");
    let bonuses = best.score.stations.iter().filter(|s| s.bonus).count();
    say!("Payout: {} stations + {bonuses} bonus = {}", best.score.stations.len(), best.score.payout);
    say!("Cells:  {}", cell_labels(&network, &best.score).join(" → "));
    say!();
    say!("Cards received (order of payment: {player} first, then by turn order):");
    let mut order: Vec<usize> = (0..holders.len()).collect();
    let start = holders[payment.player].turn_order;
    order.sort_by_key(|&i| (holders[i].turn_order < start, holders[i].turn_order));
    for i in order {
        let h = &holders[i];
        let shares = format!(
            "{} share{}{}",
            h.shares,
            if h.shares == 1 { "" } else { "s" },
            if h.black_engine { " + black engine" } else { "" }
        );
        say!(
            "  {:<12} turn order {}  {shares:<10} → {} card{}",
            h.name,
            h.turn_order,
            cards[i],
            if cards[i] == 1 { "" } else { "s" }
        );
    }
    if routes.len() > 1 {
        say!();
        say!("The {} best routes:", routes.len());
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED).set_header(vec!["rank", "payout", "cards", "stations"]);
        for (i, r) in routes.iter().enumerate() {
            table.add_row(vec![
                (i + 1).to_string(),
                r.score.payout.to_string(),
                r.score.cards.to_string(),
                station_labels(&network, &r.score).join(" - "),
            ]);
        }
        say!("{table}");
    }
    say!();
    say!("Certificate checked by the rules engine.");
    // The work done is not part of the answer (threads share it out differently): it goes to
    // standard error.
    eprintln!("Searched {} nodes in {:.1} ms.", answer.nodes, elapsed.as_secs_f64() * 1e3);
    if let Some(path) = &args.svg {
        say!("Picture: {}", path.display());
    }
    Ok(())
}

fn position_cell_label(network: &Network, cell: usize) -> String {
    let c = &network.cells[cell];
    match &c.name {
        Some(name) => format!("{} {name}", c.label),
        None => c.label.to_string(),
    }
}

fn route_line(network: &Network, score: &RouteScore) -> String {
    score
        .stations
        .iter()
        .map(|s| {
            position_cell_label(network, s.station.cell)
                + &if network.cells[s.station.cell].stations.len() > 1 {
                    format!("/s{}", s.station.index + 1)
                } else {
                    String::new()
                }
        })
        .collect::<Vec<_>>()
        .join(" → ")
}

fn station_labels(network: &Network, score: &RouteScore) -> Vec<String> {
    score.stations.iter().map(|s| network.station_label(s.station)).collect()
}

fn cell_labels(network: &Network, score: &RouteScore) -> Vec<String> {
    score.cells.iter().map(|&c| network.cells[c].label.to_string()).collect()
}

fn breakdown_json(network: &Network, score: &RouteScore) -> Value {
    Value::Array(
        score
            .stations
            .iter()
            .map(|s| {
                json!({
                    "station": network.station_label(s.station),
                    "name": network.cells[s.station.cell].name,
                    "company": network.company_label(s.company),
                    "bonus": s.bonus,
                    "value": s.value,
                })
            })
            .collect(),
    )
}

fn steps_json(network: &Network, solution: &RouteSolution) -> Value {
    Value::Array(
        solution
            .route
            .steps
            .iter()
            .map(|s| json!({ "cell": network.cells[s.cell].label.to_string(), "from": s.from.to_string(), "to": s.to.to_string() }))
            .collect(),
    )
}
