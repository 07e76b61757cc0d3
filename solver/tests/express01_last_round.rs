//! The exact last round of Express 01 against the naive max^n (and paranoid minimax) over every
//! legal step, on small end positions (hands cut to one card, at most two shares each) from
//! self-played games on both maps, 2 and 3 players; every line replayed with every rule checked
//! to the finals it states.

use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Phase};
use signalbox_engine::express01::position::PositionSetup;
use signalbox_solver::express01::game_positions::{Cut, cut, game_of, last_round_starts};
use signalbox_solver::express01::last_round::{LastRound, Opponents, last_round};
use signalbox_solver::express01::naive_round::naive_last_round_within;
use signalbox_solver::express01::selfplay::BestRoute;
use signalbox_solver::express01::turn::Limit;

/// The position with each hand cut to `keep` cards and each player's shares to [`SHARES`] (the
/// rest put at the bottom of their decks, so that every card is still once in the game), and
/// without the black engine unless `engine`.
fn cut_game<'c>(catalogue: &'c Catalogue, s: PositionSetup, keep: usize, engine: bool) -> Game<'c> {
    let shape = Cut { hand: keep, engine, mover_shares: true, shares: Some(SHARES) };
    game_of(catalogue, cut(catalogue, s, 0, shape)).expect("still legal")
}

/// The line played with every rule checked: each turn by its seat, the game over at its end
/// with the finals and winners stated.
fn replay(game: &Game<'_>, found: &LastRound) {
    let referee = BestRoute;
    let mut g = game.clone();
    for turn in &found.line {
        assert_eq!(g.mover(), turn.seat, "the turn's seat moves");
        assert_eq!(*g.phase(), Phase::Pair, "a turn starts with its pair");
        for &step in &turn.steps {
            g.play(step, &referee).expect("a legal step");
        }
    }
    assert!(g.is_over(), "the line ends the game");
    let finals: Vec<u32> = (0..g.seats().len()).map(|p| g.capital(p).total()).collect();
    assert_eq!(finals, found.finals, "the line reaches the stated finals");
    assert_eq!(g.winners(), found.winners);
}

/// The shares each player keeps.
const SHARES: usize = 2;

/// The states the naive search may visit in one position; larger positions are passed over.
const NAIVE_STATES: usize = 1_500;

#[test]
fn the_last_round_equals_the_naive_search_and_replays_to_its_finals() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    let (mut compared, mut restricted, mut none, mut nodes) = (0, 0, 0, 0u64);
    let mut seed = 0;
    while compared < 200 {
        seed += 1;
        let map = if seed % 2 == 0 { "germany" } else { "usa" };
        let players = 2 + (seed as usize / 2) % 2;
        for (i, setup) in last_round_starts(&catalogue, map, seed, players, seed % 4 == 0).into_iter().enumerate() {
            let game = cut_game(&catalogue, setup, 1, (seed as usize + i).is_multiple_of(3));
            let mut done = true;
            for opponents in [Opponents::MaxN, Opponents::Paranoid] {
                let at = format!("{map} seed {seed} turn {} {opponents:?}", game.turn());
                let Some(naive) = naive_last_round_within(&game, &referee, opponents, NAIVE_STATES) else {
                    done = false;
                    break;
                };
                let found = last_round(&game, &referee, opponents, Limit::none());
                assert_eq!(found.as_ref().map(|f| f.value.clone()), naive, "{at}");
                match found {
                    Some(f) => {
                        assert!(f.proven, "{at}");
                        assert!(!f.by_chance, "{at}: every card known");
                        assert_eq!(f.restricted, !game.end_reached(), "{at}");
                        restricted += usize::from(f.restricted);
                        nodes += f.nodes;
                        replay(&game, &f);
                    }
                    None => none += 1,
                }
            }
            compared += usize::from(done);
        }
    }
    println!(
        "{compared} positions ({seed} games): {restricted} restricted lines, {none} not in the last round, {nodes} nodes"
    );
    assert!(restricted > 0 && none > 0, "{restricted} restricted, {none} not in the last round");
}

/// The same position as a game from the table (ruling T2): the decks' cards all face down, in
/// the order `shuffle` gives them (rotated), which must not matter.
fn table_game<'c>(catalogue: &'c Catalogue, mut s: PositionSetup, keep: usize, shuffle: usize) -> Game<'c> {
    let shape = Cut { hand: keep, engine: false, mover_shares: true, shares: Some(SHARES) };
    s = cut(catalogue, s, 0, shape);
    s.table = true;
    s.face_up.clear();
    if let Some(decks) = s.decks.as_mut() {
        for cards in decks.values_mut() {
            let n = cards.len().max(1);
            cards.rotate_left(shuffle % n);
        }
    }
    game_of(catalogue, s).expect("still legal at the table")
}

