//! The market, the cards to come, the effects in play and the dice, drawn: what a Cubes of
//! Europe puzzle says is known, so that it can be solved on paper (rulebook: "Create Market",
//! "Gain a Cube", "Cube Effects": Yellow).

use signalbox_engine::coe::{Catalogue, Colour, Game};
use svg::Document;
use svg::node::element::{Group, Rectangle, Text};

use super::picture::fill;

const FONT: &str = "sans-serif";
const CARD_W: f32 = 176.0;
const CARD_H: f32 = 226.0;
const GAP: f32 = 12.0;
const MARGIN: f32 = 14.0;
const HEADING: f32 = 22.0;
/// Characters of an effect's text on one line of a card, at 11 px.
const WRAP: usize = 28;

/// The picture of what a player knows of the cards and dice: the market's two cards (the deck
/// card on the left, the discard card on the right), the next `ahead` cards of the deck in the
/// order they come up, the effects of the tucked cards, and the dice of the turns to come.
pub fn market_svg(game: &Game<'_>, ahead: usize) -> String {
    let catalogue = game.catalogue();
    let [deck, discard] = game.market();
    let market: Vec<(u8, String)> = [(deck, "deck card (left)"), (discard, "discard card (right)")]
        .into_iter()
        .filter_map(|(id, what)| id.map(|id| (id, what.to_owned())))
        .collect();
    // The deck's top card is in the market; the cards below it come up next, in order.
    let below: Vec<u8> = game.deck().iter().rev().skip(1).copied().collect();
    let coming: Vec<(u8, String)> =
        below.iter().take(ahead).enumerate().map(|(k, &id)| (id, format!("card {} to come", k + 1))).collect();
    let per_row = 2usize;
    let width = MARGIN * 2.0 + per_row as f32 * CARD_W + (per_row - 1) as f32 * GAP;
    let mut y = MARGIN;
    let mut doc = Group::new();
    let heading = |mut doc: Group, y: &mut f32, text: &str| {
        for line in wrap(text, 44) {
            doc = doc.add(text_at(MARGIN, *y + 14.0, 14.0, &line, true));
            *y += HEADING;
        }
        doc
    };
    doc = heading(doc, &mut y, "The market");
    doc = cards_row(doc, catalogue, &market, &mut y, per_row);
    if !coming.is_empty() {
        let more = below.len().saturating_sub(coming.len());
        let title = if more > 0 {
            format!("The deck, the next {} cards in order ({more} more below)", coming.len())
        } else if game.is_reshuffled() {
            "The deck, every card left in order (the game ends when it runs out)".to_owned()
        } else {
            "The deck, every card left in order (then the reshuffle)".to_owned()
        };
        doc = heading(doc, &mut y, &title);
        doc = cards_row(doc, catalogue, &coming, &mut y, per_row);
    }
    let effects: Vec<String> = game
        .tucked()
        .iter()
        .filter_map(|&id| catalogue.card(id).map(|c| format!("{} {}: {}", c.id, c.name, c.market.text)))
        .collect();
    doc = heading(doc, &mut y, "Effects in play (tucked cards)");
    if effects.is_empty() {
        doc = doc.add(text_at(MARGIN, y + 11.0, 12.0, "none yet", false));
        y += 18.0;
    }
    for e in &effects {
        // 56 characters of 12 px text fit the panel's width (two cards and a gap).
        for line in wrap(e, 56) {
            doc = doc.add(text_at(MARGIN, y + 11.0, 12.0, &line, false));
            y += 16.0;
        }
    }
    y += 6.0;
    doc = heading(doc, &mut y, "The dice, turn by turn");
    let mut x = MARGIN;
    let mut turn = None;
    let start = game.turn() + 1;
    for (t, face) in game.dice_ahead() {
        if turn != Some(t) {
            if turn.is_some() {
                x += 14.0;
            }
            if x + 110.0 > width {
                x = MARGIN;
                y += 34.0;
            }
            doc = doc.add(text_at(x, y + 19.0, 12.0, &format!("turn {}", start + t), false));
            x += 50.0;
            turn = Some(t);
        }
        doc = doc
            .add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", y + 2.0)
                    .set("width", 24)
                    .set("height", 24)
                    .set("rx", 4)
                    .set("fill", "white")
                    .set("stroke", "#222")
                    .set("stroke-width", 1.5),
            )
            .add(centred(x + 12.0, y + 19.0, 14.0, &face.to_string(), true));
        x += 30.0;
    }
    y += 34.0 + MARGIN;
    Document::new()
        .set("viewBox", (0, 0, width.ceil() as i32, y.ceil() as i32))
        .set("width", width.ceil() as i32)
        .set("height", y.ceil() as i32)
        .add(Rectangle::new().set("width", "100%").set("height", "100%").set("fill", "white"))
        .add(doc)
        .to_string()
}

