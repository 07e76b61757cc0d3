//! `signalbox express01 play --table`: a game played at the table, entered as it happens.
//! signalbox never shuffles: each deck's face-down cards lie in an order nobody has seen, and
//! when a card is drawn from them (a receiver of a bonus payment, the West's card) it asks which
//! card came. Moves are typed in the words signalbox prints, or by menu number. The record holds
//! only what the table saw (docs/formats/express01-record.md, "A game from the table"; rulings
//! T1-T3 of docs/rules/express-01.md).

use signalbox_engine::express01::card::CardNumber;
use signalbox_engine::express01::game::{Game, Phase, Step};
use signalbox_engine::express01::position::{Position, PositionSetup};
use signalbox_engine::express01::record::{self, Record, Recorder};
use signalbox_render::express01::text;
use signalbox_solver::express01::selfplay::BestRoute;

use crate::table::{Ask, TableGame};

/// A menu longer than this lists every step but the builds, which are typed.
const MENU_LIMIT: usize = 30;

/// An Express 01 game at the table: the start, every step entered (the game before it and its
/// words), and a draw chosen whose card is still to be told.
pub struct Express01Table<'c> {
    start: PositionSetup,
    note: Option<String>,
    steps: Vec<(Game<'c>, Step, Option<CardNumber>)>,
    game: Game<'c>,
    /// A draw from face-down cards chosen, its card not told yet.
    pending: Option<Step>,
}

impl<'c> Express01Table<'c> {
    /// A game at the table from its start (a table position, docs/rules/express-01.md).
    pub fn new(catalogue: &'c signalbox_engine::express01::Catalogue, start: PositionSetup) -> Result<Self, String> {
        let position = Position::from_setup(start.clone(), catalogue).map_err(|e| {
            let problems: Vec<String> = e.problems.iter().map(ToString::to_string).collect();
            format!("not a legal start: {}", problems.join("; "))
        })?;
        let game = Game::from_position(&position).map_err(|e| e.to_string())?;
        Ok(Express01Table {
            start,
            note: Some("played at the table (signalbox express01 play --table)".into()),
            steps: Vec::new(),
            game,
            pending: None,
        })
    }

    /// A game at the table from a table record (as `express01 new --table` writes it or a table
    /// session saves it); `file` names it in messages. The record is replayed with every rule
    /// checked first.
    pub fn resume(
        catalogue: &'c signalbox_engine::express01::Catalogue,
        record: &Record,
        file: &str,
    ) -> Result<Self, String> {
        let start = match (&record.position, &record.start) {
            (Some(p), None) if p.table => p.clone(),
            _ => {
                return Err(format!(
                    "{file}: field `position`: not a game from the table (`\"table\": true`); a game dealt from a seed is played with `express01 play --seed N`"
                ));
            }
        };
        record::replay(file, record, catalogue, &BestRoute, &mut |_, _| {}).map_err(|e| e.to_string())?;
        let mut table = Express01Table::new(catalogue, start)?;
        table.note.clone_from(&record.note);
        for turn in &record.turns {
            for text in &turn.steps {
                table.apply(text).map_err(|e| format!("{file}: `{text}`: {e}"))?;
            }
        }
        Ok(table)
    }

    /// The record as it stands: the start, each step in words (a draw with the card told).
    pub fn record(&self) -> Record {
        let mut recorder = Recorder::from_position(self.start.clone(), self.note.clone());
        for (before, step, told) in &self.steps {
            recorder.step_told(before, *step, *told);
        }
        recorder.finish(&self.game)
    }

    /// Plays a step typed in words, a draw with its card told or not.
    fn apply(&mut self, text: &str) -> Result<String, String> {
        let (step, told) = self.game.parse_told(text)?;
        self.play(step, told)
    }

    /// Checks and plays `step`; a draw from face-down cards needs the card `told`, or waits for it.
    fn play(&mut self, step: Step, told: Option<CardNumber>) -> Result<String, String> {
        self.game.check(step, &BestRoute).map_err(|e| e.to_string())?;
        let mut next = self.game.clone();
        if let (Step::Draw(d), Some(card)) = (step, told) {
            next.reveal(d, card).map_err(|e| e.to_string())?;
        } else if self.game.draws_unseen(step) {
            self.pending = Some(step);
            return Ok(format!("{}: which card came?", self.game.describe(step)));
        }
        let told = told.filter(|_| self.game.draws_unseen(step));
        let words = self.game.describe_told(step, told);
        next.play_unchecked(step);
        let before = std::mem::replace(&mut self.game, next);
        self.steps.push((before, step, told));
        self.pending = None;
        Ok(words)
    }

