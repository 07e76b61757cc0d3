//! Railways Express on the analysis board: a record (docs/formats/railways-position.md, Record)
//! replayed by the rules engine, one step per move of the record: a roll of the four dice (a
//! chance step), a re-roll with a cube (the dice rolled again and the four dice after), the
//! pairing, each build, and the end of the turn. Steps are typed and read as `railways play
//! --table` reads them (the words of the record, or its short forms), and checked by the engine.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use signalbox_engine::railways::catalogue::Content;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::{Die, Roll};
use signalbox_engine::railways::game::{Action, Game, Phase};
use signalbox_engine::railways::options::Options;
use signalbox_engine::railways::record::{Move, RecordSetup, SAMPLE_GAME_JSON, SAMPLE_GAME_LABEL, read, roll_words};
use signalbox_engine::railways::terrain::TerrainFace;
use signalbox_render::railways::picture::position_svg;
use signalbox_render::railways::review::decision_boards;
use signalbox_render::walk::{Choice, DecisionAt, Reviewed, Step, Walk};
use signalbox_solver::railways::analysis::{AnalysisOptions, DEFAULT_GAMES, analyse};

use super::{AdviseCall, Kind, Open};
use crate::railways::load_content;
use crate::railways::table::{RailwaysTable, record_text};

/// More legal builds than this at one position are listed up to it (the first by hex, as the
/// engine lists them); no position of the sample game comes near it (the most choices at one
/// step there are the 144 rolls of the four dice).
const MOST_CHOICES: usize = 2000;

/// An open Railways Express game: its record and the game before every step.
struct Railways {
    content: Arc<Content>,
    /// The record's name in messages and titles.
    label: String,
    record: RecordSetup,
    /// Whether the record names its seed (written back by [`Open::record`] as `play` writes it).
    seeded: bool,
    /// Each step's place in the record: its turn and its move in the turn (from 0).
    places: Vec<(usize, usize)>,
    /// The game before each step, and after the last.
    games: Vec<Game>,
    walk: Walk,
}

/// The house map, as every `railways` command loads it without `--content`.
fn house() -> Result<Arc<Content>, String> {
    load_content(None).map(|(_, content)| content).map_err(|e| e.to_string())
}

/// Whether a record's text names its seed (as `railways play` tells a seeded record).
fn names_seed(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).ok().is_some_and(|v| v.get("seed").is_some())
}

/// The bundled sample game: the record `railways analyse` reviews when given no file.
pub fn sample() -> Box<dyn Open> {
    Box::new(opened(SAMPLE_GAME_LABEL, SAMPLE_GAME_JSON).expect("the embedded sample game replays"))
}

/// Reads a record the user gave, named `label` in messages, with the reader of `railways replay`
/// and `railways analyse`: a bad file gets their message.
pub fn open(label: &str, text: &str) -> Result<Box<dyn Open>, String> {
    Ok(Box::new(opened(label, text)?))
}

fn opened(label: &str, text: &str) -> Result<Railways, String> {
    let content = house()?;
    let (record, _) = read(content.clone(), label, text).map_err(|e| e.to_string())?;
    Railways::new(content, label.to_string(), record, names_seed(text))
}

/// A new game as `railways new --seed N` starts it: the four colours in the rulebook's order, the
/// default options, the seed written, no step played.
pub fn new_game(seed: u64) -> Result<Box<dyn Open>, String> {
    let content = house()?;
    let seats = [Colour::Blue, Colour::Yellow, Colour::Red, Colour::Purple];
    let table = RailwaysTable::new(content.clone(), &seats, Options::default(), Some(seed))?;
    let mut record = table.record().clone();
    // As `railways new`: the record of a new game holds no move.
    record.turns.clear();
    Ok(Box::new(Railways::new(content, format!("seed {seed}"), record, true)?))
}

/// The colour to move in `game`.
fn mover(game: &Game) -> Colour {
    game.players()[game.active()].colour
}

/// The result of a game that is over, in words.
fn result(game: &Game) -> String {
    let names: Vec<&str> = game.winners().iter().map(|c| c.name()).collect();
    let who = match names.as_slice() {
        [] => "no winner".to_string(),
        [w] => format!("{w} wins"),
        many => format!("{} share the victory", many.join(", ")),
    };
    format!("Game over after {} turns: {who}", game.turns())
}

