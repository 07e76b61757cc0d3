//! Hand-set rule tests for Cube Express: each builds a small position and plays the rule.

use std::sync::Arc;

use signalbox_engine::cube_express::action::{Action, Lay, Payment};
use signalbox_engine::cube_express::board::{LayError, Piece, Placed};
use signalbox_engine::cube_express::catalogue::{Content, HOUSE_SET_TOML};
use signalbox_engine::cube_express::game::{Ending, Game, Illegal, State};
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::{Record, from_state, read_position};
use signalbox_engine::cube_express::resource::{Conversion, Resources};
use signalbox_engine::cube_express::score::final_scores;
use signalbox_engine::cube_express::tile::Face;
use signalbox_engine::grid::square::Cell;

fn content() -> Arc<Content> {
    Arc::new(Content::house())
}

/// Seed 7, 2 players, red (seat 0) to play first, with `edit` applied to the state.
fn position(edit: impl FnOnce(&mut State)) -> Game {
    let game = Game::new(content(), 2, 7, Options::default()).expect("setup");
    let mut s = game.state();
    s.first = 0;
    s.active = 0;
    edit(&mut s);
    from_state(content(), &s).unwrap_or_else(|p| panic!("test position refused: {p:?}"))
}

/// Moves tile `id` from wherever it is into `seat`'s hand (swapping with a hand tile).
fn give(s: &mut State, seat: usize, id: u8) {
    if s.players[seat].hand.contains(&id) {
        return;
    }
    let out = s.players[seat].hand.remove(0);
    let spot = s
        .stack
        .iter_mut()
        .flatten()
        .chain(s.display.iter_mut().flatten())
        .chain(s.players.iter_mut().flat_map(|p| p.hand.iter_mut()))
        .find(|x| **x == id)
        .expect("tile in play");
    *spot = out;
    s.players[seat].hand.push(id);
}

/// Puts tile `id` on the board at `cell`, taking it out of the stack, display or a hand.
fn lay_on_board(s: &mut State, id: u8, cell: [i32; 2], rotation: u8) -> usize {
    give(s, 0, id);
    s.players[0].hand.retain(|&x| x != id);
    // Keep the hand at three tiles.
    let refill = s.stack.as_mut().and_then(Vec::pop).expect("stack");
    s.players[0].hand.push(refill);
    s.board.push(Placed::new(Cell::from(cell), Piece::Front { tile: id, rotation }, Face::default(), Some(0)));
    s.board.len() - 1
}

/// Gives `seat` resources out of its reserve.
fn store(s: &mut State, seat: usize, r: Resources) {
    s.players[seat].reserve -= r.total();
    s.players[seat].store = r;
}

fn lay(tile: u8, cell: [i32; 2], rotation: u8) -> Lay {
    Lay { tile, back: false, cell: Cell::from(cell), rotation, act: false, pay: Payment::default() }
}

fn mv(locomotive: u8, to: [i32; 2]) -> Action {
    Action::Move { locomotive, to: Cell::from(to) }
}

fn assert_running_scores(game: &Game) {
    let scores = final_scores(game);
    for (seat, p) in game.players().iter().enumerate() {
        assert_eq!(p.banked, scores[seat].banked(), "running score of seat {seat}");
        assert_eq!(game.cubes_of(seat), 25);
    }
}

#[test]
fn the_house_set_matches_the_rulebook_counts() {
    let c = Content::house();
    assert!(c.house_set);
    assert_eq!(c.tiles.len(), 44);
    assert_eq!(c.objectives.len(), 14);
    let used = |n| c.tiles.iter().filter(|t| t.players.used_with(n)).count();
    assert_eq!((used(2), used(3), used(4)), (30, 36, 44));
}

