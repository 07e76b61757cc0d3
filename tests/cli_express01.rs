//! End-to-end tests of `signalbox express01`: the binary is run as a user runs it.
//!
//! * Happy paths on the embedded sample position: `route` (text, `--json`, `--svg`, `--top`,
//!   `--company`/`--player`, `--shares`) and `check`.
//! * Bad input: one table ([`BAD_INPUT`]) of fixtures under `tests/fixtures/express01/` (or
//!   one-line edits of the embedded house set) with the arguments, the exit code and the words
//!   the message must contain. Every bad input must exit with code 2, say `error:` on stderr,
//!   print nothing on stdout, name the file, and never panic. Adding a case is one line.
//! * Regressions: defects found by these tests and fixed (a huge time limit or share count, a
//!   negative time limit, an unwritable picture path, JSON arrays where objects belong).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

/// The embedded house set, as text: content cases are one-line edits of it.
const HOUSE_TOML: &str = include_str!("../engine/data/express01/house.toml");

/// The embedded sample position, as text (the default position of every command).
const SAMPLE_JSON: &str = include_str!("../engine/data/express01/sample-position.json");

// ---- running the binary ----

/// What one run of the binary did.
struct Run {
    /// The command line, for failure messages.
    what: String,
    /// The exit code; `None` when killed by a signal (an abort).
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Panics with the whole run unless it exited with code 0.
    fn succeeded(self) -> Run {
        assert_eq!(self.code, Some(0), "{} should succeed\n{}", self.what, self.dump());
        assert!(!self.stderr.contains("panicked"), "{} panicked\n{}", self.what, self.dump());
        self
    }

    /// The stdout parsed as JSON.
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("{}: stdout is not JSON: {e}\n{}", self.what, self.dump()))
    }

    fn dump(&self) -> String {
        format!("exit code: {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}", self.code, self.stdout, self.stderr)
    }
}

