//! SVG pictures of a Cubes of Europe board after a line of play: each hex in its colour with its
//! die number and its index, on every filled hex the turn its cube was placed, and a legend.

use signalbox_engine::coe::{Catalogue, Colour, Game, Instance, Move, Rules};
use svg::Document;
use svg::node::element::{Circle, Polygon, Rectangle, Text, Title};

/// Hex radius (centre to corner) in pixels.
const R: f32 = 34.0;
const MARGIN: f32 = 20.0;
const TITLE_BAND: f32 = 30.0;
const FONT: &str = "sans-serif";

/// A colour's fill in the pictures.
pub(crate) fn fill(c: Colour) -> &'static str {
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
    position_svg(catalogue, instance, rules, line, title, &[], false)
}

/// The picture of the position at the end of `line`, titled `title`, with `notes` (one line
/// each) under the title; with `mark_last`, the hexes the last move filled are outlined thick.
pub fn position_svg(
    catalogue: &Catalogue,
    instance: &Instance,
    rules: Rules,
    line: &[Move],
    title: &str,
    notes: &[String],
    mark_last: bool,
) -> String {
    let from = if mark_last { Some(line.len().saturating_sub(1)) } else { None };
    draw(catalogue, instance, rules, line, title, notes, from.map(|f| (f, LAST_OUTLINE)))
}

/// The picture of the position at the end of `line`, as [`position_svg`] draws it, with every
/// hex filled by the moves from `line[from]` on outlined thick: a puzzle's answer played after
/// its position's moves.
pub fn answer_svg(
    catalogue: &Catalogue,
    instance: &Instance,
    rules: Rules,
    line: &[Move],
    from: usize,
    title: &str,
    notes: &[String],
) -> String {
    draw(catalogue, instance, rules, line, title, notes, Some((from, "a thick outline: a cube the answer places")))
}

const LAST_OUTLINE: &str = "a thick outline: the cube the last move placed";

fn draw(
    catalogue: &Catalogue,
    instance: &Instance,
    rules: Rules,
    line: &[Move],
    title: &str,
    notes: &[String],
    marked: Option<(usize, &str)>,
) -> String {
    let mark_last = marked.is_some();
    let mut game = Game::new(catalogue, instance, rules);
    // The turn each hex was filled (0 for the start).
    let mut filled_at = [None; 19];
    let mut last = 0u32;
    for (k, &mv) in line.iter().enumerate() {
        let before = game.placed();
        let turn = game.turn() + usize::from(game.is_started());
        game.play_unchecked(mv);
        let new = game.placed() & !before;
        if marked.is_some_and(|(from, _)| k >= from) {
            last |= new;
        }
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
    // The board's extent, from its hexes.
    let (mut x0, mut x1, mut y0, mut y1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
    for i in 0..board.hexes.len() {
        let (x, y) = centre(i);
        x0 = x0.min(x - R);
        x1 = x1.max(x + R);
        y0 = y0.min(y - R);
        y1 = y1.max(y + R);
    }
    let legend = legend_lines(marked.map(|m| m.1));
    let legend_height = LEGEND_LINE * legend.len() as f32 + 10.0;
    let width = (x1 - x0 + 2.0 * MARGIN).max(LEGEND_WIDTH + 2.0 * MARGIN);
    let notes_band = NOTE_LINE * notes.len() as f32;
    let height = TITLE_BAND + notes_band + (y1 - y0) + 2.0 * MARGIN + legend_height;
    let (ox, oy) = ((width - (x1 - x0)) / 2.0 - x0, TITLE_BAND + notes_band + MARGIN - y0);
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width.ceil() as i32, height.ceil() as i32))
        .set("width", width.ceil() as i32)
        .set("height", height.ceil() as i32)
        .add(Rectangle::new().set("width", "100%").set("height", "100%").set("fill", "white"))
        .add(
            Text::new(title)
                .set("x", MARGIN)
                .set("y", MARGIN + 4.0)
                .set("font-family", FONT)
                .set("font-size", 15)
                .set("font-weight", "bold")
                .set("fill", "#111"),
        );
    for (k, note) in notes.iter().enumerate() {
        doc = doc.add(
            Text::new(note.as_str())
                .set("x", MARGIN)
                .set("y", MARGIN + 4.0 + TITLE_BAND * 0.7 + NOTE_LINE * k as f32)
                .set("font-family", FONT)
                .set("font-size", 12)
                .set("fill", "#222"),
        );
    }
    for (i, h) in board.hexes.iter().enumerate() {
        let (cx, cy) = centre(i);
        let (cx, cy) = (cx + ox, cy + oy);
        if mark_last && last >> i & 1 == 1 {
            doc = doc.add(hexagon(cx, cy, R + 2.0, "none", 0.0).set("stroke", "#000").set("stroke-width", 5));
        }
        let filled = filled_at[i].is_some();
        let tip = match filled_at[i] {
            Some(0) => format!("hex {i}: {} {}, the start", h.colour, h.number),
            Some(t) => format!("hex {i}: {} {}, filled on turn {t}", h.colour, h.number),
            None => format!("hex {i}: {} {}, empty", h.colour, h.number),
        };
        doc = doc.add(hexagon(cx, cy, R - 1.0, fill(h.colour), if filled { 1.0 } else { 0.35 }).add(Title::new(tip)));
        doc = doc.add(label(cx, cy - R * 0.42, 13.0, &h.number.to_string(), "#111", true));
        doc = doc.add(label(cx, cy + R * 0.72, 10.0, &format!("#{i}"), "#333", false));
        if let Some(t) = filled_at[i] {
            doc = doc
                .add(Circle::new().set("cx", cx).set("cy", cy + 3.0).set("r", 10.5).set("fill", "#222"))
                .add(label(cx, cy + 7.5, 12.0, &if t == 0 { "S".to_string() } else { t.to_string() }, "white", false));
        }
    }
    // The legend, under the board.
    let mut y = TITLE_BAND + notes_band + (y1 - y0) + 2.0 * MARGIN + 6.0;
    for (glyph, text) in legend {
        let gx = MARGIN + 10.0;
        doc = match glyph {
            Glyph::Number => doc.add(label(gx, y + 4.0, 13.0, "4", "#111", true)),
            Glyph::Index => doc.add(label(gx, y + 4.0, 10.0, "#7", "#333", false)),
            Glyph::Turn => doc
                .add(Circle::new().set("cx", gx).set("cy", y).set("r", 8.0).set("fill", "#222"))
                .add(label(gx, y + 4.0, 10.0, "5", "white", false)),
            Glyph::Faded => doc.add(hexagon(gx, y, 8.0, fill(Colour::Blue), 0.35)),
            Glyph::Outline => doc
                .add(hexagon(gx, y, 9.0, "none", 0.0).set("stroke", "#000").set("stroke-width", 4))
                .add(hexagon(gx, y, 8.0, fill(Colour::Red), 1.0)),
            Glyph::Colours => {
                let mut d = doc;
                for (k, c) in
                    [Colour::Red, Colour::Blue, Colour::Green, Colour::White, Colour::Yellow].into_iter().enumerate()
                {
                    d = d.add(hexagon(gx + 18.0 * k as f32, y, 8.0, fill(c), 1.0));
                }
                d
            }
        };
        let tx = if matches!(glyph, Glyph::Colours) { MARGIN + 100.0 } else { MARGIN + 26.0 };
        doc = doc.add(
            Text::new(text)
                .set("x", tx)
                .set("y", y + 4.0)
                .set("font-family", FONT)
                .set("font-size", 11)
                .set("fill", "#222"),
        );
        y += LEGEND_LINE;
    }
    doc.to_string()
}

