//! Line charts of a game over time, drawn as inline SVG: one line per series, each with its own
//! colour (the Okabe–Ito palette, told apart by readers with any common colour-vision
//! deficiency), its own marker shape and dash pattern, so that no line is known by colour alone;
//! intervals as shaded bands; the turning points as numbered vertical marks.

use signalbox_solver::analysis::{Chart, Point};
use svg::Document;
use svg::Node as _;
use svg::node::element::{Circle, Group, Line, Path, Polygon, Rectangle, Text, Title};

/// The colours of the lines, by style index (Okabe–Ito).
pub const COLOURS: [&str; 7] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"];
/// The dash patterns of the lines, by style index.
const DASHES: [&str; 4] = ["none", "7 3", "2 3", "9 3 2 3"];
/// The marker shapes, by style index, as the legend names them.
pub const MARKERS: [&str; 5] = ["circle", "square", "triangle", "diamond", "cross"];

const WIDTH: f64 = 720.0;
const PLOT_HEIGHT: f64 = 260.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 34.0;
const AXIS_BAND: f64 = 46.0;
const LEGEND_ROW: f64 = 20.0;
const FONT: &str = "sans-serif";

/// The colour of a series: a player named by a colour (the seats of Cube Express and Railways
/// Express are colours) is drawn in a readable shade of that colour, any other line in the
/// palette colour of its style.
fn colour_of(name: &str, style: usize) -> &'static str {
    match name.to_ascii_lowercase().as_str() {
        "red" => "#D55E00",
        "blue" => "#0072B2",
        "green" => "#009E73",
        "yellow" => "#B8860B",
        "orange" => "#E69F00",
        "purple" | "violet" => "#8E44AD",
        "pink" => "#CC79A7",
        "black" => "#000000",
        "white" | "grey" | "gray" => "#7F7F7F",
        _ => COLOURS[style % COLOURS.len()],
    }
}

/// The style of a series: its player's seat, or its place in the chart.
fn style_of(chart: &Chart, index: usize) -> usize {
    chart.series[index].player.unwrap_or(index)
}

/// A marker of shape `style` in `colour`, centred on (x, y).
pub fn marker(style: usize, colour: &str, x: f64, y: f64, size: f64) -> svg::node::element::Element {
    let s = size;
    let element: svg::node::element::Element = match style % MARKERS.len() {
        0 => Circle::new().set("cx", x).set("cy", y).set("r", s).into(),
        1 => Rectangle::new().set("x", x - s).set("y", y - s).set("width", 2.0 * s).set("height", 2.0 * s).into(),
        2 => Polygon::new()
            .set("points", format!("{},{} {},{} {},{}", x, y - 1.2 * s, x - 1.1 * s, y + s, x + 1.1 * s, y + s))
            .into(),
        3 => Polygon::new()
            .set(
                "points",
                format!("{},{} {},{} {},{} {},{}", x, y - 1.3 * s, x + 1.3 * s, y, x, y + 1.3 * s, x - 1.3 * s, y),
            )
            .into(),
        _ => Path::new()
            .set("d", format!("M{} {}L{} {}M{} {}L{} {}", x - s, y - s, x + s, y + s, x - s, y + s, x + s, y - s))
            .set("stroke-width", 2.2)
            .into(),
    };
    let mut element = element;
    element.assign("fill", colour);
    element.assign("stroke", colour);
    element
}

/// Round tick steps: 1, 2 or 5 times a power of ten, about `count` ticks over `span`.
fn step(span: f64, count: f64) -> f64 {
    let raw = (span / count).max(1e-12);
    let power = 10f64.powf(raw.log10().floor());
    let m = raw / power;
    power
        * if m <= 1.0 {
            1.0
        } else if m <= 2.0 {
            2.0
        } else if m <= 5.0 {
            5.0
        } else {
            10.0
        }
}

/// A tick label: the value with no trailing zeros ("0.8", not "0.800").
fn tick(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_owned() } else { s.to_owned() }
}

fn text(x: f64, y: f64, size: f64, anchor: &str, s: &str) -> Text {
    Text::new(s)
        .set("x", x)
        .set("y", y)
        .set("font-size", size)
        .set("font-family", FONT)
        .set("text-anchor", anchor)
        .set("fill", "#1a1a1a")
}

