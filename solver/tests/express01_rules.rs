//! The rules of an Express 01 game, one test per rule of the rulebook
//! (`shared/rulebooks/express-01.txt`), on small positions made for the rule: each test quotes
//! the rule, checks the legal steps, plays them through [`Game::play`] with the exact route search
//! as the referee, and checks the outcome and the errors of the illegal alternatives.
//!
//! Positions are new games (`new_game`) changed by hand: cards moved between decks, hands,
//! shares and the board, always keeping every card once, so that `Position::from_setup` accepts
//! them. A few tests need a built network; they take a position reached by a seeded random game
//! and change it the same way. Turn order numbers are 1 to 4 as on the cards; seats, decks and
//! cells are numbered from 0.

use std::sync::LazyLock;

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use signalbox_engine::express01::card::{Card, CardKind, CardNumber, CompanyId, Stage};
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Budget, Build, Game, Pair, Phase, Referee, Source, Spend, Step, StepError};
use signalbox_engine::express01::position::{
    Deck, OptionsSetup, PlacementSetup, PlayerSetup, Position, PositionSetup, SameCellTwice, WestBonus,
};
use signalbox_engine::express01::round::Length;
use signalbox_engine::express01::route::RouteTask;
use signalbox_engine::express01::setup::new_game;
use signalbox_solver::express01::selfplay::BestRoute;

// ---- helpers: positions ----

static CATALOGUE: LazyLock<Catalogue> = LazyLock::new(Catalogue::house);

fn cat() -> &'static Catalogue {
    &CATALOGUE
}

const NAMES: [&str; 4] = ["Peter", "Martina", "Philipp", "Anna"];

/// A new game from `seed` for the first `players` of [`NAMES`].
fn start(map: &str, players: usize, seed: u64) -> PositionSetup {
    let names: Vec<String> = NAMES[..players].iter().map(|s| s.to_string()).collect();
    new_game(cat(), map, &names, seed).expect("a new game")
}

/// The game of a position, which must be legal.
fn game(setup: PositionSetup) -> Game<'static> {
    let position =
        Position::from_setup(setup, cat()).unwrap_or_else(|e| panic!("an illegal position: {:?}", e.problems));
    let g = Game::from_position(&position).expect("a game");
    sound(&g);
    g
}

fn sound(g: &Game<'_>) {
    let problems = g.problems();
    assert!(problems.is_empty(), "the game is unsound: {problems:?}");
}

fn seat(g: &Game<'_>, name: &str) -> usize {
    g.seats().iter().position(|s| s.name == name).expect("a player")
}

fn company(name: &str) -> CompanyId {
    cat().company(name).expect("a company")
}

fn card(n: u16) -> &'static Card {
    cat().card(CardNumber(n)).expect("a card")
}

/// The deck a card belongs to, by name (`route-yellow`).
fn deck_name(n: u16) -> String {
    let c = card(n);
    format!("{}-{}", c.kind.name(), c.stage.name())
}

/// Where a card can lie in a position.
#[derive(Clone, Copy, Debug)]
enum Place<'a> {
    /// At the bottom of its deck.
    Deck,
    /// In a player's hand.
    Hand(&'a str),
    /// Among a player's shares.
    Shares(&'a str),
    /// Among the base cards in front of a player.
    Bases(&'a str),
}

/// Takes one copy of card `n` out of the position: from the deepest place in its deck first
/// (keeping the face-up count right), else from a hand, the shares or the base cards.
fn take_out(s: &mut PositionSetup, n: u16) {
    if let Some(deck) = s.decks.as_mut().and_then(|d| d.get_mut(&deck_name(n)))
        && let Some(i) = deck.iter().rposition(|&c| c == n)
    {
        deck.remove(i);
        let name = deck_name(n);
        if let Some(up) = s.face_up.get_mut(&name)
            && i < *up
        {
            *up -= 1;
        }
        return;
    }
    for p in &mut s.players {
        for list in [&mut p.hand, &mut p.shares, &mut p.base_cards] {
            if let Some(i) = list.iter().position(|&c| c == n) {
                list.remove(i);
                return;
            }
        }
    }
    panic!("card {n} is nowhere");
}

fn player<'s>(s: &'s mut PositionSetup, name: &str) -> &'s mut PlayerSetup {
    s.players.iter_mut().find(|p| p.name == name).expect("a player")
}

fn put(s: &mut PositionSetup, n: u16, to: Place<'_>) {
    match to {
        Place::Deck => s.decks.as_mut().expect("decks").entry(deck_name(n)).or_default().push(n),
        Place::Hand(p) => player(s, p).hand.push(n),
        Place::Shares(p) => player(s, p).shares.push(n),
        Place::Bases(p) => player(s, p).base_cards.push(n),
    }
}

fn move_card(s: &mut PositionSetup, n: u16, to: Place<'_>) {
    take_out(s, n);
    put(s, n, to);
}

/// Sets a player's hand to `size` cards: surplus cards go to the bottom of their decks, missing
/// ones come from the blue route deck.
fn hand_size(s: &mut PositionSetup, name: &str, size: usize) {
    while player(s, name).hand.len() > size {
        let n = player(s, name).hand[0];
        move_card(s, n, Place::Deck);
    }
    while player(s, name).hand.len() < size {
        let deck = &s.decks.as_ref().expect("decks")["route-blue"];
        let n = *deck.last().expect("a blue route card");
        move_card(s, n, Place::Hand(name));
    }
}

fn is_share_of(n: u16, c: CompanyId) -> bool {
    card(n).share.is_some_and(|s| s.company == c)
}

/// Gives each named player exactly `n` shares of company `c`: the company's share cards among
/// other players' shares go back to their decks, and the cards needed come from the decks.
fn set_shares(s: &mut PositionSetup, c: CompanyId, wanted: &[(&str, usize)]) {
    for p in s.players.clone() {
        for &n in p.shares.iter().filter(|&&n| is_share_of(n, c)) {
            take_out_of_shares(s, &p.name, n);
            put(s, n, Place::Deck);
        }
    }
    for &(name, count) in wanted {
        for _ in 0..count {
            let n = in_decks(s).into_iter().find(|&n| is_share_of(n, c)).expect("a share in the decks");
            move_card(s, n, Place::Shares(name));
        }
    }
}

fn take_out_of_shares(s: &mut PositionSetup, name: &str, n: u16) {
    let shares = &mut player(s, name).shares;
    let i = shares.iter().position(|&c| c == n).expect("a share");
    shares.remove(i);
}

/// The cards in the decks, deepest first.
fn in_decks(s: &PositionSetup) -> Vec<u16> {
    s.decks.as_ref().expect("decks").values().flat_map(|d| d.iter().rev().copied()).collect()
}

/// Every share card of `c` in the decks goes to `name`'s shares; those in hands too, each
/// replaced in the hand by a blue route card that is no share of `c`.
fn all_shares_to(s: &mut PositionSetup, c: CompanyId, name: &str) {
    for n in in_decks(s).into_iter().filter(|&n| is_share_of(n, c)) {
        move_card(s, n, Place::Shares(name));
    }
    for p in s.players.clone() {
        for &n in p.hand.iter().filter(|&&n| is_share_of(n, c)) {
            let i = player(s, &p.name).hand.iter().position(|&h| h == n).expect("in hand");
            player(s, &p.name).hand.remove(i);
            put(s, n, Place::Shares(name));
            let other = in_decks(s).into_iter().find(|&k| deck_name(k) == "route-blue" && !is_share_of(k, c));
            move_card(s, other.expect("a blue route card"), Place::Hand(&p.name));
        }
    }
}

/// Sets the turn order cards: (name, number, flipped).
fn turn_order(s: &mut PositionSetup, cards: &[(&str, u8, bool)]) {
    for &(name, number, flipped) in cards {
        let p = player(s, name);
        p.turn_order = number;
        p.turn_taken = flipped;
    }
}

/// Lays card `n` on the cell of base card `cell`; the base card goes in front of `owner`.
fn lay(s: &mut PositionSetup, cell: u16, n: u16, turned: bool, owner: &str) {
    take_out(s, n);
    s.board.push(PlacementSetup { cell, card: n, turned });
    put(s, cell, Place::Bases(owner));
}

fn legal_position(s: &PositionSetup) -> bool {
    Position::from_setup(s.clone(), cat()).is_ok()
}

