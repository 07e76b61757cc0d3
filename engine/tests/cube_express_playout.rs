//! Plays whole games of Cube Express for 2, 3 and 4 players from seeds with random legal actions,
//! and checks the invariants after every action: 25 cubes per player, every tile in exactly one
//! place, the running scores equal to the scores recomputed from scratch, and the legal actions
//! all legal.

use std::collections::BTreeSet;
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::{CUBES, Game};
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::score::{final_scores, winners};

fn check(game: &Game, used: &BTreeSet<u8>, context: &str) {
    for seat in 0..game.players().len() {
        assert_eq!(game.cubes_of(seat), u32::from(CUBES), "{context}: cubes of seat {seat}");
    }
    let mut seen: Vec<u8> = game.stack().to_vec();
    seen.extend(game.display().iter().flatten());
    for p in game.players() {
        seen.extend(&p.hand);
    }
    seen.extend(game.board().tiles().iter().filter_map(|t| t.piece.tile()));
    seen.sort_unstable();
    assert_eq!(seen, used.iter().copied().collect::<Vec<_>>(), "{context}: tiles");
    let scores = final_scores(game);
    for (seat, p) in game.players().iter().enumerate() {
        assert_eq!(p.banked, scores[seat].banked(), "{context}: running score of seat {seat}");
        assert!(p.hand.len() <= 3, "{context}: hand of seat {seat}");
        assert!(p.built <= 5);
    }
}

#[test]
fn two_hundred_random_games_keep_the_invariants() {
    let content = Arc::new(Content::house());
    let mut turns_total = 0;
    let mut seen: BTreeSet<&'static str> = BTreeSet::new();
    for seed in 0..200u64 {
        let players = 2 + (seed % 3) as usize;
        let used: BTreeSet<u8> = content.tiles.iter().filter(|t| t.players.used_with(players)).map(|t| t.id).collect();
        let mut game = Game::new(content.clone(), players, seed, Options::default()).expect("setup");
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        check(&game, &used, &format!("seed {seed} setup"));
        let mut actions = 0;
        while !game.is_over() {
            let action = game.random_action(&mut rng).expect("a legal action while the game goes on");
            let before = game.turns_played();
            seen.insert(match action {
                Action::Deliver { .. } => "deliver",
                Action::Pickup => "pickup",
                Action::Passenger => "passenger",
                Action::BuildLocomotive { .. } => "locomotive",
                Action::Lay(l) if l.pay.total() > 0 => "station",
                Action::Lay(l) if l.back => "back",
                Action::Market { cube: true, .. } => "objective cube",
                Action::Sell { .. } => "sell",
                Action::Convert { .. } => "convert",
                Action::NoMarket => "final round",
                _ => "other",
            });
            game.apply(&action).unwrap_or_else(|e| panic!("seed {seed}: legal action {action:?} refused: {e}"));
            check(&game, &used, &format!("seed {seed} after {action:?}"));
            turns_total += usize::from(game.turns_played() != before);
            actions += 1;
            assert!(actions < 20_000, "seed {seed}: the game does not end");
        }
        assert!(!winners(&game).is_empty());
    }
    for what in [
        "deliver",
        "pickup",
        "passenger",
        "locomotive",
        "station",
        "back",
        "objective cube",
        "sell",
        "convert",
        "final round",
    ] {
        assert!(seen.contains(what), "no random game did {what}: the playout does not exercise the rules");
    }
    assert!(turns_total > 200 * 8, "games are too short: {turns_total} turns");
}

#[test]
fn fifty_random_solitaire_games_keep_the_invariants() {
    let content = Arc::new(Content::house());
    let used: BTreeSet<u8> = content.tiles.iter().filter(|t| t.players.used_with(2)).map(|t| t.id).collect();
    let mut delivered = false;
    for seed in 0..50u64 {
        let mut game = Game::solo(content.clone(), seed, Options::default()).expect("setup");
        let two = Game::new(content.clone(), 2, seed, Options::default()).expect("setup");
        // Ruling O1: the 2-player shuffle, drawn one tile at a time, with no display.
        let mut order: Vec<u8> = two.stack().to_vec();
        order.extend(two.display().iter().rev().flatten());
        order.extend(two.players().iter().rev().flat_map(|p| p.hand.iter().rev()));
        assert_eq!(game.players()[0].hand.len(), 1);
        assert!(game.display().iter().all(Option::is_none));
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5010);
        check(&game, &used, &format!("solo seed {seed} setup"));
        let mut turns = 0;
        while !game.is_over() {
            let hand = game.players()[0].hand.clone();
            let drawn = order.pop();
            assert_eq!(hand, drawn.into_iter().collect::<Vec<_>>(), "solo seed {seed}: turn {turns}'s tile");
            let before = game.turns_played();
            while game.turns_played() == before && !game.is_over() {
                let action = game.random_action(&mut rng).expect("a legal action while the game goes on");
                assert!(!matches!(action, Action::Market { .. }), "solo seed {seed}: a market in a solitaire game");
                if let Action::Deliver { objective } = action {
                    assert_eq!(objective, None, "solo seed {seed}: an objective cube in a solitaire game");
                    delivered = true;
                }
                game.apply(&action)
                    .unwrap_or_else(|e| panic!("solo seed {seed}: legal action {action:?} refused: {e}"));
                check(&game, &used, &format!("solo seed {seed} after {action:?}"));
            }
            turns += 1;
            assert!(turns <= used.len() + 1, "solo seed {seed}: the game does not end");
        }
        assert!(game.players()[0].hand.len() <= 1);
    }
    assert!(delivered, "no solitaire game delivered: the playout does not exercise the rules");
}
