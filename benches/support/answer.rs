//! The side files of the benchmarks whose figures the report generator reads: an `answer.json`
//! beside criterion's estimates, written only in a measuring run.

use serde_json::Value;

use super::criterion_dir::criterion_dir;

/// Whether this is a measuring run (`cargo bench`), not a test (`cargo test --benches`,
/// `cargo bench -- --test`), a listing or a profile: only then are the side files written.
pub fn bench_mode() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().any(|a| a == "--bench")
        && !args.iter().any(|a| a == "--test" || a == "--list" || a.starts_with("--profile-time"))
}

/// Writes `answer` as `answer.json` of the case `<group>/<function>/<parameter>`, in a measuring
/// run only.
pub fn write_answer(group: &str, function: &str, parameter: &str, answer: &Value) {
    if !bench_mode() {
        return;
    }
    let dir = criterion_dir().join(group).join(function).join(parameter);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("answer.json"), format!("{answer:#}\n"));
}
