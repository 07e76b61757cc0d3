//! What the end-to-end tests of the CLI share: running the binary, and a folder of their own for
//! the files they write.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `signalbox` with `args`: its exit code, standard output and standard error.
pub fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_signalbox")).args(args).output().expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The path `name` in a temporary folder of this test process, tagged `tag` (created).
#[allow(dead_code)]
pub fn temp_path(tag: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("signalbox-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Every file of a folder, by name, with its bytes (sorted by name).
#[allow(dead_code)]
pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| {
            let e = e.expect("an entry");
            (e.file_name().to_string_lossy().to_string(), std::fs::read(e.path()).expect("bytes"))
        })
        .collect();
    all.sort();
    all
}

/// The shards `1..=n` in an order that changes from run to run (a rotation of the process id's
/// choosing, reversed on odd ids), never simply `1, 2, ..., n` for `n > 2`: a merge must not
/// depend on the order the shards finished in.
#[allow(dead_code)]
pub fn shuffled(n: u64) -> Vec<u64> {
    let id = u64::from(std::process::id());
    let turn = 1 + id % (n - 1).max(1);
    let mut order: Vec<u64> = (0..n).map(|i| (i + turn) % n + 1).collect();
    if id % 2 == 1 {
        order.reverse();
    }
    order
}

/// Runs `signalbox merge OUT SHARD...` with `extra` flags.
#[allow(dead_code)]
pub fn merge(out: &Path, shards: &[&Path], extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args: Vec<&str> = vec!["merge", out.to_str().expect("path")];
    args.extend(shards.iter().map(|p| p.to_str().expect("path")));
    args.extend_from_slice(extra);
    run(&args)
}

/// Runs `signalbox merge OUT SHARD...` and expects a refusal: exit 2, no panic, a message naming
/// every `expected`, and nothing written to OUT. Returns the message.
#[allow(dead_code)]
pub fn merge_refused(out: &Path, shards: &[&Path], expected: &[&str]) -> String {
    let _ = std::fs::remove_file(out);
    let (code, _, err) = merge(out, shards, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for e in expected {
        assert!(err.contains(e), "expected `{e}` in: {err}");
    }
    assert!(!out.exists(), "a refused merge writes nothing");
    err
}

/// A path `name` for a new file or folder in the folder tagged `tag` (any old one removed).
#[allow(dead_code)]
pub fn fresh(tag: &str, name: &str) -> PathBuf {
    let path = temp_path(tag, name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(&path);
    path
}

/// Runs `signalbox` with `args`, expects success, and returns its standard output.
#[allow(dead_code)]
pub fn ok(args: &[&str]) -> String {
    let (code, text, err) = run(args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    text
}

/// Runs `signalbox` with `args` and expects bad input: exit 2, no panic, a message naming every
/// `expected`; and `out`, if given, named and left as it was. Returns the message.
#[allow(dead_code)]
pub fn refused(args: &[&str], out: Option<&Path>, expected: &[&str]) -> String {
    let before = out.map(|p| std::fs::read(p).ok());
    let (code, _, err) = run(args);
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for e in expected {
        assert!(err.contains(e), "expected `{e}` in: {err}");
    }
    if let (Some(path), Some(before)) = (out, before) {
        assert!(err.contains(&path.display().to_string()), "the file is named: {err}");
        assert_eq!(std::fs::read(path).ok(), before, "a refused file is left as it was");
    }
    err
}

/// A seed-line file's lines as JSON (`coe batch`, `coe selfplay`, `express01 selfplay`): the
/// settings line, then the seed lines.
#[allow(dead_code)]
pub fn seed_file(path: &Path) -> (serde_json::Value, Vec<serde_json::Value>) {
    let text = std::fs::read_to_string(path).expect("the file");
    let mut lines = text.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON line"));
    let settings = lines.next().expect("a settings line");
    assert!(settings.get("settings").is_some(), "first line: {settings}");
    (settings, lines.collect())
}

/// The seeds of a seed-line file, in file order.
#[allow(dead_code)]
pub fn seeds_in(path: &Path) -> Vec<u64> {
    seed_file(path).1.iter().map(|l| l["seed"].as_u64().expect("seed")).collect()
}

/// Runs `signalbox` with `args`, `input` on its standard input: its exit code, standard output
/// and standard error.
#[allow(dead_code)]
pub fn run_with_input(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_signalbox"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_owned();
    // Written from a thread while the output is read, so that neither pipe fills and waits on
    // the other; a session may stop reading early (the game ends): a closed pipe is no failure.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the binary ends");
    let _ = writer.join();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
