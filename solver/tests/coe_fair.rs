//! The Cubes of Europe fair-play solver (`fair`) against the naive reference (`fair_naive`) on
//! games shortened to one, two and three turns (ruling G1) and on small decks (ruling G2): the
//! same exact values at turn starts, in the middle of turns and before the start, also through
//! a tuck and a reshuffle; the estimates' 95% intervals holding the exact values; the same
//! numbers on one thread and two; and no peeking: two futures that look alike to the player
//! give the same play and the same values.

use rayon::ThreadPoolBuilder;
use signalbox_engine::coe::{Catalogue, Colour, Effect, Game, Instance, Move, Rules};
use signalbox_solver::coe::exact::turn_outcomes;
use signalbox_solver::coe::fair::{self, Blind, Exact, FairKey, Policy, fair_key};
use signalbox_solver::coe::fair_naive;

/// The id of the house card whose yellow box is `effect`.
fn card_with(catalogue: &Catalogue, effect: Effect) -> u8 {
    catalogue.cards.iter().find(|c| c.market.effect == effect).map(|c| c.id).expect("the house set has the effect")
}

/// `tucked_at_start` (ruling G2): the `preferred` cards (the board card left out), then as many
/// of the deck's bottom cards as it takes to leave at most `keep` cards in the deck.
fn tucked(instance: &Instance, preferred: &[u8], keep: usize) -> u16 {
    let mut mask = preferred.iter().filter(|&&c| c != instance.board).fold(0u16, |m, &c| m | 1 << c);
    for &c in instance.deck.iter().rev() {
        if instance.deck.iter().filter(|&&d| mask >> d & 1 == 0).count() <= keep {
            break;
        }
        mask |= 1 << c;
    }
    mask
}

/// The game after the start on the `start`th yellow hex (round the three), with `roll` set.
fn at_roll<'c>(
    catalogue: &'c Catalogue,
    instance: &'c Instance,
    rules: Rules,
    start: usize,
    roll: [u8; 2],
) -> Game<'c> {
    rules.check(instance).expect("valid rules");
    let mut game = Game::new(catalogue, instance, rules);
    let yellow: Vec<usize> = game.board().of_colour(Colour::Yellow).collect();
    let hex = yellow[start % yellow.len()] as u8;
    game.play(Move::Start { hex }).expect("a yellow start space");
    game.set_roll(roll).expect("a turn's start");
    game
}

/// The exact value against the naive one at `game`; the value.
fn agree(game: &Game<'_>, label: &str) -> f64 {
    let blind = Blind::of(game);
    let exact = Exact::new(&blind).value(game);
    let naive = fair_naive::expected(game);
    assert!((exact - naive).abs() < 1e-9, "{label}: exact {exact}, naive {naive}");
    exact
}

/// Positions inside the turn from `game`: after the first, a middle and the last legal move,
/// where the turn goes on (a die left or an effect's choice open).
fn inside_turn<'c>(game: &Game<'c>) -> Vec<Game<'c>> {
    let legal = game.legal_moves();
    let mut out = Vec::new();
    for i in [0, legal.len() / 2, legal.len().saturating_sub(1)] {
        let Some(&mv) = legal.get(i) else { continue };
        let mut g = game.clone();
        g.play(mv).expect("listed");
        if !g.is_over() && g.turn() == game.turn() {
            out.push(g);
        }
    }
    out
}

/// What the searched turn from `game` passes through: (outcomes that tuck a card, outcomes that
/// reshuffle with the game going on).
fn tucks_and_reshuffles(game: &Game<'_>) -> (usize, usize) {
    let outcomes = turn_outcomes(game);
    let tucks = outcomes.iter().filter(|(g, _)| g.tucked().len() > game.tucked().len()).count();
    let reshuffles =
        outcomes.iter().filter(|(g, _)| g.is_reshuffled() && !game.is_reshuffled() && !g.is_over()).count();
    (tucks, reshuffles)
}

