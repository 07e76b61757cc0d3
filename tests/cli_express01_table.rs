//! End-to-end tests of Express 01 at the table: `express01 play --table` from a script (steps in
//! words, every card drawn from face-down cards typed as it comes, no seed and no deck order
//! given), `analyse` of the saved record and `advise` at three of its positions; answers that do
//! not change with the order nobody saw; bad input in `play` and bad files.

mod support;

use serde_json::Value;
use signalbox_engine::express01::card::CardNumber;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Build, Game, Source, Step};
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::record::{self, Record};
use signalbox_engine::express01::setup::table_game;
use signalbox_solver::express01::selfplay::BestRoute;

use support::{run, run_with_input};

fn temp(name: &str) -> std::path::PathBuf {
    let p = support::temp_path("express01-table", name);
    let _ = std::fs::remove_file(&p);
    p
}

/// A seeded game the greedy policy plays (`express01 selfplay`): its record.
fn seeded_record(seed: u64) -> Record {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = temp(&format!("seeded-{seed}-{call}.json"));
    let s = seed.to_string();
    let (code, _, err) =
        run(&["express01", "selfplay", "--seed", &s, "--policy", "greedy", "--record", out.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    record::read("seeded", &std::fs::read_to_string(&out).expect("record")).expect("a record")
}

/// A whole game as the table played it: the names, each player's dealt hand, and each line typed
/// in order: a step in the words signalbox prints and, after a draw from face-down cards, the
/// card that came (alone on its line, or every other time with the draw: `draw route-blue 212`).
/// The seeded game only tells the cards as they come; the script is made by playing a table game
/// beside it (a game of only what was typed), as `play --table` does.
struct Script {
    names: Vec<String>,
    hands: Vec<Vec<u16>>,
    lines: Vec<String>,
    /// The index of the first line of each turn.
    turn_starts: Vec<usize>,
}

fn table_script(seed: u64) -> Script {
    let catalogue = Catalogue::house();
    let seeded = seeded_record(seed);
    let start = record::start_position("seeded", &seeded, &catalogue).expect("a start");
    let names: Vec<String> = start.players.iter().map(|p| p.name.clone()).collect();
    let hands: Vec<Vec<u16>> = start.players.iter().map(|p| p.hand.clone()).collect();
    let position = Position::from_setup(start.clone(), &catalogue).expect("a position");
    let mut whole = Game::from_position(&position).expect("a game");
    let shown = table_game(&catalogue, "germany", &names, &hands, None).expect("a table start");
    let mut table =
        Game::from_position(&Position::from_setup(shown, &catalogue).expect("a table position")).expect("a table game");
    let mut lines = Vec::new();
    let mut turn_starts = Vec::new();
    let mut draws = 0usize;
    for turn in &seeded.turns {
        turn_starts.push(lines.len());
        for text in &turn.steps {
            let step = whole.parse_step(text).expect("a step");
            // The same card from the same part of its deck: face up (the same depth at the
            // table), or face down (the topmost face-down copy at the table).
            let deck_of = |g: &Game<'_>, card: CardNumber| {
                let c = g.catalogue().card(card).expect("a card");
                g.decks().iter().position(|d| d.kind == c.kind && d.stage == c.stage).expect("a deck")
            };
            let same = |card: CardNumber, depth: usize| {
                let d = deck_of(&whole, card);
                if depth < whole.decks()[d].face_up {
                    depth
                } else {
                    let t = &table.decks()[d];
                    (t.face_up..t.cards.len()).find(|&k| t.at(k) == Some(card)).expect("a face-down copy")
                }
            };
            let at_table = match step {
                Step::Build(b) => Step::Build(Build { depth: same(b.card, b.depth), ..b }),
                Step::Take(Source::Deck { card, depth }) => Step::Take(Source::Deck { card, depth: same(card, depth) }),
                other => other,
            };
            let words = table.describe(at_table);
            if table.draws_unseen(at_table) {
                let Step::Draw(d) = at_table else { unreachable!() };
                let card = whole.decks()[d].top().expect("a card");
                draws += 1;
                if draws.is_multiple_of(2) {
                    lines.push(format!("draw {} {card}", table.decks()[d].name));
                } else {
                    lines.push(words);
                    lines.push(card.to_string());
                }
                table.reveal(d, card).expect("the card can come");
            } else {
                lines.push(words);
            }
            table.play(at_table, &BestRoute).expect("the table takes the step");
            whole.play(step, &BestRoute).expect("the seeded game takes it");
        }
    }
    assert!(whole.is_over() && table.is_over(), "the greedy game ends");
    Script { names, hands, lines, turn_starts }
}

fn play_args<'a>(script: &'a Script, hand_args: &'a [String], record: &'a str) -> Vec<&'a str> {
    let mut args = vec!["express01", "play", "--table", "--record", record];
    args.push("--names");
    args.push(hand_args[0].as_str());
    for h in &hand_args[1..] {
        args.push("--hand");
        args.push(h.as_str());
    }
    let _ = script;
    args
}