/// A row (or rows) of cards, `per_row` to a row, from `y` on; `y` ends under them.
fn cards_row(mut doc: Group, catalogue: &Catalogue, cards: &[(u8, String)], y: &mut f32, per_row: usize) -> Group {
    for (k, (id, what)) in cards.iter().enumerate() {
        let (col, row) = (k % per_row, k / per_row);
        let x = MARGIN + col as f32 * (CARD_W + GAP);
        let top = *y + row as f32 * (CARD_H + GAP);
        doc = card(doc, catalogue, *id, what, x, top);
    }
    let rows = cards.len().div_ceil(per_row);
    *y += rows as f32 * (CARD_H + GAP);
    doc
}

/// One card's market side at (`x`, `y`): its number and name, what it is now, the three central
/// squares (die face and cube colour), the outer squares' colours and the yellow text box.
fn card(mut doc: Group, catalogue: &Catalogue, id: u8, what: &str, x: f32, y: f32) -> Group {
    let Some(card) = catalogue.card(id) else { return doc };
    let m = &card.market;
    doc = doc
        .add(
            Rectangle::new()
                .set("x", x)
                .set("y", y)
                .set("width", CARD_W)
                .set("height", CARD_H)
                .set("rx", 6)
                .set("fill", "#fbfaf6")
                .set("stroke", "#333")
                .set("stroke-width", 1.5),
        )
        .add(text_at(x + 8.0, y + 16.0, 13.0, &format!("{} {}", card.id, card.name), true))
        .add(text_at(x + 8.0, y + 30.0, 11.0, what, false));
    let mut row_y = y + 38.0;
    for square in &m.central {
        doc = doc
            .add(
                Rectangle::new()
                    .set("x", x + 8.0)
                    .set("y", row_y)
                    .set("width", 22)
                    .set("height", 22)
                    .set("rx", 3)
                    .set("fill", "white")
                    .set("stroke", "#222"),
            )
            .add(centred(x + 19.0, row_y + 16.0, 14.0, &square.face.to_string(), true))
            .add(swatch(x + 36.0, row_y + 3.0, 16.0, square.colour))
            .add(text_at(x + 58.0, row_y + 15.0, 12.0, square.colour.name(), false));
        row_y += 26.0;
    }
    let outer: Vec<&str> = m.outer.iter().map(|c| c.name()).collect();
    let outer = if outer.is_empty() { "none".to_owned() } else { outer.join(", ") };
    for line in wrap(&format!("outer squares: {outer}"), WRAP) {
        doc = doc.add(text_at(x + 8.0, row_y + 11.0, 11.0, &line, false));
        row_y += 13.0;
    }
    row_y += 5.0;
    let lines = wrap(&m.text, WRAP);
    let box_h = CARD_H - (row_y - y) - 6.0;
    doc = doc.add(
        Rectangle::new()
            .set("x", x + 5.0)
            .set("y", row_y)
            .set("width", CARD_W - 10.0)
            .set("height", box_h)
            .set("rx", 3)
            .set("fill", "#fbe7a1"),
    );
    for (k, line) in lines.iter().enumerate() {
        doc = doc.add(text_at(x + 9.0, row_y + 13.0 + 13.0 * k as f32, 11.0, line, false));
    }
    doc
}

fn swatch(x: f32, y: f32, size: f32, colour: Colour) -> Rectangle {
    Rectangle::new()
        .set("x", x)
        .set("y", y)
        .set("width", size)
        .set("height", size)
        .set("fill", fill(colour))
        .set("stroke", "#333")
}

/// `text` in lines of at most `width` characters, broken between words.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

fn text_at(x: f32, y: f32, size: f32, text: &str, bold: bool) -> Text {
    Text::new(text)
        .set("x", x)
        .set("y", y)
        .set("font-family", FONT)
        .set("font-size", size)
        .set("font-weight", if bold { "bold" } else { "normal" })
        .set("fill", "#111")
}

fn centred(x: f32, y: f32, size: f32, text: &str, bold: bool) -> Text {
    text_at(x, y, size, text, bold).set("text-anchor", "middle")
}

/// Two pictures side by side, as one: `left`, then `right` (each a whole `<svg>` with a
/// `viewBox`), the taller one's height.
pub fn beside(left: &str, right: &str) -> String {
    let size = |svg: &str| -> (f32, f32) {
        let head = &svg[..svg.find('>').unwrap_or(svg.len())];
        let view = head.split("viewBox=\"").nth(1).and_then(|v| v.split('"').next()).unwrap_or("0 0 0 0");
        let n: Vec<f32> = view.split([' ', ',']).filter_map(|p| p.parse().ok()).collect();
        (n.get(2).copied().unwrap_or(0.0), n.get(3).copied().unwrap_or(0.0))
    };
    let ((w1, h1), (w2, h2)) = (size(left), size(right));
    let (w, h) = ((w1 + w2).ceil(), h1.max(h2).ceil());
    let place = |svg: &str, x: f32, y: f32| svg.replacen("<svg ", &format!("<svg x=\"{x}\" y=\"{y}\" "), 1);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\">\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>{}{}</svg>",
        place(left, 0.0, 0.0),
        place(right, w1, 0.0)
    )
}
