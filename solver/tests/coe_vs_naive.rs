//! The Cubes of Europe solver against the naive search, on games shortened to a few turns
//! (`Rules::max_turns`): the same best score on 500 seeds and more, every line replayed and
//! re-scored by the engine, one thread and two giving the same line, and the bound never below
//! the naive value, also in the middle of a turn. Where the free shift meets the workers' top:
//! the hand-built position, games planted around it, and random positions with the worker
//! effects in play and the workers high (`Rules::start_workers`, `Rules::tucked_at_start`).

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use signalbox_engine::coe::{Catalogue, Colour, Effect, Game, Instance, Move, Record, Rules};
use signalbox_solver::coe::bound::upper_bound;
use signalbox_solver::coe::naive;
use signalbox_solver::coe::search::{SolveOptions, solve};

fn check(catalogue: &Catalogue, instance: &Instance, rules: Rules) -> u32 {
    check_from(catalogue, instance, rules, &[])
}

/// The solver from the position `prefix` reaches against the naive search: the same best
/// score, proven, and a line that replays (after the prefix) to it.
fn check_from(catalogue: &Catalogue, instance: &Instance, rules: Rules, prefix: &[Move]) -> u32 {
    let mut game = Game::new(catalogue, instance, rules);
    for &mv in prefix {
        game.play(mv).expect("the prefix is legal");
    }
    let (best, _) = naive::best(&game);
    let one = solve(&game, SolveOptions { threads: Some(1), ..SolveOptions::default() });
    let seed = instance.seed;
    assert!(one.proven, "seed {seed:?}");
    assert_eq!(one.score, best, "seed {seed:?}: the solver disagrees with the naive search");
    assert_eq!(one.upper_bound, best);
    assert!(one.perfect_bound >= best, "seed {seed:?}: the perfect-score bound is below the optimum");
    let mut moves = prefix.to_vec();
    moves.extend(&one.line);
    let record = Record::new(instance.clone(), rules, moves);
    let (end, score) = record.replay(catalogue, "line").expect("the line replays");
    assert!(end.is_over());
    assert_eq!(score.total(), best, "seed {seed:?}: the line does not score what the solver claims");
    best
}

#[test]
fn the_solver_agrees_with_the_naive_search_on_500_two_turn_games() {
    let catalogue = Catalogue::house();
    let rules = Rules { max_turns: Some(2), ..Rules::default() };
    let mut scores = std::collections::BTreeSet::new();
    for seed in 1..=520u64 {
        scores.insert(check(&catalogue, &Instance::from_seed(seed), rules));
    }
    assert!(scores.len() >= 3, "the games should not all score alike: {scores:?}");
}

#[test]
fn the_solver_agrees_with_the_naive_search_on_three_turn_games() {
    let catalogue = Catalogue::house();
    let rules = Rules { max_turns: Some(3), ..Rules::default() };
    for seed in 1000..1024u64 {
        check(&catalogue, &Instance::from_seed(seed), rules);
    }
}

#[test]
fn with_a_lower_workers_track_the_solver_still_agrees() {
    let catalogue = Catalogue::house();
    for (seed, max_workers) in (2000..2060u64).zip([2u8, 3, 4, 8].into_iter().cycle()) {
        check(&catalogue, &Instance::from_seed(seed), Rules { max_workers, max_turns: Some(2), ..Rules::default() });
    }
}

/// Random positions, at turn starts and in the middle of turns (with a die left or a choice
/// open), two turns before the end: the bound is never below the naive best.
#[test]
fn the_bound_is_never_below_the_best_score() {
    let catalogue = Catalogue::house();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut checked = 0;
    for seed in 0..300u64 {
        let instance = Instance::from_seed(seed);
        let turns = [3usize, 5, 8, 11][seed as usize % 4];
        let rules = Rules { max_turns: Some(turns), ..Rules::default() };
        let mut game = Game::new(&catalogue, &instance, rules);
        // Random play until two turns remain, then a few more random moves into the turn.
        while !game.is_over() && game.turn() + 2 < turns {
            let mv = *game.legal_moves().choose(&mut rng).expect("moves");
            game.play_unchecked(mv);
        }
        for _ in 0..(seed % 3) {
            if game.is_over() {
                break;
            }
            let mv = *game.legal_moves().choose(&mut rng).expect("moves");
            game.play_unchecked(mv);
        }
        let (best, _) = naive::best(&game);
        assert!(upper_bound(&game) >= best, "seed {seed}: bound {} below the best {best}", upper_bound(&game));
        checked += 1;
    }
    assert_eq!(checked, 300);
}

