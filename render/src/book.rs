//! A printable puzzle book: one self-contained HTML file (inline SVG and CSS, no script, nothing
//! fetched). The puzzles come first, grouped by difficulty, each with its board and question;
//! then the answer key, each answer drawn on its board. In print a puzzle is never split across
//! pages, a board takes the page's width (up to most of its height) so that its text reads at
//! print size, and each answer is drawn beside its words.

use std::fmt::Write as _;

use crate::page::{escape, game_name};

/// One puzzle of a book.
#[derive(Clone, Debug)]
pub struct BookPuzzle {
    /// The puzzle's id.
    pub id: String,
    /// Its difficulty's name (`easy`, `medium`, `hard`); the book's chapters are these, in the
    /// order of [`Book::chapters`].
    pub difficulty: String,
    /// The question.
    pub question: String,
    /// The position, drawn (a whole `<svg>` element).
    pub board: String,
    /// The answer in words.
    pub answer: String,
    /// The position with the answer drawn.
    pub answer_board: String,
    /// What proves it, in a line ("best 14 points; the runner-up reaches 12").
    pub proof: String,
    /// The grade, in a line ("medium, rating 41: 3 decisions, …").
    pub grade: String,
    /// The themes (shown in the answer key only, as they give the answer away).
    pub themes: Vec<String>,
}

/// A book: its title, what it explains first, and its puzzles.
#[derive(Clone, Debug)]
pub struct Book {
    /// The game's command name (`coe`, `express01`, …).
    pub game: String,
    /// The title ("The best bonus route").
    pub title: String,
    /// Paragraphs of introduction (plain text, one per entry): how to read a puzzle, the grading.
    pub intro: Vec<String>,
    /// The themes and what each means.
    pub themes: Vec<(String, String)>,
    /// The command that makes the collection again.
    pub command: String,
    /// The chapter names, in order (difficulties, easiest first).
    pub chapters: Vec<String>,
    /// The puzzles, in collection order (numbered in the book by chapter).
    pub puzzles: Vec<BookPuzzle>,
}

const STYLE: &str = concat!(
    crate::page::base_style!(),
    r#"
body { max-width: 980px; }
h3 { margin: 0 0 6px; }
code { font-size: 13px; background: var(--shade); padding: 1px 4px; word-break: break-all; }
dl.themes { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: 14px; }
dl.themes dt { font-weight: 600; }
dl.themes dd { margin: 0; }
.puzzle { border-top: 1px solid var(--rule); padding: 12px 0; }
.puzzle p.question { margin: 4px 0 8px; }
.puzzle .no, .answer .no { display: inline-block; min-width: 2.4em; padding: 0 6px; border: 1px solid var(--mark); border-radius: 3px; color: var(--mark); font-weight: 700; text-align: center; margin-right: 6px; }
.id { color: var(--muted); font-size: 12px; font-weight: 400; }
.puzzle figure svg { max-height: 70vh; }
.answers { display: grid; grid-template-columns: minmax(0, 1fr); gap: 14px; }
.answer { border: 1px solid var(--rule); padding: 8px; display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 42%); gap: 12px; align-items: start; }
.answer p { margin: 2px 0; font-size: 13px; }
.answer p.words { font-size: 14px; font-weight: 600; }
.answer .small { color: var(--muted); }
@media screen and (max-width: 760px) {
  body { font-size: 14px; padding: 0 10px 24px; }
  .answer { grid-template-columns: minmax(0, 1fr); }
  h1 { font-size: 21px; }
}
@media print {
  @page { size: A4; margin: 12mm; }
  body { max-width: none; padding: 0; font-size: 10pt; }
  nav { display: none; }
  a { color: inherit; text-decoration: none; }
  .puzzle, .answer, dl.themes { break-inside: avoid; page-break-inside: avoid; }
  .chapter ~ .chapter { break-before: page; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
  .puzzle { padding: 6px 0; }
  .puzzle figure svg { max-height: 200mm; }
  .answer figure svg { max-height: 120mm; }
  .answer { grid-template-columns: minmax(0, 1fr) 58%; padding: 2mm 3mm; }
  .answer p { font-size: 8pt; }
  .answer p.words { font-size: 8pt; font-weight: 600; }
  section#answers { break-before: page; }
  .answers { gap: 4mm; }
}
"#
);

/// The number a puzzle has in the book: its chapter's initial and its place in the chapter
/// ("E3", "M1", "H12"), the same in the puzzles and in the answer key.
fn numbers(book: &Book) -> Vec<String> {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    book.puzzles
        .iter()
        .map(|p| {
            let n = seen.entry(p.difficulty.as_str()).or_default();
            *n += 1;
            let initial = p.difficulty.chars().next().map(|c| c.to_ascii_uppercase()).unwrap_or('?');
            format!("{initial}{n}")
        })
        .collect()
}

