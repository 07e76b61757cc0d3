//! The exact best turn of Express 01 against the naive search over every legal turn, on small
//! positions (hands cut to a few cards) from self-played games on both maps; and every best turn
//! replayed with every rule checked to the value it claims.

use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Phase, Step};
use signalbox_engine::express01::round::Length;
use signalbox_solver::express01::game_positions::{agreement_positions, game_of, turn_starts};
use signalbox_solver::express01::selfplay::{BestRoute, Policy};
use signalbox_solver::express01::turn::{Limit, best_turns, evaluation, naive_best};

/// Replays `steps` from `game` with every rule checked; the evaluation at the end of the turn
/// (before its last step).
fn replayed_value(game: &Game<'_>, steps: &[Step], referee: &BestRoute) -> i32 {
    let mut g = game.clone();
    let (last, before) = steps.split_last().expect("a turn has steps");
    for &s in before {
        g.play(s, referee).unwrap_or_else(|e| panic!("step {s:?} refused: {e}"));
    }
    let value = evaluation(&g, game.mover());
    g.play(*last, referee).expect("the last step is legal");
    assert!(g.is_over() || *g.phase() == Phase::Pair, "the turn ends with its last step");
    value
}

/// 500 small positions (hands of at most one card, the mover's shares taken away on boards
/// with more than three stations, the black engine kept in a third of them) from random and
/// greedy self-play on both maps, 2 and 3 players: the search's best value equals the naive
/// search's, and its best three turns replay with every rule checked to the values claimed.
#[test]
fn the_best_turn_equals_the_naive_search_on_500_small_positions_and_replays_to_its_value() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    let mut compared = 0;
    let mut by_map = [0usize; 2];
    let (mut naive_time, mut search_time) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    for game in agreement_positions(&catalogue, 500) {
        let t = std::time::Instant::now();
        let naive = naive_best(&game, &referee).expect("a turn ends");
        naive_time += t.elapsed();
        let t = std::time::Instant::now();
        let found = best_turns(&game, &referee, 3, Limit::none());
        search_time += t.elapsed();
        let map = game.map().id.clone();
        let at = format!("{map}, round {} turn {}: {}", game.round(), game.turn(), serde_json::json!(game.to_setup()));
        assert!(found.proven, "{at}: no limit, so proven");
        assert_eq!(found.refused, 0, "{at}: a line of A) the game refused");
        assert_eq!(found.best().value, naive, "{at}");
        for turn in &found.turns {
            assert_eq!(replayed_value(&game, &turn.steps, &referee), turn.value, "{at}: {:?}", turn.steps);
        }
        compared += 1;
        by_map[usize::from(map == "usa")] += 1;
    }
    println!(
        "{compared} positions ({} Germany, {} USA): naive {naive_time:?}, search {search_time:?}",
        by_map[0], by_map[1]
    );
    assert!(by_map[0] >= 100 && by_map[1] >= 100, "both maps: {by_map:?}");
}

/// The same small positions as games from the table (ruling T2: every deck face down, in an
/// order nobody saw). Where the turn can draw the West's card from a face-down top, lines through
/// it are valued with the card in number order; the answer is proven only where no such line
/// could beat the best whatever card came (T3), and its bound then covers every card. Proven
/// answers equal the naive search; every answer is the same for two orders of the decks.
#[test]
fn at_the_table_a_best_turn_past_an_unseen_card_is_proven_only_where_no_card_could_beat_it() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    let (mut compared, mut unseen) = (0, 0);
    for game in agreement_positions(&catalogue, 500).into_iter().filter(|g| g.map().id == "usa") {
        let table = |rotate: usize| {
            let mut setup = game.to_setup();
            setup.table = true;
            setup.face_up.clear();
            for cards in setup.decks.iter_mut().flat_map(|d| d.values_mut()) {
                let n = cards.len().max(1);
                cards.rotate_left(rotate % n);
            }
            game_of(&catalogue, setup).expect("the position at the table")
        };
        let (first, second) = (table(0), table(2));
        let found = best_turns(&first, &referee, 1, Limit::none());
        let again = best_turns(&second, &referee, 1, Limit::none());
        let at = format!("round {} turn {}", game.round(), game.turn());
        let summary = |a: &signalbox_solver::express01::turn::TurnAnswer| {
            (a.best().value, a.best().steps.clone(), a.proven, a.bound, a.unseen)
        };
        assert_eq!(summary(&found), summary(&again), "{at}: another order of the unseen cards");
        assert_eq!(replayed_value(&first, &found.best().steps, &referee), found.best().value, "{at}");
        if found.unseen {
            unseen += 1;
            assert!(!found.proven && found.bound > found.best().value, "{at}: not proven, with a bound above the best");
        } else {
            assert!(found.proven, "{at}");
            assert_eq!(found.best().value, naive_best(&first, &referee).expect("a turn ends"), "{at}");
        }
        compared += 1;
    }
    println!("{compared} USA positions at the table, {unseen} with a West card that could come face down");
    assert!(compared >= 100, "{compared}");
}

/// Mid-game positions with whole hands from greedy self-play: the search's work, printed (no
/// reference; for the performance notes).
/// `cargo test --release -p signalbox-solver --test express01_turn -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a check"]
fn the_search_on_whole_hands() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    for (map, seed) in [("germany", 1), ("usa", 2), ("germany", 5)] {
        for (i, setup) in turn_starts(&catalogue, map, seed, 3, Length::Short, Policy::Greedy).into_iter().enumerate() {
            if i % 3 != 0 {
                continue;
            }
            let game = game_of(&catalogue, setup).expect("a legal game");
            let t = std::time::Instant::now();
            let deadline = t + std::time::Duration::from_secs(20);
            let found = best_turns(&game, &referee, 1, Limit::until(deadline));
            println!(
                "{map} {seed} r{} t{}: hand {}, value {} (bound {}, proven {}), {} nodes, {:?}",
                game.round(),
                game.turn(),
                game.seats()[game.mover()].hand.len(),
                found.best().value,
                found.bound,
                found.proven,
                found.nodes,
                t.elapsed()
            );
        }
    }
}

/// The embedded sample of `express01 advise` and the last-round fixture of the CLI tests are
/// what their generators make (with `SIGNALBOX_BLESS=1`, the test writes them).
#[test]
fn the_advice_samples_are_what_their_generators_make() {
    use signalbox_solver::express01::game_positions::{advice_sample, last_round_sample};
    let catalogue = Catalogue::house();
    for (setup, path) in [
        (
            advice_sample(&catalogue),
            concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/data/express01/advice-sample.json"),
        ),
        (
            last_round_sample(&catalogue),
            concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/express01/last-round.json"),
        ),
    ] {
        let setup = setup.expect("a sample");
        let text = serde_json::to_string_pretty(&setup).expect("JSON") + "\n";
        if std::env::var_os("SIGNALBOX_BLESS").is_some() {
            std::fs::write(path, &text).expect("written");
        }
        assert_eq!(
            std::fs::read_to_string(path).unwrap_or_default(),
            text,
            "{path}: regenerate with SIGNALBOX_BLESS=1"
        );
        assert!(game_of(&catalogue, setup).is_some(), "a legal whole game");
    }
}
