//! SVG pictures of a Cubes of Europe board after a line of play: each hex in its colour with its
//! number, territories outlined, and on every filled hex the turn its cube was placed.

use signalbox_engine::coe::{Catalogue, Colour, Game, Instance, Move, Rules};
use svg::Document;
use svg::node::element::{Circle, Polygon, Text, Title};

/// Hex radius (centre to corner) in pixels.
const R: f32 = 34.0;
const MARGIN: f32 = 20.0;
const TITLE_BAND: f32 = 30.0;
const FONT: &str = "sans-serif";

fn fill(c: Colour) -> &'static str {
    match c {
        Colour::Red => "#d9534f",
        Colour::Blue => "#3b73c4",
        Colour::Green => "#4a9d4a",
        Colour::White => "#f4f4f4",
        Colour::Yellow => "#f2c12e",
    }
}

/// The picture of the board at the end of `line`, titled `title`.
pub fn board_svg(catalogue: &Catalogue, instance: &Instance, rules: Rules, line: &[Move], title: &str) -> String {
    let mut game = Game::new(catalogue, instance, rules);
    // The turn each hex was filled (0 for the start).
    let mut filled_at = [None; 19];
    for &mv in line {
        let before = game.placed();
        let turn = game.turn() + usize::from(game.is_started());
        game.play_unchecked(mv);
        let new = game.placed() & !before;
        for (i, slot) in filled_at.iter_mut().enumerate() {
            if new >> i & 1 == 1 {
                *slot = Some(if matches!(mv, Move::Start { .. }) { 0 } else { turn });
            }
        }
    }
    let board = game.board();
    let centre = |i: usize| {
        let h = board.hexes[i].hex;
        let x = 3f32.sqrt() * R * (h.q as f32 + h.r as f32 / 2.0);
        let y = 1.5 * R * h.r as f32;
        (x, y)
    };
    let half_w = 3f32.sqrt() * R * 2.5;
    let half_h = 1.5 * R * 2.0 + R;
    let width = 2.0 * (half_w + MARGIN);
    let height = 2.0 * (half_h + MARGIN) + TITLE_BAND;
    let (ox, oy) = (width / 2.0, TITLE_BAND + height / 2.0 - TITLE_BAND / 2.0);
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width as i32, height as i32))
        .set("width", width as i32)
        .set("height", height as i32)
        .add(
            Text::new(title)
                .set("x", MARGIN)
                .set("y", MARGIN + 4.0)
                .set("font-family", FONT)
                .set("font-size", 15)
                .set("font-weight", "bold"),
        );
    for (i, h) in board.hexes.iter().enumerate() {
        let (cx, cy) = centre(i);
        let (cx, cy) = (cx + ox, cy + oy);
        let points: Vec<String> = (0..6)
            .map(|k| {
                let a = std::f32::consts::PI / 180.0 * (60.0 * k as f32 - 30.0);
                format!("{:.1},{:.1}", cx + (R - 1.0) * a.cos(), cy + (R - 1.0) * a.sin())
            })
            .collect();
        let filled = filled_at[i].is_some();
        let tip = match filled_at[i] {
            Some(0) => format!("hex {i}: {} {}, the start", h.colour, h.number),
            Some(t) => format!("hex {i}: {} {}, filled on turn {t}", h.colour, h.number),
            None => format!("hex {i}: {} {}, empty", h.colour, h.number),
        };
        doc = doc.add(
            Polygon::new()
                .set("points", points.join(" "))
                .set("fill", fill(h.colour))
                .set("fill-opacity", if filled { 1.0 } else { 0.35 })
                .set("stroke", "#333")
                .set("stroke-width", 1.5)
                .add(Title::new(tip)),
        );
        doc = doc.add(
            Text::new(h.number.to_string())
                .set("x", cx)
                .set("y", cy - R * 0.38)
                .set("text-anchor", "middle")
                .set("font-family", FONT)
                .set("font-size", 12)
                .set("fill", "#222"),
        );
        if let Some(t) = filled_at[i] {
            doc = doc.add(Circle::new().set("cx", cx).set("cy", cy + 4.0).set("r", 11).set("fill", "#222")).add(
                Text::new(if t == 0 { "S".to_string() } else { t.to_string() })
                    .set("x", cx)
                    .set("y", cy + 8.5)
                    .set("text-anchor", "middle")
                    .set("font-family", FONT)
                    .set("font-size", 12)
                    .set("fill", "white"),
            );
        }
    }
    doc.to_string()
}
