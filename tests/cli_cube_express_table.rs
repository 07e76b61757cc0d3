//! End-to-end tests of Cube Express at the table: a whole game through `play --table` from a
//! script (actions in words, every tile typed as it is turned up from the stack, no seed and no
//! stack order given), `analyse` of the saved record and `advise` at three of its positions;
//! answers that do not change with what nobody saw; bad input in `play` and bad files.

mod support;

use std::sync::Arc;

use rand::SeedableRng;
use serde_json::Value;
use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::read_record;

use support::{run, run_with_input};

fn temp(name: &str) -> std::path::PathBuf {
    let p = support::temp_path("ce-table", name);
    let _ = std::fs::remove_file(&p);
    p
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("path")
}

/// A game the table plays: the start as the table shows it (the `play --table` flags), the
/// lines typed (each action in the words signalbox prints, every fourth end of a turn as its
/// menu number, and the number of each tile turned up as it comes), the turn each line belongs
/// to, the seeded game's stack at the start (bottom first) and its final scores.
struct Script {
    flags: Vec<String>,
    lines: Vec<String>,
    turn_of_line: Vec<u32>,
    stack: Vec<u8>,
    totals: Vec<i64>,
}

fn script(seed: u64) -> Script {
    let content = Arc::new(Content::house());
    let mut game = Game::new(content, 2, seed, Options::default()).expect("setup");
    let start = game.clone();
    let hands: Vec<String> =
        game.players().iter().map(|p| p.hand.iter().map(u8::to_string).collect::<Vec<_>>().join(",")).collect();
    let join = |v: Vec<u8>| v.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let flags = vec![
        "--players".to_string(),
        "2".to_string(),
        "--objectives".to_string(),
        join(game.objectives().to_vec()),
        "--first".to_string(),
        game.players()[usize::from(game.first_player())].colour.to_string(),
        "--hands".to_string(),
        hands.join("/"),
        "--display".to_string(),
        join(game.display().iter().flatten().copied().collect()),
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut lines, mut turn_of_line) = (Vec::new(), Vec::new());
    let mut ends = 0;
    while let Some(a) = game.random_action(&mut rng) {
        let turn = game.turns_played();
        let drawn = (matches!(a, Action::Market { .. }) && !game.stack().is_empty())
            .then(|| game.stack()[game.stack().len() - 1]);
        if matches!(a, Action::End { .. }) {
            ends += 1;
        }
        if matches!(a, Action::End { .. }) && ends % 4 == 0 {
            let n = game.legal_actions().iter().position(|x| *x == a).expect("listed") + 1;
            lines.push(n.to_string());
        } else {
            lines.push(a.to_string());
        }
        turn_of_line.push(turn);
        game.apply(&a).expect("legal");
        if let Some(tile) = drawn {
            lines.push(tile.to_string());
            turn_of_line.push(turn);
        }
    }
    assert!(game.is_over());
    let totals =
        signalbox_engine::cube_express::score::final_scores(&game).iter().map(|s| i64::from(s.total())).collect();
    Script { flags, lines, turn_of_line, stack: start.stack().to_vec(), totals }
}

fn play_table(s: &Script, lines: &[String], record: &std::path::Path) -> (Option<i32>, String, String) {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut args: Vec<&str> = vec!["cube-express", "play", "--table"];
    args.extend(s.flags.iter().map(String::as_str));
    args.extend(["--record", path(record)]);
    run_with_input(&args, &input)
}

