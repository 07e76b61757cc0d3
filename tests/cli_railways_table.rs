//! End-to-end tests of `signalbox railways play --table`: a whole game typed in as it was played
//! (each roll as rolled, the moves in short words, no seed), its record replayed, reviewed by
//! `analyse` and advised at three turns; the characters ten turns take; answers that never
//! depend on what the table has not seen; and bad input, refused with the rule, nothing lost.

mod support;

use std::sync::Arc;

use serde_json::Value;
use signalbox_engine::railways::catalogue::{Content, offset_to_hex};
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::{Die, Roll, TrackFace};
use signalbox_engine::railways::game::{Action, Game, Phase};
use signalbox_engine::railways::record::{Move, RecordSetup};
use signalbox_engine::railways::terrain::TerrainFace;
use signalbox_solver::railways::analysis::sample_game;

use support::{run, run_with_input};

fn temp(name: &str) -> std::path::PathBuf {
    let path = support::temp_path("rx-table", name);
    let _ = std::fs::remove_file(&path);
    path
}

/// A roll as the table types it: the six letters `ssscpa`.
fn typed_roll(roll: Roll) -> String {
    let track = |f: TrackFace| match f {
        TrackFace::StraightStraight => "ss",
        TrackFace::CurvedCurved => "cc",
        TrackFace::StraightCurved => "sc",
    };
    let terrain = |f: TerrainFace| f.to_string()[..1].to_string();
    format!("{}{}{}{}", track(roll.track[0]), track(roll.track[1]), terrain(roll.terrain[0]), terrain(roll.terrain[1]))
}

/// The lines a player types to enter `record` at the table, turn by turn: each roll, the
/// re-rolls, `p` or `x`, each build as its sides and hex, and `end` where the turn does not end
/// by itself. The builds' slots are the ones the session finds (a terrain die that names the
/// terrain before one that shows any).
fn script(content: &Arc<Content>, record: &RecordSetup) -> Vec<Vec<String>> {
    typed_lines(content, record, false)
}

/// [`script`], the builds typed by words, or (`numbers`) by their number in the session's menu.
fn typed_lines(content: &Arc<Content>, record: &RecordSetup, numbers: bool) -> Vec<Vec<String>> {
    let mut game = Game::new(content.clone(), &record.seats, record.options, record.seed).expect("a game");
    let mut turns = Vec::new();
    for turn in &record.turns {
        let mut lines = Vec::new();
        let mut ended = false;
        for m in turn {
            let action = match m {
                Move::Roll { roll, .. } => {
                    lines.push(typed_roll(*roll));
                    m.action()
                }
                Move::Reroll { dice, roll } => {
                    let before = game.roll().expect("rolled");
                    let changed: Vec<Die> = (0..2u8)
                        .flat_map(|i| {
                            let t = before.track[usize::from(i)] != roll.track[usize::from(i)];
                            let g = before.terrain[usize::from(i)] != roll.terrain[usize::from(i)];
                            [(t, Die::Track(i)), (g, Die::Terrain(i))]
                        })
                        .filter_map(|(c, d)| c.then_some(d))
                        .collect();
                    let mut named = dice.clone();
                    named.sort_by_key(|d| format!("{d:?}"));
                    let mut found = changed.clone();
                    found.sort_by_key(|d| format!("{d:?}"));
                    if named == found {
                        lines.push(format!("reroll {}", typed_roll(*roll)));
                    } else {
                        let short: Vec<String> = dice
                            .iter()
                            .map(|d| match d {
                                Die::Track(i) => format!("t{}", i + 1),
                                Die::Terrain(i) => format!("g{}", i + 1),
                            })
                            .collect();
                        lines.push(format!("reroll {}: {}", short.join(" and "), typed_roll(*roll)));
                    }
                    m.action()
                }
                Move::Pair { crossed } => {
                    lines.push(if *crossed { "x" } else { "p" }.to_string());
                    m.action()
                }
                Move::Build { at, ends, .. } => {
                    let hex = offset_to_hex(at[0], at[1]);
                    let slots = game.slots().expect("paired");
                    let mut order: Vec<u8> = (0..4).collect();
                    order.sort_by_key(|&k| slots[usize::from(k)].0.terrain == TerrainFace::Any);
                    let slot = order
                        .into_iter()
                        .find(|&k| game.check_build(hex, *ends, k).is_ok())
                        .expect("a slot the session finds");
                    if numbers {
                        let menu = game.legal_builds();
                        let i = menu
                            .iter()
                            .position(|a| matches!(a, Action::Build { hex: h, ends: e, slot: k } if *h == hex && e == ends && slots[usize::from(*k)].0 == slots[usize::from(slot)].0))
                            .expect("in the menu");
                        lines.push((i + 1).to_string());
                        menu[i].clone()
                    } else {
                        lines.push(format!("{ends} {} {}", at[0], at[1]));
                        Action::Build { hex, ends: *ends, slot }
                    }
                }
                Move::End => {
                    if ended {
                        continue;
                    }
                    lines.push("end".to_string());
                    m.action()
                }
            };
            game.apply(&action).expect("the record's move");
            if matches!(game.phase(), Phase::Build { .. }) && game.legal_builds().is_empty() {
                game.apply(&Action::End).expect("the end");
                ended = true;
            }
        }
        turns.push(lines);
    }
    assert!(game.is_over() || record.turns.len() < 10, "the whole game was typed");
    turns
}

