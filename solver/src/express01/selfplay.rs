//! Whole games of Express 01 played by a built-in policy, for tests, samples and analysis
//! (`express01 selfplay`). The engine plays the rules; the solver decides the bonus route's
//! payout ([`BestRoute`]) and the policy's choices. The policies are defined in
//! `docs/rules/express-01.md` (S1-S3).

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Pair, Phase, Referee, Step};
use signalbox_engine::express01::network::Network;
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::record::{Record, Recorder, StartSetup};
use signalbox_engine::express01::route::RouteTask;

use super::route::{SearchOptions, best_routes};

/// The referee of the bonus route: the exact route search's best payout.
#[derive(Clone, Copy, Debug, Default)]
pub struct BestRoute;

impl Referee for BestRoute {
    fn best_payout(&self, network: &Network, task: RouteTask) -> Option<u32> {
        best_routes(network, task, &SearchOptions::default()).routes.first().map(|r| r.payout)
    }
}

/// A built-in policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Each step chosen uniformly among the legal steps (S1).
    Random,
    /// The action pair raising the mover's capital most this turn (S2).
    Greedy,
}

impl Policy {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
        }
    }
}

/// Turns the greedy policy samples for each action pair (S2).
pub const GREEDY_SAMPLES: usize = 4;

/// How a self-played game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game ended by the rules.
    Over,
    /// The policy played `max_rounds` rounds without an end (S3).
    RoundLimit,
}

/// Plays the game on to its end (or the round limit) with `policy`, the policy's choices drawn
/// from `rng`; `on_step` sees the game before each step and the step.
pub fn play_out(
    game: &mut Game<'_>,
    policy: Policy,
    rng: &mut ChaCha8Rng,
    max_rounds: u32,
    on_step: &mut dyn FnMut(&Game<'_>, Step),
) -> Ending {
    let referee = BestRoute;
    while !game.is_over() {
        if game.round() > max_rounds {
            return Ending::RoundLimit;
        }
        let steps = match policy {
            Policy::Random => vec![random_step(game, rng, &referee)],
            Policy::Greedy => greedy_turn(game, rng, &referee),
        };
        for step in steps {
            on_step(game, step);
            game.play_unchecked(step);
        }
    }
    Ending::Over
}

/// One step chosen uniformly among the legal ones.
fn random_step(game: &Game<'_>, rng: &mut ChaCha8Rng, referee: &dyn Referee) -> Step {
    let legal = game.legal(referee);
    // Every phase but the game's end has a legal step (a `done`, or a draw from a deck that
    // holds a card; a payment ends when none does).
    *legal.choose(rng).unwrap_or(&Step::Done)
}

/// The greedy policy's turn (S2): for each legal action pair, `GREEDY_SAMPLES` random turns, and
/// for C+D the turn of the bonus payment paying the mover most; the turn ending with the mover's
/// highest capital, the first sampled among equals; but when that turn is a pass (it moves no
/// card), the best of the turns that move a card, if any, so that greedy players never stand
/// still while a card can move. Steps of other players within the turn (a
/// receiver's deck) are random. The whole turn's steps are returned, or one step when the game is
/// not at the start of a turn.
fn greedy_turn(game: &Game<'_>, rng: &mut ChaCha8Rng, referee: &dyn Referee) -> Vec<Step> {
    if *game.phase() != Phase::Pair {
        return vec![random_step(game, rng, referee)];
    }
    let mover = game.mover();
    let round = game.round();
    // The best turn, and the best that is not a pass (S2).
    let mut best: Option<(u32, Vec<Step>)> = None;
    let mut best_acting: Option<(u32, Vec<Step>)> = None;
    let pairs: Vec<Step> = game.legal(referee);
    let mut consider = |line: Vec<Step>, after: &Game<'_>| {
        let value = after.capital(mover).total();
        if !is_pass(&line) && best_acting.as_ref().is_none_or(|(v, _)| value > *v) {
            best_acting = Some((value, line.clone()));
        }
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, line));
        }
    };
    for &pair in &pairs {
        for _ in 0..GREEDY_SAMPLES {
            let mut g = game.clone();
            let mut line = vec![pair];
            g.play_unchecked(pair);
            while !turn_over(&g, mover, round) {
                let s = random_step(&g, rng, referee);
                line.push(s);
                g.play_unchecked(s);
            }
            consider(line, &g);
        }
        if pair == Step::Pair(Pair::BonusOrder) {
            let mut g = game.clone();
            g.play_unchecked(pair);
            let mut bonus: Option<(u32, Step)> = None;
            for s in g.legal(referee) {
                let mut h = g.clone();
                h.play_unchecked(s);
                let queue_share = match h.phase() {
                    Phase::Paying { queue } => queue.iter().filter(|&&p| p == mover).count() as u32,
                    _ => 0,
                };
                if bonus.is_none_or(|(v, _)| queue_share > v) {
                    bonus = Some((queue_share, s));
                }
            }
            if let Some((_, s)) = bonus {
                let mut line = vec![pair, s];
                g.play_unchecked(s);
                while !turn_over(&g, mover, round) {
                    let s = if g.decider() == mover && matches!(g.phase(), Phase::Order) {
                        Step::Done
                    } else {
                        random_step(&g, rng, referee)
                    };
                    line.push(s);
                    g.play_unchecked(s);
                }
                consider(line, &g);
            }
        }
    }
    let chosen = match (best, best_acting) {
        (Some((_, line)), Some((_, acting))) if is_pass(&line) => Some(acting),
        (best, _) => best.map(|(_, line)| line),
    };
    chosen.unwrap_or_else(|| vec![random_step(game, rng, referee)])
}

