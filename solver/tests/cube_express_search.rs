//! The best-turn search: the regression positions, the search against the naive reference of
//! every order of every legal action (`naive.rs`, which shares none of the search's reductions)
//! on random small positions, and the integer programs as a cross-check that never beats it.
//!
//! `CE_POSITIONS=N` changes the number of random positions; the suite compares 120, and the
//! 500-position run is ignored there:
//! `cargo test --release -p signalbox-solver --test cube_express_search -- --ignored`.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::{SAMPLE_GAME_JSON, read_game_record, read_position};
use signalbox_solver::cube_express::naive;
use signalbox_solver::cube_express::plan::{Method, PlanOptions, certify, plan_turn};
use signalbox_solver::cube_express::search::{best_turn, best_turn_uncut};
use signalbox_solver::cube_express::value::Weights;

#[path = "support/positions.rs"]
mod positions;
use positions::{Shake, a_lay_joins_cities, city_joining_position, random_position};

fn content() -> Arc<Content> {
    Arc::new(Content::house())
}

fn fixture(name: &str) -> Game {
    let path = format!("{}/../tests/fixtures/cube_express/regressions/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the fixture");
    read_position(content(), &path, &text).expect("the fixture reads")
}

/// The plan of `name`, replayed by the engine (inside `plan_turn`) and re-valued here.
fn planned(name: &str) -> i32 {
    let game = fixture(name);
    let plan = plan_turn(&game, &PlanOptions::default()).expect("a plan");
    assert!(plan.proven(), "{name}");
    let (_, v) = certify(&game, &plan.actions, &Weights::default()).expect("the plan replays");
    assert_eq!(v, plan.value, "{name}: the engine's value");
    plan.value
}

/// Both locomotives start the turn built: the end of the turn keeps the coal a conversion saved
/// from the storage limit (a trade could once be swapped with the end of the turn, and so was
/// never searched before it).
#[test]
fn two_locomotives_built_reaches_8() {
    assert_eq!(planned("two-locomotives-built.json"), 8);
}

/// A disc near the stock maximum, and a heavy mid-game position: the search's value is the
/// programs' (25 and 23).
#[test]
fn near_the_stock_maximum_and_mid_game_match_the_programs() {
    for (name, want) in [("slow-near-stock-max.json", 25), ("slow-heavy-mid-game.json", 23)] {
        let programs = plan_turn(&fixture(name), &PlanOptions { method: Method::Program, ..PlanOptions::default() })
            .expect("a plan");
        assert_eq!(programs.value, want, "{name}: the programs");
        assert_eq!(planned(name), want, "{name}: the search");
    }
}

/// Tile 40 joins red's 1-house start city and a 2-house city: the station counts 6 houses.
#[test]
fn city_bridge_reaches_17() {
    assert_eq!(planned("city-bridge.json"), 17);
}

/// A delivery's third cube returns to the empty reserve and becomes a passenger on that tile.
#[test]
fn deliver_then_passenger_reaches_14() {
    assert_eq!(planned("deliver-then-passenger.json"), 14);
}

/// The second locomotive refills the empty reserve mid-turn; a sale then keeps a rise that the
/// stock maximum would cut.
#[test]
fn sale_mid_turn_reaches_19() {
    assert_eq!(planned("sale-mid-turn.json"), 19);
}

/// The position that made the programs' backend fail gets a plan (17: the naive reference run
/// once per lay reaches 17 too, in about ten minutes; not repeated here).
#[test]
fn backend_failure_gets_a_plan() {
    assert_eq!(planned("backend-failure.json"), 17);
}

/// A stopped search still returns a legal plan, and a bound at least the proven best.
#[test]
fn a_deadline_gives_the_best_found_and_a_bound() {
    let game = fixture("sale-mid-turn.json");
    let found = best_turn(&game, &Weights::default(), Some(std::time::Instant::now())).expect("a plan");
    let (_, v) = certify(&game, &found.actions, &Weights::default()).expect("the plan replays");
    assert_eq!(v, found.value);
    assert!(found.upper_bound >= 19, "the bound {} holds the best, 19", found.upper_bound);
}

/// The integer programs (ruling S3's old canonical order) never beat the search, and agree with
/// it on the sample.
#[test]
fn the_programs_never_beat_the_search() {
    let content = content();
    for (players, seed, turns) in [(2, 1, 0), (2, 1, 2)] {
        let game = Game::after_random_turns(content.clone(), players, seed, turns, Options::default()).expect("setup");
        let search = plan_turn(&game, &PlanOptions::default()).expect("a plan");
        let programs =
            plan_turn(&game, &PlanOptions { method: Method::Program, ..PlanOptions::default() }).expect("a plan");
        assert!(programs.value <= search.value, "p{players}-s{seed}-t{turns}: {} > {}", programs.value, search.value);
    }
}

/// Random position number `index` (every fourth one the city-bridge regression position shaken,
/// where a lay joins two cities).
fn position(content: &Arc<Content>, index: u64, shake: Shake) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let bridge = fixture("city-bridge.json");
    loop {
        let g = if index % 4 == 3 {
            city_joining_position(content, &bridge, &mut rng, shake)
        } else {
            random_position(content, &mut rng, shake)
        };
        if let Some(g) = g {
            return g;
        }
    }
}

