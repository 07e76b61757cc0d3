//! The readable form of a step, as records and the terminal game write and read it
//! (`docs/formats/express01-record.md`):
//!
//! | step | text |
//! |---|---|
//! | the action pair | `A+B`, `B+A`, `C+D` |
//! | pay a card's worth | `pay 236`, `pay engine` |
//! | an upgrade | `build 501 on 009`, `build 501 on 009 turned`, `build 101 on 012 depth 3` |
//! | a share | `buy red`, then `pay ...`, then `take 103` or `take 103 from Martina` |
//! | the bonus payment | `bonus red pays 5`, `bonus red pays 5 with engine` |
//! | a card drawn | `draw route-blue by Martina` (`by` is optional and checked); at the table, with the card that came: `draw route-blue 212 by Martina` |
//! | the turn order | `swap Martina` |
//! | end an action, or decline | `done` |
//!
//! Cells are named by their base card's number; `depth N` picks the copy of a card N cards
//! below the top of its deck, and is written only when it is not the topmost copy.

use super::card::CardNumber;
use super::game::{Build, Game, Pair, Source, Spend, Step};

impl<'c> Game<'c> {
    /// Each of `steps` in the readable form, as it reads when it is played from this game, and
    /// the game after them. The steps are played without checks: give a line the engine has
    /// played or searched.
    pub fn describe_steps(&self, steps: &[Step]) -> (Vec<String>, Game<'c>) {
        let mut g = self.clone();
        let words = steps
            .iter()
            .map(|&s| {
                let text = g.describe(s);
                g.play_unchecked(s);
                text
            })
            .collect();
        (words, g)
    }

    /// The step in the readable form, as it reads in the game's present state.
    pub fn describe(&self, step: Step) -> String {
        let cell_name =
            |cell: usize| self.map().cells.get(cell).map_or_else(|| format!("#{cell}"), |c| c.base.to_string());
        let depth_note = |card: CardNumber, depth: usize| {
            if self.topmost(card) == Some(depth) { String::new() } else { format!(" depth {depth}") }
        };
        match step {
            Step::Pair(p) => p.name().to_string(),
            Step::Pay(Spend::Card(n)) => format!("pay {n}"),
            Step::Pay(Spend::Engine) => "pay engine".into(),
            Step::Build(b) => format!(
                "build {} on {}{}{}",
                b.card,
                cell_name(b.cell),
                if b.turned { " turned" } else { "" },
                depth_note(b.card, b.depth)
            ),
            Step::Buy(c) => format!("buy {}", self.company_name(c)),
            Step::Take(Source::Deck { card, depth }) => format!("take {card}{}", depth_note(card, depth)),
            Step::Take(Source::Player { player, card }) => format!("take {card} from {}", self.seats()[player].name),
            Step::Bonus { company, engine, payout } => format!(
                "bonus {} pays {payout}{}",
                self.company_name(company),
                if engine { " with engine" } else { "" }
            ),
            Step::Draw(d) => {
                format!("draw {} by {}", self.decks().get(d).map_or("?", |d| d.name), self.seats()[self.decider()].name)
            }
            Step::Swap(p) => format!("swap {}", self.seats().get(p).map_or("?", |s| s.name.as_str())),
            Step::Done => "done".into(),
        }
    }

    /// The step in the readable form with the card a draw brought, as a record of a game from the
    /// table writes it (`draw route-blue 212 by Martina`); other steps as [`Game::describe`].
    pub fn describe_told(&self, step: Step, told: Option<CardNumber>) -> String {
        match (step, told) {
            (Step::Draw(d), Some(card)) => format!(
                "draw {} {card} by {}",
                self.decks().get(d).map_or("?", |d| d.name),
                self.seats()[self.decider()].name
            ),
            _ => self.describe(step),
        }
    }

    /// The depth of the topmost copy of `card` in its deck.
    fn topmost(&self, card: CardNumber) -> Option<usize> {
        let kind = self.catalogue().card(card)?;
        let deck = self.decks().iter().find(|d| d.kind == kind.kind && d.stage == kind.stage)?;
        deck.cards.iter().rev().position(|&c| c == card)
    }

    /// Reads a step in the readable form; the message says what was expected. A draw that tells
    /// its card (`draw route-blue 212`) is read by [`Game::parse_told`].
    pub fn parse_step(&self, text: &str) -> Result<Step, String> {
        match self.parse_told(text)? {
            (step, None) => Ok(step),
            (_, Some(card)) => Err(format!(
                "`{text}`: card {card} told: the card a draw brings is told only in a game from the table (`express01 play --table`)"
            )),
        }
    }

