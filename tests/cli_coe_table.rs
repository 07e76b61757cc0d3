//! End-to-end tests of The Cubes of Europe at the table: `coe play --table` from a script (moves
//! in words, every card typed as it comes up and every roll as it is rolled, no seed and no
//! hidden order given), `analyse` of the saved record and `advise` at three of its positions;
//! answers that do not change with what nobody saw; bad input in `play` and bad files.

mod support;

use serde_json::Value;
use signalbox_engine::coe::{Catalogue, Chance, Instance, Move, Record, Rules};

use support::{run, run_with_input};

fn temp(name: &str) -> std::path::PathBuf {
    let p = support::temp_path("coe-table", name);
    let _ = std::fs::remove_file(&p);
    p
}

/// The moves the fair policy plays on `seed` (`coe selfplay`, which sees only what a player
/// sees).
fn policy_moves(seed: u64) -> Vec<Move> {
    let out = temp(&format!("selfplay-{seed}.jsonl"));
    let seeds = format!("{seed}..{seed}");
    let (code, _, err) = run(&[
        "coe",
        "selfplay",
        "--seeds",
        &seeds,
        "--policy",
        "fair",
        "--threads",
        "1",
        "--out",
        out.to_str().expect("path"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&out).expect("the selfplay file");
    let line: Value = serde_json::from_str(text.lines().nth(1).expect("a game line")).expect("JSON");
    serde_json::from_value(line["moves"].clone()).expect("moves")
}

/// A game as the table played it: the board card, then each line typed in order: a card's number
/// (or, every other time, its name) when one comes up, a roll `A B` when the dice are rolled, a
/// move in the words signalbox prints. The seeded game only tells the cards and rolls as they
/// come; the script is built by asking a table game (an instance of only what was typed) what it
/// waits for, as `play --table` does. Also whether the deck was reshuffled.
fn table_script(seed: u64) -> (u8, Vec<String>, bool) {
    let catalogue = Catalogue::house();
    let whole = Instance::from_seed(seed);
    let moves = policy_moves(seed);
    let (mut deck, mut reshuffle, mut dice) = (Vec::new(), Vec::new(), Vec::new());
    let mut lines = Vec::new();
    let mut played = 0;
    let mut reshuffled = false;
    let name = |id: u8, n: usize| {
        if n.is_multiple_of(2) { id.to_string() } else { catalogue.card(id).expect("a card").name.to_string() }
    };
    loop {
        let instance = Instance::table(None, whole.board, &deck, &reshuffle, &dice).expect("what was typed");
        let record = Record::new(instance, Rules::default(), moves[..played].to_vec());
        let (game, _) = record.replay(&catalogue, "table").expect("the table game replays");
        match game.unseen() {
            Some(Chance::Deck { index }) => {
                deck.push(whole.deck[index]);
                lines.push(name(whole.deck[index], lines.len()));
            }
            Some(Chance::Reshuffle { index }) => {
                let seeded = Record::new(whole.clone(), Rules::default(), moves[..played].to_vec());
                let (g, _) = seeded.replay(&catalogue, "seeded").expect("the seeded game replays");
                let card = g.second_deck()[index];
                reshuffle.push(card);
                reshuffled = true;
                lines.push(name(card, lines.len()));
            }
            Some(Chance::Roll { turn }) => {
                let [a, b] = whole.dice[turn];
                dice.push([a, b]);
                lines.push(format!("{a} {b}"));
            }
            None if played == moves.len() => break,
            None => {
                lines.push(moves[played].to_string());
                played += 1;
            }
        }
    }
    assert!(record_over(&catalogue, &whole, &moves), "the policy's game ends");
    (whole.board, lines, reshuffled)
}

fn record_over(catalogue: &Catalogue, whole: &Instance, moves: &[Move]) -> bool {
    let record = Record::new(whole.clone(), Rules::default(), moves.to_vec());
    record.replay(catalogue, "seeded").expect("replays").0.is_over()
}

/// Plays `lines` at the table on `board`, saving to `record`.
fn play(board: u8, lines: &[String], record: &std::path::Path) -> (String, String) {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let board = board.to_string();
    let (code, out, err) = run_with_input(
        &["coe", "play", "--table", "--board", &board, "--record", record.to_str().expect("path")],
        &input,
    );
    assert_eq!(code, Some(0), "{err}\n{out}");
    (out, err)
}

fn replayed(path: &std::path::Path) -> (Record, bool, u32) {
    let catalogue = Catalogue::house();
    let text = std::fs::read_to_string(path).expect("record");
    let record = Record::from_json("record", &text).expect("a record");
    let (over, score) = {
        let (game, score) = record.replay(&catalogue, "record").expect("the record replays");
        (game.is_over(), score.total())
    };
    (record, over, score)
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

/// The seed whose game the tests enter: the first from 1 whose game reshuffles the deck, so the
/// reshuffled deck's cards are typed as they come up too. Found once per test process.
fn seed_with_reshuffle() -> (u8, Vec<String>) {
    static FOUND: std::sync::OnceLock<(u8, Vec<String>)> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            (1..20)
                .map(table_script)
                .find_map(|(board, lines, reshuffled)| reshuffled.then_some((board, lines)))
                .expect("a seed from 1 to 19 reshuffles")
        })
        .clone()
}

/// Whether a line typed is a roll (`3 5`).
fn is_roll(line: &str) -> bool {
    line.split(' ').count() == 2 && line.split(' ').all(|d| d.parse::<u8>().is_ok())
}

#[test]
fn a_whole_game_played_at_the_table_replays_and_is_analysed_and_advised() {
    let (board, lines) = seed_with_reshuffle();
    // Ten turns: every line up to the eleventh roll.
    let eleventh = lines.iter().enumerate().filter(|(_, l)| is_roll(l)).nth(10).map_or(lines.len(), |(i, _)| i);
    let ten: usize = lines[..eleventh].iter().map(|l| l.len() + 1).sum::<usize>() + board.to_string().len();
    eprintln!("characters typed for the first ten turns (moves in words, cards and rolls as they came): {ten}");
    let path = temp("whole.json");
    let (out, _) = play(board, &lines, &path);
    assert!(out.contains("Game over"), "{out}");
    let (record, over, score) = replayed(&path);
    assert!(over);
    assert!(record.instance.is_table());
    // The record holds no seed and only what came up: no hidden order.
    let text = std::fs::read_to_string(&path).expect("record");
    assert!(!text.contains("\"seed\""), "{text}");
    let p = path.to_str().expect("path");
    let (code, out, err) = run(&["coe", "check", p]);
    assert_eq!(code, Some(0), "{err}{out}");
    let (code, out, err) = run(&["coe", "replay", p]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&score.to_string()), "{out}");
    let (code, out, err) = run(&["coe", "analyse", p, "--json", "--quiet", "--fair-samples", "4"]);
    assert_eq!(code, Some(0), "{err}");
    let review: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(review["decisions"].as_array().map(Vec::len), Some(record.moves.len()), "{out}");
    assert_eq!(review["measure"]["name"], "expected final score", "{out}");
    assert!(review["measure"]["assumes"].as_str().is_some_and(|m| m.contains("only what the table saw")), "{out}");
    // advise at three positions: the start of turns 2, 6 and 10, with the roll the table saw.
    let catalogue = Catalogue::house();
    for turn in [2usize, 6, 10] {
        let mut cut = record.clone();
        let at = (0..=record.moves.len())
            .find(|&k| {
                let r = Record::new(record.instance.clone(), Rules::default(), record.moves[..k].to_vec());
                r.replay(&catalogue, "cut").is_ok_and(|(g, _)| g.is_started() && g.turn() + 1 == turn)
            })
            .expect("the turn is reached");
        cut.moves.truncate(at);
        let file = temp(&format!("cut-{turn}.json"));
        std::fs::write(&file, cut.to_json_in_words()).expect("written");
        let roll = {
            let [a, b] = record.instance.dice[turn - 1];
            format!("{a},{b}")
        };
        let (code, out, err) =
            run(&["coe", "advise", file.to_str().expect("path"), "--roll", &roll, "--samples", "8", "--json"]);
        assert_eq!(code, Some(0), "turn {turn}: {err}");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        assert!(v["options"].as_array().is_some_and(|o| !o.is_empty()), "{out}");
    }
}

