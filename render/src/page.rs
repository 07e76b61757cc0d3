//! The analysis page of a played game: one self-contained HTML file (inline SVG and CSS, no
//! script, no network access) that opens from disk. It holds the summary, the charts of the
//! game over time, the table of every decision with its loss, and at each turning point the
//! board before the decision, after the move played and after the best move, one above the
//! other. It reads on a phone: the tables scroll sideways, and a picture is never drawn so small
//! that its text falls under 11 px ([`legible`]; it scrolls sideways instead). It prints (a
//! print stylesheet, where no heading ends a page) and
//! keeps to colours that readers with a colour-vision deficiency tell apart, with a shape, a
//! dash or a label beside every colour.

use std::fmt::Write as _;

use signalbox_solver::analysis::{Axis, Better, Decision, Review, number};

use crate::chart::line_chart;

/// One board of a turning point: a caption and an SVG picture (a whole `<svg>` element).
#[derive(Clone, Debug)]
pub struct Board {
    /// What the board shows ("before", "played: …", "best: …").
    pub caption: String,
    /// The picture.
    pub svg: String,
}

/// The three boards drawn at a turning point: the position before the decision, after the move
/// played, and after the best move.
#[derive(Clone, Debug)]
pub struct TurningBoards {
    /// The decision's index (from 1), one of the review's turning points.
    pub decision: usize,
    /// The position before the decision.
    pub before: Board,
    /// The position after the move played.
    pub played: Board,
    /// The position after the best move.
    pub best: Board,
}

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The game's full name, from its command name.
pub(crate) fn game_name(game: &str) -> &str {
    match game {
        "coe" => "The Cubes of Europe",
        "cube-express" => "Cube Express",
        "railways" => "Railways Express",
        "express01" => "Express 01",
        other => other,
    }
}