    /// Reads a step in the readable form, and the card a draw tells as having come
    /// (`draw route-blue 212 by Martina`), if any.
    pub fn parse_told(&self, text: &str) -> Result<(Step, Option<CardNumber>), String> {
        let mut told = None;
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |w: Option<&&str>, what: &str| -> Result<CardNumber, String> {
            let w = w.ok_or_else(|| format!("`{text}`: {what} missing"))?;
            w.parse::<u16>().map(CardNumber).map_err(|_| format!("`{text}`: `{w}` is not a card number ({what})"))
        };
        let player = |w: Option<&&str>| -> Result<usize, String> {
            let w = w.ok_or_else(|| format!("`{text}`: a player's name missing"))?;
            self.seats().iter().position(|s| s.name == *w).ok_or_else(|| {
                let names: Vec<&str> = self.seats().iter().map(|s| s.name.as_str()).collect();
                format!("`{text}`: no player `{w}` (players: {})", names.join(", "))
            })
        };
        let company = |w: Option<&&str>| -> Result<_, String> {
            let w = w.ok_or_else(|| format!("`{text}`: a company missing"))?;
            self.catalogue().company(w).ok_or_else(|| {
                format!("`{text}`: no company `{w}` (companies: {})", self.catalogue().companies.join(", "))
            })
        };
        // `depth N` among the words after `from`, or the topmost copy.
        let depth = |rest: &[&str], card: CardNumber| -> Result<usize, String> {
            match rest.iter().position(|&w| w == "depth") {
                Some(i) => rest
                    .get(i + 1)
                    .and_then(|w| w.parse::<usize>().ok())
                    .ok_or_else(|| format!("`{text}`: `depth` takes a number (0 is the top of the deck)")),
                None => self.topmost(card).ok_or_else(|| format!("`{text}`: card {card} is in no deck now")),
            }
        };
        let unknown = |rest: &[&str], allowed: &[&str]| -> Result<(), String> {
            let mut i = 0;
            while i < rest.len() {
                match rest[i] {
                    "depth" => i += 2,
                    w if allowed.contains(&w) => i += 1,
                    w => return Err(format!("`{text}`: unexpected `{w}`")),
                }
            }
            Ok(())
        };
        let step = match words.as_slice() {
            ["A+B"] => Step::Pair(Pair::ExpandShares),
            ["B+A"] => Step::Pair(Pair::SharesExpand),
            ["C+D"] => Step::Pair(Pair::BonusOrder),
            ["done"] => Step::Done,
            ["pay", "engine"] => Step::Pay(Spend::Engine),
            ["pay", n] => Step::Pay(Spend::Card(number(Some(n), "the card paid")?)),
            ["build", card, "on", cell, rest @ ..] => {
                let card = number(Some(card), "the upgrade card")?;
                let base = number(Some(cell), "the cell's base card")?;
                let cell = self.map().cell_of(base).ok_or_else(|| format!("`{text}`: no cell {base} on this map"))?;
                unknown(rest, &["turned"])?;
                Step::Build(Build { cell, card, turned: rest.contains(&"turned"), depth: depth(rest, card)? })
            }
            ["buy", c] => Step::Buy(company(Some(c))?),
            ["take", card, "from", name] => {
                Step::Take(Source::Player { player: player(Some(name))?, card: number(Some(card), "the share card")? })
            }
            ["take", card, rest @ ..] => {
                let card = number(Some(card), "the share card")?;
                unknown(rest, &[])?;
                Step::Take(Source::Deck { card, depth: depth(rest, card)? })
            }
            ["bonus", c, "pays", n, rest @ ..] => {
                let payout = n.parse::<u32>().map_err(|_| format!("`{text}`: `{n}` is not a payout"))?;
                let engine = match rest {
                    [] => false,
                    ["with", "engine"] => true,
                    _ => return Err(format!("`{text}`: expected `with engine` or nothing after the payout")),
                };
                Step::Bonus { company: company(Some(c))?, engine, payout }
            }
            ["draw", deck, rest @ ..] => {
                let d = self.decks().iter().position(|d| d.name == *deck).ok_or_else(|| {
                    let names: Vec<&str> = self.decks().iter().map(|d| d.name).collect();
                    format!("`{text}`: no deck `{deck}` (decks: {})", names.join(", "))
                })?;
                let rest = match rest {
                    [n, more @ ..] if n.parse::<u16>().is_ok() => {
                        told = Some(number(Some(n), "the card drawn")?);
                        more
                    }
                    _ => rest,
                };
                match rest {
                    [] => {}
                    ["by", name] => {
                        let p = player(Some(name))?;
                        if p != self.decider() {
                            return Err(format!(
                                "`{text}`: it is {}'s card to take, not {name}'s",
                                self.seats()[self.decider()].name
                            ));
                        }
                    }
                    _ => return Err(format!("`{text}`: expected the card drawn, `by NAME` or nothing after the deck")),
                }
                Step::Draw(d)
            }
            ["swap", name] => Step::Swap(player(Some(name))?),
            _ => {
                return Err(format!(
                    "`{text}`: not a step (expected A+B, B+A, C+D, pay, build, buy, take, bonus, draw, swap or done; docs/formats/express01-record.md)"
                ));
            }
        };
        Ok((step, told))
    }
}