/// What the player to move decides next, in words.
fn next_words(game: &Game) -> String {
    let colour = mover(game);
    match game.phase() {
        Phase::Over => result(game),
        Phase::Roll => format!("{colour} to play: roll the four dice"),
        Phase::Reroll if game.players()[game.active()].cubes > 0 => {
            format!("{colour} to play: pair the dice, or spend a cube to roll one or two again")
        }
        Phase::Reroll => format!("{colour} to play: pair the dice"),
        Phase::Build { .. } => format!("{colour} to play: build with the free slots, or end the turn"),
    }
}

/// The dice as they lie in `game`, in words: the roll, or the pairing's slots.
fn dice_words(game: &Game) -> String {
    match (game.phase(), game.roll(), game.slots()) {
        (Phase::Build { .. }, _, Some(slots)) => {
            let free: Vec<String> = slots
                .iter()
                .enumerate()
                .map(|(i, (s, used))| {
                    format!("slot {i}: {} on {}{}", s.kind, s.terrain, if *used { " (used)" } else { "" })
                })
                .collect();
            free.join(", ")
        }
        (_, Some(roll), _) => format!("rolled {}", roll_words(roll)),
        _ => "the dice to be rolled".to_string(),
    }
}

/// Every different roll of the four dice with `game`'s faces, in the order of the faces.
fn every_roll(game: &Game) -> Vec<Roll> {
    let faces = &game.content().dice;
    let mut track = faces.track.to_vec();
    dedup_keep_order(&mut track);
    let mut terrain = faces.terrain.to_vec();
    dedup_keep_order(&mut terrain);
    let mut out = Vec::new();
    for &a in &track {
        for &b in &track {
            for &g in &terrain {
                for &h in &terrain {
                    out.push(Roll { track: [a, b], terrain: [g, h] });
                }
            }
        }
    }
    out
}

fn dedup_keep_order<T: PartialEq + Copy>(v: &mut Vec<T>) {
    let mut seen: Vec<T> = Vec::new();
    v.retain(|x| {
        let new = !seen.contains(x);
        if new {
            seen.push(*x);
        }
        new
    });
}

/// Every re-roll a cube buys from `roll`: one or two dice rolled again, and every way they may
/// fall (a die may fall on the face it showed).
fn every_reroll(game: &Game, roll: Roll) -> Vec<Move> {
    let faces = &game.content().dice;
    let mut track = faces.track.to_vec();
    dedup_keep_order(&mut track);
    let mut terrain = faces.terrain.to_vec();
    dedup_keep_order(&mut terrain);
    let all = [Die::Track(0), Die::Track(1), Die::Terrain(0), Die::Terrain(1)];
    let mut sets: Vec<Vec<Die>> = all.iter().map(|&d| vec![d]).collect();
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            sets.push(vec![all[i], all[j]]);
        }
    }
    let mut out = Vec::new();
    for dice in sets {
        let mut rolls = vec![roll];
        for &die in &dice {
            rolls = rolls
                .into_iter()
                .flat_map(|r| match die {
                    Die::Track(i) => track
                        .iter()
                        .map(|&f| {
                            let mut n = r;
                            n.track[usize::from(i)] = f;
                            n
                        })
                        .collect::<Vec<_>>(),
                    Die::Terrain(i) => terrain
                        .iter()
                        .map(|&f| {
                            let mut n = r;
                            n.terrain[usize::from(i)] = f;
                            n
                        })
                        .collect(),
                })
                .collect();
        }
        out.extend(rolls.into_iter().map(|r| Move::Reroll { dice: dice.clone(), roll: r }));
    }
    out
}

impl Railways {
    /// The open game of a record that replays (every move checked by the engine).
    fn new(content: Arc<Content>, label: String, record: RecordSetup, seeded: bool) -> Result<Railways, String> {
        let mut game = Game::new(content.clone(), &record.seats, record.options, record.seed)
            .map_err(|e| format!("{label}: seats: {e}"))?;
        let mut places = Vec::new();
        let mut games = Vec::new();
        let mut steps = Vec::new();
        for (t, turn) in record.turns.iter().enumerate() {
            for (a, m) in turn.iter().enumerate() {
                let colour = mover(&game);
                games.push(game.clone());
                places.push((t, a));
                game.apply(&m.action()).map_err(|e| format!("{label}: turns[{t}][{a}] ({m}): {e}"))?;
                steps.push(Step {
                    turn: t + 1,
                    player: colour.name().to_string(),
                    text: m.to_string(),
                    chance: matches!(m, Move::Roll { .. }),
                });
            }
        }
        let walk = Walk {
            game: Kind::Railways.command().to_string(),
            title: format!("Railways Express · {label}"),
            players: record.seats.iter().map(|c| c.name().to_string()).collect(),
            steps,
            next: next_words(&game),
        };
        games.push(game);
        Ok(Railways { content, label, record, seeded, places, games, walk })
    }