/// Runs `signalbox express01 ARGS...`.
fn express01<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let what =
        format!("signalbox express01 {}", args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "));
    let output = Command::new(env!("CARGO_BIN_EXE_signalbox"))
        .arg("express01")
        .args(&args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start the binary: {e}"));
    Run {
        what,
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A fresh, uniquely named directory under the system's temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("signalbox-cli-express01-{tag}-{}-{n}-{nanos}", std::process::id()));
        // `create_dir` (not `create_dir_all`) fails if the directory exists: the name is ours alone.
        std::fs::create_dir(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        TempDir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/express01")
}

fn sample() -> Value {
    serde_json::from_str(SAMPLE_JSON).expect("the embedded sample position is JSON")
}

// ---- JSON helpers ----

fn strings(v: &Value, field: &str) -> Vec<String> {
    let array = v[field].as_array().unwrap_or_else(|| panic!("`{field}` should be an array: {v}"));
    array
        .iter()
        .map(|s| s.as_str().unwrap_or_else(|| panic!("`{field}` should hold strings: {s}")).to_string())
        .collect()
}

fn uint(v: &Value, field: &str) -> u64 {
    v[field].as_u64().unwrap_or_else(|| panic!("`{field}` should be a non-negative integer: {}", v[field]))
}

/// Whether `part` appears in `whole` in order (not necessarily contiguous).
fn is_subsequence(part: &[String], whole: &[String]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|p| rest.any(|w| w == p))
}

/// The cell of a station label (`"061/s2"` lies on cell `"061"`).
fn cell_of(station: &str) -> &str {
    station.split('/').next().unwrap_or(station)
}

/// The text of every SVG element with `class="CLASS"`, trimmed.
fn svg_texts(svg: &str, class: &str) -> Vec<String> {
    svg.split(&format!("class=\"{class}\""))
        .skip(1)
        .filter_map(|rest| {
            let body = &rest[rest.find('>')? + 1..];
            Some(body[..body.find('<')?].trim().to_string())
        })
        .collect()
}

// ---- happy paths ----

#[test]
fn route_on_the_sample_is_proven_and_text_agrees_with_json() {
    let text = express01(["route"]).succeeded();
    let json = express01(["route", "--json"]).succeeded().json();

    // JSON: the documented fields, with their types.
    assert_eq!(json["proven"], Value::Bool(true), "{json}");
    assert!(json["payout"].is_u64(), "payout should be a number: {json}");
    let payout = uint(&json, "payout");
    let stations = strings(&json, "stations");
    let cells = strings(&json, "cells");
    assert!(payout > 0, "the sample has a paying route: {json}");
    assert!(stations.len() >= 2, "a route joins at least two stations: {stations:?}");
    let station_cells: Vec<String> = stations.iter().map(|s| cell_of(s).to_string()).collect();
    assert!(is_subsequence(&station_cells, &cells), "stations {stations:?} should lie on the cells {cells:?} in order");
    assert_eq!(uint(&json, "cards") as usize, cells.len(), "all-cards rule: every cell travelled is a card");
    assert!(uint(&json, "cards") <= uint(&json, "max_cards"), "{json}");
    let pending = &sample()["bonus_payment"];
    assert_eq!(json["company"], pending["company"], "default company is the sample's pending payment");
    assert_eq!(json["player"], pending["player"], "default player is the sample's pending payment");
    assert_eq!(uint(&json, "max_cards"), uint(&json, "issued_shares"), "default length is the issued shares");
    let breakdown = json["breakdown"].as_array().expect("breakdown array");
    let summed: u64 = breakdown.iter().map(|b| uint(b, "value")).sum();
    assert_eq!(summed, payout, "the breakdown adds up to the payout");

    // Text: proven, same payout, same stations in the same order, same cells.
    let out = &text.stdout;
    assert!(out.contains("proven optimal"), "{out}");
    let mut lines = out.lines();
    let best = lines
        .by_ref()
        .find(|l| l.starts_with("Best route ("))
        .unwrap_or_else(|| panic!("no `Best route` line:\n{out}"));
    let text_payout: u64 = best
        .split("payout ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no payout in `{best}`"));
    assert_eq!(text_payout, payout, "text and JSON payouts differ");
    assert!(best.contains(&format!("{} cards", uint(&json, "cards"))), "{best}");
    let route_line = lines.next().expect("the route line follows `Best route`");
    let text_stations: Vec<&str> =
        route_line.trim().split(" → ").map(|s| s.split_whitespace().next().unwrap_or("")).collect();
    let json_station_cells: Vec<&str> = stations.iter().map(|s| cell_of(s)).collect();
    assert_eq!(text_stations, json_station_cells, "text route `{route_line}` vs JSON stations {stations:?}");
    assert!(out.contains(&format!("Cells:  {}", cells.join(" → "))), "{out}");
    assert!(out.contains(&format!("= {payout}\n")), "the `Payout:` line should end in {payout}:\n{out}");
    // Standard error holds the search's work and time only (they vary with the machine).
    assert!(text.stderr.lines().all(|l| l.starts_with("Searched ")), "only the work on stderr: {}", text.stderr);
}

#[test]
fn route_from_the_sample_file_equals_the_embedded_sample() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/data/express01/sample-position.json");
    let embedded = express01(["route", "--json"]).succeeded().json();
    let from_file = express01([OsString::from("route"), path.clone().into(), "--json".into()]).succeeded().json();
    assert_eq!(from_file["payout"], embedded["payout"]);
    assert_eq!(from_file["stations"], embedded["stations"]);
    assert!(
        from_file["position"].as_str().is_some_and(|p| p.ends_with("sample-position.json")),
        "{}",
        from_file["position"]
    );
}