#[test]
fn bad_content_is_refused_with_every_problem() {
    let broken = HOUSE_SET_TOML.replacen("levels = [3, 4, 5, 6, 7, 8]", "levels = [3, 4, 4, 6, 7, 8]", 1);
    let broken = broken.replacen("tracks = \"NESW\"", "tracks = \"NNSW\"", 1);
    let e = Content::from_toml("bad.toml", &broken).expect_err("refused").to_string();
    assert!(e.contains("bad.toml") && e.contains("technology.levels") && e.contains("tile[0] (id 1).tracks"), "{e}");
    let e = Content::from_toml("bad.toml", "[set]\nname = 3\n").expect_err("refused").to_string();
    assert!(e.starts_with("bad.toml:2:"), "{e}");
}

/// A value of the wrong shape is named by its field path, in the format's words, never by the
/// name of a Rust type.
#[test]
fn content_errors_name_the_field_path_in_the_formats_words() {
    for (from, to, path, expected) in [
        ("house_set = true", "house_set = \"yes\"", "set.house_set", "expected a boolean"),
        ("levels = [3, 4, 5, 6, 7, 8]", "levels = [3, 4, 5, 6, 7, 800]", "technology.levels[5]", "from 0 to 255"),
        ("city = { houses = 1, sides = \"W\" }", "city = \"W\"", "start.tile[0].city", "expected a table"),
        (
            "condition = { kind = \"stations\", at_least = 3 }",
            "condition = 3",
            "objective[0].condition",
            "expected a table",
        ),
        ("needs = [\"coal\", \"coal\"]", "needs = \"coal\"", "tile[1].factory.needs", "expected an array"),
    ] {
        assert!(HOUSE_SET_TOML.contains(from), "{from}");
        let broken = HOUSE_SET_TOML.replacen(from, to, 1);
        let e = Content::from_toml("bad.toml", &broken).expect_err("refused").to_string();
        assert!(e.contains(&format!("field `{path}`")) && e.contains(expected), "{to}: {e}");
        assert!(!e.contains("struct") && !e.contains("Setup") && !e.contains("u8"), "{to}: {e}");
    }
}

#[test]
fn setups_follow_the_seed_and_the_player_count() {
    let a = Game::new(content(), 2, 1, Options::default()).expect("setup");
    let b = Game::new(content(), 2, 1, Options::default()).expect("setup");
    assert_eq!(a.state(), b.state());
    assert_eq!(a.stack().len(), 30 - 6 - 4);
    assert_eq!(a.neutral_cubes(0), 3);
    let four = Game::new(content(), 4, 1, Options::default()).expect("setup");
    assert_eq!(four.stack().len(), 44 - 12 - 4);
    assert_eq!(four.neutral_cubes(3), 0);
    assert!(Game::new(content(), 5, 1, Options::default()).is_err());
    // Golden: seed 1 with 3 players.
    let g = Game::new(content(), 3, 1, Options::default()).expect("setup");
    let golden = (g.display(), g.objectives(), g.first_player(), Vec::new());
    assert_eq!(golden, GOLDEN_SEED_1, "seed 1 must give the same setup on every machine");
    assert_eq!(g.players()[0].hand, [19, 24, 29]);
    // Golden: the solitaire game of seed 1 draws the 2-player shuffle of seed 1, one tile a turn.
    let solo = Game::solo(content(), 1, Options::default()).expect("setup");
    let mut order = solo.players()[0].hand.clone();
    order.extend(solo.stack().iter().rev().take(5));
    assert_eq!(order, [10, 24, 23, 7, 36, 8], "seed 1 must give the same solitaire tiles on every machine");
    assert_eq!(solo.stack().len() + 1, 30);
}

type Setup = ([Option<u8>; 4], [u8; 4], u8, Vec<u8>);
const GOLDEN_SEED_1: Setup = ([Some(5), Some(30), Some(7), Some(37)], [13, 6, 12, 3], 2, Vec::new());

#[test]
fn a_tile_must_match_every_neighbour_and_join_the_network() {
    let game = position(|s| {
        give(s, 0, 42);
        give(s, 0, 15);
    });
    // Tile 15 (EW) north of red's start: red's track leads north, tile 15 has none there.
    let e = game.clone().apply(&Action::Lay(lay(15, [0, -2], 0))).expect_err("mismatch");
    assert_eq!(e, Illegal::Lay(LayError::Mismatch { cell: Cell::new(0, -2), side: 'S' }));
    let e = game.clone().apply(&Action::Lay(lay(42, [5, 5], 0))).expect_err("alone");
    assert_eq!(e, Illegal::Lay(LayError::Alone(Cell::new(5, 5))));
    let mut g = game.clone();
    g.apply(&Action::Lay(lay(42, [0, -2], 0))).expect("tile 42 (NS) continues red's track");
    assert_eq!(g.board().at(Cell::new(0, -2)).map(|t| t.laid_by), Some(Some(0)));
}