    /// `at` clamped to the steps.
    fn clamp(&self, at: usize) -> usize {
        at.min(self.walk.steps.len())
    }

    /// The record up to step `at` (the steps from `at` on dropped).
    fn record_before(&self, at: usize) -> RecordSetup {
        let mut record = self.record.clone();
        if let Some(&(t, a)) = self.places.get(at) {
            record.turns.truncate(t + 1);
            if a == 0 {
                record.turns.truncate(t);
            } else if let Some(turn) = record.turns.last_mut() {
                turn.truncate(a);
            }
        }
        record
    }
}

impl Open for Railways {
    fn kind(&self) -> Kind {
        Kind::Railways
    }

    fn walk(&self) -> &Walk {
        &self.walk
    }

    fn board(&self, at: usize) -> String {
        let game = &self.games[self.clamp(at)];
        let colour = mover(game);
        let title = if game.is_over() {
            vec![next_words(game)]
        } else {
            vec![format!("Turn {} · {colour} to play", game.turns() + 1), dice_words(game)]
        };
        position_svg(game, colour, &[], &[], &title)
    }

    /// The moves at step `at`: at the start of a turn every roll of the four dice (chance);
    /// after the roll the two pairings and, with a cube in hand, every re-roll of one or two dice
    /// with every way they may fall (a player's choice, its text carrying the dice after); once
    /// paired every legal build (one slot for slots alike, as the engine lists them; over
    /// 2000, the first 2000 by hex) grouped by slot, and the end of the turn.
    fn choices(&self, at: usize) -> Vec<Choice> {
        let game = &self.games[self.clamp(at)];
        let colour = mover(game);
        let choice =
            |group: &str, m: &Move, chance: bool| Choice { group: group.to_string(), text: m.to_string(), chance };
        match game.phase() {
            Phase::Over => Vec::new(),
            Phase::Roll => every_roll(game)
                .into_iter()
                .map(|roll| choice("the dice", &Move::Roll { roll, player: Some(colour) }, true))
                .collect(),
            Phase::Reroll => {
                let mut out: Vec<Choice> = [false, true]
                    .iter()
                    .map(|&crossed| choice("pair the dice", &Move::Pair { crossed }, false))
                    .collect();
                if let Some(roll) = game.roll()
                    && game.players()[game.active()].cubes > 0
                {
                    out.extend(
                        every_reroll(game, roll)
                            .iter()
                            .map(|m| choice("re-roll with a cube (the dice after)", m, false)),
                    );
                }
                out
            }
            Phase::Build { .. } => {
                let slots = game.slots();
                let mut out: Vec<Choice> = game
                    .legal_builds()
                    .iter()
                    .take(MOST_CHOICES)
                    .map(|a| {
                        let group = match (a, slots) {
                            (Action::Build { slot, .. }, Some(s)) => {
                                let (s, _) = s[usize::from(*slot) % 4];
                                let terrain = match s.terrain {
                                    TerrainFace::Any => "any terrain".to_string(),
                                    t => t.to_string(),
                                };
                                format!("build a {} tile on {terrain} (slot {slot})", s.kind)
                            }
                            _ => "build".to_string(),
                        };
                        choice(&group, &Move::from_action(&self.content, a), false)
                    })
                    .collect();
                out.push(choice("end the turn", &Move::End, false));
                out
            }
        }
    }

    fn play(&self, at: usize, text: &str) -> Result<Box<dyn Open>, String> {
        let at = self.clamp(at);
        let mut table = RailwaysTable {
            content: self.content.clone(),
            record: self.record_before(at),
            game: self.games[at].clone(),
            dice: None,
        };
        let mut m = table.read(text)?;
        // A roll typed without its player (`roll SS,SC,plains,any`) is written so.
        if let Move::Roll { player, .. } = &mut m {
            let named = text.trim().to_ascii_lowercase().starts_with(&format!("{} rolls", mover(&table.game)));
            if !named {
                *player = None;
            }
        }
        table.push(m)?;
        let forked = Railways::new(self.content.clone(), self.label.clone(), table.record, self.seeded)?;
        Ok(Box::new(forked))
    }