#[test]
fn svg_is_written_refused_without_force_and_replaced_with_force() {
    let dir = TempDir::new("svg");
    let svg_path = dir.path("route.svg");
    let svg_arg = || svg_path.clone().into_os_string();

    let run = express01([OsString::from("route"), "--json".into(), "--svg".into(), svg_arg()]).succeeded();
    let json = run.json();
    let svg = std::fs::read_to_string(&svg_path).expect("the SVG file was written");
    assert!(svg.starts_with("<svg"), "{}", svg.chars().take(200).collect::<String>());
    assert!(svg.trim_end().ends_with("</svg>"), "the SVG document is complete");
    let stations = strings(&json, "stations");
    let labels = svg_texts(&svg, "station-label");
    for s in &stations {
        assert!(labels.contains(s), "station label {s} missing from the SVG's labels {labels:?}");
    }
    assert_eq!(
        svg.matches("class=\"route-badge\"").count(),
        stations.len(),
        "one numbered badge per station of the route"
    );
    let steps = json["steps"].as_array().expect("steps array").len();
    assert_eq!(svg.matches("class=\"route-step\"").count(), steps, "one highlighted path per step");
    assert!(svg.contains(&format!("payout {}", uint(&json, "payout"))), "the title names the payout");

    // The text output names the picture.
    let dir2 = TempDir::new("svg-text");
    let text_svg = dir2.path("text.svg");
    let text = express01([OsString::from("route"), "--svg".into(), text_svg.clone().into()]).succeeded();
    assert!(text.stdout.contains(&format!("Picture: {}", text_svg.display())), "{}", text.stdout);

    // Again without --force: refused, exit 2, file untouched. A sentinel tells "untouched" from
    // "rewritten with the same bytes".
    let sentinel = "<svg>sentinel: must not be replaced</svg>";
    std::fs::write(&svg_path, sentinel).expect("write sentinel");
    let refused = express01([OsString::from("route"), "--svg".into(), svg_arg()]);
    assert_eq!(refused.code, Some(2), "{}", refused.dump());
    assert!(refused.stderr.contains("route.svg"), "names the file: {}", refused.stderr);
    assert!(refused.stderr.contains("already exists") && refused.stderr.contains("--force"), "{}", refused.stderr);
    assert!(refused.stdout.is_empty(), "nothing printed when refusing: {}", refused.stdout);
    assert!(!refused.stderr.contains("panicked"), "{}", refused.stderr);
    assert_eq!(
        std::fs::read_to_string(&svg_path).expect("read back"),
        sentinel,
        "the file was changed without --force"
    );

    // With --force: replaced by the same picture as the first run.
    express01([OsString::from("route"), "--json".into(), "--svg".into(), svg_arg(), "--force".into()]).succeeded();
    assert_eq!(std::fs::read_to_string(&svg_path).expect("read back"), svg, "--force should write the picture again");
}

#[test]
fn top_three_routes_are_sorted_distinct_and_led_by_the_best() {
    let best = express01(["route", "--json"]).succeeded().json();
    let json = express01(["route", "--top", "3", "--json"]).succeeded().json();
    let routes = json["routes"].as_array().expect("routes array");
    assert!((1..=3).contains(&routes.len()), "1 to 3 routes, got {}", routes.len());
    let payouts: Vec<u64> = routes.iter().map(|r| uint(r, "payout")).collect();
    assert!(payouts.windows(2).all(|w| w[0] >= w[1]), "routes should be sorted by payout, descending: {payouts:?}");
    assert_eq!(payouts[0], uint(&best, "payout"), "the first route is the optimum");
    assert_eq!(routes[0]["stations"], json["stations"], "the first route is the one reported as best");
    assert_eq!(routes[0]["cells"], json["cells"]);
    let max_cards = uint(&json, "max_cards");
    let station_lists: Vec<Vec<String>> = routes.iter().map(|r| strings(r, "stations")).collect();
    for (i, r) in routes.iter().enumerate() {
        assert!(uint(r, "cards") <= max_cards, "route {i} is too long: {r}");
        assert_eq!(uint(r, "cards") as usize, strings(r, "cells").len(), "route {i}: {r}");
        for (j, other) in station_lists.iter().enumerate().skip(i + 1) {
            let reversed: Vec<String> = other.iter().rev().cloned().collect();
            assert!(
                station_lists[i] != *other && station_lists[i] != reversed,
                "routes {i} and {j} are the same route"
            );
        }
    }
    let text = express01(["route", "--top", "3"]).succeeded();
    assert!(
        text.stdout.contains(&format!("The {} best routes:", routes.len())) || routes.len() == 1,
        "{}",
        text.stdout
    );
}

