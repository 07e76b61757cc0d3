//! SVG pictures of an Express 01 board: the cards in their brick layout, the tracks and
//! stations lying on them, what lies beyond the outer sides, and optionally a bonus route.

use std::collections::HashMap;

use signalbox_engine::express01::{Beyond, CompanyId, Endpoint, NetCell, Network, Route, Side, StationRef};
use svg::Document;
use svg::node::element::path::Data;
use svg::node::element::{Circle, Group, Line, Path, Rectangle, Text, Title};

/// Card width in pixels.
const W: f32 = 128.0;
/// Card height in pixels.
const H: f32 = 88.0;
/// Space around the picture.
const MARGIN: f32 = 24.0;
/// Height of the title band above the board.
const TITLE_BAND: f32 = 34.0;
/// Height of one legend line.
const LEGEND_LINE: f32 = 22.0;
/// Station circle radius.
const STATION_R: f32 = 8.0;

const FONT: &str = "sans-serif";
const TRACK_COLOUR: &str = "#8a8a8a";
const ROUTE_COLOUR: &str = "#ff8c00";
const SEA_COLOUR: &str = "#1f5fbf";
const BORDER_COLOUR: &str = "darkred";
const CARD_FILL: &str = "#fbf8ef";
const EMPTY_CARD_FILL: &str = "#eeeeee";
/// Fill for a company whose name is not a colour we know to be valid CSS.
const UNKNOWN_COMPANY_FILL: &str = "#b0b0b0";

/// CSS colour names a company may be called by and still be drawn in its own colour.
const CSS_COLOURS: &[&str] = &[
    "red", "blue", "green", "yellow", "black", "white", "orange", "purple", "brown", "pink", "grey", "gray", "cyan",
    "magenta", "violet", "gold", "navy", "teal", "maroon", "olive", "lime", "silver",
];

type Point = (f32, f32);

/// Where the board lies in the picture.
struct Layout {
    min_x: i32,
    min_row: usize,
    left: f32,
    top: f32,
}

impl Layout {
    fn new(network: &Network) -> Layout {
        let min_x = network.cells.iter().map(|c| c.x).min().unwrap_or(0);
        let min_row = network.cells.iter().map(|c| c.row).min().unwrap_or(0);
        Layout { min_x, min_row, left: MARGIN, top: MARGIN + TITLE_BAND }
    }

    /// The top-left corner of a cell's card.
    fn origin(&self, cell: &NetCell) -> Point {
        (self.left + (cell.x - self.min_x) as f32 * W / 2.0, self.top + (cell.row - self.min_row) as f32 * H)
    }
}

/// The point where tracks leave a card through `side`, relative to the card's top-left corner.
/// In the brick layout a card's `ne` point is the `sw` point of the card above-right (which
/// starts half a card width further right), and likewise for the other pairs of facing sides.
fn side_point(side: Side) -> Point {
    match side {
        Side::W => (0.0, H / 2.0),
        Side::E => (W, H / 2.0),
        Side::Nw => (W / 4.0, 0.0),
        Side::Ne => (3.0 * W / 4.0, 0.0),
        Side::Sw => (W / 4.0, H),
        Side::Se => (3.0 * W / 4.0, H),
    }
}

/// The unit vector pointing from a side into the card.
fn inward(side: Side) -> Point {
    match side {
        Side::W => (1.0, 0.0),
        Side::E => (-1.0, 0.0),
        Side::Nw | Side::Ne => (0.0, 1.0),
        Side::Sw | Side::Se => (0.0, -1.0),
    }
}

/// The stretch of card edge a side covers, relative to the card's top-left corner.
fn side_segment(side: Side) -> (Point, Point) {
    match side {
        Side::W => ((0.0, 0.0), (0.0, H)),
        Side::E => ((W, 0.0), (W, H)),
        Side::Nw => ((0.0, 0.0), (W / 2.0, 0.0)),
        Side::Ne => ((W / 2.0, 0.0), (W, 0.0)),
        Side::Sw => ((0.0, H), (W / 2.0, H)),
        Side::Se => ((W / 2.0, H), (W, H)),
    }
}

/// A station's centre relative to the card's top-left corner: the card centre for a single
/// station, left and right of centre for a double station.
fn station_point(count: usize, index: u8) -> Point {
    let i = f32::from(index);
    let x = if count <= 1 { W / 2.0 } else { W * (0.3 + 0.4 * i / (count - 1) as f32) };
    (x, H / 2.0)
}