/// Lays on some base cell of `kind` a yellow card satisfying `want`, wherever the position stays
/// legal (cells in map order, then cards by number); returns the cell.
fn lay_somewhere(s: &mut PositionSetup, kind: CardKind, want: &dyn Fn(&Card) -> bool, owner: &str) -> u16 {
    let (_, map) = cat().map(&s.map).expect("a map");
    let used: Vec<u16> = s.board.iter().map(|p| p.cell).collect();
    for cell in &map.cells {
        if used.contains(&cell.base.0) || card(cell.base.0).kind != kind {
            continue;
        }
        for &up in &card(cell.base.0).upgrades {
            let k = card(up.0);
            if !want(k) || !in_decks(s).contains(&up.0) {
                continue;
            }
            for turned in [false, true] {
                let mut t = s.clone();
                lay(&mut t, cell.base.0, up.0, turned, owner);
                if legal_position(&t) {
                    *s = t;
                    return cell.base.0;
                }
            }
        }
    }
    panic!("nowhere to lay such a card");
}

// ---- helpers: playing ----

fn step(g: &Game<'_>, text: &str) -> Step {
    g.parse_step(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays a step given in the readable form; it must be legal and listed by `legal`.
fn play(g: &mut Game<'_>, text: &str) {
    let s = step(g, text);
    play_step(g, s);
}

fn play_step(g: &mut Game<'_>, s: Step) {
    let text = g.describe(s);
    assert!(g.legal(&BestRoute).contains(&s), "`{text}` is not among the legal steps {:?}", said(g));
    g.play(s, &BestRoute).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    sound(g);
}

/// The error of a step that must be refused; it must not be listed by `legal` either.
fn refused(g: &Game<'_>, s: Step) -> StepError {
    assert!(!g.legal(&BestRoute).contains(&s), "`{}` is listed as legal", g.describe(s));
    match g.check(s, &BestRoute) {
        Err(e) => e,
        Ok(()) => panic!("`{}` was accepted", g.describe(s)),
    }
}

/// The legal steps in the readable form.
fn said(g: &Game<'_>) -> Vec<String> {
    g.legal(&BestRoute).iter().map(|&s| g.describe(s)).collect()
}

fn legal_builds(g: &Game<'_>) -> Vec<Build> {
    g.legal(&BestRoute)
        .into_iter()
        .filter_map(|s| match s {
            Step::Build(b) => Some(b),
            _ => None,
        })
        .collect()
}

fn pay(card: u16) -> Step {
    Step::Pay(Spend::Card(CardNumber(card)))
}

fn hand(g: &Game<'_>, p: usize) -> Vec<u16> {
    let mut h: Vec<u16> = g.seats()[p].hand.iter().map(|c| c.0).collect();
    h.sort_unstable();
    h
}

/// The mover's first card in hand (lowest number).
fn a_card(g: &Game<'_>) -> u16 {
    hand(g, g.mover())[0]
}

fn deck<'g>(g: &'g Game<'_>, name: &str) -> &'g Deck {
    g.decks().iter().find(|d| d.name == name).expect("a deck")
}

fn deck_cards(g: &Game<'_>, name: &str) -> Vec<u16> {
    deck(g, name).cards.iter().map(|c| c.0).collect()
}

fn cell(g: &Game<'_>, base: u16) -> usize {
    g.map().cell_of(CardNumber(base)).expect("a cell")
}

fn best(g: &Game<'_>, c: CompanyId, max_cards: u32) -> Option<u32> {
    BestRoute.best_payout(&g.network(), RouteTask { company: c, max_cards, rules: g.rules().route })
}

/// Draws the top card of the first deck that holds one, for whoever takes the next card.
fn draw_any(g: &mut Game<'_>) {
    let d = g.decks().iter().position(|d| !d.cards.is_empty()).expect("a card in the decks");
    play_step(g, Step::Draw(d));
}

/// The USA game of seed 1 for Peter, Martina and Philipp after the first turn: Martina (turn
/// order 1) paid her first card and built the first legal station, and bought nothing. Peter
/// (turn order 2) is to move, Philipp (3) after him.
fn opened() -> Game<'static> {
    let g = opened_game("usa", 1);
    assert_eq!(g.seats()[g.mover()].name, "Peter");
    g
}

/// A 3-player game of `map` from `seed` after the first turn, as in [`opened`].
fn opened_game(map: &str, seed: u64) -> Game<'static> {
    let mut g = game(start(map, 3, seed));
    play(&mut g, "A+B");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    let first = legal_builds(&g)[0];
    play_step(&mut g, Step::Build(first));
    play(&mut g, "done");
    play(&mut g, "done");
    g
}

/// The company of the station built by [`opened`].
fn opened_company(g: &Game<'_>) -> CompanyId {
    (0..cat().companies.len()).map(|c| CompanyId(c as u8)).find(|&c| g.stations(c) > 0).expect("a station")
}

