//! The best-move questions of the analysis board: each runs the CLI's own `advise --json --svg`
//! in a process of its own, under the server's time cap; one per tab, a new question from a tab
//! stopping its old one. A stop is a Ctrl-C to that process, which then prints the best found
//! with its bound, labelled not proven (`signalbox_solver::stop`). The files a question needs
//! live in the server's own folder, named by the server, never by the browser.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::games::AdviseCall;

/// The server's own folder for the files its questions need, removed when the server stops. A
/// folder left by a server that did not stop cleanly (its process is gone) is removed at the
/// next start.
pub struct Folder {
    path: PathBuf,
}

impl Folder {
    /// Makes the folder, after clearing those of servers that are no longer running.
    pub fn new() -> std::io::Result<Folder> {
        let base = std::env::temp_dir();
        if let Ok(entries) = std::fs::read_dir(&base) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if let Some(pid) = name.strip_prefix("signalbox-board-").and_then(|p| p.parse::<u32>().ok())
                    && !Path::new(&format!("/proc/{pid}")).exists()
                    && Path::new("/proc/self").exists()
                {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        let path = base.join(format!("signalbox-board-{}", std::process::id()));
        std::fs::create_dir_all(&path)?;
        Ok(Folder { path })
    }

    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// How long a search is given to start before a stop reaches it.
const SETTLE: Duration = Duration::from_millis(500);

/// The most searches running at once, all tabs together.
pub const MAX_RUNNING: usize = 4;

/// What the page is told of a question.
#[derive(Debug, Clone, Serialize)]
pub struct AskStatus {
    /// The open game asked about.
    pub game: u64,
    /// The step asked about.
    pub at: usize,
    /// Whether the search still runs.
    pub running: bool,
    /// Seconds it has run.
    pub elapsed: f64,
    /// The cap, in seconds.
    pub cap: f64,
    /// Whether the user stopped it.
    pub stopped: bool,
    /// The answer, as `advise --json` prints it.
    pub answer: Option<serde_json::Value>,
    /// The board after the best move (SVG), where the game draws one.
    pub board: Option<String>,
    /// Why there is no answer, as the CLI says it.
    pub error: Option<String>,
}

struct Ask {
    game: u64,
    at: usize,
    pid: Option<u32>,
    started: Instant,
    cap: Duration,
    stopped: AtomicBool,
    done: Mutex<Option<(Duration, Outcome)>>,
}

#[derive(Debug, Clone, Default)]
struct Outcome {
    answer: Option<serde_json::Value>,
    board: Option<String>,
    error: Option<String>,
}

impl Ask {
    fn status(&self) -> AskStatus {
        let done = self.done.lock().map(|d| d.clone()).unwrap_or_default();
        let (elapsed, outcome, running) = match done {
            Some((took, outcome)) => (took, outcome, false),
            None => (self.started.elapsed(), Outcome::default(), true),
        };
        AskStatus {
            game: self.game,
            at: self.at,
            running,
            elapsed: (elapsed.as_secs_f64() * 10.0).round() / 10.0,
            cap: self.cap.as_secs_f64(),
            stopped: self.stopped.load(Ordering::Relaxed),
            answer: outcome.answer,
            board: outcome.board,
            error: outcome.error,
        }
    }

    fn running(&self) -> bool {
        self.done.lock().map(|d| d.is_none()).unwrap_or(false)
    }

    /// Sends the search Ctrl-C: it ends as if its time had run out.
    fn stop(&self) {
        if let Some(pid) = self.pid
            && self.running()
            && !self.stopped.swap(true, Ordering::Relaxed)
        {
            // A search just started may not yet listen for Ctrl-C (which would then end it with
            // no answer): the signal waits until it has had a moment to start.
            let wait = SETTLE.saturating_sub(self.started.elapsed());
            std::thread::spawn(move || {
                std::thread::sleep(wait);
                let _ = std::process::Command::new("kill").args(["-INT", &pid.to_string()]).status();
            });
        }
    }
}

/// The questions of every tab.
pub struct Asks {
    exe: PathBuf,
    cap: Duration,
    folder: Folder,
    next: AtomicU64,
    by_tab: Mutex<HashMap<String, Arc<Ask>>>,
}

/// A tab's name as the page makes it: letters and digits, 8 to 40 of them.
pub fn tab_name(tab: &str) -> Result<&str, String> {
    if (8..=40).contains(&tab.len()) && tab.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Ok(tab)
    } else {
        Err("a tab is named by 8 to 40 letters and digits".to_owned())
    }
}

impl Asks {
    /// The questions, answered by the program `exe` under the time cap `cap`, with their files in
    /// `folder`.
    pub fn new(exe: PathBuf, cap: Duration, folder: Folder) -> Asks {
        Asks { exe, cap, folder, next: AtomicU64::new(1), by_tab: Mutex::new(HashMap::new()) }
    }