#[test]
fn a_tile_never_joins_two_cities_with_stations() {
    let game = position(|s| {
        // Blue's station in a city touching the south side of [-1, -2], joined to the network
        // through tile 19 (tracks S and W) north of red's start.
        lay_on_board(s, 19, [0, -2], 3);
        let i = lay_on_board(s, 42, [-1, -2], 1);
        s.board[i].station = Some(1);
        s.players[1].built = 1;
        give(s, 0, 24);
    });
    // Tile 24 turned once: tracks S and W, city N and E, joining blue's city and red's start city.
    let e = game.clone().apply(&Action::Lay(lay(24, [-1, -1], 1))).expect_err("joins two stations");
    assert_eq!(e, Illegal::Lay(LayError::JoinsStations(Cell::new(-1, -1))));
}

#[test]
fn a_station_costs_the_technology_level_and_raises_it() {
    let game = position(|s| {
        give(s, 0, 42);
        store(s, 0, Resources { coal: 1, wood: 0, iron: 0 });
    });
    assert_eq!(game.tech_level(0), 3);
    let build = |pay| Action::Lay(Lay { act: true, pay, ..lay(42, [0, -2], 0) });
    let short = Payment { dividends: 2, ..Payment::default() };
    assert_eq!(game.clone().apply(&build(short)), Err(Illegal::Payment { cost: 3, paid: 2 }));
    let mut g = game.clone();
    g.apply(&build(Payment { dividends: 2, coal: 1, ..Payment::default() })).expect("paid 3");
    assert_eq!((g.tech_level(0), g.players()[0].built, g.players()[0].dividends), (4, 1, 0));
    assert_eq!(final_scores(&g)[0].stations, 3 + 3 * 2, "start city 1 house, new city 2 houses");
    assert_eq!(g.movement_left(), 4);
    assert_running_scores(&g);
    // With the dividends-only option, resources cannot pay.
    let strict = position(|s| {
        s.options.station_payment = signalbox_engine::cube_express::options::StationPayment::DividendsOnly;
        give(s, 0, 42);
        store(s, 0, Resources { coal: 1, wood: 0, iron: 0 });
    });
    assert!(strict.clone().apply(&build(Payment { dividends: 2, coal: 1, ..Payment::default() })).is_err());
}

/// A line north of red's start: [0,-2] wood facility (tile 27), [0,-3] a crossing with a factory
/// needing coal and wood (tile 10), [0,-4] a coal facility (tile 28 turned to NS).
fn line() -> Game {
    position(|s| {
        lay_on_board(s, 27, [0, -2], 0);
        lay_on_board(s, 10, [0, -3], 0);
        lay_on_board(s, 28, [0, -4], 1);
        give(s, 0, 1);
    })
}

fn laid(game: &Game) -> Game {
    let mut g = game.clone();
    // Tile 1 (NESW crossing) east of the crossing's north neighbour: [1,-1] is beside red's E track.
    g.apply(&Action::Lay(lay(1, [1, -1], 0))).expect_err("blue's north side has no track");
    g.apply(&Action::Lay(Lay { back: true, ..lay(1, [0, -5], 0) })).expect("a back side (NS) at the end of the line");
    g
}

