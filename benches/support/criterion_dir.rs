//! Where criterion writes its results: shared by the benchmark and the report generator.

use std::path::PathBuf;

/// The criterion output directory, as criterion finds it (`$CRITERION_HOME`,
/// `$CARGO_TARGET_DIR/criterion`, else `target/criterion` of this workspace).
pub fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("criterion")
}
