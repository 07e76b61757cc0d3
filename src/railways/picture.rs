//! An SVG picture of a Railways Express position: the hex map by terrain, the cities in their
//! colours (home cities ringed), every tile's track in its owner's colour, a plan's tiles drawn
//! dashed over it, and the builds advised for a roll drawn solid on a dark edge.

use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::terrain::Terrain;
use signalbox_engine::railways::track::{Ends, Side};
use svg::Document;
use svg::node::element::{Circle, Path, Polygon, Text, Title};

/// The hex's circumradius in pixels.
const R: f64 = 16.0;
const MARGIN: f64 = 24.0;
const TITLE_BAND: f64 = 30.0;
const FONT: &str = "sans-serif";

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Blue => "#1f5fbf",
        Colour::Yellow => "#d9a400",
        Colour::Red => "#d62728",
        Colour::Purple => "#7b3fa0",
    }
}

fn terrain(t: Terrain) -> &'static str {
    match t {
        Terrain::Plains => "#cfe8b0",
        Terrain::Mountain => "#c8a77e",
        Terrain::Water => "#8ec5ea",
    }
}

/// The centre of `hex` (pointy-top hexes, axial coordinates).
fn centre(hex: Hex) -> (f64, f64) {
    let s3 = 3f64.sqrt();
    (R * s3 * (f64::from(hex.q) + f64::from(hex.r) / 2.0), R * 1.5 * f64::from(hex.r))
}

/// The middle of side `s` of a hex centred on the origin.
fn side_middle(s: Side) -> (f64, f64) {
    let angle = -60.0f64.to_radians() * s.index() as f64;
    let d = R * 3f64.sqrt() / 2.0;
    (d * angle.cos(), d * angle.sin())
}

/// The track of `ends` on `hex`, offset by `(dx, dy)`: from one side's middle to the other's,
/// bending through the centre.
fn track(hex: Hex, ends: Ends, (dx, dy): (f64, f64)) -> String {
    let (cx, cy) = centre(hex);
    let [a, b] = ends.sides().map(side_middle);
    format!(
        "M {:.1} {:.1} Q {:.1} {:.1} {:.1} {:.1}",
        cx + a.0 + dx,
        cy + a.1 + dy,
        cx + dx,
        cy + dy,
        cx + b.0 + dx,
        cy + b.1 + dy
    )
}

/// The track of `ends` on `hex` (see [`track`]) stroked in `colour`, `width` pixels wide.
fn stroke(hex: Hex, ends: Ends, at: (f64, f64), colour: &str, width: f64) -> Path {
    Path::new()
        .set("d", track(hex, ends, at))
        .set("fill", "none")
        .set("stroke", colour)
        .set("stroke-width", width)
        .set("stroke-linecap", "round")
}

/// The picture of `game` with `plan` (tiles to build for `player`) drawn dashed, and `advised`
/// (this turn's builds, with `--roll`) drawn solid on a dark edge.
pub fn position_svg(game: &Game, player: Colour, plan: &[(Hex, Ends)], advised: &[(Hex, Ends)], title: &str) -> String {
    let content = game.content();
    let points: Vec<(f64, f64)> = content.hexes.keys().map(|&h| centre(h)).collect();
    let min_x = points.iter().map(|p| p.0).fold(f64::MAX, f64::min) - R;
    let max_x = points.iter().map(|p| p.0).fold(f64::MIN, f64::max) + R;
    let min_y = points.iter().map(|p| p.1).fold(f64::MAX, f64::min) - R;
    let max_y = points.iter().map(|p| p.1).fold(f64::MIN, f64::max) + R;
    let (dx, dy) = (MARGIN - min_x, MARGIN + TITLE_BAND - min_y);
    let width = max_x - min_x + 2.0 * MARGIN;
    let height = max_y - min_y + 2.0 * MARGIN + TITLE_BAND;
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width.ceil(), height.ceil()))
        .set("width", width.ceil())
        .set("height", height.ceil());
    doc = doc.add(
        Text::new(title)
            .set("x", MARGIN)
            .set("y", MARGIN)
            .set("font-family", FONT)
            .set("font-size", 15)
            .set("font-weight", "bold"),
    );
    for (&hex, &t) in &content.hexes {
        let (cx, cy) = centre(hex);
        let corners: Vec<String> = (0..6)
            .map(|k| {
                let a = (60.0 * f64::from(k) - 30.0f64).to_radians();
                format!("{:.1},{:.1}", cx + dx + R * a.cos(), cy + dy + R * a.sin())
            })
            .collect();
        let (col, row) = content.offsets.get(&hex).copied().unwrap_or((hex.q, hex.r));
        doc = doc.add(
            Polygon::new()
                .set("points", corners.join(" "))
                .set("fill", terrain(t))
                .set("stroke", "#ffffff")
                .set("stroke-width", 0.8)
                .add(Title::new(format!("[{col}, {row}] {t}"))),
        );
    }
    // Tiles of several players on one hex are drawn side by side.
    let mut drawn: std::collections::HashMap<Hex, usize> = std::collections::HashMap::new();
    let mut nudge = |hex: Hex| {
        let k = drawn.entry(hex).or_insert(0);
        *k += 1;
        let off = (*k as f64 - 1.0) * 2.5;
        (dx + off, dy + off)
    };
    for t in game.tiles() {
        let at = nudge(t.hex);
        doc = doc.add(
            stroke(t.hex, t.ends, at, colour(t.owner), 3.5).add(Title::new(format!("{} track {}", t.owner, t.ends))),
        );
    }
    for (i, &(hex, ends)) in plan.iter().enumerate() {
        let at = nudge(hex);
        doc = doc.add(
            stroke(hex, ends, at, colour(player), 3.5).set("stroke-dasharray", "3 2.5").add(Title::new(format!(
                "plan tile {} of {}: {ends}",
                i + 1,
                plan.len()
            ))),
        );
    }
    for (i, &(hex, ends)) in advised.iter().enumerate() {
        let at = nudge(hex);
        doc = doc.add(stroke(hex, ends, at, "#111111", 6.5)).add(
            stroke(hex, ends, at, colour(player), 3.5).add(Title::new(format!(
                "this turn's build {} of {}: {ends}",
                i + 1,
                advised.len()
            ))),
        );
    }
    for city in &content.cities {
        let (cx, cy) = centre(city.hex);
        let fill = match city.colour {
            CityColour::Gray => "#8a8a8a",
            CityColour::Player(c) => colour(c),
        };
        let mut dot = Circle::new()
            .set("cx", cx + dx)
            .set("cy", cy + dy)
            .set("r", R * 0.55)
            .set("fill", fill)
            .set("stroke", "#222222")
            .set("stroke-width", if city.home { 2.5 } else { 1.0 });
        dot = dot.add(Title::new(city.name.clone()));
        doc = doc.add(dot).add(
            Text::new(city.name.clone())
                .set("x", cx + dx)
                .set("y", cy + dy + R * 1.25)
                .set("font-family", FONT)
                .set("font-size", 8)
                .set("text-anchor", "middle"),
        );
    }
    doc.to_string()
}
