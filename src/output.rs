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

/// Prints what a `check` found, the same way for every game: on a legal file, `summary` (text)
/// or `{"file", "legal": true, "summary"}` (JSON), exit code 0; otherwise every problem, and the
/// command ends with bad input (exit code 2): the JSON `{"file", "legal": false, "problems"}` on
/// standard output with `--json`, the problems on standard error.
pub fn check_result(file: &str, found: Result<String, Vec<String>>, json: bool) -> anyhow::Result<()> {
    match found {
        Ok(summary) if json => {
            line(format_args!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({ "file": file, "legal": true, "summary": summary }))?
            ));
            Ok(())
        }
        Ok(summary) => {
            line(format_args!("{summary}"));
            Ok(())
        }
        Err(problems) => {
            if json {
                let out = serde_json::json!({ "file": file, "legal": false, "problems": problems });
                line(format_args!("{}", serde_json::to_string_pretty(&out)?));
            }
            let count = problems.len();
            let heading = if count == 1 { "1 problem".to_string() } else { format!("{count} problems") };
            Err(crate::input::bad(format!("{file}: not legal ({heading}):\n  - {}", problems.join("\n  - "))))
        }
    }
}