#[test]
fn locomotives_move_forward_within_their_movement_points() {
    let mut g = laid(&line());
    assert_eq!(g.movement_left(), 3);
    g.apply(&mv(0, [0, -2])).expect("north");
    assert!(g.clone().apply(&mv(0, [0, -1])).is_err(), "never back onto a tile of this movement");
    g.apply(&Action::Pickup).expect("wood");
    assert!(g.clone().apply(&Action::Pickup).is_err(), "one pickup per entry");
    g.apply(&mv(0, [0, -3])).expect("north");
    g.apply(&mv(0, [0, -4])).expect("north");
    assert_eq!(g.movement_left(), 0);
    assert!(g.clone().apply(&mv(0, [0, -5])).is_err(), "out of movement points");
    g.apply(&Action::Pickup).expect("coal");
    g.apply(&Action::Coal).expect("spend it");
    g.apply(&mv(0, [0, -5])).expect("one more tile");
    assert_eq!(g.players()[0].store, Resources { coal: 0, wood: 1, iron: 0 });
    assert_running_scores(&g);
}

/// An action in words says what it takes and gives and where, with locomotives and columns
/// named first to fourth as players count them.
#[test]
fn actions_in_words_say_what_and_where_in_a_players_words() {
    let mut g = position(|s| {
        lay_on_board(s, 27, [0, -2], 0);
        lay_on_board(s, 11, [0, -3], 0);
        store(s, 0, Resources { coal: 2, wood: 2, iron: 1 });
        give(s, 0, 28);
    });
    let say = |g: &mut Game, a: Action, expected: &str| {
        let words = g.describe(&a);
        assert!(words.contains(expected), "{a:?}: {words:?} lacks {expected:?}");
        g.apply(&a).expect("legal");
    };
    say(
        &mut g,
        Action::Lay(lay(28, [0, -4], 1)),
        "lay tile 28 (production centre, tracks EW as printed) front up on [0, -4], turned 1 quarter turn clockwise, without its centre action",
    );
    say(&mut g, mv(0, [0, -2]), "the first locomotive moves from [0, -1] to [0, -2] (2 movement points left)");
    say(&mut g, Action::Pickup, "pick up 1 wood from the production facility on [0, -2] (nobody owns it)");
    say(&mut g, mv(0, [0, -3]), "the first locomotive moves from [0, -2] to [0, -3] (1 movement point left)");
    say(
        &mut g,
        Action::Deliver { objective: Some(2) },
        "deliver 1 coal, 1 wood and 1 iron to the factory on [0, -3]: a cube on its space A (8 points, stock +2), a \
         dividend, and a cube on the third column's objective card",
    );
    let tile = g.display()[3].expect("a display tile");
    say(
        &mut g,
        Action::Market { slot: 3, cube: true },
        &format!("take tile {tile} from the fourth display column and place a dividend"),
    );
    say(&mut g, Action::Sell { spaces: 1 }, "sell 1 space of stock (disc from space 3 to 2) for 1 dividend");
}

#[test]
fn deliveries_score_first_and_later_spaces_and_raise_the_stock() {
    let game = position(|s| {
        lay_on_board(s, 27, [0, -2], 0);
        // Tile 11: a factory needing coal, wood and iron (A 8, B 4).
        lay_on_board(s, 11, [0, -3], 0);
        store(s, 0, Resources { coal: 2, wood: 2, iron: 1 });
        store(s, 1, Resources { coal: 1, wood: 1, iron: 1 });
        give(s, 0, 28);
    });
    let mut g = game.clone();
    g.apply(&Action::Lay(lay(28, [0, -4], 1))).expect("lay");
    g.apply(&mv(0, [0, -2])).expect("move");
    g.apply(&mv(0, [0, -3])).expect("move");
    assert_eq!(
        g.clone().apply(&Action::Deliver { objective: None }),
        Err(Illegal::Objective("a delivery places a cube on an objective card of your choice"))
    );
    g.apply(&Action::Deliver { objective: Some(2) }).expect("first delivery");
    assert!(g.clone().apply(&Action::Deliver { objective: Some(2) }).is_err(), "one delivery per action");
    let red = &g.players()[0];
    assert_eq!((red.stock, red.dividends, red.store), (3, 3, Resources { coal: 1, wood: 1, iron: 0 }));
    assert_eq!(g.objective_cubes(2)[0], 1);
    assert_eq!(final_scores(&g)[0].factories, 8);
    assert_running_scores(&g);
    g.apply(&Action::Market { slot: 0, cube: false }).expect("market");
    g.apply(&Action::End { discard: Resources::NONE }).expect("end");
    // Blue delivers to the same factory: the second space.
    assert_eq!(g.active(), 1);
    let lay_any = g.legal_lays()[0];
    g.apply(&Action::Lay(lay_any)).expect("lay");
    g.apply(&Action::Move { locomotive: 0, to: Cell::new(0, 0) }).expect("to the crossing");
    g.apply(&Action::Pickup).expect("the crossing's coal");
    g.apply(&mv(0, [0, -1])).expect("red's start");
    g.apply(&mv(0, [0, -2])).expect("wood facility");
    assert_eq!(g.movement_left(), 0);
    g.apply(&Action::Coal).expect("coal for a move");
    g.apply(&mv(0, [0, -3])).expect("factory");
    g.apply(&Action::Deliver { objective: Some(0) }).expect("a later delivery");
    let blue = &g.players()[1];
    assert_eq!((blue.stock, blue.store), (2, Resources::NONE));
    assert_eq!(g.board().at(Cell::new(0, -3)).map(|t| (t.first, t.later)), Some((Some(0), [0, 1, 0, 0])));
    assert_eq!(final_scores(&g)[1].factories, 4);
    assert_running_scores(&g);
}

