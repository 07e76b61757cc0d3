//! The review of a played Railways Express game (`solver::railways::analysis`): the embedded
//! sample regenerates from its seed; a game whose every turn plays the best use's own advice
//! (`roll::best_use`, its re-roll advice included) loses nothing at any decision; the same game
//! with one turn played one build short loses exactly the difference of the two values, each
//! computed on its own from scratch, at that decision and nowhere else; analysing with and
//! without reuse between turns gives the same review; every review is consistent.

use std::collections::BTreeMap;
use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use signalbox_engine::grid::hex::{Hex, hexagon};
use signalbox_engine::railways::catalogue::{City, Content, Supply};
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::dice::Roll;
use signalbox_engine::railways::game::{Action, Game};
use signalbox_engine::railways::options::Options;
use signalbox_engine::railways::record::{Move, RecordSetup, SAMPLE_GAME_JSON, read, replay_setup};
use signalbox_engine::railways::terrain::Terrain;
use signalbox_solver::analysis::Review;
use signalbox_solver::railways::analysis::{
    AnalysisOptions, SAMPLE_MISTAKES, SAMPLE_SEATS, SAMPLE_SEED, analyse, sample_game, sample_text,
};
use signalbox_solver::railways::link::min_link;
use signalbox_solver::railways::race::{Course, expected_turns};
use signalbox_solver::railways::roll::best_use;

/// The embedded sample game is what the generator makes from its seed. To regenerate the file:
/// `SIGNALBOX_REGENERATE=1 cargo test -p signalbox-solver --test railways_analysis sample`.
#[test]
fn the_sample_game_regenerates_from_its_seed() {
    let content = Arc::new(Content::house());
    let record = sample_game(content.clone(), &SAMPLE_SEATS, SAMPLE_SEED, SAMPLE_MISTAKES).expect("a game");
    let text = sample_text(&record);
    if std::env::var_os("SIGNALBOX_REGENERATE").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/src/railways/sample-game.json");
        std::fs::write(path, &text).expect("write the sample");
    }
    assert_eq!(text, SAMPLE_GAME_JSON, "the sample game differs from its generator's");
    let (read_back, replay) = read(content, "sample-game.json", SAMPLE_GAME_JSON).expect("the sample replays");
    assert_eq!(read_back, record);
    assert!(replay.game.is_over());
    assert_eq!(record.seats.len(), 4);
}

/// A small plains hexagon of radius 3: blue's four cities on one side, yellow's on the other,
/// one gray city in the middle, the house dice, a supply that never runs short.
fn small_content() -> Arc<Content> {
    let hexes: BTreeMap<Hex, Terrain> = hexagon(3)
        .into_iter()
        .map(|h| (h, if (h.q + 2 * h.r).rem_euclid(7) == 0 { Terrain::Water } else { Terrain::Plains }))
        .collect();
    let city = |name: &str, q, r, colour, home| City { name: name.into(), hex: Hex::new(q, r), colour, home };
    let blue = CityColour::Player(Colour::Blue);
    let yellow = CityColour::Player(Colour::Yellow);
    let cities = vec![
        city("blue home", -2, 1, blue, true),
        city("blue north", -1, -2, blue, false),
        city("blue south", -3, 3, blue, false),
        city("blue west", -3, 0, blue, false),
        city("yellow home", 2, -1, yellow, true),
        city("yellow north", 3, -3, yellow, false),
        city("yellow south", 1, 2, yellow, false),
        city("yellow east", 3, 0, yellow, false),
        city("gray", 0, 0, CityColour::Gray, false),
    ];
    let dice = Content::house().dice;
    let supply = Supply { straight: 100, curved: 100, crossing: 31 };
    Arc::new(Content::from_parts("small", hexes, cities, dice, supply).expect("a map"))
}

/// A record of blue and yellow playing every turn by the best use's advice (a re-roll when the
/// advice for the first roll says one pays), the dice from `seed`; on turn `mistake` the player
/// ends one build short of the advice.
fn advised_record(content: &Arc<Content>, seed: u64, mistake: Option<usize>) -> RecordSetup {
    let seats = [Colour::Blue, Colour::Yellow];
    let options = Options::default();
    let mut game = Game::new(content.clone(), &seats, options, 0).expect("a game");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut turns = Vec::new();
    while !game.is_over() && turns.len() < 60 {
        let start = game.clone();
        let first = Roll::random(&content.dice, &mut rng);
        let mut actions = vec![Action::Roll { roll: first }];
        let mut roll = first;
        if let Some(advice) = best_use(&start, first, None)
            && let Some(r) = advice.rerolls.first()
            && r.turns < advice.keep - 1e-12
        {
            roll = first.reroll(&content.dice, &r.dice, &mut rng);
            actions.push(Action::Reroll { dice: r.dice.clone(), roll });
        }
        match best_use(&start, roll, None) {
            Some(advice) => {
                let mut builds = advice.best.builds.clone();
                if mistake == Some(turns.len()) {
                    builds.pop();
                }
                actions.push(Action::Pair { crossed: advice.best.crossed });
                actions.extend(builds);
            }
            None => actions.push(Action::Pair { crossed: false }),
        }
        actions.push(Action::End);
        for a in &actions {
            game.apply(a).expect("the advice is legal");
        }
        turns.push(actions.iter().map(|a| Move::from_action(content, a)).collect());
    }
    assert!(game.is_over(), "the small game ends");
    RecordSetup { seats: seats.to_vec(), options, seed: 0, turns }
}

