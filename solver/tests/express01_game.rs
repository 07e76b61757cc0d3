//! The whole game of Express 01 under self-play: 500 games (both maps, 2 to 4 players, short and
//! long, both policies, seeded) with every invariant recomputed from scratch after every step;
//! the order of payment and the end of the game checked against statements of the rules written
//! here, apart from the engine's; records that replay; and golden seeds.

use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Action, Game, Phase, Step};
use signalbox_engine::express01::record::{self, StartSetup};
use signalbox_engine::express01::round::Length;
use signalbox_solver::express01::selfplay::{BestRoute, Ending, MAX_ROUNDS, Policy, play_out, policy_rng, selfplay};

const NAMES: [&str; 4] = ["Ada", "Bo", "Cy", "Di"];

fn start(map: &str, players: usize, length: Length, seed: u64) -> StartSetup {
    StartSetup::new(map, seed, NAMES[..players].iter().map(|s| s.to_string()).collect(), length)
}

/// "The first player to receive a card is always the player who initiated the payment. After
/// that, the shareholder with the next higher turn order number follows, and so on.
/// Shareholders that have a lower turn order number than the initiating player follow at the
/// end." Nobody takes more cards than shares; "a part of the payment ... left over ... falls to
/// the player who initiated the action". Stated card by card: walk round the turn order numbers
/// from the initiator's, giving each card to the next player who may still take one.
fn order_of_payment(payout: u32, numbers: &[u8], caps: &[u32], initiator: usize) -> Vec<usize> {
    let n = numbers.len() as u8;
    let seat_of = |number: u8| numbers.iter().position(|&k| k == number).expect("a seat");
    let mut taken = vec![0u32; numbers.len()];
    let mut out = Vec::new();
    let mut next = numbers[initiator];
    for _ in 0..payout {
        let mut given = None;
        for k in 0..n {
            let number = (next - 1 + k) % n + 1;
            let seat = seat_of(number);
            if taken[seat] < caps[seat] {
                given = Some((seat, number));
                break;
            }
        }
        match given {
            Some((seat, number)) => {
                taken[seat] += 1;
                out.push(seat);
                next = number % n + 1;
            }
            None => out.push(initiator),
        }
    }
    out
}

/// The end conditions from the board and the decks as they lie ("12 or more base cards are
/// upgraded, or 3 decks are used up"; long: 24 or 4).
fn end_condition(game: &Game<'_>) -> bool {
    let upgraded = game.board().iter().zip(&game.map().cells).filter(|(p, c)| p.card != c.base).count();
    let empty = game.decks().iter().filter(|d| d.cards.is_empty()).count();
    let (u, e) = match game.rules().length {
        Length::Short => (12, 3),
        Length::Long => (24, 4),
    };
    upgraded >= u || empty >= e
}

/// Plays one game with every check; returns the steps played.
fn checked_game(s: &StartSetup, policy: Policy, catalogue: &Catalogue) -> usize {
    let label = format!("{} {} players {:?} seed {} {}", s.map, s.players.len(), s.length, s.seed, policy.name());
    let setup = s.position(catalogue).expect("a start");
    let position = signalbox_engine::express01::position::Position::from_setup(setup, catalogue).expect("legal");
    let mut game = Game::from_position(&position).expect("a game");
    assert!(game.problems().is_empty(), "{label}: the start: {:?}", game.problems());
    let mut rng = policy_rng(s.seed);
    let mut steps = 0usize;
    // The payment expected card by card, while one is being handed out.
    let mut expected_payment: Vec<usize> = Vec::new();
    let mut latched_in: Option<u32> = None;
    let mut check_after = |game: &Game<'_>, step: Step, before: (Option<Action>, u32, Phase)| {
        let problems = game.problems();
        assert!(problems.is_empty(), "{label}: after step {steps} ({step:?}): {problems:?}");
        // An action ended when the game left it (to the next action, the next turn, or the end).
        let (action, round, phase) = before;
        let ended = action.is_some()
            && (game.action() != action || *game.phase() == Phase::Pair || game.is_over())
            && !matches!(phase, Phase::Expand { west: true, .. } if game.action() == Some(Action::Expand));
        if ended && latched_in.is_none() && end_condition(game) {
            latched_in = Some(round);
        }
        if game.round() != round {
            assert!(latched_in.is_none(), "{label}: round {round} ended after an end condition was met in it");
        }
        if game.is_over() {
            assert_eq!(latched_in, Some(game.round()), "{label}: the game ends after the round of the end condition");
        }
        steps += 1;
    };
    let referee = BestRoute;
    let mut on_step = |g: &Game<'_>, step: Step| match step {
        Step::Bonus { company, engine, payout } => {
            let numbers: Vec<u8> = g.turn_cards().iter().map(|c| c.number).collect();
            let caps: Vec<u32> =
                (0..g.seats().len()).map(|p| g.holding(p, company) + u32::from(engine && p == g.mover())).collect();
            expected_payment = order_of_payment(payout, &numbers, &caps, g.mover());
            assert_eq!(Some(payout), {
                let mut h = g.clone();
                h.play(step, &referee).ok().map(|_| payout)
            });
        }
        Step::Draw(_) if matches!(g.phase(), Phase::Paying { .. }) => {
            assert!(!expected_payment.is_empty(), "{label}: a card drawn beyond the payment");
            let who = expected_payment.remove(0);
            assert_eq!(g.decider(), who, "{label}: the order of payment");
        }
        _ => {}
    };
    // The policy plays; each step is checked before (the payment) and after (the invariants).
    let mut before = (game.action(), game.round(), game.phase().clone());
    let mut pending: Option<Step> = None;
    let ending = play_out(&mut game, policy, &mut rng, MAX_ROUNDS, &mut |g, step| {
        if let Some(prev) = pending.take() {
            check_after(g, prev, before.clone());
        }
        on_step(g, step);
        before = (g.action(), g.round(), g.phase().clone());
        pending = Some(step);
    });
    if let Some(prev) = pending.take() {
        check_after(&game, prev, before.clone());
    }
    assert_eq!(ending, Ending::Over, "{label}: the game ends");
    assert!(game.is_over());
    steps
}