/// `--names A,B,C` then each `--hand`.
fn hand_args(script: &Script) -> Vec<String> {
    let mut v = vec![script.names.join(",")];
    v.extend(script.hands.iter().map(|h| h.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")));
    v
}

fn play(script: &Script, lines: &[String], path: &std::path::Path) -> (String, String) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let h = hand_args(script);
    let (code, out, err) = run_with_input(&play_args(script, &h, path.to_str().expect("path")), &text);
    assert_eq!(code, Some(0), "{err}\n{out}");
    (out, err)
}

#[test]
fn a_whole_game_played_at_the_table_replays_and_is_analysed_and_advised() {
    let script = table_script(5);
    let path = temp("whole.json");
    let (out, _) = play(&script, &script.lines, &path);
    assert!(out.contains("Game over"), "{out}");
    let text = std::fs::read_to_string(&path).expect("the record");
    assert!(!text.contains("\"seed\""), "{text}");
    let v: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(v["position"]["table"], true);
    assert!(v["position"].get("decks").is_none(), "no deck order: {text}");
    assert!(v["result"].is_object(), "the game is over: {text}");
    // Characters typed for ten turns (the start's hands are typed once on the command line).
    let ten: usize = script.lines[..script.turn_starts[10]].iter().map(|l| l.len() + 1).sum();
    let hands: usize = hand_args(&script).iter().map(|h| h.len() + 1).sum();
    eprintln!(
        "express01 at the table: {ten} characters typed for the first ten turns, plus {hands} for the names and hands"
    );
    assert!(ten < 2000, "{ten}");
    let p = path.to_str().expect("path");
    for verb in ["check", "replay"] {
        let (code, out, err) = run(&["express01", verb, p]);
        assert_eq!(code, Some(0), "{verb}: {err}{out}");
    }
    let (code, out, err) = run(&["express01", "analyse", p, "--json", "--states", "20000"]);
    assert_eq!(code, Some(0), "{err}");
    let review: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(review["decisions"].as_array().map(Vec::len), Some(script.turn_starts.len()), "{out}");
    assert!(review["measure"]["assumes"].as_str().is_some_and(|m| m.contains("never seen")), "{out}");
    for turn in [1, script.turn_starts.len() / 2, script.turn_starts.len()] {
        let t = turn.to_string();
        let (code, out, err) = run(&["express01", "advise", p, "--turn", &t, "--json", "--states", "20000"]);
        assert_eq!(code, Some(0), "turn {turn}: {err}");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        assert!(v["best"]["steps"].as_array().is_some_and(|s| !s.is_empty()), "{out}");
        assert!(v["assumes"].as_str().is_some_and(|m| m.contains("never seen")), "{out}");
    }
}

/// JSON output without what names the file (the label, the title).
fn timeless(text: &str) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for key in ["position", "title", "file"] {
                    if map.get(key).is_some_and(Value::is_string) {
                        map.remove(key);
                    }
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("JSON: {e}\n{text}"));
    strip(&mut v);
    v
}