#[test]
fn company_and_player_overrides_change_the_payment() {
    // In the sample, Philipp holds yellow shares 235 and 220; Peter 136 and 212, Martina 206:
    // 5 yellow shares issued. The pending payment is blue, by Peter.
    let sample = sample();
    let players = sample["players"].as_array().expect("players");
    assert!(players.iter().any(|p| p["name"] == "Philipp"), "the sample has a player Philipp");
    assert_ne!(sample["bonus_payment"]["company"], "yellow", "the override must differ from the default");
    assert_ne!(sample["bonus_payment"]["player"], "Philipp", "the override must differ from the default");

    let json = express01(["route", "--company", "yellow", "--player", "Philipp", "--json"]).succeeded().json();
    assert_eq!(json["company"], "yellow", "{json}");
    assert_eq!(json["player"], "Philipp", "{json}");
    assert_eq!(uint(&json, "issued_shares"), 5, "{json}");
    assert_eq!(uint(&json, "max_cards"), 5, "{json}");
    assert!(uint(&json, "cards") <= 5, "{json}");
    assert_eq!(json["proven"], Value::Bool(true));
    let breakdown = json["breakdown"].as_array().expect("breakdown");
    assert!(breakdown.iter().any(|b| b["company"] == "yellow"), "the route must include a yellow station: {json}");
    let philipp = json["distribution"]
        .as_array()
        .and_then(|d| d.iter().find(|h| h["player"] == "Philipp"))
        .unwrap_or_else(|| panic!("Philipp in the distribution: {json}"));
    assert_eq!(uint(philipp, "shares"), 2, "{philipp}");

    let text = express01(["route", "--company", "yellow", "--player", "Philipp"]).succeeded();
    assert!(text.stdout.contains("yellow train, started by Philipp"), "{}", text.stdout);
    assert!(text.stdout.contains("5 yellow shares issued"), "{}", text.stdout);
}

#[test]
fn shares_override_bounds_the_route_length() {
    let default = express01(["route", "--json"]).succeeded().json();
    let json = express01(["route", "--shares", "3", "--json"]).succeeded().json();
    assert_eq!(uint(&json, "max_cards"), 3, "{json}");
    assert!(uint(&json, "cards") <= 3, "{json}");
    assert!(strings(&json, "cells").len() <= 3, "{json}");
    assert!(uint(&json, "payout") <= uint(&default, "payout"), "a shorter limit cannot pay more");
    assert_eq!(json["proven"], Value::Bool(true));
    let text = express01(["route", "--shares", "3"]).succeeded();
    assert!(text.stdout.contains("at most 3 cards (--shares)"), "{}", text.stdout);
}

#[test]
fn check_accepts_the_sample() {
    let run = express01(["check"]).succeeded();
    assert!(
        run.stdout.contains("the sample position: a legal Express 01 position on map germany with 3 players"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("the house set"), "{}", run.stdout);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/data/express01/sample-position.json");
    let run = express01([OsString::from("check"), path.into()]).succeeded();
    assert!(run.stdout.contains("sample-position.json: a legal Express 01 position"), "{}", run.stdout);
}

// ---- bad input ----

/// Where a bad-input case's file comes from. Its path replaces `{}` in the arguments.
#[derive(Clone, Copy, Debug)]
enum Input {
    /// No file: the embedded sample and house set.
    Sample,
    /// `tests/fixtures/express01/NAME`, which must exist.
    Fixture(&'static str),
    /// `tests/fixtures/express01/NAME`, which must not exist.
    Missing(&'static str),
    /// The embedded house set with the first `from` replaced by `to`, written to a temp file NAME.
    HouseEdit { name: &'static str, from: &'static str, to: &'static str },
}

use Input::{Fixture, HouseEdit, Missing, Sample};

/// One bad input: what to run, the exit code, and words the message must contain.
#[derive(Clone, Copy, Debug)]
struct Case {
    input: Input,
    /// After `signalbox express01`; `{}` is the input's path.
    args: &'static [&'static str],
    code: i32,
    /// Substrings of stderr.
    expect: &'static [&'static str],
}

const fn case(input: Input, args: &'static [&'static str], code: i32, expect: &'static [&'static str]) -> Case {
    Case { input, args, code, expect }
}

