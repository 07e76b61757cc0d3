//! End-to-end tests of `signalbox express01 play`: a script of steps piped to the binary, as a
//! player types them. What the game should show is computed with the engine, not written here.

mod support;

use std::io::Write as _;
use std::process::{Command, Stdio};

use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Pair, Step};
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::record::{read, replay};
use signalbox_engine::express01::setup::new_game;
use signalbox_solver::express01::selfplay::BestRoute;
use support::temp_path;

/// Runs `signalbox express01 play ARGS` with `script` on standard input: exit code, stdout, stderr.
fn play(args: &[&str], script: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_signalbox"))
        .arg("express01")
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // The binary may stop reading early (an exit before play); a broken pipe is then expected.
    let _ = stdin.write_all(script.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("the binary ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The game `play --players 2 --seed SEED` starts (default names).
fn start(catalogue: &Catalogue, seed: u64) -> Game<'_> {
    let names = vec!["Anna".to_string(), "Ben".to_string()];
    let setup = new_game(catalogue, "germany", &names, seed).expect("a new game");
    Game::from_position(&Position::from_setup(setup, catalogue).expect("legal")).expect("a game")
}

#[test]
fn the_first_turn_shows_the_board_the_choosers_hand_only_and_the_rule_a_step_breaks() {
    let catalogue = Catalogue::house();
    let game = start(&catalogue, 1);
    let mover = game.mover();
    let other = 1 - mover;
    let rule = game.check(Step::Pair(Pair::BonusOrder), &BestRoute).expect_err("C+D is not a first turn").to_string();
    let script = "C+D\nbuild 999 on\nA+B\n1\nbuild\n1\n1\ndone\ndone\nquit\nA+B\n";
    let (code, out, err) = play(&["--players", "2", "--seed", "1"], script);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    // The turn of the first mover, up to the next turn's board.
    let first_turn = out.split("Round 1, turn 2").next().expect("the output");
    let base = game.map().cells[0].base;
    assert!(first_turn.contains(&format!("[{base} ")), "the board is drawn:\n{first_turn}");
    let (name, other_name) = (&game.seats()[mover].name, &game.seats()[other].name);
    let hand: Vec<String> = game.seats()[mover].hand.iter().map(|c| c.to_string()).collect();
    assert!(first_turn.contains(&format!("{name}'s hand")), "{first_turn}");
    assert!(hand.iter().all(|c| first_turn.contains(c.as_str())), "every card of the hand is shown");
    assert!(!first_turn.contains(&format!("{other_name}'s hand")), "the other hand is hidden:\n{first_turn}");
    assert!(out.contains(&rule), "the rule broken by C+D is named ({rule}):\n{out}");
    assert!(out.contains("`build 999 on`: not a step"), "a mistyped step is named:\n{out}");
    assert!(out.contains("Round 1, turn 2"), "play went on after the bad lines:\n{out}");
    assert!(out.contains(&format!("{other_name}'s hand")), "the next mover's hand is shown on their turn");
    assert!(out.contains("Stopped (quit)"), "quit stops at once:\n{out}");
}

#[test]
fn the_record_replays_and_holds_the_finished_turns() {
    let catalogue = Catalogue::house();
    let game = start(&catalogue, 4);
    let card = game.seats()[game.mover()].hand[0];
    let position = temp_path("express01-play", "start.json");
    let (code, _, err) = support::run(&[
        "express01",
        "new",
        "--players",
        "2",
        "--seed",
        "4",
        "--out",
        position.to_str().expect("path"),
        "--force",
    ]);
    assert_eq!(code, Some(0), "{err}");
    // A turn by typed steps and grouped menus (build, the first cell, its first build), then the
    // next player's turn begun, and the input ends.
    let script = format!("A+B\npay {card}\nbuild\n1\n1\ndone\ndone\nA+B\n");
    for (tag, start_args) in
        [("seed", vec!["--players", "2", "--seed", "4"]), ("position", vec![position.to_str().expect("path")])]
    {
        let record = temp_path("express01-play", &format!("{tag}.json"));
        let path = record.to_str().expect("path");
        let mut args = start_args.clone();
        args.extend(["--record", path, "--force"]);
        let (code, out, err) = play(&args, &script);
        assert_eq!(code, Some(0), "{tag}: {out}\n{err}");
        assert!(out.contains("the input ended"), "{tag}: {out}");
        let text = std::fs::read_to_string(&record).expect("the record is written");
        let parsed = read(path, &text).expect("a record");
        assert_eq!(parsed.turns.len(), 1, "{tag}: the finished turn only");
        assert_eq!(parsed.turns[0].steps.len(), 5, "{tag}: {:?}", parsed.turns[0].steps);
        assert_eq!(parsed.turns[0].steps[1], format!("pay {card}"));
        assert!(parsed.turns[0].steps[2].starts_with("build "), "{tag}: {:?}", parsed.turns[0].steps);
        let replayed = replay(path, &parsed, &catalogue, &BestRoute, &mut |_, _| {}).expect("the record replays");
        assert_eq!((replayed.steps, replayed.game.turn()), (5, 2), "{tag}");
        assert!(replayed.game.problems().is_empty(), "{tag}: {:?}", replayed.game.problems());
    }
}

#[test]
fn an_existing_record_without_force_is_refused_before_play() {
    let record = temp_path("express01-play", "exists.json");
    std::fs::write(&record, "keep me").expect("write");
    let (code, out, err) = play(&["--record", record.to_str().expect("path")], "A+B\n");
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert!(err.contains("already exists"), "{err}");
    assert!(out.is_empty(), "nothing is played: {out}");
    assert_eq!(std::fs::read_to_string(&record).expect("read"), "keep me");
}
