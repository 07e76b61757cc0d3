//! An Express 01 game as terminal text: the board in its brick layout (each row shifted half a
//! card, as the map lays the cards: rulebook, "Setup"), a key of the stations' companies, the
//! decks (face-up cards shown, face-down ones counted: "General Rules") and each player's open
//! cards and capital. A player's hand is hidden information; [`hand`] shows one hand on its own.

use std::fmt::Write as _;

use signalbox_engine::express01::{CardKind, CardNumber, Game, Stage};

/// Characters per half card width: a card is drawn in two of them.
const HALF: usize = 6;

/// The key to the cells of [`board`].
pub const CELL_KEY: &str = "cell: [base card, card lying there (~ turned), stage (. base, y yellow, r red, b blue), \
kind (R route, S station base, T terminal, H through, C central, D double)]";

/// One letter for a stage.
fn stage_mark(stage: Stage) -> char {
    match stage {
        Stage::Base => '.',
        Stage::Yellow => 'y',
        Stage::Red => 'r',
        Stage::Blue => 'b',
    }
}

/// One letter for a kind.
fn kind_mark(kind: CardKind) -> char {
    match kind {
        CardKind::BaseRoute | CardKind::Route => 'R',
        CardKind::BaseStation => 'S',
        CardKind::Terminal => 'T',
        CardKind::Through => 'H',
        CardKind::Central => 'C',
        CardKind::Double => 'D',
    }
}

/// The text of one cell, [`HALF`] * 2 characters wide: `[009    .S]` for a base card, `[009 501~yT]`
/// for cell 009 with card 501 on it, turned.
fn cell_text(game: &Game<'_>, cell: usize) -> String {
    let base = game.map().cells[cell].base;
    let placed = game.board()[cell];
    let (stage, kind) =
        game.catalogue().card(placed.card).map_or(('?', '?'), |c| (stage_mark(c.stage), kind_mark(c.kind)));
    let card = if placed.card == base { "   ".to_string() } else { placed.card.to_string() };
    let turned = if placed.turned { '~' } else { ' ' };
    format!("[{base} {card}{turned}{stage}{kind}]")
}

