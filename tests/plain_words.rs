//! Words a player uses: no ruling codes ("ruling V1", "(R12)", "(rulings T1-T3)"), placeholders
//! ("<embedded sample game>"), raw internal fields ("record turn: 0; keep: 15.219") or pieces
//! numbered from 0 as the files number them ("die 0 as 4", "card 0, square 1", "locomotive 0",
//! "display column 0", "track die 0") in what a
//! user reads: every command's `--help`, the text of the reviews and advice of the samples, the
//! shipped review pages (`reports/analysis/`) and the shipped puzzle books
//! (`puzzles/collections/*/book.html`), pages read as their visible text. A rule is named in
//! words with the file of its ruling instead.

mod support;

use std::path::Path;

/// Whether `token` looks like a ruling's code: one or two capitals, then one or two digits.
fn is_code(token: &str) -> bool {
    let letters = token.chars().take_while(char::is_ascii_uppercase).count();
    let digits = token.len() - letters;
    (1..=2).contains(&letters) && (1..=2).contains(&digits) && token[letters..].chars().all(|c| c.is_ascii_digit())
}

/// The ruling codes, placeholders and raw fields in `text`, each with a little context.
fn offences(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let context = |at: usize| {
        let start = text[..at].char_indices().rev().nth(30).map_or(0, |(i, _)| i);
        let end = text[at..].char_indices().nth(40).map_or(text.len(), |(i, _)| at + i);
        text[start..end].replace('\n', " ")
    };
    // Codes: after "ruling(s)", or standing in brackets ("(R12)", "(R16, R17)", "(T1-T3)").
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_uppercase() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let end = (i..bytes.len()).find(|&j| !bytes[j].is_ascii_alphanumeric()).unwrap_or(bytes.len());
            let token = &text[i..end];
            if is_code(token) {
                let before = text[..i].trim_end();
                let after = text[end..].trim_start();
                let named = ["ruling", "rulings", "rule"].iter().any(|w| before.ends_with(w));
                let open = before.rfind('(').is_some_and(|o| !before[o..].contains(')'));
                let bracketed =
                    open && before.ends_with(['(', ',', ';', '-']) && after.starts_with([')', ',', ';', '-']);
                if named || bracketed {
                    found.push(format!("a ruling's code `{token}`: …{}…", context(i)));
                }
            }
            i = end;
        } else {
            i += 1;
        }
    }
    for placeholder in
        ["<embedded", "<sample", "<default", "max^n", "record turn:", "keep: ", "TODO", "FIXME", "placeholder"]
    {
        if let Some(at) = text.find(placeholder) {
            found.push(format!("`{placeholder}`: …{}…", context(at)));
        }
    }
    // Pieces numbered from 0, as files number them: a player says the first die, the deck card.
    for piece in [
        "die 0",
        "die 1:",
        "die 1 as",
        "die 1)",
        "card 0, square",
        "card 1, square",
        "square 0",
        "locomotive 0",
        "locomotive 1",
        "column 0",
        "seat 0",
    ] {
        let mut from = 0;
        while let Some(at) = text[from..].find(piece).map(|a| a + from) {
            let starts_a_word = at == 0 || !text.as_bytes()[at - 1].is_ascii_alphanumeric();
            if starts_a_word {
                found.push(format!("a piece numbered from 0, `{piece}`: …{}…", context(at)));
            }
            from = at + piece.len();
        }
    }
    found
}

/// The text a reader sees in a page: the tags, the style and scripts left out, the entities read.
fn visible_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        let skip_to = ["<style", "<script"].iter().find(|t| rest.starts_with(**t)).map(|t| format!("</{}>", &t[1..]));
        let close = match skip_to {
            Some(end) => rest.find(&end).map_or(rest.len(), |e| e + end.len()),
            None => rest.find('>').map_or(rest.len(), |e| e + 1),
        };
        out.push(' ');
        rest = &rest[close..];
    }
    out.push_str(rest);
    out.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// The subcommands a `--help` lists under "Commands:".
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|c| c != "help")
        .collect()
}