#[test]
fn pickups_from_an_owned_facility_raise_its_owner_and_dollar_spaces_pay() {
    let game = position(|s| {
        let i = lay_on_board(s, 19, [1, -1], 0);
        s.board[i].owner = Some(1);
        s.players[1].dividends -= 1;
        s.players[1].stock = 4;
        give(s, 0, 42);
    });
    // Tile 19 (NW): its W track meets red's E track; blue's start has no track north.
    let mut g = game.clone();
    g.apply(&Action::Lay(lay(42, [0, -2], 0))).expect("lay");
    g.apply(&mv(0, [1, -1])).expect("east onto the facility");
    g.apply(&Action::Pickup).expect("coal");
    let blue = &g.players()[1];
    assert_eq!((blue.stock, blue.dividends, blue.dollars), (5, 2, [false, true, true]), "space 5 is a $ space");
    assert_running_scores(&g);
}

#[test]
fn reaching_the_stock_maximum_gives_a_token_and_ends_the_game_after_the_round() {
    let game = position(|s| {
        let i = lay_on_board(s, 19, [1, -1], 0);
        s.board[i].owner = Some(1);
        s.players[1].dividends -= 1;
        s.players[1].stock = 19;
        s.players[1].dollars = [false; 3];
        s.players[1].dividends += 3;
        give(s, 0, 42);
    });
    let mut g = game.clone();
    g.apply(&Action::Lay(lay(42, [0, -2], 0))).expect("lay");
    g.apply(&mv(0, [1, -1])).expect("move");
    g.apply(&Action::Pickup).expect("coal");
    assert_eq!((g.players()[1].stock, g.players()[1].tokens, g.tokens_left()), (20, 1, 5));
    assert_eq!(g.ending(), Ending::RoundEnd);
    g.apply(&Action::Market { slot: 1, cube: true }).expect("market with an objective cube");
    g.apply(&Action::End { discard: Resources::NONE }).expect("end");
    assert!(!g.is_over(), "blue still plays this round");
    let l = g.legal_lays()[0];
    for a in [Action::Lay(l), Action::Market { slot: 0, cube: false }, Action::End { discard: Resources::NONE }] {
        g.apply(&a).expect("blue's last turn");
    }
    assert!(g.is_over());
    assert_running_scores(&g);
}

