//! The puzzle collections the board offers: the collections shipped with signalbox (built into
//! the binary by `build.rs`, so the board has them wherever it runs) and the collection folders
//! named on the command line, read with the reader of `signalbox puzzles book`. A player picks a
//! puzzle, sees its question and board, asks for hints one by one, and tries answers that are
//! judged exactly as `signalbox puzzles try` judges them.

use std::path::{Path, PathBuf};

use serde::Serialize;
use signalbox_puzzles::collection::{self, Collection};
use signalbox_puzzles::puzzle::amount;
use signalbox_puzzles::{Attempt, Kind, Puzzle, find};

/// The collections shipped with signalbox, as `build.rs` lists them.
mod shipped {
    include!(concat!(env!("OUT_DIR"), "/shipped_puzzles.rs"));
}

/// Where a shipped collection comes from, in the board's words.
const SHIPPED: &str = "shipped with signalbox";

/// One collection on the shelf.
struct Shelved {
    /// The manifest and the puzzles.
    collection: Collection,
    /// The collection's kind (the manifest's).
    kind: &'static dyn Kind,
    /// Where it comes from: [`SHIPPED`] or the folder's name.
    source: String,
}

/// The puzzle collections the board offers.
pub struct Shelf {
    shelved: Vec<Shelved>,
}

/// A collection as the board lists it.
#[derive(Clone, Debug, Serialize)]
pub struct ShelfEntry {
    /// The collection's number on the shelf (from 0), as the other questions name it.
    pub number: usize,
    /// Its title in words (the kind of puzzle's, such as "Reach the maximum").
    pub title: String,
    /// The game, by its command name (`express01`, `coe`, `cube-express`, `railways`).
    pub game: String,
    /// The game's name as players say it ("The Cubes of Europe").
    pub game_name: String,
    /// The kind of puzzle, by the name `signalbox puzzles kinds` lists (`coe-max`).
    pub kind: String,
    /// Where it comes from: "shipped with signalbox", or the name of the folder it was read from.
    pub source: String,
    /// Its puzzles, in the collection's order.
    pub puzzles: Vec<ShelfPuzzle>,
}

/// A puzzle as the board lists it.
#[derive(Clone, Debug, Serialize)]
pub struct ShelfPuzzle {
    /// The puzzle's number in its collection (from 0), as the other questions name it.
    pub number: usize,
    /// The puzzle's id (`coe-max-1066428519`): `signalbox puzzles show ID` makes it again.
    pub id: String,
    /// Easy, medium or hard.
    pub difficulty: String,
    /// Its themes, by the kind's names.
    pub themes: Vec<String>,
}

/// How to write an answer to a puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct AnswerFormat {
    /// The answer's words, in a sentence or two.
    pub description: String,
    /// An answer in those words (not this puzzle's answer: one of another position).
    pub example: String,
}

/// One puzzle to solve.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleView {
    /// The collection's number on the shelf.
    pub collection: usize,
    /// The puzzle's number in its collection.
    pub number: usize,
    /// The puzzle's id (`coe-max-1066428519`).
    pub id: String,
    /// The collection's title in words.
    pub title: String,
    /// The game, by its command name.
    pub game: String,
    /// The question, in words.
    pub question: String,
    /// Easy, medium or hard.
    pub difficulty: String,
    /// Its themes, by the kind's names.
    pub themes: Vec<String>,
    /// The board as a standalone SVG picture, without the answer.
    pub board: String,
    /// How to write an answer.
    pub answer_format: AnswerFormat,
    /// How many hints there are ([`Shelf::hint`] 0 to `hints - 1`); the last shows the answer.
    pub hints: usize,
}

/// The verdict on a player's answer: what `signalbox puzzles try` decides and prints.
#[derive(Clone, Debug, Serialize)]
pub struct TryAnswer {
    /// The verdict as the puzzle library gives it (`puzzles try --json`).
    pub attempt: Attempt,
    /// Whether the answer solves the puzzle.
    pub solved: bool,
    /// How the answer was read: "read as: ...".
    pub read_as: String,
    /// The verdict in words: "solved: ...", "not the answer: ..." or "not legal: ...".
    pub verdict: String,
}