/// The record in `path` written again with a future nobody saw: the rest of the deck, a whole
/// reshuffle order and every later roll, in one of two ways (`flip`).
fn with_future(path: &std::path::Path, flip: bool, name: &str) -> std::path::PathBuf {
    let (record, _, _) = replayed(path);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("record")).expect("JSON");
    let seen = record.instance.seen();
    let mut deck = record.instance.deck.clone();
    let mut order = record.instance.reshuffle.clone();
    if flip {
        deck[seen.deck..].reverse();
        order[seen.reshuffle..].reverse();
    }
    let mut dice = record.instance.dice[..seen.dice].to_vec();
    while dice.len() < 14 {
        dice.push(if flip { [6, (dice.len() % 6 + 1) as u8] } else { [1, 2] });
    }
    v["instance"]["deck"] = serde_json::to_value(&deck).expect("JSON");
    v["instance"]["reshuffle"] = serde_json::to_value(&order).expect("JSON");
    v["instance"]["dice"] = serde_json::to_value(&dice).expect("JSON");
    let f = temp(name);
    std::fs::write(&f, v.to_string()).expect("written");
    f
}

#[test]
fn answers_do_not_change_with_what_nobody_saw() {
    let (board, lines) = seed_with_reshuffle();
    // The whole game, and the game stopped at the start of turn 9, its roll not yet rolled.
    let whole = temp("seen-whole.json");
    play(board, &lines, &whole);
    let ninth = lines.iter().enumerate().filter(|(_, l)| is_roll(l)).nth(8).map(|(i, _)| i).expect("nine rolls");
    let part = temp("seen-part.json");
    play(board, &lines[..ninth], &part);
    let answer = |args: &[&str], f: &std::path::Path| {
        let mut all = args.to_vec();
        all.push(f.to_str().expect("path"));
        let (code, out, err) = run(&all);
        assert_eq!(code, Some(0), "{all:?}: {err}");
        timeless(&out)
    };
    let advise = ["coe", "advise", "--roll", "3,5", "--samples", "8", "--json", "--threads", "2"];
    let review = ["coe", "analyse", "--json", "--quiet", "--fair-samples", "4", "--threads", "2"];
    for (args, path, tag) in [(&advise[..], &part, "part"), (&review[..], &whole, "whole")] {
        let first = answer(args, path);
        for flip in [false, true] {
            let other = with_future(path, flip, &format!("future-{tag}-{flip}.json"));
            assert_eq!(first, answer(args, &other), "{args:?} on {}", other.display());
        }
    }
}