#[rustfmt::skip]
const BAD_INPUT: &[Case] = &[
    // Syntax and shape: file, line and column.
    case(Fixture("malformed.json"), &["check", "{}"], 2, &["malformed.json:3:3:", "expected `,` or `}`"]),
    case(Fixture("malformed.json"), &["route", "{}"], 2, &["malformed.json:3:3:", "expected `,` or `}`"]),
    case(Fixture("unknown-field.json"), &["check", "{}"], 2, &["unknown-field.json:4:", "unknown field `colour`", "turn_order"]),
    case(Fixture("wrong-type.json"), &["check", "{}"], 2, &["wrong-type.json:4:", "invalid type", "\"first\"", "expected a whole number from 0 to 255"]),
    case(Fixture("malformed-content.toml"), &["check", "--content", "{}"], 2, &["malformed-content.toml:3:13:", "string values must be quoted"]),
    case(Fixture("content-unknown-field.toml"), &["route", "--content", "{}"], 2, &["content-unknown-field.toml:4:1:", "unknown field `colour`"]),
    // Position rules: the field, cell, card or player, and the rule.
    case(Fixture("unknown-map.json"), &["check", "{}"], 2, &["map: `france` is not a map of this content", "germany, usa"]),
    case(Fixture("unknown-cell.json"), &["check", "{}"], 2, &["board[0]: cell 061 is not a cell of this map"]),
    case(Fixture("cell-twice.json"), &["check", "{}"], 2, &["board[1]: cell 008 is already listed"]),
    case(Fixture("unknown-card.json"), &["check", "{}"], 2, &["cell 003: card 999 is not a card of this content"]),
    case(Fixture("card-not-for-cell.json"), &["check", "{}"], 2, &["cell 001: card 402 cannot lie here", "not reachable from base card 001"]),
    case(Fixture("base-card-elsewhere.json"), &["check", "{}"], 2, &["cell 001: card 002 cannot lie here", "it is a base card", "base card is 001"]),
    case(Fixture("open-track-sea.json"), &["check", "{}"], 2, &["cell 003: card 104", "track heading for the sea at side ne"]),
    case(Fixture("open-track-border.json"), &["check", "{}"], 2, &["cell 031: card 106", "track heading for a neighbouring country at side se"]),
    case(Fixture("open-track-blockade.json"), &["check", "{}"], 2, &["cell 060: card 507", "track heading for the blockade at side e"]),
    case(Fixture("card-overused.json"), &["check", "{}"], 2, &["card 101 is used 4 times", "cell 008", "player Anna, hand", "the set has 3"]),
    case(Fixture("base-card-in-hand.json"), &["check", "{}"], 2, &["player Anna, hand: card 051 is a base-station card and cannot be here"]),
    case(Fixture("not-a-share.json"), &["check", "{}"], 2, &["player Anna, shares: card 102", "not a share"]),
    case(Fixture("share-count-mismatch.json"), &["check", "{}"], 2, &["player Anna, share_counts: blue is given as 2, but the share cards hold 1"]),
    case(Fixture("duplicate-player.json"), &["check", "{}"], 2, &["players: the name `Anna` is used twice"]),
    case(Fixture("bad-turn-order.json"), &["check", "{}"], 2, &["turn order cards must be 1 to 2", "found 1, 3"]),
    case(Fixture("too-many-players.json"), &["check", "{}"], 2, &["players: 5 players", "1 to 4"]),
    case(Fixture("black-engine-unknown-player.json"), &["check", "{}"], 2, &["black_engine: no player is named `Zoe`"]),
    case(Fixture("payment-no-share.json"), &["check", "{}"], 2, &["bonus payment: Anna owns no share of blue"]),
    case(Fixture("payment-no-share.json"), &["route", "{}"], 2, &["bonus payment: Anna owns no share of blue"]),
    case(Fixture("payment-no-station.json"), &["route", "{}"], 2, &["bonus payment: red has no station in the network"]),
    // Whole games: records and positions with decks.
    case(Fixture("record-illegal-move.json"), &["replay", "{}"], 2, &["turns[2] (round 1, turn 3, Ben), step 7 `take 105 from Anna` (B: shares)", "the decks hold a share of green", "(and only then)"]),
    case(Fixture("record-illegal-move.json"), &["check", "{}"], 2, &["turns[2] (round 1, turn 3, Ben), step 7", "only then"]),
    case(Fixture("record-truncated.json"), &["replay", "{}"], 2, &["record-truncated.json:34:12:", "EOF while parsing"]),
    case(Fixture("record-wrong-player.json"), &["replay", "{}"], 2, &["turns[1]: labelled round 1, turn 2, Clara", "Anna to move"]),
    case(Fixture("game-card-twice.json"), &["check", "{}"], 2, &["card 226 is used 2 times (player Anna, hand, deck route-blue), but the set has 1"]),
    case(Fixture("game-card-twice.json"), &["play", "{}"], 2, &["card 226 is used 2 times"]),
    case(Fixture("game-face-up.json"), &["check", "{}"], 2, &["face_up: deck central-blue holds 1, so 3 cards cannot lie face up"]),
    // The command line against the embedded sample.
    case(Sample, &["route", "--company", "purple"], 2, &["the sample position", "unknown company `purple`", "red, blue, green, yellow"]),
    case(Sample, &["route", "--company", "red"], 2, &["Peter owns no share of red"]),
    case(Sample, &["route", "--player", "Nobody"], 2, &["no player is named `Nobody`"]),
    case(Sample, &["route", "--black-engine"], 2, &["Peter does not own the black engine"]),
    case(Sample, &["route", "--time-limit", "nan"], 2, &["--time-limit", "seconds above 0"]),
    case(Sample, &["route", "--frobnicate"], 2, &["unexpected argument '--frobnicate'"]),
    case(Sample, &["route", "--top", "0"], 2, &["invalid value '0' for '--top <K>'", "1..=1000"]),
    case(Sample, &["route", "--top", "many"], 2, &["invalid value 'many' for '--top <K>'"]),
    case(Sample, &["route", "--length-rule", "bogus"], 2, &["invalid value 'bogus'", "all-cards, cards-entered"]),
    // Missing files.
    case(Missing("no-such-position.json"), &["route", "{}"], 2, &["no-such-position.json: cannot read: no such file"]),
    case(Missing("no-such-content.toml"), &["check", "--content", "{}"], 2, &["no-such-content.toml: cannot read: no such file"]),
    // Content that parses but breaks the rulebook's counts.
    case(HouseEdit { name: "share-total.toml", from: "share = { company = \"red\", total = 3 }", to: "share = { company = \"red\", total = 4 }" },
         &["check", "--content", "{}"], 2, &["not a valid Express 01 content file", "card 101, field `share`", "says 4 red shares", "holds 3"]),
    case(HouseEdit { name: "missing-card.toml", from: "number = 665\n", to: "number = 666\n" },
         &["route", "--content", "{}"], 2, &["card 665: missing", "card 666: not a number of the rulebook's component list"]),
];