/// The game's name as players say it, from its command name.
fn game_name(game: &str) -> String {
    crate::serve::games::Kind::from_command(game).map_or_else(|| game.to_string(), |g| g.name().to_string())
}

/// The kind of each puzzle of a collection exists (what `puzzles try` looks up), and the
/// manifest's (what `puzzles book` looks up); the manifest's kind.
fn kind_of(collection: &Collection) -> Result<&'static dyn Kind, String> {
    let kind = find(&collection.manifest.kind).map_err(|e| e.to_string())?;
    for p in &collection.puzzles {
        find(&p.kind).map_err(|e| e.to_string())?;
    }
    Ok(kind)
}

/// The name a collection folder is shown by: its own name, never the path to it.
fn folder_name(dir: &Path) -> String {
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    name.or_else(|| std::fs::canonicalize(dir).ok()?.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "a folder of yours".to_string())
}

/// A shipped collection from its files' texts, with the puzzles library's own parser.
fn shipped_collection(folder: &str, files: &[(&str, &str)]) -> Result<Collection, String> {
    let text = |name: &str| files.iter().find(|(n, _)| *n == name).map(|(_, t)| *t);
    let label = |name: &str| format!("the shipped collection {folder}: {name}");
    let manifest = text(collection::MANIFEST).ok_or_else(|| format!("{}: missing", label(collection::MANIFEST)))?;
    collection::parse(&label(collection::MANIFEST), manifest, &mut |file| {
        let t = text(file).ok_or_else(|| signalbox_puzzles::PuzzleError::File {
            path: label(file),
            message: "listed in the manifest, but the file is missing".to_string(),
        })?;
        Ok((label(file), t.to_string()))
    })
    .map_err(|e| e.to_string())
}

/// The words of a kind's answers, and an example of them from a puzzle of the documentation.
fn answer_words(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "express01-route" => (
            "The route's stations in order, joined by \" - \": a card's number (009) for a card with one \
             station, and the number with /s1 or /s2 (069/s2) for a station of a double station card. \
             Either end of the route may come first; case does not matter.",
            "069/s2 - 069/s1 - 060 - 079/s2",
        ),
        "coe-max" => (
            "Every move to the end of the game, a turn's moves separated by \";\" and the turns by \"|\", \
             each move in the game's words: \"first die as 5: place on hex 14\", \"second die as 3: gain \
             white (deck card, square 2)\", \"first die: gain a worker\", \"red: place on hex 11\", \
             \"white: gain red\", \"return blue\", \"pass\". A turn's moves may come in any order that \
             ends the turn the same way.",
            "first die: gain a worker; second die as 3: place on hex 10 | second die as 1: place on hex 17; \
             first die: gain a worker",
        ),
        "cube-express-turn" => (
            "The turn's actions in order, separated by \";\": the lay, each locomotive's moves and what it \
             does on the way, the trades, and the market, in the words the board writes them. Only the \
             words that name an action, its numbers and its cells count; the end of the turn may be \
             left out.",
            "lay tile 42 front up on [-1, -1]; the first locomotive moves to [0, 0]; pick up; the first \
             locomotive moves to [1, 0]; the first locomotive moves to [2, 0]; pick up; the first locomotive \
             moves to [2, 1]; place a passenger; deliver (objective cube to the first column's card); take \
             the tile in the first display column",
        ),
        "railways-link" => (
            "Each tile as \"build e-w on [column, row]\" (the two sides its track joins, of ne, e, se, sw, \
             w and nw, and its hex, counted from 0), separated by \";\", in an order the tiles can be \
             built.",
            "build ne-sw on [6, 1]; build e-w on [2, 0]; build e-w on [1, 0]; build ne-sw on [4, 3]; \
             build ne-sw on [4, 4]",
        ),
        "railways-roll" => (
            "\"pair straight\" (the first track die with the first terrain die) or \"pair crossed\", then \
             each tile as \"build e-w on [column, row] with slot n\" in the order built (slots 0 and 1 are \
             the tiles of the first track die's pair, 2 and 3 the other's), separated by \";\".",
            "pair straight; build ne-sw on [6, 1] with slot 0; build ne-se on [4, 3] with slot 2; build \
             nw-sw on [5, 4] with slot 3",
        ),
        _ => ("The answer in the words of the collection's answer key.", ""),
    }
}

