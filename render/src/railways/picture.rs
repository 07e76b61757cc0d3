//! An SVG picture of a Railways Express position that explains itself: the hex map by terrain,
//! the cities in their colours (home cities with a thick ring), every tile's track in its
//! owner's colour, a plan's tiles drawn hollow (an outline in the player's colour around a white
//! core, so it cannot pass for built track), the builds advised for a roll drawn solid on a dark
//! edge, and a legend of every colour, mark and line style used. The background is opaque, so
//! the picture reads the same on a dark viewer, and the canvas is wide enough for its title.

use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::terrain::Terrain;
use signalbox_engine::railways::track::{Ends, Side};
use svg::Document;
use svg::node::element::{Circle, Group, Path, Polygon, Rectangle, Text, Title};

/// The hex's circumradius in pixels.
const R: f64 = 27.0;
const MARGIN: f64 = 20.0;
const TITLE_SIZE: f64 = 15.0;
const TITLE_LINE: f64 = 20.0;
const LEGEND_WIDTH: f64 = 210.0;
const LEGEND_LINE: f64 = 19.0;
const FONT: &str = "sans-serif";
const BACKGROUND: &str = "#ffffff";
const INK: &str = "#1a1a1a";
const GRAY_CITY: &str = "#8a8a8a";
/// The width of a built track, and of a plan's outline.
const TRACK: f64 = 5.5;
const PLAN_OUTER: f64 = 8.0;
const PLAN_INNER: f64 = 3.5;

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

/// A path `d` stroked in `colour`, `width` pixels wide.
fn stroke(d: &str, colour: &str, width: f64) -> Path {
    Path::new()
        .set("d", d)
        .set("fill", "none")
        .set("stroke", colour)
        .set("stroke-width", width)
        .set("stroke-linecap", "round")
}

/// The three ways a track is drawn.
#[derive(Clone, Copy)]
enum Style {
    /// Built: solid in the owner's colour.
    Built,
    /// To build (the plan): hollow, the player's colour around a white core.
    Plan,
    /// Advised for this turn: solid in the player's colour on a dark edge.
    Advised,
}

/// The strokes of a track `d` drawn in `style` and `c`, with a tooltip.
fn drawn(d: &str, style: Style, c: &str, tip: String) -> Group {
    let g = Group::new().add(Title::new(tip));
    match style {
        Style::Built => g.add(stroke(d, c, TRACK)),
        Style::Plan => g.add(stroke(d, c, PLAN_OUTER)).add(stroke(d, BACKGROUND, PLAN_INNER)),
        Style::Advised => g.add(stroke(d, INK, TRACK + 3.0)).add(stroke(d, c, TRACK)),
    }
}

fn text(s: &str, x: f64, y: f64, size: f64) -> Text {
    Text::new(s).set("x", x).set("y", y).set("font-family", FONT).set("font-size", size).set("fill", INK)
}

/// A rough width of `s` in pixels at `size` (sans-serif averages about 0.58 em a character).
fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.58
}

