//! `signalbox coe play --table`: a game played at the table entered as it happens. signalbox
//! never rolls or shuffles: it asks for each card as it comes up and each roll as it is rolled,
//! and takes the moves in the words it prints (or a menu number). The record holds only what the
//! table saw (docs/formats/coe-records.md, "A game from the table").

use std::str::FromStr as _;

use signalbox_engine::coe::{Catalogue, Chance, Game, Instance, Move, Record, Rules, rank_of};

use crate::table::{Ask, TableGame};

/// A Cubes of Europe game at the table: its record, always one that replays.
pub struct CoeTable<'c> {
    catalogue: &'c Catalogue,
    record: Record,
}

/// The parts of a table instance as seen so far, to be added to and made again.
struct Parts {
    seed: Option<u64>,
    board: u8,
    deck: Vec<u8>,
    reshuffle: Vec<u8>,
    dice: Vec<[u8; 2]>,
}

impl Parts {
    fn of(i: &Instance) -> Parts {
        let seen = i.seen();
        Parts {
            seed: i.seed,
            board: i.board,
            deck: i.deck[..seen.deck.min(i.deck.len())].to_vec(),
            reshuffle: i.reshuffle[..seen.reshuffle.min(i.reshuffle.len())].to_vec(),
            dice: i.dice[..seen.dice.min(i.dice.len())].to_vec(),
        }
    }

    fn instance(&self) -> Result<Instance, String> {
        Instance::table(self.seed, self.board, &self.deck, &self.reshuffle, &self.dice)
    }
}

impl<'c> CoeTable<'c> {
    /// A new game at the table on the board card `board`: nothing else seen yet.
    pub fn new(catalogue: &'c Catalogue, board: u8, rules: Rules) -> Result<CoeTable<'c>, String> {
        let instance = Instance::table(None, board, &[], &[], &[])?;
        Ok(CoeTable { catalogue, record: Record::new(instance, rules, Vec::new()) })
    }

    /// A game at the table from a record (a table record, as this session saves it): it must
    /// replay.
    pub fn resume(catalogue: &'c Catalogue, record: Record, file: &str) -> Result<CoeTable<'c>, String> {
        if !record.instance.is_table() {
            return Err(format!(
                "{file}: field `instance`: it holds the whole future (every card and roll): a game dealt from a seed is played with `coe play --seed N`; a table record holds only the cards and rolls seen"
            ));
        }
        record.replay(catalogue, file).map_err(|e| e.to_string())?;
        Ok(CoeTable { catalogue, record })
    }

    fn game(&self) -> Result<Game<'_>, String> {
        self.record.replay(self.catalogue, "the game").map(|(g, _)| g).map_err(|e| e.to_string())
    }

    /// A card's id and name, as asked and printed: `7 (Rhine)`.
    fn card_words(&self, id: u8) -> String {
        match self.catalogue.card(id) {
            Some(card) => format!("{id} ({})", card.name),
            None => id.to_string(),
        }
    }

    /// The cards that may come up for `chance`, in increasing order.
    fn candidates(&self, game: &Game<'_>, chance: Chance) -> Vec<u8> {
        let parts = Parts::of(&self.record.instance);
        match chance {
            Chance::Deck { .. } => (1..=9).filter(|c| *c != parts.board && !parts.deck.contains(c)).collect(),
            Chance::Reshuffle { index } => {
                let mut left: Vec<u8> = game.second_deck().iter().skip(index).copied().collect();
                left.sort_unstable();
                left
            }
            Chance::Roll { .. } => Vec::new(),
        }
    }

    /// Takes the record with `parts` as its instance, if it still replays.
    fn with_parts(&mut self, parts: &Parts) -> Result<(), String> {
        let mut next = self.record.clone();
        next.instance = parts.instance()?;
        next.replay(self.catalogue, "the game").map_err(|e| e.to_string())?;
        self.record = next;
        Ok(())
    }

    /// The market and the dice as the table sees them: a card or a roll not yet told is `?`.
    fn status(&self, game: &Game<'_>) -> String {
        let parts = Parts::of(&self.record.instance);
        let dice = if game.unseen().is_some() || !game.is_started() {
            "dice not rolled yet".to_string()
        } else {
            super::play::dice_text(game)
        };
        // A card in the market is told when it came up in the pass now in play.
        let card = |id: Option<u8>| match id {
            Some(id) if (if game.is_reshuffled() { &parts.reshuffle } else { &parts.deck }).contains(&id) => {
                let squares: Vec<String> = self.catalogue.card(id).map_or_else(Vec::new, |c| {
                    c.market.central.iter().map(|s| format!("{}:{}", s.face, s.colour)).collect()
                });
                format!("{} [{}]", self.card_words(id), squares.join(" "))
            }
            Some(_) => "?".to_string(),
            None => "none".to_string(),
        };
        let [top, discard] = game.market();
        let inventory: Vec<String> = signalbox_engine::coe::Colour::ALL
            .iter()
            .filter(|c| game.inventory()[c.index()] > 0)
            .map(|c| format!("{} {c}", game.inventory()[c.index()]))
            .collect();
        format!(
            "turn {} · {dice} · workers {} · inventory {} · market: card 0 (the deck's top) {}, card 1 (the discard's top) {} · score so far {}",
            game.turn() + 1,
            game.workers(),
            if inventory.is_empty() { "empty".into() } else { inventory.join(", ") },
            card(top),
            card(discard),
            game.score().total()
        )
    }
}

/// Reads a roll: two numbers 1 to 6 (`3 5`, `3,5`, `roll 3 5`).
fn parse_roll(line: &str) -> Result<[u8; 2], String> {
    let t = line.trim().to_lowercase();
    let t = t.strip_prefix("roll").unwrap_or(&t);
    let parts: Vec<&str> = t.split([',', ' ']).filter(|p| !p.is_empty()).collect();
    let dice: Vec<u8> = parts.iter().filter_map(|p| p.parse::<u8>().ok()).collect();
    match dice[..] {
        [a, b] if parts.len() == 2 && (1..=6).contains(&a) && (1..=6).contains(&b) => Ok([a, b]),
        _ => Err(format!("`{}` is not a roll: a roll is two dice, each 1 to 6, e.g. `3 5`", line.trim())),
    }
}

impl TableGame for CoeTable<'_> {
    fn record_json(&self) -> String {
        self.record.to_json_in_words()
    }

