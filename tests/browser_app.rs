//! The analysis board (`signalbox serve`) in a real headless Chromium, driven over WebDriver
//! (fantoccini with Debian's `chromium-driver`). For each game, in a phone-sized window (390 px
//! wide): the page says what to do first; the sample opens with one row per step; the last step
//! and back by the keys and the buttons; the best move asked at a chosen step and the search
//! stopped; a legal move entered from the engine's list and an illegal one refused with the rule;
//! the record saved and read back by the CLI's `replay`; back to the main line. At every point:
//! no console message of level warning or error, no request that failed or went elsewhere than
//! the server, and nothing wider than the page. A screenshot of each game is saved under
//! `target/browser/`.
//!
//! Over plain HTTP: a path outside the board's files (`../`, an absolute path) is refused, a body
//! over the cap is refused, and a search past the server's cap stops with the best found,
//! labelled not proven.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them when missing), or
//! the programs named by `SIGNALBOX_CHROMIUM` and `SIGNALBOX_CHROMEDRIVER`.

#[path = "support/browser.rs"]
mod browser;
mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use browser::{Driver, problems, session, smallest_text};
use support::{run, temp_path};

/// A turn of Express 01's sample whose best turn takes seconds to prove.
const LONG_TURN: u64 = 3;

/// A running `signalbox serve`, stopped with Ctrl-C when dropped.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_signalbox"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("signalbox serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("its output")).read_line(&mut line).expect("the first line");
        let start = line.find("http://").unwrap_or_else(|| panic!("the server names its address: {line:?}"));
        let base = line[start..].split_whitespace().next().expect("an address").trim_end_matches('/').to_owned();
        Server { child, base }
    }

    fn port(&self) -> u16 {
        self.base.rsplit(':').next().and_then(|p| p.parse().ok()).expect("a port")
    }

    /// Stops the server as Ctrl-C does, and returns what it wrote on standard error.
    fn stop(mut self) -> String {
        let _ = Command::new("kill").args(["-INT", &self.child.id().to_string()]).status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        err
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw HTTP/1.1 request to the server: its status and body.
fn http(port: u16, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the server answers");
    stream.set_read_timeout(Some(Duration::from_secs(60))).expect("a timeout");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("the request is sent");
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    (status, body)
}

fn json_of(port: u16, method: &str, path: &str, body: &Value) -> Value {
    let (status, text) = http(port, method, path, body.to_string().as_bytes());
    assert_eq!(status, 200, "{method} {path}: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path} answers JSON ({e}): {text}"))
}