/// The record in `path` with its start's decks written out in full, face down, in an order nobody
/// saw: as the deck holds them (`flip` false) or the other way round.
fn with_deck_order(path: &std::path::Path, flip: bool, name: &str) -> std::path::PathBuf {
    let catalogue = Catalogue::house();
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("record")).expect("JSON");
    let setup = serde_json::from_value(v["position"].clone()).expect("a position");
    let game = Game::from_position(&Position::from_setup(setup, &catalogue).expect("a position")).expect("a game");
    let mut decks = serde_json::Map::new();
    for d in game.decks() {
        let mut cards: Vec<u16> = d.cards.iter().map(|c| c.0).collect();
        if flip {
            cards.reverse();
        } else {
            let third = cards.len() / 3;
            cards.rotate_left(third);
        }
        decks.insert(d.name.to_string(), serde_json::to_value(cards).expect("JSON"));
    }
    v["position"]["decks"] = Value::Object(decks);
    let f = temp(name);
    std::fs::write(&f, v.to_string()).expect("written");
    f
}

#[test]
fn answers_do_not_change_with_the_order_nobody_saw() {
    let script = table_script(5);
    let whole = temp("seen-whole.json");
    play(&script, &script.lines, &whole);
    let answer = |args: &[&str], f: &std::path::Path| {
        let mut all = args.to_vec();
        all.push(f.to_str().expect("path"));
        let (code, out, err) = run(&all);
        assert_eq!(code, Some(0), "{all:?}: {err}");
        timeless(&out)
    };
    // The start position alone (a table position), and the record at three turns and whole.
    let start = temp("seen-start.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&whole).expect("record")).expect("JSON");
    std::fs::write(&start, v["position"].to_string()).expect("written");
    let mid = (script.turn_starts.len() / 2).to_string();
    let last = script.turn_starts.len().to_string();
    let advise = |turn: &'static str| vec!["express01", "advise", "--json", "--states", "20000", "--turn", turn];
    let mid: &'static str = Box::leak(mid.into_boxed_str());
    let last: &'static str = Box::leak(last.into_boxed_str());
    let review = ["express01", "analyse", "--json", "--quiet", "--states", "20000"];
    for args in [advise("1"), advise(mid), advise(last), review.to_vec()] {
        let first = answer(&args, &whole);
        for flip in [false, true] {
            let other = with_deck_order(&whole, flip, &format!("order-{flip}.json"));
            assert_eq!(first, answer(&args, &other), "{args:?} on {}", other.display());
        }
    }
    let first = answer(&["express01", "advise", "--json", "--states", "20000"], &start);
    for flip in [false, true] {
        let other = with_deck_order(&whole, flip, &format!("start-order-{flip}.json"));
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&other).expect("record")).expect("JSON");
        let position = temp(&format!("start-position-{flip}.json"));
        std::fs::write(&position, v["position"].to_string()).expect("written");
        assert_eq!(first, answer(&["express01", "advise", "--json", "--states", "20000"], &position));
    }
}