/// Fixtures used only by the regression tests below, or (`last-round.json`, a legal position) by
/// `tests/cli_express01_advise.rs` (every fixture must be used somewhere).
const IGNORED_FIXTURES: &[&str] = &["player-as-array.json", "position-as-array.json", "last-round.json"];

/// Runs a case and checks everything a bad-input run must do; returns the run.
fn run_case(case: &Case) -> Run {
    let dir = TempDir::new("case");
    let (path, file_name): (Option<PathBuf>, Option<&str>) = match case.input {
        Sample => (None, None),
        Fixture(name) => {
            let path = fixtures_dir().join(name);
            assert!(path.is_file(), "fixture {} is missing", path.display());
            (Some(path), Some(name))
        }
        Missing(name) => {
            let path = fixtures_dir().join(name);
            assert!(!path.exists(), "{} must not exist for this case", path.display());
            (Some(path), Some(name))
        }
        HouseEdit { name, from, to } => {
            assert!(HOUSE_TOML.contains(from), "the house set no longer contains `{from}`; update the case");
            let path = dir.path(name);
            std::fs::write(&path, HOUSE_TOML.replacen(from, to, 1)).expect("write the edited content");
            (Some(path), Some(name))
        }
    };
    assert_eq!(path.is_some(), case.args.contains(&"{}"), "{case:?}: `{{}}` in the arguments iff there is a file");
    let args: Vec<OsString> = case
        .args
        .iter()
        .map(|&a| match (&path, a) {
            (Some(p), "{}") => p.clone().into_os_string(),
            _ => a.into(),
        })
        .collect();
    let run = express01(args);
    let ctx = || format!("{}\n{}", run.what, run.dump());
    assert_eq!(run.code, Some(case.code), "wrong exit code: {}", ctx());
    assert!(!run.stderr.contains("panicked"), "panicked: {}", ctx());
    assert!(run.stderr.starts_with("error:"), "stderr should start with `error:`: {}", ctx());
    assert!(run.stdout.is_empty(), "nothing should be printed on stdout: {}", ctx());
    if let Some(name) = file_name {
        assert!(run.stderr.contains(name), "the message should name the file {name}: {}", ctx());
    }
    for word in case.expect {
        assert!(run.stderr.contains(word), "stderr should contain `{word}`: {}", ctx());
    }
    // Each position fixture breaks exactly one rule, so it is reported alone.
    if run.stderr.contains("not a legal Express 01 position:") {
        let problems = run.stderr.lines().filter(|l| l.starts_with("  - ")).count();
        assert_eq!(problems, 1, "the fixture should break exactly one rule: {}", ctx());
    }
    run
}

