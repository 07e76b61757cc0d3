//! A deliberately naive reference for [`Game::legal`]: every step that could be written, kept when
//! [`Game::check`] accepts it, and told apart only by the game it leads to.
//!
//! The reference shares none of the engine's step generators and none of its reduction to one
//! step per run of equal copies in a deck: it writes out every pair; a payment of every card
//! number of the catalogue and of the black engine; every build of every upgrade card of the
//! catalogue (non-base cards) on every cell, upright and turned, at every depth of the card's
//! deck (the deck of its kind and stage, "Game Setup"); every company to buy; every take of every
//! share card at every depth and from every player; every bonus of every company, with and without
//! the black engine, for every payout from 0 to [`max_payout`]; every draw from every deck index
//! (and one past the last); every swap with every seat; and `done`. Two accepted steps are the
//! same choice when they lead to the same game ([`StateKey`]): the same position
//! ([`Game::to_setup`], which writes hands and shares sorted) and the same part of the same turn.
//! `tests/express01_legal.rs` compares [`naive_legal`] with [`Game::legal`] by the set of games
//! they lead to.

use std::cell::RefCell;
use std::collections::HashSet;

use signalbox_engine::express01::card::CompanyId;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Action, Build, Game, Pair, Phase, Referee, Source, Spend, Step};
use signalbox_engine::express01::network::Network;
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::record::StartSetup;
use signalbox_engine::express01::route::RouteTask;

use super::selfplay::{MAX_ROUNDS, Policy, play_out, policy_rng};

/// The largest bonus payout the reference writes out: a route pays at most 2 for each station it
/// reaches ("Each station on the route is worth 1", plus "+1" on some), and it reaches no station
/// twice, so no route pays more than twice the stations on the board.
pub fn max_payout(game: &Game<'_>) -> u32 {
    let catalogue = game.catalogue();
    let stations: usize = game.board().iter().filter_map(|p| catalogue.card(p.card)).map(|c| c.stations.len()).sum();
    2 * stations as u32
}

/// What tells two games apart for the comparison: the whole position as
/// [`Game::to_setup`] writes it (JSON), and where in the turn the game is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateKey {
    /// The position, as JSON.
    pub position: String,
    /// The part of the turn.
    pub phase: Phase,
    /// The player whose turn it is.
    pub mover: usize,
    /// The player choosing next.
    pub decider: usize,
    /// The action pair chosen this turn.
    pub pair: Option<Pair>,
    /// The action being played (with the pair: the pair's first or second action).
    pub action: Option<Action>,
}

/// The key of a game as it stands.
pub fn state_key(game: &Game<'_>) -> StateKey {
    StateKey {
        // A position always serialises: it is plain data.
        position: serde_json::to_string(&game.to_setup()).unwrap_or_default(),
        phase: game.phase().clone(),
        mover: game.mover(),
        decider: game.decider(),
        pair: game.pair(),
        action: game.action(),
    }
}

/// The key of the game after `step`, played without a check on a copy of `game`.
pub fn outcome(game: &Game<'_>, step: Step) -> StateKey {
    let mut g = game.clone();
    g.play_unchecked(step);
    state_key(&g)
}

/// Every step that could be written in `game`, legal or not (see the module's list).
pub fn every_step(game: &Game<'_>) -> Vec<Step> {
    let catalogue = game.catalogue();
    let companies = catalogue.companies.len();
    let deepest = game.decks().iter().map(|d| d.cards.len()).max().unwrap_or(0);
    let mut out = Vec::new();
    out.extend(Pair::ALL.map(Step::Pair));
    out.extend(catalogue.cards().map(|c| Step::Pay(Spend::Card(c.number))));
    out.push(Step::Pay(Spend::Engine));
    for card in catalogue.cards().filter(|c| !c.kind.is_base()) {
        let depths = game
            .decks()
            .iter()
            .filter(|d| d.kind == card.kind && d.stage == card.stage)
            .map(|d| d.cards.len())
            .max()
            .unwrap_or(1);
        for cell in 0..game.board().len() {
            for turned in [false, true] {
                for depth in 0..depths {
                    out.push(Step::Build(Build { cell, card: card.number, turned, depth }));
                }
            }
        }
    }
    out.extend((0..companies).map(|c| Step::Buy(CompanyId(c as u8))));
    for card in catalogue.cards() {
        for depth in 0..deepest {
            out.push(Step::Take(Source::Deck { card: card.number, depth }));
        }
        for player in 0..game.seats().len() {
            out.push(Step::Take(Source::Player { player, card: card.number }));
        }
    }
    for c in 0..companies {
        for engine in [false, true] {
            for payout in 0..=max_payout(game) {
                out.push(Step::Bonus { company: CompanyId(c as u8), engine, payout });
            }
        }
    }
    out.extend((0..=game.decks().len()).map(Step::Draw));
    out.extend((0..game.seats().len()).map(Step::Swap));
    out.push(Step::Done);
    out
}

/// A referee that asks `inner` once per task: within one position the network is fixed, and the
/// reference asks about the same task once per payout written out.
struct Remembering<'r> {
    inner: &'r dyn Referee,
    seen: RefCell<Vec<(RouteTask, Option<u32>)>>,
}