fn add(p: Point, q: Point) -> Point {
    (p.0 + q.0, p.1 + q.1)
}

/// An endpoint of a track on a card, absolute, with the control point of the curve leaving it.
fn endpoint_geometry(origin: Point, cell: &NetCell, end: Endpoint) -> (Point, Point) {
    match end {
        Endpoint::Side(side) => {
            let p = add(origin, side_point(side));
            let (dx, dy) = inward(side);
            let reach = if dx == 0.0 { 0.32 * H } else { 0.28 * W };
            (p, (p.0 + dx * reach, p.1 + dy * reach))
        }
        Endpoint::Station(i) => {
            let p = add(origin, station_point(cell.stations.len(), i));
            (p, p)
        }
    }
}

/// The path data of a track: a cubic Bezier leaving each side straight into the card, so a
/// `w-e` track is a straight line and a `nw-ne` track a U-turn.
fn track_data(origin: Point, cell: &NetCell, from: Endpoint, to: Endpoint) -> Data {
    let (a, ca) = endpoint_geometry(origin, cell, from);
    let (b, cb) = endpoint_geometry(origin, cell, to);
    Data::new().move_to(a).cubic_curve_to((ca.0, ca.1, cb.0, cb.1, b.0, b.1))
}

/// The fill colour of a station of `company`: the company's name when it is a CSS colour.
fn company_fill(network: &Network, company: Option<CompanyId>) -> String {
    match company {
        None => "white".to_string(),
        Some(c) => match network.companies.get(usize::from(c.0)) {
            Some(name) if CSS_COLOURS.contains(&name.to_ascii_lowercase().as_str()) => name.to_ascii_lowercase(),
            _ => UNKNOWN_COMPANY_FILL.to_string(),
        },
    }
}

fn text(content: impl Into<String>, at: Point, size: f32) -> Text {
    Text::new(content).set("x", at.0).set("y", at.1).set("font-family", FONT).set("font-size", size)
}

/// Text with a white outline, readable over tracks.
fn haloed(t: Text) -> Text {
    t.set("stroke", "white").set("stroke-width", 3).set("stroke-linejoin", "round").set("paint-order", "stroke")
}

fn line(a: Point, b: Point) -> Line {
    Line::new().set("x1", a.0).set("y1", a.1).set("x2", b.0).set("y2", b.1)
}

/// How an outer side is marked, if at all: a line along the card edge, shifted outwards.
fn outer_mark(beyond: Beyond, a: Point, b: Point, out: Point) -> Option<Line> {
    let shift = |p: Point, d: f32| (p.0 + out.0 * d, p.1 + out.1 * d);
    match beyond {
        Beyond::Cell(_) | Beyond::Open => None,
        Beyond::Sea => Some(
            line(shift(a, 3.0), shift(b, 3.0))
                .set("class", "sea")
                .set("stroke", SEA_COLOUR)
                .set("stroke-width", 6)
                .set("stroke-linecap", "butt"),
        ),
        Beyond::Border => Some(
            line(shift(a, 2.0), shift(b, 2.0))
                .set("class", "border")
                .set("stroke", BORDER_COLOUR)
                .set("stroke-width", 4)
                .set("stroke-dasharray", "8 5"),
        ),
        Beyond::Blockade(_) => {
            // A bar across the middle part of the shared edge; both cells draw the same bar.
            let inset = |p: Point, q: Point| (p.0 + (q.0 - p.0) * 0.15, p.1 + (q.1 - p.1) * 0.15);
            Some(
                line(inset(a, b), inset(b, a))
                    .set("class", "blockade")
                    .set("stroke", "black")
                    .set("stroke-width", 8)
                    .set("stroke-linecap", "square"),
            )
        }
    }
}