/// `text` with the measured times masked (a number followed by `ms` or `s`, and every JSON field
/// `seconds`): the answers compared, not the clock.
fn steady(text: &str) -> String {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.retain(|k, _| k != "seconds" && k != "ms");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    if let Ok(mut v) = serde_json::from_str::<Value>(text) {
        strip(&mut v);
        return v.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
            i += 1;
        }
        if i > start {
            let rest: String = chars[i..chars.len().min(i + 4)].iter().collect();
            let unit = rest.starts_with(" ms")
                || (rest.starts_with(" s") && !rest[2..].starts_with(|c: char| c.is_alphanumeric()));
            if unit {
                out.push('#');
            } else {
                out.extend(&chars[start..i]);
            }
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// A game the built-in player plays, as a record.
fn played(seats: &[Colour], seed: u64) -> (Arc<Content>, RecordSetup) {
    let content = Arc::new(Content::house());
    let record = sample_game(content.clone(), seats, seed, 0.0).expect("a game");
    (content, record)
}

fn players(seats: &[Colour]) -> String {
    seats.iter().map(|c| c.name()).collect::<Vec<_>>().join(",")
}

#[test]
fn a_whole_game_typed_at_the_table_replays_and_is_analysed_and_advised() {
    let seats = [Colour::Blue, Colour::Red];
    let (content, original) = played(&seats, 5);
    let lines: Vec<String> = script(&content, &original).concat();
    let path = temp("whole.json");
    let file = path.display().to_string();
    let (code, out, err) = run_with_input(
        &["railways", "play", "--table", "--players", &players(&seats), "--record", &file],
        &(lines.join("\n") + "\n"),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("not taken"), "every line was taken:\n{out}");
    assert!(out.contains("Game over after"), "{}", &out[out.len().saturating_sub(2000)..]);
    let saved = std::fs::read_to_string(&path).expect("the record");
    assert!(!saved.contains("seed"), "a table record holds no seed: {saved}");
    // The record replays with every rule checked, to the game's end and the same winners.
    let (code, out, err) = run(&["railways", "replay", &file, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["over"], true, "{out}");
    let (_, want, _) = {
        let orig = temp("whole-original.json");
        std::fs::write(&orig, serde_json::to_string(&original).expect("JSON")).expect("write");
        run(&["railways", "replay", &orig.display().to_string(), "--json"])
    };
    let want: Value = serde_json::from_str(&want).expect("JSON");
    assert_eq!(v["winners"], want["winners"]);
    assert_eq!(v["turns"], want["turns"]);
    let (code, out, err) = run(&["railways", "check", &file]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("a legal Railways Express record"), "{out}");
    // The review, and the advice at three turns of it (the roll rolled in each).
    let (code, out, err) = run(&["railways", "analyse", &file, "--games", "2", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let review: Value = serde_json::from_str(&out).expect("JSON");
    assert!(!review["decisions"].as_array().expect("decisions").is_empty());
    let n = original.turns.len();
    for turn in [1, n / 2, n] {
        let (code, out, err) = run(&["railways", "advise", &file, "--turn", &turn.to_string()]);
        assert_eq!(code, Some(0), "turn {turn}: {err}");
        assert!(out.contains(&format!("turn {turn}")) && out.contains("Roll"), "turn {turn}: {out}");
    }
    // `plan` is another name for `advise`.
    let (code, again, _) = run(&["railways", "plan", &file, "--turn", &n.to_string()]);
    assert_eq!(code, Some(0));
    let (_, advised, _) = run(&["railways", "advise", &file, "--turn", &n.to_string()]);
    assert_eq!(steady(&again), steady(&advised));
}

#[test]
fn ten_turns_of_four_players_take_few_characters() {
    let seats = [Colour::Blue, Colour::Yellow, Colour::Red, Colour::Purple];
    let (content, original) = played(&seats, 7);
    let turns = script(&content, &original);
    let ten: Vec<String> = turns[..10].concat();
    let typed: usize = ten.iter().map(|l| l.len() + 1).sum();
    let moves: usize = original.turns[..10].iter().map(Vec::len).sum();
    let written: usize = original.turns[..10].iter().flatten().map(|m| m.to_string().len() + 1).sum();
    eprintln!(
        "ten turns of four players: {typed} characters typed at the table ({} lines), against {written} for the {moves} moves in full words",
        ten.len()
    );
    assert!(typed * 3 < written, "{typed} typed, {written} in full words");
    let by_number: Vec<String> = typed_lines(&content, &original, true)[..10].concat();
    let numbered: usize = by_number.iter().map(|l| l.len() + 1).sum();
    eprintln!("ten turns of four players, the builds by menu number: {numbered} characters typed");
    assert!(numbered < typed && numbered * 4 < written, "{numbered}");
    let path = temp("ten-numbers.json");
    let (code, out, err) = run_with_input(
        &["railways", "play", "--table", "--record", &path.display().to_string()],
        &(by_number.join("\n") + "\nquit\n"),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("not taken"), "{out}");
    let path = temp("ten.json");
    let file = path.display().to_string();
    let (code, out, err) =
        run_with_input(&["railways", "play", "--table", "--record", &file], &(ten.join("\n") + "\nquit\n"));
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("not taken"), "{out}");
    let saved: RecordSetup = serde_json::from_str(&std::fs::read_to_string(&path).expect("record")).expect("a record");
    assert_eq!(saved.turns.len(), 10);
    let (code, out, _) = run(&["railways", "replay", &file]);
    assert_eq!(code, Some(0));
    assert!(out.contains("yellow to play") || out.contains("red to play"), "{out}");
}

/// `record` as a table record's JSON, with `extra` fields added.
fn record_json(record: &RecordSetup, extra: &[(&str, Value)]) -> String {
    let mut v = serde_json::to_value(record).expect("JSON");
    let object = v.as_object_mut().expect("an object");
    object.remove("seed");
    for (k, x) in extra {
        object.insert((*k).to_string(), x.clone());
    }
    serde_json::to_string_pretty(&v).expect("JSON")
}

#[test]
fn what_the_table_never_saw_changes_no_answer() {
    let seats = [Colour::Yellow, Colour::Purple];
    let (content, original) = played(&seats, 11);
    let path = temp("unseen.json");
    let file = path.display().to_string();
    let answer = |text: &str, args: &[&str]| {
        std::fs::write(&path, text).expect("write");
        let (code, out, err) = run(&[&["railways"], args, &[file.as_str()]].concat());
        assert_eq!(code, Some(0), "{err}");
        out
    };
    // A seed fills in what the table does not see (without the Service Bounties, nothing): a
    // record with one and without answer alike.
    let mut prefix = original.clone();
    prefix.turns.truncate(6);
    let table = record_json(&prefix, &[]);
    let seeded = record_json(&prefix, &[("seed", Value::from(987_654_u64))]);
    for args in
        [&["analyse", "--games", "3", "--json"][..], &["analyse", "--games", "3"], &["advise", "--json"], &["advise"]]
    {
        assert_eq!(steady(&answer(&table, args)), steady(&answer(&seeded, args)), "{args:?}");
    }
    // The dice after turn 4 are not seen at its start: two records that differ only in them give
    // the same advice at turn 4.
    let mut other = original.clone();
    other.turns.truncate(4);
    let mut game = Game::new(content.clone(), &other.seats, other.options, 0).expect("a game");
    for m in other.turns.iter().flatten() {
        game.apply(&m.action()).expect("legal");
    }
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(99);
    while other.turns.len() < 8 {
        if game.phase() == Phase::Roll {
            other.turns.push(Vec::new());
        }
        let action = game.random_action(&mut rng).expect("an action");
        game.apply(&action).expect("legal");
        other.turns.last_mut().expect("a turn").push(Move::from_action(&content, &action));
    }
    assert_ne!(other.turns[5], original.turns[5], "the later dice differ");
    for args in [&["advise", "--turn", "4"][..], &["advise", "--turn", "4", "--json"]] {
        assert_eq!(
            steady(&answer(&record_json(&original, &[]), args)),
            steady(&answer(&record_json(&other, &[]), args)),
            "{args:?}"
        );
    }
}

#[test]
fn bad_input_is_refused_with_the_rule_and_nothing_is_lost() {
    let path = temp("bad.json");
    let file = path.display().to_string();
    let steps = [
        "fly",              // not a roll
        "zz sc p a",        // no such face
        "red rolls ssscpa", // not red's turn
        "ss sc p a",
        "e-w 9 16", // a build before the pairing
        "p",
        "e-w 0 0",     // off the map or not joined
        "ne-sw 40 40", // not a hex of the board
        "warp",        // an unknown word
        "e-w 9 16",
        "undo",
        "e-w 9 16",
        "quit",
    ];
    let (code, out, err) = run_with_input(
        &["railways", "play", "--table", "--players", "blue,red", "--record", &file],
        &(steps.join("\n") + "\n"),
    );
    assert_eq!(code, Some(0), "{err}");
    let refusals: Vec<&str> = out.lines().filter(|l| l.starts_with("not taken")).collect();
    assert_eq!(refusals.len(), 7, "{out}");
    for r in &refusals {
        assert!(r.contains("rulebook") || r.contains("e.g."), "the rule or the form is named: {r}");
    }
    assert!(refusals[1].contains("\"zz\" is not a track face"), "{}", refusals[1]);
    assert!(refusals[2].contains("blue's turn"), "{}", refusals[2]);
    assert!(refusals[3].contains("pair the dice first"), "{}", refusals[3]);
    assert!(refusals[5].contains("[40, 40] is not a hex of the board"), "one way to name a hex: {}", refusals[5]);
    assert!(out.contains("taken back: build e-w on [9, 16]"), "{out}");
    let saved = std::fs::read_to_string(&path).expect("the record");
    let record: RecordSetup = serde_json::from_str(&saved).expect("a record");
    assert_eq!(record.turns.len(), 1);
    assert_eq!(record.turns[0].len(), 3, "the roll, the pairing and the build: {saved}");
    assert!(saved.contains("build e-w on [9, 16] with slot"), "{saved}");
    // Going on with the record: it is read back and the session asks for the next step.
    let (code, out, err) = run_with_input(&["railways", "play", &file, "--table"], "end\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("red rolls"), "{out}");
    // Bad files exit 2 naming the file and the field.
    std::fs::write(&path, r#"{"seats": ["blue", "red"], "turns": [["blue rolls SS,SC,plains,any", "pair sideways"]]}"#)
        .expect("write");
    let (code, _, err) = run(&["railways", "play", &file, "--table"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&file) && err.contains("turns[0][1]"), "{err}");
    std::fs::write(&path, r#"{"seats": ["blue", "red"], "options": {"service_bounties": true}, "turns": []}"#)
        .expect("write");
    let (code, _, err) = run(&["railways", "play", &file, "--table"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&file) && err.contains("options.service_bounties"), "{err}");
    std::fs::write(&path, r#"{"seats": ["blue", "red"], "turns": [["blue rolls SS,SC,plains,any", "pair straight", "build e-w on [40, 40] with slot 0"]]}"#)
        .expect("write");
    let (code, _, err) = run(&["railways", "advise", &file]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&file) && err.contains("turns[0][2]") && err.contains("[40, 40] is not a hex"), "{err}");
    // An existing record is not overwritten without --force.
    let (code, _, err) = run_with_input(&["railways", "play", "--table", "--record", &file], "quit\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--force"), "{err}");
}

#[test]
fn new_selfplay_and_a_seeded_game_share_the_record() {
    let path = temp("new.json");
    let file = path.display().to_string();
    let (code, out, err) = run(&["railways", "new", "--players", "red,blue", "--seed", "3", "--out", &file]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Wrote"));
    let (code, out, err) = run_with_input(&["railways", "play", &file], "p\nend\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("red rolled") && out.contains("blue rolls"), "signalbox rolls from the seed: {out}");
    let (code, out, err) = run(&["railways", "replay", &file]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("blue to play"), "{out}");
    let game = temp("self.json");
    let (code, out, err) =
        run(&["railways", "selfplay", "--players", "blue,red", "--seed", "5", "--out", &game.display().to_string()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Game over after"), "{out}");
    let (code, _, err) = run(&["railways", "replay", &game.display().to_string()]);
    assert_eq!(code, Some(0), "{err}");
}