/// The kinds of position the search narrows, counted so that a comparison that never reached
/// one fails.
#[derive(Clone, Copy, Debug, Default)]
struct Kinds {
    /// A lay joins two cities.
    joins: bool,
    /// Both locomotives are built before the turn.
    two_locomotives: bool,
    /// The player's storage is at or past its limit before the turn.
    full_storage: bool,
    /// The player's disc is within four spaces of the stock maximum.
    near_maximum: bool,
}

impl Kinds {
    fn of(game: &Game) -> Kinds {
        let seat = usize::from(game.active());
        let me = &game.players()[seat];
        let max = game.content().stock(game.players().len()).max();
        Kinds {
            joins: a_lay_joins_cities(game),
            two_locomotives: me.locomotives.iter().all(Option::is_some),
            full_storage: me.store.total() >= game.tech_level(seat),
            near_maximum: me.stock + 4 >= max,
        }
    }
}

/// Tallies of compared positions by [`Kinds`].
#[derive(Debug, Default)]
struct Tally {
    compared: usize,
    skipped: usize,
    joins: usize,
    two_locomotives: usize,
    full_storage: usize,
    near_maximum: usize,
}

impl Tally {
    fn add(&mut self, compared: bool, k: Kinds) {
        if !compared {
            self.skipped += 1;
            return;
        }
        self.compared += 1;
        self.joins += usize::from(k.joins);
        self.two_locomotives += usize::from(k.two_locomotives);
        self.full_storage += usize::from(k.full_storage);
        self.near_maximum += usize::from(k.near_maximum);
    }

    /// Fails unless every kind came up in at least one compared position in `share` (storage at
    /// its limit only when `storage`: the naive reference cannot take those positions, though it
    /// reaches the limit by pickups during the turn).
    fn require(&self, share: usize, storage: bool) {
        eprintln!("{self:?}");
        let mut kinds = vec![
            ("a lay joining cities", self.joins),
            ("both locomotives built", self.two_locomotives),
            ("the disc near the maximum", self.near_maximum),
        ];
        if storage {
            kinds.push(("storage at its limit", self.full_storage));
        }
        for (name, n) in kinds {
            assert!(n * share >= self.compared, "too few positions with {name}: {n} of {}", self.compared);
        }
    }
}

/// The weights random position number `index` is valued by, in turn: the default, points alone
/// (the solitaire's last turn), and resources and the locomotive worth more.
fn weights_of(index: u64) -> Weights {
    match index % 3 {
        0 => Weights::default(),
        1 => Weights { resource: 0, facility: 0, locomotive: 0, technology: 0 },
        _ => Weights { resource: 2, facility: 1, locomotive: 7, technology: 3 },
    }
}

/// One random position: whether the naive reference finished, and then the comparison; and the
/// position's kinds.
fn check(content: &Arc<Content>, index: u64, shake: Shake, limit: u64) -> (bool, Kinds) {
    let game = position(content, index, shake);
    let kinds = Kinds::of(&game);
    let weights = weights_of(index);
    let reference = naive::best_turn(&game, &weights, &naive::Limits { positions: Some(limit), lay: None });
    if !reference.complete {
        return (false, kinds);
    }
    let found = best_turn(&game, &weights, None).expect("a plan");
    let context = format!("position {index}: {}", serde_json::to_string(&game.state()).unwrap_or_default());
    let (_, v) = certify(&game, &found.actions, &weights)
        .unwrap_or_else(|(i, e)| panic!("{context}: the plan is illegal at {i}: {e}\n{:?}", found.actions));
    assert_eq!(v, found.value, "{context}: the search misjudges its plan {:?}", found.actions);
    let best = reference.best.as_ref().map(|b| b.0);
    assert_eq!(Some(found.value), best, "{context}\nsearch {:?}\nnaive {:?}", found.actions, reference.best);
    (true, kinds)
}

