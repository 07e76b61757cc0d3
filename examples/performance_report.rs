//! Writes `reports/performance.md` from the last run of the `express01_route` benchmark.
//!
//! ```text
//! cargo bench --bench express01_route
//! cargo run --release --example performance_report
//! ```
//!
//! It reads criterion's `<group>/<function>/<parameter>/new/estimates.json` (the median time
//! per run), the `answer.json` the benchmark writes next to each, and the benchmark's
//! `express01_route-run.json`, all in criterion's directory (`$CRITERION_HOME`, else
//! `$CARGO_TARGET_DIR/criterion`, else `target/criterion`). An optional argument overrides the
//! output path.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

#[path = "../benches/support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;

/// The commands that regenerate the report, as the report states them.
const COMMANDS: &str = "cargo bench --bench express01_route\ncargo bench --bench express01_game\ncargo bench --bench express01_turn\ncargo bench --bench coe_solve\ncargo bench --bench cube_express_plan\ncargo bench --bench railways_link\ncargo bench --bench railways_roll\ncargo bench --bench coe_analyse\ncargo bench --bench cube_express_analyse\ncargo bench --bench railways_analyse\ncargo test --release --test time_limit -- --ignored --nocapture\ncargo run --release --example performance_report";

/// The targets of the issue.
const GERMANY_TARGET_NS: f64 = 1e6;
const RATIO_TARGET: f64 = 100.0;

fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

/// A median time with its 95% confidence interval, in nanoseconds.
#[derive(Clone, Copy, Debug)]
struct Time {
    median: f64,
    low: f64,
    high: f64,
}

/// One benchmarked (or skipped) case of one function.
#[derive(Clone, Debug)]
struct Case {
    answer: Value,
    time: Option<Time>,
}

impl Case {
    fn skipped(&self) -> Option<&str> {
        self.answer.get("skipped").and_then(Value::as_str)
    }
    fn u64(&self, key: &str) -> Option<u64> {
        self.answer.get(key).and_then(Value::as_u64)
    }
}

/// The cases of a group, by function then parameter.
fn load_group(dir: &Path, group: &str) -> BTreeMap<String, BTreeMap<String, Case>> {
    load_functions(dir, group, &["solver", "naive"])
}

/// The cases of a group for the given functions, by function then parameter.
fn load_functions(dir: &Path, group: &str, functions: &[&str]) -> BTreeMap<String, BTreeMap<String, Case>> {
    let mut out: BTreeMap<String, BTreeMap<String, Case>> = BTreeMap::new();
    for &function in functions {
        let Ok(entries) = std::fs::read_dir(dir.join(group).join(function)) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            // A case without an answer file is still read when criterion measured it.
            let answer = match read_json(&path.join("answer.json")) {
                Some(answer) => answer,
                None if entry.file_name() != "report" && path.join("new").join("estimates.json").is_file() => {
                    Value::Null
                }
                None => continue,
            };
            let skipped = answer.get("skipped").is_some_and(|s| !s.is_null());
            let time = if skipped {
                None
            } else {
                read_json(&path.join("new").join("estimates.json")).and_then(|e| {
                    let m = e.get("median")?;
                    let ci = m.get("confidence_interval")?;
                    Some(Time {
                        median: m.get("point_estimate")?.as_f64()?,
                        low: ci.get("lower_bound")?.as_f64()?,
                        high: ci.get("upper_bound")?.as_f64()?,
                    })
                })
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            out.entry(function.to_string()).or_default().insert(name, Case { answer, time });
        }
    }
    out
}

fn fmt_time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns < 60e9 {
        format!("{:.2} s", ns / 1e9)
    } else {
        format!("{:.1} min", ns / 60e9)
    }
}

/// Median with the confidence interval's half-width in percent.
fn fmt_measured(t: &Time) -> String {
    let spread = (t.high - t.low) / 2.0 / t.median * 100.0;
    if spread < 1.0 {
        format!("{} (±{spread:.1}%)", fmt_time(t.median))
    } else {
        format!("{} (±{spread:.0}%)", fmt_time(t.median))
    }
}

fn fmt_ratio(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}×")
    } else if r >= 10.0 {
        format!("{r:.1}×")
    } else {
        format!("{r:.2}×")
    }
}

/// A civil date and time (UTC) from Unix seconds.
fn fmt_date(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60)
}

/// `cards<C>_len<L>` or `len<L>` to (cards, length).
fn parse_parameter(p: &str) -> (u64, u64) {
    let num = |s: &str| s.parse::<u64>().unwrap_or(0);
    match p.split_once("_len") {
        Some((c, l)) => (num(c.trim_start_matches("cards")), num(l)),
        None => (0, num(p.trim_start_matches("len"))),
    }
}

fn route_cell(case: &Case) -> String {
    match (case.u64("payout"), case.u64("cards"), case.u64("route_stations")) {
        (Some(p), Some(c), Some(s)) => format!("{p} paid, {c} cards, {s} stations"),
        _ => "no legal route".to_string(),
    }
}

fn search_nodes(case: &Case) -> String {
    case.answer
        .pointer("/extra/search_nodes")
        .and_then(Value::as_u64)
        .map_or_else(|| "–".to_string(), |n| n.to_string())
}

struct Row {
    cards: u64,
    length: u64,
    solver: Option<Case>,
    naive: Option<Case>,
}

impl Row {
    fn solver_ns(&self) -> Option<f64> {
        self.solver.as_ref()?.time.map(|t| t.median)
    }
    fn naive_ns(&self) -> Option<f64> {
        self.naive.as_ref()?.time.map(|t| t.median)
    }
    fn ratio(&self) -> Option<f64> {
        Some(self.naive_ns()? / self.solver_ns()?)
    }
    /// Where the naive enumerator was tried and stopped: the least the ratio can be.
    fn ratio_at_least(&self) -> Option<f64> {
        let secs = self.naive.as_ref()?.answer.get("at_least_seconds")?.as_f64()?;
        Some(secs * 1e9 / self.solver_ns()?)
    }
    fn ratio_cell(&self) -> String {
        match (self.ratio(), self.ratio_at_least()) {
            (Some(r), _) => fmt_ratio(r),
            (None, Some(r)) => format!("> {}", fmt_ratio(r)),
            (None, None) => "–".into(),
        }
    }
}

fn rows(group: &BTreeMap<String, BTreeMap<String, Case>>) -> Vec<Row> {
    let mut params: Vec<&String> = group.values().flat_map(|m| m.keys()).collect();
    params.sort();
    params.dedup();
    let mut rows: Vec<Row> = params
        .into_iter()
        .map(|p| {
            let (cards, length) = parse_parameter(p);
            Row {
                cards,
                length,
                solver: group.get("solver").and_then(|m| m.get(p)).cloned(),
                naive: group.get("naive").and_then(|m| m.get(p)).cloned(),
            }
        })
        .collect();
    rows.sort_by_key(|r| (r.cards, r.length));
    rows
}