/// A position from a seeded random game of `players` players: the first turn start (of seeds
/// 0, 1, ...) for which `want` gives a value.
fn from_random_game<T>(players: usize, want: &dyn Fn(&Game<'_>) -> Option<T>) -> (PositionSetup, T) {
    for seed in 0..40 {
        let mut g = game(start("germany", players, seed));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !g.is_over() && g.round() < 60 {
            if *g.phase() == Phase::Pair
                && !g.end_reached()
                && let Some(t) = want(&g)
            {
                return (g.to_setup(), t);
            }
            let legal = g.legal(&BestRoute);
            let s = *legal.choose(&mut rng).expect("a legal step");
            g.play_unchecked(s);
        }
    }
    panic!("no such position in 40 random games");
}

fn companies() -> impl Iterator<Item = CompanyId> {
    (0..cat().companies.len()).map(|c| CompanyId(c as u8))
}

// ---- Taking Your Turn: General Rules (the first turn) ----

/// "On turn number one, the first player (who owns the turn order card labeled 1) must choose the
/// 1st action pair and build a station"; USA rule a): "you have to upgrade one of the following 3
/// base cards during your first turn: 064, 071, or 072."
#[test]
fn the_first_turn_is_a_then_b_and_builds_a_station_on_the_east_coast() {
    let mut g = game(start("usa", 3, 1));
    assert_eq!(g.turn_cards()[g.mover()].number, 1);
    assert_eq!(said(&g), ["A+B"]);
    for other in ["B+A", "C+D"] {
        assert_eq!(refused(&g, step(&g, other)), StepError::FirstTurn);
    }
    play(&mut g, "A+B");
    assert_eq!(refused(&g, Step::Done), StepError::FirstTurn, "no done in A before a station is built");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    assert_eq!(refused(&g, Step::Done), StepError::FirstTurn);
    let builds = legal_builds(&g);
    assert!(!builds.is_empty());
    let east: Vec<usize> = [64, 71, 72].map(|b| cell(&g, b)).to_vec();
    for b in &builds {
        assert!(card(b.card.0).kind.has_stations(), "{b:?}: the first build is a station");
        assert!(east.contains(&b.cell), "{b:?}: on 064, 071 or 072");
    }
    for base in [64, 71, 72] {
        assert!(builds.iter().any(|b| b.cell == cell(&g, base)), "a station can be built on {base:03}");
    }
    // A station of the West, and a route card next to the coast, are refused.
    let station_west = Build { cell: cell(&g, 65), card: card(65).upgrades[0], turned: false, depth: 0 };
    let e = refused(&g, Step::Build(station_west));
    assert!(e.to_string().contains("first build"), "{e}");
    let route_base = g.map().cells.iter().find(|c| card(c.base.0).kind == CardKind::BaseRoute).expect("a route base");
    let route =
        Build { cell: cell(&g, route_base.base.0), card: card(route_base.base.0).upgrades[0], turned: false, depth: 0 };
    assert!(refused(&g, Step::Build(route)).to_string().contains("first build"));
    play_step(&mut g, Step::Build(builds[0]));
    assert_eq!(g.upgraded(), 1);
    assert!(said(&g).contains(&"done".to_string()), "after the station, A may end");
}

/// The same in the base game, where any station base may take the first station ("In your first
/// game, we recommend to expand either Berlin (number 009) or Hannover (number 013)").
#[test]
fn the_first_build_in_germany_is_any_station() {
    let mut g = game(start("germany", 2, 3));
    play(&mut g, "A+B");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    let builds = legal_builds(&g);
    assert!(builds.iter().all(|b| card(b.card.0).kind.has_stations()));
    for base in [9, 13] {
        assert!(builds.iter().any(|b| b.cell == cell(&g, base)), "Berlin and Hannover: {base:03}");
    }
}

// ---- A) Expand the Network ----

/// "Each card spent this way is put face up on top of the deck it belongs to."
#[test]
fn a_card_paid_goes_face_up_on_top_of_its_deck() {
    let mut g = opened();
    let peter = g.mover();
    play(&mut g, "A+B");
    let c = a_card(&g);
    let before = deck_cards(&g, "route-blue");
    let up = deck(&g, "route-blue").face_up;
    play_step(&mut g, pay(c));
    let d = deck(&g, "route-blue");
    assert_eq!(d.top(), Some(CardNumber(c)));
    assert_eq!(d.face_up, up + 1);
    assert_eq!(deck_cards(&g, "route-blue")[..before.len()], before[..], "the rest of the deck as it was");
    assert_eq!(g.seats()[peter].hand.len(), 5, "the card left the hand");
    let missing = CardNumber(999);
    assert_eq!(refused(&g, Step::Pay(Spend::Card(missing))), StepError::NotInHand(missing));
}

/// "For each card that you return from your hand to the top of its deck you may either: upgrade
/// up to 2 route cards, or upgrade 1 station card."
#[test]
fn a_card_paid_buys_two_route_upgrades_or_one_station_not_both() {
    let mut g = opened();
    play(&mut g, "A+B");
    let c = a_card(&g);
    let mut paid = g.clone();
    play_step(&mut paid, pay(c));
    assert_eq!(*paid.phase(), Phase::Expand { budget: Budget::Fresh, west: false });
    let builds = legal_builds(&paid);
    let route = *builds.iter().find(|b| card(b.card.0).kind == CardKind::Route).expect("a route upgrade");
    let station = *builds.iter().find(|b| card(b.card.0).kind.has_stations()).expect("a station upgrade");
    assert_eq!(refused(&g, Step::Build(route)), StepError::Unpaid, "no build before a card is paid");
    let mut g = paid;
    // One station: the card is spent.
    let mut s = g.clone();
    play_step(&mut s, Step::Build(station));
    assert_eq!(*s.phase(), Phase::Expand { budget: Budget::Spent, west: false });
    assert!(legal_builds(&s).is_empty());
    assert_eq!(refused(&s, Step::Build(route)), StepError::Unpaid);
    // A route: one more route, and no station.
    play_step(&mut g, Step::Build(route));
    assert_eq!(*g.phase(), Phase::Expand { budget: Budget::OneRoute(route.cell), west: false });
    let after = legal_builds(&g);
    assert!(after.iter().all(|b| card(b.card.0).kind == CardKind::Route), "{after:?}");
    assert_eq!(refused(&g, Step::Build(station)), StepError::Mixed);
    let second = *after.first().expect("a second route upgrade");
    play_step(&mut g, Step::Build(second));
    assert!(legal_builds(&g).is_empty(), "two route upgrades spend the card");
    assert_eq!(refused(&g, Step::Build(second)), StepError::Unpaid);
    // "You may perform this action several times in a row, as long as you pay for it."
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    assert!(!legal_builds(&g).is_empty());
}

/// "pick out the upgrade card of your choice from any of the decks ... You may not change the
/// order of the rest of the cards in these decks."
#[test]
fn the_upgrade_card_is_taken_from_any_depth_and_the_deck_keeps_its_order() {
    let mut g = opened();
    play(&mut g, "A+B");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    let b = *legal_builds(&g).iter().filter(|b| b.depth > 0).max_by_key(|b| b.depth).expect("a card deep in a deck");
    let name = deck_name(b.card.0);
    let mut expected = deck_cards(&g, &name);
    let i = expected.len() - 1 - b.depth;
    assert_eq!(expected[i], b.card.0);
    expected.remove(i);
    // A wrong depth is refused with the deck named.
    let wrong = Build { depth: b.depth + 1, ..b };
    if deck(&g, &name).at(wrong.depth) != Some(b.card) {
        assert_eq!(
            refused(&g, Step::Build(wrong)),
            StepError::NotInDeck { card: b.card, depth: wrong.depth, deck: deck(&g, &name).name }
        );
    }
    play_step(&mut g, Step::Build(b));
    assert_eq!(deck_cards(&g, &name), expected);
    assert_eq!(g.board()[b.cell].card, b.card);
}

/// "the new card's number must be listed in the lower right corner of the card that you want to
/// replace"; "If you upgrade a base card, the new (yellow) card must continue at least one track of
/// an adjacent card"; the USA game uses no terminal stations ("Remove ... the 18 terminal
/// stations").
#[test]
fn an_upgrade_is_listed_and_continues_a_track() {
    let mut g = opened();
    play(&mut g, "A+B");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    let builds = legal_builds(&g);
    let near: Vec<usize> = builds.iter().map(|b| b.cell).collect();
    // A route base far from the network, with a listed yellow card in its deck.
    let far = (0..g.map().cells.len())
        .find(|&i| {
            let base = g.map().cells[i].base;
            card(base.0).kind == CardKind::BaseRoute && !near.contains(&i) && g.board()[i].card == base
        })
        .expect("a route base far from the network");
    let base = g.map().cells[far].base;
    let yellow = card(base.0).upgrades[0];
    let depth = deck(&g, &deck_name(yellow.0)).cards.iter().rev().position(|&n| n == yellow).expect("in its deck");
    for turned in [false, true] {
        let e = refused(&g, Step::Build(Build { cell: far, card: yellow, turned, depth }));
        assert!(e.to_string().contains("continues no track of an adjacent card"), "{e}");
    }
    let unlisted = (101..=108).map(CardNumber).find(|n| !card(base.0).upgrades.contains(n)).expect("an unlisted card");
    let e = refused(&g, Step::Build(Build { cell: far, card: unlisted, turned: false, depth: 0 }));
    assert!(e.to_string().contains(&format!("card {unlisted} is not listed on card {base}")), "{e}");
    let terminal = Build { cell: far, card: CardNumber(401), turned: false, depth: 0 };
    assert!(refused(&g, Step::Build(terminal)).to_string().contains("is not an upgrade card of this map"));
}

/// "If you replace a base card, place it face down in front of you. If you replace a colored
/// upgrade card, return it face up to the top of its deck."
#[test]
fn a_replaced_base_card_goes_in_front_and_a_replaced_upgrade_card_on_its_deck() {
    let mut g = opened();
    let martina = seat(&g, "Martina");
    let first = g.board().iter().zip(&g.map().cells).find(|(p, c)| p.card != c.base).map(|(p, c)| (p.card, c.base));
    let (yellow, base) = first.expect("the first station");
    assert_eq!(g.seats()[martina].base_cards, [base], "the base card lies in front of Martina");
    let peter = g.mover();
    play(&mut g, "A+B");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    let over = *legal_builds(&g).iter().find(|b| b.cell == cell(&g, base.0)).expect("an upgrade of the station");
    assert_eq!(card(over.card.0).stage, Stage::Red);
    let name = deck_name(yellow.0);
    let up = deck(&g, &name).face_up;
    play_step(&mut g, Step::Build(over));
    assert_eq!(deck(&g, &name).top(), Some(yellow), "the yellow card on top of its deck");
    assert_eq!(deck(&g, &name).face_up, up + 1, "face up");
    assert!(g.seats()[peter].base_cards.is_empty());
    assert_eq!(g.upgraded(), 1, "no more base cards upgraded");
}

/// "(You can indeed build tracks with cards that have just been discarded this way and also
/// purchase them as shares.)"
#[test]
fn a_card_just_paid_can_be_built() {
    let g = opened();
    // A yellow route card Peter could build after paying.
    let mut probe = g.clone();
    probe.play(Step::Pair(Pair::ExpandShares), &BestRoute).expect("A+B");
    let c = a_card(&probe);
    probe.play(pay(c), &BestRoute).expect("pay");
    let target = *legal_builds(&probe).iter().find(|b| card(b.card.0).kind == CardKind::Route).expect("a route");
    // Peter holds that card instead.
    let mut s = g.to_setup();
    move_card(&mut s, target.card.0, Place::Hand("Peter"));
    let mut g = game(s);
    play(&mut g, "A+B");
    play_step(&mut g, pay(target.card.0));
    let d = deck(&g, &deck_name(target.card.0));
    assert_eq!((d.top(), d.face_up), (Some(target.card), 1));
    let built = Build { depth: 0, ..target };
    play_step(&mut g, Step::Build(built));
    assert_eq!(g.board()[target.cell].card, target.card);
    assert_eq!(deck(&g, &deck_name(target.card.0)).face_up, 0);
}

/// Ruling G7, option `same-cell-twice`: the two route upgrades of one card may be on the same
/// cell, yellow then red (default `allowed`), or must be on two cells (`forbidden`).
#[test]
fn the_option_same_cell_twice() {
    let g = opened();
    // A yellow route after which the same card can lay a red route on the same cell.
    let mut found = None;
    let mut probe = g.clone();
    probe.play(Step::Pair(Pair::ExpandShares), &BestRoute).expect("A+B");
    let c = a_card(&probe);
    probe.play(pay(c), &BestRoute).expect("pay");
    for b in legal_builds(&probe).into_iter().filter(|b| card(b.card.0).kind == CardKind::Route) {
        let mut h = probe.clone();
        h.play(Step::Build(b), &BestRoute).expect("build");
        if let Some(second) = legal_builds(&h).into_iter().find(|s| s.cell == b.cell) {
            found = Some((b, second));
            break;
        }
    }
    let (first, second) = found.expect("a yellow route with a red one over it in the decks");
    assert_eq!(card(second.card.0).stage, Stage::Red);
    for option in [SameCellTwice::Allowed, SameCellTwice::Forbidden] {
        let mut s = g.to_setup();
        s.options = Some(OptionsSetup { same_cell_twice: option, ..OptionsSetup::default() });
        let mut g = game(s);
        play(&mut g, "A+B");
        play_step(&mut g, pay(c));
        play_step(&mut g, Step::Build(first));
        match option {
            SameCellTwice::Allowed => {
                play_step(&mut g, Step::Build(second));
                assert_eq!(g.board()[first.cell].card, second.card);
            }
            SameCellTwice::Forbidden => {
                assert_eq!(refused(&g, Step::Build(second)), StepError::SameCell);
                assert!(legal_builds(&g).iter().all(|b| b.cell != first.cell));
            }
        }
    }
}

/// The opened USA game with yellow route cards laid east of two western cards, 057 (next to 056)
/// and 066 (next to 065), so that Peter can build on both; `west` is the option of ruling G8.
fn near_the_west(west: WestBonus) -> (Game<'static>, Build, Build) {
    let g = opened();
    let base = g.to_setup();
    let yellow_routes: Vec<u16> = {
        let mut v: Vec<u16> = in_decks(&base).into_iter().filter(|&n| deck_name(n) == "route-yellow").collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let reach = |s: &PositionSetup, east: u16, west_cell: u16| -> Option<(PositionSetup, Build)> {
        for &y in &yellow_routes {
            if !card(east).upgrades.contains(&CardNumber(y)) {
                continue;
            }
            for turned in [false, true] {
                let mut t = s.clone();
                lay(&mut t, east, y, turned, "Philipp");
                t.options = Some(OptionsSetup { west_bonus: west, ..OptionsSetup::default() });
                if !legal_position(&t) {
                    continue;
                }
                let mut h = game(t.clone());
                h.play(Step::Pair(Pair::ExpandShares), &BestRoute).expect("A+B");
                let c = a_card(&h);
                h.play(pay(c), &BestRoute).expect("pay");
                if let Some(b) = legal_builds(&h).into_iter().find(|b| b.cell == cell(&h, west_cell)) {
                    return Some((t, b));
                }
            }
        }
        None
    };
    let (s, to_056) = reach(&base, 57, 56).expect("a way to 056");
    let (s, to_065) = reach(&s, 66, 65).expect("a way to 065");
    (game(s), to_056, to_065)
}

/// USA rule b): "The first player who reaches the West gets a bonus. If you are the first to
/// upgrade either base card 051, 056, 065, or 073, you can immediately add one of the top cards
/// from any deck to your hand." Ruling G8: once in the game by default; declining is `done`.
#[test]
fn the_bonus_for_reaching_the_west_once() {
    let (mut g, to_056, to_065) = near_the_west(WestBonus::Once);
    let peter = g.mover();
    play(&mut g, "A+B");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    play_step(&mut g, Step::Build(to_056));
    assert!(matches!(g.phase(), Phase::Expand { west: true, .. }));
    let steps = g.legal(&BestRoute);
    let draws = steps.iter().filter(|s| matches!(s, Step::Draw(_))).count();
    assert_eq!(draws, g.decks().iter().filter(|d| !d.cards.is_empty()).count(), "the top card of any deck");
    assert!(steps.contains(&Step::Done), "the bonus may be declined");
    assert!(!steps.iter().any(|s| matches!(s, Step::Build(_) | Step::Pay(_))), "the bonus comes first: {steps:?}");
    let top = deck(&g, "through-red").top().expect("a card");
    let held = g.seats()[peter].hand.len();
    play(&mut g, "draw through-red by Peter");
    assert_eq!(g.seats()[peter].hand.len(), held + 1);
    assert!(g.seats()[peter].hand.contains(&top));
    assert!(matches!(g.phase(), Phase::Expand { west: false, .. }));
    // The second western card pays no bonus: the West was reached.
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    let to_065 = legal_builds(&g).into_iter().find(|b| b.cell == to_065.cell).expect("a build on 065");
    play_step(&mut g, Step::Build(to_065));
    assert!(matches!(g.phase(), Phase::Expand { west: false, .. }), "no second bonus");
}

/// Ruling G8, option `each-card`: each western card pays the bonus to the first to upgrade it;
/// a bonus declined with `done` leaves the hand as it was.
#[test]
fn the_bonus_for_reaching_the_west_for_each_card_and_declined() {
    let (mut g, to_056, to_065) = near_the_west(WestBonus::EachCard);
    let peter = g.mover();
    play(&mut g, "A+B");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    play_step(&mut g, Step::Build(to_056));
    let held = g.seats()[peter].hand.len();
    play(&mut g, "done");
    assert_eq!(g.seats()[peter].hand.len(), held, "declined");
    assert!(matches!(g.phase(), Phase::Expand { west: false, .. }), "A goes on");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    let to_065 = legal_builds(&g).into_iter().find(|b| b.cell == to_065.cell).expect("a build on 065");
    play_step(&mut g, Step::Build(to_065));
    assert!(matches!(g.phase(), Phase::Expand { west: true, .. }), "a bonus for the second western card");
    draw_any(&mut g);
    assert_eq!(g.seats()[peter].hand.len(), held);
}

// ---- B) Acquire Shares ----

/// "The cost of one share always equals the number of stations in the network that belong to the
/// company"; "You may only purchase shares of those companies that have at least one station in
/// the network"; "you search the route card decks for a share of that company".
#[test]
fn a_share_costs_the_companys_stations_and_comes_from_any_route_deck() {
    let mut g = opened();
    let peter = g.mover();
    let k = opened_company(&g);
    assert_eq!(g.stations(k), 1);
    play(&mut g, "B+A");
    let listed: Vec<Step> = g.legal(&BestRoute);
    assert_eq!(listed, [Step::Buy(k), Step::Done], "only the company with a station");
    for other in companies().filter(|&c| c != k) {
        assert!(matches!(refused(&g, Step::Buy(other)), StepError::NoStation(_)));
    }
    play_step(&mut g, Step::Buy(k));
    assert!(matches!(g.phase(), Phase::Buying { left: 1, .. }), "the price is 1 card");
    let c = hand(&g, peter).into_iter().find(|&n| !is_share_of(n, k)).expect("a card");
    play_step(&mut g, pay(c));
    // Every share of the company in a route deck can be taken, at any depth.
    let takes: Vec<(u16, usize)> = g
        .legal(&BestRoute)
        .into_iter()
        .map(|s| match s {
            Step::Take(Source::Deck { card, depth }) => (card.0, depth),
            other => panic!("{other:?}"),
        })
        .collect();
    for d in g.decks().iter().filter(|d| d.kind == CardKind::Route) {
        for depth in 0..d.cards.len() {
            let n = d.at(depth).expect("a card");
            if is_share_of(n.0, k) {
                assert!(takes.iter().any(|&(c, _)| c == n.0), "share {n} at depth {depth} of {}", d.name);
            }
        }
    }
    assert!(takes.iter().all(|&(c, _)| is_share_of(c, k)));
    let (share, depth) = *takes.iter().max_by_key(|t| t.1).expect("a share");
    let name = deck_name(share);
    let mut expected = deck_cards(&g, &name);
    expected.remove(expected.len() - 1 - depth);
    let not_a_share = Step::Take(Source::Deck { card: CardNumber(c), depth: 0 });
    assert!(matches!(refused(&g, not_a_share), StepError::NotAShare { .. }));
    play_step(&mut g, Step::Take(Source::Deck { card: CardNumber(share), depth }));
    assert_eq!(deck_cards(&g, &name), expected, "the deck's order otherwise unchanged");
    assert_eq!(g.holding(peter, k), 1);
    assert_eq!(*g.phase(), Phase::Shares, "more shares may follow");
}

/// "This action has a cost ... you must pay the cost of the share by returning the required
/// number of cards from your hand": a player without the cards cannot buy.
#[test]
fn a_share_needs_its_price_in_hand() {
    let g = opened();
    let k = opened_company(&g);
    let mut s = g.to_setup();
    hand_size(&mut s, "Peter", 0);
    let mut g = game(s);
    play(&mut g, "B+A");
    assert_eq!(said(&g), ["done"]);
    assert_eq!(
        refused(&g, Step::Buy(k)),
        StepError::CannotPay { company: cat().company_name(k).to_string(), price: 1, have: 0 }
    );
}

/// "If there is no share of the desired company left in the decks (and only then), you may take a
/// share of that company from another player ... In this case, the paid cards are not returned
/// to their decks but are handed to this player." "You may never take away shares from the owner
/// of the black engine."
#[test]
fn a_share_from_another_player_only_when_the_decks_hold_none() {
    let g = opened();
    let k = opened_company(&g);
    let mut s = g.to_setup();
    all_shares_to(&mut s, k, "Philipp");
    // Martina owns the black engine; give her one of Philipp's shares.
    let one = player(&mut s, "Philipp").shares[0];
    take_out_of_shares(&mut s, "Philipp", one);
    put(&mut s, one, Place::Shares("Martina"));
    assert_eq!(s.black_engine.as_deref(), Some("Martina"));
    let mut g = game(s.clone());
    let (peter, philipp, martina) = (seat(&g, "Peter"), seat(&g, "Philipp"), seat(&g, "Martina"));
    play(&mut g, "B+A");
    play_step(&mut g, Step::Buy(k));
    let c = a_card(&g);
    let blue_before = deck_cards(&g, "route-blue");
    let up = deck(&g, "route-blue").face_up;
    play_step(&mut g, pay(c));
    let steps = g.legal(&BestRoute);
    assert!(!steps.is_empty());
    for st in &steps {
        assert!(matches!(st, Step::Take(Source::Player { player, .. }) if *player == philipp), "{st:?}");
    }
    let from_martina = Step::Take(Source::Player { player: martina, card: CardNumber(one) });
    assert!(matches!(refused(&g, from_martina), StepError::CannotTakeFrom { .. }), "the black engine protects");
    let from_deck = Step::Take(Source::Deck { card: CardNumber(one), depth: 0 });
    assert!(matches!(refused(&g, from_deck), StepError::DecksHoldNone(_)));
    let held = g.seats()[philipp].hand.len();
    play_step(&mut g, steps[0]);
    assert_eq!(g.holding(peter, k), 1);
    assert_eq!(g.seats()[philipp].hand.len(), held + 1, "the price handed to Philipp");
    assert!(g.seats()[philipp].hand.contains(&CardNumber(c)));
    assert_eq!(deck_cards(&g, "route-blue"), blue_before, "the paid card is not on its deck");
    assert_eq!(deck(&g, "route-blue").face_up, up);

    // With one share back in a deck, none may be taken from a player.
    let back = player(&mut s, "Philipp").shares[0];
    take_out_of_shares(&mut s, "Philipp", back);
    put(&mut s, back, Place::Deck);
    let mut g = game(s);
    play(&mut g, "B+A");
    play_step(&mut g, Step::Buy(k));
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    let theirs = g.seats()[philipp].shares[0];
    let e = refused(&g, Step::Take(Source::Player { player: philipp, card: theirs }));
    assert!(matches!(e, StepError::DecksHoldOne(_)), "{e}");
    assert!(g.legal(&BestRoute).iter().all(|s| matches!(s, Step::Take(Source::Deck { .. }))));
}

/// "You may never take away shares from the owner of the black engine": with every other share
/// of the company held by the owner, a share cannot be bought ("you cannot acquire a share of
/// that company") unless the price itself is one, paid onto a deck and taken back as the share
/// ("and also purchase them as shares"; ruling G9).
#[test]
fn the_black_engine_protects_shares_and_a_paid_share_can_be_bought() {
    let g = opened();
    let k = opened_company(&g);
    let mut s = g.to_setup();
    all_shares_to(&mut s, k, "Martina");
    let mut none = game(s.clone());
    play(&mut none, "B+A");
    assert!(matches!(refused(&none, Step::Buy(k)), StepError::NoShare(_)));
    // Peter holds one share card of the company in hand.
    let one = player(&mut s, "Martina").shares[0];
    take_out_of_shares(&mut s, "Martina", one);
    put(&mut s, one, Place::Hand("Peter"));
    let mut g = game(s);
    let peter = g.mover();
    play(&mut g, "B+A");
    play_step(&mut g, Step::Buy(k));
    let other = hand(&g, peter).into_iter().find(|&n| n != one).expect("a card");
    assert!(matches!(refused(&g, pay(other)), StepError::LastPay(_)), "nothing left to take after that card");
    play_step(&mut g, pay(one));
    assert_eq!(g.legal(&BestRoute), [Step::Take(Source::Deck { card: CardNumber(one), depth: 0 })]);
    play_step(&mut g, Step::Take(Source::Deck { card: CardNumber(one), depth: 0 }));
    assert_eq!(g.holding(peter, k), 1);
}

/// Ruling G9: the black engine paid towards a share taken from a player is discarded, and only
/// the cards are handed to that player. "You can use the black engine when you have to pay for an
/// action. It has the exact same value as one card in hand."
#[test]
fn the_black_engine_paid_for_a_players_share_is_discarded() {
    let g = opened();
    let k = opened_company(&g);
    let mut s = g.to_setup();
    all_shares_to(&mut s, k, "Philipp");
    s.black_engine = Some("Peter".into());
    let mut g = game(s);
    let (peter, philipp) = (seat(&g, "Peter"), seat(&g, "Philipp"));
    let held = g.seats()[philipp].hand.len();
    play(&mut g, "B+A");
    play_step(&mut g, Step::Buy(k));
    play(&mut g, "pay engine");
    assert_eq!((g.black_engine(), g.engine_used()), (None, true));
    let t = g.legal(&BestRoute)[0];
    assert!(matches!(t, Step::Take(Source::Player { player, .. }) if player == philipp));
    play_step(&mut g, t);
    assert_eq!(g.holding(peter, k), 1);
    assert_eq!(g.seats()[philipp].hand.len(), held, "nothing handed over for the engine");
    assert_eq!(g.seats()[peter].hand.len(), 6, "no card paid");
}

// ---- C) Initiate One Bonus Payment ----

/// A company whose train, with `max_cards` issued shares, pays exactly `payout` on the position.
fn paying(g: &Game<'_>, max_cards: u32, payout: &dyn Fn(u32) -> bool) -> Option<CompanyId> {
    companies().find(|&c| g.stations(c) > 0 && best(g, c, max_cards).is_some_and(payout))
}

/// The rulebook's example (page 8) as a position: Peter (turn order 1), Martina (2) and Philipp
/// (3); red, here the company `k`, has 5 shares issued, Peter 1, Martina 2, Philipp 2, and its
/// best route of at most 5 cards pays 4. Martina owns the black engine.
fn peter_martina_philipp() -> (PositionSetup, CompanyId) {
    let (mut s, k) = from_random_game(3, &|g| paying(g, 5, &|p| p == 4));
    set_shares(&mut s, k, &[("Peter", 1), ("Martina", 2), ("Philipp", 2)]);
    turn_order(&mut s, &[("Peter", 1, false), ("Martina", 2, false), ("Philipp", 3, false)]);
    s.black_engine = Some("Martina".into());
    s.black_engine_used = false;
    (s, k)
}

/// Plays the payment out, each receiver drawing from the first deck holding a card; returns the
/// receivers in order.
fn receivers(g: &mut Game<'_>) -> Vec<String> {
    let mut out = Vec::new();
    while matches!(g.phase(), Phase::Paying { .. }) {
        out.push(g.seats()[g.decider()].name.clone());
        let d = g.decks().iter().position(|d| !d.cards.is_empty()).expect("a card");
        let text = format!("draw {} by {}", g.decks()[d].name, g.seats()[g.decider()].name);
        play(g, &text);
    }
    out
}

/// "Example: Peter, Martina and Philipp play. It is Peter's turn. He chooses to send off a train
/// of the red company. There is a total of 5 red shares issued ... the entire payment consists of
/// 4 cards. Peter starts out ... Then Martina ... After that Philipp ... Even though it is Peter's
/// turn again, he may not take another card since he only owns a single red share. Therefore, the
/// last card falls to Martina who owns 2 red shares and who precedes Philipp."
#[test]
fn the_order_of_payment_peter_martina_philipp() {
    let (s, k) = peter_martina_philipp();
    let mut g = game(s);
    assert_eq!(g.seats()[g.mover()].name, "Peter");
    assert_eq!(g.issued(k), 5);
    play(&mut g, "C+D");
    let name = cat().company_name(k).to_string();
    assert!(said(&g).contains(&format!("bonus {name} pays 4")), "{:?}", said(&g));
    // "You have to choose the route that grants the highest possible bonus payment."
    for wrong in [3, 5] {
        let e = refused(&g, Step::Bonus { company: k, engine: false, payout: wrong });
        assert_eq!(e, StepError::Payout { stated: wrong, best: 4 });
        assert!(e.to_string().contains("the most any route pays, 4"), "{e}");
    }
    assert!(matches!(refused(&g, Step::Bonus { company: k, engine: true, payout: 4 }), StepError::NoEngine));
    let hands: Vec<usize> = g.seats().iter().map(|s| s.hand.len()).collect();
    play(&mut g, &format!("bonus {name} pays 4"));
    // "the shareholders take one card each from the top of any deck": each their own.
    assert!(g.parse_step("draw route-red by Martina").is_err(), "Peter takes the first card");
    assert_eq!(receivers(&mut g), ["Peter", "Martina", "Philipp", "Martina"]);
    let got: Vec<usize> = g.seats().iter().zip(&hands).map(|(s, h)| s.hand.len() - h).collect();
    assert_eq!(got, [1, 2, 1]);
    assert_eq!(*g.phase(), Phase::Order, "then D");
}

/// "In a 4-player game, the player with the turn order number 3 initiates the action while all
/// players have a stake in the chosen company. Then the order of the payment is as follows: 1) turn
/// order 3, 2) turn order 4, 3) turn order 1, 4) turn order 2, 5) turn order 3, etc."
#[test]
fn the_order_of_payment_starts_with_the_initiator_and_wraps() {
    let (mut s, k) = from_random_game(4, &|g| paying(g, 8, &|p| p >= 5));
    set_shares(&mut s, k, &[("Peter", 2), ("Martina", 2), ("Philipp", 2), ("Anna", 2)]);
    turn_order(&mut s, &[("Peter", 3, false), ("Martina", 4, false), ("Philipp", 1, true), ("Anna", 2, true)]);
    let mut g = game(s);
    assert_eq!(g.seats()[g.mover()].name, "Peter");
    play(&mut g, "C+D");
    let payout = best(&g, k, 8).expect("a route");
    play_step(&mut g, Step::Bonus { company: k, engine: false, payout });
    let by_number = ["Philipp", "Anna", "Peter", "Martina"];
    let expected: Vec<&str> =
        [3, 4, 1, 2, 3, 4, 1, 2].iter().take(payout as usize).map(|&n| by_number[n - 1]).collect();
    assert_eq!(receivers(&mut g), expected);
}

/// "No shareholder can receive more cards from the bonus payment than he holds shares in the
/// company. If - due to this - a part of the payment is left over, it falls to the player who
/// initiated the action." Players without a share receive nothing.
#[test]
fn the_payment_left_over_falls_to_the_initiator() {
    let (mut s, (k, n)) = from_random_game(3, &|g| (2..=5).find_map(|n| paying(g, n, &|p| p > n).map(|k| (k, n))));
    set_shares(&mut s, k, &[("Peter", 1), ("Martina", n as usize - 1)]);
    turn_order(&mut s, &[("Peter", 1, false), ("Martina", 2, false), ("Philipp", 3, false)]);
    let mut g = game(s);
    play(&mut g, "C+D");
    let payout = best(&g, k, n).expect("a route");
    play_step(&mut g, Step::Bonus { company: k, engine: false, payout });
    let mut expected = vec!["Peter".to_string()];
    expected.extend(std::iter::repeat_n("Martina".to_string(), n as usize - 1));
    expected.extend(std::iter::repeat_n("Peter".to_string(), (payout - n) as usize));
    assert_eq!(receivers(&mut g), expected);
}

/// "You can use the black engine as one company share during a bonus payment. This applies only
/// to the payment itself. It may neither be used when you select a company nor when the length
/// of the route is determined ... After you have received your payment, you must discard the
/// black engine."
#[test]
fn the_black_engine_as_a_share_of_the_payment_then_discarded() {
    let (mut s, k) = peter_martina_philipp();
    s.black_engine = Some("Peter".into());
    // A company of which Peter holds no share (the check comes before the stations').
    let unheld = companies().find(|&c| c != k).expect("another company");
    set_shares(&mut s, unheld, &[("Martina", 1)]);
    let mut g = game(s);
    let peter = g.mover();
    assert_eq!(g.capital(peter).black_engine, 2);
    play(&mut g, "C+D");
    // "It may neither be used when you select a company": the engine is no share to select by.
    let e = refused(&g, Step::Bonus { company: unheld, engine: true, payout: best(&g, unheld, 1).unwrap_or(0) });
    assert!(matches!(e, StepError::NoShareHeld(_)), "{e}");
    let steps = g.legal(&BestRoute);
    assert!(steps.contains(&Step::Bonus { company: k, engine: false, payout: 4 }));
    assert!(steps.contains(&Step::Bonus { company: k, engine: true, payout: 4 }), "the route is no longer");
    play_step(&mut g, Step::Bonus { company: k, engine: true, payout: 4 });
    assert_eq!((g.black_engine(), g.engine_used()), (None, true));
    assert_eq!(receivers(&mut g), ["Peter", "Martina", "Philipp", "Peter"]);
    assert_eq!(g.capital(peter).black_engine, 0);
}

/// "You may only select a company: of which you own at least one share, and of which there is at
/// least one station in the network"; "The route must start at a station and end at a different
/// station."
#[test]
fn a_bonus_only_for_a_company_held_with_a_station_and_a_route() {
    let (mut s, k) = peter_martina_philipp();
    let unheld = companies().find(|&c| c != k).expect("another company");
    set_shares(&mut s, unheld, &[("Martina", 1)]);
    let g = {
        let mut g = game(s);
        play(&mut g, "C+D");
        g
    };
    assert!(matches!(
        refused(&g, Step::Bonus { company: unheld, engine: false, payout: 1 }),
        StepError::NoShareHeld(_)
    ));
    assert!(g.legal(&BestRoute).iter().all(|s| !matches!(s, Step::Bonus { company, .. } if *company == unheld)));

    // A game of Germany after the first station, the only one: no route, and companies
    // without a station.
    let g = opened_game("germany", 1);
    let peter = g.seats()[g.mover()].name.clone();
    let k = opened_company(&g);
    let none = companies().find(|&c| g.stations(c) == 0).expect("a company without a station");
    let mut s = g.to_setup();
    set_shares(&mut s, k, &[(&peter, 1)]);
    set_shares(&mut s, none, &[(&peter, 1)]);
    let mut g = game(s);
    play(&mut g, "C+D");
    assert_eq!(said(&g), ["done"]);
    assert!(matches!(refused(&g, Step::Bonus { company: none, engine: false, payout: 0 }), StepError::NoStation(_)));
    assert!(matches!(refused(&g, Step::Bonus { company: k, engine: false, payout: 1 }), StepError::NoRoute(_)));
    play(&mut g, "done");
    assert_eq!(*g.phase(), Phase::Order, "C may be skipped");
}

/// Ruling G11: a payment ends early when every deck is empty; the rest is not paid.
#[test]
fn a_payment_ends_when_the_decks_are_empty() {
    let (mut s, k) = peter_martina_philipp();
    let mut left: Vec<u16> = in_decks(&s);
    left.truncate(left.len() - 2);
    for n in left {
        move_card(&mut s, n, Place::Hand("Philipp"));
    }
    let mut g = game(s);
    play(&mut g, "C+D");
    play_step(&mut g, Step::Bonus { company: k, engine: false, payout: 4 });
    assert_eq!(receivers(&mut g), ["Peter", "Martina"]);
    assert_eq!(*g.phase(), Phase::Order);
}

// ---- D) Change the Turn Order, End of Your Turn, End of a Round ----

fn number(g: &Game<'_>, name: &str) -> (u8, bool) {
    let c = g.turn_cards()[seat(g, name)];
    (c.number, c.flipped)
}

/// A quick turn: C+D with no payment and no exchange.
fn pass(g: &mut Game<'_>) {
    play(g, "C+D");
    play(g, "done");
    play(g, "done");
}

/// "If you exchange your turn order card for another player's turn order card that shows the
/// front side (the engine), the new turn order card of that other player must also show the front
/// side ... Note: If you exchange your turn order card for any turn order card with a higher
/// number, you may not take another turn the very same round!"
#[test]
fn a_swap_for_an_unflipped_higher_card_ends_the_movers_round() {
    let mut g = opened();
    assert_eq!(
        (number(&g, "Martina"), number(&g, "Peter"), number(&g, "Philipp")),
        ((1, true), (2, false), (3, false))
    );
    play(&mut g, "C+D");
    play(&mut g, "done");
    assert_eq!(refused(&g, Step::Swap(g.mover())), StepError::SwapWith);
    let swaps: Vec<String> = said(&g);
    assert_eq!(swaps, ["swap Martina", "swap Philipp", "done"]);
    play(&mut g, "swap Philipp");
    assert_eq!(number(&g, "Peter"), (3, true), "Peter's turn is over, his card (now 3) flipped");
    assert_eq!(number(&g, "Philipp"), (2, false), "Philipp's new card shows its front");
    assert_eq!(g.seats()[g.mover()].name, "Philipp");
    pass(&mut g);
    assert_eq!(g.round(), 2, "Peter does not move again in round 1");
    assert_eq!(g.seats()[g.mover()].name, "Martina");
    assert_eq!((number(&g, "Philipp").0, number(&g, "Peter").0), (2, 3));
}

/// "If you exchange your turn order card for another player's turn order card that shows its back
/// ('The train has left'), the new turn order card of that other player must also show its back
/// (since he already has had his turn during this round)."
#[test]
fn a_swap_for_a_flipped_card_leaves_the_other_player_moved() {
    let mut g = opened();
    play(&mut g, "C+D");
    play(&mut g, "done");
    play(&mut g, "swap Martina");
    assert_eq!(number(&g, "Peter"), (1, true));
    assert_eq!(number(&g, "Martina"), (2, true), "Martina's new card shows its back");
    assert_eq!(g.seats()[g.mover()].name, "Philipp");
    pass(&mut g);
    assert_eq!(g.round(), 2, "Martina does not move again");
    assert_eq!(g.seats()[g.mover()].name, "Peter", "Peter holds 1 in round 2");
}

/// "Once you have completed your turn, you flip your turn order card over to its back ... Then it
/// is the player's turn whose turn order card shows the lowest number and who has not taken his
/// turn yet." D may be skipped with `done`.
#[test]
fn turns_follow_the_lowest_front_card() {
    let mut g = opened();
    pass(&mut g);
    assert_eq!(number(&g, "Peter"), (2, true));
    assert_eq!(g.seats()[g.mover()].name, "Philipp");
    assert_eq!(g.turn(), 3);
    pass(&mut g);
    assert_eq!(g.round(), 2);
    assert!(g.turn_cards().iter().all(|c| !c.flipped), "every card on its front again");
    assert_eq!(g.seats()[g.mover()].name, "Martina");
}

// ---- The black engine ----

/// "Use it as active capital: You can use the black engine when you have to pay for an action. It
/// has the exact same value as one card in hand ... After you have used the black engine in this
/// manner, you must discard it"; "If you have not used the black engine during the previous
/// round, it is worth 2 additional points"; "The black engine may be used by its owner during his
/// turn."
#[test]
fn the_black_engine_pays_once_and_counts_2_while_unused() {
    let g = opened();
    let mut s = g.to_setup();
    s.black_engine = Some("Peter".into());
    let mut g = game(s.clone());
    let peter = g.mover();
    assert_eq!(g.capital(peter).black_engine, 2);
    play(&mut g, "A+B");
    assert!(g.legal(&BestRoute).contains(&Step::Pay(Spend::Engine)));
    play(&mut g, "pay engine");
    assert_eq!((g.black_engine(), g.engine_used()), (None, true));
    assert_eq!(*g.phase(), Phase::Expand { budget: Budget::Fresh, west: false }, "worth one card");
    assert_eq!(g.seats()[peter].hand.len(), 6);
    assert_eq!(g.capital(peter).black_engine, 0);
    assert_eq!(refused(&g, Step::Pay(Spend::Engine)), StepError::NoEngine);
    // Not the mover's: Martina owns it while Peter moves.
    s.black_engine = Some("Martina".into());
    let mut g = game(s);
    play(&mut g, "A+B");
    assert_eq!(refused(&g, Step::Pay(Spend::Engine)), StepError::NoEngine);
}

// ---- Government Aid ----

/// The end of round 1 of a 3-player game of Germany (turn order Martina 1, Philipp 2, Peter 3,
/// unlike the seats; every card flipped) with the given hand sizes and the black engine's owner (unused), or none (used).
fn round_end(hands: [usize; 3], owner: Option<&str>) -> PositionSetup {
    let mut s = start("germany", 3, 1);
    turn_order(&mut s, &[("Peter", 3, true), ("Martina", 1, true), ("Philipp", 2, true)]);
    for (name, n) in ["Peter", "Martina", "Philipp"].into_iter().zip(hands) {
        hand_size(&mut s, name, n);
    }
    s.black_engine = owner.map(String::from);
    s.black_engine_used = owner.is_none();
    s
}

/// "At the beginning of each round, determine the total capital of each player ... The player
/// with the lowest capital receives the black engine as government aid ... In case two or more
/// players are equally low on capital, the tie is won by the tied player with the lowest turn order
/// number." Ruling G5: the owner's unused black engine counts, and the owner keeps it when lowest.
#[test]
fn the_government_aid_goes_to_the_lowest_capital() {
    // Hands of Peter, Martina, Philipp; the owner; who receives the aid.
    let cases: [([usize; 3], Option<&str>, &str, &str); 5] = [
        ([6, 6, 5], Some("Martina"), "Philipp", "the lowest capital"),
        (
            [5, 6, 5],
            Some("Martina"),
            "Philipp",
            "a tie to the lowest turn order number (2 before 3), not the first seat",
        ),
        ([6, 3, 6], Some("Martina"), "Martina", "the owner keeps it when lowest (3 + 2)"),
        ([5, 6, 6], Some("Peter"), "Martina", "the owner's unused engine counts 2: 7 against 6"),
        ([5, 6, 6], None, "Peter", "a discarded engine counts for nobody"),
    ];
    for (hands, owner, receiver, why) in cases {
        let g = game(round_end(hands, owner));
        assert_eq!(g.round(), 2, "{why}");
        assert_eq!(g.black_engine(), Some(seat(&g, receiver)), "{why}");
        assert!(!g.engine_used(), "{why}: unused in the new round");
        assert_eq!(g.seats()[g.mover()].name, "Martina", "turn order 1 moves first");
        assert!(g.turn_cards().iter().all(|c| !c.flipped));
    }
}

/// "In the first round, the black engine automatically goes to the player with the turn order
/// card labeled 1 since all players have the same capital."
#[test]
fn the_black_engine_starts_with_turn_order_1() {
    for seed in 0..4 {
        let g = game(start("usa", 4, seed));
        let owner = g.black_engine().expect("an owner");
        assert_eq!(g.turn_cards()[owner].number, 1);
    }
}

// ---- End of the Game ----

/// The opened USA game with three decks used up (their cards in Martina's hand, but for one
/// through-blue card in Philipp's hand), the end not yet reached.
fn three_decks_empty(length: Length) -> PositionSetup {
    let mut s = opened().to_setup();
    s.length = Some(length);
    for name in ["double-yellow", "double-blue", "through-blue"] {
        for n in s.decks.as_ref().expect("decks")[name].clone() {
            move_card(&mut s, n, Place::Hand("Martina"));
        }
    }
    let one =
        *player(&mut s, "Martina").hand.iter().find(|&&n| deck_name(n) == "through-blue").expect("a blue through");
    move_card(&mut s, one, Place::Hand("Philipp"));
    s
}

/// "The short game ends after the round during which ... 3 decks are used up ... Check at the end
/// of every action if one of the two end conditions is met. If so, finish the current round in
/// full." Ruling G4: a deck refilled later does not undo the end.
#[test]
fn the_short_game_ends_after_the_round_in_which_3_decks_are_used_up() {
    let mut g = game(three_decks_empty(Length::Short));
    assert_eq!(g.empty_decks(), 3);
    assert!(!g.end_reached(), "not checked before an action ends");
    play(&mut g, "A+B");
    let c = a_card(&g);
    play_step(&mut g, pay(c));
    assert!(!g.end_reached(), "in the middle of the action");
    play(&mut g, "done");
    assert!(g.end_reached(), "checked at the end of A");
    play(&mut g, "done");
    assert!(!g.is_over(), "the round is finished in full");
    assert_eq!(g.seats()[g.mover()].name, "Philipp");
    // Philipp refills the blue through deck: the end stands.
    play(&mut g, "A+B");
    let blue = *hand(&g, g.mover()).iter().find(|&&n| deck_name(n) == "through-blue").expect("a blue through");
    play_step(&mut g, pay(blue));
    play(&mut g, "done");
    assert_eq!(g.empty_decks(), 2);
    play(&mut g, "done");
    assert!(g.is_over());
    assert_eq!(g.round(), 1);
    assert!(g.legal(&BestRoute).is_empty());
    assert_eq!(g.check(Step::Pair(Pair::BonusOrder), &BestRoute), Err(StepError::Over));
}

/// "The long game ends after the round during which ... 4 decks are used up."
#[test]
fn the_long_game_needs_4_decks_used_up() {
    let mut g = game(three_decks_empty(Length::Long));
    pass(&mut g);
    assert!(!g.end_reached(), "3 decks are not enough");
    let mut s = three_decks_empty(Length::Long);
    for n in s.decks.as_ref().expect("decks")["double-red"].clone() {
        move_card(&mut s, n, Place::Hand("Martina"));
    }
    let mut g = game(s);
    pass(&mut g);
    assert!(g.end_reached());
    pass(&mut g);
    assert!(g.is_over());
}

/// "The short game ends after the round during which ... 12 or more base cards are upgraded";
/// the long game after 24.
#[test]
fn the_game_ends_after_12_base_cards_upgraded_or_24_in_the_long_game() {
    let base_build = |g: &Game<'_>| -> Option<Step> {
        let mut h = g.clone();
        h.play(Step::Pair(Pair::ExpandShares), &BestRoute).ok()?;
        let c = hand(&h, h.mover()).first().copied()?;
        h.play(pay(c), &BestRoute).ok()?;
        let b = legal_builds(&h).into_iter().find(|b| h.board()[b.cell].card == h.map().cells[b.cell].base)?;
        Some(Step::Build(b))
    };
    let (s, _) = from_random_game(3, &|g| (g.upgraded() == 11 && g.empty_decks() < 3).then(|| base_build(g)).flatten());
    for length in [Length::Short, Length::Long] {
        let mut s = s.clone();
        s.length = Some(length);
        let mut g = game(s);
        let Some(Step::Build(b)) = base_build(&g) else { panic!("a build") };
        play(&mut g, "A+B");
        let c = a_card(&g);
        play_step(&mut g, pay(c));
        play_step(&mut g, Step::Build(b));
        assert_eq!(g.upgraded(), 12);
        if matches!(g.phase(), Phase::Expand { west: true, .. }) {
            play(&mut g, "done");
        }
        play(&mut g, "done");
        assert_eq!(g.end_reached(), length == Length::Short, "{length:?}");
    }
}

// ---- Determine the Winner ----

/// "The player who has accumulated the most capital (the most points) wins. In the case of a tie,
/// the tied player with the most company shares wins. If there is still a tie, the victory is
/// shared."
#[test]
fn the_winner_by_capital_then_shares_then_shared() {
    let red = company("red");
    let over = |hands: [usize; 3], shares: &[(&str, usize)]| -> Vec<String> {
        let mut s = round_end(hands, None);
        s.end_reached = true;
        set_shares(&mut s, red, shares);
        let g = game(s);
        assert!(g.is_over());
        assert_eq!(g.stations(red), 0, "shares worth nothing");
        g.winners().iter().map(|&p| g.seats()[p].name.clone()).collect()
    };
    assert_eq!(over([6, 7, 6], &[("Peter", 1)]), ["Martina"], "the most capital");
    assert_eq!(over([6, 5, 6], &[("Peter", 1)]), ["Peter"], "then the most shares");
    assert_eq!(over([6, 5, 6], &[("Peter", 1), ("Philipp", 1)]), ["Peter", "Philipp"], "then shared");
}

/// A game of Germany for Peter, Martina and Philipp with red and blue stations laid on the board
/// (each card one station of its company, on a station base), yellow routes on route bases, and
/// the base cards replaced in front of the named players.
fn built(stations: &[(&str, &str)], routes: &[&str]) -> PositionSetup {
    let mut s = start("germany", 3, 1);
    for &(c, owner) in stations {
        let k = company(c);
        let one_station = move |x: &Card| x.stations.len() == 1 && x.stations[0].company == Some(k);
        lay_somewhere(&mut s, CardKind::BaseStation, &one_station, owner);
    }
    for &owner in routes {
        lay_somewhere(&mut s, CardKind::BaseRoute, &|x| x.kind == CardKind::Route, owner);
    }
    s
}

/// The rulebook's final example: "a) 10 cards in hand = 10 points; b) 2 red shares (x 3 red
/// stations in network) = 6 points; 3 blue shares (x 2 blue stations in network) = 6 points; 1
/// yellow share (x 0 yellow stations in network) = 0 points; c) 2 pairs of unequal base cards ...
/// = 2 points; d) The black engine = 2 points. In total = 26 points."
#[test]
fn the_final_capital_example_is_26() {
    let mut s = built(
        &[("red", "Peter"), ("red", "Peter"), ("red", "Martina"), ("blue", "Martina"), ("blue", "Martina")],
        &["Peter", "Peter"],
    );
    hand_size(&mut s, "Peter", 10);
    set_shares(&mut s, company("red"), &[("Peter", 2)]);
    set_shares(&mut s, company("blue"), &[("Peter", 3)]);
    set_shares(&mut s, company("yellow"), &[("Peter", 1)]);
    s.black_engine = Some("Peter".into());
    let g = game(s);
    let peter = seat(&g, "Peter");
    assert_eq!((g.stations(company("red")), g.stations(company("blue")), g.stations(company("yellow"))), (3, 2, 0));
    let c = g.capital(peter);
    assert_eq!((c.hand, c.shares, c.pairs, c.black_engine), (10, 12, 2, 2));
    assert_eq!(c.total(), 26);
}

/// The government aid example: "a) 5 cards in hand = 5 points; b) 2 red shares (while there are 2
/// red stations in the network) = 4 points; c) 1 pair of unequal base cards (1 route card + 1
/// station card) = 1 point (the 2 single route cards give no points); d) The black engine = 2
/// points. In total = 12 points."
#[test]
fn the_government_aid_capital_example_is_12() {
    let mut s = built(&[("red", "Peter"), ("red", "Martina")], &["Peter", "Peter", "Peter"]);
    hand_size(&mut s, "Peter", 5);
    set_shares(&mut s, company("red"), &[("Peter", 2)]);
    s.black_engine = Some("Peter".into());
    let g = game(s);
    let peter = seat(&g, "Peter");
    assert_eq!(g.seats()[peter].base_cards.len(), 4);
    let c = g.capital(peter);
    assert_eq!((c.hand, c.shares, c.pairs, c.black_engine), (5, 4, 1, 2));
    assert_eq!(c.total(), 12);
}

// ---- Positions the game refuses ----

fn problems_of(s: &PositionSetup) -> String {
    let text = serde_json::to_string(s).expect("json");
    match Position::from_json("bad.json", &text, cat()) {
        Ok(_) => panic!("a bad position was accepted"),
        Err(e) => e.to_string(),
    }
}

/// Ruling R9: "no card is used more often than it exists"; the message names every place.
#[test]
fn a_card_twice_is_refused_with_its_places() {
    let mut s = start("germany", 3, 1);
    let n = player(&mut s, "Peter").hand[0];
    assert_eq!(card(n).copies, 1);
    put(&mut s, n, Place::Hand("Martina"));
    let e = problems_of(&s);
    assert!(e.starts_with("bad.json: not a legal Express 01 position"), "{e}");
    assert!(
        e.contains(&format!(
            "card {n:03} is used 2 times (player Peter, hand, player Martina, hand), but the set has 1"
        )),
        "{e}"
    );
}

/// "face_up": more face-up cards than the deck holds.
#[test]
fn more_face_up_cards_than_the_deck_holds_is_refused() {
    let mut s = start("usa", 2, 1);
    let held = s.decks.as_ref().expect("decks")["double-yellow"].len();
    s.face_up.insert("double-yellow".into(), held + 1);
    let e = problems_of(&s);
    assert!(
        e.contains(&format!("face_up: deck double-yellow holds {held}, so {} cards cannot lie face up", held + 1)),
        "{e}"
    );
}

/// With the decks given, every card of the map must be somewhere.
#[test]
fn a_card_missing_is_refused() {
    let mut s = start("usa", 2, 1);
    let n = player(&mut s, "Peter").hand[0];
    take_out(&mut s, n);
    let e = problems_of(&s);
    assert!(e.contains(&format!("card {n:03} is missing")), "{e}");
}
