//! An SVG picture of a planned Cube Express turn or solitaire line, meant to be read on its own:
//! the network after it on a grid with its coordinates (the `[x, y]` of the text), each tile's
//! tracks, centre action and features (production facilities with their owners, factories with
//! their spaces, cities with their house icons and passengers, stations in their owners'
//! colours), the tiles laid outlined, each locomotive's path with its steps numbered on the track
//! it took, and a legend of every colour, badge, mark and number used.

use std::collections::HashMap;

use signalbox_engine::cube_express::action::{Action, ordinal};
use signalbox_engine::cube_express::board::{Piece, Placed};
use signalbox_engine::cube_express::colour::Colour;
use signalbox_engine::cube_express::describe::plural;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::resource::Resource;
use signalbox_engine::cube_express::tile::Centre;
use signalbox_engine::grid::square::{Cell, Side};
use svg::Document;
use svg::node::element::{Circle, Group, Line, Polygon, Polyline, Rectangle, Text, Title};

/// Cell size in pixels.
const S: f32 = 96.0;
/// Outer margin.
const MARGIN: f32 = 16.0;
/// Room for the coordinates above and left of the grid.
const AXIS: f32 = 26.0;
const FONT: &str = "sans-serif";
const TITLE_SIZE: f32 = 16.0;
const LEGEND_SIZE: f32 = 12.0;
const LEGEND_ROW: f32 = 22.0;
/// Width of the glyph column of the legend.
const GLYPH: f32 = 74.0;
const TRACK: &str = "#7a7a7a";
const LAID: &str = "#ff7f0e";
const CITY: &str = "#6a4a8a";
const FACTORY: &str = "#a02020";
/// Path colours, distinct from the players' and the resources' colours.
const PATH_COLOURS: [&str; 5] = ["#6a3d9a", "#e7298a", "#17becf", "#252525", "#808000"];

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

/// The estimated width of `s` at `size` (sans-serif, average glyph).
fn width_of(s: &str, size: f32) -> f32 {
    s.chars().count() as f32 * size * 0.56
}

fn text(x: f32, y: f32, size: f32, s: &str) -> Text {
    Text::new(s).set("x", x).set("y", y).set("font-family", FONT).set("font-size", size).set("text-anchor", "middle")
}

fn left_text(x: f32, y: f32, size: f32, s: &str) -> Text {
    Text::new(s).set("x", x).set("y", y).set("font-family", FONT).set("font-size", size)
}

fn rect(x: f32, y: f32, w: f32, h: f32, fill: &str) -> Rectangle {
    Rectangle::new().set("x", x).set("y", y).set("width", w).set("height", h).set("fill", fill)
}

/// A house icon with its floor's left end at (`x`, `y`).
fn house(x: f32, y: f32) -> Polygon {
    let points = format!("{x},{y} {},{y} {},{} {},{} {},{}", x + 9.0, x + 9.0, y - 6.0, x + 4.5, y - 11.0, x, y - 6.0);
    Polygon::new().set("points", points).set("fill", CITY)
}

/// One run of a locomotive: the turn, the locomotive and the cells in order (its start first).
struct Run {
    turn: usize,
    locomotive: u8,
    cells: Vec<Cell>,
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
    let mut runs: Vec<Run> = Vec::new();
    'turns: for (turn, actions) in turns.iter().enumerate() {
        let first_run = runs.len();
        for a in actions.as_ref() {
            if let Action::Move { locomotive, .. } = a
                && runs[first_run..].last().is_none_or(|r| r.locomotive != *locomotive)
                && let Some(Some(from)) = g.players()[seat].locomotives.get(usize::from(*locomotive))
            {
                runs.push(Run { turn, locomotive: *locomotive, cells: vec![*from] });
            }
            if g.apply(a).is_err() {
                break 'turns;
            }
            match a {
                Action::Lay(l) => laid.push((turn, l.cell)),
                Action::Move { to, .. } => {
                    if let Some(r) = runs.last_mut() {
                        r.cells.push(*to);
                    }
                }
                _ => {}
            }
        }
    }
    Picture::new(&g, turns.len() > 1, laid, runs).draw(title)
}