#[test]
fn five_hundred_self_played_games_keep_every_invariant() {
    let catalogue = Catalogue::house();
    let mut steps = 0;
    let mut over_in = [0usize; 2];
    for i in 0..500usize {
        let map = ["germany", "usa"][i % 2];
        let players = 2 + (i / 2) % 3;
        let length = [Length::Short, Length::Long][(i / 6) % 2];
        let policy = [Policy::Random, Policy::Greedy][(i / 12) % 2];
        steps += checked_game(&start(map, players, length, 1000 + i as u64), policy, &catalogue);
        over_in[(i / 6) % 2] += 1;
    }
    assert_eq!(over_in, [252, 248]);
    assert!(steps > 500 * 50, "games of some length: {steps} steps in 500 games");
}

#[test]
fn the_order_of_payment_stated_here_matches_the_rulebook_examples() {
    // Peter (1, one share), Martina (2, two), Philipp (3, two); 4 cards: Peter, Martina,
    // Philipp, then Martina (Peter may take no more).
    assert_eq!(order_of_payment(4, &[1, 2, 3], &[1, 2, 2], 0), vec![0, 1, 2, 1]);
    // Turn order 3 of four initiates, everyone a holder: 3, 4, 1, 2, 3, ...
    assert_eq!(order_of_payment(5, &[1, 2, 3, 4], &[5, 5, 5, 5], 2), vec![2, 3, 0, 1, 2]);
    // The rest falls to the initiator.
    assert_eq!(order_of_payment(4, &[2, 1], &[1, 0], 0), vec![0, 0, 0, 0]);
}

#[test]
fn self_played_records_replay_to_the_same_end() {
    let catalogue = Catalogue::house();
    for (seed, map, policy) in [(1, "germany", Policy::Random), (2, "usa", Policy::Greedy), (3, "usa", Policy::Random)]
    {
        let s = start(map, 3, Length::Short, seed);
        let played = selfplay(&catalogue, &s, policy, MAX_ROUNDS).expect("a game");
        let text = serde_json::to_string_pretty(&played.record).expect("json");
        let read = record::read("game.json", &text).expect("a record");
        let replayed = record::replay("game.json", &read, &catalogue, &BestRoute, &mut |_, _| {}).expect("replays");
        assert!(replayed.game.is_over());
        assert_eq!(
            serde_json::to_string(&replayed.game.to_setup()).expect("json"),
            serde_json::to_string(&played.game.to_setup()).expect("json")
        );
        assert_eq!(read.result, Some(record::result_of(&replayed.game)));
    }
}

/// Seeds are forever: three self-played games pinned by their length, their first turn and the
/// result.
#[test]
fn three_self_played_games_are_pinned() {
    let catalogue = Catalogue::house();
    let pins: [(&str, u64, Policy, usize, &str, &str); 3] = [
        (
            "germany",
            1,
            Policy::Random,
            42,
            "A+B | pay 236 | build 603 on 028 | pay 217 | build 506 on 020 turned | pay 231 | build 101 on 027 turned | pay 225 | build 635 on 028 turned | done | done",
            r#"{"Ada": 9, "Bo": 13, "Cy": 37} ["Cy"]"#,
        ),
        (
            "usa",
            2,
            Policy::Greedy,
            18,
            "A+B | pay engine | build 303 on 071 | pay 228 | build 336 on 071 | pay 234 | build 102 on 080 turned depth 17 | pay 230 | pay 209 | build 303 on 061 | done | done",
            r#"{"Ada": 28, "Bo": 25, "Cy": 20} ["Ada"]"#,
        ),
        (
            "germany",
            3,
            Policy::Greedy,
            18,
            "A+B | pay 232 | build 511 on 022 turned | pay 201 | build 102 on 014 | build 133 on 014 | pay engine | done | done",
            r#"{"Ada": 13, "Bo": 16, "Cy": 14} ["Bo"]"#,
        ),
    ];
    for (map, seed, policy, turns, first, result) in pins {
        let played = selfplay(&catalogue, &start(map, 3, Length::Short, seed), policy, MAX_ROUNDS).expect("a game");
        let r = &played.record;
        let got_first = r.turns[0].steps.join(" | ");
        let res = r.result.as_ref().expect("over");
        let got_result = format!("{:?} {:?}", res.capitals, res.winners);
        assert_eq!((r.turns.len(), got_first.as_str(), got_result.as_str()), (turns, first, result), "{map} {seed}");
    }
}