fn review_of(content: &Arc<Content>, record: &RecordSetup, reuse: bool) -> Review {
    replay_setup(content.clone(), "advised", record).expect("the record replays");
    let options = AnalysisOptions { games: 6, seed: 3, time_limit: None, reuse, from_turn: 0 };
    let review = analyse(content.clone(), record, "advised".into(), options, &|| {}).expect("a review").review;
    assert!(review.problems().is_empty(), "{:?}", review.problems());
    assert!(review.decisions.iter().all(|d| d.loss >= 0.0 && d.proven));
    review
}

/// The game at the start of record turn `t`, replayed from the set-up.
fn game_at(content: &Arc<Content>, record: &RecordSetup, t: usize) -> Game {
    let mut g = Game::new(content.clone(), &record.seats, record.options, record.seed).expect("a game");
    for m in record.turns[..t].iter().flatten() {
        g.apply(&m.action()).expect("legal");
    }
    g
}

#[test]
fn the_advice_played_loses_nothing_and_one_build_short_loses_exactly_its_value() {
    let content = small_content();
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut checked = 0;
    for seed in 0..2u64 {
        let advised = advised_record(&content, seed, None);
        let review = review_of(&content, &advised, true);
        assert!(review.decisions.iter().all(|d| d.loss == 0.0), "seed {seed}: a loss in the advice's own play");
        assert!(review.decisions.iter().any(|d| d.kind == "builds"));
        if seed == 0 {
            assert_eq!(review, review_of(&content, &advised, false), "seed {seed}: reuse changed the review");
        }
        // One turn with at least two builds, played one build short.
        let candidates: Vec<usize> = advised
            .turns
            .iter()
            .enumerate()
            .filter(|(_, moves)| moves.iter().filter(|m| matches!(m, Move::Build { .. })).count() >= 2)
            .map(|(t, _)| t)
            .collect();
        let t = candidates[rng.random_range(0..candidates.len())];
        let record = advised_record(&content, seed, Some(t));
        let review = review_of(&content, &record, true);
        let lossy: Vec<_> = review.decisions.iter().filter(|d| d.loss > 0.0).collect();
        // From scratch: the best use's value at that turn, and the value of the builds played.
        let start = game_at(&content, &record, t);
        let moves = &record.turns[t];
        let roll = moves
            .iter()
            .rev()
            .find_map(|m| match m.action() {
                Action::Roll { roll } | Action::Reroll { roll, .. } => Some(roll),
                _ => None,
            })
            .expect("a roll");
        let best = best_use(&start, roll, None).expect("advice").best.turns;
        let mut played = start.clone();
        for m in &moves[..moves.len() - 1] {
            played.apply(&m.action()).expect("legal");
        }
        let colour = start.players()[start.active()].colour;
        let plan = min_link(&played, colour).expect("a plan").0;
        let after = expected_turns(&Course::of(&plan, &content, played.options().curve), &content);
        let d = review
            .decisions
            .iter()
            .find(|d| d.turn == t + 1 && d.kind == "builds")
            .expect("the mistaken turn's builds");
        assert!((d.value_before - best).abs() < 1e-9, "seed {seed}, turn {t}: {} vs {best}", d.value_before);
        assert!((d.value_after - after).abs() < 1e-9, "seed {seed}, turn {t}: {} vs {after}", d.value_after);
        assert!((d.loss - (after - best).max(0.0)).abs() < 1e-9);
        // Every other decision still plays the advice.
        assert!(
            lossy.iter().all(|l| l.index == d.index),
            "seed {seed}: losses at {:?}",
            lossy.iter().map(|l| l.index).collect::<Vec<_>>()
        );
        checked += usize::from(d.loss > 0.0);
    }
    assert!(checked >= 1, "only {checked} of the short turns lost anything");
}