/// An answer's words with case and spacing left out, to compare two answers' texts.
fn plain(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
}

/// The parts of an answer a hint reveals one at a time, and how a part is named: the turns of a
/// Cubes of Europe line, the stations of a route, the steps of a turn (a lay's city clause kept
/// with its lay), the tiles of a plan.
fn answer_parts(kind: &str, text: &str) -> Vec<String> {
    let parts: Vec<String> = match kind {
        "coe-max" => text.split('|').map(str::trim).map(str::to_string).collect(),
        "express01-route" => text.split(" - ").map(str::trim).map(str::to_string).collect(),
        _ => {
            let mut out: Vec<String> = Vec::new();
            let mut depth = 0i32;
            let mut current = String::new();
            let mut push = |current: &mut String| {
                let step = current.trim().to_string();
                current.clear();
                match out.last_mut() {
                    Some(last) if step.to_lowercase().starts_with("the city of") => {
                        last.push_str("; ");
                        last.push_str(&step);
                    }
                    _ => out.push(step),
                }
            };
            for c in text.chars() {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    _ => {}
                }
                if c == ';' && depth <= 0 {
                    push(&mut current);
                } else {
                    current.push(c);
                }
            }
            push(&mut current);
            out
        }
    };
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// The hint that reveals the first part of an answer.
fn first_part_hint(kind: &str, part: &str) -> String {
    match kind {
        "coe-max" => format!("The first turn: {part}."),
        "express01-route" => format!("One end of the route: {part}."),
        "cube-express-turn" => format!("The first action: {part}."),
        "railways-link" => format!("The first tile: {part}."),
        "railways-roll" => format!("The pairing: {part}."),
        _ => format!("The answer begins: {part}."),
    }
}

impl Shelf {
    /// The shipped collections (built into the binary) and those in `dirs` (each a collection
    /// folder, read and validated with the same reader and messages as `puzzles book DIR`; a bad
    /// folder is an Err with that message).
    pub fn new(dirs: &[PathBuf]) -> Result<Shelf, String> {
        let mut shelved = Vec::new();
        for (folder, files) in shipped::SHIPPED {
            let collection = shipped_collection(folder, files)?;
            let kind = kind_of(&collection)?;
            shelved.push(Shelved { collection, kind, source: SHIPPED.to_string() });
        }
        for dir in dirs {
            let collection = collection::read(dir).map_err(|e| e.to_string())?;
            let kind = kind_of(&collection)?;
            shelved.push(Shelved { collection, kind, source: folder_name(dir) });
        }
        Ok(Shelf { shelved })
    }

    /// Every collection: a number (its index), its title in words (the kind's title, e.g. "Reach
    /// the maximum"), the game's name, the kind's name, where it comes from ("shipped with
    /// signalbox" or the folder's name only, never a full path), and its puzzles: id,
    /// difficulty, themes.
    pub fn list(&self) -> Vec<ShelfEntry> {
        self.shelved
            .iter()
            .enumerate()
            .map(|(number, s)| ShelfEntry {
                number,
                title: s.kind.title().to_string(),
                game: s.kind.game().to_string(),
                game_name: game_name(s.kind.game()),
                kind: s.kind.name().to_string(),
                source: s.source.clone(),
                puzzles: s
                    .collection
                    .puzzles
                    .iter()
                    .enumerate()
                    .map(|(number, p)| ShelfPuzzle {
                        number,
                        id: p.id.clone(),
                        difficulty: p.grade.difficulty.name().to_string(),
                        themes: p.themes.clone(),
                    })
                    .collect(),
            })
            .collect()
    }