    fn board(&self) -> String {
        match self.game() {
            Ok(game) => format!("{}{}", super::play::draw(&game), self.status(&game)),
            Err(e) => e,
        }
    }

    fn ask(&self) -> Ask {
        let game = match self.game() {
            Ok(g) => g,
            Err(e) => return Ask { question: e, over: true, ..Ask::default() },
        };
        if let Some(chance) = game.unseen() {
            let question = match chance {
                Chance::Roll { turn } => {
                    format!("Turn {}: roll both dice and type them (two numbers 1 to 6, e.g. 3 5).", turn + 1)
                }
                Chance::Deck { .. } | Chance::Reshuffle { .. } => {
                    let cards: Vec<String> =
                        self.candidates(&game, chance).into_iter().map(|c| self.card_words(c)).collect();
                    format!("Which card came up: {chance}? Type its number or name: {}.", cards.join(", "))
                }
            };
            return Ask { question, show_board: matches!(chance, Chance::Roll { .. }), ..Ask::default() };
        }
        if game.is_over() {
            return Ask { over: true, ..Ask::default() };
        }
        let question = if game.is_started() {
            format!("Turn {} ({}): your move, in words or by number.", game.turn() + 1, super::play::dice_text(&game))
        } else {
            "Choose the start space: a yellow hex, in words or by number.".to_string()
        };
        let menu = game.legal_moves().iter().map(Move::to_string).collect();
        let turn_start = game.dice().iter().all(Option::is_some) && game.pending().is_none();
        Ask { question, menu, over: false, show_board: turn_start }
    }

