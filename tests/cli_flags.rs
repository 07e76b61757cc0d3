//! One tool, four games: the README's table of commands and flags is what `--help` says, every
//! game has `check` and `replay`, and the shared flags mean one thing everywhere.

mod support;

use std::collections::{BTreeMap, BTreeSet};

use support::run;

const GAMES: [&str; 4] = ["express01", "coe", "cube-express", "railways"];

/// The subcommands `signalbox GAME --help` lists.
fn verbs(game: &str) -> BTreeSet<String> {
    let (code, out, err) = run(&[game, "--help"]);
    assert_eq!(code, Some(0), "{err}");
    let commands = out.split("Commands:").nth(1).expect("a Commands section");
    let commands = commands.split("Options:").next().expect("the section");
    commands
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|v| *v != "help")
        .map(str::to_string)
        .collect()
}

/// The flags `signalbox GAME VERB --help` lists (without --help and --version).
fn flags(game: &str, verb: &str) -> BTreeSet<String> {
    let (code, out, err) = run(&[game, verb, "--help"]);
    assert_eq!(code, Some(0), "{err}");
    let options = out.split("Options:").nth(1).expect("an Options section");
    options
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l
                .strip_prefix("-")
                .filter(|r| r.len() > 2 && r.as_bytes()[1] == b',')
                .map_or(l, |r| r[2..].trim_start());
            l.strip_prefix("--")
                .map(|r| format!("--{}", r.split(|c: char| !(c.is_alphanumeric() || c == '-')).next().unwrap_or("")))
        })
        .filter(|f| f != "--help" && f != "--version")
        .collect()
}

/// The README's table: command (`game verb`) → flags.
fn readme_table() -> BTreeMap<(String, String), BTreeSet<String>> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let section = readme.split("## One tool, four games").nth(1).expect("the README has the section");
    let mut table = BTreeMap::new();
    for row in section.lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')).skip(2) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let command = cells[0].trim_matches('`');
        let mut words = command.split_whitespace();
        let game = words.next().expect("a game").to_string();
        let verb = words.next().expect("a verb").to_string();
        let flags: BTreeSet<String> = cells
            .last()
            .expect("a flags column")
            .split('`')
            .map(str::trim)
            .filter(|f| f.starts_with("--"))
            .map(|f| f.split_whitespace().next().expect("flag").to_string())
            .collect();
        table.insert((game, verb), flags);
    }
    table
}

#[test]
fn the_readme_table_lists_every_command_with_the_flags_its_help_shows() {
    let table = readme_table();
    let mut listed = BTreeSet::new();
    for game in GAMES {
        for verb in verbs(game) {
            let key = (game.to_string(), verb.clone());
            let documented = table.get(&key).unwrap_or_else(|| panic!("the README's table lacks `{game} {verb}`"));
            assert_eq!(documented, &flags(game, &verb), "`{game} {verb}`: README (left) and --help (right)");
            listed.insert(key);
        }
    }
    let extra: Vec<_> = table.keys().filter(|k| !listed.contains(*k)).collect();
    assert!(extra.is_empty(), "the README lists commands that do not exist: {extra:?}");
}

#[test]
fn every_game_has_check_and_replay() {
    for game in GAMES {
        let verbs = verbs(game);
        for verb in ["check", "replay"] {
            assert!(verbs.contains(verb), "`{game}` has no `{verb}`: {verbs:?}");
        }
        for verb in ["check", "replay"] {
            assert!(flags(game, verb).contains("--json"), "`{game} {verb}` has no --json");
        }
    }
}

#[test]
fn the_shared_flags_come_together_and_are_refused_alike() {
    for game in GAMES {
        for verb in verbs(game) {
            let f = flags(game, &verb);
            assert_eq!(
                f.contains("--threads"),
                f.contains("--time-limit"),
                "`{game} {verb}`: a command that searches has both --threads and --time-limit"
            );
            if f.contains("--svg") || f.contains("--record") {
                assert!(f.contains("--force"), "`{game} {verb}` writes a file, so it has --force");
            }
            if !f.contains("--threads") {
                continue;
            }
            for (flag, value, expected) in [
                ("--threads", "0", "expected a number of threads from 1 to 1024"),
                ("--time-limit", "0", "expected a number of seconds above 0"),
                ("--time-limit", "-1", "expected a number of seconds above 0"),
            ] {
                let (code, _, err) = run(&[game, &verb, flag, value]);
                assert_eq!(code, Some(2), "`{game} {verb} {flag} {value}`: {err}");
                assert!(err.contains(expected), "`{game} {verb} {flag} {value}`: {err}");
            }
        }
    }
}