    /// The menu of legal steps in words: all of them, or, when many, all but the builds.
    fn menu(&self) -> (Vec<String>, bool) {
        let legal = self.game.legal(&BestRoute);
        let long = legal.len() > MENU_LIMIT;
        let menu =
            legal.iter().filter(|s| !long || !matches!(s, Step::Build(_))).map(|&s| self.game.describe(s)).collect();
        (menu, long)
    }

    fn capitals(&self) -> String {
        let g = &self.game;
        (0..g.seats().len())
            .map(|p| format!("{} {}", g.seats()[p].name, g.capital(p).total()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl TableGame for Express01Table<'_> {
    fn record_json(&self) -> String {
        serde_json::to_string_pretty(&self.record()).unwrap_or_default() + "\n"
    }

    fn board(&self) -> String {
        let g = &self.game;
        let hands: Vec<String> = (0..g.seats().len()).map(|p| text::hand(g, p)).collect();
        format!(
            "Round {}, turn {}: {} to move\n{}{}",
            g.round(),
            g.turn(),
            g.seats()[g.mover()].name,
            text::table(g),
            hands.join("\n")
        )
    }

    fn ask(&self) -> Ask {
        let g = &self.game;
        if let Some(Step::Draw(d)) = self.pending {
            let could: Vec<String> = g.could_come(d).iter().map(ToString::to_string).collect();
            return Ask {
                question: format!(
                    "{} draws from {}, face down: which card came? Type its number: one of {}.",
                    g.seats()[g.decider()].name,
                    g.decks()[d].name,
                    could.join(" ")
                ),
                ..Ask::default()
            };
        }
        if g.is_over() {
            return Ask { over: true, ..Ask::default() };
        }
        let (menu, long) = self.menu();
        let question = format!(
            "{} chooses: {}{}",
            g.seats()[g.decider()].name,
            g.expecting(),
            if long { " (the builds are typed: build CARD on CELL [turned])" } else { "" }
        );
        Ask { question, menu, over: false, show_board: *g.phase() == Phase::Pair }
    }

    fn enter(&mut self, line: &str) -> Result<String, String> {
        if let Some(step) = self.pending {
            let typed = line.trim();
            let typed = typed.strip_prefix("card").map_or(typed, str::trim);
            let card = typed.parse::<u16>().map(CardNumber).map_err(|_| {
                format!("`{}` is not a card number: type the number of the card that came (or undo)", line.trim())
            })?;
            return self.play(step, Some(card));
        }
        if self.game.is_over() {
            return Err("the game is over".into());
        }
        self.apply(line)
    }

    fn undo(&mut self) -> Result<String, String> {
        if let Some(step) = self.pending.take() {
            return Ok(self.game.describe(step));
        }
        let (before, step, told) = self.steps.pop().ok_or("nothing to take back")?;
        // A card told for a draw is taken back first; the draw then waits for it again.
        let words = match (step, told) {
            (Step::Draw(d), Some(card)) => {
                self.pending = Some(step);
                format!("card {card} drawn from {}", before.decks()[d].name)
            }
            _ => before.describe(step),
        };
        self.game = before;
        Ok(words)
    }

    fn help(&self) -> String {
        "Steps, in the words signalbox prints: A+B, B+A, C+D (the action pair); pay 236, pay engine; build 501 on 009 [turned]; \
         buy red, then pay ..., then take 103 or take 103 from NAME; bonus red pays 5 [with engine]; draw route-blue; \
         swap NAME; done.\nWhen a card is drawn from face-down cards, type the number of the card that came (`212`), \
         or give it with the draw: `draw route-blue 212`."
            .to_string()
    }

    fn summary(&self) -> String {
        let g = &self.game;
        if g.is_over() {
            let winners: Vec<&str> = g.winners().iter().map(|&p| g.seats()[p].name.as_str()).collect();
            format!("Game over after round {}: capital {}; winner: {}", g.round(), self.capitals(), winners.join(", "))
        } else {
            format!("Stopped in round {}, turn {}: capital {}", g.round(), g.turn(), self.capitals())
        }
    }
}