/// Whether a turn moves no card: only the pair, `done` and an exchange of turn order cards.
fn is_pass(line: &[Step]) -> bool {
    line.iter().all(|s| matches!(s, Step::Pair(_) | Step::Done | Step::Swap(_)))
}

/// Whether the turn begun by `mover` in `round` is over.
fn turn_over(game: &Game<'_>, mover: usize, round: u32) -> bool {
    game.is_over() || game.round() != round || (game.mover() != mover && *game.phase() == Phase::Pair)
}

/// A seeded generator for a policy: seed `seed`, stream 1 (stream 0 is the deal's).
pub fn policy_rng(seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(1);
    rng
}

/// The round limit of a self-played game (S3): far beyond any game the policies play (the house
/// set's short games end by round 40), so that a policy that never ends a game still stops.
pub const MAX_ROUNDS: u32 = 500;

/// A self-played game: the game at its end, its record and how it ended.
#[derive(Clone, Debug)]
pub struct SelfPlayed<'c> {
    /// The game after the last step.
    pub game: Game<'c>,
    /// The record (with the result when the game is over).
    pub record: Record,
    /// How it ended.
    pub ending: Ending,
}

/// Why a game could not be self-played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelfPlayError {
    /// The start is not a game.
    #[error("{0}")]
    Start(String),
}

/// Plays the new game `start` to its end with `policy`, its choices seeded by the game's seed
/// (stream 1; the deal is stream 0), and records it.
pub fn selfplay<'c>(
    catalogue: &'c Catalogue,
    start: &StartSetup,
    policy: Policy,
    max_rounds: u32,
) -> Result<SelfPlayed<'c>, SelfPlayError> {
    let setup = start.position(catalogue).map_err(|e| SelfPlayError::Start(e.to_string()))?;
    let position = Position::from_setup(setup, catalogue)
        .map_err(|e| SelfPlayError::Start(e.problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")))?;
    let mut game = Game::from_position(&position).map_err(|e| SelfPlayError::Start(e.to_string()))?;
    let note = format!("self-played by the {} policy (signalbox express01 selfplay)", policy.name());
    let mut recorder = Recorder::from_seed(start.clone(), Some(note));
    let mut rng = policy_rng(start.seed);
    let ending = play_out(&mut game, policy, &mut rng, max_rounds, &mut |g, s| recorder.step(g, s));
    let record = recorder.finish(&game);
    Ok(SelfPlayed { game, record, ending })
}