fn time_cell(case: Option<&Case>) -> String {
    match case {
        None => "not measured".to_string(),
        Some(c) => match (c.skipped(), &c.time) {
            (Some(_), _) => match c.answer.get("at_least_seconds").and_then(Value::as_f64) {
                Some(secs) => format!("not run: > {} (see below)", fmt_time(secs * 1e9)),
                None => "not run (see below)".to_string(),
            },
            (None, Some(t)) => fmt_measured(t),
            (None, None) => "no estimate".to_string(),
        },
    }
}

fn exponent(t1: f64, t2: f64, x1: f64, x2: f64) -> f64 {
    (t2 / t1).ln() / (x2 / x1).ln()
}

/// A table of how time grows: one row per `rows` value, a solver and a naive column per pair of
/// neighbouring `across` values, each cell `stat(time before, time after, value before, value
/// after)`, or a dash where a time is missing.
fn growth_table<'r>(
    w: &mut String,
    label: &str,
    rows: &[u64],
    across: &[u64],
    find: impl Fn(u64, u64) -> Option<&'r Row>,
    stat: impl Fn(f64, f64, u64, u64) -> String,
) {
    let mut header = format!("| {label} |");
    let mut rule = String::from("|---:|");
    for pair in across.windows(2) {
        let _ = write!(header, " solver {}→{} | naive {}→{} |", pair[0], pair[1], pair[0], pair[1]);
        rule.push_str("---:|---:|");
    }
    let _ = writeln!(w, "{header}\n{rule}");
    for &r in rows {
        let mut line = format!("| {r} |");
        for pair in across.windows(2) {
            let (a, b) = (find(r, pair[0]), find(r, pair[1]));
            let cell = |f: fn(&Row) -> Option<f64>| match (a.and_then(f), b.and_then(f)) {
                (Some(t1), Some(t2)) => stat(t1, t2, pair[0], pair[1]),
                _ => "–".into(),
            };
            let _ = write!(line, " {} | {} |", cell(Row::solver_ns), cell(Row::naive_ns));
        }
        let _ = writeln!(w, "{line}");
    }
}

fn find(rows: &[Row], cards: u64, length: u64) -> Option<&Row> {
    rows.iter().find(|r| r.cards == cards && r.length == length)
}

