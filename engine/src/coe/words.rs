//! Moves in words: a record may write a move as the text `coe solve` and `coe play` print for it
//! (`second die as 4: place on hex 7`), as well as the JSON object (`docs/formats/coe-records.md`).
//!
//! The words are read as [`Move`]'s `Display` writes them, with any case and spacing, and in the
//! older words that numbered the dice, the cards and the squares from 0 (`die 1 as 4: gain red
//! (card 0, square 1)` is `second die as 4: gain red (deck card, square 2)`); a die's
//! use names the number it is turned to (`as 4`), since a move is the same whatever the die
//! showed. A line of `coe solve`'s turn-by-turn text holds several moves joined by `; `: each is
//! one entry of a record's `moves`. The `tuck ...` notes of that text are not moves (tucks happen
//! by themselves) and are refused with that reason.

use std::str::FromStr;

use super::colour::Colour;
use super::game::Move;

/// Why a text is not a move, with what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a move: {expected}")]
pub struct NotAMove {
    /// The text as given.
    pub text: String,
    /// What was expected instead.
    pub expected: String,
}

/// The forms a move takes in words, for messages.
pub const FORMS: &str = "expected one of `start on hex H`, `first die as F: gain COLOUR (deck card, square S)` \
(or `discard card`; squares 1 to 3 from the top), `second die as F: place on hex H`, `first die: gain a \
worker` (an `as F` may be followed by `(free shift)` or `(no free shift)`), `red: place on hex H`, \
`white: gain COLOUR`, `return COLOUR`, `pass`";

impl FromStr for Move {
    type Err = NotAMove;

    /// Reads a move in the words its `Display` writes.
    fn from_str(text: &str) -> Result<Move, NotAMove> {
        let fail = |expected: &str| NotAMove { text: text.to_owned(), expected: expected.to_owned() };
        let t = text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
        let number = |s: &str, what: &str| -> Result<u8, NotAMove> {
            s.trim().parse::<u8>().map_err(|_| fail(&format!("{what}: expected a number, got `{}`", s.trim())))
        };
        let colour = |s: &str| -> Result<Colour, NotAMove> {
            let s = s.trim();
            Colour::ALL
                .into_iter()
                .find(|c| c.name() == s)
                .ok_or_else(|| fail(&format!("`{s}` is not a colour (red, blue, green, white, yellow)")))
        };
        if t == "pass" {
            return Ok(Move::Pass);
        }
        if t.starts_with("tuck ") {
            return Err(fail("a tuck happens by itself at the end of the turn; leave it out of the moves"));
        }
        if let Some(rest) = t.strip_prefix("start on hex ") {
            return Ok(Move::Start { hex: number(rest, "the start hex")? });
        }
        if let Some(rest) = t.strip_prefix("return ") {
            return Ok(Move::Return { colour: colour(rest)? });
        }
        if let Some(rest) = t.strip_prefix("white: gain ") {
            return Ok(Move::Take { colour: colour(rest)? });
        }
        if let Some(rest) = t.strip_prefix("red: place on hex ") {
            return Ok(Move::Chain { hex: number(rest, "red's hex")? });
        }
        // `first die ...` and `second die ...`, or the older `die 0 ...` and `die 1 ...`.
        let (named, rest) = if let Some(rest) = t.strip_prefix("first die") {
            (Some(0), rest)
        } else if let Some(rest) = t.strip_prefix("second die") {
            (Some(1), rest)
        } else if let Some(rest) = t.strip_prefix("die ") {
            (None, rest)
        } else {
            return Err(fail(FORMS));
        };
        let Some((head, action)) = rest.split_once(':') else {
            return Err(fail("a die's use is `first die ...: ` then what it does (a colon after the die)"));
        };
        let head = head.trim();
        let (die, turned) = match named {
            Some(die) if head.is_empty() => (die, None),
            Some(die) => match head.strip_prefix("as ") {
                Some(turned) => (die, Some(turned.trim())),
                None => return Err(fail("a die's use is `first die as F: ...` or `first die: gain a worker`")),
            },
            None => match head.split_once(" as ") {
                Some((die, turned)) => (number(die, "the die")?, Some(turned.trim())),
                None => (number(head, "the die")?, None),
            },
        };
        let action = action.trim();
        if action == "gain a worker" {
            return match turned {
                None => Ok(Move::Worker { die }),
                Some(_) => Err(fail("a worker is gained with the die as it is: `first die: gain a worker`")),
            };
        }
        let Some(turned) = turned else {
            return Err(fail(
                "a die that gains or places a cube names the number it is turned to: `first die as F: ...`",
            ));
        };
        let (face, free_shift) = if let Some(face) = turned.strip_suffix("(free shift)") {
            (face, Some(true))
        } else if let Some(face) = turned.strip_suffix("(no free shift)") {
            (face, Some(false))
        } else {
            (turned, None)
        };
        let face = number(face, "the die's number")?;
        if let Some(hex) = action.strip_prefix("place on hex ") {
            return Ok(Move::Place { die, face, hex: number(hex, "the hex")?, free_shift });
        }
        if let Some(gain) = action.strip_prefix("gain ") {
            let Some((c, place)) = gain.split_once('(') else {
                return Err(fail("a gain names its card and square: `gain COLOUR (deck card, square S)`"));
            };
            let place = place.trim().strip_suffix(')').unwrap_or(place);
            let Some((card, square)) = place.split_once(',') else {
                return Err(fail("a gain names its card and square: `gain COLOUR (deck card, square S)`"));
            };
            let (card, square) = (card.trim(), square.trim());
            let square_number = square.strip_prefix("square ").ok_or_else(|| fail("expected `square S` (1 to 3)"))?;
            let (card, square) = match card {
                "deck card" => (0, number(square_number, "the square")?.checked_sub(1)),
                "discard card" => (1, number(square_number, "the square")?.checked_sub(1)),
                _ => {
                    let card =
                        card.strip_prefix("card ").ok_or_else(|| fail("expected `deck card` or `discard card`"))?;
                    (number(card, "the card")?, Some(number(square_number, "the square")?))
                }
            };
            let square = square.ok_or_else(|| fail("the squares are 1 to 3, from the top"))?;
            return Ok(Move::Gain { die, face, card, square, colour: colour(c)?, free_shift });
        }
        Err(fail(
            "a die places a cube (`place on hex H`), gains one (`gain COLOUR (deck card, square S)`) or gains a worker",
        ))
    }
}