/// The style every page of signalbox shares (colours, type, header, navigation, figures,
/// footer), as a literal for `concat!`; each page adds its own rules after it, and the body's
/// width.
macro_rules! base_style {
    () => {
        r#"
:root { --ink: #1a1a1a; --muted: #555; --rule: #d0d0d0; --mark: #8c2d04; --paper: #fff; --shade: #f4f4f4; }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 0 16px 32px; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: var(--paper); }
header { border-bottom: 2px solid var(--ink); padding: 12px 0 8px; }
header .game { margin: 0; color: var(--muted); text-transform: uppercase; letter-spacing: .06em; font-size: 12px; }
h1 { margin: 4px 0 6px; font-size: 24px; line-height: 1.2; }
h2 { margin: 28px 0 10px; font-size: 19px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
h3 { margin: 18px 0 8px; font-size: 16px; }
nav { margin: 10px 0; font-size: 14px; }
nav a { margin-right: 14px; }
a { color: #0b4f8a; }
figure { margin: 0; }
figure svg { display: block; width: 100%; height: auto; }
footer { margin-top: 32px; border-top: 1px solid var(--rule); padding-top: 8px; color: var(--muted); font-size: 12px; }
"#
    };
}
pub(crate) use base_style;

const STYLE: &str = concat!(
    base_style!(),
    r#"
body { max-width: 1180px; }
p.assumes { background: var(--shade); border-left: 4px solid var(--mark); padding: 6px 10px; margin: 8px 0; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { border-bottom: 1px solid var(--rule); padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: var(--shade); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
tr.turning { background: #fff1e6; }
tr.turning td:first-child { border-left: 4px solid var(--mark); }
.badge { display: inline-block; min-width: 1.6em; padding: 0 4px; border: 1px solid var(--mark); border-radius: 3px; color: var(--mark); font-weight: 700; font-size: 12px; text-align: center; }
.zero { color: var(--muted); }
ol.steps { margin: 0; padding-left: 2.2em; }
ol.steps li.differs mark { background: #fff1b8; color: inherit; }
.bar { display: inline-block; height: 8px; background: var(--mark); vertical-align: middle; margin-right: 4px; }
figure.chart { max-width: 760px; margin: 8px 0 16px; }
figure.chart, figure.board { overflow-x: auto; -webkit-overflow-scrolling: touch; }
figcaption { font-size: 13px; color: var(--muted); margin-top: 4px; }
.boards { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; align-items: start; max-width: 900px; }
.board { border: 1px solid var(--rule); padding: 6px; background: var(--paper); }
.board figcaption { color: var(--ink); font-weight: 600; }
.board.played figcaption::before { content: "\2715  "; color: var(--mark); }
.board.best figcaption::before { content: "\2713  "; color: #00704a; }
@media (max-width: 760px) {
  body { font-size: 14px; padding: 0 10px 24px; }
  h1 { font-size: 20px; }
  td.move { min-width: 12em; }
}
@media print {
  @page { margin: 14mm; }
  body { max-width: none; padding: 0; font-size: 10pt; }
  nav { display: none; }
  a { color: inherit; text-decoration: none; }
  .scroll, figure.chart, figure.board { overflow: visible; }
  figure svg { min-width: 0 !important; }
  thead { display: table-header-group; }
  tr, figure, .turning-point { break-inside: avoid; page-break-inside: avoid; }
  section#turning { break-before: page; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
  tr.turning { background: none; }
  .board { border-color: #999; }
}
"#
);

/// The x value at which a decision is marked on a chart with this axis.
fn mark_at(axis: Axis, d: &Decision) -> f64 {
    match axis {
        Axis::Decision => d.index as f64,
        Axis::Turn => d.turn as f64,
    }
}

/// The page of a review, with these boards at its turning points.
pub fn review_page(review: &Review, boards: &[TurningBoards]) -> String {
    let mut h = String::new();
    let game = game_name(&review.game);
    // The title without the game's name, which the page says once above it.
    let heading = review.title.strip_prefix(game).map_or(review.title.as_str(), |t| t.trim_start_matches([' ', '·']));
    let m = &review.measure;
    let solo = review.players.len() <= 1;
    let better = match m.better {
        Better::Higher => "higher is better",
        Better::Lower => "lower is better",
    };
    let turning: Vec<usize> = review.summary.turning_points.clone();
    let rank_of = |index: usize| turning.iter().position(|&t| t == index).map(|p| p + 1);
    let who = |seat: usize| review.players.get(seat).cloned().unwrap_or_else(|| format!("seat {seat}"));

    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} · {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(game),
        escape(heading)
    );
    let _ = write!(
        h,
        "<header>\n<p class=\"game\">{} · analysis of a played game</p>\n<h1>{}</h1>\n\
         <p class=\"measure\">Each value is the <strong>{}</strong> ({better}); a loss is counted in {}.</p>\n",
        escape(game),
        escape(heading),
        escape(&m.name),
        escape(&m.unit)
    );
    if !m.assumes.is_empty() {
        let _ = writeln!(h, "<p class=\"assumes\">{}</p>", escape(&m.assumes));
    }
    if !review.summary.proven {
        let _ = writeln!(
            h,
            "<p class=\"assumes\">Not proven: a limit stopped some searches short; their values are shown as the ranges they lie in, and a loss is claimed only where its range excludes zero.</p>"
        );
    }
    h.push_str(
        "</header>\n<nav><a href=\"#summary\">Summary</a><a href=\"#charts\">Charts</a>\
         <a href=\"#moves\">Every decision</a><a href=\"#turning\">Turning points</a></nav>\n",
    );

    // Summary.
    h.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n");
    if !review.facts.is_empty() {
        h.push_str("<ul class=\"facts\">\n");
        for f in &review.facts {
            let _ = writeln!(h, "<li>{}</li>", escape(f));
        }
        h.push_str("</ul>\n");
    }
    h.push_str(
        "<div class=\"scroll\"><table class=\"players\">\n<thead><tr><th>player</th><th class=\"num\">decisions</th>\
         <th class=\"num\">lost nothing</th><th class=\"num\">total loss</th><th class=\"num\">largest loss</th>\
         <th>accuracy and labels</th></tr></thead>\n<tbody>\n",
    );
    for p in &review.summary.players {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            escape(&p.name),
            p.decisions,
            p.lost_nothing,
            number(p.total_loss),
            number(p.largest_loss),
            escape(&p.labels_in_words())
        );
    }
    h.push_str("</tbody></table></div>\n");
    let t = &m.thresholds;
    let _ = writeln!(
        h,
        "<p class=\"labels\">A loss of at least {} {unit} is an <em>inaccuracy</em>, {} a <em>mistake</em>, {} a <em>blunder</em>; \
         a smaller one is <em>good</em>, none <em>best</em>. Accuracy counts each decision 100, less 100 for each {} {unit} it surely lost, at least 0.</p>",
        number(t.inaccuracy),
        number(t.mistake),
        number(t.blunder),
        number(t.blunder),
        unit = escape(&m.unit)
    );
    if turning.is_empty() {
        h.push_str(if review.summary.proven {
            "<p>No decision lost anything: there is no turning point.</p>\n"
        } else {
            "<p>No decision surely lost anything: there is no turning point.</p>\n"
        });
    } else {
        h.push_str("<h3>Turning points (the largest losses)</h3>\n<ol class=\"turning-points\">\n");
        for (n, &i) in turning.iter().enumerate() {
            if let Some(d) = review.decision(i) {
                let by = if solo { String::new() } else { format!(", {}", escape(&who(d.player))) };
                let _ = writeln!(
                    h,
                    "<li><a href=\"#tp{}\">Decision {} (turn {}{by}, {})</a>: lost {} {}; played {}, best {}.</li>",
                    n + 1,
                    d.index,
                    d.turn,
                    escape(&d.kind),
                    escape(&d.loss_text(m.better)),
                    escape(&m.unit),
                    escape(&d.played.text),
                    escape(&d.best.text)
                );
            }
        }
        h.push_str("</ol>\n");
    }
    h.push_str("</section>\n");

    // Charts.
    h.push_str("<section id=\"charts\">\n<h2>The game over time</h2>\n");
    for chart in &review.charts {
        let marks: Vec<(f64, usize)> = turning
            .iter()
            .enumerate()
            .filter_map(|(n, &i)| review.decision(i).map(|d| (mark_at(chart.axis, d), n + 1)))
            .collect();
        let _ = writeln!(
            h,
            "<figure class=\"chart\">{}<figcaption>{}. Numbered marks: the turning points.</figcaption></figure>",
            legible(&line_chart(chart, &marks)),
            escape(&chart.title)
        );
    }
    h.push_str("</section>\n");

    // Every decision.
    let largest = review.decisions.iter().map(|d| d.sure_loss(m.better)).fold(0.0, f64::max);
    h.push_str(
        "<section id=\"moves\">\n<h2>Every decision</h2>\n<p>A long turn is listed step by step; where the best turn differs, the steps one takes and the other does not are <mark>marked</mark>.</p>\n<div class=\"scroll\"><table class=\"moves\">\n<thead><tr>",
    );
    h.push_str("<th class=\"num\">#</th><th class=\"num\">turn</th>");
    if !solo {
        h.push_str("<th>player</th>");
    }
    h.push_str(
        "<th>decision</th><th>played</th><th>best</th><th class=\"num\">before</th>\
         <th class=\"num\">after</th><th class=\"num\">loss</th><th>label</th>",
    );
    // The second value, which does not know the future, where the game computes it.
    let fair = review.decisions.iter().any(|d| d.fair_play.is_some());
    if fair {
        h.push_str(
            "<th class=\"num\" title=\"the fair-play value after the move played (not knowing the future)\">fair play</th>\
             <th class=\"num\">fair-play loss</th>",
        );
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for d in &review.decisions {
        let tp = rank_of(d.index);
        let class = if tp.is_some() { "decision turning" } else { "decision" };
        let _ = write!(
            h,
            "<tr class=\"{class}\" id=\"d{}\"><td class=\"num\">{}</td><td class=\"num\">{}</td>",
            d.index, d.index, d.turn
        );
        if !solo {
            let _ = write!(h, "<td>{}</td>", escape(&who(d.player)));
        }
        let best = if d.lost_nothing() {
            "<span class=\"zero\">the move played</span>".to_owned()
        } else {
            steps_html(&d.best.text, &d.played.text)
        };
        let played =
            if d.lost_nothing() { steps_html(&d.played.text, "") } else { steps_html(&d.played.text, &d.best.text) };
        let loss = if d.surely_lost_nothing(m.better) {
            "<span class=\"zero\">0</span>".to_owned()
        } else if !d.claimed(m.better) {
            // A range that reaches zero: no bar, the range in words.
            escape(&d.loss_text(m.better))
        } else {
            let sure = d.sure_loss(m.better);
            let width = if largest > 0.0 { (sure / largest * 48.0).max(2.0) } else { 0.0 };
            let badge = tp
                .map(|n| format!(" <a class=\"badge\" href=\"#tp{n}\" title=\"turning point {n}\">TP{n}</a>"))
                .unwrap_or_default();
            format!("<span class=\"bar\" style=\"width:{width:.0}px\"></span>{}{badge}", escape(&d.loss_text(m.better)))
        };
        let _ = write!(
            h,
            "<td>{}</td><td class=\"move\">{}</td><td class=\"move\">{best}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{loss}</td><td class=\"label\">{}</td>",
            escape(&d.kind),
            played,
            escape(&d.before_text()),
            escape(&d.after_text()),
            d.label.map_or("", signalbox_solver::analysis::Label::words),
        );
        if fair {
            let (value, loss) = match &d.fair_play {
                Some(f) => {
                    let pm = if f.exact { " (exact)".to_owned() } else { format!(" \u{b1} {}", number(f.half_width)) };
                    let best = f
                        .best_move
                        .as_deref()
                        .filter(|_| f.loss > 0.0)
                        .map(|m| format!("; best: {}", escape(m)))
                        .unwrap_or_default();
                    (format!("{}{pm}", number(f.played)), format!("{}{best}", number(f.loss)))
                }
                None => (String::new(), String::new()),
            };
            let _ = write!(h, "<td class=\"num\">{value}</td><td class=\"num\">{loss}</td>");
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody></table></div>\n</section>\n");

    // Luck and skill, turn by turn.
    if let Some(split) = review.fair_play.as_ref().filter(|f| !f.turns.is_empty()) {
        h.push_str(
            "<section id=\"luck\">\n<h2>Luck and skill, turn by turn</h2>\n<p>Each value is the expected final score when the \
             reference player plays on. The luck of a turn's roll and cards is the value after them less the value before \
             them (zero on average); the skill of its decisions is the value after them less the value of the turn the \
             reference player would have played. Each row adds up: expected + luck + skill = after.</p>\n\
             <div class=\"scroll\"><table class=\"luck\">\n<thead><tr><th>turn</th><th>chance</th>\
             <th class=\"num\">expected before</th><th class=\"num\">luck</th><th class=\"num\">skill</th>\
             <th class=\"num\">after</th></tr></thead>\n<tbody>\n",
        );
        for t in &split.turns {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{:.2}</td><td class=\"num\">{:+.2}</td><td class=\"num\">{:+.2}</td><td class=\"num\">{:.2}</td></tr>",
                if t.turn == 0 { "start".to_owned() } else { t.turn.to_string() },
                escape(&t.chance),
                t.expected,
                t.luck,
                t.skill,
                t.value_after
            );
        }
        h.push_str("</tbody></table></div>\n</section>\n");
    }

    // Turning points drawn.
    h.push_str("<section id=\"turning\">\n<h2>Turning points</h2>\n");
    if turning.is_empty() {
        h.push_str("<p>None: every decision kept the best value.</p>\n");
    }
    for (n, &i) in turning.iter().enumerate() {
        let Some(d) = review.decision(i) else { continue };
        let by = if solo { String::new() } else { format!(", {}", escape(&who(d.player))) };
        let _ = writeln!(
            h,
            "<article class=\"turning-point\" id=\"tp{}\">\n<h3><span class=\"badge\">TP{}</span> Decision {} (turn {}{by}, {}): lost {} {}</h3>\n\
             <p>Played <strong>{}</strong> ({} after it); best <strong>{}</strong> ({} after it).</p>",
            n + 1,
            n + 1,
            d.index,
            d.turn,
            escape(&d.kind),
            escape(&d.loss_text(m.better)),
            escape(&m.unit),
            escape(&d.played.text),
            escape(&d.after_text()),
            escape(&d.best.text),
            escape(&d.before_text())
        );
        if let Some(b) = boards.iter().find(|b| b.decision == i) {
            h.push_str("<div class=\"boards\">\n");
            for (class, board) in [("before", &b.before), ("played", &b.played), ("best", &b.best)] {
                let _ = writeln!(
                    h,
                    "<figure class=\"board {class}\">{}<figcaption>{}</figcaption></figure>",
                    legible(&board.svg),
                    escape(&board.caption)
                );
            }
            h.push_str("</div>\n");
        }
        h.push_str("</article>\n");
    }
    h.push_str("</section>\n");
    let _ = writeln!(
        h,
        "<footer>Written by signalbox {}: <code>signalbox {} analyse --html</code>. The values are the solver's; the page needs no network.</footer>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION"),
        escape(&review.game)
    );
    h
}

/// The steps of a long turn: a turn written as steps joined by `; ` (or, with none, `, `),
/// split where no bracket is open (a step's own words in brackets may hold the separator).
fn steps(text: &str) -> Vec<&str> {
    let sep = if text.contains("; ") { "; " } else { ", " };
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ if depth == 0 && text[i..].starts_with(sep) => {
                out.push(text[start..i].trim());
                start = i + sep.len();
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// A move for the move table: a long turn (four steps or more) as a numbered list, each step
/// that `other` (the other turn: the best beside the played, the played beside the best) does
/// not take marked; a short one as it is. Empty `other` marks nothing.
fn steps_html(text: &str, other: &str) -> String {
    let mine = steps(text);
    if mine.len() < 4 {
        return escape(text);
    }
    let mut theirs: Vec<&str> = if other.is_empty() { Vec::new() } else { steps(other) };
    let mut h = String::from("<ol class=\"steps\">");
    for step in mine {
        let shared = other.is_empty() || theirs.iter().position(|s| *s == step).map(|i| theirs.remove(i)).is_some();
        if shared {
            let _ = write!(h, "<li>{}</li>", escape(step));
        } else {
            let _ = write!(h, "<li class=\"differs\"><mark>{}</mark></li>", escape(step));
        }
    }
    h.push_str("</ol>");
    h
}

/// The smallest text a picture may draw, in CSS pixels at the page's scale.
pub const MIN_TEXT_PX: f64 = 11.0;

/// `svg` (one `<svg>` element with a `viewBox`) never drawn so narrow that its smallest text
/// falls under [`MIN_TEXT_PX`]: a `min-width` in its style, its `viewBox` width times the scale
/// that brings its smallest `font-size` to that size. Where the figure is narrower, it scrolls
/// sideways (the style's `figure` rule); a picture without text or sizes is left as it is.
pub fn legible(svg: &str) -> String {
    let attr = |name: &str, from: usize| -> Option<(usize, &str)> {
        let key = format!("{name}=\"");
        let at = svg[from..].find(&key)? + from + key.len();
        let end = svg[at..].find('"')? + at;
        Some((end, &svg[at..end]))
    };
    let Some(head_end) = svg.find('>') else { return svg.to_owned() };
    let width = attr("viewBox", 0)
        .filter(|&(end, _)| end < head_end)
        .and_then(|(_, v)| v.split([' ', ',']).filter(|p| !p.is_empty()).nth(2).and_then(|w| w.parse::<f64>().ok()));
    let mut smallest = f64::INFINITY;
    let mut from = 0;
    while let Some((end, v)) = attr("font-size", from) {
        if let Ok(size) = v.trim_end_matches("px").parse::<f64>() {
            smallest = smallest.min(size);
        }
        from = end;
    }
    match width {
        Some(w) if smallest.is_finite() && smallest > 0.0 && svg.starts_with("<svg") => {
            let min = (w * MIN_TEXT_PX / smallest).ceil();
            format!("<svg style=\"min-width:{min}px\"{}", &svg[4..])
        }
        _ => svg.to_owned(),
    }
}

/// Checks, for the games' tests, that every board of the turning points can be inlined in a
/// page: a whole `<svg>` element, no XML declaration and no ids, an opaque background; and
/// that the played and the best move are drawn differently.
#[cfg(test)]
pub(crate) fn assert_inlinable(boards: &[TurningBoards]) {
    for b in boards {
        for board in [&b.before, &b.played, &b.best] {
            let svg = board.svg.trim();
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{}", &svg[..40.min(svg.len())]);
            assert!(!svg.contains("<?xml") && !svg.contains(" id=\""));
            assert!(svg.contains("fill=\"white\""), "an opaque background");
        }
        assert_ne!(b.played.svg, b.best.svg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_turn_is_a_numbered_list_with_the_differing_steps_marked() {
        let list = steps_html("a; b; c; d", "a; x; c; d");
        assert_eq!(
            list,
            "<ol class=\"steps\"><li>a</li><li class=\"differs\"><mark>b</mark></li><li>c</li><li>d</li></ol>"
        );
        assert_eq!(steps_html("a; b", "c"), "a; b", "a short move stays on its line");
        assert_eq!(steps("a (b; c); d [1, 2]; e"), ["a (b; c)", "d [1, 2]", "e"], "brackets hold their separators");
        assert_eq!(
            steps_html("p, q, q, r", "q, p, r, s"),
            "<ol class=\"steps\"><li>p</li><li>q</li><li class=\"differs\"><mark>q</mark></li><li>r</li></ol>"
        );
    }

    #[test]
    fn a_picture_is_never_drawn_so_small_that_its_text_is_under_11_px() {
        let svg =
            r#"<svg viewBox="0 0 400 200" width="400"><text font-size="8">a</text><text font-size="16">b</text></svg>"#;
        // 8 units must be drawn 11 px high: the picture at least 400 * 11 / 8 = 550 px wide.
        assert!(legible(svg).starts_with(r#"<svg style="min-width:550px" viewBox="0 0 400 200""#), "{}", legible(svg));
        let plain = r#"<svg viewBox="0 0 400 200"><rect width="4"/></svg>"#;
        assert_eq!(legible(plain), plain, "no text, nothing to keep legible");
    }
    use signalbox_solver::analysis::{Chart, Choice, Measure, Point, Series};

    fn review() -> Review {
        let choice = |t: &str| Choice { text: t.to_owned(), moves: serde_json::Value::Null };
        let values = [(10.0, 10.0), (10.0, 7.0), (7.0, 7.0), (7.0, 6.0)];
        let decisions = values
            .iter()
            .enumerate()
            .map(|(i, &(before, after))| Decision {
                index: i + 1,
                turn: i / 2 + 1,
                player: i % 2,
                kind: "turn".into(),
                played: choice("a <move>"),
                best: choice("b & c"),
                value_before: before,
                value_after: after,
                best_value_after: before,
                loss: before - after,
                proven: i != 3,
                // The last is unproven: a loss of at least 0.5 by its bounds.
                ranges: (i == 3).then_some(signalbox_solver::analysis::Ranges {
                    before: signalbox_solver::analysis::Range { low: 7.0, high: Some(8.0) },
                    after: signalbox_solver::analysis::Range { low: 6.0, high: Some(6.5) },
                    estimated: false,
                }),
                label: None,
                fair_play: None,
                details: serde_json::json!({ "roll": "SS, CC", "chances": [0.5, 0.25], "nested": { "x": 1 } }),
            })
            .collect();
        let measure = Measure {
            name: "score".into(),
            unit: "points".into(),
            better: Better::Higher,
            assumes: "It knows the dice.".into(),
            thresholds: signalbox_solver::coe::analysis::THRESHOLDS,
        };
        let mut r = Review::new("coe", "Seed 1 <test>".into(), vec!["red".into(), "blue".into()], measure, decisions);
        r.charts.push(Chart {
            title: "score".into(),
            axis: Axis::Decision,
            x_label: "decision".into(),
            y_label: "points".into(),
            series: vec![Series {
                name: "best".into(),
                player: None,
                points: (0..5).map(|x| Point { x: x as f64, y: 10.0 - x as f64, low: None, high: None }).collect(),
            }],
        });
        r
    }

    #[test]
    fn the_page_has_one_row_per_decision_its_turning_points_and_escapes_text() {
        let r = review();
        let board =
            |c: &str| Board { caption: c.into(), svg: "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>".into() };
        let boards =
            vec![TurningBoards { decision: 2, before: board("before"), played: board("played"), best: board("best") }];
        let page = review_page(&r, &boards);
        assert_eq!(page.matches("<tr class=\"decision").count(), 4);
        assert_eq!(page.matches("<tr class=\"decision turning\"").count(), 2);
        assert_eq!(page.matches("<figure class=\"board ").count(), 3);
        assert!(page.contains("id=\"tp1\"") && page.contains("id=\"tp2\""));
        assert!(page.contains("Seed 1 &lt;test&gt;") && page.contains("a &lt;move&gt;") && page.contains("b &amp; c"));
        assert!(!page.contains("<move>"));
        assert!(!page.contains("chances"), "the raw details stay in the JSON");
        assert!(page.contains("class=\"chart\""));
        assert!(page.contains(">7 to 8<"), "unproven values are shown as ranges");
        for banned in ["<script", "http://", "https://"] {
            let outside_svg_namespace = page.replace("http://www.w3.org/2000/svg", "");
            assert!(!outside_svg_namespace.contains(banned), "{banned}");
        }
    }
}