    fn record(&self) -> String {
        record_text(&self.record, self.seeded)
    }

    fn review(&self, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<(Reviewed, Vec<String>), String> {
        // As `railways analyse` with its defaults.
        let options = AnalysisOptions { games: DEFAULT_GAMES, seed: 1, time_limit: None, reuse: true, from_turn: 0 };
        let total = self.record.turns.len();
        let done = AtomicUsize::new(0);
        let title = format!("Railways Express · {}", self.label);
        let analysis = analyse(self.content.clone(), &self.record, title, options, &|| {
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(n.min(total), total);
        })
        .map_err(|e| format!("{}: {e}", self.label))?;
        progress(total, total);
        let boards = decision_boards(&analysis);
        let mut at = Vec::new();
        let mut best = Vec::new();
        for d in &analysis.review.decisions {
            let placed = self.decision_at(d.turn.saturating_sub(1), &d.kind);
            best.push(
                boards
                    .iter()
                    .find(|b| b.decision == d.index)
                    .map_or_else(|| self.board(placed.after), |b| b.best.svg.clone()),
            );
            at.push(placed);
        }
        Ok((Reviewed { review: analysis.review, at }, best))
    }

    /// At the start of a turn: the record up to it and `--turn N`, the link plan (the roll is
    /// still to come). Just after the roll: the record up to it and `--turn N`, the best use of
    /// the roll and whether a re-roll pays. Elsewhere none: `advise` reads a turn's first roll
    /// at its start, not a position within the turn or after a re-roll.
    fn advise(&self, at: usize) -> Option<AdviseCall> {
        let at = self.clamp(at);
        let game = &self.games[at];
        let record = self.record_before(at);
        let turn = match game.phase() {
            Phase::Roll => record.turns.len() + 1,
            Phase::Reroll if record.turns.last().is_some_and(|t| t.len() == 1) => record.turns.len(),
            _ => return None,
        };
        Some(AdviseCall { file: record_text(&record, self.seeded), args: vec!["--turn".into(), turn.to_string()] })
    }
}

impl Railways {
    /// Where a decision of record turn `t` (from 0) lies on the walk: a re-roll decision from the
    /// roll to the re-roll played (or the roll kept), the builds decision from the dice as they
    /// finally lay to the end of the turn.
    fn decision_at(&self, t: usize, kind: &str) -> DecisionAt {
        let start = self.places.iter().position(|&(turn, _)| turn == t).unwrap_or(self.walk.steps.len());
        let moves = self.record.turns.get(t).map_or(&[][..], |m| &m[..]);
        let end = (start + moves.len()).min(self.walk.steps.len());
        let after_roll = (start + 1).min(end);
        if kind == "re-roll" {
            let after = if matches!(moves.get(1), Some(Move::Reroll { .. })) { after_roll + 1 } else { after_roll };
            return DecisionAt { before: after_roll, after: after.min(end) };
        }
        let pair = moves.iter().position(|m| matches!(m, Move::Pair { .. })).map_or(after_roll, |p| start + p);
        DecisionAt { before: pair.min(end), after: end }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first step of the sample at which `phase` holds.
    fn first_at(phase: fn(&Game) -> bool) -> usize {
        let sample = opened(SAMPLE_GAME_LABEL, SAMPLE_GAME_JSON).expect("the sample");
        (0..sample.games.len()).find(|&i| phase(&sample.games[i])).expect("such a step")
    }

    #[test]
    fn the_sample_walks_with_a_board_at_every_step() {
        let game = sample();
        let walk = game.walk();
        assert_eq!(walk.game, "railways");
        assert_eq!(walk.players, ["blue", "yellow", "red", "purple"]);
        assert!(walk.steps.len() > 100, "{}", walk.steps.len());
        assert_eq!(walk.steps[0].text, "blue rolls SS,SS,plains,plains");
        assert!(walk.steps[0].chance && !walk.steps[1].chance);
        assert_eq!((walk.steps[0].turn, walk.steps[0].player.as_str()), (1, "blue"));
        assert!(walk.next.starts_with("Game over after"), "{}", walk.next);
        for at in 0..=walk.steps.len() + 3 {
            let svg = game.board(at);
            assert!(svg.trim_start().starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "board {at}");
        }
        assert!(game.board(0).contains("Turn 1 · blue to play"));
        assert!(game.choices(walk.steps.len()).is_empty(), "no move once the game is over");
    }

    #[test]
    fn the_record_reads_back_as_the_same_walk() {
        let game = sample();
        let again = open("again.json", &game.record()).expect("the record reads back");
        assert_eq!(again.walk().steps, game.walk().steps);
        assert_eq!(again.walk().next, game.walk().next);
        assert_eq!(again.record(), game.record());
    }

    #[test]
    fn every_choice_is_played_as_its_words() {
        let game = sample();
        let roll = first_at(|g| g.phase() == Phase::Roll);
        let reroll = first_at(|g| g.phase() == Phase::Reroll);
        let build = first_at(|g| matches!(g.phase(), Phase::Build { .. }));
        let late = first_at(|g| g.turns() == 20 && matches!(g.phase(), Phase::Build { .. }));
        for at in [roll, reroll, build, build + 1, late, late + 1] {
            let choices = game.choices(at);
            assert!(!choices.is_empty(), "choices at {at}");
            for c in &choices {
                let forked = game.play(at, &c.text).unwrap_or_else(|e| panic!("{at}: {}: {e}", c.text));
                let steps = &forked.walk().steps;
                assert_eq!(steps.len(), at + 1, "{}", c.text);
                assert_eq!(steps[at].text, c.text);
                assert_eq!(steps[at].chance, c.chance);
            }
        }
        let rolls = game.choices(roll);
        assert!(rolls.iter().all(|c| c.chance && c.group == "the dice"), "{rolls:?}");
        assert_eq!(rolls.len(), 3 * 3 * 4 * 4);
        // The blue player has cubes after the first roll: re-rolls are offered.
        assert!(game.choices(reroll).iter().any(|c| c.text.starts_with("reroll ")));
        assert!(game.choices(build).iter().any(|c| c.text == "end"));
        // Short forms are read as the table reads them, and written in full.
        let forked = game.play(roll, "ss sc p a").expect("a roll in short");
        assert_eq!(forked.walk().steps[roll].text, "roll SS,SC,plains,any");
        assert_eq!(forked.walk().next, "blue to play: pair the dice, or spend a cube to roll one or two again");
    }

    #[test]
    fn an_illegal_step_is_refused_in_words() {
        let game = sample();
        let e = game.play(0, "fly to the moon").err().expect("not a step");
        assert!(e.contains("is not a roll"), "{e}");
        let e = game.play(0, "end").err().expect("not now");
        assert!(e.contains("rolls the four dice first") && e.contains("rulebook"), "{e}");
        let build = first_at(|g| matches!(g.phase(), Phase::Build { .. }));
        // The first legal build moved away from blue's track, along its row or rows up: a tile
        // that joins nothing of blue's.
        let first = game.choices(build).into_iter().find(|c| c.text.starts_with("build")).expect("a build");
        let Ok(Move::Build { at, ends, slot }) = first.text.parse::<Move>() else { panic!("{}", first.text) };
        let away =
            (0..4).flat_map(|up| (-12..=12_i32).map(move |dc| (dc, 2 * up))).filter(|&(dc, up)| dc.abs() + up >= 4);
        let e = away
            .filter_map(|(dc, up)| {
                let text = format!("build {ends} on [{}, {}] with slot {slot}", at[0] + dc, at[1] - up);
                game.play(build, &text).err()
            })
            .find(|e| e.contains("extends none of your track"))
            .expect("a hex of the board away from blue's track");
        assert!(e.contains("rulebook: 2. Build Track Tiles, each tile touches your track"), "{e}");
        let e = game.play(build, "build e-w on [99, 99] with slot 0").err().expect("off the board");
        assert!(e.contains("not a hex of the board") || e.contains("cannot lay"), "{e}");
        let end = game.walk().steps.len();
        let e = game.play(end, "roll ss ss p p").err().expect("over");
        assert!(e.contains("the game is over"), "{e}");
        for junk in [
            "",
            "   ",
            "build",
            "reroll",
            "build e-w on [",
            "\u{1F682}",
            "roll ss,ss,p",
            "build \u{e9}w 5 4",
            "\u{e9}w 5 4",
        ] {
            for at in [0, 1, build] {
                assert!(game.play(at, junk).is_err(), "{junk:?} at {at}");
            }
        }
    }

    #[test]
    fn a_fork_writes_a_record_that_reads_back() {
        let game = sample();
        let forked = game.play(1, "pair crossed").expect("legal").play(2, "end").expect("legal");
        assert_eq!(forked.walk().steps.len(), 3);
        let text = forked.record();
        let again = open("fork.json", &text).expect("the fork's record reads back");
        assert_eq!(again.walk().steps, forked.walk().steps);
        assert!(again.walk().next.starts_with("yellow to play"), "{}", again.walk().next);
        assert!(text.contains("\"seed\": 7"), "{text}");
    }

    #[test]
    fn a_new_game_starts_with_the_roll() {
        let game = new_game(7).expect("a new game");
        assert!(game.walk().steps.is_empty());
        assert_eq!(game.walk().next, "blue to play: roll the four dice");
        assert_eq!(game.walk().players.len(), 4);
        assert!(game.record().contains("\"seed\": 7"));
        assert!(game.choices(0).iter().all(|c| c.chance));
    }

    #[test]
    fn advice_at_a_turns_start_and_after_the_roll() {
        let game = sample();
        let call = game.advise(0).expect("a call at the start");
        assert_eq!(call.args, ["--turn", "1"]);
        assert!(open("x.json", &call.file).expect("the file reads").walk().steps.is_empty());
        let call = game.advise(1).expect("a call after the roll");
        assert_eq!(call.args, ["--turn", "1"]);
        assert_eq!(open("x.json", &call.file).expect("the file reads").walk().steps.len(), 1);
        // After blue's re-roll, within the builds, and once the game is over: none.
        assert!(game.advise(2).is_none());
        assert!(game.advise(4).is_none());
        assert!(game.advise(game.walk().steps.len()).is_none());
        let turn2 = game.walk().steps.iter().position(|s| s.turn == 2).expect("turn 2");
        assert_eq!(game.advise(turn2).expect("a turn's start").args, ["--turn", "2"]);
    }

    #[test]
    fn a_bad_upload_gets_the_readers_message() {
        let content = house().expect("the house map");
        for text in [r#"{"game":"railways"}"#, "garbage", r#"{"seats": ["blue"], "turns": []}"#] {
            let expected = read(content.clone(), "up.json", text).expect_err("refused").to_string();
            assert_eq!(open("up.json", text).err(), Some(expected.clone()));
            assert!(expected.starts_with("up.json"), "{expected}");
        }
    }

    #[test]
    fn a_short_game_is_reviewed_and_placed_on_its_steps() {
        let mut game = new_game(3).expect("a new game");
        for text in ["ss sc p a", "pair straight"] {
            game = game.play(game.walk().steps.len(), text).expect("legal");
        }
        // Blue builds what it can, then ends; yellow rolls, re-rolls and ends at once.
        while let Some(c) = game.choices(game.walk().steps.len()).into_iter().find(|c| c.text.starts_with("build")) {
            game = game.play(game.walk().steps.len(), &c.text).expect("legal");
        }
        for text in
            ["end", "roll cc,cc,water,water", "reroll first track die: SS,CC,water,water", "pair crossed", "end"]
        {
            game = game.play(game.walk().steps.len(), text).expect("legal");
        }
        let calls = std::sync::Mutex::new(Vec::new());
        let (reviewed, best) =
            game.review(&|done, total| calls.lock().expect("not poisoned").push((done, total))).expect("the review");
        let n = reviewed.review.decisions.len();
        assert!(n >= 2, "{n} decisions");
        assert_eq!((reviewed.at.len(), best.len()), (n, n));
        let steps = game.walk().steps.len();
        for (d, at) in reviewed.review.decisions.iter().zip(&reviewed.at) {
            assert!(at.before <= at.after && at.after <= steps, "{at:?}");
            let kind = &game.walk().steps[at.before].text;
            match d.kind.as_str() {
                "builds" => assert!(kind.starts_with("pair"), "{kind}"),
                _ => assert!(kind.starts_with("reroll") || kind.starts_with("pair"), "{kind}"),
            }
        }
        assert!(best.iter().all(|svg| svg.trim_start().starts_with("<svg")));
        assert_eq!(calls.lock().expect("not poisoned").last(), Some(&(2, 2)));
    }
}