/// Plays `turns` turns from `game`, each ending where the most yellow hexes are filled, then the
/// most yellow cubes are held, then the most cubes placed (a line that places yellows and so
/// tucks cards), the first such outcome in the engine's order; the position reached and the
/// moves.
fn yellow_turns<'c>(mut game: Game<'c>, turns: usize) -> (Game<'c>, Vec<Move>) {
    let mut moves = Vec::new();
    for _ in 0..turns {
        let outcomes = turn_outcomes(&game);
        let rank = |g: &Game<'_>| {
            let yellow_hexes = g.board().of_colour(Colour::Yellow).filter(|&i| g.placed() >> i & 1 == 1).count();
            (yellow_hexes, g.inventory()[Colour::Yellow.index()], g.placed().count_ones())
        };
        let mut best = 0;
        for (i, (g, _)) in outcomes.iter().enumerate() {
            if rank(g) > rank(&outcomes[best].0) {
                best = i;
            }
        }
        let (g, line) = outcomes.into_iter().nth(best).expect("a game not over has a turn");
        game = g;
        moves.extend(line);
    }
    (game, moves)
}

/// One-turn games (`max_turns` 1), 30 seeds: the whole deck, the free shift and the worker
/// effects at the workers' top, and a small deck; at two rolls after the start, in the middle
/// of the turn, and before the start (the first roll's 36 outcomes).
#[test]
fn one_turn_games_agree_with_the_naive_reference() {
    let catalogue = Catalogue::house();
    let free = card_with(&catalogue, Effect::FreeShift);
    let bonus = card_with(&catalogue, Effect::WorkerBonus);
    let green = card_with(&catalogue, Effect::PlacedGainsWorker { colour: Colour::Green });
    let mut positions = 0;
    for seed in 0..30u64 {
        let instance = Instance::from_seed(seed);
        let rules = match seed % 3 {
            0 => Rules::default(),
            1 => Rules { start_workers: 6, tucked_at_start: tucked(&instance, &[free, bonus], 8), ..Rules::default() },
            _ => Rules { start_workers: 2, tucked_at_start: tucked(&instance, &[free, green], 3), ..Rules::default() },
        };
        let rules = Rules { max_turns: Some(1), ..rules };
        let double = (seed % 6 + 1) as u8;
        for roll in [instance.dice[0], [double, double]] {
            let game = at_roll(&catalogue, &instance, rules, seed as usize, roll);
            agree(&game, &format!("seed {seed}, roll {roll:?}"));
            for (i, g) in inside_turn(&game).iter().enumerate() {
                agree(g, &format!("seed {seed}, roll {roll:?}, inside the turn {i}"));
                positions += 1;
            }
            positions += 1;
        }
        if seed % 3 == 2 {
            let game = Game::new(&catalogue, &instance, rules);
            agree(&game, &format!("seed {seed}, before the start"));
            positions += 1;
        }
    }
    assert!(positions >= 150, "{positions} positions");
}

/// Two-turn games (`max_turns` 2): decks of 3 to 5 cards (one to three hidden) with the free
/// shift and the worker effects tucked, and two seeds with the whole deck (six hidden cards,
/// 720 orders a turn's end); at the turn's start and inside it.
#[test]
fn two_turn_games_agree_with_the_naive_reference() {
    let catalogue = Catalogue::house();
    let free = card_with(&catalogue, Effect::FreeShift);
    let bonus = card_with(&catalogue, Effect::WorkerBonus);
    let green = card_with(&catalogue, Effect::PlacedGainsWorker { colour: Colour::Green });
    let mut hidden_seen = std::collections::BTreeSet::new();
    for seed in [102u64, 103, 105, 106, 107, 108, 109] {
        let instance = Instance::from_seed(seed);
        let (preferred, keep, workers): (&[u8], usize, u8) = match seed % 3 {
            0 => (&[free], 5, 1),
            1 => (&[bonus, green], 4, 5),
            _ => (&[free, bonus], 3, 6),
        };
        let rules = Rules {
            max_turns: Some(2),
            start_workers: workers,
            tucked_at_start: tucked(&instance, preferred, keep),
            ..Rules::default()
        };
        let game = at_roll(&catalogue, &instance, rules, seed as usize, instance.dice[0]);
        hidden_seen.insert(game.hidden().len());
        agree(&game, &format!("seed {seed}"));
        for (i, g) in inside_turn(&game).iter().enumerate() {
            agree(g, &format!("seed {seed}, inside the turn {i}"));
        }
    }
    for seed in [0u64, 7] {
        let instance = Instance::from_seed(seed);
        let rules = Rules { max_turns: Some(2), ..Rules::default() };
        let game = at_roll(&catalogue, &instance, rules, 0, instance.dice[0]);
        hidden_seen.insert(game.hidden().len());
        agree(&game, &format!("seed {seed}, the whole deck"));
    }
    assert!(hidden_seen.len() >= 4, "hidden cards at the start: {hidden_seen:?}");
}