/// One entry of a record's `moves`: a move in words or as an object.
pub(crate) struct Entry(pub(crate) Move);

impl<'de> serde::Deserialize<'de> for Entry {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Entry, D::Error> {
        use serde::de::Error as _;
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(text) => text.parse().map(Entry).map_err(D::Error::custom),
            value => Move::deserialize(value).map(Entry).map_err(D::Error::custom),
        }
    }
}

/// Reads a record's `moves`: each a move in words or as an object.
pub(crate) fn moves_in_words_or_objects<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<Move>, D::Error> {
    let entries: Vec<Entry> = serde::Deserialize::deserialize(deserializer)?;
    Ok(entries.into_iter().map(|e| e.0).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move a record can write reads back from its words, in any case and spacing.
    #[test]
    fn every_move_reads_back_from_its_words() {
        for mv in Move::every() {
            let text = mv.to_string();
            assert_eq!(text.parse::<Move>(), Ok(mv), "{text}");
            let shouted = format!("  {}  ", text.to_uppercase().replace(' ', "   "));
            assert_eq!(shouted.parse::<Move>(), Ok(mv), "{shouted}");
        }
    }

    /// The older words, which numbered the dice, cards and squares from 0, read as the same moves.
    #[test]
    fn the_older_words_read_as_the_same_moves() {
        let read = |t: &str| t.parse::<Move>().expect(t).to_string();
        assert_eq!(read("die 1 as 4: gain red (card 0, square 1)"), "second die as 4: gain red (deck card, square 2)");
        assert_eq!(
            read("die 0 as 2: gain green (card 1, square 0)"),
            "first die as 2: gain green (discard card, square 1)"
        );
        assert_eq!(read("die 0 as 5: place on hex 14"), "first die as 5: place on hex 14");
        assert_eq!(read("die 1: gain a worker"), "second die: gain a worker");
    }

    #[test]
    fn words_that_are_not_a_move_say_what_was_expected() {
        let err = |t: &str| t.parse::<Move>().expect_err(t).to_string();
        assert!(err("die 0: place on hex 7").contains("names the number it is turned to"));
        assert!(err("first die: place on hex 7").contains("names the number it is turned to"));
        assert!(err("first die as 3: gain red (deck card, square 0)").contains("1 to 3"));
        assert!(err("second die 3: place on hex 7").contains("first die as F"));
        assert!(err("tuck 1 Alps").contains("by itself"));
        assert!(err("white: gain purple").contains("not a colour"));
        assert!(err("move the train").contains("expected one of"));
        assert!(err("die x as 3: place on hex 2").contains("the die: expected a number"));
        assert!(err("die 0 as 3: gain red").contains("names its card and square"));
    }
}