/// Two threads give the same score and the same line as one, on longer games and on whole
/// games (seeds whose best line the proof finds beyond the beam's, and one where the beam's
/// line is already best).
#[test]
fn one_thread_and_two_give_the_same_line() {
    let catalogue = Catalogue::house();
    for (seed, max_turns) in
        [(1u64, Some(6)), (2, Some(6)), (3, Some(6)), (4, Some(8)), (19, None), (5, None), (4, None)]
    {
        let instance = Instance::from_seed(seed);
        let rules = Rules { max_turns, ..Rules::default() };
        let game = Game::new(&catalogue, &instance, rules);
        let one = solve(&game, SolveOptions { threads: Some(1), ..SolveOptions::default() });
        let two = solve(&game, SolveOptions { threads: Some(2), ..SolveOptions::default() });
        assert!(one.proven && two.proven);
        assert_eq!((one.score, &one.line), (two.score, &two.line), "seed {seed}");
    }
}

/// The best score over the lines that take the free shift whenever they can (as the engine did
/// before the choice was the player's): a plain recursion over the legal moves less those that
/// decline it.
fn best_always_taking_the_free_shift(game: &Game<'_>) -> u32 {
    if game.is_over() {
        return game.score().total();
    }
    let declines = |mv: &Move| {
        matches!(mv, Move::Gain { free_shift: Some(false), .. } | Move::Place { free_shift: Some(false), .. })
    };
    game.legal_moves()
        .into_iter()
        .filter(|mv| !declines(mv))
        .map(|mv| {
            let mut next = game.clone();
            next.play_unchecked(mv);
            best_always_taking_the_free_shift(&next)
        })
        .max()
        .unwrap_or(0)
}

/// Rules under which the free shift and the workers' top meet often: the free shift in play
/// from the start, the workers at or next to a top of 2 to 6, and sometimes the other worker
/// effects (a second worker per gain, a worker per green placed) and the larger inventory.
fn busy_rules(rng: &mut impl rand::Rng, catalogue: &Catalogue, instance: &Instance, turns: usize) -> Rules {
    let id = |e: fn(Effect) -> bool| catalogue.cards.iter().find(|c| e(c.market.effect)).map_or(0, |c| c.id);
    let free = id(|e| e == Effect::FreeShift);
    let others = [
        id(|e| e == Effect::WorkerBonus),
        id(|e| matches!(e, Effect::PlacedGainsWorker { .. })),
        id(|e| matches!(e, Effect::InventorySize { .. })),
    ];
    let mut tucked = 0u16;
    for card in std::iter::once(free).chain(others.into_iter().filter(|_| rng.random_bool(0.3))) {
        if card != instance.board {
            tucked |= 1 << card;
        }
    }
    let max_workers = rng.random_range(2..=6u8);
    let start_workers = max_workers - u8::from(rng.random_bool(0.3));
    Rules { max_workers, max_turns: Some(turns), start_workers, tucked_at_start: tucked }
}