/// Through tucks and a reshuffle: games of four cards in the deck (ruling G2), which run out at
/// the end of the third turn; the reshuffle deals one card to start the market and one per
/// yellow hex still empty (ruling Y4), which leaves one card for a fourth turn. At the start of
/// the third turn (two turns left, the reshuffle between them, 2 to 4 cards in its order), after
/// two turns that place yellows where they can (so that 0, 1 or 2 cards were tucked before,
/// each leaving the reshuffle, ruling Y2), with the third turn able to tuck too. Asserted:
/// some searched third turns tuck, all reshuffle with the game going on, and among the seeds
/// are positions with none, one and two cards tucked in play.
#[test]
fn through_tucks_and_a_reshuffle_the_values_agree_with_the_naive_reference() {
    let catalogue = Catalogue::house();
    let (mut tucks, mut reshuffles) = (0, 0);
    let mut tucked_before = std::collections::BTreeSet::new();
    for (seed, roll) in
        [(1u64, [2, 5]), (2, [4, 4]), (3, [6, 1]), (5, [2, 5]), (8, [3, 4]), (11, [1, 6]), (13, [5, 5]), (14, [3, 4])]
    {
        let instance = Instance::from_seed(seed);
        let rules = Rules { start_workers: 2, tucked_at_start: tucked(&instance, &[], 4), ..Rules::default() };
        let (mut game, _) = yellow_turns(at_roll(&catalogue, &instance, rules, seed as usize, instance.dice[0]), 2);
        assert_eq!((game.turn(), game.turns_left_at_most(), game.deck().len()), (2, 2, 1), "seed {seed}");
        tucked_before.insert(game.tucked().len() - rules.tucked_at_start.count_ones() as usize);
        game.set_roll(roll).expect("a turn's start");
        let (t, r) = tucks_and_reshuffles(&game);
        assert_eq!(r, turn_outcomes(&game).len(), "seed {seed}: every outcome reshuffles and plays on");
        tucks += t;
        reshuffles += r;
        agree(&game, &format!("seed {seed}, third turn, roll {roll:?}"));
    }
    assert!(tucks > 0 && reshuffles > 0, "tucks {tucks}, reshuffles {reshuffles}");
    assert_eq!(tucked_before.into_iter().collect::<Vec<_>>(), [0, 1, 2], "cards tucked in the first two turns");
}

/// Three-turn games (`max_turns` 3) from the first roll, with four cards in the deck (so the
/// first deck lasts the three turns; no worker at the start, the game smaller).
#[test]
fn three_turn_games_agree_with_the_naive_reference() {
    let catalogue = Catalogue::house();
    for seed in [23u64, 30, 36] {
        let instance = Instance::from_seed(seed);
        let rules = Rules {
            max_turns: Some(3),
            start_workers: 0,
            tucked_at_start: tucked(&instance, &[], 4),
            ..Rules::default()
        };
        let game = at_roll(&catalogue, &instance, rules, 0, instance.dice[0]);
        assert_eq!(game.turns_left_at_most(), 3);
        agree(&game, &format!("seed {seed}"));
    }
}

/// Positions two turns from the end (`max_turns` 2 from the first turn, 3 from the second, 4
/// from the third), some with effects tucked.
fn two_turns_left<'c>(catalogue: &'c Catalogue, instance: &'c Instance, seed: u64) -> Game<'c> {
    let free = card_with(catalogue, Effect::FreeShift);
    let bonus = card_with(catalogue, Effect::WorkerBonus);
    let turns = (seed % 3) as usize;
    let preferred: &[u8] = if seed.is_multiple_of(2) { &[] } else { &[free, bonus] };
    let rules =
        Rules { max_turns: Some(turns + 2), tucked_at_start: tucked(instance, preferred, 8), ..Rules::default() };
    let game = at_roll(catalogue, instance, rules, seed as usize, instance.dice[0]);
    let (game, _) = yellow_turns(game, turns);
    assert_eq!(game.turns_left_at_most(), 2);
    game
}

