//! Builds into the binary the shipped puzzle collections (`puzzles/collections/*/`): writes to
//! `OUT_DIR/shipped_puzzles.rs` a list of each collection folder's name and its JSON files (the
//! manifest and one file per puzzle), each by `include_str!`, folders and files sorted by name.
//! `signalbox serve` offers them on its board (`src/serve/puzzles.rs`); the books beside them are
//! left out.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=puzzles/collections");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let code = shipped(&root.join("puzzles").join("collections"));
    std::fs::write(out.join("shipped_puzzles.rs"), code).expect("cannot write shipped_puzzles.rs");
}

/// The sorted entries of a folder that `keep` keeps.
fn entries(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut all: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| keep(p)).collect();
    all.sort();
    all
}

fn shipped(collections: &Path) -> String {
    let mut code = String::from(
        "/// The shipped collections, by folder name: each folder's JSON files (its manifest,\n\
         /// `collection.json`, and its puzzles), by file name, sorted.\n\
         pub static SHIPPED: &[(&str, &[(&str, &str)])] = &[\n",
    );
    for dir in entries(collections, |p| p.is_dir() && p.join("collection.json").is_file()) {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let _ = writeln!(code, "    ({name:?}, &[");
        for file in entries(&dir, |p| p.is_file() && p.extension().is_some_and(|x| x == "json")) {
            let file_name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let _ = writeln!(code, "        ({file_name:?}, include_str!({:?})),", file.display().to_string());
        }
        code.push_str("    ]),\n");
    }
    code.push_str("];\n");
    code
}