/// A two-turn game planted around the free shift at the workers' top (the case of
/// `tests/fixtures/coe/free-shift-at-the-top.json`, on a random board): the workers at the top
/// of a track of 2 to 6, the free shift in play, a blue cube and a cube of another colour gained
/// on turn 1 (the moves returned), and turn 2's dice each one step from a number: one from a
/// blue hex touching the start, the other from a hex of the other colour touching that blue hex
/// but not the start. The rest is random: the board, the start, the deck beyond the market, the
/// reshuffle, the other dice and effects, which die is which. `None` when the board has no such
/// hexes.
fn planted(seed: u64, catalogue: &Catalogue) -> Option<(Instance, Rules, Vec<Move>)> {
    use rand::seq::SliceRandom;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut instance = Instance::from_seed(seed);
    let free = catalogue.cards.iter().find(|c| c.market.effect == Effect::FreeShift).map(|c| c.id)?;
    if instance.board == free {
        return None;
    }
    let board = &catalogue.card(instance.board)?.board;
    let touches = |a: usize, b: usize| board.neighbours[a].contains(&b);
    let start = *board.of_colour(Colour::Yellow).collect::<Vec<_>>().choose(&mut rng)?;
    let blue = *board.of_colour(Colour::Blue).filter(|&x| touches(x, start)).collect::<Vec<_>>().choose(&mut rng)?;
    let other = *(0..board.hexes.len())
        .filter(|&z| touches(z, blue) && z != start && !touches(z, start) && board.hexes[z].colour != Colour::Blue)
        .collect::<Vec<_>>()
        .choose(&mut rng)?;
    let colour = board.hexes[other].colour;
    let mut rules = busy_rules(&mut rng, catalogue, &instance, 2);
    rules.start_workers = rules.max_workers;
    // The market of turn 1 (the deck's first two cards left after the tucks) gives both colours.
    let tucked = |c: u8| rules.tucked_at_start >> c & 1 == 1;
    let mut cards: Vec<u8> = instance.deck.iter().copied().filter(|&c| !tucked(c)).collect();
    let square_of = |cards: &[u8], c: Colour| {
        cards[..2].iter().rev().enumerate().find_map(|(pos, &id)| {
            let m = &catalogue.card(id)?.market;
            m.central.iter().position(|sq| sq.colour == c).map(|sq| (pos as u8, sq as u8, m.central[sq].face))
        })
    };
    let mut squares = None;
    for _ in 0..20 {
        cards.shuffle(&mut rng);
        if let (Some(b), Some(o)) = (square_of(&cards, Colour::Blue), square_of(&cards, colour)) {
            squares = Some((b, o));
            break;
        }
    }
    let ((bc, bs, bf), (oc, os, of)) = squares?;
    cards.extend(rules.tucked_at_start_ids());
    instance.deck = cards;
    let near =
        |n: u8, rng: &mut rand_chacha::ChaCha8Rng| if rng.random_bool(0.5) { n % 6 + 1 } else { (n + 4) % 6 + 1 };
    let (a, b) = (near(board.hexes[blue].number, &mut rng), near(board.hexes[other].number, &mut rng));
    instance.dice[0] = [bf, of];
    instance.dice[1] = if rng.random_bool(0.5) { [a, b] } else { [b, a] };
    let moves = vec![
        Move::Start { hex: start as u8 },
        Move::Gain { die: 0, face: bf, card: bc, square: bs, colour: Colour::Blue, free_shift: None },
        Move::Gain { die: 1, face: of, card: oc, square: os, colour, free_shift: None },
    ];
    Some((instance, rules, moves))
}

/// A playout that keeps workers and gathers cubes: it picks among the moves that spend no
/// worker, gains twice as often as anything else.
fn thrifty_move(game: &Game<'_>, rng: &mut impl rand::Rng) -> Move {
    let legal = game.legal_moves();
    let dice = game.dice();
    let free = |mv: &Move| match *mv {
        Move::Gain { die, face, free_shift, .. } | Move::Place { die, face, free_shift, .. } => {
            dice[usize::from(die)] == Some(face) || free_shift == Some(true)
        }
        _ => true,
    };
    let cheap: Vec<Move> = legal.iter().copied().filter(free).collect();
    let pool = if cheap.is_empty() { &legal } else { &cheap };
    let gains: Vec<Move> = pool.iter().copied().filter(|m| matches!(m, Move::Gain { .. })).collect();
    if !gains.is_empty() && rng.random_bool(0.67) {
        *gains.choose(rng).expect("non-empty")
    } else {
        *pool.choose(rng).expect("a game not over has a move")
    }
}