#[test]
fn bad_input_exits_2_with_a_message_naming_the_place_and_the_rule() {
    // Every case runs; the failures are reported together.
    let failed: Vec<String> = BAD_INPUT
        .iter()
        .enumerate()
        .filter(|(_, case)| std::panic::catch_unwind(|| run_case(case)).is_err())
        .map(|(i, case)| format!("BAD_INPUT[{i}]: {:?} {:?}", case.input, case.args))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} bad-input cases failed (messages above):\n{}",
        failed.len(),
        BAD_INPUT.len(),
        failed.join("\n")
    );
}

#[test]
fn the_table_covers_enough_fixtures_and_every_fixture_is_used() {
    let used: Vec<&str> = BAD_INPUT
        .iter()
        .filter_map(|c| match c.input {
            Fixture(name) => Some(name),
            _ => None,
        })
        .chain(IGNORED_FIXTURES.iter().copied())
        .collect();
    let mut on_disk: Vec<String> = std::fs::read_dir(fixtures_dir())
        .expect("fixtures dir")
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    assert!(on_disk.len() >= 12, "at least 12 fixtures: {on_disk:?}");
    for name in &on_disk {
        assert!(used.contains(&name.as_str()), "fixture {name} is not used by any case");
    }
}

// ---- regressions: defects found and fixed ----

#[test]
fn a_huge_time_limit_does_not_panic() {
    let run = express01(["route", "--time-limit", "1e300", "--json"]);
    assert!(!run.stderr.contains("panicked"), "{}", run.dump());
    match run.code {
        Some(0) => assert_eq!(run.json()["proven"], Value::Bool(true), "1e300 s is no limit at all"),
        Some(2) => assert!(run.stderr.contains("--time-limit"), "{}", run.dump()),
        _ => panic!("exit 0 (no effective limit) or 2 (refused) expected\n{}", run.dump()),
    }
}

#[test]
fn a_huge_shares_value_does_not_abort() {
    let bounded = express01(["route", "--shares", "100", "--json"]).succeeded().json();
    let run = express01(["route", "--shares", "4000000000", "--json"]);
    assert!(!run.stderr.contains("panicked") && !run.stderr.contains("memory allocation"), "{}", run.dump());
    match run.code {
        Some(0) => {
            assert_eq!(run.json()["payout"], bounded["payout"], "same answer as any limit above the board's size")
        }
        Some(2) => assert!(run.stderr.contains("--shares"), "{}", run.dump()),
        _ => panic!("exit 0 or 2 expected\n{}", run.dump()),
    }
}

#[test]
fn a_negative_time_limit_names_the_option() {
    run_case(&case(Sample, &["route", "--time-limit", "-1"], 2, &["--time-limit", "-1"]));
    let run = express01(["route", "--time-limit", "-1"]);
    assert!(!run.stderr.contains("'-- -1'"), "the tip leads the user astray: {}", run.stderr);
}

#[test]
fn an_svg_path_in_a_missing_directory_is_bad_input() {
    let dir = TempDir::new("svg-missing-dir");
    let path = dir.path("no-such-dir").join("route.svg");
    let run = express01([OsString::from("route"), "--svg".into(), path.into()]);
    assert_eq!(run.code, Some(2), "{}", run.dump());
    assert!(run.stderr.contains("route.svg") && run.stderr.contains("cannot write"), "{}", run.dump());
    assert!(!run.stderr.contains("panicked"), "{}", run.dump());
}

#[test]
fn json_arrays_are_not_taken_for_objects() {
    for case in [
        case(
            Fixture("player-as-array.json"),
            &["check", "{}"],
            2,
            &["player-as-array.json", "players[0]", "expected an object"],
        ),
        case(Fixture("position-as-array.json"), &["check", "{}"], 2, &["position-as-array.json", "expected an object"]),
    ] {
        let run = run_case(&case);
        assert!(!run.stderr.contains("Setup"), "the message should not name Rust types: {}", run.stderr);
    }
}