fn main() {
    let dir = criterion_dir();
    let out_path = std::env::args().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("reports").join("performance.md"),
        PathBuf::from,
    );
    let run = read_json(&dir.join("express01_route-run.json"));
    let germany = rows(&load_group(&dir, "germany"));
    let synthetic = rows(&load_group(&dir, "synthetic"));
    if germany.is_empty() && synthetic.is_empty() {
        eprintln!("no results under {}: run `cargo bench --bench express01_route` first", dir.display());
        std::process::exit(1);
    }
    let mut md = String::new();
    let w = &mut md;
    let _ = writeln!(w, "# Performance\n");
    let _ = writeln!(w, "Generated from the last benchmark run; regenerate with (from the workspace root):\n");
    let _ = writeln!(w, "```sh\n{COMMANDS}\n```\n");
    let _ = writeln!(
        w,
        "The `cargo bench` commands run the benchmarks of the same names under `benches/` (criterion); the last, \
         `examples/performance_report.rs`, reads their results under `target/criterion/` and writes this file \
         (a section whose benchmark has not run says so). Do not edit it by hand. The run details below are the Express 01 benchmark's."
    );
    let _ = writeln!(w);
    if let Some(run) = &run {
        let at = run.get("started_at").and_then(Value::as_u64).map_or_else(|| "?".into(), fmt_date);
        let secs = run.get("seconds").and_then(Value::as_f64).unwrap_or(0.0);
        let threads = run.get("threads").and_then(Value::as_u64).unwrap_or(0);
        let lb = run.get("load_average_before").and_then(Value::as_str).unwrap_or("?");
        let la = run.get("load_average_after").and_then(Value::as_str).unwrap_or("?");
        let args: Vec<&str> = run
            .get("args")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let filtered = args.iter().any(|a| !a.starts_with('-'));
        let commit = run.get("commit").and_then(Value::as_str).unwrap_or("");
        let changed: Vec<&str> = run
            .get("changed_sources")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let source = match (commit.is_empty(), changed.is_empty()) {
            (true, _) => String::new(),
            (false, true) => format!(" Sources: commit `{commit}`, engine and solver unmodified."),
            (false, false) => format!(
                " Sources: commit `{commit}` with uncommitted changes to {} (work in progress at the time).",
                changed.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
            ),
        };
        let _ = writeln!(
            w,
            "Run of {at}: {threads} hardware threads (the solver uses rayon's default, one thread each, on \
             networks of 48 stations or more, and one thread on smaller ones; the naive enumerator is \
             single-threaded), the benchmark binary took {:.1} minutes (probes, warm-up and \
             measurement){}. Load average (1, 5, 15 min) {lb} before, {la} after: other work on the machine \
             shows up as noise.{source}",
            secs / 60.0,
            if filtered {
                format!(", run with filter `{}`, so some rows may come from an earlier run", args.join(" "))
            } else {
                String::new()
            }
        );
        let _ = writeln!(w);
    }
    let _ = writeln!(
        w,
        "Times are criterion's median per run with the half-width of its 95% confidence interval. Every timed \
         run's answer is compared with a reference answer outside the timed region; the reference route's \
         certificate is checked by the engine; where both run, the solver and the naive enumerator give the \
         same payout, cards and station sequence (the benchmark fails otherwise). *Ratio* is naive time / \
         solver time: above 1 the solver is faster. *Search nodes* are the solver's node count in one untimed \
         run: a measure of its work that does not depend on the machine (it varies a little from run to run, as \
         the threads share the best payout found).\n"
    );

    // ---- Germany ----
    let _ = writeln!(w, "## Express 01 route search\n");
    let _ = writeln!(w, "### Germany board, densely built\n");
    if let Some(info) = germany.iter().find_map(|r| r.solver.as_ref()) {
        let b = &info.answer["board"];
        let _ = writeln!(
            w,
            "`house_position(&Catalogue::house(), \"germany\", {}, {})`: {} cards, {} stations; company `{}` \
             (the position's pending bonus payment).\n",
            b["density"],
            b["seed"],
            info.u64("cells").unwrap_or(0),
            info.u64("stations").unwrap_or(0),
            b["company"].as_str().unwrap_or("?")
        );
    }
    let _ = writeln!(w, "| length | best route | search nodes | solver | naive | ratio |");
    let _ = writeln!(w, "|---:|---|---:|---:|---:|---:|");
    for r in &germany {
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} |",
            r.length,
            r.solver.as_ref().map_or_else(String::new, route_cell),
            r.solver.as_ref().map_or_else(String::new, search_nodes),
            time_cell(r.solver.as_ref()),
            time_cell(r.naive.as_ref()),
            r.ratio_cell()
        );
    }
    let _ = writeln!(w);

    // ---- Synthetic ----
    let _ = writeln!(w, "### Synthetic networks\n");
    if let Some(info) = synthetic.iter().find_map(|r| r.solver.as_ref()) {
        let b = &info.answer["board"];
        let _ = writeln!(
            w,
            "`synthetic(Synthetic {{ borders: 0.75, tracks: 2, stations: 0.3, ..Synthetic::new(cards) }}, {})`: \
             a brick layout ⌈√cards⌉ cards wide, a rail across three borders in four, up to two extra tracks a \
             card, a station on three cards in ten, three companies; the route is for company `c1`.\n",
            b["seed"]
        );
    }
    let _ = writeln!(w, "| cards | stations | length | best route | search nodes | solver | naive | ratio |");
    let _ = writeln!(w, "|---:|---:|---:|---|---:|---:|---:|---:|");
    for r in &synthetic {
        let stations = r.solver.as_ref().and_then(|c| c.u64("stations")).map_or_else(String::new, |s| s.to_string());
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            r.cards,
            stations,
            r.length,
            r.solver.as_ref().map_or_else(String::new, route_cell),
            r.solver.as_ref().map_or_else(String::new, search_nodes),
            time_cell(r.solver.as_ref()),
            time_cell(r.naive.as_ref()),
            r.ratio_cell()
        );
    }
    let _ = writeln!(w);
    let skips: Vec<&Row> =
        synthetic.iter().filter(|r| r.naive.as_ref().is_some_and(|c| c.skipped().is_some())).collect();
    if !skips.is_empty() {
        let _ =
            writeln!(w, "**Where the naive enumerator stops.** It is run only where one run takes under about 2 s:\n");
        for r in skips {
            let reason = r.naive.as_ref().and_then(Case::skipped).unwrap_or("");
            let _ = writeln!(w, "- {} cards, length {}: not run; {}.", r.cards, r.length, reason);
        }
        let slowest = synthetic.iter().filter_map(|r| Some((r.naive_ns()?, r))).max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((ns, r)) = slowest {
            let _ = writeln!(
                w,
                "\nThe slowest case it does run is {} cards at length {}: {} a run.",
                r.cards,
                r.length,
                fmt_time(ns)
            );
        }
        let _ = writeln!(w);
    }

    // ---- Growth ----
    let _ = writeln!(w, "## How time grows\n");
    let mut cards: Vec<u64> = synthetic.iter().map(|r| r.cards).collect();
    cards.dedup();
    let mut lengths: Vec<u64> = synthetic.iter().map(|r| r.length).collect();
    lengths.sort_unstable();
    lengths.dedup();
    let _ = writeln!(
        w,
        "With the number of cards, at a fixed length: the exponent *k* in time ∝ cards^k between \
         neighbouring sizes (1 is linear).\n"
    );
    // Cards across, one row per length: the exponent between neighbouring sizes.
    growth_table(
        w,
        "length",
        &lengths,
        &cards,
        |l, c| find(&synthetic, c, l),
        |t1, t2, c1, c2| format!("{:.2}", exponent(t1, t2, c1 as f64, c2 as f64)),
    );
    let _ = writeln!(w, "\nWith the length, at a fixed size: the factor from one length to the next.\n");
    // Lengths across, one row per size: the factor from one length to the next.
    growth_table(w, "cards", &cards, &lengths, |c, l| find(&synthetic, c, l), |t1, t2, _, _| fmt_ratio(t2 / t1));
    let _ = writeln!(w);
    // A sentence on each, from the numbers.
    let short = lengths.first().copied().unwrap_or(0);
    let long = lengths.last().copied().unwrap_or(0);
    let span = |l: u64| -> Option<f64> {
        let (a, b) = (find(&synthetic, *cards.first()?, l)?, find(&synthetic, *cards.last()?, l)?);
        Some(exponent(a.solver_ns()?, b.solver_ns()?, a.cards as f64, b.cards as f64))
    };
    if let (Some(ks), Some(kl)) = (span(short), span(long)) {
        let _ = writeln!(
            w,
            "**With size.** Over {}→{} cards (stations grow in proportion) the solver's time grows like \
             cards^{ks:.2} at length {short} and cards^{kl:.2} at length {long}{}",
            cards.first().unwrap_or(&0),
            cards.last().unwrap_or(&0),
            if kl > ks + 0.3 {
                ": the longer the route, the steeper the growth with size."
            } else {
                ", about the same at every length."
            }
        );
    }
    let per_len = |c: u64| -> Option<f64> {
        let (a, b) = (find(&synthetic, c, short)?, find(&synthetic, c, long)?);
        Some((b.solver_ns()? / a.solver_ns()?).powf(10.0 / (long - short) as f64))
    };
    let factors: Vec<String> =
        cards.iter().filter_map(|&c| Some(format!("×{:.1} at {c} cards", per_len(c)?))).collect();
    if !factors.is_empty() {
        let _ = writeln!(
            w,
            "\n**With length.** Each 10 more cards of length multiply the solver's time by (geometric mean over \
             lengths {short}→{long}) {}{}",
            factors.join(", "),
            if cards.windows(2).all(|p| per_len(p[0]).zip(per_len(p[1])).is_some_and(|(a, b)| b > a)) {
                ": the bigger the board, the faster the time grows with length."
            } else {
                "."
            }
        );
    }
    if lengths.len() > 1 {
        let naive_factors: Vec<String> = cards
            .iter()
            .filter_map(|&c| {
                let (a, b) = (find(&synthetic, c, lengths[0])?, find(&synthetic, c, lengths[1])?);
                let (n, s) = (b.naive_ns()? / a.naive_ns()?, b.solver_ns()? / a.solver_ns()?);
                Some(format!(
                    "{c} cards ×{} (solver ×{})",
                    fmt_ratio(n).trim_end_matches('×'),
                    fmt_ratio(s).trim_end_matches('×')
                ))
            })
            .collect();
        if !naive_factors.is_empty() {
            let _ = writeln!(
                w,
                "\nThe naive enumerator grows much faster: from length {} to {}, {}.",
                lengths[0],
                lengths[1],
                naive_factors.join(", ")
            );
        }
    }
    let _ = writeln!(w);

    // ---- Targets ----
    let _ = writeln!(w, "## Targets\n");
    let g_worst = germany.iter().filter_map(|r| Some((r.solver_ns()?, r.length))).max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((ns, l)) = g_worst {
        let met = ns < GERMANY_TARGET_NS;
        let _ = writeln!(
            w,
            "- **Germany board well under a millisecond: {}.** The slowest length ({l}) takes {} per solve \
             ({:.0}% of 1 ms).",
            if met { "met" } else { "MISSED" },
            fmt_time(ns),
            ns / GERMANY_TARGET_NS * 100.0
        );
        let ratios: Vec<f64> = germany.iter().filter_map(Row::ratio).collect();
        if let (Some(lo), Some(hi)) = (ratios.iter().copied().reduce(f64::min), ratios.iter().copied().reduce(f64::max))
        {
            let _ = writeln!(
                w,
                "  Against the naive enumerator on this board the ratio is {} to {}{}",
                fmt_ratio(lo),
                fmt_ratio(hi),
                if hi < 1.0 {
                    ": the naive enumerator is faster at every length. The board is small and sparse, so \
                     enumerating every walk is cheap, and the solver's fixed cost per call (setting up its \
                     station graph, distances and bound tables) outweighs its search, which visits only \
                     the few search nodes shown above."
                } else if lo < 1.0 {
                    ": at some lengths the naive enumerator is faster (the solver's fixed cost per call \
                     outweighs its search on this small board)."
                } else {
                    "."
                }
            );
        }
    }
    if let Some(r) = find(&synthetic, 200, 20) {
        match (r.solver_ns(), r.naive_ns(), r.ratio()) {
            (Some(s), Some(n), Some(ratio)) => {
                let _ = writeln!(
                    w,
                    "- **At least {RATIO_TARGET:.0}× faster than the naive enumerator at 200 cards, length 20: {}.** \
                     Solver {}, naive {}: {}.",
                    if ratio >= RATIO_TARGET { "met" } else { "MISSED" },
                    fmt_time(s),
                    fmt_time(n),
                    fmt_ratio(ratio)
                );
            }
            _ => {
                let _ = writeln!(w, "- 200 cards, length 20: not measured in this run.");
            }
        }
    }
    let best = synthetic.iter().filter_map(|r| Some((r.ratio()?, r))).max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((ratio, r)) = best {
        let _ = writeln!(
            w,
            "- The largest measured ratio is {} ({} cards, length {}).",
            fmt_ratio(ratio),
            r.cards,
            r.length
        );
    }
    for r in synthetic.iter().filter(|r| r.ratio().is_none()) {
        if let Some(at_least) = r.ratio_at_least() {
            let _ = writeln!(
                w,
                "- At {} cards, length {}, the naive enumerator did not finish in the time it was given, so the \
                 solver is at least {} faster there.",
                r.cards,
                r.length,
                fmt_ratio(at_least)
            );
        }
    }
    let slower: Vec<String> = synthetic
        .iter()
        .filter(|r| r.ratio().is_some_and(|x| x < 1.0))
        .map(|r| format!("{} cards at length {} ({})", r.cards, r.length, fmt_ratio(r.ratio().unwrap_or(0.0))))
        .collect();
    if !slower.is_empty() {
        let _ = writeln!(
            w,
            "- On the synthetic networks the naive enumerator is faster than the solver at {}: with short \
             routes there are few walks to enumerate.",
            slower.join(", ")
        );
    }
    let _ = writeln!(
        w,
        "\nOne seed per board: other seeds of the same preset give other times (the search's work depends on \
         where the stations fall), so a single row is an example, not an average."
    );

    express01_game_section(w, &dir);
    express01_turn_section(w, &dir);
    coe_section(w, &dir);
    cube_express_section(w, &dir);
    railways_section(w, &dir);
    railways_roll_section(w, &dir);
    analysis_section(w, &dir);
    time_limit_section(w);

    if let Some(dir) = out_path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match std::fs::write(&out_path, md) {
        Ok(()) => println!("wrote {}", out_path.display()),
        Err(e) => {
            eprintln!("could not write {}: {e}", out_path.display());
            std::process::exit(1);
        }
    }
}