fn bounds(points: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    points.filter(|v| v.is_finite()).fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// Draws `chart` with the turning points marked at these x values (each with its number, from
/// 1), as a whole `<svg>` element with a title for screen readers.
pub fn line_chart(chart: &Chart, marks: &[(f64, usize)]) -> String {
    let all = || chart.series.iter().flat_map(|s| s.points.iter());
    let (x0, x1) = bounds(all().map(|p| p.x)).unwrap_or((0.0, 1.0));
    let (x0, x1) = if x1 > x0 { (x0, x1) } else { (x0 - 0.5, x0 + 0.5) };
    let ys = all().flat_map(|p: &Point| [Some(p.y), p.low, p.high]).flatten();
    let (y0, y1) = bounds(ys).unwrap_or((0.0, 1.0));
    let (y0, y1) = if y1 > y0 { (y0, y1) } else { (y0 - 1.0, y0 + 1.0) };
    let ystep = step(y1 - y0, 5.0);
    let (y0, y1) = ((y0 / ystep).floor() * ystep, (y1 / ystep).ceil() * ystep);
    let plot_w = WIDTH - LEFT - RIGHT;
    let sx = |x: f64| LEFT + (x - x0) / (x1 - x0) * plot_w;
    let sy = |y: f64| TOP + (y1 - y) / (y1 - y0) * PLOT_HEIGHT;

    let legend_rows = chart.series.len().div_ceil(3);
    let height = TOP + PLOT_HEIGHT + AXIS_BAND + legend_rows as f64 * LEGEND_ROW + 8.0;
    let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
    let mut doc = Document::new()
        .set("viewBox", (0, 0, WIDTH, height))
        .set("width", WIDTH)
        .set("height", height)
        .set("role", "img")
        .set("class", "chart")
        .add(Title::new(format!("{}: {}", chart.title, names.join(", "))))
        .add(Rectangle::new().set("width", "100%").set("height", "100%").set("fill", "#ffffff"))
        .add(text(LEFT, 20.0, 15.0, "start", &chart.title).set("font-weight", "bold"));

    // Grid and axes.
    let mut grid = Group::new().set("stroke", "#d9d9d9").set("stroke-width", 1);
    let mut labels = Group::new();
    let mut y = y0;
    while y <= y1 + ystep / 2.0 {
        grid = grid.add(Line::new().set("x1", LEFT).set("x2", WIDTH - RIGHT).set("y1", sy(y)).set("y2", sy(y)));
        labels = labels.add(text(LEFT - 6.0, sy(y) + 4.0, 11.0, "end", &tick(y)));
        y += ystep;
    }
    let xstep = step(x1 - x0, 10.0).max(1.0);
    let mut x = (x0 / xstep).ceil() * xstep;
    while x <= x1 + 1e-9 {
        grid = grid.add(Line::new().set("x1", sx(x)).set("x2", sx(x)).set("y1", TOP).set("y2", TOP + PLOT_HEIGHT));
        labels = labels.add(text(sx(x), TOP + PLOT_HEIGHT + 16.0, 11.0, "middle", &tick(x)));
        x += xstep;
    }
    doc = doc.add(grid).add(labels);
    doc = doc
        .add(
            Rectangle::new()
                .set("x", LEFT)
                .set("y", TOP)
                .set("width", plot_w)
                .set("height", PLOT_HEIGHT)
                .set("fill", "none")
                .set("stroke", "#555555"),
        )
        .add(text(LEFT + plot_w / 2.0, TOP + PLOT_HEIGHT + 34.0, 12.0, "middle", &chart.x_label))
        .add(
            text(16.0, TOP + PLOT_HEIGHT / 2.0, 12.0, "middle", &chart.y_label)
                .set("transform", format!("rotate(-90 16 {})", TOP + PLOT_HEIGHT / 2.0)),
        );

    // Turning points.
    for &(x, n) in marks {
        if x < x0 - 1e-9 || x > x1 + 1e-9 {
            continue;
        }
        let g = Group::new()
            .set("class", "turning-mark")
            .add(Title::new(format!("turning point {n}")))
            .add(
                Line::new()
                    .set("x1", sx(x))
                    .set("x2", sx(x))
                    .set("y1", TOP)
                    .set("y2", TOP + PLOT_HEIGHT)
                    .set("stroke", "#444444")
                    .set("stroke-dasharray", "4 3"),
            )
            .add(
                Rectangle::new()
                    .set("x", sx(x) - 8.0)
                    .set("y", TOP - 14.0)
                    .set("width", 16)
                    .set("height", 14)
                    .set("fill", "#444444"),
            )
            .add(text(sx(x), TOP - 3.0, 11.0, "middle", &n.to_string()).set("fill", "#ffffff"));
        doc = doc.add(g);
    }

    // Series: bands first, then lines, then markers.
    for (i, series) in chart.series.iter().enumerate() {
        let style = style_of(chart, i);
        let colour = colour_of(&series.name, style);
        let banded: Vec<&Point> = series.points.iter().filter(|p| p.low.is_some() && p.high.is_some()).collect();
        if banded.len() >= 2 {
            let upper = banded.iter().map(|p| format!("{:.1},{:.1}", sx(p.x), sy(p.high.unwrap_or(p.y))));
            let lower = banded.iter().rev().map(|p| format!("{:.1},{:.1}", sx(p.x), sy(p.low.unwrap_or(p.y))));
            let points: Vec<String> = upper.chain(lower).collect();
            doc = doc.add(
                Polygon::new()
                    .set("points", points.join(" "))
                    .set("fill", colour)
                    .set("fill-opacity", 0.13)
                    .set("stroke", "none"),
            );
        }
    }
    for (i, series) in chart.series.iter().enumerate() {
        let style = style_of(chart, i);
        let colour = colour_of(&series.name, style);
        let mut g = Group::new().set("class", "series").add(Title::new(series.name.clone()));
        if series.points.len() >= 2 {
            let d: Vec<String> = series
                .points
                .iter()
                .enumerate()
                .map(|(k, p)| format!("{}{:.1} {:.1}", if k == 0 { "M" } else { "L" }, sx(p.x), sy(p.y)))
                .collect();
            g = g.add(
                Path::new()
                    .set("d", d.concat())
                    .set("fill", "none")
                    .set("stroke", colour)
                    .set("stroke-width", 2.2)
                    .set("stroke-dasharray", DASHES[style % DASHES.len()]),
            );
        }
        let size = if series.points.len() > 40 { 2.6 } else { 3.6 };
        for p in &series.points {
            g = g.add(marker(style, colour, sx(p.x), sy(p.y), size));
        }
        doc = doc.add(g);
    }

    // Legend: a line sample with its marker, and the name.
    let column = (WIDTH - LEFT - RIGHT) / 3.0;
    for (i, series) in chart.series.iter().enumerate() {
        let style = style_of(chart, i);
        let colour = colour_of(&series.name, style);
        let lx = LEFT + (i % 3) as f64 * column;
        let ly = TOP + PLOT_HEIGHT + AXIS_BAND + (i / 3) as f64 * LEGEND_ROW + 6.0;
        doc = doc
            .add(
                Line::new()
                    .set("x1", lx)
                    .set("x2", lx + 34.0)
                    .set("y1", ly)
                    .set("y2", ly)
                    .set("stroke", colour)
                    .set("stroke-width", 2.2)
                    .set("stroke-dasharray", DASHES[style % DASHES.len()]),
            )
            .add(marker(style, colour, lx + 17.0, ly, 3.6))
            .add(text(lx + 42.0, ly + 4.0, 12.0, "start", &series.name));
    }
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use signalbox_solver::analysis::{Axis, Series};

    fn chart(series: usize, points: usize) -> Chart {
        Chart {
            title: "t".into(),
            axis: Axis::Turn,
            x_label: "turn".into(),
            y_label: "score".into(),
            series: (0..series)
                .map(|s| Series {
                    name: format!("player {s}"),
                    player: Some(s),
                    points: (0..points)
                        .map(|k| Point {
                            x: k as f64,
                            y: (k * (s + 1)) as f64,
                            low: Some(0.0),
                            high: Some((k * 3) as f64),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn each_series_gets_a_line_a_marker_per_point_and_a_legend_entry() {
        let svg = line_chart(&chart(4, 6), &[(2.0, 1), (9.0, 2)]);
        assert_eq!(svg.matches("class=\"series\"").count(), 4);
        // One turning mark inside the axis, the one at 9 lies outside it.
        assert_eq!(svg.matches("class=\"turning-mark\"").count(), 1);
        assert!(svg.contains("player 3"));
        assert!(svg.starts_with("<svg"));
        // Four distinct dash patterns and marker shapes for four players.
        for dash in DASHES {
            assert!(svg.contains(dash), "{dash}");
        }
        assert!(svg.contains("<circle") && svg.contains("<rect") && svg.contains("<polygon"));
    }

    #[test]
    fn a_single_point_or_an_empty_chart_draws_without_dividing_by_zero() {
        for c in [chart(1, 1), chart(0, 0), chart(2, 1)] {
            let svg = line_chart(&c, &[]);
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        }
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(step(10.0, 5.0), 2.0);
        assert_eq!(step(0.9, 5.0), 0.2);
        assert_eq!(step(47.0, 5.0), 10.0);
        assert_eq!(tick(0.8), "0.8");
        assert_eq!(tick(20.0), "20");
        assert_eq!(tick(-0.0), "0");
    }
}
