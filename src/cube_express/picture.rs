//! An SVG picture of a planned Cube Express turn or solitaire line: the network after it with the
//! laid tiles outlined, each tile's tracks, centre action and features, the stations in their
//! owners' colours, and each locomotive's path numbered step by step.

use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::board::Piece;
use signalbox_engine::cube_express::colour::Colour;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::resource::Resource;
use signalbox_engine::cube_express::tile::Centre;
use signalbox_engine::grid::square::Cell;
use svg::Document;
use svg::node::element::{Circle, Line, Polyline, Rectangle, Text, Title};

/// Cell size in pixels.
const S: f32 = 64.0;
const MARGIN: f32 = 24.0;
const TITLE_BAND: f32 = 34.0;
const LEGEND_BAND: f32 = 40.0;
const FONT: &str = "sans-serif";
const PATH_COLOURS: [&str; 5] = ["#e6550d", "#3182bd", "#31a354", "#756bb1", "#636363"];

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Red => "#d62728",
        Colour::Blue => "#1f77b4",
        Colour::Yellow => "#e5b800",
        Colour::Green => "#2ca02c",
    }
}

fn resource(r: Resource) -> (&'static str, &'static str) {
    match r {
        Resource::Coal => ("#333333", "C"),
        Resource::Wood => ("#a0522d", "W"),
        Resource::Iron => ("#7f8fa6", "I"),
    }
}

fn text(x: f32, y: f32, size: f32, s: &str) -> Text {
    Text::new(s).set("x", x).set("y", y).set("font-family", FONT).set("font-size", size).set("text-anchor", "middle")
}

/// The picture of `actions` played from `game`, titled `title`. Actions that do not replay are
/// left out (the plan has been checked before it is drawn).
pub fn plan_svg(game: &Game, actions: &[Action], title: &str) -> String {
    line_svg(game, &[actions], title)
}