/// The corners of a hex centred on `(cx, cy)` with circumradius `r`, as SVG points.
fn corners(cx: f64, cy: f64, r: f64) -> String {
    (0..6)
        .map(|k| {
            let a = (60.0 * f64::from(k) - 30.0f64).to_radians();
            format!("{:.1},{:.1}", cx + r * a.cos(), cy + r * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn city_dot(cx: f64, cy: f64, fill: &str, home: bool) -> Circle {
    Circle::new()
        .set("cx", cx)
        .set("cy", cy)
        .set("r", R * 0.55)
        .set("fill", fill)
        .set("stroke", INK)
        .set("stroke-width", if home { 2.8 } else { 1.0 })
}

/// The picture of `game` with `plan` (tiles to build for `player`) drawn hollow and `advised`
/// (this turn's builds, with `--roll`) drawn solid on a dark edge; `title` is its lines, the
/// first in bold.
pub fn position_svg(
    game: &Game,
    player: Colour,
    plan: &[(Hex, Ends)],
    advised: &[(Hex, Ends)],
    title: &[String],
) -> String {
    draw(game, player, plan, advised, title, None)
}

/// The picture of [`position_svg`] cropped to the part of the map around `region` (the hexes a
/// puzzle is about): every hex within `margin` hexes of their bounding box, the rest of the map
/// left out, so that a large map's corner is drawn as large as a small map.
pub fn region_svg(
    game: &Game,
    player: Colour,
    plan: &[(Hex, Ends)],
    advised: &[(Hex, Ends)],
    title: &[String],
    region: &[Hex],
    margin: f64,
) -> String {
    let points: Vec<(f64, f64)> = region.iter().map(|&h| centre(h)).collect();
    if points.is_empty() {
        return position_svg(game, player, plan, advised, title);
    }
    let pad = margin * R * 3f64.sqrt();
    let bbox = (
        points.iter().map(|p| p.0).fold(f64::MAX, f64::min) - pad,
        points.iter().map(|p| p.0).fold(f64::MIN, f64::max) + pad,
        points.iter().map(|p| p.1).fold(f64::MAX, f64::min) - pad,
        points.iter().map(|p| p.1).fold(f64::MIN, f64::max) + pad,
    );
    draw(game, player, plan, advised, title, Some(bbox))
}

/// Draws the map, or only the hexes whose centres lie in `crop` (x from, x to, y from, y to).
fn draw(
    game: &Game,
    player: Colour,
    plan: &[(Hex, Ends)],
    advised: &[(Hex, Ends)],
    title: &[String],
    crop: Option<(f64, f64, f64, f64)>,
) -> String {
    let content = game.content();
    let shown = |h: Hex| {
        let (x, y) = centre(h);
        crop.is_none_or(|(x0, x1, y0, y1)| (x0..=x1).contains(&x) && (y0..=y1).contains(&y))
    };
    let points: Vec<(f64, f64)> = content.hexes.keys().filter(|&&h| shown(h)).map(|&h| centre(h)).collect();
    let min_x = points.iter().map(|p| p.0).fold(f64::MAX, f64::min) - R;
    let max_x = points.iter().map(|p| p.0).fold(f64::MIN, f64::max) + R;
    let min_y = points.iter().map(|p| p.1).fold(f64::MAX, f64::min) - R;
    let max_y = points.iter().map(|p| p.1).fold(f64::MIN, f64::max) + R;
    let lines = title;
    let title_band = TITLE_LINE * lines.len() as f64 + 10.0;
    let (dx, dy) = (MARGIN - min_x, MARGIN + title_band - min_y);
    let map_width = max_x - min_x;
    let legend_x = MARGIN + map_width + MARGIN;
    let title_width = lines.iter().map(|l| text_width(l, TITLE_SIZE)).fold(0.0, f64::max);
    let width = (legend_x + LEGEND_WIDTH).max(MARGIN + title_width + MARGIN).ceil();
    // The legend's rows: players, the plan and the advice, the cities, the terrains.
    let players: Vec<Colour> = game.players().iter().map(|p| p.colour).collect();
    let legend_rows = 1 + players.len() + 2 + usize::from(!advised.is_empty()) + 3 + 3 + 2;
    let legend_height = LEGEND_LINE * legend_rows as f64 + 10.0;
    let height = (MARGIN + title_band + (max_y - min_y).max(legend_height) + MARGIN).ceil();
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width, height))
        .set("width", width)
        .set("height", height)
        .add(Rectangle::new().set("width", "100%").set("height", "100%").set("fill", BACKGROUND));
    for (i, line) in lines.iter().enumerate() {
        let t = text(line, MARGIN, MARGIN + TITLE_SIZE + TITLE_LINE * i as f64, TITLE_SIZE);
        doc = doc.add(if i == 0 { t.set("font-weight", "bold") } else { t });
    }
    for (&hex, &t) in content.hexes.iter().filter(|(h, _)| shown(**h)) {
        let (cx, cy) = centre(hex);
        let (col, row) = content.offsets.get(&hex).copied().unwrap_or((hex.q, hex.r));
        doc = doc.add(
            Polygon::new()
                .set("points", corners(cx + dx, cy + dy, R))
                .set("fill", terrain(t))
                .set("stroke", BACKGROUND)
                .set("stroke-width", 0.8)
                .add(Title::new(format!("[{col}, {row}] {t}"))),
        );
    }
    // Each hex's [column, row] near its top, so that a printed picture can be answered from.
    for &hex in content.hexes.keys().filter(|&&h| shown(h)) {
        let (cx, cy) = centre(hex);
        let (col, row) = content.offsets.get(&hex).copied().unwrap_or((hex.q, hex.r));
        doc = doc.add(
            text(&format!("{col},{row}"), cx + dx, cy + dy - R * 0.5, 9.0)
                .set("text-anchor", "middle")
                .set("fill", "#4a4a4a"),
        );
    }
    // Tiles of several players on one hex are drawn side by side.
    let mut seen: std::collections::HashMap<Hex, usize> = std::collections::HashMap::new();
    let mut nudge = |hex: Hex| {
        let k = seen.entry(hex).or_insert(0);
        *k += 1;
        let off = (*k as f64 - 1.0) * 2.5;
        (dx + off, dy + off)
    };
    for t in game.tiles().iter().filter(|t| shown(t.hex)) {
        let d = track(t.hex, t.ends, nudge(t.hex));
        doc = doc.add(drawn(&d, Style::Built, colour(t.owner), format!("{} track {}", t.owner, t.ends)));
    }
    for (i, &(hex, ends)) in plan.iter().enumerate() {
        let d = track(hex, ends, nudge(hex));
        let tip = format!("plan tile {i} of {player}'s {}: {ends}", plan.len());
        doc = doc.add(drawn(&d, Style::Plan, colour(player), tip));
    }
    for (i, &(hex, ends)) in advised.iter().enumerate() {
        // An advised build is the plan's or replaces it: drawn where the hex's first plan
        // track would be nudged to, over it.
        let d = track(hex, ends, (dx, dy));
        let tip = format!("this turn's build {i} of {}: {ends}", advised.len());
        doc = doc.add(drawn(&d, Style::Advised, colour(player), tip));
    }
    for city in content.cities.iter().filter(|c| shown(c.hex)) {
        let (cx, cy) = centre(city.hex);
        let fill = match city.colour {
            CityColour::Gray => GRAY_CITY,
            CityColour::Player(c) => colour(c),
        };
        doc = doc
            .add(city_dot(cx + dx, cy + dy, fill, city.home).add(Title::new(city.name.clone())))
            .add(text(&city.name, cx + dx, cy + dy + R * 1.1, 11.0).set("text-anchor", "middle"));
    }
    doc.add(legend(legend_x, MARGIN + title_band, &players, player, !advised.is_empty())).to_string()
}

/// The legend at `(x, y)`: a sample of every line style, city mark and terrain the picture uses.
fn legend(x: f64, y: f64, players: &[Colour], player: Colour, advised: bool) -> Group {
    let mut g = Group::new();
    let mut row = 0.0;
    let mut next = || {
        row += 1.0;
        y + LEGEND_LINE * row
    };
    g = g.add(text("Legend", x, next() - 4.0, 13.0).set("font-weight", "bold"));
    let sample = |style: Style, c: &str, yy: f64| {
        let d = format!("M {:.1} {:.1} L {:.1} {:.1}", x, yy - 4.0, x + 26.0, yy - 4.0);
        drawn(&d, style, c, String::new())
    };
    for &p in players {
        let yy = next();
        g = g.add(sample(Style::Built, colour(p), yy)).add(text(&format!("{p} track, built"), x + 34.0, yy, 11.0));
    }
    let yy = next();
    g = g.add(sample(Style::Plan, colour(player), yy)).add(text(
        &format!("{player}'s plan, to build"),
        x + 34.0,
        yy,
        11.0,
    ));
    if advised {
        let yy = next();
        g = g.add(sample(Style::Advised, colour(player), yy)).add(text(
            "this turn's advised builds",
            x + 34.0,
            yy,
            11.0,
        ));
    }
    let _ = next();
    let yy = next();
    g = g.add(city_dot(x + 13.0, yy - 4.0, GRAY_CITY, false).set("r", 7.5)).add(text(
        "gray city (anyone's)",
        x + 34.0,
        yy,
        11.0,
    ));
    let yy = next();
    g = g.add(city_dot(x + 13.0, yy - 4.0, colour(player), false).set("r", 7.5)).add(text(
        "city of a colour (its player's)",
        x + 34.0,
        yy,
        11.0,
    ));
    let yy = next();
    g = g.add(city_dot(x + 13.0, yy - 4.0, colour(player), true).set("r", 7.5)).add(text(
        "home city (thick ring)",
        x + 34.0,
        yy,
        11.0,
    ));
    let _ = next();
    for t in [Terrain::Plains, Terrain::Mountain, Terrain::Water] {
        let yy = next();
        g = g
            .add(
                Polygon::new()
                    .set("points", corners(x + 13.0, yy - 4.0, 8.5))
                    .set("fill", terrain(t))
                    .set("stroke", INK)
                    .set("stroke-width", 0.4),
            )
            .add(text(&format!("{t} hex"), x + 34.0, yy, 11.0));
    }
    let yy = next();
    g.add(text("column,row at the top of each hex", x, yy, 9.5))
}