/// The board: one line per row of the map, north first, each card at its place in the brick
/// layout; then the key of the cells and of the stations' companies.
pub fn board(game: &Game<'_>) -> String {
    let cells = &game.map().cells;
    let min_x = cells.iter().map(|c| c.x).min().unwrap_or(0);
    let rows = cells.iter().map(|c| c.row + 1).max().unwrap_or(0);
    let mut out = String::new();
    for row in 0..rows {
        let mut line = String::new();
        let mut on_row: Vec<usize> = (0..cells.len()).filter(|&i| cells[i].row == row).collect();
        on_row.sort_by_key(|&i| cells[i].x);
        for i in on_row {
            let at = usize::try_from(cells[i].x - min_x).unwrap_or(0) * HALF;
            while line.chars().count() < at {
                line.push(' ');
            }
            line.push_str(&cell_text(game, i));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(CELL_KEY);
    out.push('\n');
    out.push_str(&station_key(game));
    out
}

/// The stations on the board by company, each named by its cell (and city), `+1` for a bonus
/// station: `stations: red 009 Berlin · blue 024 Leipzig+1 · neutral 017 Dresden+1`.
pub fn station_key(game: &Game<'_>) -> String {
    let catalogue = game.catalogue();
    // (company order, neutral last) -> entries.
    let mut by_company: Vec<(Option<u8>, Vec<String>)> = Vec::new();
    for (cell, placed) in game.map().cells.iter().zip(game.board()) {
        let Some(card) = catalogue.card(placed.card) else { continue };
        let city = catalogue.card(cell.base).and_then(|b| b.name.clone()).or_else(|| card.name.clone());
        for s in &card.stations {
            let key = s.company.map(|c| c.0);
            let entry = format!(
                "{}{}{}",
                cell.base,
                city.as_ref().map_or_else(String::new, |c| format!(" {c}")),
                if s.bonus { "+1" } else { "" }
            );
            match by_company.iter_mut().find(|(k, _)| *k == key) {
                Some((_, list)) => list.push(entry),
                None => by_company.push((key, vec![entry])),
            }
        }
    }
    by_company.sort_by_key(|(k, _)| k.map_or(u16::MAX, u16::from));
    let groups: Vec<String> = by_company
        .iter()
        .map(|(k, list)| {
            let name = k.map_or("neutral", |c| catalogue.company_name(signalbox_engine::express01::CompanyId(c)));
            format!("{name} {}", list.join(", "))
        })
        .collect();
    if groups.is_empty() { "stations: none".to_string() } else { format!("stations: {}", groups.join(" · ")) }
}

/// A card number with the company of its share engine, if it shows one: `103 (red share)`.
pub fn card_label(game: &Game<'_>, card: CardNumber) -> String {
    match game.catalogue().card(card).and_then(|c| c.share) {
        Some(share) => format!("{card} ({} share)", game.company_name(share.company)),
        None => card.to_string(),
    }
}

/// The decks: each one's face-up cards, top first, and how many lie face down.
pub fn decks(game: &Game<'_>) -> String {
    let mut out = String::from("decks (face-up cards top first, then the face-down count):\n");
    for deck in game.decks() {
        let up: Vec<String> = (0..deck.face_up).filter_map(|d| deck.at(d)).map(|c| card_label(game, c)).collect();
        let down = deck.cards.len() - deck.face_up.min(deck.cards.len());
        let _ = writeln!(
            out,
            "  {:<15} {}{down} face down",
            deck.name,
            if up.is_empty() { String::new() } else { format!("face up {} · ", up.join(", ")) }
        );
    }
    out
}

/// Each player's open cards: turn order card, shares by company, base cards, the black engine,
/// the number of cards in hand, and capital (rulebook, "Determine the Winner").
pub fn players(game: &Game<'_>) -> String {
    let catalogue = game.catalogue();
    let mut out = String::new();
    for (p, seat) in game.seats().iter().enumerate() {
        let turn_card = &game.turn_cards()[p];
        let mut shares: Vec<String> = Vec::new();
        for (c, name) in catalogue.companies.iter().enumerate() {
            let company = signalbox_engine::express01::CompanyId(c as u8);
            let held = game.holding(p, company);
            if held > 0 {
                shares.push(format!("{held} {name} (worth {} each)", game.stations(company)));
            }
        }
        let kind =
            |k: CardKind| seat.base_cards.iter().filter(|&&n| catalogue.card(n).is_some_and(|c| c.kind == k)).count();
        let engine = match game.black_engine() {
            Some(e) if e == p && game.engine_used() => " · black engine (used this round)",
            Some(e) if e == p => " · black engine",
            _ => "",
        };
        let _ = writeln!(
            out,
            "  {}: turn order {}{} · hand {} cards · shares {} · base cards {} route, {} station{engine} · capital {}",
            seat.name,
            turn_card.number,
            if turn_card.flipped { " (turn taken)" } else { "" },
            seat.hand.len(),
            if shares.is_empty() { "none".to_string() } else { shares.join(", ") },
            kind(CardKind::BaseRoute),
            kind(CardKind::BaseStation),
            game.capital(p).total()
        );
    }
    out
}

/// The whole table as every player sees it: the board, the key, the decks and the players'
/// open cards; no hand.
pub fn table(game: &Game<'_>) -> String {
    format!("{}\n{}players:\n{}", board(game), decks(game), players(game))
}

/// One player's hand (hidden from the others), each card with its share engine if any.
pub fn hand(game: &Game<'_>, player: usize) -> String {
    let seat = &game.seats()[player];
    let cards: Vec<String> = seat.hand.iter().map(|&c| card_label(game, c)).collect();
    format!(
        "{}'s hand ({} cards): {}",
        seat.name,
        cards.len(),
        if cards.is_empty() { "empty".to_string() } else { cards.join(", ") }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use signalbox_engine::express01::position::Position;
    use signalbox_engine::express01::{Catalogue, new_game};

    #[test]
    fn the_board_shows_every_cell_once_row_by_row() {
        let catalogue = Catalogue::house();
        let names: Vec<String> = ["Ann", "Bo"].iter().map(|s| s.to_string()).collect();
        let setup = new_game(&catalogue, "germany", &names, 3).unwrap();
        let position = Position::from_setup(setup, &catalogue).unwrap();
        let game = Game::from_position(&position).unwrap();
        let text = table(&game);
        for cell in &game.map().cells {
            assert_eq!(text.matches(&format!("[{} ", cell.base)).count(), 1, "cell {}", cell.base);
        }
        let rows = game.map().cells.iter().map(|c| c.row).max().unwrap() + 1;
        assert_eq!(board(&game).lines().filter(|l| l.contains('[')).count(), rows + 1, "the rows and the key");
        assert!(hand(&game, 0).contains(&game.seats()[0].hand[0].to_string()));
    }
}