/// What is drawn, and where the grid lies.
struct Picture<'a> {
    game: &'a Game,
    several: bool,
    laid: Vec<(usize, Cell)>,
    runs: Vec<Run>,
    min: Cell,
    cols: i32,
    rows: i32,
    /// Where the grid's top left corner is drawn.
    grid: (f32, f32),
}

impl<'a> Picture<'a> {
    fn new(game: &'a Game, several: bool, laid: Vec<(usize, Cell)>, runs: Vec<Run>) -> Picture<'a> {
        let tiles = game.board().tiles();
        let xs = tiles.iter().map(|t| t.cell.x);
        let ys = tiles.iter().map(|t| t.cell.y);
        let (min_x, max_x) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (min_y, max_y) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
        Picture {
            game,
            several,
            laid,
            runs,
            min: Cell::new(min_x, min_y),
            cols: max_x - min_x + 1,
            rows: max_y - min_y + 1,
            grid: (0.0, 0.0),
        }
    }

    fn origin(&self, c: Cell) -> (f32, f32) {
        (self.grid.0 + (c.x - self.min.x) as f32 * S, self.grid.1 + (c.y - self.min.y) as f32 * S)
    }

    fn centre(&self, c: Cell) -> (f32, f32) {
        let (x, y) = self.origin(c);
        (x + S / 2.0, y + S / 2.0)
    }

    fn draw(mut self, title: &str) -> String {
        let legend = self.legend();
        let legend_width = legend.iter().map(|(_, t)| GLYPH + width_of(t, LEGEND_SIZE)).fold(0.0, f32::max);
        let map_width = AXIS + self.cols as f32 * S;
        let width = (map_width.max(legend_width) + 2.0 * MARGIN).ceil();
        let title_lines = wrap(title, width - 2.0 * MARGIN, TITLE_SIZE);
        let title_height = title_lines.len() as f32 * (TITLE_SIZE + 6.0) + 8.0;
        // The grid centred above a wider legend.
        let left = MARGIN + ((width - 2.0 * MARGIN - map_width) / 2.0).max(0.0).floor();
        self.grid = (left + AXIS, MARGIN + title_height + AXIS);
        let map_bottom = self.grid.1 + self.rows as f32 * S;
        let legend_top = map_bottom + 20.0;
        let height = (legend_top + LEGEND_SIZE + 8.0 + legend.len() as f32 * LEGEND_ROW + MARGIN).ceil();
        let mut doc = Document::new()
            .set("viewBox", (0, 0, width as i32, height as i32))
            .set("width", width as i32)
            .set("height", height as i32)
            .add(rect(0.0, 0.0, width, height, "white"));
        for (i, line) in title_lines.iter().enumerate() {
            let y = MARGIN + TITLE_SIZE + i as f32 * (TITLE_SIZE + 6.0);
            doc = doc.add(left_text(MARGIN, y, TITLE_SIZE, line).set("font-weight", "bold"));
        }
        doc = doc.add(self.axes());
        // Tiles and tracks, then the paths along the tracks, then everything on the tiles, then
        // the paths' step numbers, so that no path hides a mark and no mark hides a number.
        let tiles = self.game.board().tiles();
        for t in tiles {
            doc = doc.add(self.base(t));
        }
        let (lines, numbers) = self.paths();
        doc = doc.add(lines);
        for t in tiles {
            doc = doc.add(self.marks(t));
        }
        doc = doc.add(numbers);
        doc = doc
            .add(left_text(MARGIN, legend_top + LEGEND_SIZE, LEGEND_SIZE + 1.0, "Legend").set("font-weight", "bold"));
        for (i, (glyph, words)) in legend.iter().enumerate() {
            let y = legend_top + LEGEND_SIZE + 8.0 + i as f32 * LEGEND_ROW;
            doc = doc.add(glyph.draw(MARGIN, y));
            doc = doc.add(left_text(MARGIN + GLYPH, y + 15.0, LEGEND_SIZE, words));
        }
        doc.to_string()
    }

    /// The grid's cells, empty ones faint, and the coordinates: x above each column, y left of
    /// each row.
    fn axes(&self) -> Group {
        let mut g = Group::new();
        let (gx, gy) = self.grid;
        g = g.add(left_text(gx - AXIS, gy - AXIS + 12.0, 10.0, "y \\ x").set("fill", "#555"));
        for i in 0..self.cols {
            let x = gx + i as f32 * S + S / 2.0;
            g = g.add(text(x, gy - 8.0, 12.0, &(self.min.x + i).to_string()).set("fill", "#333"));
        }
        for j in 0..self.rows {
            let y = gy + j as f32 * S + S / 2.0 + 4.0;
            g = g.add(text(gx - AXIS / 2.0, y, 12.0, &(self.min.y + j).to_string()).set("fill", "#333"));
        }
        for i in 0..self.cols {
            for j in 0..self.rows {
                let c = Cell::new(self.min.x + i, self.min.y + j);
                if self.game.board().at(c).is_none() {
                    let (x, y) = self.origin(c);
                    g = g.add(
                        rect(x + 1.0, y + 1.0, S - 2.0, S - 2.0, "#fafafa")
                            .set("stroke", "#dddddd")
                            .set("stroke-dasharray", "3 3")
                            .add(Title::new(format!("{c} empty"))),
                    );
                }
            }
        }
        g
    }

    /// A tile's face, edges and tracks.
    fn base(&self, t: &Placed) -> Group {
        let (x, y) = self.origin(t.cell);
        let (cx, cy) = self.centre(t.cell);
        let back = matches!(t.piece, Piece::Back { .. });
        let label = match t.piece {
            Piece::Crossing => "the start crossing (gives coal)".to_string(),
            Piece::Start { seat } => format!("starting tile of the player in seat {}", u16::from(seat) + 1),
            Piece::Front { tile, rotation } => format!("tile {tile} front up, turned {rotation}"),
            Piece::Back { tile, rotation } => format!("tile {tile} back up, turned {rotation}"),
        };
        let mut g = Group::new().add(Title::new(format!("{} {label}", t.cell)));
        g = g.add(
            rect(x + 1.0, y + 1.0, S - 2.0, S - 2.0, if back { "#e2e2e2" } else { "#f7f3e8" }).set("stroke", "#999"),
        );
        // The starting tiles are edged in their colour (the unused ones too).
        if let Piece::Start { seat } = t.piece {
            let c = self.game.content().starts.get(usize::from(seat)).map_or("#999999", |s| colour(s.colour));
            g = g.add(rect(x + 4.0, y + 4.0, S - 8.0, S - 8.0, "none").set("stroke", c).set("stroke-width", 3));
        }
        // The sides a city space touches, as a band along the edge.
        if let Some(city) = t.face.city {
            for side in city.sides.iter() {
                let (bx, by, bw, bh) = match side {
                    Side::N => (x + 2.0, y + 2.0, S - 4.0, 6.0),
                    Side::S => (x + 2.0, y + S - 8.0, S - 4.0, 6.0),
                    Side::W => (x + 2.0, y + 2.0, 6.0, S - 4.0),
                    Side::E => (x + S - 8.0, y + 2.0, 6.0, S - 4.0),
                };
                g = g.add(rect(bx, by, bw, bh, CITY).set("fill-opacity", 0.45));
            }
        }
        for side in t.face.tracks.iter() {
            let (dx, dy) = side.offset();
            g = g.add(
                Line::new()
                    .set("x1", cx)
                    .set("y1", cy)
                    .set("x2", cx + dx as f32 * S / 2.0)
                    .set("y2", cy + dy as f32 * S / 2.0)
                    .set("stroke", TRACK)
                    .set("stroke-width", 8),
            );
        }
        g
    }

    /// What lies on a tile: its centre action, its features and their cubes, its station, and
    /// the outline of a tile laid.
    fn marks(&self, t: &Placed) -> Group {
        let (x, y) = self.origin(t.cell);
        let (cx, cy) = self.centre(t.cell);
        let players = self.game.players();
        let seat_colour = |s: u8| players.get(usize::from(s)).map_or("#999999", |p| colour(p.colour));
        let turn_laid = self.laid.iter().find(|&&(_, c)| c == t.cell).map(|&(turn, _)| turn);
        let mut g = Group::new();
        let (fill, letter) = match (t.face.centre, t.piece) {
            (Some(Centre::Crossing), _) | (None, Piece::Crossing) => ("#bbbbbb", "X"),
            (Some(Centre::Factory(_)), _) => ("#e8a0a0", "F"),
            (Some(Centre::Production), _) => ("#a8d8a0", "P"),
            (Some(Centre::Station), _) => ("#a8b8e8", "S"),
            (None, _) => ("#dddddd", ""),
        };
        if !letter.is_empty() {
            g = g.add(Circle::new().set("cx", cx).set("cy", cy).set("r", 12).set("fill", fill).set("stroke", "#555"));
            g = g.add(text(cx, cy + 4.5, 12.0, letter).set("font-weight", "bold"));
        } else {
            g = g.add(Circle::new().set("cx", cx).set("cy", cy).set("r", 5).set("fill", TRACK));
        }
        // Top left: the production facility and its owner.
        if let Some(r) = t.face.production {
            let (fill, l) = resource(r);
            g = g.add(rect(x + 6.0, y + 8.0, 18.0, 18.0, fill).set("stroke", "#222"));
            g = g.add(text(x + 15.0, y + 21.5, 12.0, l).set("fill", "white").set("font-weight", "bold"));
            if let Some(o) = t.owner {
                g = g.add(
                    Circle::new()
                        .set("cx", x + 33.0)
                        .set("cy", y + 17.0)
                        .set("r", 6)
                        .set("fill", seat_colour(o))
                        .set("stroke", "#222"),
                );
            }
        }
        // Top right: the factory, what a delivery needs and its spaces.
        if let Some(f) = t.face.factory {
            let (fx, fy) = (x + 55.0, y + 4.0);
            g = g.add(rect(fx, fy, 38.0, 38.0, "white").set("stroke", FACTORY).set("stroke-width", 1.5));
            let needs: Vec<&str> = Resource::ALL
                .iter()
                .flat_map(|&r| std::iter::repeat_n(resource(r).1, usize::from(f.needs.get(r))))
                .collect();
            g = g
                .add(text(fx + 19.0, fy + 12.0, 11.0, &needs.join("")).set("fill", FACTORY).set("font-weight", "bold"));
            g = g.add(left_text(fx + 3.0, fy + 24.0, 10.0, &format!("A{}", f.a)).set("fill", FACTORY));
            if let Some(first) = t.first {
                g = g.add(rect(fx + 24.0, fy + 16.0, 10.0, 10.0, seat_colour(first)).set("stroke", "#222"));
            }
            let later: u8 = t.later.iter().sum();
            let b = if later > 0 { format!("B{} ×{later}", f.b) } else { format!("B{}", f.b) };
            g = g.add(left_text(fx + 3.0, fy + 35.0, 10.0, &b).set("fill", FACTORY));
        }
        // Bottom left: the city's house icons and its passengers.
        if let Some(city) = t.face.city {
            let (hx, hy) = (x + 6.0, y + 58.0);
            g = g.add(rect(hx, hy, 36.0, 32.0, "white").set("stroke", CITY).set("stroke-width", 1.5));
            for i in 0..city.houses {
                g = g.add(house(hx + 3.0 + 11.0 * f32::from(i), hy + 15.0));
            }
            let mut k = 0.0;
            for (s, &n) in t.passengers.iter().enumerate() {
                for _ in 0..n {
                    g = g.add(
                        Circle::new()
                            .set("cx", hx + 6.0 + 8.0 * k)
                            .set("cy", hy + 24.0)
                            .set("r", 3.5)
                            .set("fill", seat_colour(s as u8))
                            .set("stroke", "#222")
                            .set("stroke-width", 0.8),
                    );
                    k += 1.0;
                }
            }
        }
        // Bottom right: the station, and the turn the tile was laid.
        if let Some(owner) = t.station {
            g = g.add(rect(x + S - 26.0, y + S - 26.0, 20.0, 20.0, seat_colour(owner)).set("stroke", "#222"));
        }
        if let Some(turn) = turn_laid {
            g = g.add(rect(x + 2.0, y + 2.0, S - 4.0, S - 4.0, "none").set("stroke", LAID).set("stroke-width", 4));
            if self.several {
                g = g.add(
                    text(x + S - 16.0, y + S - 30.0, 11.0, &format!("t{}", turn + 1))
                        .set("fill", LAID)
                        .set("font-weight", "bold"),
                );
            }
        }
        g
    }

    /// Each run's path along the track, its steps numbered on the track it came along (its start
    /// on the track it leaves by).
    fn paths(&self) -> (Group, Group) {
        let mut g = Group::new();
        let mut badges = Group::new();
        let mut used: HashMap<(Cell, Side), usize> = HashMap::new();
        for (k, run) in self.runs.iter().enumerate() {
            let pc = PATH_COLOURS[k % PATH_COLOURS.len()];
            let d = [0.0, 3.0, -3.0, 5.0, -5.0][k % 5];
            let points: Vec<String> = run
                .cells
                .iter()
                .map(|&c| {
                    let (x, y) = self.centre(c);
                    format!("{},{}", x + d, y + d)
                })
                .collect();
            let name = if self.several {
                format!("turn {}, the {} locomotive", run.turn + 1, ordinal(run.locomotive))
            } else {
                format!("the {} locomotive", ordinal(run.locomotive))
            };
            g = g.add(
                Polyline::new()
                    .set("points", points.join(" "))
                    .set("fill", "none")
                    .set("stroke", pc)
                    .set("stroke-width", 3)
                    .set("stroke-dasharray", "7 3")
                    .add(Title::new(name)),
            );
            for (step, &c) in run.cells.iter().enumerate() {
                let towards = if step == 0 { run.cells.get(1) } else { run.cells.get(step - 1) };
                let Some(side) = towards.and_then(|&o| c.side_towards(o)) else { continue };
                let slot = used.entry((c, side)).or_insert(0);
                let r = 26.0 + 15.0 * (*slot % 2) as f32;
                let lateral = 9.0 * (*slot / 2) as f32;
                *slot += 1;
                let (dx, dy) = side.offset();
                let (cx, cy) = self.centre(c);
                let (bx, by) = (cx + dx as f32 * r - dy as f32 * lateral, cy + dy as f32 * r + dx as f32 * lateral);
                badges = badges
                    .add(
                        Circle::new()
                            .set("cx", bx)
                            .set("cy", by)
                            .set("r", 8)
                            .set("fill", pc)
                            .set("stroke", "white")
                            .set("stroke-width", 1.5),
                    )
                    .add(text(bx, by + 3.5, 10.0, &step.to_string()).set("fill", "white").set("font-weight", "bold"));
            }
        }
        (g, badges)
    }

    /// The legend's rows: a glyph and what it means, only for what the picture shows.
    fn legend(&self) -> Vec<(Glyph, String)> {
        let tiles = self.game.board().tiles();
        let mut rows: Vec<(Glyph, String)> = vec![
            (Glyph::Axes, "the numbers above and beside the grid: a cell's x and y, the [x, y] of the text".into()),
            (Glyph::Track, "track: a locomotive travels along it from tile to tile".into()),
            (Glyph::Centres, "centre action of the tile: X crossing, F factory, P production, S station".into()),
        ];
        rows.push((Glyph::Resources, "production facility: coal, wood, iron (the start crossing gives coal)".into()));
        if tiles.iter().any(|t| t.owner.is_some()) {
            rows.push((Glyph::Owner, "a dot beside a facility: its owner's colour".into()));
        }
        if tiles.iter().any(|t| t.face.factory.is_some()) {
            rows.push((
                Glyph::Factory,
                "factory: the resources a delivery needs; points of space A (first) and B (later)".into(),
            ));
            rows.push((Glyph::FactoryCubes, "a square on A: who delivered first; ×n: cubes on B".into()));
        }
        rows.push((Glyph::City, "city: its house icons (3 points each to its station); dots: passengers".into()));
        rows.push((Glyph::CitySide, "purple band: the sides a city touches (cities join across them)".into()));
        rows.push((Glyph::Station, "a square in a player's colour: that player's station".into()));
        rows.push((Glyph::Start, "edged in a colour: that colour's starting tile".into()));
        if tiles.iter().any(|t| matches!(t.piece, Piece::Back { .. })) {
            rows.push((Glyph::Back, "grey tile: laid back side up (plain track, no action)".into()));
        }
        if !self.laid.is_empty() {
            let what = if self.several {
                "the tiles laid by the line; t1: laid in turn 1"
            } else {
                "the tile laid by the plan"
            };
            rows.push((Glyph::Laid, format!("orange outline: {what}")));
        }
        if !self.runs.is_empty() {
            rows.push((
                Glyph::Step,
                "numbers on the track: a path's tiles in order, on the track it came by (0: its start)".into(),
            ));
        }
        for (k, run) in self.runs.iter().enumerate() {
            let name = if self.several {
                format!("turn {}, the {} locomotive", run.turn + 1, ordinal(run.locomotive))
            } else {
                format!("the {} locomotive", ordinal(run.locomotive))
            };
            rows.push((
                Glyph::Path(PATH_COLOURS[k % PATH_COLOURS.len()]),
                format!("path of {name}, {}", plural(run.cells.len() - 1, "move")),
            ));
        }
        let mut seats: Vec<(&'static str, String)> =
            self.game.players().iter().map(|p| (colour(p.colour), p.colour.to_string())).collect();
        seats.truncate(4);
        let names: Vec<String> = seats.iter().map(|(_, n)| n.clone()).collect();
        rows.push((
            Glyph::Players(seats.iter().map(|(c, _)| *c).collect()),
            format!("players, in seat order: {}", names.join(", ")),
        ));
        rows
    }
}

/// A legend row's picture.
enum Glyph {
    Axes,
    Track,
    Centres,
    Resources,
    Owner,
    Factory,
    FactoryCubes,
    City,
    CitySide,
    Station,
    Start,
    Back,
    Laid,
    Step,
    Path(&'static str),
    Players(Vec<&'static str>),
}

impl Glyph {
    /// The glyph in the box from (`x`, `y`), `GLYPH` wide and 20 high.
    fn draw(&self, x: f32, y: f32) -> Group {
        let g = Group::new();
        let mid = y + 11.0;
        match self {
            Glyph::Axes => g.add(left_text(x, mid + 4.0, 12.0, "[x, y]").set("fill", "#333")),
            Glyph::Track => g.add(
                Line::new()
                    .set("x1", x)
                    .set("y1", mid)
                    .set("x2", x + 56.0)
                    .set("y2", mid)
                    .set("stroke", TRACK)
                    .set("stroke-width", 8),
            ),
            Glyph::Centres => {
                let mut g = g;
                for (i, (fill, l)) in
                    [("#bbbbbb", "X"), ("#e8a0a0", "F"), ("#a8d8a0", "P"), ("#a8b8e8", "S")].iter().enumerate()
                {
                    let cx = x + 8.0 + 16.0 * i as f32;
                    g = g.add(
                        Circle::new()
                            .set("cx", cx)
                            .set("cy", mid)
                            .set("r", 7.5)
                            .set("fill", *fill)
                            .set("stroke", "#555"),
                    );
                    g = g.add(text(cx, mid + 3.5, 9.0, l).set("font-weight", "bold"));
                }
                g
            }
            Glyph::Resources => {
                let mut g = g;
                for (i, r) in Resource::ALL.iter().enumerate() {
                    let (fill, l) = resource(*r);
                    let rx = x + 18.0 * i as f32;
                    g = g.add(rect(rx, mid - 8.0, 16.0, 16.0, fill).set("stroke", "#222"));
                    g = g.add(text(rx + 8.0, mid + 4.0, 11.0, l).set("fill", "white").set("font-weight", "bold"));
                }
                g
            }
            Glyph::Owner => g
                .add(rect(x, mid - 8.0, 16.0, 16.0, "#333333").set("stroke", "#222"))
                .add(text(x + 8.0, mid + 4.0, 11.0, "C").set("fill", "white").set("font-weight", "bold"))
                .add(
                    Circle::new()
                        .set("cx", x + 26.0)
                        .set("cy", mid)
                        .set("r", 6)
                        .set("fill", colour(Colour::Red))
                        .set("stroke", "#222"),
                ),
            Glyph::Factory => g
                .add(rect(x, y - 1.0, 62.0, 22.0, "white").set("stroke", FACTORY).set("stroke-width", 1.5))
                .add(left_text(x + 4.0, mid + 4.0, 10.0, "CW  A5  B2").set("fill", FACTORY)),
            Glyph::FactoryCubes => g
                .add(left_text(x, mid + 4.0, 10.0, "A").set("fill", FACTORY))
                .add(rect(x + 9.0, mid - 5.0, 10.0, 10.0, colour(Colour::Red)).set("stroke", "#222"))
                .add(left_text(x + 24.0, mid + 4.0, 10.0, "B ×2").set("fill", FACTORY)),
            Glyph::City => {
                let mut g = g.add(rect(x, y - 2.0, 56.0, 24.0, "white").set("stroke", CITY).set("stroke-width", 1.5));
                for i in 0..2 {
                    g = g.add(house(x + 4.0 + 11.0 * i as f32, mid + 5.0));
                }
                g.add(
                    Circle::new()
                        .set("cx", x + 34.0)
                        .set("cy", mid + 1.0)
                        .set("r", 3.5)
                        .set("fill", colour(Colour::Red))
                        .set("stroke", "#222")
                        .set("stroke-width", 0.8),
                )
                .add(
                    Circle::new()
                        .set("cx", x + 43.0)
                        .set("cy", mid + 1.0)
                        .set("r", 3.5)
                        .set("fill", colour(Colour::Blue))
                        .set("stroke", "#222")
                        .set("stroke-width", 0.8),
                )
            }
            Glyph::CitySide => g.add(rect(x, mid - 3.0, 56.0, 6.0, CITY).set("fill-opacity", 0.45)),
            Glyph::Station => g.add(rect(x, mid - 9.0, 18.0, 18.0, colour(Colour::Blue)).set("stroke", "#222")),
            Glyph::Start => g.add(
                rect(x + 1.0, y - 1.0, 40.0, 22.0, "#f7f3e8")
                    .set("stroke", colour(Colour::Green))
                    .set("stroke-width", 3),
            ),
            Glyph::Back => g.add(rect(x, y - 1.0, 40.0, 22.0, "#e2e2e2").set("stroke", "#999")),
            Glyph::Laid => {
                g.add(rect(x + 1.0, y - 1.0, 40.0, 22.0, "#f7f3e8").set("stroke", LAID).set("stroke-width", 4))
            }
            Glyph::Step => g
                .add(
                    Line::new()
                        .set("x1", x)
                        .set("y1", mid)
                        .set("x2", x + 56.0)
                        .set("y2", mid)
                        .set("stroke", TRACK)
                        .set("stroke-width", 8),
                )
                .add(
                    Circle::new()
                        .set("cx", x + 28.0)
                        .set("cy", mid)
                        .set("r", 8)
                        .set("fill", PATH_COLOURS[0])
                        .set("stroke", "white")
                        .set("stroke-width", 1.5),
                )
                .add(text(x + 28.0, mid + 3.5, 10.0, "2").set("fill", "white").set("font-weight", "bold")),
            Glyph::Path(pc) => g.add(
                Line::new()
                    .set("x1", x)
                    .set("y1", mid)
                    .set("x2", x + 56.0)
                    .set("y2", mid)
                    .set("stroke", *pc)
                    .set("stroke-width", 3)
                    .set("stroke-dasharray", "7 3"),
            ),
            Glyph::Players(cs) => {
                let mut g = g;
                for (i, c) in cs.iter().enumerate() {
                    g = g.add(rect(x + 15.0 * i as f32, mid - 6.0, 12.0, 12.0, c).set("stroke", "#222"));
                }
                g
            }
        }
    }
}

/// `title` in lines no wider than `width`, broken at its " · " separators.
fn wrap(title: &str, width: f32, size: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for part in title.split(" · ") {
        match lines.last_mut() {
            Some(line) if width_of(&format!("{line} · {part}"), size) <= width => {
                line.push_str(" · ");
                line.push_str(part);
            }
            _ => lines.push(part.to_string()),
        }
    }
    lines
}
