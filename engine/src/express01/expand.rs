//! One upgrade of "A) Expand the Network": whether a card may replace the card on a cell of the
//! board. The rules, in the rulebook's order: only a listed number, no skipped stage, an upgrade
//! of a base card continues at least one track of an adjacent card (except the game's first
//! station), an upgrade of an upgrade keeps every track, the water tower keeps its alignment,
//! and no open track heads for the sea, a border or the blockade. What the upgrade costs and
//! where the cards go is the game's business, not this module's.

use super::card::{CardKind, CardNumber, Stage};
use super::catalogue::Catalogue;
use super::map::Map;
use super::position::Placement;
use super::side::Side;

/// One upgrade: the card laid on a cell (by index in [`Map::cells`]), turned or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Upgrade {
    /// The cell.
    pub cell: usize,
    /// The new card.
    pub card: CardNumber,
    /// Whether it is turned 180 degrees.
    pub turned: bool,
}

/// Why an upgrade is not allowed, each with the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UpgradeProblem {
    /// No such cell or card.
    #[error("no cell {cell} or no card {card} in this content")]
    Unknown {
        /// The cell index.
        cell: usize,
        /// The card.
        card: CardNumber,
    },
    /// The card is of a kind this map does not play, or a base card.
    #[error("card {card} ({kind}) is not an upgrade card of this map")]
    NotPlayed {
        /// The card.
        card: CardNumber,
        /// Its kind.
        kind: CardKind,
    },
    /// The card is not listed in the lower right corner of the card it would replace.
    #[error(
        "card {card} is not listed on card {replaced}, which lists {listed} (\"the new card's number must be listed\")"
    )]
    NotListed {
        /// The new card.
        card: CardNumber,
        /// The card it would replace.
        replaced: CardNumber,
        /// The numbers listed.
        listed: String,
    },
    /// The card is not one stage above the card it would replace.
    #[error(
        "card {card} is of the {stage} stage; card {replaced} takes the {needed} stage (\"You may not skip a stage\")"
    )]
    Stage {
        /// The new card.
        card: CardNumber,
        /// Its stage.
        stage: &'static str,
        /// The card it would replace.
        replaced: CardNumber,
        /// The stage it takes.
        needed: &'static str,
    },
    /// An upgrade of a base card continues no track of an adjacent card.
    #[error(
        "card {card} continues no track of an adjacent card (\"the new (yellow) card must continue at least one track of an adjacent card\")"
    )]
    NoConnection {
        /// The new card.
        card: CardNumber,
    },
    /// The game's first build must be a station, on one of the map's first cells if it has any.
    #[error("the first build of the game must be a station{on}")]
    FirstBuild {
        /// Where, if the map says.
        on: String,
    },
    /// The upgrade loses a track, the water tower's alignment or a station's company.
    #[error(
        "card {card}{turned} does not keep every track, the water tower and the companies of card {replaced} (\"A built track can never disappear\")"
    )]
    NotKept {
        /// The new card.
        card: CardNumber,
        /// " turned" when turned.
        turned: &'static str,
        /// The card it would replace.
        replaced: CardNumber,
    },
    /// A track of the new card heads for the sea, a border or the blockade.
    #[error("card {card}{turned} has a track heading {side} for {beyond} (\"open tracks are forbidden\" there)")]
    OpenTrack {
        /// The new card.
        card: CardNumber,
        /// " turned" when turned.
        turned: &'static str,
        /// The side.
        side: Side,
        /// What lies beyond.
        beyond: &'static str,
    },
}

/// The stage a card replacing `replaced` must have: yellow over a base card, else the next.
fn stage_over(kind: CardKind, stage: Stage) -> Option<Stage> {
    if kind.is_base() { Some(Stage::Yellow) } else { stage.next() }
}