/// Compares the search with the naive reference on `wanted` random positions small enough for
/// the reference (at most 300,000 positions searched), `CE_POSITIONS` if set.
fn compare(wanted: usize) {
    let wanted: usize = std::env::var("CE_POSITIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(wanted);
    let content = content();
    let shake = Shake { turns: 2, resources: 2, lays: 1, plans: 0, narrowed: true };
    let mut tally = Tally::default();
    let mut next = 0u64;
    while tally.compared < wanted {
        let batch: Vec<(bool, Kinds)> =
            (next..next + 64).into_par_iter().map(|i| check(&content, i, shake, 300_000)).collect();
        next += 64;
        for (compared, kinds) in batch {
            tally.add(compared, kinds);
        }
        assert!(
            tally.skipped <= tally.compared + 64,
            "too many positions too large for the naive reference: {tally:?}"
        );
    }
    tally.require(10, false);
}

#[test]
fn the_search_matches_the_naive_reference_on_120_random_positions() {
    compare(120);
}

#[test]
#[ignore = "heavy: about 4 minutes on 2 cores"]
fn the_search_matches_the_naive_reference_on_500_random_positions() {
    compare(500);
}

/// The bound cuts no line that matters: on random positions larger than the naive reference can
/// take, valued by each weight set in turn, the search with its cuts and the search without give
/// the same value and the same plan, and the cuts leave fewer positions to search.
#[test]
fn the_bound_changes_no_answer_on_48_random_positions() {
    let content = content();
    let shake = Shake { turns: 4, resources: 4, lays: 1, plans: 0, narrowed: true };
    let results: Vec<(Kinds, u64, u64)> = (20_000..20_048u64)
        .into_par_iter()
        .map(|i| {
            let game = position(&content, i, shake);
            let weights = weights_of(i);
            let cut = best_turn(&game, &weights, None).expect("a plan");
            let uncut = best_turn_uncut(&game, &weights).expect("a plan");
            let context = format!("position {i}: {}", serde_json::to_string(&game.state()).unwrap_or_default());
            assert!(cut.proven() && uncut.proven(), "{context}");
            assert_eq!(cut.value, uncut.value, "{context}\ncut {:?}\nuncut {:?}", cut.actions, uncut.actions);
            assert_eq!(cut.actions, uncut.actions, "{context}: another plan of the same value");
            (Kinds::of(&game), cut.positions, uncut.positions)
        })
        .collect();
    let mut tally = Tally::default();
    for &(k, _, _) in &results {
        tally.add(true, k);
    }
    tally.require(10, true);
    let cut: u64 = results.iter().map(|r| r.1).sum();
    let uncut: u64 = results.iter().map(|r| r.2).sum();
    eprintln!("positions searched: {cut} with cuts, {uncut} without");
    assert!(cut < uncut, "the bound cut nothing: {cut} positions with cuts, {uncut} without");
}

/// The bound changes no answer on any position of the sample game, turn by turn. There the bound
/// once left out the pickup on the tile just entered, whose coal paid for the next move, and the
/// search chose another plan of the same value.
#[test]
fn the_bound_changes_no_answer_on_the_sample_game() {
    let record = read_game_record("sample-game.json", SAMPLE_GAME_JSON).expect("the sample game reads");
    let games = record.games(content(), "sample-game.json").expect("the sample game replays");
    let compared: Vec<usize> = games
        .par_iter()
        .enumerate()
        .filter(|(_, g)| !g.is_over())
        .map(|(t, game)| {
            let weights = Weights::default();
            let cut = best_turn(game, &weights, None).expect("a plan");
            let uncut = best_turn_uncut(game, &weights).expect("a plan");
            assert_eq!(cut.value, uncut.value, "turn {}", t + 1);
            assert_eq!(cut.actions, uncut.actions, "turn {}: another plan of the same value", t + 1);
            t
        })
        .collect();
    assert!(compared.len() >= 20, "only {} positions compared", compared.len());
}

/// The search and the integer programs on one random position, larger than the naive
/// reference can take: both plans replay to their values, and the values are equal.
fn against_programs(content: &Arc<Content>, index: u64, shake: Shake) -> Kinds {
    let game = position(content, index, shake);
    let kinds = Kinds::of(&game);
    let weights = Weights::default();
    let context = format!("position {index}: {}", serde_json::to_string(&game.state()).unwrap_or_default());
    let search = plan_turn(&game, &PlanOptions::default()).expect("a plan");
    let programs =
        plan_turn(&game, &PlanOptions { method: Method::Program, ..PlanOptions::default() }).expect("a plan");
    for (name, plan) in [("search", &search), ("programs", &programs)] {
        assert!(plan.proven(), "{context}: the {name}' plan is not proven");
        let (_, v) = certify(&game, &plan.actions, &weights)
            .unwrap_or_else(|(i, e)| panic!("{context}: the {name}' plan is illegal at {i}: {e}"));
        assert_eq!(v, plan.value, "{context}: the {name} misjudge their plan");
    }
    assert_eq!(search.value, programs.value, "{context}\nsearch {:?}\nprograms {:?}", search.actions, programs.actions);
    kinds
}

/// Compares the search with the integer programs on `wanted` random positions (`CE_POSITIONS`
/// if set), up to four turns into a game, with more resources than the naive comparison.
fn compare_programs(wanted: usize) {
    let wanted: usize = std::env::var("CE_POSITIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(wanted);
    let content = content();
    let shake = Shake { turns: 4, resources: 4, lays: 1, plans: 0, narrowed: true };
    let kinds: Vec<Kinds> =
        (10_000..10_000 + wanted as u64).into_par_iter().map(|i| against_programs(&content, i, shake)).collect();
    let mut tally = Tally::default();
    for k in kinds {
        tally.add(true, k);
    }
    tally.require(10, true);
}

#[test]
fn the_search_and_the_programs_agree_on_40_random_positions() {
    compare_programs(40);
}

#[test]
#[ignore = "heavy: the search and the programs on 500 positions"]
fn the_search_and_the_programs_agree_on_500_random_positions() {
    compare_programs(500);
}