/// The estimates (ruling F4) against the exact values: at positions two turns from the end,
/// `value_options` with horizon 1 estimates each option by playouts whose last turn is played
/// exactly (no chance follows it), so each estimate is the mean of draws whose expectation is
/// the option's exact value, and its interval should hold that value 95% of the time.
///
/// The count: if each of n = 100 intervals held its value with probability 0.95 independently,
/// the misses would be Binomial(100, 0.05) (mean 5, standard deviation 2.2) and more than 10
/// misses (a share below 0.90) would have probability about 1.1%. The options of one position
/// share their futures (common random numbers), so their misses go together; to keep the count
/// near that reasoning, at most 4 options are taken per position (spread over the sorted list),
/// from 40 positions, and options whose playouts all scored alike (an interval of width 0) are
/// counted only if the exact value equals their score. The seeds are fixed, so the test is
/// deterministic; the share found is printed.
#[test]
fn estimates_hold_the_exact_values_95_percent_of_the_time() {
    let catalogue = Catalogue::house();
    let (mut counted, mut held, mut degenerate) = (0usize, 0usize, 0usize);
    for seed in 300..340u64 {
        let instance = Instance::from_seed(seed);
        let game = two_turns_left(&catalogue, &instance, seed);
        let options = fair::value_options(&game, 1, 128);
        assert!(options.iter().all(|o| !o.exact && o.samples == 128), "seed {seed}: estimated, 128 playouts each");
        let blind = Blind::of(&game);
        let mut exact = Exact::new(&blind);
        let n = options.len();
        let mut picked: Vec<usize> = (0..4).map(|i| i * (n - 1) / 3).collect();
        picked.dedup();
        for i in picked {
            let o = &options[i];
            let e = exact.expectation(&game, &o.line);
            let inside = (e - o.value).abs() <= o.half_width + 1e-9;
            if o.half_width == 0.0 {
                degenerate += 1;
            }
            counted += 1;
            held += usize::from(inside);
        }
    }
    let share = held as f64 / counted as f64;
    println!("intervals holding the exact value: {held} of {counted} ({share:.3}); {degenerate} of width 0");
    assert!(counted >= 100, "{counted} options");
    assert!(share >= 0.90, "{held} of {counted} intervals hold the exact value");
}

/// Every option's exact expectation (not only the best) against the naive reference's value
/// after the option's line, at positions two turns from the end with a small deck.
#[test]
fn every_option_agrees_with_the_naive_reference() {
    let catalogue = Catalogue::house();
    let mut options = 0;
    for seed in 400..406u64 {
        let instance = Instance::from_seed(seed);
        let rules = Rules { max_turns: Some(2), tucked_at_start: tucked(&instance, &[], 4), ..Rules::default() };
        let game = at_roll(&catalogue, &instance, rules, seed as usize, instance.dice[0]);
        let blind = Blind::of(&game);
        let mut exact = Exact::new(&blind);
        for (_, line) in turn_outcomes(&game) {
            let e = exact.expectation(&game, &line);
            let (last, before) = line.split_last().expect("a turn has a move");
            let mut g = game.clone();
            for &mv in before {
                g.play(mv).expect("the line is legal");
            }
            let naive = fair_naive::expected_after(&g, *last);
            assert!((e - naive).abs() < 1e-9, "seed {seed}, line {line:?}: exact {e}, naive {naive}");
            options += 1;
        }
    }
    assert!(options >= 30, "{options} options");
}

/// `value_options` inside thread pools of 1 and 2 threads: the same options, values and
/// intervals, estimated (three turns left) and exact (two).
#[test]
fn the_same_numbers_on_one_thread_and_two() {
    let catalogue = Catalogue::house();
    let on = |threads: usize, game: &Game<'_>, horizon: usize| {
        let pool = ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
        pool.install(|| fair::value_options(game, horizon, 48))
    };
    for seed in [5u64, 6, 9] {
        let instance = Instance::from_seed(seed);
        let rules = Rules { max_turns: Some(3), ..Rules::default() };
        let game = at_roll(&catalogue, &instance, rules, 0, instance.dice[0]);
        let estimated = on(1, &game, 2);
        assert!(estimated.iter().all(|o| !o.exact), "three turns left: estimated");
        assert_eq!(estimated, on(2, &game, 2), "seed {seed}, estimated");
        let (game, _) = yellow_turns(game, 1);
        let exact = on(1, &game, 2);
        assert!(exact.iter().all(|o| o.exact), "two turns left: exact");
        assert_eq!(exact, on(2, &game, 2), "seed {seed}, exact");
    }
}