/// The Express 01 best-turn section, from the `express01_turn` benchmark (`benches/express01_turn.rs`).
fn express01_turn_section(w: &mut String, dir: &Path) {
    let cases = load_functions(dir, "express01_turn", &["search", "naive", "growth"]);
    let _ = writeln!(w, "\n## Express 01 best turn\n");
    if cases.is_empty() {
        let _ = writeln!(w, "No results: run `cargo bench --bench express01_turn` first.");
        return;
    }
    let empty = BTreeMap::new();
    let search = cases.get("search").and_then(|m| m.get("small")).and_then(|c| c.time);
    let naive = cases.get("naive").and_then(|m| m.get("small")).and_then(|c| c.time);
    let positions = cases.get("search").and_then(|m| m.get("small")).and_then(|c| c.u64("positions")).unwrap_or(0);
    let _ = writeln!(
        w,
        "From `benches/express01_turn.rs`, on one thread. The exact best turn (`turn::best_turns`, rulings A1-A10) \
         against the naive reference `turn::naive_best` (every legal step of the engine, states told apart only as \
         equal games, nothing cut) on {positions} small positions of the agreement test's kind (hands of at most \
         one card), in the same run; before timing both must give the same value at every position. \
         Criterion's median for all positions.\n"
    );
    let _ = writeln!(w, "| positions | search | naive | ratio |");
    let _ = writeln!(w, "|---:|---:|---:|---:|");
    let t = |x: Option<Time>| x.map_or_else(|| "–".into(), |t| fmt_time(t.median));
    let ratio = match (search, naive) {
        (Some(a), Some(b)) => fmt_ratio(b.median / a.median),
        _ => "–".into(),
    };
    let _ = writeln!(w, "| {positions} | {} | {} | {ratio} |", t(search), t(naive));
    let growth = cases.get("growth").unwrap_or(&empty);
    if !growth.is_empty() {
        let _ = writeln!(
            w,
            "\n### How time grows with the cards in hand\n\nMid-game positions of greedy self-played 3-player short \
             games on both maps (hands of 8 to 12 cards), every hand cut to the size given, each searched once on one \
             thread with a deadline; the naive reference cannot finish these.\n"
        );
        let _ = writeln!(w, "| cards in hand | positions | proven within the deadline | median time | deadline |");
        let _ = writeln!(w, "|---|---:|---:|---:|---:|");
        let mut rows: Vec<&Case> = growth.values().collect();
        rows.sort_by_key(|c| {
            c.answer.get("hand").and_then(Value::as_str).map_or(99, |h| h.parse::<u32>().unwrap_or(98))
        });
        let mut whole_median = None;
        for c in rows {
            let hand = c.answer.get("hand").and_then(Value::as_str).unwrap_or("?");
            let median = c.answer.get("median_seconds").and_then(Value::as_f64).unwrap_or(0.0);
            if hand == "whole" {
                whole_median = Some(median);
            }
            let _ = writeln!(
                w,
                "| {hand} | {} | {} | {} | {} s |",
                c.u64("positions").unwrap_or(0),
                c.u64("proven").unwrap_or(0),
                fmt_time(median * 1e9),
                c.answer.get("limit_seconds").and_then(Value::as_f64).unwrap_or(0.0)
            );
        }
        if let Some(m) = whole_median {
            let verdict = if m < 1.0 { "met" } else { "missed" };
            let _ = writeln!(
                w,
                "\n**Target: the best turn of a mid-game position in under 1 s (median): {verdict}** ({}).",
                fmt_time(m * 1e9)
            );
        }
    }
}

