//! Actions written in words, as the text output prints them (`cube-express plan`, `solo`,
//! `analyse`, and the short form of error messages), for records written by hand at the table
//! (`docs/formats/cube-express-position.md`, "Actions in words"). A record's action may be such
//! a string instead of an object with `do`. The words are read by what names the action (its
//! first words) and the numbers and cells it needs; the rest of the printed sentence (movement
//! points left, whose stock rises) is the engine's to check, not the reader's, and may be left
//! out.

use super::action::{Action, Lay, Payment};
use super::resource::{Conversion, Resource, Resources};
use crate::grid::square::Cell;

/// What a string action may say, for the error of one that says none of it.
pub const EXPECTED: &str = "an action in the words the text output prints, such as \"lay tile 12 front up on [1, 0], \
     turned 1 quarter turn clockwise, and take its factory action\", \"the first locomotive moves to [1, 0]\", \"pick \
     up\", \"deliver (objective cube to the third column's card)\", \"place a passenger\", \"spend 1 coal\", \"take \
     the tile in the fourth display column and place a dividend on the objective card above it\", \"no market\" or \
     \"end the turn\"";

/// Reads one action in words; the error says what was expected.
pub fn parse_action(words: &str) -> Result<Action, String> {
    let w = words.trim().to_lowercase();
    let w = w.as_str();
    let bad = |why: &str| format!("the action \"{}\" in words: {why}", words.trim());
    let starts = |p: &str| w.starts_with(p);
    if starts("convert") {
        let mut found = resources_in(w).into_iter().map(|(_, r)| r);
        let (Some(from), Some(to)) = (found.next(), found.next()) else {
            return Err(bad(
                "expected \"convert 2 coal into 1 wood\" (or wood into iron, iron into wood, wood into coal)",
            ));
        };
        return Conversion::ALL
            .into_iter()
            .find(|c| {
                let (f, t, _) = c.recipe();
                (f, t) == (from, to)
            })
            .map(|conversion| Action::Convert { conversion })
            .ok_or_else(|| bad(&format!("there is no conversion of {from} into {to} on the player board")));
    }
    if starts("sell") {
        let spaces = number_after(w, "sell").ok_or_else(|| bad("expected \"sell N spaces of stock\""))?;
        return Ok(Action::Sell { spaces });
    }
    if starts("no tile") || w == "no-lay" || w == "lay nothing" {
        return Ok(Action::NoLay);
    }
    if starts("lay tile") {
        return lay(w).map(Action::Lay).map_err(|why| bad(&why));
    }
    if starts("build the second locomotive") {
        let at = cells(w).into_iter().next().ok_or_else(|| bad("expected the station's cell, \"at [x, y]\""))?;
        return Ok(Action::BuildLocomotive { at });
    }
    if starts("spend 1 coal") || w == "coal" {
        return Ok(Action::Coal);
    }
    if starts("locomotive") || (starts("the ") && w.contains(" locomotive moves")) {
        // `the first locomotive moves to ...`, or the older `locomotive 0 moves to ...`.
        let locomotive = ordinal_before(w, " locomotive").or_else(|| number_after(w, "locomotive")).filter(|&l| l <= 1);
        let to = w.rfind(" to ").and_then(|i| cells(&w[i..]).into_iter().next());
        let (Some(locomotive), Some(to)) = (locomotive, to) else {
            return Err(bad("expected \"the first locomotive moves to [x, y]\" (the first or the second)"));
        };
        return Ok(Action::Move { locomotive, to });
    }
    if starts("pick up") || w == "pickup" {
        return Ok(Action::Pickup);
    }
    if starts("deliver") {
        // `... to the third column's card`, or the older `... to column 2`.
        let objective =
            w.find("column").map(|i| number_after(&w[i..], "column").or_else(|| ordinal_before(w, " column")));
        return match objective {
            None => Ok(Action::Deliver { objective: None }),
            Some(Some(c)) if c < 4 => Ok(Action::Deliver { objective: Some(c) }),
            Some(_) => Err(bad("expected the objective card's column, the first to the fourth")),
        };
    }
    if starts("place a passenger") || w == "passenger" {
        return Ok(Action::Passenger);
    }
    if starts("no market") {
        return Ok(Action::NoMarket);
    }
    if starts("take") && w.contains("display column") {
        // `the fourth display column`, or the older `display column 3`.
        let slot = w
            .find("display column")
            .and_then(|i| number_after(&w[i..], "display column"))
            .or_else(|| ordinal_before(w, " display column"))
            .filter(|&s| s < 4)
            .ok_or_else(|| bad("expected \"the first display column\" (first to fourth)"))?;
        return Ok(Action::Market { slot, cube: w.contains("place a dividend") });
    }
    if starts("end the turn") || w == "end" {
        let discard = match w.find("discarding") {
            Some(i) => counted(&w[i..]).1,
            None => Resources::default(),
        };
        return Ok(Action::End { discard });
    }
    Err(bad(&format!("expected {EXPECTED}")))
}