#[test]
fn the_last_station_gives_a_token() {
    let game = position(|s| {
        s.players[0].built = 4;
        // Four station tiles, each in a city of its own, south of yellow's start, east of
        // blue's, west of green's and east of red's.
        for (id, cell, rotation) in [(31u8, [0, 2], 0), (33, [2, 0], 0), (34, [-2, 0], 0), (38, [1, -1], 2)] {
            let b = lay_on_board(s, id, cell, rotation);
            s.board[b].station = Some(0);
        }
        give(s, 0, 42);
        s.players[0].dividends = 7;
        s.players[0].reserve -= 5;
    });
    let mut g = game.clone();
    let pay = Payment { dividends: 7, ..Payment::default() };
    g.apply(&Action::Lay(Lay { act: true, pay, ..lay(42, [0, -2], 0) })).expect("the last station");
    assert_eq!((g.players()[0].built, g.players()[0].tokens, g.ending()), (5, 1, Ending::RoundEnd));
    assert_eq!(g.tech_level(0), 8);
    assert_running_scores(&g);
}

#[test]
fn an_empty_stack_starts_a_final_round_without_market() {
    let mut g = position(|s| {
        // Every tile of the stack but one, back up, in a straight line south of yellow's start.
        let mut y = 2;
        while s.stack.as_ref().map_or(0, Vec::len) > 1 {
            let id = s.stack.as_mut().expect("stack").remove(0);
            let cell = [0, y];
            y += 1;
            s.board.push(Placed::new(Cell::from(cell), Piece::Back { tile: id, rotation: 0 }, Face::default(), None));
        }
    });
    for turn in 0..3 {
        let l = g.legal_lays()[0];
        g.apply(&Action::Lay(l)).expect("lay");
        if turn == 0 {
            g.apply(&Action::Market { slot: 0, cube: false }).expect("the last tile goes to the display");
            assert_eq!(g.stack().len(), 0);
        } else {
            assert!(g.clone().apply(&Action::Market { slot: 0, cube: false }).is_err(), "no market in the final round");
            g.apply(&Action::NoMarket).expect("final round");
        }
        g.apply(&Action::End { discard: Resources::NONE }).expect("end");
    }
    assert!(g.is_over(), "each of the 2 players had one final turn");
}

#[test]
fn the_storage_limit_applies_at_the_end_of_the_turn() {
    let mut g = position(|s| store(s, 0, Resources { coal: 3, wood: 2, iron: 0 }));
    let l = g.legal_lays()[0];
    g.apply(&Action::Lay(l)).expect("lay");
    g.apply(&Action::Market { slot: 0, cube: false }).expect("market");
    assert!(g.clone().apply(&Action::End { discard: Resources::NONE }).is_err());
    assert!(g.clone().apply(&Action::End { discard: Resources { coal: 1, wood: 0, iron: 0 } }).is_err());
    g.apply(&Action::Convert { conversion: Conversion::WoodToCoal }).expect("2 wood into coal and a dividend");
    g.apply(&Action::End { discard: Resources { coal: 1, wood: 0, iron: 0 } }).expect("4 resources, limit 3");
    assert_eq!(g.players()[0].store, Resources { coal: 3, wood: 0, iron: 0 });
    assert_running_scores(&g);
}

#[test]
fn the_second_locomotive_and_one_locomotive_at_a_time() {
    let mut g = position(|s| store(s, 0, Resources { coal: 1, wood: 0, iron: 1 }));
    let l = g.legal_lays().into_iter().find(|l| !l.act).expect("a lay");
    g.apply(&Action::Lay(l)).expect("lay");
    g.apply(&mv(0, [0, 0])).expect("first locomotive to the crossing");
    assert!(g.clone().apply(&Action::BuildLocomotive { at: Cell::new(1, 0) }).is_err(), "blue's station");
    g.apply(&Action::BuildLocomotive { at: Cell::new(0, -1) }).expect("at red's start station");
    g.apply(&mv(1, [0, 0])).expect("second locomotive moves");
    assert!(g.clone().apply(&mv(0, [1, 0])).is_err(), "the first has finished");
    assert_eq!(g.movement_left(), 1);
}