/// `instance` with a future that looks alike from `game` (a position of it): two hidden cards
/// of `game` swapped in the deck, the reshuffle reversed, and, if `dice`, every die of the
/// turns after `game`'s changed.
fn another_future(instance: &Instance, game: &Game<'_>, dice: bool) -> Instance {
    let hidden = game.hidden();
    assert!(hidden.len() >= 2, "two hidden cards to swap");
    let (a, b) = (hidden[0], hidden[1]);
    let mut other = instance.clone();
    other.seed = None;
    for c in &mut other.deck {
        *c = if *c == a {
            b
        } else if *c == b {
            a
        } else {
            *c
        };
    }
    other.reshuffle.reverse();
    if dice {
        for pair in other.dice.iter_mut().skip(game.turn() + 1) {
            *pair = [7 - pair[0], pair[1] % 6 + 1];
        }
    }
    other
}

/// The turns of `moves` from `game`: each turn's fair-play key at its start and its moves.
fn turns_of(game: &Game<'_>, moves: &[Move]) -> Vec<(FairKey, Vec<Move>)> {
    let mut g = game.clone();
    let mut out: Vec<(FairKey, Vec<Move>)> = Vec::new();
    let mut turn = None;
    for &mv in moves {
        if turn != Some(g.turn()) {
            turn = Some(g.turn());
            out.push((fair_key(&g), Vec::new()));
        }
        g.play(mv).expect("the moves replay");
        if let Some(last) = out.last_mut() {
            last.1.push(mv);
        }
    }
    out
}

/// No peeking: from positions that look alike in two instances (the same moves played, two
/// hidden cards swapped, the reshuffle reversed, and in one of the two variants every later
/// die changed; ruling F1), the fair and the playout policies play the same turns for as long
/// as the two games look alike at a turn's start (the first turn at least; with the dice kept,
/// until a swapped card or the reshuffle comes up), and `value_options` gives the same options
/// and values. Whole games at their first and fourth turns, games of four turns two turns from
/// the end (the exact branch), and games of six turns on a deck of five cards (the reshuffle
/// after the fourth).
#[test]
fn nothing_unseen_changes_the_play_or_the_values() {
    let catalogue = Catalogue::house();
    let (mut compared, mut later, mut exact_positions) = (0, 0, 0);
    for seed in [500u64, 502, 503] {
        let instance = Instance::from_seed(seed);
        let small_deck = Rules { tucked_at_start: tucked(&instance, &[], 5), ..Rules::default() };
        let cases = [
            (Rules::default(), 0usize, 4usize),
            (Rules::default(), 3, 4),
            (Rules { max_turns: Some(4), ..Rules::default() }, 2, 32),
            (small_deck, 1, 8),
        ];
        for (rules, turns, samples) in cases {
            for dice in [true, false] {
                let start = at_roll(&catalogue, &instance, rules, 0, instance.dice[0]);
                let (a, moves) = yellow_turns(start, turns);
                let label = format!("seed {seed}, turn {turns}, {rules:?}, dice changed {dice}");
                assert!(!a.is_over() && a.hidden().len() >= 2, "{label}");
                let other = another_future(&instance, &a, dice);
                let mut b = at_roll(&catalogue, &other, rules, 0, instance.dice[0]);
                for &mv in &moves {
                    b.play(mv).expect("the same moves are legal in the other future");
                }
                assert_eq!(fair_key(&a), fair_key(&b), "{label}: the two look alike");
                assert_ne!(a.hidden(), b.hidden(), "{label}: the hidden orders differ");
                exact_positions += usize::from(fair::is_exact(&a, 2));
                for policy in [Policy::Fair, Policy::Playout] {
                    let (ma, _) = fair::play_out(&a, policy, 2, 0);
                    let (mb, _) = fair::play_out(&b, policy, 2, 0);
                    let (ta, tb) = (turns_of(&a, &ma), turns_of(&b, &mb));
                    let mut n = 0usize;
                    for ((ka, la), (kb, lb)) in ta.iter().zip(&tb) {
                        if ka != kb {
                            break;
                        }
                        assert_eq!(la, lb, "{label}, {policy:?}: the moves of turn {n} from the position differ");
                        n += 1;
                    }
                    assert!(n >= 1, "{label}, {policy:?}: the first turn is compared");
                    compared += n;
                    later += n - 1;
                }
                assert_eq!(
                    fair::value_options(&a, 2, samples),
                    fair::value_options(&b, 2, samples),
                    "{label}: value_options"
                );
            }
        }
    }
    println!("turns compared {compared}, beyond the first {later}, positions valued exactly {exact_positions}");
    assert!(
        later >= 10 && exact_positions >= 6,
        "turns compared {compared}, beyond the first {later}, positions valued exactly {exact_positions}"
    );
}
