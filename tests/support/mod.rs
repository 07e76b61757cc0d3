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