/// The picture of several turns played from `game` (a solitaire line): the network after them,
/// each laid tile outlined and marked with its turn, and each turn's locomotive paths.
pub fn line_svg<T: AsRef<[Action]>>(game: &Game, turns: &[T], title: &str) -> String {
    let mut g = game.clone();
    let seat = usize::from(game.active());
    let mut laid: Vec<(usize, Cell)> = Vec::new();
    // (turn, locomotive, cells).
    let mut paths: Vec<(usize, u8, Vec<Cell>)> = Vec::new();
    'turns: for (turn, actions) in turns.iter().enumerate() {
        let first_path = paths.len();
        for a in actions.as_ref() {
            if let Action::Move { locomotive, .. } = a
                && paths[first_path..].last().is_none_or(|(_, l, _)| l != locomotive)
                && let Some(Some(from)) = g.players()[seat].locomotives.get(usize::from(*locomotive))
            {
                paths.push((turn, *locomotive, vec![*from]));
            }
            if g.apply(a).is_err() {
                break 'turns;
            }
            match a {
                Action::Lay(l) => laid.push((turn, l.cell)),
                Action::Move { to, .. } => {
                    if let Some((_, _, p)) = paths.last_mut() {
                        p.push(*to);
                    }
                }
                _ => {}
            }
        }
    }
    let several = turns.len() > 1;
    let tiles = g.board().tiles();
    let (min_x, max_x) =
        (tiles.iter().map(|t| t.cell.x).min().unwrap_or(0), tiles.iter().map(|t| t.cell.x).max().unwrap_or(0));
    let (min_y, max_y) =
        (tiles.iter().map(|t| t.cell.y).min().unwrap_or(0), tiles.iter().map(|t| t.cell.y).max().unwrap_or(0));
    let width = (max_x - min_x + 1) as f32 * S + 2.0 * MARGIN;
    let width = width.max(if several { 760.0 } else { 560.0 }).max(title.chars().count() as f32 * 7.6 + 2.0 * MARGIN);
    let height = (max_y - min_y + 1) as f32 * S + 2.0 * MARGIN + TITLE_BAND + LEGEND_BAND;
    let origin = |c: Cell| (MARGIN + (c.x - min_x) as f32 * S, TITLE_BAND + MARGIN + (c.y - min_y) as f32 * S);
    let centre = |c: Cell| {
        let (x, y) = origin(c);
        (x + S / 2.0, y + S / 2.0)
    };
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width as i32, height as i32))
        .set("width", width as i32)
        .set("height", height as i32)
        .add(Rectangle::new().set("width", "100%").set("height", "100%").set("fill", "white"))
        .add(Text::new(title).set("x", MARGIN).set("y", 22).set("font-family", FONT).set("font-size", 15));
    for t in tiles {
        let (x, y) = origin(t.cell);
        let (cx, cy) = centre(t.cell);
        let back = matches!(t.piece, Piece::Back { .. });
        let mut rect = Rectangle::new()
            .set("x", x + 1.0)
            .set("y", y + 1.0)
            .set("width", S - 2.0)
            .set("height", S - 2.0)
            .set("fill", if back { "#e4e4e4" } else { "#f7f3e8" })
            .set("stroke", "#999");
        let label = match t.piece {
            Piece::Crossing => "start crossing (coal)".to_string(),
            Piece::Start { seat } => format!("starting tile {}", seat + 1),
            Piece::Front { tile, rotation } => format!("tile {tile}, turned {rotation}"),
            Piece::Back { tile, rotation } => format!("tile {tile} back up, turned {rotation}"),
        };
        rect = rect.add(Title::new(format!("{} {label}", t.cell)));
        let turn_laid = laid.iter().find(|&&(_, c)| c == t.cell).map(|&(turn, _)| turn);
        if turn_laid.is_some() {
            rect = rect.set("stroke", "#ff7f0e").set("stroke-width", 4);
        }
        doc = doc.add(rect);
        if let Some(turn) = turn_laid.filter(|_| several) {
            doc = doc.add(text(x + 12.0, y + S / 2.0 + 16.0, 10.0, &format!("t{}", turn + 1)).set("fill", "#ff7f0e"));
        }
        for side in t.face.tracks.iter() {
            let (dx, dy) = side.offset();
            doc = doc.add(
                Line::new()
                    .set("x1", cx)
                    .set("y1", cy)
                    .set("x2", cx + dx as f32 * S / 2.0)
                    .set("y2", cy + dy as f32 * S / 2.0)
                    .set("stroke", "#555")
                    .set("stroke-width", 6),
            );
        }
        let (fill, letter) = match t.face.centre {
            Some(Centre::Crossing) => ("#bbbbbb", "X"),
            Some(Centre::Factory(_)) => ("#e8a0a0", "F"),
            Some(Centre::Production) => ("#a8d8a0", "P"),
            Some(Centre::Station) => ("#a8b8e8", "S"),
            None if matches!(t.piece, Piece::Crossing) => ("#bbbbbb", "X"),
            None => ("#dddddd", ""),
        };
        doc = doc.add(Circle::new().set("cx", cx).set("cy", cy).set("r", 9).set("fill", fill).set("stroke", "#555"));
        doc = doc.add(text(cx, cy + 4.0, 10.0, letter));
        if let Some(r) = t.face.production {
            let (fill, l) = resource(r);
            doc = doc.add(
                Rectangle::new()
                    .set("x", x + 4.0)
                    .set("y", y + 4.0)
                    .set("width", 14)
                    .set("height", 14)
                    .set("fill", fill),
            );
            doc = doc.add(text(x + 11.0, y + 15.0, 10.0, l).set("fill", "white"));
            if let Some(o) = t.owner {
                let c = colour(g.players()[usize::from(o)].colour);
                doc = doc.add(Circle::new().set("cx", x + 22.0).set("cy", y + 11.0).set("r", 3).set("fill", c));
            }
        }
        if let Some(f) = t.face.factory {
            let needs: String =
                Resource::ALL.iter().map(|&r| resource(r).1.repeat(usize::from(f.needs.get(r)))).collect();
            let status = match t.first {
                Some(_) => format!("{needs} {}", f.b),
                None => format!("{needs} {}/{}", f.a, f.b),
            };
            doc = doc.add(text(x + S - 18.0, y + 13.0, 9.0, &status).set("fill", "#a02020"));
        }
        if let Some(city) = t.face.city {
            let houses = "⌂".repeat(usize::from(city.houses));
            doc = doc.add(text(x + S / 2.0, y + S - 5.0, 10.0, &houses).set("fill", "#6a4a8a"));
        }
        if let Some(owner) = t.station {
            let c = colour(g.players()[usize::from(owner)].colour);
            doc = doc.add(
                Rectangle::new()
                    .set("x", x + S - 16.0)
                    .set("y", y + S - 16.0)
                    .set("width", 12)
                    .set("height", 12)
                    .set("fill", c)
                    .set("stroke", "#222"),
            );
        }
        let passengers: u8 = t.passengers.iter().sum();
        if passengers > 0 {
            doc = doc.add(text(x + 10.0, y + S - 5.0, 9.0, &format!("{passengers}p")));
        }
    }
    for (run, (turn, loco, cells)) in paths.iter().enumerate() {
        let pc = PATH_COLOURS[run % PATH_COLOURS.len()];
        let offset = if run % 2 == 0 { -5.0 } else { 5.0 };
        let points: Vec<String> = cells
            .iter()
            .map(|&c| {
                let (x, y) = centre(c);
                format!("{},{}", x + offset, y + offset)
            })
            .collect();
        doc = doc.add(
            Polyline::new()
                .set("points", points.join(" "))
                .set("fill", "none")
                .set("stroke", pc)
                .set("stroke-width", 3)
                .set("stroke-dasharray", "6 3")
                .add(Title::new(if several {
                    format!("turn {}, locomotive {}", turn + 1, loco + 1)
                } else {
                    format!("locomotive {}", loco + 1)
                })),
        );
        for (step, &c) in cells.iter().enumerate() {
            let (x, y) = centre(c);
            let (x, y) = (x + offset + 10.0, y + offset - 10.0);
            doc = doc.add(Circle::new().set("cx", x).set("cy", y).set("r", 7).set("fill", pc));
            doc = doc.add(text(x, y + 3.5, 9.0, &step.to_string()).set("fill", "white"));
        }
    }
    let legend = [
        "X crossing · F factory (needs, A/B points) · P production · S station · C/W/I coal, wood, iron · ⌂ houses",
        if several {
            "orange outlines: the tiles laid (t1: turn 1) · dashed numbered lines: locomotive paths, in order orange, blue, green, purple, grey"
        } else {
            "orange outline: the tile laid · dashed numbered lines: locomotive paths (first orange, then blue)"
        },
    ];
    for (i, line) in legend.iter().enumerate() {
        let y = height - LEGEND_BAND + 14.0 + 14.0 * i as f32;
        doc = doc.add(Text::new(*line).set("x", MARGIN).set("y", y).set("font-family", FONT).set("font-size", 10));
    }
    doc.to_string()
}