/// The Express 01 whole-game section, from the `express01_game` benchmark (`benches/express01_game.rs`).
fn express01_game_section(w: &mut String, dir: &Path) {
    let selfplay = load_functions(dir, "express01_selfplay", &["random"]);
    let legal = load_functions(dir, "express01_legal", &["legal", "naive"]);
    let _ = writeln!(w, "\n## Express 01 game\n");
    if selfplay.is_empty() && legal.is_empty() {
        let _ = writeln!(w, "No results: run `cargo bench --bench express01_game` first.");
        return;
    }
    let _ = writeln!(
        w,
        "From `benches/express01_game.rs`, on one thread (the route search's rayon pool has one): whole short \
         3-player games self-played with the random policy (seeds 1 to 5 per run; before timing each must end by \
         the rules, be sound and replay from its record with every rule checked to the same end, and every timed \
         run must end the same games), and the legal steps of a fixed sample of positions of the seed-1 game (up \
         to 3 positions of each part of a turn, and as many again where a card may be built or taken from \
         just under a deck's face-up boundary), `Game::legal` against the naive reference \
         `naive_game::naive_legal` (every step written out, checked, told apart by the game it leads to) in the \
         same run; before timing both must reach the same games at every position. Criterion's median.\n"
    );
    let empty = BTreeMap::new();
    let _ = writeln!(w, "### Self-play speed\n");
    let _ =
        writeln!(w, "| map | games a run | steps in all | rounds in all | time a game | games per second (one core) |");
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|");
    let mut slowest: Option<f64> = None;
    for (map, c) in selfplay.get("random").unwrap_or(&empty) {
        let games = c.u64("games").unwrap_or(0).max(1) as f64;
        let (per_game, rate) = match c.time {
            Some(t) => {
                let rate = games * 1e9 / t.median;
                slowest = Some(slowest.map_or(rate, |s: f64| s.min(rate)));
                (fmt_time(t.median / games), format!("{rate:.0}"))
            }
            None => ("–".into(), "–".into()),
        };
        let _ = writeln!(
            w,
            "| {map} | {games} | {} | {} | {per_game} | {rate} |",
            c.u64("steps").unwrap_or(0),
            c.u64("rounds").unwrap_or(0)
        );
    }
    if let Some(rate) = slowest {
        let verdict = if rate >= 100.0 { "met" } else { "missed" };
        let _ = writeln!(
            w,
            "\n**Target: at least 100 short 3-player games a second on one core (random policy): {verdict}** \
             (the slower map: {rate:.0} a second)."
        );
    }
    let loads: Vec<String> = selfplay
        .get("random")
        .unwrap_or(&empty)
        .iter()
        .filter_map(|(map, c)| c.answer.get("load_average").and_then(Value::as_str).map(|l| format!("{l} ({map})")))
        .collect();
    if !loads.is_empty() {
        let _ = writeln!(
            w,
            "\nThe machine's two cores are shared with other work: load average (1, 5, 15 min) before each map's \
             games {}. Above 2, the one thread measured shared its core, and the rates are lower than on an idle \
             machine.",
            loads.join(", ")
        );
    }
    let _ = writeln!(w, "\n### Legal steps: the engine against the naive reference\n");
    let _ = writeln!(w, "| map | positions | legal steps a position | `legal` a position | naive a position | ratio |");
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|");
    for (map, c) in legal.get("legal").unwrap_or(&empty) {
        let positions = c.u64("positions").unwrap_or(0).max(1) as f64;
        let steps = c.u64("legal_steps").unwrap_or(0) as f64 / positions;
        let naive = legal.get("naive").and_then(|m| m.get(map)).and_then(|n| n.time);
        let each = |t: Option<Time>| t.map_or_else(|| "–".into(), |t| fmt_time(t.median / positions));
        let ratio = match (c.time, naive) {
            (Some(f), Some(s)) => fmt_ratio(s.median / f.median),
            _ => "–".into(),
        };
        let _ = writeln!(w, "| {map} | {positions} | {steps:.1} | {} | {} | {ratio} |", each(c.time), each(naive));
    }
}