fn output(args: &[&str]) -> String {
    let (code, out, err) = support::run(args);
    assert_eq!(code, Some(0), "signalbox {}: {err}", args.join(" "));
    out
}

#[test]
fn help_texts_name_rules_in_words() {
    let mut bad = Vec::new();
    let top = output(&["--help"]);
    bad.extend(offences(&top).into_iter().map(|o| format!("signalbox --help: {o}")));
    for game in subcommands(&top) {
        let help = output(&[&game, "--help"]);
        bad.extend(offences(&help).into_iter().map(|o| format!("signalbox {game} --help: {o}")));
        for sub in subcommands(&help) {
            let text = output(&[&game, &sub, "--help"]);
            bad.extend(offences(&text).into_iter().map(|o| format!("signalbox {game} {sub} --help: {o}")));
        }
    }
    assert!(bad.is_empty(), "{} offences:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn reviews_advice_pages_and_books_name_rules_in_words() {
    let mut bad = Vec::new();
    let commands: &[&[&str]] = &[
        &["coe", "analyse", "-q"],
        &["coe", "advise", "--seed", "1", "--turn", "3", "--roll", "2,5"],
        &["cube-express", "analyse", "-q"],
        &["cube-express", "advise"],
        &["railways", "advise"],
        &["railways", "odds", "--games", "40"],
        &["express01", "route"],
        &["express01", "advise", "--states", "2000"],
    ];
    for args in commands {
        let text = output(args);
        bad.extend(offences(&text).into_iter().map(|o| format!("signalbox {}: {o}", args.join(" "))));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<_> = std::fs::read_dir(root.join("reports/analysis"))
        .expect("the review pages")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    for dir in std::fs::read_dir(root.join("puzzles/collections")).expect("the collections").filter_map(Result::ok) {
        let book = dir.path().join("book.html");
        if book.exists() {
            pages.push(book);
        }
    }
    assert!(pages.len() >= 9, "four review pages and five books: {pages:?}");
    for page in &pages {
        let html = std::fs::read_to_string(page).expect("a page");
        let text = visible_text(&html);
        assert!(text.split_whitespace().count() > 50, "{}: a page with words", page.display());
        let shown = page.strip_prefix(root).unwrap_or(page).display().to_string();
        bad.extend(offences(&text).into_iter().map(|o| format!("{shown}: {o}")));
    }
    assert!(bad.is_empty(), "{} offences:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn the_check_finds_what_it_looks_for() {
    for text in [
        "each turn valued by ruling V1 (docs)",
        "one card more (R12): it pays",
        "it loops round (R16, R17).",
        "on it (rulings T1-T3).",
        "max^n: every player",
        "file <embedded sample game>: fine",
        "record turn: 0; colour: blue; keep: 15.219",
        "die 0 as 4: gain red (card 0, square 1)",
        "die 1: gain a worker",
        "locomotive 0 moves to [1, 0]",
        "take the tile in display column 0",
        "reroll track die 0: SS,SC,plains,any",
        "Red (seat 0) to play",
    ] {
        assert!(!offences(text).is_empty(), "{text}");
    }
    for text in [
        "see “The value of a turn” in docs/rules/cube-express.md",
        "hex [3, 4], a 95% interval (exact)",
        "turn 3 (A to B)",
        "first die as 4: gain red (deck card, square 2); second die: gain a worker",
        "the first locomotive moves to [1, 0]; take the tile in the first display column",
        "a die shows 1 to 6",
    ] {
        assert_eq!(offences(text), Vec::<String>::new(), "{text}");
    }
    assert_eq!(
        visible_text("<p>a &lt;b&gt;</p><style>.x{}</style><b>c</b>").split_whitespace().collect::<Vec<_>>(),
        ["a", "<b>", "c"]
    );
}