/// A lay in words: "lay tile N (…) front up on [x, y], turned K quarter turns clockwise, and
/// take its … action" (the plan's words) or "lay tile N front up at [x, y], turned K, take its
/// action (pay …)" (the short form).
fn lay(w: &str) -> Result<Lay, String> {
    let tile = number_after(w, "lay tile").ok_or("expected \"lay tile N\"")?;
    let back = w.contains("back up");
    // The cell is the first after the side ("front up on", "back up (…) on", "at").
    let cell = cells(w).into_iter().next().ok_or("expected the cell, \"on [x, y]\"")?;
    let rotation = if w.contains("not turned") {
        0
    } else {
        match w.find("turned") {
            Some(i) => {
                number_after(&w[i..], "turned").filter(|&r| r <= 3).ok_or("expected \"turned K\", K from 0 to 3")?
            }
            None => 0,
        }
    };
    let act = !w.contains("without its")
        && (w.contains("take its") || w.contains("build a station") || w.contains("take ownership"));
    let pay = match w.find("paying").or_else(|| w.find("(pay ")) {
        Some(i) if act => {
            let rest = &w[i..];
            let rest = rest.find([')', ';']).map_or(rest, |j| &rest[..j]);
            let (dividends, r) = counted(rest);
            Payment { dividends, coal: r.coal, wood: r.wood, iron: r.iron }
        }
        _ => Payment::default(),
    };
    Ok(Lay { tile, back, cell, rotation, act, pay })
}

/// The first whole number after `prefix` in `w` (which starts with or contains it).
/// The number of the ordinal word just before `suffix` in `w` (`the third column` gives 2).
fn ordinal_before(w: &str, suffix: &str) -> Option<u8> {
    let word = w[..w.find(suffix)?].split_whitespace().last()?;
    (0..4).find(|&n| super::action::ordinal(n) == word)
}

fn number_after(w: &str, prefix: &str) -> Option<u8> {
    let i = w.find(prefix)? + prefix.len();
    let rest = w[i..].trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Every cell `[x, y]` in `w`, in order.
fn cells(w: &str) -> Vec<Cell> {
    let mut out = Vec::new();
    let mut rest = w;
    while let Some(i) = rest.find('[') {
        let Some(j) = rest[i..].find(']') else { break };
        let inside = &rest[i + 1..i + j];
        let parts: Vec<&str> = inside.split(',').map(str::trim).collect();
        if let [x, y] = parts.as_slice()
            && let (Ok(x), Ok(y)) = (x.parse(), y.parse())
        {
            out.push(Cell::new(x, y));
        }
        rest = &rest[i + j + 1..];
    }
    out
}

/// Each resource named in `w` with the count before it ("2 coal and 1 iron"), in order.
fn resources_in(w: &str) -> Vec<(u8, Resource)> {
    let words: Vec<&str> = w.split(|c: char| !c.is_ascii_alphanumeric()).filter(|s| !s.is_empty()).collect();
    let mut out = Vec::new();
    for (k, word) in words.iter().enumerate() {
        let Some(r) = Resource::ALL.into_iter().find(|r| r.to_string() == *word) else { continue };
        let n = k.checked_sub(1).and_then(|p| words[p].parse().ok()).unwrap_or(1);
        out.push((n, r));
    }
    out
}

/// The dividends and resources counted in `w` ("2 dividends and 1 coal").
fn counted(w: &str) -> (u8, Resources) {
    let mut r = Resources::default();
    for (n, res) in resources_in(w) {
        match res {
            Resource::Coal => r.coal += n,
            Resource::Wood => r.wood += n,
            Resource::Iron => r.iron += n,
        }
    }
    let words: Vec<&str> = w.split(|c: char| !c.is_ascii_alphanumeric()).filter(|s| !s.is_empty()).collect();
    let dividends = words
        .windows(2)
        .filter(|p| p[1] == "dividends" || p[1] == "dividend")
        .filter_map(|p| p[0].parse::<u8>().ok())
        .sum();
    (dividends, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube_express::catalogue::Content;
    use crate::cube_express::game::Game;
    use crate::cube_express::options::Options;

    /// Every action of random games, in the plan's words and in the short form, reads back as
    /// the action itself.
    #[test]
    fn the_printed_words_read_back_as_the_action() {
        use rand::SeedableRng;
        let content = std::sync::Arc::new(Content::house());
        let mut checked = 0;
        for seed in 0..12 {
            let mut game =
                Game::new(content.clone(), 2 + (seed as usize % 3), seed, Options::default()).expect("setup");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..250 {
                let Some(a) = game.random_action(&mut rng) else { break };
                for words in [game.describe(&a), a.to_string()] {
                    assert_eq!(parse_action(&words), Ok(a), "{words}");
                }
                checked += 1;
                game.apply(&a).expect("legal");
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn words_that_name_no_action_are_refused_saying_what_was_expected() {
        let e = parse_action("jump to [1, 1]").expect_err("refused");
        assert!(e.contains("\"jump to [1, 1]\"") && e.contains("the first locomotive moves to"), "{e}");
        assert!(parse_action("locomotive 2 moves to [0, 0]").is_err());
        assert!(parse_action("the third locomotive moves to [0, 0]").is_err());
        assert!(parse_action("take the tile in display column 7").is_err());
        assert!(parse_action("take the tile in the fifth display column").is_err());
    }

    /// The older words, which numbered locomotives and columns from 0, read as the same actions.
    #[test]
    fn the_older_words_read_as_the_same_actions() {
        let same = |old: &str, new: &str| assert_eq!(parse_action(old), parse_action(new), "{old} / {new}");
        same("locomotive 1 moves to [2, 3]", "the second locomotive moves to [2, 3]");
        same("take the tile in display column 0", "take the tile in the first display column");
        same("deliver (objective cube to column 2)", "deliver (objective cube to the third column's card)");
        assert_eq!(
            parse_action("the second locomotive moves to [2, 3]").map(|a| a.to_string()).as_deref(),
            Ok("the second locomotive moves to [2, 3]")
        );
    }
}