impl Referee for Remembering<'_> {
    fn best_payout(&self, network: &Network, task: RouteTask) -> Option<u32> {
        if let Some(&(_, p)) = self.seen.borrow().iter().find(|(t, _)| *t == task) {
            return p;
        }
        let p = self.inner.best_payout(network, task);
        self.seen.borrow_mut().push((task, p));
        p
    }
}

/// The legal steps of `game` by brute force: every step of [`every_step`] that [`Game::check`]
/// accepts, the first of each group leading to the same game ([`StateKey`]), in the order
/// written out.
pub fn naive_legal(game: &Game<'_>, referee: &dyn Referee) -> Vec<Step> {
    let referee = Remembering { inner: referee, seen: RefCell::new(Vec::new()) };
    let mut seen = HashSet::new();
    every_step(game)
        .into_iter()
        .filter(|&s| game.check(s, &referee).is_ok())
        .filter(|&s| seen.insert(outcome(game, s)))
        .collect()
}

/// The part of the turn a game is in, as a short name: the phases of [`Phase`], with the budget
/// of A) and where a share comes from told apart, so that a sample can cover each.
pub fn phase_kind(game: &Game<'_>) -> &'static str {
    use signalbox_engine::express01::game::Budget;
    match game.phase() {
        Phase::Pair => "pair",
        Phase::Expand { west: true, .. } => "expand-west",
        Phase::Expand { budget: Budget::Spent, .. } => "expand-spent",
        Phase::Expand { budget: Budget::Fresh, .. } => "expand-fresh",
        Phase::Expand { budget: Budget::OneRoute(_), .. } => "expand-one-route",
        Phase::Shares => "shares",
        Phase::Buying { .. } => "buying",
        Phase::Taking { from_decks: true, .. } => "taking-decks",
        Phase::Taking { from_decks: false, .. } => "taking-player",
        Phase::Bonus => "bonus",
        Phase::Paying { .. } => "paying",
        Phase::Order => "order",
        Phase::Over => "over",
    }
}

/// Whether a card may be taken now from the face-down side of its deck's face-up boundary, the
/// card just above being a face-up copy of it: taking either copy leaves the same cards but not
/// the same face-up count, the case where listing one copy per run of equal cards must stop at
/// the boundary. Asked of [`Game::check`] for every build and take at such a depth.
pub fn straddles(game: &Game<'_>) -> bool {
    let referee = super::selfplay::BestRoute;
    game.decks().iter().any(|d| {
        let k = d.face_up;
        let Some(card) = d.at(k).filter(|&c| k > 0 && d.at(k - 1) == Some(c)) else { return false };
        let take = Step::Take(Source::Deck { card, depth: k });
        let build = |cell, turned| Step::Build(Build { cell, card, turned, depth: k });
        game.check(take, &referee).is_ok()
            || (0..game.board().len())
                .any(|cell| [false, true].into_iter().any(|t| game.check(build(cell, t), &referee).is_ok()))
    })
}

/// Positions of one self-played game (the new game `start`, the policy seeded as
/// [`super::selfplay::selfplay`] seeds it): for each part of the turn ([`phase_kind`]), with and
/// without a deck that [`straddles`], up to `per_kind` of the games met before a step, evenly
/// spaced through the game, then the game at its end; in the order played. `None` if `start` is
/// not a game.
pub fn selfplay_positions<'c>(
    catalogue: &'c Catalogue,
    start: &StartSetup,
    policy: Policy,
    per_kind: usize,
) -> Option<Vec<Game<'c>>> {
    let setup = start.position(catalogue).ok()?;
    let position = Position::from_setup(setup, catalogue).ok()?;
    let start_game = Game::from_position(&position).ok()?;
    // The policy's steps, then the games before each, played again from the start (the policy
    // sees each game only for the length of its call).
    let mut steps = Vec::new();
    let mut game = start_game.clone();
    play_out(&mut game, policy, &mut policy_rng(start.seed), MAX_ROUNDS, &mut |_, s| steps.push(s));
    let mut all = Vec::with_capacity(steps.len());
    let mut g = start_game;
    for s in steps {
        all.push(g.clone());
        g.play_unchecked(s);
    }
    let seen: Vec<(usize, (&'static str, bool))> =
        all.iter().enumerate().map(|(i, g)| (i, (phase_kind(g), straddles(g)))).collect();
    let mut keep = vec![false; all.len()];
    let mut kinds: Vec<(&'static str, bool)> = seen.iter().map(|&(_, k)| k).collect();
    kinds.sort_unstable();
    kinds.dedup();
    for kind in kinds {
        let at: Vec<usize> = seen.iter().filter(|&&(_, k)| k == kind).map(|&(i, _)| i).collect();
        let take = per_kind.min(at.len());
        for j in 0..take {
            keep[at[j * at.len() / take]] = true;
        }
    }
    let mut out: Vec<Game<'c>> = all.into_iter().zip(keep).filter(|(_, k)| *k).map(|(g, _)| g).collect();
    out.push(game);
    Some(out)
}