#[test]
fn passengers_wait_in_station_cities_one_per_house() {
    let mut g = position(|_| {});
    let l = g.legal_lays().into_iter().find(|l| !l.act).expect("a lay");
    g.apply(&Action::Lay(l)).expect("lay");
    g.apply(&mv(0, [0, 0])).expect("crossing");
    assert!(g.clone().apply(&Action::Passenger).is_err(), "no city at the crossing");
    g.apply(&mv(0, [1, 0])).expect("blue's start: a city of 1 house with blue's station");
    g.apply(&Action::Passenger).expect("a passenger");
    assert_eq!(final_scores(&g)[0].passengers, 1);
    assert_running_scores(&g);
    let off = position(|s| s.options.passengers = signalbox_engine::cube_express::options::Passengers::Off);
    let mut h = off.clone();
    let l = h.legal_lays().into_iter().find(|l| !l.act).expect("a lay");
    h.apply(&Action::Lay(l)).expect("lay");
    h.apply(&mv(0, [0, 0])).expect("crossing");
    h.apply(&mv(0, [1, 0])).expect("blue's start");
    assert!(h.apply(&Action::Passenger).is_err());
}

#[test]
fn positions_round_trip_and_bad_ones_list_their_problems() {
    let g = line();
    let text = serde_json::to_string_pretty(&g.state()).expect("json");
    let back = read_position(content(), "p.json", &text).expect("reads");
    assert_eq!(back.state(), g.state());
    let mut s = g.state();
    s.players[0].reserve += 1;
    let first = s.stack.as_ref().expect("stack")[0];
    s.stack.as_mut().expect("stack").push(first);
    let problems = from_state(content(), &s).expect_err("refused");
    assert!(problems.iter().any(|p| p.contains("26 cubes counted")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("more than one place")), "{problems:?}");
    let e = read_position(content(), "p.json", "{\"players\": 3}").expect_err("refused").to_string();
    assert!(e.starts_with("p.json:1:"), "{e}");
}

/// Every tile is joined to the start crossing by track (rulebook, step I.1): a tile moved away
/// from the network, or left beside it with no track joining it, is refused by its field path.
#[test]
fn a_tile_not_joined_to_the_network_is_refused() {
    let g = line();
    let last = g.board().tiles().len() - 1;
    for cell in [Cell::new(1_000_000, 1), Cell::new(i32::MAX, i32::MIN), Cell::new(1, -4)] {
        let mut s = g.state();
        s.board[last].cell = cell;
        let problems = from_state(content(), &s).expect_err("refused");
        assert!(
            problems.iter().any(|p| p.starts_with(&format!("board[{last}].cell: tile 28 at {cell} is not joined"))),
            "{cell}: {problems:?}"
        );
    }
    // Tile 28 (coal facility) at the end of the line turned to tracks E and W: the line's track
    // from the south ends at a side without track, so nothing joins it.
    let mut s = g.state();
    s.board[last].piece = Piece::Front { tile: 28, rotation: 0 };
    let problems = from_state(content(), &s).expect_err("refused");
    assert!(problems.iter().any(|p| p.contains("not joined")), "{problems:?}");
}

