//! Moves in words: a record may write a move as the text `coe solve` and `coe play` print for it
//! (`die 1 as 4: place on hex 7`), as well as the JSON object (`docs/formats/coe-records.md`).
//!
//! The words are read as [`Move`]'s `Display` writes them, with any case and spacing; a die's
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
pub const FORMS: &str = "expected one of `start on hex H`, `die D as F: gain COLOUR (card C, square S)`, \
`die D as F: place on hex H`, `die D: gain a worker` (an `as F` may be followed by `(free shift)` or \
`(no free shift)`), `red: place on hex H`, `white: gain COLOUR`, `return COLOUR`, `pass`";

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
        let Some(rest) = t.strip_prefix("die ") else { return Err(fail(FORMS)) };
        let Some((head, action)) = rest.split_once(':') else {
            return Err(fail("a die's use is `die D ...: ` then what it does (a colon after the die)"));
        };
        let action = action.trim();
        let (die, turned) = match head.split_once(" as ") {
            Some((die, turned)) => (number(die, "the die")?, Some(turned.trim())),
            None => (number(head, "the die")?, None),
        };
        if action == "gain a worker" {
            return match turned {
                None => Ok(Move::Worker { die }),
                Some(_) => Err(fail("a worker is gained with the die as it is: `die D: gain a worker`")),
            };
        }
        let Some(turned) = turned else {
            return Err(fail("a die that gains or places a cube names the number it is turned to: `die D as F: ...`"));
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
                return Err(fail("a gain names its square: `gain COLOUR (card C, square S)`"));
            };
            let place = place.trim().strip_suffix(')').unwrap_or(place);
            let Some((card, square)) = place.split_once(',') else {
                return Err(fail("a gain names its square: `gain COLOUR (card C, square S)`"));
            };
            let card = card.trim().strip_prefix("card ").ok_or_else(|| fail("expected `card C` (0 or 1)"))?;
            let square = square.trim().strip_prefix("square ").ok_or_else(|| fail("expected `square S` (0 to 2)"))?;
            return Ok(Move::Gain {
                die,
                face,
                card: number(card, "the card")?,
                square: number(square, "the square")?,
                colour: colour(c)?,
                free_shift,
            });
        }
        Err(fail(
            "a die places a cube (`place on hex H`), gains one (`gain COLOUR (card C, square S)`) or gains a worker",
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

    #[test]
    fn words_that_are_not_a_move_say_what_was_expected() {
        let err = |t: &str| t.parse::<Move>().expect_err(t).to_string();
        assert!(err("die 0: place on hex 7").contains("names the number it is turned to"));
        assert!(err("tuck 1 Alps").contains("by itself"));
        assert!(err("white: gain purple").contains("not a colour"));
        assert!(err("move the train").contains("expected one of"));
        assert!(err("die x as 3: place on hex 2").contains("the die: expected a number"));
        assert!(err("die 0 as 3: gain red").contains("names its square"));
    }
}