/// An SVG picture of a board with `title` at the top and a legend at the bottom.
///
/// Cards lie in the brick layout (a cell's left edge at `x` half card widths, its top at its
/// row); each card shows its cell label, the number of the card lying there and the base
/// card's name. Tracks are grey curves, stations circles in their company's colour (white for
/// neutral) with a `+1` mark for bonus stations and the station label
/// ([`Network::station_label`]) beneath. Sea sides are thick blue lines, borders dark red dashed
/// lines, blockades black bars; open sides are not marked.
///
/// With a `route`, each step is drawn as a thick orange curve (one `<path class="route-step">`
/// per step whose cell exists) over the grey track, and each station the route reaches
/// ([`Route::stations`]) gets a numbered badge (`class="route-badge"`) in route order. The route
/// is drawn as given, not checked: steps on cells that do not exist are skipped.
///
/// Returns the whole document as a string, ready to write to a `.svg` file.
pub fn board_svg(network: &Network, route: Option<&Route>, title: &str) -> String {
    let layout = Layout::new(network);
    let max_right = network.cells.iter().map(|c| c.x + 2).max().unwrap_or(layout.min_x + 2);
    let max_row = network.cells.iter().map(|c| c.row).max().unwrap_or(layout.min_row);
    let board_width = (max_right - layout.min_x) as f32 * W / 2.0;
    let board_height = if network.cells.is_empty() { 0.0 } else { (max_row - layout.min_row + 1) as f32 * H };
    let width = (board_width + 2.0 * MARGIN).max(480.0);

    let mut cards = Group::new().set("class", "cards");
    let mut labels = Group::new().set("class", "card-labels");
    let mut outer = Group::new().set("class", "outer-sides");
    let mut tracks = Group::new().set("class", "tracks");
    let mut stations = Group::new().set("class", "stations");

    for cell in &network.cells {
        let o = layout.origin(cell);
        let fill = if cell.card.is_some() { CARD_FILL } else { EMPTY_CARD_FILL };
        cards = cards.add(
            Rectangle::new()
                .set("x", o.0)
                .set("y", o.1)
                .set("width", W)
                .set("height", H)
                .set("fill", fill)
                .set("stroke", "#555555")
                .set("stroke-width", 1),
        );
        let heading = match cell.card {
            Some(card) => format!("{} · {}", cell.label, card),
            None => cell.label.to_string(),
        };
        labels = labels.add(haloed(text(heading, (o.0 + 5.0, o.1 + 13.0), 10.0).set("fill", "#333333")));
        if let Some(name) = &cell.name {
            labels = labels.add(haloed(
                text(name.as_str(), (o.0 + 5.0, o.1 + H - 6.0), 9.0).set("fill", "#555555").set("font-style", "italic"),
            ));
        }

        for side in Side::ALL {
            let (a, b) = side_segment(side);
            let (ix, iy) = inward(side);
            if let Some(mark) = outer_mark(cell.beyond[side.index()], add(o, a), add(o, b), (-ix, -iy)) {
                outer = outer.add(mark);
            }
        }

        for track in &cell.tracks {
            let (a, b) = track.ends();
            tracks = tracks.add(
                Path::new()
                    .set("d", track_data(o, cell, a, b))
                    .set("fill", "none")
                    .set("stroke", TRACK_COLOUR)
                    .set("stroke-width", 3)
                    .set("stroke-linecap", "round"),
            );
        }
    }

    for (c, cell) in network.cells.iter().enumerate() {
        let o = layout.origin(cell);
        for (i, st) in cell.stations.iter().enumerate() {
            let Ok(index) = u8::try_from(i) else { break };
            let p = add(o, station_point(cell.stations.len(), index));
            stations = stations.add(
                Circle::new()
                    .set("cx", p.0)
                    .set("cy", p.1)
                    .set("r", STATION_R)
                    .set("fill", company_fill(network, st.company))
                    .set("stroke", "black")
                    .set("stroke-width", 1.5),
            );
            if st.bonus {
                stations = stations.add(
                    haloed(text("+1", (p.0 + STATION_R + 1.0, p.1 - STATION_R + 2.0), 10.0))
                        .set("class", "bonus")
                        .set("font-weight", "bold")
                        .set("fill", "black"),
                );
            }
            let label = network.station_label(StationRef { cell: c, index });
            stations = stations.add(
                haloed(text(label, (p.0, p.1 + STATION_R + 11.0), 9.0))
                    .set("class", "station-label")
                    .set("text-anchor", "middle")
                    .set("font-weight", "bold"),
            );
        }
    }

    let mut route_group = Group::new().set("class", "route");
    let mut badges = Group::new().set("class", "route-badges");
    if let Some(route) = route {
        for step in &route.steps {
            let Some(cell) = network.cells.get(step.cell) else { continue };
            route_group = route_group.add(
                Path::new()
                    .set("class", "route-step")
                    .set("d", track_data(layout.origin(cell), cell, step.from, step.to))
                    .set("fill", "none")
                    .set("stroke", ROUTE_COLOUR)
                    .set("stroke-width", 7)
                    .set("stroke-opacity", 0.85)
                    .set("stroke-linecap", "round"),
            );
        }
        // A station reached more than once (an invalid route) gets all its numbers.
        let mut numbers: Vec<(StationRef, Vec<usize>)> = Vec::new();
        let mut at: HashMap<StationRef, usize> = HashMap::new();
        for (n, s) in route.stations().into_iter().enumerate() {
            let slot = *at.entry(s).or_insert_with(|| {
                numbers.push((s, Vec::new()));
                numbers.len() - 1
            });
            numbers[slot].1.push(n + 1);
        }
        for (s, ns) in numbers {
            let Some(cell) = network.cells.get(s.cell) else { continue };
            let p = add(layout.origin(cell), station_point(cell.stations.len(), s.index));
            let label = ns.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
            let centre = (p.0 - STATION_R - 5.0, p.1 - STATION_R - 5.0);
            let r = if label.len() > 1 { 4.0 + 3.5 * label.len() as f32 } else { 7.5 };
            badges = badges.add(
                Group::new()
                    .set("class", "route-badge")
                    .add(
                        Circle::new()
                            .set("cx", centre.0)
                            .set("cy", centre.1)
                            .set("r", r)
                            .set("fill", ROUTE_COLOUR)
                            .set("stroke", "black")
                            .set("stroke-width", 1),
                    )
                    .add(
                        text(label, (centre.0, centre.1 + 3.5), 10.0)
                            .set("text-anchor", "middle")
                            .set("font-weight", "bold")
                            .set("fill", "black"),
                    ),
            );
        }
    }

    let legend_top = MARGIN + TITLE_BAND + board_height + 16.0;
    let (legend, legend_height) = legend(network, legend_top, width - 2.0 * MARGIN);
    let height = legend_top + legend_height + MARGIN;

    let heading = text(title, (MARGIN, MARGIN + 16.0), 18.0).set("class", "title").set("font-weight", "bold");
    let document = Document::new()
        .set("width", width)
        .set("height", height)
        .set("viewBox", (0, 0, width, height))
        .add(Title::new(title))
        .add(Rectangle::new().set("width", "100%").set("height", "100%").set("fill", "white"))
        .add(heading)
        .add(cards)
        .add(tracks)
        .add(route_group)
        .add(labels)
        .add(outer)
        .add(stations)
        .add(badges)
        .add(legend);
    document.to_string()
}