/// Unknown fields are refused by their JSON path inside actions, board pieces and the ending, as
/// they are at the top level.
#[test]
fn unknown_fields_are_refused_inside_actions_pieces_and_the_ending() {
    use signalbox_engine::cube_express::position::read_record;
    for (action, expected) in [
        (r#"{"do": "no-lay", "tile": 3}"#, "unknown field `tile` in an action (`do`: `no-lay`)"),
        (r#"{"do": "pickup", "from": [0, 0]}"#, "unknown field `from` in an action (`do`: `pickup`)"),
        (r#"{"do": "market", "slot": 0, "cubes": true}"#, "unknown field `cubes`"),
        (r#"{"do": "end", "discard": {"coal": 1, "stone": 1}}"#, "field `turns[0][0].discard.stone`"),
        (r#"{"do": "move", "locomotive": 0}"#, "missing field `to`"),
        (r#"{"do": "jump"}"#, "unknown `do` value `jump`"),
    ] {
        let text = format!(r#"{{"players": 2, "seed": 1, "turns": [[{action}]]}}"#);
        let e = read_record("r.json", &text).expect_err("refused").to_string();
        assert!(e.contains("turns[0][0]") && e.contains(expected), "{action}: {e}");
    }
    let state = serde_json::to_value(line().state()).expect("JSON");
    let mut v = state.clone();
    v["ending"] = serde_json::json!({"state": "playing", "left": 2});
    let e = read_position(content(), "p.json", &v.to_string()).expect_err("refused").to_string();
    assert!(e.contains("field `ending`: unknown field `left`"), "{e}");
    let mut v = state.clone();
    v["board"][0]["piece"] = serde_json::json!({"kind": "crossing", "seat": 0});
    let e = read_position(content(), "p.json", &v.to_string()).expect_err("refused").to_string();
    assert!(e.contains("field `board[0].piece`: unknown field `seat`"), "{e}");
    // What was written reads back.
    let actions = vec![
        Action::NoLay,
        Action::Pickup,
        Action::Deliver { objective: None },
        Action::Deliver { objective: Some(2) },
    ];
    let text = serde_json::to_string(&actions).expect("JSON");
    assert_eq!(serde_json::from_str::<Vec<Action>>(&text).expect("reads back"), actions);
}

#[test]
fn records_replay_and_a_wrong_action_names_its_turn() {
    let mut g = Game::new(content(), 3, 11, Options::default()).expect("setup");
    let mut turns = Vec::new();
    for _ in 0..6 {
        let l = g.legal_lays()[0];
        let turn =
            vec![Action::Lay(l), Action::Market { slot: 1, cube: false }, Action::End { discard: Resources::NONE }];
        g = g.play_turn(&turn).expect("legal");
        turns.push(turn);
    }
    let record = Record::new(3, 11, Options::default(), turns);
    let replayed = record.replay(content(), "r.json").expect("replays");
    assert_eq!(replayed.state(), g.state());
    let mut bad = record.clone();
    bad.turns[4][1] = Action::Market { slot: 9, cube: false };
    let e = bad.replay(content(), "r.json").expect_err("refused").to_string();
    assert!(e.contains("turns[4][1]"), "{e}");
}

#[test]
fn a_delivery_of_two_resources_places_no_objective_cube() {
    let mut g = position(|s| {
        lay_on_board(s, 27, [0, -2], 0);
        lay_on_board(s, 10, [0, -3], 0);
        store(s, 0, Resources { coal: 1, wood: 1, iron: 0 });
    });
    let l = g.legal_lays().into_iter().find(|l| !l.act).expect("a lay");
    g.apply(&Action::Lay(l)).expect("lay");
    g.apply(&mv(0, [0, -2])).expect("move");
    g.apply(&mv(0, [0, -3])).expect("move");
    assert!(g.clone().apply(&Action::Deliver { objective: Some(0) }).is_err());
    g.apply(&Action::Deliver { objective: None }).expect("coal and wood: factory cube and dividend");
    assert_eq!((g.players()[0].dividends, g.players()[0].store), (3, Resources::NONE));
    assert_running_scores(&g);
}

/// A tile whose city space joins the city of a station with a city without one raises the
/// station by 3 points per house icon of both the other city and the new space (regression:
/// `tests/fixtures/cube_express/regressions/city-bridge.json`, where red's 1-house start city and
/// a 2-house city are joined by tile 40's 3-house space). Every lay of that position, with and
/// without its action, keeps the running scores equal to final scoring from scratch.
#[test]
fn a_tile_joining_two_cities_scores_the_merged_city() {
    let text = include_str!("../../tests/fixtures/cube_express/regressions/city-bridge.json");
    let game = read_position(content(), "city-bridge.json", text).expect("the position reads");
    let before = final_scores(&game)[0].stations;
    let lays = game.legal_lays();
    assert!(!lays.is_empty());
    let mut merged = 0;
    for l in lays {
        let mut g = game.clone();
        g.apply(&Action::Lay(l)).expect("a legal lay");
        assert_running_scores(&g);
        let cities = g.board().cities();
        let start = g.board().index_of(Cell::new(0, -1)).and_then(|i| cities.city_of[i]).expect("red's start city");
        if cities.houses[start] == 6 {
            merged += 1;
            assert_eq!(final_scores(&g)[0].stations - before, 15, "{l:?}: red's station from 1 to 6 houses");
        }
    }
    assert!(merged > 0, "some lay joins the two cities");
}