/// The cards each hand keeps in the table positions.
const KEEP: usize = 1;

/// At the table a receiver of a bonus payment draws a card nobody has seen: the last round
/// takes the expectation over every card that could come (T3), equal to the naive search's
/// chance nodes, and the same whatever order the face-down cards were given in.
#[test]
fn at_the_table_the_last_round_is_the_expectation_over_the_cards_never_seen() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    let (mut compared, mut by_chance, mut chances) = (0, 0, 0);
    let mut seed = 0;
    while compared < 100 {
        seed += 1;
        let map = if seed % 2 == 0 { "germany" } else { "usa" };
        let players = 2 + (seed as usize / 2) % 2;
        for setup in last_round_starts(&catalogue, map, seed, players, seed % 4 == 0) {
            let game = table_game(&catalogue, setup.clone(), KEEP, 0);
            let opponents = if seed % 3 == 0 { Opponents::Paranoid } else { Opponents::MaxN };
            let at = format!("{map} seed {seed} turn {} {opponents:?}", game.turn());
            let Some(naive) = naive_last_round_within(&game, &referee, opponents, NAIVE_STATES) else { continue };
            let found = last_round(&game, &referee, opponents, Limit::none());
            assert_eq!(found.as_ref().map(|f| f.value.clone()), naive, "{at}");
            compared += 1;
            let Some(f) = found else { continue };
            assert!(f.proven, "{at}");
            by_chance += usize::from(f.by_chance);
            chances += f.chances;
            replay(&game, &f);
            for shuffle in [1, 3] {
                let other = table_game(&catalogue, setup.clone(), KEEP, shuffle);
                let again = last_round(&other, &referee, opponents, Limit::none()).expect("the same round");
                assert_eq!(again.value, f.value, "{at}: another order of the unseen cards");
                assert_eq!(again.line, f.line, "{at}: another order of the unseen cards");
            }
        }
    }
    println!("{compared} table positions ({seed} games): {chances} unseen draws searched, {by_chance} lines past one");
    assert!(chances >= 500, "{chances} unseen draws searched: the positions must reach them");
}

/// The turn starts of a 4-player short game on Germany with whole hands, from the turn that
/// reaches the end (restricted, L1) to the last.
fn whole_hands(catalogue: &Catalogue, seed: u64) -> Vec<Game<'_>> {
    last_round_starts(catalogue, "germany", seed, 4, false)
        .into_iter()
        .map(|s| game_of(catalogue, s).expect("a game"))
        .collect()
}

#[test]
fn past_the_deadline_the_line_found_is_whole_legal_and_not_proven() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    let mut cut = 0;
    for seed in 1..=4 {
        // Turn starts with the end reached: the default steps complete a line (L7).
        for game in whole_hands(&catalogue, seed).into_iter().filter(|g| g.end_reached()) {
            for opponents in [Opponents::MaxN, Opponents::Paranoid] {
                let found =
                    last_round(&game, &referee, opponents, Limit::until(std::time::Instant::now())).expect("a line");
                // The deadline is looked at after 1,024 states: a smaller search finishes.
                assert_eq!(found.proven, found.nodes < 1024, "seed {seed}");
                assert!(!found.restricted);
                replay(&game, &found);
                cut += usize::from(!found.proven);
            }
        }
    }
    assert!(cut >= 2, "{cut} searches cut by the deadline");
}

/// The exact last round of 4-player short games on Germany with whole hands, from the start of
/// the last round, timed (for the performance notes; a measurement, not a check):
/// `cargo test --release -p signalbox-solver --test express01_last_round -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a check"]
fn the_last_round_of_whole_hands() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    let limit = std::env::var("LAST_ROUND_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(30);
    let seeds = std::env::var("LAST_ROUND_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    for seed in 1..=seeds {
        for game in whole_hands(&catalogue, seed).into_iter().take(2) {
            for opponents in [Opponents::MaxN, Opponents::Paranoid] {
                let t = std::time::Instant::now();
                let deadline = t + std::time::Duration::from_secs(limit);
                let found = last_round(&game, &referee, opponents, Limit::until(deadline));
                println!(
                    "seed {seed} turn {} {opponents:?}: hands {:?}, end reached {}: {:?}, {:?}",
                    game.turn(),
                    game.seats().iter().map(|s| s.hand.len()).collect::<Vec<_>>(),
                    game.end_reached(),
                    found.as_ref().map(|f| (f.proven, f.nodes, f.finals.clone())),
                    t.elapsed()
                );
            }
        }
    }
}