/// A JSON answer without its timing and naming fields.
fn timeless(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).expect("JSON");
    fn strip(v: &mut Value) {
        match v {
            Value::Object(o) => {
                o.retain(|k, _| !k.contains("seconds") && k != "position" && k != "title" && k != "record");
                o.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[test]
fn a_whole_game_entered_at_the_table_replays_and_is_analysed_and_advised() {
    let s = script(5);
    let record = temp("game.json");
    let (code, out, err) = play_table(&s, &s.lines, &record);
    assert_eq!(code, Some(0), "{err}\n{out}");
    assert!(out.contains("Game over"), "{out}");
    assert!(!out.contains("not taken"), "{out}");
    // The characters typed for ten turns (each line and its newline).
    let typed: usize = s.lines.iter().zip(&s.turn_of_line).filter(|(_, t)| **t < 10).map(|(l, _)| l.len() + 1).sum();
    eprintln!("characters typed for ten turns at the table: {typed}");
    assert!(typed > 0 && typed < 4000, "{typed}");

    let text = std::fs::read_to_string(&record).expect("the record");
    let v: Value = serde_json::from_str(&text).expect("JSON");
    assert!(v.get("seed").is_none() && v["table"].get("stack").is_none(), "only what the table saw: {text}");
    let (code, out, err) = run(&["cube-express", "check", path(&record)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("a legal Cube Express game record") && out.contains("game over"), "{out}");
    let (code, out, err) = run(&["cube-express", "replay", path(&record), "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let replayed: Value = serde_json::from_str(&out).expect("JSON");
    let totals: Vec<i64> =
        replayed["scores"].as_array().expect("scores").iter().map(|x| x["total"].as_i64().expect("total")).collect();
    assert_eq!(totals, s.totals, "the table's game scores as the dealt one");

    let (code, out, err) = run(&["cube-express", "analyse", path(&record), "--json", "--quiet"]);
    assert_eq!(code, Some(0), "{err}");
    let review: Value = serde_json::from_str(&out).expect("JSON");
    let turns = read_record("r", &text).expect("reads").turns.len();
    assert_eq!(review["decisions"].as_array().map(Vec::len), Some(turns));
    assert!(review["facts"].to_string().contains("Tiles still face down: not used"), "the review says it");
    for t in [1, turns / 2, turns] {
        let t = t.to_string();
        let (code, out, err) = run(&["cube-express", "advise", path(&record), "--turn", &t, "--json"]);
        assert_eq!(code, Some(0), "turn {t}: {err}");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        assert!(v["plan"].as_array().is_some_and(|p| !p.is_empty()), "{out}");
        assert!(v["unseen"].as_str().is_some_and(|u| u.contains("not used")), "{out}");
    }
    // `plan` is another name of `advise`.
    let (code, _, err) = run(&["cube-express", "plan", path(&record), "--turn", "1", "--json"]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn what_nobody_saw_changes_no_answer() {
    let s = script(5);
    let record = temp("short.json");
    // The first eight turns.
    let upto = s.turn_of_line.iter().position(|&t| t == 8).expect("eight turns");
    let (code, out, err) = play_table(&s, &s.lines[..upto], &record);
    assert_eq!(code, Some(0), "{err}\n{out}");
    let text = std::fs::read_to_string(&record).expect("record");
    let v: Value = serde_json::from_str(&text).expect("JSON");
    let drawn = v["turns"].as_array().expect("turns").iter().filter(|t| t.get("drawn").is_some()).count();
    // The same game with the stack's order written in: the true one, and one where the tiles
    // never turned up lie in another order.
    let mut other = s.stack.clone();
    let below = other.len() - drawn;
    other[..below].reverse();
    let mut answers = Vec::new();
    for (name, stack) in [("none", None), ("true", Some(s.stack.clone())), ("other", Some(other))] {
        let mut r = v.clone();
        if let Some(stack) = stack {
            r["table"]["stack"] = serde_json::to_value(stack).expect("JSON");
        }
        let p = temp(&format!("stack-{name}.json"));
        std::fs::write(&p, serde_json::to_string_pretty(&r).expect("JSON")).expect("written");
        let (code, _, err) = run(&["cube-express", "check", path(&p)]);
        assert_eq!(code, Some(0), "{name}: {err}");
        let (code, review, err) = run(&["cube-express", "analyse", path(&p), "--json", "--quiet"]);
        assert_eq!(code, Some(0), "{name}: {err}");
        let (code, advice, err) = run(&["cube-express", "advise", path(&p), "--turn", "6", "--json"]);
        assert_eq!(code, Some(0), "{name}: {err}");
        answers.push((timeless(&review), timeless(&advice)));
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0], answers[2]);

    // Positions: the stack in its order, in another order, or left out.
    let content = Arc::new(Content::house());
    let mut game = Game::new(content, 2, 5, Options::default()).expect("setup");
    let record = read_record("r", &text).expect("reads");
    let games = record.games(Arc::new(Content::house()), "r").expect("replays");
    let state = games[6].state();
    assert!(state.stack.is_none(), "a table game's position has no stack order");
    game = Game::new(Arc::new(Content::house()), 2, 5, Options::default()).map_or(game, |g| g);
    for t in &record.turns[..6] {
        game = game.play_turn(t).expect("the dealt game replays");
    }
    let mut advice = Vec::new();
    for (name, stack) in [
        ("none", None),
        ("true", Some(game.stack().to_vec())),
        ("other", Some(game.stack().iter().rev().copied().collect())),
    ] {
        let mut st = game.state();
        st.stack = stack;
        let p = temp(&format!("position-{name}.json"));
        std::fs::write(&p, serde_json::to_string_pretty(&st).expect("JSON")).expect("written");
        let (code, out, err) = run(&["cube-express", "advise", path(&p), "--json"]);
        assert_eq!(code, Some(0), "{name}: {err}");
        let (code, text_out, err) = run(&["cube-express", "advise", path(&p)]);
        assert_eq!(code, Some(0), "{name}: {err}");
        let text_out: String =
            text_out.lines().filter(|l| !l.starts_with("Cube Express ·") && !l.starts_with("Best turn")).collect();
        advice.push((timeless(&out), text_out));
    }
    assert_eq!(advice[0], advice[1]);
    assert_eq!(advice[0], advice[2]);
}

#[test]
fn bad_input_is_refused_naming_the_rule_and_nothing_entered_is_lost() {
    let s = script(5);
    let record = temp("bad.json");
    // Find the first market that turns a tile up: a tile number follows it.
    let at = (1..s.lines.len())
        .find(|&i| s.lines[i - 1].starts_with("take") && s.lines[i].parse::<u8>().is_ok())
        .expect("a refill");
    let mut lines: Vec<String> = s.lines[..at].to_vec();
    let hand_tile = s.flags[7].split(['/', ',']).next().expect("a hand tile").to_string();
    lines.push(hand_tile.clone()); // a tile in a hand, not face down
    lines.push("99".to_string()); // no such tile
    lines.push("undo".to_string()); // takes back the market
    lines.push(s.lines[at - 1].clone());
    lines.extend(s.lines[at..at + 1].iter().cloned());
    lines.push("jump to [1, 1]".to_string()); // an unknown word
    lines.push("lay tile 99 front up at [0, 5], turned 0".to_string()); // an action of another step
    lines.push("board".to_string());
    lines.push("help".to_string());
    let (code, out, err) = play_table(&s, &lines, &record);
    assert_eq!(code, Some(0), "{err}\n{out}");
    assert!(
        out.contains(&format!("not taken: tile {hand_tile} cannot be turned up from the face-down stack")),
        "{out}"
    );
    assert!(out.contains("not taken: tile 99 cannot be turned up") && out.contains("no tile has that number"), "{out}");
    assert!(out.contains("taken back: take"), "{out}");
    assert!(out.contains("not taken: the action \"jump to [1, 1]\""), "{out}");
    assert!(out.contains("not taken: not allowed now (after the market: trade or end the turn)"), "{out}");
    // Everything entered before is in the record, which replays.
    let text = std::fs::read_to_string(&record).expect("record");
    let (code, _, err) = run(&["cube-express", "check", path(&record)]);
    assert_eq!(code, Some(0), "{err}\n{text}");
    // Going on with the saved record.
    let input: String = s.lines[at + 1..].iter().map(|l| format!("{l}\n")).collect();
    let (code, out, err) = run_with_input(&["cube-express", "play", "--table", path(&record)], &input);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Game over") && !out.contains("not taken"), "{out}");

    // Bad files: exit 2 naming the file and the field.
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&record).expect("record")).expect("JSON");
    let mut twice = v.clone();
    twice["table"]["hands"][1][0] = twice["table"]["hands"][0][0].clone();
    let mut undrawn = v.clone();
    let t = undrawn["turns"].as_array().expect("turns").iter().position(|t| t.get("drawn").is_some()).expect("a draw");
    undrawn["turns"][t].as_object_mut().expect("object").remove("drawn");
    let mut seeded = v.clone();
    seeded["seed"] = 3.into();
    for (name, file, expected) in [
        ("twice", twice, "table.hands[1][0]: tile".to_string()),
        ("undrawn", undrawn, format!("turns[{t}].drawn: missing")),
        ("seeded", seeded, "not both".to_string()),
    ] {
        let p = temp(&format!("{name}.json"));
        std::fs::write(&p, serde_json::to_string_pretty(&file).expect("JSON")).expect("written");
        for verb in ["check", "replay", "analyse"] {
            let (code, _, err) = run(&["cube-express", verb, path(&p)]);
            assert_eq!(code, Some(2), "{verb} {name}: {err}");
            assert!(err.contains(path(&p)) || err.contains(&format!("{name}.json")), "{verb} {name}: {err}");
            assert!(err.contains(&expected), "{verb} {name}: expected {expected:?} in {err}");
        }
    }
    let (code, _, err) = run(&[
        "cube-express",
        "play",
        "--table",
        "--players",
        "2",
        "--objectives",
        "1,2,3",
        "--first",
        "red",
        "--hands",
        "1,2,3/4,5,6",
        "--display",
        "7,8,9,10",
        "--record",
        path(&temp("x.json")),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--objectives: four numbers"), "{err}");
}