/// The Cubes of Europe section, from the `coe_solve` benchmark (`benches/coe_solve.rs`).
fn coe_section(w: &mut String, dir: &Path) {
    let short = load_group(dir, "coe_short");
    let full = load_group(dir, "coe_full");
    let _ = writeln!(w, "\n## The Cubes of Europe: the best score of a seed\n");
    if short.is_empty() && full.is_empty() {
        let _ = writeln!(w, "No results: run `cargo bench --bench coe_solve` first.");
        return;
    }
    let _ = writeln!(
        w,
        "From `benches/coe_solve.rs`, in the same run: each timed run solves every seed of a fixed set in turn. \
         Before timing, the solver's scores are checked against the naive search's (where both run) and every \
         solver line is replayed and re-scored by the engine. Times are criterion's median per run.\n"
    );
    let _ = writeln!(w, "### Shortened games: solver against the naive search (one thread each)\n");
    let _ = writeln!(w, "| game | seeds | solver | naive | ratio |");
    let _ = writeln!(w, "|---|---|---:|---:|---:|");
    for turns in [2, 3] {
        let p = format!("turns{turns}");
        let solver = short.get("solver").and_then(|m| m.get(&p));
        let naive = short.get("naive").and_then(|m| m.get(&p));
        let seeds = solver.and_then(|c| c.answer.get("seeds")).and_then(Value::as_array).map_or(0, Vec::len);
        let ratio = match (solver.and_then(|c| c.time), naive.and_then(|c| c.time)) {
            (Some(s), Some(n)) => fmt_ratio(n.median / s.median),
            _ => "–".into(),
        };
        let _ = writeln!(w, "| {turns} turns | {seeds} | {} | {} | {ratio} |", time_cell(solver), time_cell(naive));
    }
    let _ = writeln!(w, "\n### Whole games: one thread against two\n");
    let one = full.get("solver").and_then(|m| m.get("threads1"));
    let two = full.get("solver").and_then(|m| m.get("threads2"));
    let seeds: Vec<String> = one
        .and_then(|c| c.answer.get("seeds"))
        .and_then(Value::as_array)
        .map(|a| a.iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    let scores: Vec<String> = one
        .and_then(|c| c.answer.get("scores"))
        .and_then(Value::as_array)
        .map(|a| a.iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    let _ =
        writeln!(w, "Seeds {} (proven maxima {}), solved one after the other.\n", seeds.join(", "), scores.join(", "));
    let _ = writeln!(w, "| threads | time for the set | per seed | speed-up |");
    let _ = writeln!(w, "|---:|---:|---:|---:|");
    let n = seeds.len().max(1) as f64;
    for (t, case) in [(1, one), (2, two)] {
        let per = case.and_then(|c| c.time).map_or_else(|| "–".into(), |t| fmt_time(t.median / n));
        let speed = match (one.and_then(|c| c.time), case.and_then(|c| c.time)) {
            (Some(a), Some(b)) => fmt_ratio(a.median / b.median),
            _ => "–".into(),
        };
        let _ = writeln!(w, "| {t} | {} | {per} | {speed} |", time_cell(case));
    }
    if let (Some(a), Some(b)) = (one.and_then(|c| c.time), two.and_then(|c| c.time)) {
        let r = a.median / b.median;
        let _ = writeln!(
            w,
            "\nTarget: two threads at least 1.8 times as fast as one: **{}** ({}).",
            if r >= 1.8 { "met" } else { "missed" },
            fmt_ratio(r)
        );
    }
    let _ = writeln!(
        w,
        "\nOn two-turn games the naive search is quicker: the solver's beam search (512 positions a turn) and \
         bound cost more than so small a tree. The distribution over many seeds (median, 99th percentile and \
         longest solve, against the targets of 1 s and 30 s) is in `reports/cubes-of-europe-seeds.md`, from \
         `signalbox coe batch`."
    );
}

/// The Cube Express section, from the `cube_express_plan` benchmark (`benches/cube_express_plan.rs`).
fn cube_express_section(w: &mut String, dir: &Path) {
    let group = load_functions(dir, "ce_plan", &["search", "program", "enumerator", "program-cbc"]);
    let _ = writeln!(w, "\n## Cube Express: the best turn\n");
    let Some(search) = group.get("search") else {
        let _ = writeln!(w, "No results: run `cargo bench --bench cube_express_plan` first.");
        return;
    };
    let _ = writeln!(
        w,
        "From `benches/cube_express_plan.rs`, in the same run: the whole turn planned by the exact search \
         (`plan_turn`, the default method: every lay and payment, every legal order of the rest of the turn, \
         positions memoised; two threads) against two baselines: the integer programs (`--method program`: one \
         program per distinct lay, microlp, two threads) and the brute-force enumerator of every plan in the older \
         canonical order (one thread). Before timing, the program and the enumerator are checked equal, the search \
         at least as high (it also finds plans outside that order), and every plan is replayed by the engine. A \
         case is a position: players, seed, turns of random play. Times are criterion's median.\n"
    );
    let _ = writeln!(
        w,
        "| position | plans | lays | value | search | program (microlp) | enumerator | search vs program | search vs enumerator |"
    );
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let program = group.get("program");
    let enumerator = group.get("enumerator");
    let mut cases: Vec<(&String, &Case)> = search.iter().collect();
    let plans = |id: &str| program.and_then(|m| m.get(id)).and_then(|c| c.u64("plans")).unwrap_or(0);
    cases.sort_by_key(|(id, _)| plans(id));
    let mut big = Vec::new();
    let ratio = |base: Option<&Case>, case: &Case| match (case.time, base.and_then(|c| c.time)) {
        (Some(s), Some(b)) => Some(b.median / s.median),
        _ => None,
    };
    for (id, case) in cases {
        let p = program.and_then(|m| m.get(id));
        let e = enumerator.and_then(|m| m.get(id));
        let vs_program = ratio(p, case);
        let vs_enumerator = ratio(e, case);
        if plans(id) >= 100_000
            && let Some(r) = vs_enumerator
        {
            big.push(r);
        }
        let cell = |r: Option<f64>| r.map_or_else(|| "–".into(), fmt_ratio);
        let _ = writeln!(
            w,
            "| {id} | {} | {} | {} | {} | {} | {} | {} | {} |",
            plans(id),
            case.u64("lays").map_or_else(|| "–".into(), |v| v.to_string()),
            case.u64("value").map_or_else(|| "–".into(), |v| v.to_string()),
            time_cell(Some(case)),
            time_cell(p),
            time_cell(e),
            cell(vs_program),
            cell(vs_enumerator)
        );
    }
    let met = !big.is_empty() && big.iter().all(|&r| r >= 10.0);
    let _ = writeln!(
        w,
        "\nTarget: at least 10 times faster than the enumerator once positions have 100,000 plans or more: **{}**{}.",
        if met { "met" } else { "missed" },
        if big.is_empty() {
            " (no such case measured)".to_string()
        } else {
            format!(" (ratios {})", big.iter().map(|&r| fmt_ratio(r)).collect::<Vec<_>>().join(", "))
        }
    );
    let full = load_functions(dir, "ce_full", &["search", "program"]);
    if let Some(cases) = full.get("search") {
        for (id, case) in cases {
            let t = case.time.map(|t| t.median);
            let p = full.get("program").and_then(|m| m.get(id));
            let _ = writeln!(
                w,
                "\nFull board ({id}: {} tiles, value {}): the search {}, the programs {}. Target: a full-board turn plan \
                 under 1 s: **{}**.",
                case.u64("tiles").unwrap_or(0),
                case.u64("value").unwrap_or(0),
                time_cell(Some(case)),
                time_cell(p),
                if t.is_some_and(|t| t < 1e9) { "met" } else { "missed" }
            );
        }
    }
    let mid = load_functions(dir, "ce_mid", &["search"]);
    if let Some(cases) = mid.get("search") {
        let _ = writeln!(
            w,
            "\n### Mid-game positions\n\nThe search alone on the first 12 positions of 2 to 4 players, seeds from 1, \
             `10 + 7 × seed mod 21` random turns in, with 15 to 25 tiles and the player to move at technology level 4 or \
             5 (`mid_game` in the bench), and on the regression position whose programs made microlp fail.\n"
        );
        let _ = writeln!(w, "| position | tiles | level | value | positions searched | search |");
        let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|");
        let mut times = Vec::new();
        let mut regression = None;
        for (id, case) in cases {
            let n = |k: &str| case.u64(k).map_or_else(|| "–".into(), |v| v.to_string());
            let _ = writeln!(
                w,
                "| {id} | {} | {} | {} | {} | {} |",
                n("tiles"),
                n("tech"),
                n("value"),
                n("positions"),
                time_cell(Some(case))
            );
            match (id.starts_with("regression"), case.time) {
                (true, Some(t)) => regression = Some(t.median),
                (false, Some(t)) => times.push(t.median),
                _ => {}
            }
        }
        times.sort_by(f64::total_cmp);
        if !times.is_empty() {
            let median = times[times.len() / 2];
            let max = times[times.len() - 1];
            let _ = writeln!(
                w,
                "\nTargets on mid-game positions, two cores: median under 100 ms: **{}** ({}); none over 1 s: **{}** \
                 (longest {}).",
                if median < 1e8 { "met" } else { "missed" },
                fmt_time(median),
                if max < 1e9 { "met" } else { "missed" },
                fmt_time(max)
            );
        }
        if let Some(t) = regression {
            let _ = writeln!(
                w,
                "The regression position `backend-failure.json` within 1 s: **{}** ({}).",
                if t < 1e9 { "met" } else { "missed" },
                fmt_time(t)
            );
        }
    }
    cube_express_bound_section(w, dir);
    let _ = writeln!(
        w,
        "\n`cube-express solo --seed 1`, timed by hand on this machine's two cores: `--turns 3` proven (25) in \
         about 61 s and 270 MB (target under 10 s: **missed**); `--turns 5` stops at its memory budget (256 MB by \
         default, `--memory`) in the third turn after about 7 s with the best line found, labelled not proven, and \
         no bound (target proven under 60 s: **missed**). Every position the turns before the last can reach is kept \
         once, by the engine's key with the points set aside; the last turn is the best-turn search with its bound; \
         a bound across turns is not built yet."
    );
}

/// The Railways Express section, from the `railways_link` benchmark (`benches/railways_link.rs`).
fn railways_section(w: &mut String, dir: &Path) {
    let group = load_functions(dir, "rx_link", &["linker", "brute"]);
    let _ = writeln!(w, "\n## Railways Express: the fewest tiles to link a player's cities\n");
    let Some(linker) = group.get("linker") else {
        let _ = writeln!(w, "No results: run `cargo bench --bench railways_link` first.");
        return;
    };
    let _ = writeln!(
        w,
        "From `benches/railways_link.rs`, in the same run: the exact linker (`min_link`: every tree over the \
         network and the cities to link, each edge a shortest path in the port graph, conflicts resolved by \
         conflict-based search) against the naive brute force (`reference::brute_force`: every set of tiles blue \
         can build, smallest first, each tile checked by the engine) on small random maps whose answers the brute \
         force reaches. Before timing, both answers are checked equal. Times are criterion's median.\n"
    );
    let _ = writeln!(w, "| small map | hexes | fewest tiles | linker | brute force | ratio |");
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|");
    let mut cases: Vec<(&String, &Case)> = linker.iter().collect();
    cases.sort_by_key(|(_, c)| c.u64("tiles").unwrap_or(0));
    for (id, case) in cases {
        let b = group.get("brute").and_then(|m| m.get(id));
        let ratio = match (case.time, b.and_then(|c| c.time)) {
            (Some(l), Some(n)) => fmt_ratio(n.median / l.median),
            _ => "–".into(),
        };
        let num = |k: &str| case.u64(k).map_or_else(|| "–".into(), |v| v.to_string());
        let _ = writeln!(
            w,
            "| {id} | {} | {} | {} | {} | {ratio} |",
            num("hexes"),
            num("tiles"),
            time_cell(Some(case)),
            time_cell(b)
        );
    }
    let full = load_functions(dir, "rx_full", &["linker"]);
    if let Some(cases) = full.get("linker") {
        let _ = writeln!(
            w,
            "\nThe full house map (four players, a seeded game after some turns of the plan-following player; the \
             linker for blue; the brute force cannot reach plans of about 20 tiles):\n"
        );
        let _ = writeln!(w, "| game | hexes | tiles laid | fewest tiles (blue, yellow, red, purple) | linker |");
        let _ = writeln!(w, "|---|---:|---:|---|---:|");
        let mut worst: f64 = 0.0;
        for (id, case) in cases {
            worst = worst.max(case.time.map_or(f64::INFINITY, |t| t.median));
            let tiles = case.answer.get("tiles").map_or_else(|| "–".into(), ToString::to_string);
            let num = |k: &str| case.u64(k).map_or_else(|| "–".into(), |v| v.to_string());
            let _ = writeln!(w, "| {id} | {} | {} | {tiles} | {} |", num("hexes"), num("laid"), time_cell(Some(case)));
        }
        let _ = writeln!(
            w,
            "\nTarget: the full map under 50 ms: **{}** (slowest {}).",
            if worst < 50e6 { "met" } else { "missed" },
            fmt_time(worst)
        );
    }
}

/// One row of a "fast against slow" table: the case, both times and the ratio.
fn pair_row(w: &mut String, label: &str, fast: Option<&Case>, slow: Option<&Case>) {
    let ratio = match (fast.and_then(|c| c.time), slow.and_then(|c| c.time)) {
        (Some(f), Some(s)) => fmt_ratio(s.median / f.median),
        _ => "–".into(),
    };
    let _ = writeln!(w, "| {label} | {} | {} | {ratio} |", time_cell(fast), time_cell(slow));
}

/// The Cube Express regression positions: the search with its bound against the search without
/// it, from group `ce_bound` of `benches/cube_express_plan.rs`.
fn cube_express_bound_section(w: &mut String, dir: &Path) {
    let bound = load_functions(dir, "ce_bound", &["search", "uncut"]);
    let Some(cut) = bound.get("search") else {
        let _ = writeln!(w, "\nThe regression positions (group `ce_bound`): not measured in this run.");
        return;
    };
    let _ = writeln!(
        w,
        "\n### The regression positions: the bound against the search without it\n\nThe best-turn search with \
         the bound of ruling S3 (\"Lines that cannot beat the best\") against the same search without it \
         (`best_turn_uncut`), on the positions under `tests/fixtures/cube_express/regressions/` that were slow or \
         wrong; before timing, both give the same value and the same plan. Two threads.\n"
    );
    let _ = writeln!(
        w,
        "| position | value | positions searched | without the bound | search | without the bound | ratio |"
    );
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|---:|");
    let mut longest: Option<f64> = None;
    for (id, case) in cut {
        let n = |k: &str| case.u64(k).map_or_else(|| "–".into(), |v| v.to_string());
        let slow = bound.get("uncut").and_then(|u| u.get(id));
        let ratio = match (case.time, slow.and_then(|c| c.time)) {
            (Some(f), Some(s)) => fmt_ratio(s.median / f.median),
            _ => "–".into(),
        };
        let _ = writeln!(
            w,
            "| {id}.json | {} | {} | {} | {} | {} | {ratio} |",
            n("value"),
            n("positions"),
            n("uncut"),
            time_cell(Some(case)),
            time_cell(slow)
        );
        if let Some(t) = case.time {
            longest = Some(longest.map_or(t.median, |l: f64| l.max(t.median)));
        }
    }
    if let Some(t) = longest {
        let _ = writeln!(
            w,
            "\nTarget: each regression position under 1 s: **{}** (longest {}).",
            if t < 1e9 { "met" } else { "missed" },
            fmt_time(t)
        );
    }
}

/// The Railways Express roll and odds section, from `benches/railways_roll.rs`.
fn railways_roll_section(w: &mut String, dir: &Path) {
    let roll = load_functions(dir, "rx_roll", &["best_use", "every_build"]);
    let odds = load_functions(dir, "rx_odds", &["odds", "isolated"]);
    let _ = writeln!(w, "\n## Railways Express: the best use of a roll and the win chances\n");
    if roll.is_empty() && odds.is_empty() {
        let _ = writeln!(w, "No results: run `cargo bench --bench railways_roll` first.");
        return;
    }
    let _ = writeln!(
        w,
        "From `benches/railways_roll.rs`, in the same run, on the embedded sample position (four players, twelve \
         turns played): `best_use` (the linker asked once per track and supply, a build of the node's plan checked \
         by the engine instead of planned again, the race values shared between the ends of turn) against the \
         search as it was (`every_build`: the linker asked again for every build of every node, every end of turn \
         raced afresh); and the win-chance simulation on one thread against the same games with every race value \
         computed afresh each turn (`isolated`). Both sides use today's linker, so the ratios show only the search \
         and race gains. Before timing, both sides must give the same advice and count the same wins.\n"
    );
    let _ = writeln!(w, "| case | now | as before | ratio |");
    let _ = writeln!(w, "|---|---:|---:|---:|");
    let empty = BTreeMap::new();
    let fast = roll.get("best_use").unwrap_or(&empty);
    for (case, c) in fast {
        pair_row(w, &format!("best use of roll {case}"), Some(c), roll.get("every_build").and_then(|m| m.get(case)));
    }
    let fast = odds.get("odds").unwrap_or(&empty);
    for (case, c) in fast {
        pair_row(w, &format!("win chances, {case}"), Some(c), odds.get("isolated").and_then(|m| m.get(case)));
    }
    let _ = writeln!(
        w,
        "\n**Where the time went** (measured with timers on the release build before the change): about 90% of a \
         best use was the linker, about 2,100 calls for roll `SC,SC,any,any`, half of them for a track already \
         planned; inside a call about 60% went on building the port graph (hash maps, a vector per port, a sort \
         of about 5,500 edges) and 27% on the shortest-path search with its hash maps. A simulated turn of the \
         win chances took about 1.8 ms, half linker and half race, and in the race 18% went on formatting the \
         1,296 rolls as text to list them and 19% on enumerating every order of the slots. The linker now builds \
         its graph from index tables without hashing or sorting (the same plans), the best use asks it once per \
         track and supply, and each thread remembers the expected turns of what is left of a course. On the \
         command line (release, the same position, wall / CPU time at a load of 8 to 10): `plan --roll \
         SC,SC,any,any` 5.75 s / 2.84 s before, 0.39 s / 0.20 s after; `odds` for 500 games 32.4 s / 15.5 s \
         before, 4.97 s / 2.46 s after, the same answers. The slowest rolls of a late game still take 3 to 4 s on \
         one thread (turn 23 of a 28-turn game: 17,644 partial turns searched, 8,684 ends of turn within the cut, \
         11,855 linker calls of about 0.25 ms): a cheap lower bound on a build's tiles would cut them further."
    );
}

/// The analysis section, from `benches/coe_analyse.rs`, `benches/cube_express_analyse.rs` and
/// `benches/railways_analyse.rs`.
fn analysis_section(w: &mut String, dir: &Path) {
    let coe = load_functions(dir, "coe_analyse", &["reuse", "scratch", "median20"]);
    let cube = load_functions(dir, "cube_express_analyse", &["reuse", "scratch"]);
    let rail = load_functions(dir, "railways_analyse", &["reuse", "scratch", "whole"]);
    let _ = writeln!(w, "\n## Analysing a played game\n");
    if coe.is_empty() && cube.is_empty() && rail.is_empty() {
        let _ = writeln!(w, "No results: run the three `*_analyse` benchmarks first.");
        return;
    }
    let _ = writeln!(
        w,
        "From `benches/coe_analyse.rs`, `benches/cube_express_analyse.rs` and `benches/railways_analyse.rs`: each \
         review with the work reused between its positions against every decision's position solved from scratch, \
         in the same run; before timing, both must give the same values. Criterion's median per review.\n"
    );
    let _ = writeln!(w, "| game | case | with reuse | from scratch | ratio |");
    let _ = writeln!(w, "|---|---|---:|---:|---:|");
    let get = |g: &BTreeMap<String, BTreeMap<String, Case>>, f: &str, p: &str| g.get(f).and_then(|m| m.get(p)).cloned();
    pair_row(
        w,
        "The Cubes of Europe | seeds 1 to 5, games of 6 turns",
        get(&coe, "reuse", "turns6").as_ref(),
        get(&coe, "scratch", "turns6").as_ref(),
    );
    pair_row(w, "The Cubes of Europe | the sample game (seed 1, whole)", get(&coe, "reuse", "seed1").as_ref(), None);
    pair_row(
        w,
        "Cube Express | the sample game",
        get(&cube, "reuse", "sample").as_ref(),
        get(&cube, "scratch", "sample").as_ref(),
    );
    if let Some(fast) = rail.get("reuse") {
        for (case, c) in fast {
            let label =
                case.strip_prefix("last-").map_or_else(|| case.clone(), |n| format!("the sample's last {n} turns"));
            pair_row(w, &format!("Railways Express | {label}"), Some(c), get(&rail, "scratch", case).as_ref());
        }
    }
    let _ = writeln!(w, "\n### Against the targets (this machine's two cores)\n");
    let verdict = |t: f64, target: f64| if t < target { "met" } else { "missed" };
    match get(&coe, "median20", "reuse") {
        Some(c) => {
            let median = c.answer.get("median").and_then(Value::as_f64).unwrap_or(f64::NAN);
            let slowest = c
                .answer
                .get("seconds")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_f64).fold(0.0, f64::max))
                .unwrap_or(f64::NAN);
            let scratch = c.answer.get("seed1_scratch_seconds").and_then(Value::as_f64);
            let _ = writeln!(
                w,
                "- **The Cubes of Europe, a whole game under 30 s at the median over 20 seeds: {}.** The sample \
                 player's games of seeds 1 to 20 (timed once each, two threads): median {}, slowest {}.{}",
                verdict(median, 30.0),
                fmt_time(median * 1e9),
                fmt_time(slowest * 1e9),
                scratch.map(|s| format!(" Seed 1 from scratch: {}.", fmt_time(s * 1e9))).unwrap_or_default()
            );
        }
        None => {
            let _ = writeln!(w, "- The Cubes of Europe: not measured (`cargo bench --bench coe_analyse`).");
        }
    }
    match get(&cube, "reuse", "sample").and_then(|c| c.time.map(|t| (c, t))) {
        Some((c, t)) => {
            let _ = writeln!(
                w,
                "- **Cube Express, a 3-player game under 20 s: {}.** The sample game ({} players, {} turns): {}.",
                verdict(t.median / 1e9, 20.0),
                c.u64("players").unwrap_or(0),
                c.u64("decisions").unwrap_or(0),
                fmt_time(t.median)
            );
        }
        None => {
            let _ = writeln!(w, "- Cube Express: not measured (`cargo bench --bench cube_express_analyse`).");
        }
    }
    match get(&rail, "whole", "sample") {
        Some(c) => {
            let secs = c.answer.get("seconds").and_then(Value::as_f64).unwrap_or(f64::NAN);
            let _ = writeln!(
                w,
                "- **Railways Express, a 4-player game under 2 minutes: {}.** The sample game ({} turns, {} \
                 simulated games a turn for the win chances), timed once: {}.",
                verdict(secs, 120.0),
                c.u64("turns").unwrap_or(0),
                c.u64("games").unwrap_or(0),
                fmt_time(secs * 1e9)
            );
        }
        None => {
            let _ = writeln!(w, "- Railways Express: not measured (`cargo bench --bench railways_analyse`).");
        }
    }
}

/// The `--time-limit` section: the table `tests/time_limit.rs` writes to `reports/time-limit.md`
/// (`cargo test --release --test time_limit -- --ignored --nocapture`), with its own heading.
fn time_limit_section(w: &mut String) {
    let _ = writeln!(w, "\n## How far past `--time-limit` each command runs\n");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("reports").join("time-limit.md");
    let Ok(text) = std::fs::read_to_string(&path) else {
        let _ = writeln!(w, "No results: run `cargo test --release --test time_limit -- --ignored --nocapture` first.");
        return;
    };
    // The table and its explanation, without the file's own title.
    let body: Vec<&str> = text.lines().skip_while(|l| l.starts_with("# ") || l.is_empty()).collect();
    let _ = writeln!(w, "{}", body.join("\n"));
}
