//! `signalbox railways play`: a game entered step by step. At the table (`--table`) signalbox
//! never rolls: it asks for each roll as it is rolled; from a seed (`--seed N`) it rolls the dice
//! itself. Moves are typed in the words the text output prints, in short forms, or by menu number;
//! the record holds what happened, in order (docs/formats/railways-position.md, "A game from the
//! table"; docs/rules/railways-express.md in docs/rules/railways-express.md, "At the table").

use std::sync::Arc;

use serde_json::json;
use signalbox_engine::railways::catalogue::{At, Content, offset_to_hex};
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::dice::{Die, Roll};
use signalbox_engine::railways::game::{Game, Illegal, Phase};
use signalbox_engine::railways::options::Options;
use signalbox_engine::railways::record::{Move, RecordSetup, replay_setup, roll_words};
use signalbox_engine::railways::terrain::TerrainFace;
use signalbox_engine::railways::track::{Ends, Side};

use crate::table::{Ask, TableGame};

/// A Railways Express game entered step by step: its record, always one that replays.
pub struct RailwaysTable {
    pub(crate) content: Arc<Content>,
    pub(crate) record: RecordSetup,
    pub(crate) game: Game,
    /// `Some(seed)`: signalbox rolls the dice from the seed; `None`: the table rolls them.
    pub(crate) dice: Option<u64>,
}

/// The record as a table session saves it: the set-up and every move in words, with no seed
/// (nothing the table has not seen).
pub fn record_text(record: &RecordSetup, seeded: bool) -> String {
    let turns: Vec<Vec<String>> = record.turns.iter().map(|t| t.iter().map(ToString::to_string).collect()).collect();
    let mut value = json!({"seats": record.seats, "options": record.options, "turns": turns});
    if seeded {
        value["seed"] = json!(record.seed);
    }
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}

/// Where the rulebook says why a step was refused, in words.
fn rule_of(e: &Illegal) -> &'static str {
    match e {
        Illegal::Phase(_) => "rulebook: General Play, roll, build, end the turn",
        Illegal::NoCube | Illegal::RerollDice | Illegal::Unrolled(_) => {
            "rulebook: Cubes, a cube re-rolls one or two dice"
        }
        Illegal::NoFace(_) => "rulebook: Description of Dice",
        Illegal::Slot(_) | Illegal::Kind { .. } => {
            "rulebook: 1. Roll All 4 Dice, each pair of dice builds the two tiles of its track die"
        }
        Illegal::Hex(_) => "rulebook: 2. Build Track Tiles, and the terrain die of the pair",
        Illegal::Unjoined(_) => {
            "rulebook: 2. Build Track Tiles, each tile touches your track or a city of your colour you have linked"
        }
        Illegal::Entry(_) => "rulebook: 2. Build Track Tiles, cities and their connections",
        Illegal::Supply(_) => "rulebook: Components, 231 track tiles",
    }
}

/// An engine refusal in words, with the rule.
fn refusal(e: &Illegal) -> String {
    format!("{e} ({})", rule_of(e))
}

/// Reads a roll as typed at the table: the four faces, track dice first (`ss sc p a`,
/// `SS,SC,plains,any`, or the six letters `ssscpa`), with or without `roll` in front.
pub fn parse_roll(line: &str) -> Result<Roll, String> {
    let t = line.trim().to_ascii_lowercase();
    let t = t.strip_prefix("roll").unwrap_or(&t).trim();
    let tokens: Vec<&str> = t.split([',', ' ', ';']).filter(|p| !p.is_empty()).collect();
    let joined: String = tokens.concat();
    let text = if tokens.len() == 4 {
        tokens.join(",")
    } else if joined.len() == 6 && joined.is_ascii() {
        format!("{},{},{},{}", &joined[0..2], &joined[2..4], &joined[4..5], &joined[5..6])
    } else {
        return Err(format!(
            "`{}` is not a roll: type the four dice, the two track dice (ss, cc, sc) then the two terrain dice (p, m, w, a), e.g. `ss sc p a` or `ssscpa` (rulebook: 1. Roll All 4 Dice)",
            line.trim()
        ));
    };
    text.parse::<Roll>().map_err(|e| format!("`{}` is not a roll: {e} (rulebook: Description of Dice)", line.trim()))
}