// ---- new games ----

/// `new` writes a start position that `check` finds legal; the same seed prints the same
/// position, another seed another; an existing file is not replaced and a bad map exits 2.
#[test]
fn a_new_game_is_a_legal_start_position_fixed_by_its_seed() {
    let dir = TempDir::new("new");
    let start = dir.path("start.json");
    for map in ["germany", "usa"] {
        let run = express01(["new", "--players", "4", "--seed", "9", "--map", map, "--json"]).succeeded();
        let v = run.json();
        let players = v["players"].as_array().expect("players");
        assert_eq!(players.len(), 4);
        assert!(players.iter().all(|p| p["hand"].as_array().is_some_and(|h| h.len() == 6)), "{map}: six cards each");
        let first = players.iter().find(|p| p["turn_order"] == 1).expect("turn order 1");
        assert_eq!(v["black_engine"], first["name"], "{map}: the black engine with turn order 1");
        assert_eq!(express01(["new", "--players", "4", "--seed", "9", "--map", map, "--json"]).stdout, run.stdout);
        assert_ne!(express01(["new", "--players", "4", "--seed", "10", "--map", map, "--json"]).stdout, run.stdout);
    }
    express01(["new", "--seed", "3", "--names", "Ann,Bo,Cy", "--out", start.to_str().expect("path")]).succeeded();
    let checked = express01(["check", start.to_str().expect("path")]).succeeded();
    assert!(
        checked.stdout.contains("a legal Express 01 position") && checked.stdout.contains("3 players"),
        "{}",
        checked.stdout
    );
    let again = express01(["new", "--seed", "3", "--out", start.to_str().expect("path")]);
    assert_eq!(again.code, Some(2));
    assert!(again.stderr.contains("--force"), "{}", again.stderr);
    let mars = express01(["new", "--map", "mars"]);
    assert_eq!(mars.code, Some(2));
    assert!(mars.stderr.contains("no map `mars`") && mars.stderr.contains("germany"), "{}", mars.stderr);
    let names = express01(["new", "--players", "2", "--names", "Ann,Bo,Cy"]);
    assert_eq!(names.code, Some(2), "{}", names.stderr);
}

#[test]
fn a_self_played_game_replays_and_checks_and_an_edited_one_is_refused() {
    let dir = TempDir::new("selfplay");
    let game = dir.path("game.json");
    let path = game.to_str().expect("path");
    let played = express01(["selfplay", "--players", "3", "--seed", "5", "--record", path]).succeeded();
    assert!(played.stdout.contains("game over after round") && played.stdout.contains("wins"), "{}", played.stdout);
    let replayed = express01(["replay", path]).succeeded();
    assert!(replayed.stdout.contains("every rule checked"), "{}", replayed.stdout);
    // The rounds and the result printed by both are the same lines.
    let rounds = |out: &str| {
        out.lines()
            .filter(|l| l.starts_with("round ") || l.starts_with("game over"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(rounds(&played.stdout), rounds(&replayed.stdout));
    assert!(!rounds(&played.stdout).is_empty());
    let json = express01(["replay", path, "--json"]).succeeded().json();
    assert_eq!(json["over"], true);
    assert_eq!(json["rounds"].as_array().map(Vec::len), Some(rounds(&played.stdout).len() - 1));
    let checked = express01(["check", path]).succeeded();
    assert!(checked.stdout.contains("a legal Express 01 game record"), "{}", checked.stdout);
    // Same seed, same game; the record is not overwritten without --force.
    let again = express01(["selfplay", "--players", "3", "--seed", "5", "--json"]).succeeded().json();
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&game).expect("record")).expect("json");
    assert_eq!(again["record"], written);
    let refused = express01(["selfplay", "--seed", "5", "--record", path]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    // A stated result that is not the game's is refused, naming the field.
    let mut edited = written.clone();
    let winner = edited["result"]["winners"][0].as_str().expect("a winner").to_string();
    edited["result"]["capitals"][&winner] = serde_json::json!(999);
    let bad = dir.path("edited.json");
    std::fs::write(&bad, serde_json::to_string_pretty(&edited).expect("json")).expect("write");
    let run = express01(["replay", bad.to_str().expect("path")]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("result: stated capitals"), "{}", run.stderr);
}
