//! The shipped collections (`puzzles/collections/`): every puzzle checks against a fresh solve,
//! each collection holds at least 30 puzzles across the three difficulties, its first puzzles are
//! made again by the command its manifest records, byte for byte, and its book is what the book
//! page draws today. And for every kind: a position where two answers tie fails the check as
//! not unique.

use std::path::{Path, PathBuf};

use signalbox_puzzles::collection::{self, Request, check_dir, check_puzzle, to_json};
use signalbox_puzzles::puzzle::FORMAT;
use signalbox_puzzles::{Difficulty, Puzzle, kinds};

fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("collections");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("puzzles/collections")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_shipped_puzzle_checks() {
    let dirs = shipped();
    let mut of_kind = std::collections::BTreeSet::new();
    for dir in &dirs {
        let checked = check_dir(dir).expect("a collection");
        let failed: Vec<_> = checked.iter().filter(|c| !c.problems.is_empty()).collect();
        assert!(failed.is_empty(), "{}: {failed:#?}", dir.display());
        let c = collection::read(dir).expect("a collection");
        assert!(c.puzzles.len() >= 30, "{}: {} puzzles", dir.display(), c.puzzles.len());
        for d in Difficulty::ALL {
            assert!(c.puzzles.iter().any(|p| p.grade.difficulty == d), "{}: no {d} puzzle", dir.display());
        }
        of_kind.insert(c.manifest.kind.clone());
    }
    for k in kinds() {
        assert!(of_kind.contains(k.name()), "no shipped collection of {}", k.name());
    }
}

/// The manifest's command, read back into a request: the seed, the filters and the limits.
fn request_of(command: &str, count: usize) -> Request {
    let words: Vec<&str> = command.split_whitespace().collect();
    let flag = |name: &str| words.iter().position(|w| *w == name).map(|i| words[i + 1]);
    Request {
        count,
        seed: flag("--seed").expect("a seed").parse().expect("a number"),
        difficulty: flag("--difficulty").map(|d| Difficulty::parse(d).expect("a difficulty")),
        theme: flag("--theme").map(str::to_string),
        margin: flag("--margin").map(|m| m.parse().expect("a margin")),
        max_candidates: u64::MAX,
        per_difficulty: flag("--per-difficulty").map(|p| p.parse().expect("a number")),
    }
}

/// A collection's first puzzles do not depend on how many were asked for, so making three again
/// by the recorded command must give the first three files, byte for byte.
#[test]
fn shipped_collections_are_made_again_by_their_command() {
    for dir in shipped() {
        let c = collection::read(&dir).expect("a collection");
        let kind = signalbox_puzzles::find(&c.manifest.kind).expect("a kind");
        let again = collection::make(kind, &request_of(&c.manifest.command, 3), &|_| {}).expect("made");
        for (fresh, file) in again.puzzles.iter().zip(&c.manifest.puzzles) {
            let shipped = std::fs::read_to_string(dir.join(&file.file)).expect("the file");
            assert!(to_json(fresh) == shipped, "{}: {} is not what its command makes", dir.display(), file.id);
        }
        assert_eq!(again.puzzles.len(), 3);
    }
}

#[test]
fn shipped_books_are_what_the_book_page_draws_today() {
    for dir in shipped() {
        let c = collection::read(&dir).expect("a collection");
        let page = signalbox_render::book::book_page(&signalbox_puzzles::book::book(&c, None).expect("a book"));
        let shipped = std::fs::read_to_string(dir.join("book.html")).unwrap_or_default();
        assert!(
            page == shipped,
            "{}/book.html is stale; regenerate it with\n  cargo run --release -- puzzles book {} --html {}/book.html --force",
            dir.display(),
            dir.display(),
            dir.display()
        );
    }
}

/// For every kind, the first candidate whose best answer is tied, written as a puzzle file with
/// the solver's answer: the check says "not unique".
#[test]
fn a_tied_position_fails_the_check_for_every_kind() {
    for kind in kinds() {
        let tied = (0..400u64).find_map(|i| {
            let candidate = collection::candidate_number(77, i);
            let position = kind.position(candidate).ok()?;
            let solved = kind.solve(&position).ok()?;
            solved.proof.tied().then_some((candidate, position, solved))
        });
        let Some((candidate, position, solved)) = tied else {
            panic!("{}: no tied candidate among the first 400", kind.name());
        };
        let puzzle = Puzzle {
            format: FORMAT,
            id: collection::id(kind, candidate),
            game: kind.game().to_string(),
            kind: kind.name().to_string(),
            candidate,
            margin: kind.default_margin(),
            question: kind.question(&position).expect("a question"),
            position,
            answer: solved.answer,
            grade: solved.grade,
            themes: solved.themes,
            proof: solved.proof,
        };
        let problems = check_puzzle(&puzzle);
        assert!(problems.iter().any(|p| p.starts_with("not unique")), "{}: {problems:?}", kind.name());
    }
}
