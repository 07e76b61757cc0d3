//! One loss unit per game, and the same labels in text, JSON and page: every game's sample
//! review is analysed, and each decision's label is checked against the thresholds read from
//! `docs/formats/analysis.md` (the table "Labels and accuracy"), in all three outputs.
//!
//! The Railways Express review is of the sample game's first turns and Express 01's searches
//! stop sooner than by default, to keep CI short.

mod support;

use serde_json::Value;

use support::run;

/// Every game's loss unit: one per game, and no other game's unit in its review.
const UNITS: [(&str, &str); 4] = [
    ("coe", "points"),
    ("cube-express", "value points"),
    ("express01", "capital points"),
    ("railways", "expected turns"),
];

/// The thresholds of `game` as the format document's table gives them: (unit, inaccuracy,
/// mistake, blunder).
fn documented(game: &str) -> (String, f64, f64, f64) {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/formats/analysis.md")).expect("the doc");
    let row = doc
        .lines()
        .find(|l| l.starts_with(&format!("| {game} |")))
        .unwrap_or_else(|| panic!("docs/formats/analysis.md has no row for {game}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    let n = |i: usize| cells[i].parse::<f64>().unwrap_or_else(|_| panic!("{game}: cell {i} of {row} is a number"));
    (cells[2].to_owned(), n(3), n(4), n(5))
}

/// Whether `text` counts anything in `unit`: a number, a space and the unit.
fn counts_in(text: &str, unit: &str) -> bool {
    text.match_indices(&format!(" {unit}")).any(|(at, _)| text[..at].ends_with(|c: char| c.is_ascii_digit()))
}

/// The loss the review is sure of, from a decision's JSON (`docs/formats/analysis.md`).
fn sure_loss(d: &Value, higher: bool) -> (f64, bool, bool) {
    let loss = d["loss"].as_f64().expect("a loss");
    let Some(r) = d.get("ranges") else {
        let proven = d["proven"] == true;
        return (if proven { loss } else { 0.0 }, proven && loss <= 1e-9, proven && loss > 1e-9);
    };
    let f = |v: &Value| v.as_f64();
    let (bl, bh, al, ah) =
        (f(&r["before"]["low"]), f(&r["before"]["high"]), f(&r["after"]["low"]), f(&r["after"]["high"]));
    let (low, high) = if higher {
        (ah.map_or(0.0, |h| bl.expect("low") - h), bh.map(|h| h - al.expect("low")))
    } else {
        (bh.map_or(0.0, |h| al.expect("low") - h), ah.map(|h| h - bl.expect("low")))
    };
    let claimed = low > 1e-9;
    if r["estimated"] == true {
        (if claimed { loss } else { 0.0 }, loss <= 1e-9, claimed)
    } else {
        (low.max(0.0), high.is_some_and(|h| h <= 1e-9), claimed)
    }
}

/// The label the documented thresholds give a decision.
fn expected_label(d: &Value, higher: bool, t: (f64, f64, f64)) -> &'static str {
    let (loss, nothing, claimed) = sure_loss(d, higher);
    if nothing {
        return "best";
    }
    if !claimed {
        let estimated = d.get("ranges").is_some_and(|r| r["estimated"] == true);
        return if d["proven"] == true || estimated { "good" } else { "not proven" };
    }
    let eps = 1e-9;
    if loss >= t.2 - eps {
        "blunder"
    } else if loss >= t.1 - eps {
        "mistake"
    } else if loss >= t.0 - eps {
        "inaccuracy"
    } else {
        "good"
    }
}

fn railways_opening() -> String {
    let mut record: Value =
        serde_json::from_str(signalbox_engine::railways::record::SAMPLE_GAME_JSON).expect("the sample game");
    record["turns"].as_array_mut().expect("turns").truncate(8);
    let path = support::temp_path("review-labels", "railways-opening.json");
    std::fs::write(&path, record.to_string()).expect("written");
    path.display().to_string()
}

/// Analyses one game's sample as JSON, as text and as a page, and checks the unit and labels.
fn check(game: &str, extra: &[&str]) {
    let (unit, inaccuracy, mistake, blunder) = documented(game);
    let page = support::temp_path("review-labels", &format!("{game}.html"));
    let _ = std::fs::remove_file(&page);
    let mut args = vec![game, "analyse", "--quiet"];
    args.extend(extra);
    let (code, json, err) = run(&[args.as_slice(), &["--json"]].concat());
    assert_eq!(code, Some(0), "{game}: {err}");
    let page_arg = page.display().to_string();
    let (code, text, err) = run(&[args.as_slice(), &["--html", &page_arg]].concat());
    assert_eq!(code, Some(0), "{game}: {err}");
    let html = std::fs::read_to_string(&page).expect("the page");
    let v: Value = serde_json::from_str(&json).expect("one JSON object");

    // One unit, the documented one, everywhere.
    assert_eq!(v["measure"]["unit"], unit.as_str(), "{game}: the JSON's unit");
    let t = &v["measure"]["thresholds"];
    assert_eq!(
        (t["inaccuracy"].as_f64(), t["mistake"].as_f64(), t["blunder"].as_f64()),
        (Some(inaccuracy), Some(mistake), Some(blunder)),
        "{game}: the thresholds in the JSON are the documented ones"
    );
    assert!(text.contains(&format!("total loss 0 {unit}")) || text.contains(&format!(" {unit},")), "{game}: {text}");
    assert!(html.contains(&format!("counted in {unit}")), "{game}: the page names its unit");
    for (other, other_unit) in UNITS {
        if other != game && !unit.contains(other_unit) {
            assert!(!counts_in(&text, other_unit), "{game}: the text counts in {other_unit}");
            assert!(!counts_in(&html, other_unit), "{game}: the page counts in {other_unit}");
        }
    }

    // Every decision's label follows the documented thresholds, in all three outputs.
    let higher = v["measure"]["better"] == "higher";
    let decisions = v["decisions"].as_array().expect("decisions");
    let mut seen = std::collections::BTreeSet::new();
    let rows: Vec<&str> = html.split("<tr class=\"decision").skip(1).collect();
    assert_eq!(rows.len(), decisions.len(), "{game}: one page row per decision");
    for (d, row) in decisions.iter().zip(&rows) {
        let label = expected_label(d, higher, (inaccuracy, mistake, blunder));
        seen.insert(label);
        assert_eq!(d["label"], label, "{game}: decision {} is labelled by the thresholds: {d}", d["index"]);
        assert!(
            row.contains(&format!("<td class=\"label\">{label}</td>")),
            "{game}: the page's row {} says {label}",
            d["index"]
        );
    }
    // The text table: each decision's row (the line starting with its index) has its label in
    // the column headed "label".
    let cells_of = |line: &str| -> Vec<String> {
        line.split(['│', '┆']).map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()).collect()
    };
    let header = text.lines().find(|l| l.starts_with('│') && l.contains("label")).expect("the table's header");
    let column = cells_of(header).iter().position(|c| c == "label").expect("a label column");
    for d in decisions {
        let index = d["index"].as_u64().expect("an index");
        let label = d["label"].as_str().expect("a label");
        let line = text
            .lines()
            .find(|l| l.starts_with('│') && l.trim_start_matches(['│', ' ']).starts_with(&format!("{index} ")))
            .unwrap_or_else(|| panic!("{game}: no text row for decision {index}"));
        assert_eq!(
            cells_of(line).get(column).map(String::as_str),
            Some(label),
            "{game}: the text row of decision {index}: {line}"
        );
    }
    // Each player's accuracy and label counts, the same in JSON, text and page.
    for p in v["summary"]["players"].as_array().expect("players") {
        let counted: u64 =
            p["labels"].as_object().expect("labels").values().map(|n| n.as_u64().expect("a count")).sum();
        assert_eq!(counted, p["decisions"].as_u64().expect("decisions"), "{game}: every decision is counted once");
        if let Some(a) = p["accuracy"].as_f64() {
            let words = format!("accuracy {a:.0}%");
            assert!(text.contains(&words) && html.contains(&words), "{game}: {words} in the text and the page");
        }
    }
    assert!(seen.contains("best"), "{game}: the sample has a best move");
}

#[test]
fn the_cubes_of_europe_review_counts_points_and_labels_alike_everywhere() {
    check("coe", &["--fair-samples", "8"]);
}

#[test]
fn the_cube_express_review_counts_value_points_and_labels_alike_everywhere() {
    check("cube-express", &[]);
}

#[test]
fn the_express01_review_counts_capital_points_and_labels_alike_everywhere() {
    check("express01", &["--states", "5000"]);
}

#[test]
fn the_railways_review_counts_expected_turns_and_labels_alike_everywhere() {
    let opening = railways_opening();
    check("railways", &[opening.as_str(), "--games", "2"]);
}