    fn enter(&mut self, line: &str) -> Result<String, String> {
        let game = self.game()?;
        if let Some(chance) = game.unseen() {
            let mut parts = Parts::of(&self.record.instance);
            return match chance {
                Chance::Roll { .. } => {
                    let roll = parse_roll(line).map_err(|e| format!("{e}; the table must tell {chance} first"))?;
                    parts.dice.push(roll);
                    self.with_parts(&parts)?;
                    Ok(format!("rolled {} and {}", roll[0], roll[1]))
                }
                Chance::Deck { .. } | Chance::Reshuffle { .. } => {
                    let candidates = self.candidates(&game, chance);
                    let typed = line.trim();
                    let id = typed.parse::<u8>().ok().or_else(|| {
                        (1..=9u8)
                            .find(|&c| self.catalogue.card(c).is_some_and(|card| card.name.eq_ignore_ascii_case(typed)))
                    });
                    let Some(id) = id else {
                        return Err(format!(
                            "`{typed}` is not a card: type the number (1 to 9) or the name of the card that came up, {chance}"
                        ));
                    };
                    if !candidates.contains(&id) {
                        let why = if id == parts.board {
                            "it is the board card, which never comes up".to_string()
                        } else if !(1..=9).contains(&id) {
                            "the cards are numbered 1 to 9".to_string()
                        } else {
                            "it cannot come up now: each card comes up once a pass, and after the reshuffle only the cards then in the market piles come up (the rulebook's \"End of Turn\")".to_string()
                        };
                        let cards: Vec<String> = candidates.iter().map(|&c| self.card_words(c)).collect();
                        return Err(format!("card {id}: {why}; it is one of {}", cards.join(", ")));
                    }
                    match chance {
                        Chance::Deck { .. } => parts.deck.push(id),
                        _ => parts.reshuffle.push(id),
                    }
                    self.with_parts(&parts)?;
                    Ok(format!("card {} came up", self.card_words(id)))
                }
            };
        }
        if game.is_over() {
            return Err("the game is over".into());
        }
        let mv = Move::from_str(line).map_err(|e| e.to_string())?;
        let mut next = game.clone();
        next.play(mv).map_err(|e| e.to_string())?;
        self.record.moves.push(mv);
        Ok(mv.to_string())
    }

    fn undo(&mut self) -> Result<String, String> {
        let parts = Parts::of(&self.record.instance);
        // What the table had seen before the last move was made: a card or roll told after it
        // is the last step, taken back first (the roll, then the cards, as they came).
        let mut before = self.record.clone();
        let last = before.moves.pop();
        let shown = before.replay(self.catalogue, "the game").map_err(|e| e.to_string())?.0.revealed();
        let mut parts = parts;
        let taken = if parts.dice.len() > shown.dice {
            parts.dice.pop().map(|r| format!("the roll {} and {}", r[0], r[1]))
        } else if parts.reshuffle.len() > shown.reshuffle && last.is_some() {
            parts.reshuffle.pop().map(|c| format!("card {} coming up", self.card_words(c)))
        } else if parts.deck.len() > shown.deck || (last.is_none() && !parts.deck.is_empty()) {
            parts.deck.pop().map(|c| format!("card {} coming up", self.card_words(c)))
        } else {
            None
        };
        if let Some(words) = taken {
            self.with_parts(&parts)?;
            return Ok(words);
        }
        match last {
            Some(mv) => {
                self.record.moves.pop();
                Ok(mv.to_string())
            }
            None => Err("nothing to take back".into()),
        }
    }

    fn help(&self) -> String {
        format!(
            "Moves, in the words signalbox prints: {}.\n\
             When a card comes up, type its number or its name; when you roll, type both dice (`3 5`).",
            signalbox_engine::coe::words::FORMS.trim_start_matches("expected one of ")
        )
    }

    fn summary(&self) -> String {
        match self.game() {
            Ok(game) if game.is_over() => {
                let score = game.score().total();
                format!("Game over after {} turns: score {score} ({})", game.turn(), rank_of(score))
            }
            Ok(game) => format!("Stopped in turn {}: score so far {}", game.turn() + 1, game.score().total()),
            Err(e) => e,
        }
    }
}