/// The hand-built position: the free shift on the first die turned (die 0, placing blue at the
/// workers' top) scores a point less than paying for it and taking the free shift on die 1. The
/// solver's maximum is the better line's, as the naive search's, and above the best of the
/// lines that take the free shift whenever they can.
#[test]
fn on_the_hand_built_position_the_free_shift_goes_to_the_second_die() {
    let catalogue = Catalogue::house();
    let path = format!("{}/../tests/fixtures/coe/free-shift-at-the-top.json", env!("CARGO_MANIFEST_DIR"));
    let record = Record::from_json(&path, &std::fs::read_to_string(&path).expect("the fixture")).expect("reads");
    let rules = record.rules.to_rules(&record.instance).expect("valid rules");
    let best = check_from(&catalogue, &record.instance, rules, &record.moves);
    let (game, _) = record.replay(&catalogue, &path).expect("replays");
    let mut paid_first = game.clone();
    paid_first.play(Move::Place { die: 0, face: 4, hex: 5, free_shift: Some(false) }).expect("legal");
    paid_first.play(Move::Place { die: 1, face: 5, hex: 10, free_shift: Some(true) }).expect("legal");
    assert!(paid_first.is_over());
    assert_eq!(best, paid_first.score().total());
    assert_eq!(best_always_taking_the_free_shift(&game), best - 1);
    let solved = solve(&game, SolveOptions { threads: Some(1), ..SolveOptions::default() });
    assert!(
        solved.line.iter().any(|m| matches!(m, Move::Place { free_shift: Some(false), .. })),
        "the maximum pays for the first die: {:?}",
        solved.line
    );
}

/// Planted games (see [`planted`]) from turn 2, and every twentieth from its start: the solver
/// agrees with the naive search, and on many of them declining the free shift is worth a point
/// or more (the lines that always take it score less).
#[test]
fn around_the_free_shift_at_the_workers_top_the_solver_still_agrees() {
    let catalogue = Catalogue::house();
    let (mut checked, mut declining_pays) = (0, 0);
    for seed in 0..600u64 {
        let Some((instance, rules, prefix)) = planted(seed, &catalogue) else { continue };
        let prefix = if seed % 20 == 0 { &[][..] } else { &prefix[..] };
        let best = check_from(&catalogue, &instance, rules, prefix);
        let mut game = Game::new(&catalogue, &instance, rules);
        for &mv in prefix {
            game.play(mv).expect("legal");
        }
        if best_always_taking_the_free_shift(&game) < best {
            declining_pays += 1;
        }
        checked += 1;
    }
    assert!(checked >= 250, "only {checked} planted games");
    assert!(declining_pays * 20 >= checked, "declining the free shift paid in {declining_pays} of {checked}");
}

/// Random positions with the free shift and other worker effects in play and the workers high
/// (a playout that spends none), a turn before the end: the solver agrees with the naive search
/// and the bound is never below it, also in the middle of the turn.
#[test]
fn with_worker_effects_and_many_workers_the_solver_and_the_bound_hold() {
    let catalogue = Catalogue::house();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    for seed in 3000..3300u64 {
        let instance = Instance::from_seed(seed);
        let k = rng.random_range(1..=6usize);
        let rules = busy_rules(&mut rng, &catalogue, &instance, k + 1);
        let mut game = Game::new(&catalogue, &instance, rules);
        let mut prefix = Vec::new();
        while !game.is_over() && game.turn() < k {
            let mv = thrifty_move(&game, &mut rng);
            game.play_unchecked(mv);
            prefix.push(mv);
        }
        check_from(&catalogue, &instance, rules, &prefix);
        for _ in 0..(seed % 3) {
            if game.is_over() {
                break;
            }
            let mv = thrifty_move(&game, &mut rng);
            game.play_unchecked(mv);
        }
        let (best, _) = naive::best(&game);
        assert!(upper_bound(&game) >= best, "seed {seed}: bound {} below the best {best}", upper_bound(&game));
    }
}