    /// The collection and the puzzle, with the puzzle's own kind (as `puzzles try` finds it).
    fn get(&self, collection: usize, index: usize) -> Option<(&Shelved, &Puzzle, &'static dyn Kind)> {
        let s = self.shelved.get(collection)?;
        let p = s.collection.puzzles.get(index)?;
        Some((s, p, find(&p.kind).ok()?))
    }

    /// Whether the shelf holds puzzle `index` of collection `collection`.
    pub fn puzzle_exists(&self, collection: usize, index: usize) -> bool {
        self.get(collection, index).is_some()
    }

    /// One puzzle to solve: id, question (in words), difficulty, themes, the board as SVG (the
    /// kind's picture without the answer), how to write an answer (a description and an example
    /// that is not this puzzle's answer), and how many hints there are.
    pub fn puzzle(&self, collection: usize, index: usize) -> Option<PuzzleView> {
        let (s, p, kind) = self.get(collection, index)?;
        let board = kind.picture(&p.position, None).ok()?;
        let (description, example) = answer_words(&p.kind);
        let mut example = example.to_string();
        if example.is_empty() || plain(&example) == plain(&p.answer.text) {
            example = s
                .collection
                .puzzles
                .iter()
                .map(|o| &o.answer.text)
                .find(|t| plain(t) != plain(&p.answer.text))
                .cloned()
                .unwrap_or_default();
        }
        Some(PuzzleView {
            collection,
            number: index,
            id: p.id.clone(),
            title: s.kind.title().to_string(),
            game: p.game.clone(),
            question: p.question.clone(),
            difficulty: p.grade.difficulty.name().to_string(),
            themes: p.themes.clone(),
            board,
            answer_format: AnswerFormat { description: description.to_string(), example },
            hints: hints(p, kind).len(),
        })
    }

    /// The verdict on an answer in words: exactly what `puzzles try` decides (the same
    /// `kind.attempt` call) and prints. An unreadable answer is an Err with the message the CLI
    /// gives; so is a puzzle that is not on the shelf.
    pub fn attempt(&self, collection: usize, index: usize, answer: &str) -> Result<TryAnswer, String> {
        let (_, p, kind) =
            self.get(collection, index).ok_or_else(|| format!("no puzzle {index} in collection {collection}"))?;
        let attempt = kind.attempt(&p.position, answer).map_err(|e| e.to_string())?;
        let solved = attempt.solved();
        let read_as = format!("read as: {}", attempt.understood);
        let verdict = attempt.verdict_words(kind.unit());
        Ok(TryAnswer { attempt, solved, read_as, verdict })
    }

    /// Hint `n` (from 0) from the answer key, each revealing more: the themes and what the best
    /// answer comes to, then the first part of the answer (where it has more than one), then the
    /// whole answer with its proof line. None past the last.
    pub fn hint(&self, collection: usize, index: usize, n: usize) -> Option<String> {
        let (_, p, kind) = self.get(collection, index)?;
        hints(p, kind).into_iter().nth(n)
    }

    /// The board after the answer (the kind's picture with the answer drawn), for when the
    /// puzzle is solved or the whole answer was shown.
    pub fn answer_board(&self, collection: usize, index: usize) -> Option<String> {
        let (_, p, kind) = self.get(collection, index)?;
        kind.picture(&p.position, Some(&p.answer)).ok()
    }
}

