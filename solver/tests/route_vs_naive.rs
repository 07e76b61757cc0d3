//! The exact route search against the naive enumerator, on random synthetic networks and on
//! random positions of the house set. Every route the search returns is checked and re-scored
//! by the engine, separately from the search.

use proptest::prelude::*;
use signalbox_engine::express01::card::CompanyId;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::network::Network;
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::route::{LengthRule, RouteRules, RouteTask};
use signalbox_solver::express01::instances::{Synthetic, house_position, synthetic};
use signalbox_solver::express01::{SearchOptions, best_routes, naive};

/// Checks the search against the naive enumerator on one network and task: the same best
/// payout, cards and station sequence; the top-3 list equal to the naive ranking's first three;
/// every certificate accepted and scored alike by the engine.
fn agree(network: &Network, task: RouteTask) {
    let ranked = naive::ranked(network, task);
    let answer = best_routes(network, task, &SearchOptions::default());
    assert!(answer.proven);
    match (ranked.first(), answer.routes.first()) {
        (None, None) => assert_eq!(answer.upper_bound, 0),
        (Some((stations, payout, cards, naive_route)), Some(found)) => {
            assert_eq!((found.payout, found.cards), (*payout, *cards), "payout and cards");
            assert_eq!(&found.stations, stations, "tie-break: first station sequence");
            assert_eq!(answer.upper_bound, *payout);
            let score = found.route.check(network, task).unwrap_or_else(|e| panic!("certificate rejected: {e}"));
            assert_eq!((score.payout, score.cards), (*payout, *cards));
            let naive_score = naive_route.check(network, task).unwrap_or_else(|e| panic!("naive route rejected: {e}"));
            assert_eq!(naive_score.payout, *payout);
        }
        (n, s) => panic!("naive {:?} vs search {:?}", n.map(|r| r.1), s.map(|r| r.payout)),
    }
    let top = best_routes(network, task, &SearchOptions { top: 3, ..SearchOptions::default() });
    let expected: Vec<_> = ranked.iter().take(3).map(|r| (r.0.clone(), r.1, r.2)).collect();
    let got: Vec<_> = top.routes.iter().map(|r| (r.stations.clone(), r.payout, r.cards)).collect();
    assert_eq!(got, expected, "top 3");
    for r in &top.routes {
        let score = r.route.check(network, task).unwrap_or_else(|e| panic!("top certificate rejected: {e}"));
        assert_eq!((score.payout, score.cards), (r.payout, r.cards));
    }
}

fn rules(entered: bool) -> RouteRules {
    RouteRules { length: if entered { LengthRule::CardsEntered } else { LengthRule::AllCards } }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn synthetic_networks(seed in any::<u64>(), cards in 2usize..36, width in 2usize..7, max_cards in 0u32..13,
                          company in 0u8..3, entered in any::<bool>(), stations in 0.2f64..0.7, borders in 0.3f64..0.8) {
        let shape = Synthetic { cards, width, stations, borders, tracks: 2, companies: 3 };
        let network = synthetic(shape, seed);
        agree(&network, RouteTask { company: CompanyId(company), max_cards, rules: rules(entered) });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn house_positions(seed in any::<u64>(), usa in any::<bool>(), density in 0.6f64..1.0, max_cards in 1u32..12,
                       entered in any::<bool>()) {
        let catalogue = Catalogue::house();
        let map = if usa { "usa" } else { "germany" };
        let setup = house_position(&catalogue, map, density, seed).expect("the house set has this map");
        let position = Position::from_setup(setup, &catalogue)
            .unwrap_or_else(|e| panic!("random position is illegal: {:?}", e.problems));
        let network = position.network();
        for company in 0..catalogue.companies.len() as u8 {
            agree(&network, RouteTask { company: CompanyId(company), max_cards, rules: rules(entered) });
        }
    }
}

/// Same answer with one thread and with several.
#[test]
fn thread_count_does_not_change_the_answer() {
    for seed in 0..40 {
        let network = synthetic(Synthetic::new(120), seed);
        let task = RouteTask { company: CompanyId(0), max_cards: 12, rules: RouteRules::default() };
        let one = best_routes(&network, task, &SearchOptions { threads: Some(1), ..SearchOptions::default() });
        let four = best_routes(&network, task, &SearchOptions { threads: Some(4), ..SearchOptions::default() });
        assert_eq!(one.routes, four.routes, "seed {seed}");
        assert_eq!(one.upper_bound, four.upper_bound);
    }
}

/// A time limit of zero returns a labelled, unproven answer whose bound is at least the truth.
#[test]
fn a_time_limit_gives_a_bound_not_a_proof() {
    let network = synthetic(Synthetic::new(400), 7);
    let task = RouteTask { company: CompanyId(0), max_cards: 30, rules: RouteRules::default() };
    let exact = best_routes(&network, task, &SearchOptions::default());
    let cut = best_routes(
        &network,
        task,
        &SearchOptions { time_limit: Some(std::time::Duration::ZERO), ..SearchOptions::default() },
    );
    assert!(exact.proven);
    assert!(!cut.proven);
    let best = exact.routes.first().map_or(0, |r| r.payout);
    assert!(cut.upper_bound >= best, "bound {} below the optimum {best}", cut.upper_bound);
    if let Some(r) = cut.routes.first() {
        assert!(r.payout <= best);
        r.route.check(&network, task).expect("even an unproven route is legal");
    }
}
