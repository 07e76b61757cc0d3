//! An admissible upper bound on the final score reachable from a position.
//!
//! - **Cubes that can still be placed.** With `D` dice left, `I` cubes in the inventory and `R`,
//!   `W` empty red and white hexes: each die places a cube or gains one (or a worker); a red
//!   cube may place one more without a die, a white cube may gain one more. So `n` more cubes
//!   need `n <= I + gains + whites` and `placed by dice + gains <= D`, `placed by red <= R`, which
//!   gives `2n <= I + D + R + W`, and `n <= D + R`, and `n` at most the empty hexes.
//! - **What they can be worth.** Each empty hex is worth its own points (1 if green, the
//!   per-placed effects of its colour) plus a share of the points its territory pays when filled
//!   (the territory chart, filled-territory effects), spread evenly over the territory's empty
//!   hexes, and a share of the completed-colour point, spread over the colour's empty hexes; the
//!   best `n` hexes are taken, ignoring adjacency and dice. This bound is correct but loose (it
//!   does not yet use the known dice and market): tightening it is the next step.
//!   Filling a set of hexes never pays more than the sum of their shares.
//! - **Effects.** Effects already tucked count; so do all effects of cards still in the market
//!   piles, as long as a yellow cube can still be placed to tuck them.
//! - **Workers.** The track's top, or what the dice and blue cubes could add, whichever is lower.

use signalbox_engine::coe::card::TERRITORY_POINTS;
use signalbox_engine::coe::{Colour, Effect, Game};

/// Shares are counted in twelfths, so that a share of 1, 2, 3 or 4 hexes stays whole.
const SCALE: u32 = 12;

/// An upper bound on the final score reachable from `game`.
pub fn upper_bound(game: &Game<'_>) -> u32 {
    let board = game.board();
    let placed = game.placed();
    let filled = |i: usize| placed >> i & 1 == 1;
    let empty_of = |c: Colour| board.of_colour(c).filter(|&i| !filled(i)).count() as u32;
    let inventory: u32 = game.inventory().iter().map(|&n| u32::from(n)).sum();
    let dice_now = game.dice().iter().filter(|d| d.is_some()).count() as u32;
    let turns = game.turns_left_at_most() as u32;
    // Dice still to roll or use: this turn's unused dice, then two a turn.
    let dice = if game.dice() == [None, None] { 2 * turns } else { dice_now + 2 * turns.saturating_sub(1) };
    let empty = (0..board.hexes.len()).filter(|&i| !filled(i)).count() as u32;
    let (red, white) = (empty_of(Colour::Red), empty_of(Colour::White));
    // Pending red or white choices from this turn give at most one more each: counted as dice.
    let extra = game.pending().map_or(0, |_| 1);
    let n = empty.min((inventory + dice + extra + red + white) / 2).min(dice + extra + red);

    // Effects in play now or possibly later.
    let yellow_possible = empty_of(Colour::Yellow) > 0 || game.pending().is_some();
    let mut effects: Vec<Effect> = game.effects().collect();
    if yellow_possible {
        effects.extend(game.market_cards().filter_map(|id| game.catalogue().card(id)).map(|c| c.market.effect));
    }
    let per_placed = |c: Colour| -> u32 {
        effects
            .iter()
            .map(|e| match *e {
                Effect::PointsPerPlaced { colour, points } if colour == c => points,
                _ => 0,
            })
            .sum()
    };
    let full_bonus = |size: usize| -> u32 {
        effects
            .iter()
            .map(|e| match *e {
                Effect::PointsPerFullTerritory { size: s, points } if s == size => points,
                _ => 0,
            })
            .sum()
    };

    // Points already certain: filled territories, completed colours, placed greens and per-placed
    // effects (counting the possible ones too), filled-territory effects.
    let mut score = 0u32;
    for t in &board.territories {
        if t.iter().all(|&i| filled(i)) {
            score += TERRITORY_POINTS[t.len()] + full_bonus(t.len());
        }
    }
    for c in Colour::ALL {
        let placed_c = board.of_colour(c).filter(|&i| filled(i)).count() as u32;
        if empty_of(c) == 0 {
            score += 1;
        }
        score += placed_c * (per_placed(c) + u32::from(c == Colour::Green));
    }

    // Shares of the empty hexes, in twelfths.
    let mut shares: Vec<u32> = Vec::new();
    for t in &board.territories {
        let empties: Vec<usize> = t.iter().copied().filter(|&i| !filled(i)).collect();
        if empties.is_empty() {
            continue;
        }
        let colour = board.hexes[t[0]].colour;
        let completion = TERRITORY_POINTS[t.len()] + full_bonus(t.len());
        for _ in &empties {
            let own = per_placed(colour) + u32::from(colour == Colour::Green);
            // The completed colour's point, spread over the colour's empty hexes.
            let colour_share = SCALE / empty_of(colour);
            shares.push(own * SCALE + completion * SCALE / empties.len() as u32 + colour_share);
        }
    }
    shares.sort_unstable_by(|a, b| b.cmp(a));
    let placing: u32 = shares.iter().take(n as usize).sum::<u32>().div_ceil(SCALE);

    // Workers at the end.
    let rules = game.rules();
    let per_worker = effects.contains(&Effect::PointsPerWorker);
    let gain = 2 * (dice + empty_of(Colour::Blue) + empty_of(Colour::Green));
    let workers = (u32::from(game.workers()) + gain).min(u32::from(rules.max_workers));
    let workers_points = if per_worker { workers } else { workers / 2 };

    score + placing + workers_points
}