/// A puzzle's hints, in order: each reveals more, the last the whole answer.
fn hints(p: &Puzzle, kind: &dyn Kind) -> Vec<String> {
    let themes: Vec<String> = p
        .themes
        .iter()
        .map(|t| match kind.themes().iter().find(|k| k.name == t) {
            Some(k) => {
                let mut words = k.description.trim_end_matches('.').chars();
                let first = words.next().map(|c| c.to_lowercase().collect::<String>()).unwrap_or_default();
                format!("{t} ({first}{})", words.as_str())
            }
            None => t.clone(),
        })
        .collect();
    let themes = match themes.len() {
        0 => "The answer has no special theme.".to_string(),
        1 => format!("The answer's theme: {}.", themes.join("")),
        _ => format!("The answer's themes: {}.", themes.join("; ")),
    };
    let goal = format!("The best answer comes to {}.", amount(p.proof.best, kind.unit()));
    let mut out = vec![format!("{themes} {goal}")];
    let parts = answer_parts(&p.kind, &p.answer.text);
    if let [first, _, ..] = parts.as_slice() {
        out.push(first_part_hint(&p.kind, first));
    }
    out.push(format!(
        "The answer: {}. {}",
        p.answer.text,
        signalbox_puzzles::book::proof_line(p, kind.unit(), kind.better())
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use signalbox_puzzles::Verdict;

    fn shelf() -> Shelf {
        Shelf::new(&[]).expect("the shipped collections read")
    }

    /// A fresh folder in the temporary folder, named for a test.
    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("signalbox-shelf-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// A legal answer that falls short of the best: the answer cut short, or with a part changed
    /// (another turn to end the game, a tile more); `None` where none of these is.
    fn short_answer(shelf: &Shelf, c: usize, i: usize) -> Option<String> {
        let p = &shelf.shelved[c].collection.puzzles[i];
        let parts = answer_parts(&p.kind, &p.answer.text);
        let sep = match p.kind.as_str() {
            "coe-max" => " | ",
            "express01-route" => " - ",
            _ => "; ",
        };
        let mut tries = Vec::new();
        for k in 1..parts.len() {
            tries.push(parts[..k].join(sep));
            tries.push(parts[k..].join(sep));
            tries.push(format!("{}{sep}{}", parts[..k].join(sep), parts[parts.len() - 1]));
        }
        if p.kind == "coe-max" {
            let workers = "first die: gain a worker; second die: gain a worker";
            tries.push(format!("{} | {workers}", parts[..parts.len() - 1].join(" | ")));
            tries.push(vec![workers; parts.len()].join(" | "));
        }
        if p.kind == "railways-link" {
            for (r, c, t) in
                (0..8).flat_map(|r| (0..10).flat_map(move |c| ["e-w", "ne-sw", "nw-se"].map(|t| (r, c, t))))
            {
                tries.push(format!("{}; build {t} on [{c}, {r}]", p.answer.text));
            }
        }
        tries.into_iter().find(|a| {
            shelf.attempt(c, i, a).is_ok_and(|t| matches!(t.attempt.verdict, Verdict::Short { .. }) && !t.solved)
        })
    }

    #[test]
    fn the_shelf_can_be_shared_by_the_servers_threads() {
        fn shared<T: Send + Sync + 'static>() {}
        shared::<Shelf>();
    }

    #[test]
    fn every_shipped_collection_is_listed_with_its_puzzles() {
        let shelf = shelf();
        let list = shelf.list();
        assert_eq!(list.len(), shipped::SHIPPED.len());
        let kinds: Vec<&str> = list.iter().map(|e| e.kind.as_str()).collect();
        for kind in ["coe-max", "cube-express-turn", "express01-route", "railways-link", "railways-roll"] {
            assert!(kinds.contains(&kind), "{kind} is shipped: {kinds:?}");
        }
        for (n, (entry, (folder, files))) in list.iter().zip(shipped::SHIPPED).enumerate() {
            assert_eq!(entry.number, n);
            assert_eq!(entry.source, "shipped with signalbox");
            assert_eq!(&entry.kind, folder, "the shipped folders are named by their kind");
            assert_eq!(entry.title, find(&entry.kind).expect("a kind").title());
            assert!(!entry.game_name.is_empty() && entry.game_name != entry.game, "{}", entry.game_name);
            assert_eq!(entry.puzzles.len() + 1, files.len(), "{folder}: every file a puzzle but the manifest");
            assert!(!entry.puzzles.is_empty());
            for (i, p) in entry.puzzles.iter().enumerate() {
                assert_eq!(p.number, i);
                assert!(files.iter().any(|(f, _)| *f == format!("{}.json", p.id)), "{}", p.id);
                assert!(["easy", "medium", "hard"].contains(&p.difficulty.as_str()));
            }
        }
        let json = serde_json::to_string(&list).expect("the list as JSON");
        assert!(json.contains("\"source\":\"shipped with signalbox\""));
        assert!(!json.contains("/work/") && !json.contains("collections/"), "no paths");
    }

    #[test]
    fn every_shipped_puzzle_has_a_board_a_question_and_an_answer_format() {
        let shelf = shelf();
        for entry in shelf.list() {
            for p in &entry.puzzles {
                let view = shelf.puzzle(entry.number, p.number).expect("a view");
                let answer = &shelf.shelved[entry.number].collection.puzzles[p.number].answer.text;
                assert_eq!(view.id, p.id);
                assert!(view.board.contains("<svg") && view.board.contains("</svg>"), "{}", p.id);
                assert!(view.question.ends_with(['?', '.']) && view.question.len() > 20, "{}", view.question);
                assert!(!view.answer_format.description.is_empty());
                assert!(!view.answer_format.example.is_empty(), "{}", p.id);
                assert_ne!(plain(&view.answer_format.example), plain(answer), "{}: the example gives it away", p.id);
                assert!(view.hints >= 2);
            }
            assert!(shelf.puzzle(entry.number, entry.puzzles.len()).is_none());
            assert!(shelf.answer_board(entry.number, 0).is_some_and(|b| b.contains("<svg")));
        }
        assert!(shelf.puzzle(shelf.shelved.len(), 0).is_none() && shelf.answer_board(usize::MAX, 0).is_none());
    }

    #[test]
    fn each_kinds_example_is_read_as_an_answer() {
        let shelf = shelf();
        for entry in shelf.list() {
            for i in 0..entry.puzzles.len().min(3) {
                let view = shelf.puzzle(entry.number, i).expect("a view");
                let read = shelf.attempt(entry.number, i, &view.answer_format.example);
                assert!(read.is_ok(), "{}: the example {:?}: {read:?}", entry.kind, view.answer_format.example);
            }
        }
    }

    #[test]
    fn answers_are_judged_as_puzzles_try_judges_them() {
        let shelf = shelf();
        for entry in shelf.list() {
            let c = entry.number;
            let p = &shelf.shelved[c].collection.puzzles[0];
            let kind = find(&p.kind).expect("a kind");
            let t = shelf.attempt(c, 0, &p.answer.text).expect("the answer reads");
            assert!(t.solved && t.attempt.verdict == Verdict::Solved, "{}: {t:?}", p.id);
            assert_eq!(t.verdict, format!("solved: {}, the best", amount(p.proof.best, kind.unit())));
            assert!(t.read_as.starts_with("read as: "));
            let json = serde_json::to_value(&t).expect("the verdict as JSON");
            assert_eq!(json["attempt"]["verdict"], "solved");
            assert_eq!(json["solved"], true);

            let short = short_answer(&shelf, c, 0).unwrap_or_else(|| panic!("{}: no legal short answer found", p.id));
            let t = shelf.attempt(c, 0, &short).expect("the short answer reads");
            assert!(!t.solved && t.verdict.starts_with("not the answer: "), "{}: {t:?}", p.id);
            assert!(t.verdict.ends_with(" short)"), "{}", t.verdict);
            assert_eq!(t.attempt, kind.attempt(&p.position, &short).expect("the same call"));

            for bad in ["xyzzy", ""] {
                let err = shelf.attempt(c, 0, bad).expect_err("an unreadable answer is refused");
                let cli = kind.attempt(&p.position, bad).expect_err("refused by the CLI too").to_string();
                assert_eq!(err, cli);
                assert!(err.starts_with("the answer: "), "{err}");
            }
        }
        assert!(shelf.attempt(0, usize::MAX, "pass").is_err());
        assert!(shelf.attempt(usize::MAX, 0, "pass").is_err());
    }

    #[test]
    fn hints_reveal_more_and_the_last_shows_the_answer() {
        let shelf = shelf();
        for entry in shelf.list() {
            for i in 0..entry.puzzles.len().min(3) {
                let c = entry.number;
                let p = &shelf.shelved[c].collection.puzzles[i];
                let kind = find(&p.kind).expect("a kind");
                let count = shelf.puzzle(c, i).expect("a view").hints;
                let hints: Vec<String> = (0..count).map(|n| shelf.hint(c, i, n).expect("a hint")).collect();
                assert!(shelf.hint(c, i, count).is_none(), "none past the last");
                assert!(hints[0].contains(&amount(p.proof.best, kind.unit())), "{}", hints[0]);
                for t in &p.themes {
                    assert!(hints[0].contains(t.as_str()), "{}: {}", t, hints[0]);
                }
                for (n, h) in hints.iter().enumerate() {
                    assert!(!h.contains(&p.answer.text) || n == count - 1, "hint {n} gives the answer away: {h}");
                }
                if count == 3 {
                    let part = &answer_parts(&p.kind, &p.answer.text)[0];
                    assert!(hints[1].contains(part.as_str()) && p.answer.text.contains(part.as_str()), "{}", hints[1]);
                }
                let last = &hints[count - 1];
                assert!(last.contains(&p.answer.text), "{last}");
                assert!(last.contains(&signalbox_puzzles::book::proof_line(p, kind.unit(), kind.better())));
            }
        }
        assert!(shelf.hint(usize::MAX, 0, 0).is_none());
    }

    #[test]
    fn a_collection_folder_is_read_and_a_bad_one_gets_the_books_message() {
        let shipped = shelf();
        let mut made = shipped.shelved[0].collection.clone();
        made.puzzles.truncate(2);
        made.manifest.puzzles.truncate(2);
        let dir = temp("mine");
        collection::write(&dir, &made, false).expect("written");
        let shelf = Shelf::new(std::slice::from_ref(&dir)).expect("a good folder reads");
        let list = shelf.list();
        assert_eq!(list.len(), shipped::SHIPPED.len() + 1);
        let mine = &list[list.len() - 1];
        assert_eq!(mine.source, folder_name(&dir));
        assert!(!mine.source.contains('/'), "the folder's name only: {}", mine.source);
        assert_eq!(mine.puzzles.len(), 2);
        assert_eq!(mine.puzzles[1].id, made.puzzles[1].id);
        let view = shelf.puzzle(mine.number, 1).expect("a view");
        assert!(view.board.contains("<svg"));
        let t = shelf.attempt(mine.number, 1, &made.puzzles[1].answer.text).expect("reads");
        assert!(t.solved);
        let _ = std::fs::remove_dir_all(&dir);

        let bad = temp("bad");
        std::fs::create_dir_all(&bad).expect("a folder");
        std::fs::write(bad.join(collection::MANIFEST), "{ \"format\": 1,").expect("a broken manifest");
        let err = Shelf::new(std::slice::from_ref(&bad)).err().expect("a broken manifest is refused");
        assert_eq!(err, collection::read(&bad).expect_err("refused by the book too").to_string());
        assert!(err.contains("collection.json") && err.contains("line 1"), "{err}");
        let _ = std::fs::remove_dir_all(&bad);

        let missing = temp("missing");
        let err = Shelf::new(std::slice::from_ref(&missing)).err().expect("a missing folder is refused");
        assert_eq!(err, collection::read(&missing).expect_err("refused by the book too").to_string());
        assert!(err.contains("cannot read"), "{err}");

        let strange = temp("strange");
        let mut other = made.clone();
        other.manifest.kind = "chess-mate".to_string();
        collection::write(&strange, &other, false).expect("written");
        let err = Shelf::new(std::slice::from_ref(&strange)).err().expect("an unknown kind is refused");
        assert!(err.starts_with("no puzzle kind \"chess-mate\""), "{err}");
        let _ = std::fs::remove_dir_all(&strange);
    }

    #[test]
    fn a_shipped_collection_parses_as_its_folder_reads() {
        let shelf = shelf();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join("collections");
        for s in &shelf.shelved {
            let folder = dir.join(s.kind.name());
            if folder.is_dir() {
                let read = collection::read(&folder).expect("the folder reads");
                assert_eq!(read, s.collection, "{}", s.kind.name());
            }
        }
    }
}