#[test]
fn bad_input_in_play_is_named_and_nothing_entered_is_lost() {
    let (board, lines) = seed_with_reshuffle();
    let path = temp("bad.json");
    // The first card, then an impossible card (the board), an unknown word, a roll out of range,
    // a move that breaks a rule, and `undo`, each answered; the game goes on.
    let mut input = vec![lines[0].clone(), board.to_string(), lines[1].clone()];
    let start = lines.iter().position(|l| l.starts_with("start")).expect("a start move");
    input.extend(lines[2..start].iter().cloned());
    input.push("frobnicate".into());
    input.push(lines[start].clone());
    input.push("7 0".into());
    input.push(lines[start + 1].clone());
    input.push("start on hex 1".into());
    input.push("undo".into());
    input.push(lines[start + 1].clone());
    let text: String = input.iter().map(|l| format!("{l}\n")).collect();
    let b = board.to_string();
    let (code, out, err) =
        run_with_input(&["coe", "play", "--table", "--board", &b, "--record", path.to_str().expect("path")], &text);
    assert_eq!(code, Some(0), "{err}\n{out}");
    let all = format!("{out}{err}");
    assert!(all.contains("it is the board card, which never comes up"), "{all}");
    assert!(all.contains("`frobnicate`"), "{all}");
    assert!(all.contains("`7 0` is not a roll"), "{all}");
    assert!(all.contains("taken back: the roll"), "{all}");
    let (record, _, _) = replayed(&path);
    assert_eq!(record.moves.len(), 1, "the start move kept");
    assert_eq!(record.instance.seen().dice, 1, "the roll entered again after undo");
    // Bad files: exit 2, the file and the field named.
    let bad = temp("bad-file.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("record")).expect("JSON");
    v["instance"]["deck"][0] = Value::from(board);
    std::fs::write(&bad, v.to_string()).expect("written");
    for args in [
        vec!["coe", "play", "--table", bad.to_str().expect("path")],
        vec!["coe", "analyse", bad.to_str().expect("path"), "--quiet"],
        vec!["coe", "advise", bad.to_str().expect("path")],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("bad-file.json") && err.contains("deck[0]"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A move after a roll the record does not hold is named with the field to add.
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("record")).expect("JSON");
    v["instance"]["dice"] = Value::Array(Vec::new());
    v["moves"].as_array_mut().expect("moves").push(serde_json::to_value(lines[start + 2].clone()).expect("JSON"));
    std::fs::write(&bad, v.to_string()).expect("written");
    let (code, _, err) = run(&["coe", "check", bad.to_str().expect("path")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("dice[0]"), "{err}");
}

#[test]
fn a_game_started_with_new_goes_on_with_play_and_undo_keeps_what_was_seen() {
    let (board, lines) = seed_with_reshuffle();
    let path = temp("new.json");
    let b = board.to_string();
    let market = format!("{},{}", lines[0], lines[1]);
    let (code, _, err) =
        run(&["coe", "new", "--board", &b, "--market", &market, "--out", path.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    // Half the game in one sitting, `quit`, the rest in another: the same record as one sitting.
    let half = lines.len() / 2;
    let first: String = lines[2..half].iter().map(|l| format!("{l}\n")).chain(["quit\n".to_string()]).collect();
    let (code, out, err) = run_with_input(&["coe", "play", "--table", path.to_str().expect("path")], &first);
    assert_eq!(code, Some(0), "{err}\n{out}");
    let second: String = lines[half..].iter().map(|l| format!("{l}\n")).collect();
    let (code, out, err) = run_with_input(&["coe", "play", "--table", path.to_str().expect("path")], &second);
    assert_eq!(code, Some(0), "{err}\n{out}");
    let once = temp("once.json");
    play(board, &lines, &once);
    assert_eq!(std::fs::read_to_string(&path).expect("record"), std::fs::read_to_string(&once).expect("record"));
}
