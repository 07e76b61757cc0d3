//! Writing to standard output.

use std::fmt;
use std::io::Write as _;

/// Writes one line to standard output. When the reader has gone (a closed pipe, as `| head`
/// leaves), the program ends quietly with success; other write failures end it with code 1.
pub fn line(args: fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{args}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}
