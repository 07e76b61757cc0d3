//! The flags every searching command shares, with one meaning and one validation everywhere:
//! `--time-limit S` (seconds, more than zero) and `--threads T` (one or more).

use std::time::Duration;

/// Parses `--time-limit S`: a number of seconds above zero (a limit of zero would leave no time
/// to find any answer) and below a million hours.
pub fn seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text.trim().parse().map_err(|_| format!("expected a number of seconds, got {text:?}"))?;
    if !(s.is_finite() && s > 0.0) {
        return Err(format!("expected a number of seconds above 0, got {text}"));
    }
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| d.as_secs() < 3_600_000_000)
        .ok_or_else(|| format!("{text} seconds is too long; leave the flag out for no limit"))
}

/// Parses `--threads T`: one or more worker threads (at most 1,024).
pub fn threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(t @ 1..=1024) => Ok(t),
        _ => Err(format!("expected a number of threads from 1 to 1024, got {text:?}")),
    }
}

/// A progress bar on standard error for long work: drawn only when standard error is a terminal
/// and `quiet` is false (so `--json` output and logs stay clean). `unit` names what is counted.
pub fn progress(len: u64, unit: &str, quiet: bool) -> indicatif::ProgressBar {
    use std::io::IsTerminal as _;
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit} · {{elapsed}} · eta {{eta}} {{msg}}");
    bar.set_style(
        indicatif::ProgressStyle::with_template(&template).unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// A spinner on standard error for long work whose size is not known beforehand: the elapsed
/// time, and a reminder that `--time-limit` bounds the work. Drawn only on a terminal, and not
/// when `quiet`.
pub fn spinner(what: &str, quiet: bool) -> indicatif::ProgressBar {
    use std::io::IsTerminal as _;
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} · {elapsed} (--time-limit S bounds it)")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    bar.set_message(what.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// For a search with `--time-limit`: the first Ctrl-C ends it as if its time had run out, so it
/// prints the best found with its bound, labelled not proven; a second Ctrl-C quits at once.
/// Without a time limit Ctrl-C quits as usual (a search without a deadline is never cut short).
pub fn stop_on_interrupt(time_limit: Option<Duration>) {
    if time_limit.is_none() {
        return;
    }
    let _ = ctrlc::set_handler(|| {
        if signalbox_solver::stop::requested() {
            std::process::exit(130);
        }
        signalbox_solver::stop::request();
        eprintln!("stopping: the best found so far follows (Ctrl-C again to quit)");
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_limit_is_positive_and_finite() {
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        for wrong in ["0", "-1", "nan", "inf", "1e300", "soon", ""] {
            assert!(seconds(wrong).is_err(), "{wrong} was accepted");
        }
    }

    #[test]
    fn threads_are_one_or_more() {
        assert_eq!(threads("4"), Ok(4));
        for wrong in ["0", "-2", "1025", "many"] {
            assert!(threads(wrong).is_err(), "{wrong} was accepted");
        }
    }
}
