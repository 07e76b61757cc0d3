//! The exact best turn of Express 01 against the naive search over every legal turn, on small
//! positions (hands cut to a few cards) from self-played games on both maps; and every best turn
//! replayed with every rule checked to the value it claims.

use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Phase};
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::record::StartSetup;
use signalbox_engine::express01::round::Length;
use signalbox_solver::express01::selfplay::{BestRoute, MAX_ROUNDS, Policy, play_out, policy_rng};
use signalbox_solver::express01::turn::{best_turn, evaluation, naive_best};

/// Turn starts of a self-played game, every `every`-th, with each hand cut to `keep` cards (the
/// rest put at the bottom of their decks, so every card is still once in the game).
fn small_positions<'c>(catalogue: &'c Catalogue, map: &str, seed: u64, every: usize, keep: usize) -> Vec<Game<'c>> {
    positions(catalogue, map, seed, every, keep, Policy::Random)
}

/// Turn starts of a game self-played by `policy`, as [`small_positions`].
fn positions<'c>(catalogue: &'c Catalogue, map: &str, seed: u64, every: usize, keep: usize, policy: Policy) -> Vec<Game<'c>> {
    let start = StartSetup::new(map, seed, ["A", "B", "C"].map(String::from).to_vec(), Length::Short);
    let setup = start.position(catalogue).expect("a start");
    let position = Position::from_setup(setup, catalogue).expect("legal");
    let mut game = Game::from_position(&position).expect("a game");
    let mut starts = Vec::new();
    play_out(&mut game, policy, &mut policy_rng(seed), MAX_ROUNDS, &mut |g, _| {
        if *g.phase() == Phase::Pair {
            starts.push(g.to_setup());
        }
    });
    starts
        .into_iter()
        .step_by(every)
        .map(|mut s| {
            // No black engine: a card's worth more doubles the turn.
            if s.black_engine.take().is_some() {
                s.black_engine_used = true;
            }
            for p in &mut s.players {
                let rest: Vec<u16> = p.hand.drain(keep.min(p.hand.len())..).collect();
                for n in rest {
                    let card = catalogue.card(signalbox_engine::express01::card::CardNumber(n)).expect("a card");
                    let deck = signalbox_engine::express01::position::deck_names(&catalogue.maps[0].kinds)
                        .into_iter()
                        .chain(signalbox_engine::express01::position::deck_names(&catalogue.maps[1].kinds))
                        .find(|(_, (k, st))| *k == card.kind && *st == card.stage)
                        .map(|(name, _)| name)
                        .expect("a deck");
                    s.decks.as_mut().expect("decks").entry(deck.to_string()).or_default().push(n);
                }
            }
            let position = Position::from_setup(s, catalogue).expect("still legal");
            Game::from_position(&position).expect("a game")
        })
        .collect()
}

#[test]
fn the_best_turn_equals_the_naive_search_and_replays_to_its_value() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    let mut compared = 0;
    let mut nodes = (0u64, 0u64);
    for (map, seed) in [("germany", 1), ("usa", 2)] {
        for game in small_positions(&catalogue, map, seed, 6, 1) {
            let t = std::time::Instant::now();
            let naive = naive_best(&game, &referee).expect("a turn ends");
            let naive_time = t.elapsed();
            let found = best_turn(&game, &referee);
            println!(
                "{map} {seed} r{} t{}: naive {naive_time:?}, search {} nodes",
                game.round(),
                game.turn(),
                found.nodes
            );
            nodes.0 += found.nodes;
            assert_eq!(found.best().value, naive, "{map} seed {seed}, round {} turn {}", game.round(), game.turn());
            // The certificate: the turn played with every rule checked reaches the value.
            let mut g = game.clone();
            let (last, before) = found.best().steps.split_last().expect("a turn has steps");
            for &s in before {
                g.play(s, &referee).expect("a legal step");
            }
            assert_eq!(evaluation(&g, game.mover()), naive);
            g.play(*last, &referee).expect("the last step is legal");
            assert!(g.is_over() || *g.phase() == Phase::Pair, "the turn ends with its last step");
            compared += 1;
        }
    }
    println!("{compared} positions, {} search nodes", nodes.0);
    assert!(compared >= 10, "{compared} positions compared");
}

/// Mid-game positions with whole hands: the search's work, printed (no reference; for the
/// performance notes). `cargo test --release -p signalbox-solver --test express01_turn -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a check"]
fn the_search_on_whole_hands() {
    let catalogue = Catalogue::house();
    let referee = BestRoute;
    for (map, seed) in [("germany", 1), ("usa", 2), ("germany", 5)] {
        for game in positions(&catalogue, map, seed, 3, 12, Policy::Greedy) {
            let t = std::time::Instant::now();
            let deadline = t + std::time::Duration::from_secs(20);
            let found = signalbox_solver::express01::turn::best_turns(&game, &referee, 1, Some(deadline));
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