/// Reads a die as typed: `first track die`, `t1`, `second terrain die`, `g2`.
fn parse_die(text: &str) -> Option<Die> {
    let t = text.to_ascii_lowercase();
    let words: Vec<&str> = t.split_whitespace().filter(|w| *w != "die").collect();
    // `first track die`, `second terrain`; or a letter and its number from 1: `t1`, `g2`.
    match words.as_slice() {
        [n @ ("first" | "second"), kind] => {
            let n = u8::from(*n == "second");
            match *kind {
                "track" => Some(Die::Track(n)),
                "terrain" => Some(Die::Terrain(n)),
                _ => None,
            }
        }
        [short] => {
            let (kind, n) = short.split_at(short.find(|c: char| c.is_ascii_digit())?);
            let n = n.parse::<u8>().ok().filter(|n| (1..=2).contains(n))? - 1;
            match kind {
                "t" => Some(Die::Track(n)),
                "g" => Some(Die::Terrain(n)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Reads a build in short words: the sides, then the column and row (`e-w 5 4`, `ew 5,4`,
/// `e-w [5, 4]`), optionally `slot N` or `with slot N`.
fn parse_build(line: &str) -> Option<(Ends, [i32; 2], Option<u8>)> {
    let t = line.trim().to_ascii_lowercase();
    let t = t.strip_prefix("build").unwrap_or(&t).trim();
    let t = t.trim_start_matches("straight").trim_start_matches("curved").trim();
    let (t, slot) = match t.split_once("slot") {
        Some((head, n)) => (head.trim().trim_end_matches("with").trim(), Some(n.trim().parse::<u8>().ok()?)),
        None => (t, None),
    };
    let cleaned: String = t.chars().map(|c| if matches!(c, '[' | ']' | ',') { ' ' } else { c }).collect();
    let words: Vec<&str> = cleaned.split_whitespace().filter(|w| *w != "on").collect();
    let [sides, c, r] = words.as_slice() else { return None };
    let (c, r) = (c.parse::<i32>().ok()?, r.parse::<i32>().ok()?);
    let sides: Vec<Side> = if sides.contains('-') {
        sides.split('-').map(|s| Side::try_from(s.to_string())).collect::<Result<_, _>>().ok()?
    } else {
        split_sides(sides)?
    };
    let [a, b] = sides.as_slice() else { return None };
    Some((Ends::new(*a, *b)?, [c, r], slot))
}

/// Two sides written together without a dash (`ew`, `nesw`, `nee`): the one way to split them.
fn split_sides(s: &str) -> Option<Vec<Side>> {
    // Only at character boundaries: a typed word may hold any letter.
    (1..s.len()).filter(|&i| s.is_char_boundary(i)).find_map(|i| {
        let a = Side::try_from(s[..i].to_string()).ok()?;
        let b = Side::try_from(s[i..].to_string()).ok()?;
        Some(vec![a, b])
    })
}

impl RailwaysTable {
    /// A new game for `seats` in turn order: at the table (`dice` none) or rolled from a seed.
    pub fn new(
        content: Arc<Content>,
        seats: &[Colour],
        options: Options,
        dice: Option<u64>,
    ) -> Result<RailwaysTable, String> {
        if options.service_bounties && dice.is_none() {
            return Err("the Service Bounty cards are not yet entered at the table: play them from a seed (--seed N), or without them".into());
        }
        let record = RecordSetup { seats: seats.to_vec(), options, seed: dice.unwrap_or(0), turns: Vec::new() };
        RailwaysTable::resume(content, record, dice, "the new game")
    }

    /// A game from a record: it must replay. With `dice`, signalbox rolls from that seed.
    pub fn resume(
        content: Arc<Content>,
        record: RecordSetup,
        dice: Option<u64>,
        file: &str,
    ) -> Result<RailwaysTable, String> {
        if record.options.service_bounties && dice.is_none() {
            return Err(format!(
                "{file}: field `options.service_bounties`: the Service Bounty cards are not yet entered at the table: play them from a seed (--seed N)"
            ));
        }
        let game = replay_setup(content.clone(), file, &record).map_err(|e| e.to_string())?.game;
        let mut table = RailwaysTable { content, record, game, dice };
        table.settle()?;
        Ok(table)
    }

    /// The record as it stands.
    pub fn record(&self) -> &RecordSetup {
        &self.record
    }

    /// Plays `m`, checked by the engine, and adds it to the record.
    pub(crate) fn push(&mut self, m: Move) -> Result<(), String> {
        let starts = self.game.phase() == Phase::Roll;
        self.game.apply(&m.action()).map_err(|e| refusal(&e))?;
        if starts {
            self.record.turns.push(Vec::new());
        }
        if let Some(turn) = self.record.turns.last_mut() {
            turn.push(m);
        }
        Ok(())
    }

    /// The generator of roll `k` of record turn `turn` (0: the roll, then one per move before a
    /// re-roll), from the seed: the same whatever was typed before.
    fn dice_seed(&self, turn: usize, k: usize) -> u64 {
        let seed = self.dice.unwrap_or(0);
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add((turn as u64).wrapping_mul(64) + k as u64)
    }

    /// The steps nobody has to type: the end of a turn that no build is left to,
    /// and, from a seed, the roll. Their words, if any.
    fn settle(&mut self) -> Result<Vec<String>, String> {
        let mut said = Vec::new();
        loop {
            match self.game.phase() {
                Phase::Build { .. } if self.game.legal_builds().is_empty() => {
                    self.push(Move::End)?;
                    said.push("no build left: the turn ends".to_string());
                }
                Phase::Roll if self.dice.is_some() => {
                    let colour = self.colour();
                    let roll = Roll::seeded(&self.content.dice, self.dice_seed(self.record.turns.len(), 0));
                    self.push(Move::Roll { roll, player: Some(colour) })?;
                    said.push(format!("{colour} rolls {}", roll_words(roll)));
                }
                _ => return Ok(said),
            }
        }
    }

    fn colour(&self) -> Colour {
        self.game.players()[self.game.active()].colour
    }

    /// Whether the game may stop here for a line to be typed: not a turn with no build left,
    /// not (from a seed) a roll signalbox makes.
    fn stops(&self) -> bool {
        match self.game.phase() {
            Phase::Build { .. } => !self.game.legal_builds().is_empty(),
            Phase::Roll => self.dice.is_none(),
            _ => true,
        }
    }

    /// The build `line` names in short words, its slot found when not given: the first free slot
    /// of the tile's kind whose terrain die allows the hex.
    fn short_build(&self, line: &str) -> Option<Result<Move, String>> {
        let (ends, at, slot) = parse_build(line)?;
        let hex = offset_to_hex(at[0], at[1]);
        if let Some(slot) = slot {
            return Some(Ok(Move::Build { at, ends, slot }));
        }
        let mut first_error = None;
        // A slot whose terrain die names a terrain first, one showing any terrain last: the
        // any-terrain slot is kept for a build nothing else allows.
        let mut order: Vec<u8> = (0..4).collect();
        if let Some(slots) = self.game.slots() {
            order.sort_by_key(|&k| slots[usize::from(k)].0.terrain == TerrainFace::Any);
        }
        for k in order {
            match self.game.check_build(hex, ends, k) {
                Ok(()) => return Some(Ok(Move::Build { at, ends, slot: k })),
                Err(Illegal::Slot(_)) => {}
                Err(e @ Illegal::Kind { .. }) => {
                    first_error.get_or_insert(e);
                }
                Err(e) => {
                    if first_error.as_ref().is_none_or(|f| matches!(f, Illegal::Kind { .. })) {
                        first_error = Some(e);
                    }
                }
            }
        }
        let why = match first_error {
            Some(Illegal::Kind { ends, .. }) => format!(
                "no free slot of the pairing builds a {} tile ({})",
                ends.kind(self.game.options().curve).map_or("?".into(), |k| k.to_string()),
                rule_of(&Illegal::Slot(0))
            ),
            Some(e) => refusal(&e),
            None => "every slot of the pairing is used (rulebook: 1. Roll All 4 Dice)".into(),
        };
        Some(Err(format!("build {ends} on {}: {why}", At(hex))))
    }

    /// A re-roll as typed: `reroll` then the four dice after (the dice rolled again found from
    /// those that changed), or the dice, a colon and the four dice; from a seed, only the dice.
    fn reroll(&self, body: &str) -> Result<Move, String> {
        let Some(before) = self.game.roll() else { return Err("nothing rolled yet".into()) };
        let named = |text: &str| -> Result<Vec<Die>, String> {
            text.split(" and ")
                .flat_map(|p| p.split(','))
                .filter(|p| !p.trim().is_empty())
                .map(|p| {
                    parse_die(p.trim()).ok_or_else(|| {
                        format!("`{}` is not a die: the first or second track die (t1, t2), the first or second terrain die (g1, g2)", p.trim())
                    })
                })
                .collect()
        };
        if self.dice.is_some() {
            let dice = named(body)?;
            let turn = self.record.turns.len().saturating_sub(1);
            let seed = self.dice_seed(turn, self.record.turns.last().map_or(0, Vec::len));
            return Ok(Move::Reroll { roll: before.reroll_seeded(&self.content.dice, &dice, seed), dice });
        }
        let (dice, roll) = match body.split_once(':') {
            Some((dice, roll)) => (Some(named(dice)?), parse_roll(roll)?),
            None => (None, parse_roll(body)?),
        };
        let dice = match dice {
            Some(d) => d,
            None => {
                let mut changed = Vec::new();
                for i in 0..2u8 {
                    if before.track[usize::from(i)] != roll.track[usize::from(i)] {
                        changed.push(Die::Track(i));
                    }
                    if before.terrain[usize::from(i)] != roll.terrain[usize::from(i)] {
                        changed.push(Die::Terrain(i));
                    }
                }
                if changed.is_empty() {
                    return Err("no die changed: name the dice rolled again, e.g. `reroll t1: ss sc p a`".into());
                }
                changed
            }
        };
        Ok(Move::Reroll { dice, roll })
    }

    /// The line as a move of the phase now.
    pub(crate) fn read(&self, line: &str) -> Result<Move, String> {
        let t = line.trim().to_ascii_lowercase();
        let colour = self.colour();
        match self.game.phase() {
            Phase::Over => Err("the game is over".into()),
            Phase::Roll => {
                if let Some(rest) = t.strip_prefix(&format!("{colour} rolls")) {
                    return parse_roll(rest).map(|roll| Move::Roll { roll, player: Some(colour) });
                }
                if let Some((who, _)) = t.split_once(" rolls") {
                    return Err(format!(
                        "it is {colour}'s turn, not {who}'s: the dice pass to the left (rulebook: 3. End Your Turn)"
                    ));
                }
                parse_roll(&t).map(|roll| Move::Roll { roll, player: Some(colour) }).map_err(|e| {
                    if t.parse::<Move>().is_ok() || matches!(t.as_str(), "end" | "p" | "x") {
                        format!("not now: {colour} rolls the four dice first (rulebook: General Play)")
                    } else {
                        e
                    }
                })
            }
            Phase::Reroll => match t.as_str() {
                "p" | "pair" | "straight" | "pair straight" | "pair the dice straight" => {
                    Ok(Move::Pair { crossed: false })
                }
                "x" | "crossed" | "pair crossed" | "pair the dice crossed" => Ok(Move::Pair { crossed: true }),
                _ => {
                    if let Some(body) = t.strip_prefix("reroll").or_else(|| t.strip_prefix("re-roll")) {
                        return self.reroll(body.trim());
                    }
                    if t.starts_with("build") || parse_build(&t).is_some() || t == "end" {
                        return Err(format!(
                            "not now: pair the dice first, `pair straight` (p) or `pair crossed` (x) ({})",
                            rule_of(&Illegal::Slot(0))
                        ));
                    }
                    Err(format!(
                        "`{}` is not a step now: pair straight (p), pair crossed (x), or reroll (rulebook: Cubes)",
                        line.trim()
                    ))
                }
            },
            Phase::Build { .. } => {
                if matches!(t.as_str(), "end" | "end the turn" | ".") {
                    return Ok(Move::End);
                }
                if let Ok(m @ Move::Build { .. }) = t.parse::<Move>() {
                    return Ok(m);
                }
                match self.short_build(&t) {
                    Some(r) => r,
                    None => Err(format!(
                        "`{}` is not a move: a build is the sides and the hex, e.g. `e-w 5 4` (or `build e-w on [5, 4] with slot 0`); `end` ends the turn",
                        line.trim()
                    )),
                }
            }
        }
    }

    fn status(&self) -> String {
        let g = &self.game;
        let mut out = String::new();
        let colour = self.colour();
        let turn = g.turns() + 1;
        let dice = match (g.phase(), g.roll()) {
            (Phase::Over, _) => "the game is over".to_string(),
            (_, None) => "dice not rolled yet".to_string(),
            (Phase::Build { .. }, Some(_)) => {
                let slots: Vec<String> = g
                    .slots()
                    .map(|s| {
                        s.iter()
                            .enumerate()
                            .map(|(i, (slot, used))| {
                                format!(
                                    "slot {i}: {} on {}{}",
                                    slot.kind,
                                    slot.terrain,
                                    if *used { " (used)" } else { "" }
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                slots.join(", ")
            }
            (_, Some(roll)) => format!("rolled {}", roll_words(roll)),
        };
        out.push_str(&format!("Turn {turn} · {colour} to play · {dice}\n"));
        for p in g.players() {
            let own = self.content.cities_of(p.colour).iter().filter(|c| p.linked.contains(c)).count();
            let linked: Vec<&str> = p.linked.iter().map(|&c| self.content.cities[c].name.as_str()).collect();
            let tiles = g.tiles().iter().filter(|t| t.owner == p.colour).count();
            let last = g
                .tiles()
                .iter()
                .rev()
                .find(|t| t.owner == p.colour)
                .map(|t| format!(", last tile {} {}", t.ends, At(t.hex)));
            out.push_str(&format!(
                "  {:<7} {own} of 4 own cities, {} cubes, {tiles} tiles{}; linked: {}\n",
                p.colour,
                p.cubes,
                last.unwrap_or_default(),
                linked.join(", ")
            ));
        }
        let s = g.supply();
        out.push_str(&format!("  supply: {} straight, {} curved, {} crossing", s.straight, s.curved, s.crossing));
        out
    }
}

impl TableGame for RailwaysTable {
    fn record_json(&self) -> String {
        record_text(&self.record, self.dice.is_some())
    }

    fn board(&self) -> String {
        self.status()
    }

    fn ask(&self) -> Ask {
        let g = &self.game;
        let colour = self.colour();
        match g.phase() {
            Phase::Over => Ask { over: true, ..Ask::default() },
            Phase::Roll => Ask {
                question: format!(
                    "Turn {}: {colour} rolls the four dice; type them, track dice then terrain dice (e.g. `ss sc p a`).",
                    g.turns() + 1
                ),
                show_board: true,
                ..Ask::default()
            },
            Phase::Reroll => {
                let roll = g.roll().unwrap_or(Roll {
                    track: [self.content.dice.track[0]; 2],
                    terrain: [self.content.dice.terrain[0]; 2],
                });
                let pairs = |crossed: bool| {
                    let [(a, b), (c, d)] = roll.pairs(crossed);
                    format!("{a} on {b}, {c} on {d}")
                };
                let cubes = g.players()[g.active()].cubes;
                let reroll = if cubes > 0 {
                    format!(
                        "; or spend a cube ({cubes} in hand): `reroll` and the dice as they lie after{}",
                        if self.dice.is_some() { "" } else { " (e.g. `reroll ss cc p w`)" }
                    )
                } else {
                    String::new()
                };
                Ask {
                    question: format!(
                        "{colour} rolled {}: pair straight (p: {}) or crossed (x: {}){reroll}.",
                        roll_words(roll),
                        pairs(false),
                        pairs(true)
                    ),
                    menu: vec!["pair straight".into(), "pair crossed".into()],
                    ..Ask::default()
                }
            }
            Phase::Build { .. } => {
                let mut menu: Vec<String> =
                    g.legal_builds().iter().map(|a| Move::from_action(&self.content, a).to_string()).collect();
                menu.push("end".into());
                Ask {
                    question: format!("{colour} builds: the sides and the hex (`e-w 5 4`), a number, or `end`."),
                    menu,
                    ..Ask::default()
                }
            }
        }
    }

    fn enter(&mut self, line: &str) -> Result<String, String> {
        let m = self.read(line)?;
        let before = (self.record.clone(), self.game.clone());
        self.push(m.clone())?;
        match self.settle() {
            Ok(said) => {
                let mut words = vec![m.to_string()];
                words.extend(said);
                Ok(words.join("; "))
            }
            Err(e) => {
                (self.record, self.game) = before;
                Err(e)
            }
        }
    }

    fn undo(&mut self) -> Result<String, String> {
        let mut taken = Vec::new();
        let mut record = self.record.clone();
        while let Some(turn) = record.turns.last_mut() {
            let Some(m) = turn.pop() else { break };
            if turn.is_empty() {
                record.turns.pop();
            }
            taken.push(m.to_string());
            let game = replay_setup(self.content.clone(), "the game", &record).map_err(|e| e.to_string())?.game;
            let next = RailwaysTable { content: self.content.clone(), record: record.clone(), game, dice: self.dice };
            if next.stops() {
                *self = next;
                return Ok(taken.join("; "));
            }
        }
        Err("nothing to take back".into())
    }

    fn help(&self) -> String {
        "A roll: the two track dice (ss, cc, sc) then the two terrain dice (p plains, m mountain, w water, a any): `ss sc p a` or `ssscpa`.\n\
         Pairing: `pair straight` (p: first track die with first terrain die) or `pair crossed` (x: first track die with second terrain die).\n\
         A re-roll with a cube: `reroll` and the four dice as they lie after (`reroll ss cc p w`), or the dice rolled again first (`reroll t1 and g2: ss cc p w`).\n\
         A build: the two sides the track joins and the hex's column and row (`e-w 5 4`), the slot found for you; or in full, `build e-w on [5, 4] with slot 0`.\n\
         `end` ends the turn; a turn with no build left ends by itself."
            .into()
    }

    fn summary(&self) -> String {
        let g = &self.game;
        if g.is_over() {
            let winners: Vec<&str> = g.winners().iter().map(|c| c.name()).collect();
            format!(
                "Game over after {} turns: {}",
                g.turns(),
                match winners.as_slice() {
                    [] => "no winner".to_string(),
                    [w] => format!("{w} wins"),
                    many => format!("{} share the victory", many.join(", ")),
                }
            )
        } else {
            let near: Vec<String> = g
                .players()
                .iter()
                .map(|p| {
                    let own = self
                        .content
                        .cities_of(p.colour)
                        .iter()
                        .filter(|c| p.linked.contains(c) && self.content.cities[**c].colour != CityColour::Gray)
                        .count();
                    format!("{} {own} of 4", p.colour)
                })
                .collect();
            format!("Stopped in turn {}: own cities linked {}", g.turns() + 1, near.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_forms_read() {
        assert_eq!(parse_roll("ss sc p a").map(roll_words), Ok("SS,SC,plains,any".into()));
        assert_eq!(parse_roll("ssscpa").map(roll_words), Ok("SS,SC,plains,any".into()));
        assert!(parse_roll("xx").is_err());
        let (ends, at, slot) = parse_build("e-w 5 4").expect("a build");
        assert_eq!((ends.to_string(), at, slot), ("e-w".into(), [5, 4], None));
        let (ends, at, slot) = parse_build("build nesw [5, 4] slot 2").expect("a build");
        assert_eq!((ends.to_string(), at, slot), ("ne-sw".into(), [5, 4], Some(2)));
        assert_eq!(parse_die("t1"), Some(Die::Track(0)));
        assert_eq!(parse_die("g2"), Some(Die::Terrain(1)));
        assert_eq!(parse_die("t0"), None);
        assert_eq!(parse_die("first terrain die"), Some(Die::Terrain(0)));
        assert_eq!(parse_die("Second Track"), Some(Die::Track(1)));
    }
}