/// The legend, laid out in lines no wider than `max_width`; returns it and its height.
fn legend(network: &Network, top: f32, max_width: f32) -> (Group, f32) {
    enum Swatch {
        Line(&'static str, f32, Option<&'static str>),
        Station(String, bool),
        Order,
        Label,
    }
    let mut items: Vec<(Swatch, String)> = vec![
        (Swatch::Line(SEA_COLOUR, 6.0, None), "sea".into()),
        (Swatch::Line(BORDER_COLOUR, 4.0, Some("8 5")), "border".into()),
        (Swatch::Line("black", 8.0, None), "blockade".into()),
        (Swatch::Line(ROUTE_COLOUR, 7.0, None), "route".into()),
        (Swatch::Order, "stations in route order".into()),
        (Swatch::Label, "cell · the card laid on it".into()),
    ];
    for (i, name) in network.companies.iter().enumerate() {
        let fill = u8::try_from(i)
            .map_or_else(|_| UNKNOWN_COMPANY_FILL.to_string(), |c| company_fill(network, Some(CompanyId(c))));
        items.push((Swatch::Station(fill, false), name.clone()));
    }
    items.push((Swatch::Station("white".into(), false), "neutral".into()));
    items.push((Swatch::Station("white".into(), true), "bonus station".into()));

    let mut group = Group::new().set("class", "legend");
    let (mut x, mut y) = (MARGIN, top + LEGEND_LINE / 2.0);
    for (swatch, label) in items {
        let text_left = match swatch {
            Swatch::Station(_, true) => 40.0,
            Swatch::Label => 66.0,
            _ => 30.0,
        };
        let item_width = text_left + 6.5 * label.chars().count() as f32 + 18.0;
        if x > MARGIN && x - MARGIN + item_width > max_width {
            x = MARGIN;
            y += LEGEND_LINE;
        }
        match swatch {
            Swatch::Line(colour, stroke, dash) => {
                let mut l = line((x, y), (x + 24.0, y)).set("stroke", colour).set("stroke-width", stroke);
                if let Some(dash) = dash {
                    l = l.set("stroke-dasharray", dash);
                }
                group = group.add(l);
            }
            Swatch::Station(fill, bonus) => {
                group = group.add(
                    Circle::new()
                        .set("cx", x + 12.0)
                        .set("cy", y)
                        .set("r", 6.5)
                        .set("fill", fill)
                        .set("stroke", "black")
                        .set("stroke-width", 1.5),
                );
                if bonus {
                    group = group.add(text("+1", (x + 20.0, y - 3.0), 9.0).set("font-weight", "bold"));
                }
            }
            Swatch::Order => {
                group = group
                    .add(
                        Circle::new()
                            .set("cx", x + 12.0)
                            .set("cy", y)
                            .set("r", 7.5)
                            .set("fill", ROUTE_COLOUR)
                            .set("stroke", "black")
                            .set("stroke-width", 1),
                    )
                    .add(text("1", (x + 12.0, y + 3.5), 10.0).set("text-anchor", "middle"));
            }
            Swatch::Label => {
                group = group.add(text("001 · 202", (x, y + 4.0), 10.0).set("fill", "#333333"));
            }
        }
        group = group.add(text(label, (x + text_left, y + 4.0), 11.0).set("fill", "#222222"));
        x += item_width;
    }
    (group, y - top + LEGEND_LINE / 2.0)
}