#[test]
fn bad_input_in_play_is_named_and_nothing_entered_is_lost() {
    let script = table_script(5);
    let path = temp("bad.json");
    // The index of the first card typed alone after a draw.
    let card_line =
        (1..script.lines.len()).find(|&i| script.lines[i].parse::<u16>().is_ok()).expect("a card typed alone");
    let mut input: Vec<String> = vec!["frobnicate".into(), "C+D".into(), "build 501 on 001".into()];
    input.extend(script.lines[..card_line].iter().cloned());
    // A card that is in a hand (or of another deck) cannot come; then the right one, then undo
    // and the card again.
    input.push(script.hands[0][0].to_string());
    input.push("pay 999".into());
    input.push(script.lines[card_line].clone());
    input.push("undo".into());
    input.push(script.lines[card_line].clone());
    let text: String = input.iter().map(|l| format!("{l}\n")).collect();
    let h = hand_args(&script);
    let (code, out, err) = run_with_input(&play_args(&script, &h, path.to_str().expect("path")), &text);
    assert_eq!(code, Some(0), "{err}\n{out}");
    let all = format!("{out}{err}");
    assert!(all.contains("`frobnicate`: not a step"), "{all}");
    assert!(all.contains("On turn number one"), "{all}");
    assert!(all.contains("cannot come from"), "{all}");
    assert!(all.contains("is not a card number") || all.contains("not taken"), "{all}");
    assert!(all.contains("taken back: card"), "{all}");
    let record = record::read("bad", &std::fs::read_to_string(&path).expect("record")).expect("a record");
    let steps: usize = record.turns.iter().map(|t| t.steps.len()).sum();
    let expected = script.lines[..=card_line].iter().filter(|l| l.parse::<u16>().is_err()).count();
    assert_eq!(steps, expected, "every step entered is kept");
    let (code, _, err) = run(&["express01", "check", path.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    // Bad files: exit 2, the file and the field named.
    let bad = temp("bad-file.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("record")).expect("JSON");
    v["position"]["players"][0]["hand"][0] = Value::from(105);
    std::fs::write(&bad, v.to_string()).expect("written");
    for args in [
        vec!["express01", "play", "--table", bad.to_str().expect("path")],
        vec!["express01", "analyse", bad.to_str().expect("path"), "--quiet"],
        vec!["express01", "advise", bad.to_str().expect("path")],
        vec!["express01", "check", bad.to_str().expect("path")],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("bad-file.json") && err.contains("hand"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A draw from face-down cards without its card is named with the turn and step.
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("record")).expect("JSON");
    let turns = v["turns"].as_array_mut().expect("turns");
    for t in turns.iter_mut() {
        for s in t["steps"].as_array_mut().expect("steps") {
            let text = s.as_str().expect("a step").to_string();
            let words: Vec<&str> = text.split(' ').collect();
            if words[0] == "draw" && words.len() > 2 && words[2].parse::<u16>().is_ok() {
                *s = Value::from(format!("draw {}", words[1]));
            }
        }
    }
    std::fs::write(&bad, v.to_string()).expect("written");
    let (code, _, err) = run(&["express01", "check", bad.to_str().expect("path")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("bad-file.json") && err.contains("turns[") && err.contains("is not told"), "{err}");
}

#[test]
fn a_game_started_with_new_goes_on_with_play_in_two_sittings() {
    let script = table_script(5);
    let path = temp("new.json");
    let h = hand_args(&script);
    let mut args = vec!["express01", "new", "--table", "--names", h[0].as_str()];
    for hand in &h[1..] {
        args.push("--hand");
        args.push(hand.as_str());
    }
    args.push("--out");
    args.push(path.to_str().expect("path"));
    let (code, _, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    let half = script.turn_starts[script.turn_starts.len() / 2];
    let first: String = script.lines[..half].iter().map(|l| format!("{l}\n")).chain(["quit\n".to_string()]).collect();
    let (code, out, err) = run_with_input(&["express01", "play", "--table", path.to_str().expect("path")], &first);
    assert_eq!(code, Some(0), "{err}\n{out}");
    let second: String = script.lines[half..].iter().map(|l| format!("{l}\n")).collect();
    let (code, out, err) = run_with_input(&["express01", "play", "--table", path.to_str().expect("path")], &second);
    assert_eq!(code, Some(0), "{err}\n{out}");
    let once = temp("once.json");
    play(&script, &script.lines, &once);
    assert_eq!(std::fs::read_to_string(&path).expect("record"), std::fs::read_to_string(&once).expect("record"));
}