/// A headless Chromium session: a phone (390 px wide) or a desktop window.
async fn browser(driver: &mut Driver, phone: bool, profile: &str) -> Client {
    let options = if phone {
        json!({ "mobileEmulation": { "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 2.0 } } })
    } else {
        json!({ "args": ["--window-size=1280,900"] })
    };
    session(driver, &temp_path(profile, "profile"), options).await
}

/// Fails on any console message of level warning or error, and on any request that failed,
/// answered 400 or more, or went elsewhere than the server, since the last check; and on anything
/// that sticks out of the page sideways.
async fn clean(c: &Client, base: &str, at: &str) {
    let found = problems(c, |url| url.starts_with(base) || url.starts_with("data:")).await;
    assert!(found.is_empty(), "{at}: {found:#?}");
    let wide: bool = c
        .execute("return document.documentElement.scrollWidth > window.innerWidth + 1;", vec![])
        .await
        .expect("the page's width")
        .as_bool()
        .unwrap_or(true);
    assert!(!wide, "{at}: something sticks out of the page sideways");
}

/// On a phone, fails on any text drawn under 11 px (SVG text at its picture's scale): the boards
/// scroll sideways in their boxes rather than shrink.
async fn legible(c: &Client, phone: bool, at: &str) {
    if !phone {
        return;
    }
    let smallest = c.execute(&format!("return {};", smallest_text("body")), vec![]).await.expect("the smallest text");
    let size = smallest["size"].as_f64().unwrap_or(0.0);
    assert!(size >= 10.99, "{at}: text drawn at {size:.1} px: {}", smallest["text"]);
}

/// Waits until `script` (a JavaScript expression) is true, for at most `seconds`.
async fn until(c: &Client, script: &str, seconds: u64, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        let v = c.execute(&format!("return Boolean({script});"), vec![]).await.expect("a script runs");
        if v.as_bool() == Some(true) {
            return;
        }
        if Instant::now() > deadline {
            let text = c.execute("return document.body.innerText;", vec![]).await.unwrap_or_default();
            panic!("waited {seconds} s for {what} ({script}); the page reads: {text}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap_or_else(|_| panic!("#{id} exists")).text().await.expect("its text")
}

async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap_or_else(|_| panic!("#{id} exists"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("#{id} is clicked: {e}"));
}

async fn key(c: &Client, k: fantoccini::key::Key) {
    let board = c.find(Locator::Id("board")).await.expect("the board");
    board.send_keys(&char::from(k).to_string()).await.expect("a key is pressed");
}

/// The step the page shows, and how many there are (`step N of M`).
async fn step(c: &Client) -> (usize, usize) {
    let words = text_of(c, "where").await;
    let numbers: Vec<usize> = words.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    match numbers.as_slice() {
        [at, of] => (*at, *of),
        _ => panic!("the page says where it is: {words:?}"),
    }
}

/// Waits until the page shows step `at` and its board has arrived.
async fn at_step(c: &Client, at: usize) {
    until(
        c,
        &format!(
            "document.getElementById('where').textContent.startsWith('step {at} of') && document.getElementById('board').dataset.shown && document.getElementById('board').dataset.shown.endsWith('/board/{at}') && document.querySelector('#board svg')"
        ),
        60,
        &format!("step {at} and its board"),
    )
    .await;
}

fn shots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("browser");
    std::fs::create_dir_all(&dir).expect("target/browser");
    dir
}

/// What a walk does besides stepping, asking, trying and saving.
#[derive(Clone, Copy)]
struct Walk {
    /// The turn whose first step the best move is asked at.
    ask_turn: u64,
    /// The search there is long: stop it and expect the best found, not proven.
    long_search: bool,
    /// Review the game, and step to a decision from the chart.
    review: bool,
    /// A 390 px phone (else a 1280 px desktop window).
    phone: bool,
}

/// The whole walk of one game.
async fn walk_game(game: &str, walk_options: Walk) {
    let Walk { ask_turn, long_search, review, phone } = walk_options;
    let screen = if phone { "phone" } else { "desktop" };
    let mut driver = Driver::start();
    let server = Server::start(&[]);
    let base = server.base.clone();
    let c = browser(&mut driver, phone, &format!("board-{game}-{screen}")).await;
    c.goto(&format!("{base}/")).await.expect("the page opens");
    until(&c, "document.querySelectorAll('#game option').length == 4", 30, "the games listed").await;
    let first = text_of(&c, "first-step").await;
    assert!(first.starts_with("Open a game to begin"), "the page says what to do first: {first}");
    clean(&c, &base, "the empty page").await;

    // Open the sample: one row per step, and a last row for the end.
    c.find(Locator::Id("game")).await.expect("the game list").select_by_value(game).await.expect("the game is chosen");
    click(&c, "open-sample").await;
    until(&c, "!document.getElementById('app').hidden", 60, "the sample").await;
    at_step(&c, 0).await;
    let (_, n) = step(&c).await;
    let walk = json_of(server.port(), "POST", "/api/open", &json!({ "game": game }));
    let steps = walk["walk"]["steps"].as_array().expect("steps").len();
    assert_eq!(n, steps, "the page counts the sample's steps");
    let rows: usize = c
        .execute("return document.querySelectorAll('#moves tbody tr').length;", vec![])
        .await
        .expect("rows")
        .as_u64()
        .unwrap_or(0) as usize;
    assert_eq!(rows, steps + 1, "a row per step and one for the end");
    assert!(n > 3, "the sample has some steps: {n}");
    let ask_at = walk["walk"]["steps"]
        .as_array()
        .and_then(|s| s.iter().position(|s| s["turn"].as_u64() == Some(ask_turn)))
        .unwrap_or_else(|| panic!("the sample has a turn {ask_turn}"));
    clean(&c, &base, "the sample opened").await;
    legible(&c, phone, "the sample's board").await;

    // To the last step and back, by keys and buttons.
    key(&c, fantoccini::key::Key::End).await;
    at_step(&c, n).await;
    assert!(text_of(&c, "caption").await.starts_with("The record ends"), "the end says so");
    key(&c, fantoccini::key::Key::Left).await;
    at_step(&c, n - 1).await;
    key(&c, fantoccini::key::Key::Home).await;
    at_step(&c, 0).await;
    click(&c, "next").await;
    at_step(&c, 1).await;
    click(&c, "last").await;
    at_step(&c, n).await;
    click(&c, "first").await;
    at_step(&c, 0).await;
    clean(&c, &base, "stepping").await;

    if review {
        review_game(&c, &base).await;
    }

    // Ask the best move at a chosen step, by a click on its row; stop the search.
    c.find(Locator::Css(&format!("#moves tbody tr[data-at='{ask_at}']")))
        .await
        .expect("the row")
        .click()
        .await
        .expect("a click");
    at_step(&c, ask_at).await;
    click(&c, "ask").await;
    until(&c, "document.getElementById('ask-text').textContent.length > 0", 30, "the search under way").await;
    if long_search {
        until(&c, "!document.getElementById('stop').hidden", 10, "the stop button").await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
    }
    // Stop it: a search still running ends with the best found and its bound, not proven.
    c.execute("document.getElementById('stop').click();", vec![]).await.expect("the stop button");
    until(&c, "!document.getElementById('answer').hidden", 120, "the answer").await;
    let answer = text_of(&c, "answer").await;
    assert!(answer.contains(&format!("At step {}", ask_at + 1)), "the answer names its step: {answer}");
    let error: bool = c
        .execute("return document.querySelector('#answer p.error') !== null;", vec![])
        .await
        .expect("the answer")
        .as_bool()
        .unwrap_or(true);
    assert!(!error, "an answer, not an error: {answer}");
    if long_search {
        assert!(text_of(&c, "ask-text").await.starts_with("Stopped"), "the search was stopped");
        assert!(answer.contains("not proven"), "a stopped search is labelled not proven: {answer}");
    }
    if answer.contains("not proven") {
        assert!(answer.contains("at most") || answer.contains("at least"), "with its bound: {answer}");
    }
    clean(&c, &base, "asking").await;
    legible(&c, phone, "the answer").await;

    // Try a legal move from the engine's list, then an illegal one.
    let at = ask_at;
    until(&c, "document.querySelectorAll('#choices option').length > 1", 60, "the legal moves").await;
    let chosen: String = c
        .execute("const o = document.querySelector('#choices optgroup option'); return o ? o.value : '';", vec![])
        .await
        .expect("a legal move")
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(!chosen.is_empty(), "a legal move is listed");
    c.find(Locator::Id("choices")).await.expect("the list").select_by_value(&chosen).await.expect("chosen");
    click(&c, "play").await;
    until(&c, "!document.getElementById('fork').hidden", 30, "the fork").await;
    at_step(&c, at + 1).await;
    let (_, forked) = step(&c).await;
    assert_eq!(forked, at + 1, "the fork ends with the move tried");
    let last_row = text_of(&c, "moves").await;
    assert!(last_row.contains(&chosen), "the move list holds the move tried: {chosen}");
    // The same move again breaks a rule (the die, the slot, the tile, the choice is used up);
    // words that are no move are refused too.
    let mut refusals = Vec::new();
    for illegal in [chosen.as_str(), "build the moon on the sun"] {
        let input = c.find(Locator::Id("move")).await.expect("the move box");
        input.clear().await.expect("cleared");
        input.send_keys(illegal).await.expect("typed");
        click(&c, "play").await;
        until(&c, "document.getElementById('play-error').textContent.length > 0", 30, "the refusal").await;
        let refusal = text_of(&c, "play-error").await;
        assert!(refusal.len() > 10, "{illegal:?} is refused in words: {refusal}");
        assert_eq!(step(&c).await.1, forked, "a refused move changes nothing");
        refusals.push(format!("{illegal}: {refusal}"));
        c.execute("document.getElementById('play-error').textContent = '';", vec![]).await.expect("cleared");
    }
    std::fs::write(shots().join(format!("refusals-{game}.txt")), refusals.join("\n")).expect("saved");
    clean(&c, &base, "trying moves").await;

    // Save the record; the CLI reads it back, and it opens again the same.
    let saved: String = c
        .execute_async(
            "const done = arguments[0]; fetch(document.getElementById('save').href).then(r => r.text()).then(done, e => done('failed: ' + e));",
            vec![],
        )
        .await
        .expect("the record")
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let file = temp_path(&format!("board-{game}"), "saved.json");
    std::fs::write(&file, &saved).expect("written");
    let (code, out, err) = run(&[game, "replay", file.to_str().expect("a path")]);
    assert_eq!(code, Some(0), "{game} replay reads the saved record: {out}{err}");
    let reopened =
        json_of(server.port(), "POST", "/api/open", &json!({ "game": game, "name": "saved.json", "text": saved }));
    let texts = |w: &Value| -> Vec<String> {
        w["walk"]["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| s["text"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    let shown: Vec<String> = c
        .execute(
            "return Array.from(document.querySelectorAll('#moves tbody tr td.move')).map(td => td.textContent);",
            vec![],
        )
        .await
        .expect("the rows")
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| v.as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(texts(&reopened), shown, "the saved record holds the steps shown");

    // Back to the main line.
    click(&c, "main-line").await;
    until(&c, "document.getElementById('fork').hidden", 30, "the main line").await;
    at_step(&c, at).await;
    assert_eq!(step(&c).await.1, n, "the main line is whole again");
    let shot = c.screenshot().await.expect("a screenshot");
    std::fs::write(shots().join(format!("board-{game}-{screen}.png")), shot).expect("saved");
    clean(&c, &base, "back to the main line").await;

    // A new game from a seed: no step yet, the first moves offered.
    c.find(Locator::Id("seed")).await.expect("the seed").clear().await.expect("cleared");
    c.find(Locator::Id("seed")).await.expect("the seed").send_keys("3").await.expect("typed");
    click(&c, "new-game").await;
    until(&c, "document.getElementById('where').textContent == 'step 0 of 0'", 60, "the new game").await;
    at_step(&c, 0).await;
    until(&c, "document.querySelectorAll('#choices optgroup option').length > 0", 60, "its first moves").await;
    clean(&c, &base, "a new game").await;
    c.close().await.expect("the session closes");
    let err = server.stop();
    assert!(!err.contains("panicked"), "the server did not panic: {err}");
}

/// Reviews the game on the board: the progress, the losses in the move list, the chart, and at a
/// decision reached from the chart its boards before, played and best.
async fn review_game(c: &Client, base: &str) {
    click(c, "review").await;
    until(c, "document.getElementById('review-text').textContent.startsWith('Reviewed')", 240, "the review").await;
    let bars: usize = c
        .execute("return document.querySelectorAll('#chart rect.bar').length;", vec![])
        .await
        .expect("bars")
        .as_u64()
        .unwrap_or(0) as usize;
    let decisions: usize =
        text_of(c, "review-text").await.split_whitespace().find_map(|w| w.parse().ok()).expect("a count of decisions");
    assert_eq!(bars, decisions, "a bar per decision");
    let losses: usize = c
        .execute("return Array.from(document.querySelectorAll('#moves tbody tr')).filter(r => r.cells.length > 4 && r.cells[4].textContent !== '').length;", vec![])
        .await
        .expect("the losses")
        .as_u64()
        .unwrap_or(0) as usize;
    assert!(losses > 0, "the move list shows the losses");
    // The costliest decision, from its bar.
    let i = c
        .execute(
            "const bars = Array.from(document.querySelectorAll('#chart rect.bar')); let most = bars[0]; for (const b of bars) if (Number(b.getAttribute('height')) > Number(most.getAttribute('height'))) most = b; most.dispatchEvent(new MouseEvent('click', {bubbles: true})); return Number(most.dataset.decision);",
            vec![],
        )
        .await
        .expect("a bar is clicked")
        .as_u64()
        .expect("a decision");
    until(c, "!document.getElementById('decision').hidden", 30, "the decision's boards").await;
    for (button, ends) in
        [("Best", format!("/best/{i}")), ("Played", "/board/".to_owned()), ("Before", "/board/".to_owned())]
    {
        c.execute(
            &format!("Array.from(document.querySelectorAll('#decision button')).find(b => b.textContent == '{button}').click();"),
            vec![],
        )
        .await
        .expect("a board's button");
        until(
            c,
            &format!("document.getElementById('board').dataset.shown.includes('{ends}') && document.querySelector('#board svg')"),
            30,
            &format!("the {button} board"),
        )
        .await;
    }
    clean(c, base, "the review").await;
    legible(c, true, "the review").await;
}

const PHONE: Walk = Walk { ask_turn: 2, long_search: false, review: false, phone: true };

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn express01_on_a_phone() {
    walk_game("express01", Walk { ask_turn: LONG_TURN, long_search: true, ..PHONE }).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cubes_of_europe_on_a_phone() {
    walk_game("coe", PHONE).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cube_express_on_a_phone_with_its_review() {
    walk_game("cube-express", Walk { review: true, ..PHONE }).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn railways_on_a_phone() {
    walk_game("railways", Walk { ask_turn: 3, ..PHONE }).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn railways_on_a_desktop() {
    walk_game("railways", Walk { ask_turn: 3, phone: false, ..PHONE }).await;
}

/// No path from the browser reaches the disk; bodies and searches are capped.
#[test]
fn paths_bodies_and_searches_are_capped() {
    let server = Server::start(&["--search-limit", "0.5"]);
    let port = server.port();
    for path in
        ["/../Cargo.toml", "//etc/passwd", "/etc/passwd", "/%2e%2e/Cargo.toml", "/src/main.rs", "/api/../../Cargo.toml"]
    {
        let (status, body) = http(port, "GET", path, b"");
        assert_eq!(status, 404, "{path} is refused: {body}");
        assert!(!body.contains("[package]") && !body.contains("root:"), "{path} shows no file");
    }
    let big = vec![b' '; (4 << 20) + 1];
    let (status, _) = http(port, "POST", "/api/open", &big);
    assert_eq!(status, 413, "a body over 4 MiB is refused");
    // Another host name than this computer's is refused while the server listens only here.
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream.write_all(b"GET / HTTP/1.1\r\nHost: board.example:80\r\nConnection: close\r\n\r\n").expect("sent");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 403"), "another host name is refused: {answer}");
    // A search past the cap stops with the best found, labelled not proven.
    let opened = json_of(port, "POST", "/api/open", &json!({ "game": "express01" }));
    let id = opened["id"].as_u64().expect("an id");
    let steps = opened["walk"]["steps"].as_array().expect("steps");
    let at = steps.iter().position(|s| s["turn"].as_u64() == Some(LONG_TURN)).expect("a late turn");
    let tab = "capped0search1";
    let started = json_of(port, "POST", "/api/ask", &json!({ "tab": tab, "game": id, "at": at }));
    assert_eq!(started["running"], json!(true), "the search runs: {started}");
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        let s = json_of(port, "GET", &format!("/api/ask/{tab}"), &json!(null));
        if s["running"] == json!(false) {
            break s;
        }
        assert!(Instant::now() < deadline, "the search stops at its cap");
        std::thread::sleep(Duration::from_millis(200));
    };
    let answer = &status["answer"];
    assert!(status["error"].is_null(), "no error: {}", status["error"]);
    assert_eq!(answer["proven"], json!(false), "past its cap the best found is not proven: {answer}");
    assert!(
        answer["bound"].as_i64().is_some() && answer["best"]["steps"].as_array().is_some_and(|s| !s.is_empty()),
        "with the best found and its bound: {answer}"
    );
    assert!(status["elapsed"].as_f64().unwrap_or(99.0) < 30.0, "stopped near its cap: {}", status["elapsed"]);
    let title = status["board"].as_str().unwrap_or_default();
    assert!(
        title.starts_with("<svg") && !title.contains("signalbox-board-"),
        "the board after it, naming no path of the server's"
    );
    // The questions' files go with the server.
    let folder = std::env::temp_dir().join(format!("signalbox-board-{}", server.child.id()));
    assert!(folder.exists(), "the server keeps its files in its own folder");
    let err = server.stop();
    assert!(!folder.exists(), "the server removes its folder when stopped: {err}");
}

/// A record that is not one of the chosen game's is refused with the CLI's own message.
#[test]
fn a_bad_upload_gets_the_cli_message() {
    let server = Server::start(&[]);
    let file = temp_path("board-bad", "broken.json");
    let text = r#"{"game": "coe", "instance": 3}"#;
    std::fs::write(&file, text).expect("written");
    let (code, _, err) = run(&["coe", "replay", file.to_str().expect("a path")]);
    assert_eq!(code, Some(2), "the CLI refuses it");
    let cli = err.trim().trim_start_matches("error: ").to_owned();
    let board =
        json_of(server.port(), "POST", "/api/open", &json!({ "game": "coe", "name": file.to_str(), "text": text }));
    assert_eq!(board["refused"].as_str(), Some(cli.as_str()), "the same words as the CLI");
}

/// `--host` with another address says who can reach the board.
#[test]
fn another_host_is_announced() {
    let server = Server::start(&["--host", "0.0.0.0"]);
    let err = server.stop();
    assert!(err.contains("anyone who can reach"), "the server warns: {err}");
}

/// Draws the README's pictures of the board (docs/images/board-GAME.png): each game's sample
/// at a step in its middle, in a desktop window. Run by hand:
/// `cargo test --test browser_app readme_pictures -- --ignored`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes the README's pictures"]
async fn readme_pictures() {
    let mut driver = Driver::start();
    let server = Server::start(&[]);
    let base = server.base.clone();
    let c = browser(&mut driver, false, "board-readme").await;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs").join("images");
    std::fs::create_dir_all(&dir).expect("docs/images");
    for game in ["express01", "coe", "cube-express", "railways"] {
        c.goto(&format!("{base}/")).await.expect("the page opens");
        until(&c, "document.querySelectorAll('#game option').length == 4", 30, "the games listed").await;
        c.find(Locator::Id("game")).await.expect("the game list").select_by_value(game).await.expect("chosen");
        click(&c, "open-sample").await;
        at_step(&c, 0).await;
        let (_, n) = step(&c).await;
        let middle = c
            .execute(
                &format!("const rows = Array.from(document.querySelectorAll('#moves tbody tr[data-at]')); const r = rows.find(r => Number(r.dataset.at) >= {} && !r.classList.contains('chance')); r.click(); return Number(r.dataset.at);", n / 2),
                vec![],
            )
            .await
            .expect("a row is clicked")
            .as_u64()
            .expect("a step") as usize;
        at_step(&c, middle).await;
        until(&c, "document.querySelectorAll('#choices optgroup option').length > 0", 60, "the legal moves").await;
        c.execute("window.scrollTo(0, 0);", vec![]).await.expect("scrolled");
        clean(&c, &base, game).await;
        let shot = c.screenshot().await.expect("a screenshot");
        std::fs::write(dir.join(format!("board-{game}.png")), shot).expect("saved");
    }
    c.close().await.expect("the session closes");
}

/// Every shipped collection's first puzzle on a phone: a wrong answer is refused with
/// `puzzles try`'s verdict, the hints come one by one up to the answer, the answer from the key
/// solves it, and the progress stays in the browser after a reload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shipped_puzzles_are_solved_and_failed_on_a_phone() {
    let mut driver = Driver::start();
    let server = Server::start(&[]);
    let base = server.base.clone();
    let c = browser(&mut driver, true, "board-puzzles").await;
    c.goto(&format!("{base}/")).await.expect("the page opens");
    until(&c, "document.querySelectorAll('#game option').length == 4", 30, "the page").await;
    click(&c, "open-puzzles").await;
    until(&c, "document.querySelectorAll('#collection option').length > 0", 30, "the collections").await;
    let collections = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles").join("collections");
    let shelf = json_of(server.port(), "GET", "/api/puzzles", &json!(null));
    let entries = shelf.as_array().expect("collections");
    assert_eq!(entries.len(), 5, "the five shipped collections");
    let mut solved_ids = Vec::new();
    for entry in entries {
        let number = entry["number"].as_u64().expect("a number");
        let kind = entry["kind"].as_str().expect("a kind");
        let first = &entry["puzzles"][0];
        let id = first["id"].as_str().expect("an id").to_owned();
        let key: Value = serde_json::from_str(
            &std::fs::read_to_string(collections.join(kind).join(format!("{id}.json"))).expect("the puzzle file"),
        )
        .expect("JSON");
        let answer = key["answer"]["text"].as_str().expect("the answer key").to_owned();
        c.find(Locator::Id("collection"))
            .await
            .expect("the list")
            .select_by_value(&number.to_string())
            .await
            .expect("chosen");
        c.find(Locator::Css("#puzzle-list button[data-index='0']"))
            .await
            .expect("the first puzzle")
            .click()
            .await
            .expect("a click");
        until(
            &c,
            "!document.getElementById('puzzle').hidden && document.querySelector('#puzzle-board svg')",
            30,
            "the puzzle",
        )
        .await;
        assert!(text_of(&c, "puzzle-title").await.contains(&id), "{kind}: the puzzle shown");
        // A wrong answer: the format's example, which is never this puzzle's answer.
        let example = text_of(&c, "puzzle-format").await;
        let example = example.split("For example: ").nth(1).expect("an example").to_owned();
        c.find(Locator::Id("puzzle-answer")).await.expect("the answer box").send_keys(&example).await.expect("typed");
        click(&c, "puzzle-try").await;
        until(&c, "document.getElementById('puzzle-verdict').textContent.length > 0", 60, "the verdict").await;
        let verdict = text_of(&c, "puzzle-verdict").await;
        assert!(!verdict.contains("solved:"), "{kind}: the example does not solve it: {verdict}");
        // The hints, one by one, to the answer.
        let mut shown = 0;
        while c
            .find(Locator::Id("puzzle-hint"))
            .await
            .expect("the hint button")
            .prop("disabled")
            .await
            .expect("its state")
            .as_deref()
            != Some("true")
        {
            click(&c, "puzzle-hint").await;
            shown += 1;
            until(&c, &format!("document.querySelectorAll('#puzzle-hints li').length == {shown}"), 30, "a hint").await;
            assert!(shown <= 5, "{kind}: the hints end");
        }
        assert!(shown >= 2, "{kind}: hints before the answer");
        let last = text_of(&c, "puzzle-hints").await;
        assert!(last.contains("The answer"), "{kind}: the last hint gives the answer: {last}");
        until(&c, "!document.getElementById('puzzle-answer-board').hidden && document.querySelector('#puzzle-answer-board svg')", 30, "the answer drawn").await;
        // The answer from the key solves it.
        let input = c.find(Locator::Id("puzzle-answer")).await.expect("the answer box");
        input.clear().await.expect("cleared");
        input.send_keys(&answer).await.expect("typed");
        click(&c, "puzzle-try").await;
        until(&c, "document.getElementById('puzzle-verdict').className == 'solved'", 60, "the puzzle solved").await;
        assert!(text_of(&c, "puzzle-verdict").await.contains("solved"), "{kind}: solved");
        solved_ids.push(id);
        clean(&c, &base, kind).await;
    }
    // The progress is kept in the browser.
    c.refresh().await.expect("reloaded");
    until(&c, "document.querySelectorAll('#game option').length == 4", 30, "the page").await;
    click(&c, "open-puzzles").await;
    until(&c, "document.querySelectorAll('#puzzle-list button').length > 0", 30, "the list").await;
    let saved: Value =
        c.execute("return JSON.parse(localStorage.getItem('signalbox-puzzles'));", vec![]).await.expect("the progress");
    for id in &solved_ids {
        assert_eq!(saved[id.as_str()], json!("solved"), "{id} is kept as solved");
    }
    until(&c, "document.querySelector('#puzzle-list button.solved')", 10, "a solved mark in the list").await;
    let shot = c.screenshot().await.expect("a screenshot");
    std::fs::write(shots().join("board-puzzles-phone.png"), shot).expect("saved");
    clean(&c, &base, "the puzzles").await;
    c.close().await.expect("the session closes");
}