    fn get(&self, tab: &str) -> Option<Arc<Ask>> {
        self.by_tab.lock().ok()?.get(tab).cloned()
    }

    /// The status of the tab's question.
    pub fn status(&self, tab: &str) -> Option<AskStatus> {
        self.get(tab).map(|a| a.status())
    }

    /// Stops the tab's question, if it runs.
    pub fn stop(&self, tab: &str) -> Option<AskStatus> {
        let ask = self.get(tab)?;
        ask.stop();
        Some(ask.status())
    }

    /// Stops every question (the server is stopping).
    pub fn stop_all(&self) {
        if let Ok(map) = self.by_tab.lock() {
            for ask in map.values() {
                ask.stop();
            }
        }
    }

    /// Starts `signalbox GAME advise FILE ARGS --json --svg BOARD --time-limit CAP` for the tab,
    /// stopping the tab's earlier question.
    pub fn start(&self, tab: &str, command: &str, game: u64, at: usize, call: AdviseCall) -> Result<AskStatus, String> {
        if let Some(old) = self.get(tab) {
            old.stop();
        }
        let running = self.by_tab.lock().map(|m| m.values().filter(|a| a.running()).count()).unwrap_or(0);
        if running >= MAX_RUNNING {
            return Err(format!("{MAX_RUNNING} searches are running already; stop one or wait for it"));
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        // Each question has a folder of its own, and the command runs in it: the answer names
        // the file as `position.json`, never by a path on this computer.
        let here = self.folder.path().join(format!("question-{n}"));
        std::fs::create_dir_all(&here)
            .and_then(|()| std::fs::write(here.join("position.json"), &call.file))
            .map_err(|e| format!("cannot write the position for the search: {e}"))?;
        let mut cmd = tokio::process::Command::new(&self.exe);
        cmd.current_dir(&here)
            .arg(command)
            .arg("advise")
            .arg("position.json")
            .args(&call.args)
            .arg("--json")
            .arg("--svg")
            .arg("board.svg")
            .arg("--time-limit")
            .arg(format!("{}", self.cap.as_secs_f64()))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        let child = cmd.spawn().map_err(|e| format!("cannot start the search: {e}"))?;
        let ask = Arc::new(Ask {
            game,
            at,
            pid: child.id(),
            started: Instant::now(),
            cap: self.cap,
            stopped: AtomicBool::new(false),
            done: Mutex::new(None),
        });
        if let Ok(mut map) = self.by_tab.lock() {
            map.insert(tab.to_owned(), ask.clone());
        }
        let status = ask.status();
        tokio::spawn(async move {
            let output = child.wait_with_output().await;
            let mut outcome = Outcome::default();
            match output {
                Ok(out) if out.status.success() => {
                    match serde_json::from_slice::<serde_json::Value>(&out.stdout) {
                        Ok(v) => outcome.answer = Some(v),
                        Err(e) => outcome.error = Some(format!("the search's answer could not be read: {e}")),
                    }
                    outcome.board = std::fs::read_to_string(here.join("board.svg")).ok();
                }
                Ok(out) => {
                    let text = String::from_utf8_lossy(&out.stderr);
                    let line = text
                        .lines()
                        .find(|l| l.starts_with("error: "))
                        .or_else(|| text.lines().rev().find(|l| !l.trim().is_empty()))
                        .unwrap_or("the search failed");
                    outcome.error = Some(line.trim_start_matches("error: ").to_owned());
                }
                Err(e) => outcome.error = Some(format!("the search failed: {e}")),
            }
            let _ = std::fs::remove_dir_all(&here);
            if let Ok(mut done) = ask.done.lock() {
                *done = Some((ask.started.elapsed(), outcome));
            }
        });
        Ok(status)
    }
}