#[cfg(test)]
mod tests {
    use signalbox_engine::express01::{CardNumber, LengthRule, RouteRules, RouteTask, Station, Step, Track};
    use svg::node::element::tag::Type;
    use svg::parser::Event;

    use super::*;

    fn track(s: &str) -> Track {
        s.parse().expect("test track")
    }

    fn station(company: Option<u8>, bonus: bool) -> Station {
        Station { company: company.map(CompanyId), bonus }
    }

    /// Four cells in the brick layout:
    ///
    /// ```text
    /// row 0:  [001 Kiel ][002      ]
    /// row 1:       [003  ][004  ]
    /// ```
    fn network() -> Network {
        use Beyond::*;
        // beyond: [w, nw, ne, e, se, sw]
        let cells = vec![
            NetCell {
                label: CardNumber(1),
                name: Some("Kiel".into()),
                card: Some(CardNumber(505)),
                row: 0,
                x: 0,
                beyond: [Sea, Border, Border, Cell(1), Cell(2), Open],
                tracks: vec![track("s1-e"), track("s1-se")],
                stations: vec![station(Some(0), false)],
            },
            NetCell {
                label: CardNumber(2),
                name: None,
                card: Some(CardNumber(2)),
                row: 0,
                x: 2,
                beyond: [Cell(0), Sea, Sea, Border, Blockade(3), Cell(2)],
                tracks: vec![track("w-s1"), track("s1-sw")],
                stations: vec![station(None, true)],
            },
            NetCell {
                label: CardNumber(3),
                name: Some("Lübeck & Co <x>".into()),
                card: Some(CardNumber(612)),
                row: 1,
                x: 1,
                beyond: [Open, Cell(0), Cell(1), Cell(3), Sea, Sea],
                tracks: vec![track("nw-s1"), track("ne-s2"), track("s1-s2"), track("s2-e")],
                stations: vec![station(Some(1), false), station(None, true)],
            },
            NetCell {
                label: CardNumber(4),
                name: None,
                card: None,
                row: 1,
                x: 3,
                beyond: [Cell(2), Blockade(1), Sea, Border, Sea, Sea],
                tracks: vec![track("w-e")],
                stations: vec![],
            },
        ];
        Network::new(vec!["red".into(), "blue".into()], cells).expect("test network")
    }

    fn route() -> Route {
        let step = |cell, from: &str, to: &str| Step {
            cell,
            from: from.parse::<Endpoint>().expect("endpoint"),
            to: to.parse::<Endpoint>().expect("endpoint"),
        };
        Route { steps: vec![step(0, "s1", "se"), step(2, "nw", "s1"), step(2, "s1", "s2")] }
    }