/// The height of one line of notes under the title.
const NOTE_LINE: f32 = 17.0;

/// The height of one legend line, and the width the legend needs.
const LEGEND_LINE: f32 = 20.0;
const LEGEND_WIDTH: f32 = 390.0;

enum Glyph {
    Number,
    Index,
    Turn,
    Faded,
    Colours,
    Outline,
}

fn legend_lines(outline: Option<&str>) -> Vec<(Glyph, &str)> {
    let mut lines = vec![
        (Glyph::Number, "the die face that places a cube on the hex"),
        (Glyph::Index, "the hex's number in the move list (\"place on hex 7\")"),
        (Glyph::Turn, "the turn its cube was placed (S: the start space)"),
        (Glyph::Faded, "a pale hex is still empty at the end of the line"),
        (Glyph::Colours, "red, blue, green, white, yellow hexes"),
    ];
    if let Some(text) = outline {
        lines.push((Glyph::Outline, text));
    }
    lines
}

/// A hexagon (pointy top) of radius `r` at (`cx`, `cy`).
fn hexagon(cx: f32, cy: f32, r: f32, colour: &str, opacity: f32) -> Polygon {
    let points: Vec<String> = (0..6)
        .map(|k| {
            let a = std::f32::consts::PI / 180.0 * (60.0 * k as f32 - 30.0);
            format!("{:.1},{:.1}", cx + r * a.cos(), cy + r * a.sin())
        })
        .collect();
    Polygon::new()
        .set("points", points.join(" "))
        .set("fill", colour)
        .set("fill-opacity", opacity)
        .set("stroke", "#333")
        .set("stroke-width", 1.5)
}

/// Centred text.
fn label(x: f32, y: f32, size: f32, text: &str, colour: &str, bold: bool) -> Text {
    Text::new(text)
        .set("x", x)
        .set("y", y)
        .set("text-anchor", "middle")
        .set("font-family", FONT)
        .set("font-size", size)
        .set("font-weight", if bold { "bold" } else { "normal" })
        .set("fill", colour)
}