/// Whether `upgrade` may be made on `board` (the card on each cell, in the map's order).
/// `first_build` is true for the game's very first build (the first player's first turn): it
/// must lay a station, on one of the map's first cells where the map names them (USA: 064, 071,
/// 072), and needs no adjacent track to continue.
pub fn check_upgrade(
    catalogue: &Catalogue,
    map: &Map,
    board: &[Placement],
    upgrade: Upgrade,
    first_build: bool,
) -> Result<(), UpgradeProblem> {
    let unknown = UpgradeProblem::Unknown { cell: upgrade.cell, card: upgrade.card };
    let (Some(cell), Some(on)) = (map.cells.get(upgrade.cell), board.get(upgrade.cell)) else { return Err(unknown) };
    let (Some(new), Some(old)) = (catalogue.card(upgrade.card), catalogue.card(on.card)) else { return Err(unknown) };
    if new.kind.is_base() || !map.kinds.contains(&new.kind) {
        return Err(UpgradeProblem::NotPlayed { card: new.number, kind: new.kind });
    }
    if !old.upgrades.contains(&new.number) {
        return Err(UpgradeProblem::NotListed {
            card: new.number,
            replaced: old.number,
            listed: old.upgrades.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
        });
    }
    if stage_over(old.kind, old.stage) != Some(new.stage) {
        return Err(UpgradeProblem::Stage {
            card: new.number,
            stage: new.stage.name(),
            replaced: old.number,
            needed: stage_over(old.kind, old.stage).map_or("no", Stage::name),
        });
    }
    let turned = if upgrade.turned { " turned" } else { "" };
    if first_build {
        let on_first = map.first_build.is_empty() || map.first_build.contains(&cell.base);
        if !new.kind.has_stations() || !on_first {
            let on = if map.first_build.is_empty() {
                String::new()
            } else {
                format!(", on {}", map.first_build.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "))
            };
            return Err(UpgradeProblem::FirstBuild { on });
        }
    }
    if !old.upgrade_orientations(on.turned, new).contains(&upgrade.turned) {
        return Err(UpgradeProblem::NotKept { card: new.number, turned, replaced: old.number });
    }
    for t in &new.tracks {
        let (a, b) = t.oriented(upgrade.turned).ends();
        for side in [a, b].into_iter().filter_map(|e| e.side()) {
            let beyond = cell.beyond[side.index()];
            if !beyond.allows_track() {
                return Err(UpgradeProblem::OpenTrack { card: new.number, turned, side, beyond: beyond.describe() });
            }
        }
    }
    if old.kind.is_base() && !first_build && !continues_a_track(catalogue, map, board, upgrade) {
        return Err(UpgradeProblem::NoConnection { card: new.number });
    }
    Ok(())
}

/// Whether a track of the new card ends at a side where the neighbouring card has a track
/// ending too.
fn continues_a_track(catalogue: &Catalogue, map: &Map, board: &[Placement], upgrade: Upgrade) -> bool {
    let Some(new) = catalogue.card(upgrade.card) else { return false };
    new.tracks.iter().any(|t| {
        let (a, b) = t.oriented(upgrade.turned).ends();
        [a, b].into_iter().filter_map(|e| e.side()).any(|side| {
            let Some(next) = map.cells[upgrade.cell].beyond[side.index()].passable_cell() else { return false };
            let there = board[next];
            catalogue.card(there.card).is_some_and(|c| {
                c.tracks.iter().any(|u| {
                    let (x, y) = u.oriented(there.turned).ends();
                    [x, y].into_iter().filter_map(|e| e.side()).any(|s| s == side.facing())
                })
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::express01::side::Endpoint;

    fn start(catalogue: &Catalogue, map: &str) -> (Map, Vec<Placement>) {
        let (_, m) = catalogue.map(map).expect("a map");
        let board = m.cells.iter().map(|c| Placement { card: c.base, turned: false }).collect();
        (m.clone(), board)
    }

    /// The sides a card's tracks end at, laid as given.
    fn sides(catalogue: &Catalogue, card: CardNumber, turned: bool) -> Vec<Side> {
        let c = catalogue.card(card).expect("a card");
        c.tracks
            .iter()
            .flat_map(|t| {
                let (a, b) = t.oriented(turned).ends();
                [a, b]
            })
            .filter_map(Endpoint::side)
            .collect()
    }

    /// On an untouched Germany board: every listed yellow card of every cell, both ways, is
    /// judged by the rules computed here on their own: a first station is allowed exactly when
    /// no track heads for a closed side; anything else needs a track to continue, which an
    /// untouched board of trackless base cards never offers.
    #[test]
    fn the_first_build_is_a_station_with_no_open_track() {
        let catalogue = Catalogue::house();
        let (map, board) = start(&catalogue, "germany");
        let mut allowed = 0;
        for (i, cell) in map.cells.iter().enumerate() {
            let base = catalogue.card(cell.base).expect("a base");
            assert!(base.tracks.is_empty(), "base cards carry no track in the house set");
            for &n in &base.upgrades {
                let card = catalogue.card(n).expect("a card");
                for turned in [false, true] {
                    let u = Upgrade { cell: i, card: n, turned };
                    let closed = sides(&catalogue, n, turned).iter().any(|s| !cell.beyond[s.index()].allows_track());
                    let kept = base.upgrade_orientations(false, card).contains(&turned);
                    let first = check_upgrade(&catalogue, &map, &board, u, true);
                    assert_eq!(first.is_ok(), card.kind.has_stations() && kept && !closed, "{u:?}: {first:?}");
                    let later = check_upgrade(&catalogue, &map, &board, u, false);
                    assert!(later.is_err(), "{u:?}: nothing to continue yet");
                    allowed += usize::from(first.is_ok());
                }
            }
        }
        assert!(allowed > 10, "first stations exist");
    }

    /// After a first station, a yellow card next to it is allowed exactly when one of its tracks
    /// meets one of the station's at their shared side (and none heads off the board).
    #[test]
    fn a_later_build_must_continue_a_track() {
        let catalogue = Catalogue::house();
        let (map, mut board) = start(&catalogue, "germany");
        let berlin = map.cell_of(CardNumber(9)).expect("009");
        let first = catalogue.card(map.cells[berlin].base).expect("base").upgrades.iter().copied().find_map(|n| {
            [false, true].into_iter().find_map(|t| {
                check_upgrade(&catalogue, &map, &board, Upgrade { cell: berlin, card: n, turned: t }, true)
                    .ok()
                    .map(|_| (n, t))
            })
        });
        let (station, turned) = first.expect("a first station on 009");
        board[berlin] = Placement { card: station, turned };
        let station_sides = sides(&catalogue, station, turned);
        let (mut joined, mut apart) = (0, 0);
        for side in Side::ALL {
            let Some(next) = map.cells[berlin].beyond[side.index()].passable_cell() else { continue };
            let base = catalogue.card(board[next].card).expect("a base");
            for &n in &base.upgrades {
                for t in [false, true] {
                    let u = Upgrade { cell: next, card: n, turned: t };
                    let its = sides(&catalogue, n, t);
                    let meets = station_sides.contains(&side) && its.contains(&side.facing());
                    let closed = its.iter().any(|s| !map.cells[next].beyond[s.index()].allows_track());
                    let kept = base.upgrade_orientations(false, catalogue.card(n).expect("card")).contains(&t);
                    let verdict = check_upgrade(&catalogue, &map, &board, u, false);
                    // Other neighbours of `next` have no tracks, so only the station can be met.
                    assert_eq!(verdict.is_ok(), meets && !closed && kept, "{u:?}: {verdict:?}");
                    if verdict.is_ok() {
                        joined += 1;
                    } else if matches!(verdict, Err(UpgradeProblem::NoConnection { .. })) {
                        apart += 1;
                    }
                }
            }
        }
        assert!(joined > 0 && apart > 0, "both cases occur: {joined} joined, {apart} apart");
    }

    #[test]
    fn unlisted_cards_and_skipped_stages_are_named() {
        let catalogue = Catalogue::house();
        let (map, board) = start(&catalogue, "germany");
        let cell = map.cell_of(CardNumber(9)).expect("009");
        let base = catalogue.card(CardNumber(9)).expect("009");
        let unlisted = catalogue
            .cards()
            .find(|c| !c.kind.is_base() && c.stage == Stage::Yellow && !base.upgrades.contains(&c.number))
            .expect("an unlisted yellow card");
        let u = Upgrade { cell, card: unlisted.number, turned: false };
        assert!(matches!(check_upgrade(&catalogue, &map, &board, u, true), Err(UpgradeProblem::NotListed { .. })));
        let base_card = Upgrade { cell, card: CardNumber(1), turned: false };
        assert!(matches!(
            check_upgrade(&catalogue, &map, &board, base_card, true),
            Err(UpgradeProblem::NotPlayed { .. })
        ));
        // A red card listed on a yellow one, laid straight on the base: a skipped stage, unless
        // the base lists it (then it is the stage rule that names it).
        let yellow = catalogue.card(base.upgrades[0]).expect("a yellow card");
        let red = yellow.upgrades.first().copied().expect("a red card");
        let skip = Upgrade { cell, card: red, turned: false };
        let verdict = check_upgrade(&catalogue, &map, &board, skip, true);
        assert!(
            matches!(verdict, Err(UpgradeProblem::NotListed { .. }) | Err(UpgradeProblem::Stage { .. })),
            "{verdict:?}"
        );
        let usa = start(&catalogue, "usa");
        let west = usa.0.cell_of(CardNumber(51)).expect("051");
        let any = catalogue
            .card(CardNumber(51))
            .expect("051")
            .upgrades
            .iter()
            .copied()
            .find(|&n| catalogue.card(n).is_some_and(|c| c.kind.has_stations()));
        if let Some(n) = any {
            let verdict =
                check_upgrade(&catalogue, &usa.0, &usa.1, Upgrade { cell: west, card: n, turned: false }, true);
            assert!(
                matches!(verdict, Err(UpgradeProblem::FirstBuild { .. })),
                "the USA starts in the east: {verdict:?}"
            );
        }
    }
}