    /// Parses the document and checks every start tag is closed.
    fn assert_well_formed(svg: &str) {
        assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
        assert!(svg.trim_end().ends_with("</svg>"));
        let mut open = Vec::new();
        for event in svg::read(svg).expect("parser") {
            match event {
                Event::Error(e) => panic!("not well formed: {e}"),
                Event::Tag(name, Type::Start, _) => open.push(name),
                Event::Tag(name, Type::End, _) => assert_eq!(open.pop(), Some(name)),
                _ => {}
            }
        }
        assert!(open.is_empty(), "unclosed: {open:?}");
    }

    /// The text contents of the document, trimmed.
    fn texts(svg: &str) -> Vec<String> {
        svg::read(svg)
            .expect("parser")
            .filter_map(|e| match e {
                Event::Text(t) => Some(t.trim().to_string()),
                _ => None,
            })
            .filter(|t| !t.is_empty())
            .collect()
    }

    #[test]
    fn the_test_route_is_a_valid_route() {
        let task =
            RouteTask { company: CompanyId(0), max_cards: 3, rules: RouteRules { length: LengthRule::AllCards } };
        let score = route().check(&network(), task).expect("valid route");
        assert_eq!(score.stations.len(), 3);
    }

    #[test]
    fn board_with_route_is_well_formed_and_complete() {
        let network = network();
        let route = route();
        let svg = board_svg(&network, Some(&route), "Test board: red bonus");
        assert_well_formed(&svg);
        assert_eq!(svg.matches("class=\"route-step\"").count(), route.steps.len());
        assert_eq!(svg.matches("class=\"route-badge\"").count(), route.stations().len());
        let texts = texts(&svg);
        for (s, _) in network.stations() {
            let label = network.station_label(s);
            assert!(texts.contains(&label), "missing station label {label} in {texts:?}");
        }
        for badge in ["1", "2", "3"] {
            assert!(texts.iter().any(|t| t == badge), "missing route badge {badge}");
        }
        assert!(svg.contains("Test board: red bonus"));
        assert!(svg.contains("001 · 505"));
        assert!(svg.contains("Kiel"));
        // Names are escaped.
        assert!(svg.contains("Lübeck &amp; Co &lt;x&gt;"));
        // Company colours, neutral white, bonus marks (two bonus stations plus the legend's).
        assert!(svg.contains("fill=\"red\""));
        assert!(svg.contains("fill=\"blue\""));
        assert_eq!(svg.matches("class=\"bonus\"").count(), 2);
        // Outer sides: sea, border, blockade are marked.
        assert!(svg.contains("class=\"sea\""));
        assert!(svg.contains("class=\"border\""));
        assert_eq!(svg.matches("class=\"blockade\"").count(), 2);
        // Every track is drawn.
        let tracks: usize = network.cells.iter().map(|c| c.tracks.len()).sum();
        assert_eq!(svg.matches(&format!("stroke=\"{TRACK_COLOUR}\"")).count(), tracks);
    }

    #[test]
    fn board_without_route_has_no_highlight() {
        let svg = board_svg(&network(), None, "plain");
        assert_well_formed(&svg);
        assert_eq!(svg.matches("class=\"route-step\"").count(), 0);
        assert_eq!(svg.matches("class=\"route-badge\"").count(), 0);
    }

    #[test]
    fn empty_board_and_foreign_route_do_not_panic() {
        let empty = Network::new(vec![], vec![]).expect("empty network");
        let svg = board_svg(&empty, Some(&route()), "empty");
        assert_well_formed(&svg);
        assert_eq!(svg.matches("class=\"route-step\"").count(), 0);
    }

    #[test]
    fn facing_side_points_coincide_in_the_brick_layout() {
        let network = network();
        let layout = Layout::new(&network);
        for (c, cell) in network.cells.iter().enumerate() {
            for side in Side::ALL {
                let (Beyond::Cell(other) | Beyond::Blockade(other)) = cell.beyond[side.index()] else { continue };
                let here = add(layout.origin(cell), side_point(side));
                let there = add(layout.origin(&network.cells[other]), side_point(side.facing()));
                assert_eq!(here, there, "cell {c} side {side} against cell {other}");
            }
        }
    }

    #[test]
    fn double_stations_sit_left_and_right_of_centre() {
        let (s1, s2) = (station_point(2, 0), station_point(2, 1));
        assert!(s1.0 < W / 2.0 && s2.0 > W / 2.0);
        assert_eq!(station_point(1, 0), (W / 2.0, H / 2.0));
    }
}