/// The page of a book.
pub fn book_page(book: &Book) -> String {
    let numbers = numbers(book);
    let mut h = String::new();
    let title = escape(&book.title);
    let game = escape(game_name(&book.game));
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{game}: {title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header><p class=\"game\">{game} · puzzle book</p><h1>{title}</h1>\
         <p>{} puzzles, each with exactly one answer, proven by the solver.</p></header>\n<nav>",
        book.puzzles.len()
    );
    let chapters: Vec<&String> =
        book.chapters.iter().filter(|c| book.puzzles.iter().any(|p| &p.difficulty == *c)).collect();
    for c in &chapters {
        let _ = write!(h, "<a href=\"#{}\">{}</a>", escape(c), escape(&capitalised(c)));
    }
    h.push_str("<a href=\"#answers\">Answers</a></nav>\n<section id=\"about\">\n");
    for p in &book.intro {
        let _ = writeln!(h, "<p>{}</p>", escape(p));
    }
    if !book.themes.is_empty() {
        h.push_str("<h3>Themes (named in the answer key)</h3>\n<dl class=\"themes\">");
        for (name, what) in &book.themes {
            let _ = write!(h, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(what));
        }
        h.push_str("</dl>\n");
    }
    let _ = writeln!(h, "<p>Made again by <code>{}</code>.</p>\n</section>", escape(&book.command));
    for c in &chapters {
        let count = book.puzzles.iter().filter(|p| &p.difficulty == *c).count();
        let _ = writeln!(
            h,
            "<section class=\"chapter\" id=\"{}\">\n<h2>{} ({count})</h2>",
            escape(c),
            escape(&capitalised(c))
        );
        for (p, no) in book.puzzles.iter().zip(&numbers).filter(|(p, _)| &p.difficulty == *c) {
            let _ = writeln!(
                h,
                "<article class=\"puzzle\" id=\"p-{id}\"><h3><span class=\"no\">{no}</span> \
                 <span class=\"id\">{id}</span></h3><p class=\"question\">{q}</p>\
                 <figure>{board}</figure></article>",
                id = escape(&p.id),
                q = escape(&p.question),
                board = p.board
            );
        }
        h.push_str("</section>\n");
    }
    h.push_str("<section id=\"answers\">\n<h2>Answers</h2>\n<div class=\"answers\">\n");
    for c in &chapters {
        for (p, no) in book.puzzles.iter().zip(&numbers).filter(|(p, _)| &p.difficulty == *c) {
            let themes = if p.themes.is_empty() { "none".to_string() } else { p.themes.join(", ") };
            let _ = writeln!(
                h,
                "<article class=\"answer\" id=\"a-{id}\"><div><h3><span class=\"no\">{no}</span> \
                 <span class=\"id\">{id}</span></h3><p class=\"words\">{answer}</p>\
                 <p>{proof}</p><p class=\"small\">{grade} · themes: {themes}</p></div>\
                 <figure>{board}</figure></article>",
                id = escape(&p.id),
                answer = escape(&p.answer),
                proof = escape(&p.proof),
                grade = escape(&p.grade),
                themes = escape(&themes),
                board = p.answer_board
            );
        }
    }
    h.push_str("</div>\n</section>\n<footer>Made by signalbox. Components are signalbox's house set unless stated.</footer>\n</body>\n</html>\n");
    h
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(id: &str, difficulty: &str) -> BookPuzzle {
        BookPuzzle {
            id: id.to_string(),
            difficulty: difficulty.to_string(),
            question: format!("What is <best> in {id}?"),
            board: "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"></svg>".to_string(),
            answer: "a & b".to_string(),
            answer_board: "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"></svg>".to_string(),
            proof: "best 3".to_string(),
            grade: "easy".to_string(),
            themes: vec!["loop".to_string()],
        }
    }

    #[test]
    fn puzzles_are_grouped_by_chapter_and_numbered_the_same_in_the_key() {
        let book = Book {
            game: "coe".to_string(),
            title: "Reach the maximum".to_string(),
            intro: vec!["Read me.".to_string()],
            themes: vec![("loop".to_string(), "a loop".to_string())],
            command: "signalbox puzzles make".to_string(),
            chapters: vec!["easy".to_string(), "medium".to_string(), "hard".to_string()],
            puzzles: vec![puzzle("x-1", "hard"), puzzle("x-2", "easy"), puzzle("x-3", "hard")],
        };
        let page = book_page(&book);
        let easy = page.find("id=\"easy\"").expect("an easy chapter");
        let hard = page.find("id=\"hard\"").expect("a hard chapter");
        assert!(easy < hard && !page.contains("id=\"medium\""), "chapters in order, empty ones left out");
        assert!(page.find("id=\"p-x-2\"").expect("x-2") < page.find("id=\"p-x-1\"").expect("x-1"));
        assert!(page.contains("<span class=\"no\">H2</span> <span class=\"id\">x-3</span>"));
        assert_eq!(page.matches("<span class=\"no\">H2</span>").count(), 2, "the same number in the key");
        assert!(page.contains("What is &lt;best&gt;") && page.contains("a &amp; b"));
    }
}
