//! The analysis pages in a real browser: each game's sample review is written with
//! `analyse --html`, opened from disk in headless Chromium driven over the DevTools protocol,
//! and must load without a console error, an uncaught exception or a failed resource; the
//! page must hold the chart, one move-table row per decision of the review's JSON and the three
//! boards of each turning point; on a phone-sized screen nothing may stick out sideways, every
//! table column is on screen or in a box that scrolls sideways, and no text is drawn under 11 px
//! (SVG text at its picture's scale); in
//! print the navigation is hidden and a PDF is made. A screenshot of each page is saved under
//! `target/browser/`. The checked-in pages under `reports/analysis/` must be what the command
//! writes today.
//!
//! Needs Debian's `chromium` (`.ci/run` installs it when missing), or the browser named by
//! `SIGNALBOX_CHROMIUM`.

mod support;

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use support::{run, temp_path};

/// A headless Chromium and one DevTools connection to it.
struct Browser {
    child: Child,
    profile: PathBuf,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Events received while waiting for answers, in order.
    events: Vec<Value>,
}

impl Browser {
    fn start(tag: &str) -> Browser {
        let program = std::env::var("SIGNALBOX_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned());
        let profile = temp_path(&format!("browser-{tag}"), "profile");
        let mut child = Command::new(&program)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program} ({e}): install Debian's chromium, as .ci/run does"));
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.split("DevTools listening on ").nth(1) {
                    let _ = tx.send(url.trim().to_owned());
                }
            }
        });
        let url = rx.recv_timeout(Duration::from_secs(60)).expect("chromium announces its DevTools address");
        let (socket, _) = tungstenite::connect(url.as_str()).expect("connect to DevTools");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream.set_read_timeout(Some(Duration::from_millis(250))).expect("read timeout");
        }
        Browser { child, profile, socket, next_id: 0, events: Vec::new() }
    }

    /// The next message, or `None` after a quiet quarter second.
    fn receive(&mut self) -> Option<Value> {
        match self.socket.read() {
            Ok(Message::Text(text)) => Some(serde_json::from_str(text.as_str()).expect("DevTools sends JSON")),
            Ok(_) => None,
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
            {
                None
            }
            Err(e) => panic!("DevTools connection: {e}"),
        }
    }

    /// Calls `method` (on `session`, or on the browser) and returns its result.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            message["sessionId"] = json!(s);
        }
        self.socket.send(Message::text(message.to_string())).expect("send to DevTools");
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            let Some(m) = self.receive() else { continue };
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{method}: {}", m["error"]);
                return m["result"].clone();
            }
            if m.get("method").is_some() {
                self.events.push(m);
            }
        }
        panic!("{method}: no answer within 60 s");
    }

    /// Waits for the event `name`, then lets the page settle for half a second.
    fn wait_for(&mut self, name: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.events.iter().any(|e| e["method"] == json!(name)) {
            assert!(Instant::now() < deadline, "no {name} within 60 s");
            if let Some(m) = self.receive() {
                self.events.push(m);
            }
        }
        let settle = Instant::now() + Duration::from_millis(500);
        while Instant::now() < settle {
            if let Some(m) = self.receive() {
                self.events.push(m);
            }
        }
    }

    /// Evaluates `expression` in the page and returns its value (JSON).
    fn evaluate(&mut self, session: &str, expression: &str) -> Value {
        let r =
            self.call(Some(session), "Runtime.evaluate", json!({ "expression": expression, "returnByValue": true }));
        assert!(r.get("exceptionDetails").is_none(), "{expression}: {}", r["exceptionDetails"]);
        r["result"]["value"].clone()
    }

    /// Every console error, uncaught exception and failed resource among the events.
    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for e in &self.events {
            let p = &e["params"];
            match e["method"].as_str().unwrap_or("") {
                "Runtime.consoleAPICalled" if matches!(p["type"].as_str(), Some("error" | "assert" | "warning")) => {
                    out.push(format!("console {}: {}", p["type"], p["args"]))
                }
                "Runtime.exceptionThrown" => out.push(format!("exception: {}", p["exceptionDetails"])),
                "Log.entryAdded" if matches!(p["entry"]["level"].as_str(), Some("error" | "warning")) => {
                    out.push(format!("log: {} ({})", p["entry"]["text"], p["entry"]["url"]))
                }
                "Network.loadingFailed" => out.push(format!("failed resource: {}", p["errorText"])),
                "Network.requestWillBeSent" => {
                    let url = p["request"]["url"].as_str().unwrap_or("");
                    if !url.starts_with("file://") && !url.starts_with("data:") && url != "about:blank" {
                        out.push(format!("the page asked for {url}"));
                    }
                }
                _ => {}
            }
        }
        out
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// The smallest text a reader should have to read on a phone, in CSS pixels at the page's scale.
const MIN_TEXT_PX: f64 = 11.0;

/// A script listing the table header cells a reader cannot see: outside the screen and in no
/// box that scrolls sideways, or cut off by a box that clips without scrolling.
const COLUMNS_OUT_OF_REACH: &str = r#"(() => {
  const out = [];
  for (const th of document.querySelectorAll('table th')) {
    const r = th.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    let scrolls = false, clipped = false;
    for (let a = th.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') { scrolls = true; break; }
      const ar = a.getBoundingClientRect();
      if ((o === 'hidden' || o === 'clip') && (r.right > ar.right + 1 || r.left < ar.left - 1)) { clipped = true; break; }
    }
    const inside = r.left >= -1 && r.right <= window.innerWidth + 1;
    if (clipped || (!scrolls && !inside)) out.push(th.textContent.trim() || '(empty)');
  }
  return out;
})()"#;

/// A script giving the smallest text drawn on the page (HTML and SVG, at the page's scale: an
/// SVG's text counts as drawn at its font size times the picture's scale), with its words.
const SMALLEST_TEXT: &str = r#"(() => {
  let best = { size: 1e9, text: '' };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent.trim();
    const el = n.parentElement;
    if (!t || !el || el.closest('style, script, title, desc')) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let size = parseFloat(cs.fontSize);
    if (el instanceof SVGElement && el.getScreenCTM) {
      const m = el.getScreenCTM();
      if (m) size *= Math.hypot(m.a, m.b);
    }
    if (size < best.size) best = { size, text: t.slice(0, 60) };
  }
  return best;
})()"#;

fn number(v: &Value) -> usize {
    v.as_u64().unwrap_or_else(|| panic!("a count, got {v}")) as usize
}

/// Opens `page` in a fresh tab, checks that it loads cleanly, evaluates each of `counts` (a
/// script expression giving a number), saves a screenshot to `screenshot`, checks the phone
/// (with `phone_text`, the size of the smallest text too) and print layouts, and returns the counts and the page printed to PDF (by its own page size).
fn inspect(tag: &str, page: &Path, screenshot: &Path, counts: &[&str], phone_text: bool) -> (Vec<usize>, Vec<u8>) {
    let mut b = Browser::start(tag);
    let target = b.call(None, "Target.createTarget", json!({ "url": "about:blank" }));
    let attached = b.call(None, "Target.attachToTarget", json!({ "targetId": target["targetId"], "flatten": true }));
    let session = attached["sessionId"].as_str().expect("a session").to_owned();
    let s = Some(session.as_str());
    for domain in ["Runtime.enable", "Log.enable", "Network.enable", "Page.enable"] {
        b.call(s, domain, json!({}));
    }
    b.call(
        s,
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
    );
    let url = format!("file://{}", page.canonicalize().expect("the page exists").display());
    b.call(s, "Page.navigate", json!({ "url": url }));
    b.wait_for("Page.loadEventFired");
    let problems = b.problems();
    assert!(problems.is_empty(), "{}: {problems:#?}", page.display());

    let seen = counts.iter().map(|c| number(&b.evaluate(&session, c))).collect();

    let shot = b.call(s, "Page.captureScreenshot", json!({ "format": "png", "captureBeyondViewport": true }));
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().expect("screenshot data"))
        .expect("base64");
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::create_dir_all(screenshot.parent().expect("a folder")).expect("screenshot folder");
    std::fs::write(screenshot, png).expect("write the screenshot");

    // A phone: nothing wider than the screen except inside the scrolling table boxes.
    b.call(
        s,
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true }),
    );
    b.call(s, "Page.reload", json!({}));
    b.events.clear();
    b.wait_for("Page.loadEventFired");
    let overflow = b.evaluate(&session, "document.documentElement.scrollWidth - document.documentElement.clientWidth");
    assert!(
        overflow.as_f64().unwrap_or(f64::MAX) <= 1.0,
        "{}: the page is {overflow} px wider than a phone",
        page.display()
    );
    let hidden = b.evaluate(&session, COLUMNS_OUT_OF_REACH);
    assert_eq!(hidden, json!([]), "{}: table columns a phone's reader cannot see or scroll to", page.display());
    let smallest = b.evaluate(&session, SMALLEST_TEXT);
    let size = smallest["size"].as_f64().unwrap_or(0.0);
    assert!(
        !phone_text || size >= MIN_TEXT_PX - 0.05,
        "{}: on a phone, text drawn {size:.1} px high (under {MIN_TEXT_PX} px): {}",
        page.display(),
        smallest["text"]
    );

    // Print: the navigation is hidden, and a PDF comes out.
    b.call(s, "Emulation.setEmulatedMedia", json!({ "media": "print" }));
    let nav = b.evaluate(&session, "getComputedStyle(document.querySelector('nav')).display");
    assert_eq!(nav, json!("none"), "the print stylesheet hides the navigation");
    let pdf = b.call(s, "Page.printToPDF", json!({ "preferCSSPageSize": true }));
    let pdf =
        base64::engine::general_purpose::STANDARD.decode(pdf["data"].as_str().expect("PDF data")).expect("base64");
    assert!(pdf.starts_with(b"%PDF") && pdf.len() > 1000, "a PDF of the page");
    assert!(b.problems().is_empty(), "{}: {:#?}", page.display(), b.problems());
    (seen, pdf)
}

/// The pages of a PDF: its page objects (`/Type /Page`, not `/Pages`).
fn pdf_pages(pdf: &[u8]) -> usize {
    let key = b"/Type";
    let mut pages = 0;
    for i in 0..pdf.len().saturating_sub(key.len()) {
        if &pdf[i..i + key.len()] == key {
            let rest: Vec<u8> =
                pdf[i + key.len()..].iter().copied().skip_while(|c| c.is_ascii_whitespace()).take(6).collect();
            if rest.starts_with(b"/Page") && !rest.starts_with(b"/Pages") {
                pages += 1;
            }
        }
    }
    pages
}

/// Writes `game`'s sample review as a page, checks it in the browser against the review's JSON,
/// and checks that the checked-in page is the same.
fn sample_review(game: &str) {
    let page = temp_path(&format!("browser-{game}"), "review.html");
    let _ = std::fs::remove_file(&page);
    let path = page.to_str().expect("a UTF-8 path");
    let (code, out, err) = run(&[game, "analyse", "--json", "--quiet", "--html", path]);
    assert_eq!(code, Some(0), "{game} analyse: {err}");
    let review: Value = serde_json::from_str(&out).expect("the review as JSON");
    let decisions = review["decisions"].as_array().expect("decisions").len();
    let turning = review["summary"]["turning_points"].as_array().expect("turning points").len();
    let charts = review["charts"].as_array().expect("charts").len();
    assert!(decisions > 0 && charts > 0 && turning > 0, "{game}: a sample with something to find");

    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser").join(format!("{game}.png"));
    let (seen, _) = inspect(
        game,
        &page,
        &screenshot,
        &[
            "document.querySelectorAll('table.moves tbody tr.decision').length",
            "document.querySelectorAll('figure.chart svg .series').length ? document.querySelectorAll('figure.chart svg').length : 0",
            "document.querySelectorAll('article.turning-point').length",
            "Array.from(document.querySelectorAll('article.turning-point figure.board svg')).filter(s => s.getBoundingClientRect().width > 50 && s.getBoundingClientRect().height > 50).length",
        ],
        true,
    );
    assert_eq!(seen[0], decisions, "{game}: one move-table row per decision");
    assert_eq!(seen[1], charts, "{game}: every chart drawn with its lines");
    assert_eq!(seen[2], turning, "{game}: every turning point");
    assert_eq!(seen[3], 3 * turning, "{game}: three boards drawn at each turning point");
    eprintln!("{game}: screenshot {}", screenshot.display());

    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/analysis").join(format!("{game}.html"));
    let fresh = std::fs::read_to_string(&page).expect("the page");
    let checked_in = std::fs::read_to_string(&shipped).unwrap_or_default();
    assert!(
        fresh == checked_in,
        "{} is not what `signalbox {game} analyse` writes today; regenerate it with\n  cargo run --release -- {game} analyse --html reports/analysis/{game}.html --force",
        shipped.display()
    );
}

#[test]
fn the_cubes_of_europe_sample_review_opens_cleanly_in_a_browser() {
    sample_review("coe");
}

#[test]
fn the_cube_express_sample_review_opens_cleanly_in_a_browser() {
    sample_review("cube-express");
}

#[test]
fn the_railways_sample_review_opens_cleanly_in_a_browser() {
    sample_review("railways");
}

#[test]
fn the_express01_sample_review_opens_cleanly_in_a_browser() {
    sample_review("express01");
}

/// Every shipped puzzle book (`puzzles/collections/*/book.html`) opens cleanly, shows each puzzle
/// and each answer with its board drawn, and prints by its own A4 page size on fewer than two
/// pages a puzzle (a board large enough to read takes up to a page; the answers are smaller);
/// so does the PDF checked in beside it.
#[test]
fn every_shipped_puzzle_book_opens_cleanly_and_prints_within_two_pages_per_puzzle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/collections");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("the collections")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in &dirs {
        let name = dir.file_name().expect("a name").to_string_lossy().to_string();
        let manifest: Value =
            serde_json::from_slice(&std::fs::read(dir.join("collection.json")).expect("a manifest")).expect("JSON");
        let n = manifest["puzzles"].as_array().expect("puzzles").len();
        let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser").join(format!("book-{name}.png"));
        let (seen, pdf) = inspect(
            &format!("book-{name}"),
            &dir.join("book.html"),
            &screenshot,
            &[
                "document.querySelectorAll('article.puzzle').length",
                "document.querySelectorAll('article.answer').length",
                "Array.from(document.querySelectorAll('article figure > svg')).filter(s => s.getBoundingClientRect().width > 50 && s.getBoundingClientRect().height > 50).length",
            ],
            false,
        );
        assert_eq!(seen[..2], [n, n], "{name}: every puzzle and every answer");
        assert_eq!(seen[2], 2 * n, "{name}: a board drawn with every puzzle and every answer");
        let pages = pdf_pages(&pdf);
        assert!(pages > 0 && pages < 2 * n, "{name}: {pages} pages for {n} puzzles");
        let shipped = std::fs::read(dir.join("book.pdf")).expect("the book's PDF");
        let pages = pdf_pages(&shipped);
        assert!(pages > 0 && pages < 2 * n, "{name}: the checked-in PDF has {pages} pages for {n} puzzles");
    }
    assert!(dirs.len() >= 5, "a collection of each kind: {dirs:?}");
}

/// `puzzles book` writes the HTML and prints its PDF with headless Chromium: fewer than two pages
/// a puzzle, titled as asked, no formula in the preface; an existing PDF is not replaced without
/// --force.
#[test]
fn the_book_command_prints_a_pdf_beside_the_page() {
    let dir = temp_path("book-cli", "collection");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().expect("path");
    let (code, _, err) =
        run(&["puzzles", "make", "--game", "railways-link", "--count", "4", "--seed", "3", "--quiet", "--out", d]);
    assert_eq!(code, Some(0), "{err}");
    let html = temp_path("book-cli", "book.html");
    let pdf = html.with_extension("pdf");
    let _ = std::fs::remove_file(&html);
    let _ = std::fs::remove_file(&pdf);
    let (code, out, err) =
        run(&["puzzles", "book", d, "--html", html.to_str().expect("path"), "--title", "Club night: links"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let pages = pdf_pages(&std::fs::read(&pdf).expect("the PDF beside the page"));
    assert!(pages > 0 && pages < 8, "{pages} pages for 4 puzzles");
    let page = std::fs::read_to_string(&html).expect("the page");
    assert!(page.contains("<h1>Club night: links</h1>"), "the title given is the book's");
    assert!(!page.contains("Rating ="), "no formula in the preface");
    let _ = std::fs::remove_file(&html);
    let (code, _, err) = run(&["puzzles", "book", d, "--html", html.to_str().expect("path")]);
    assert_eq!(code, Some(2), "the PDF left from before is not replaced: {err}");
    assert!(err.contains("--force") && !html.exists(), "refused before anything is written: {err}");
}

/// The checker itself: a page with a console error, a missing picture and a remote request
/// is caught.
#[test]
fn a_broken_page_is_caught() {
    let page = temp_path("browser-broken", "broken.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>x</title></head><body><nav></nav>\
         <img src=\"missing.png\"><script>console.error('boom')</script></body></html>",
    )
    .expect("write");
    let mut b = Browser::start("broken");
    let target = b.call(None, "Target.createTarget", json!({ "url": "about:blank" }));
    let attached = b.call(None, "Target.attachToTarget", json!({ "targetId": target["targetId"], "flatten": true }));
    let session = attached["sessionId"].as_str().expect("a session").to_owned();
    for domain in ["Runtime.enable", "Log.enable", "Network.enable", "Page.enable"] {
        b.call(Some(&session), domain, json!({}));
    }
    b.call(Some(&session), "Page.navigate", json!({ "url": format!("file://{}", page.display()) }));
    b.wait_for("Page.loadEventFired");
    let problems = b.problems().join("\n");
    assert!(problems.contains("boom"), "{problems}");
    assert!(problems.contains("failed resource") || problems.contains("ERR_FILE_NOT_FOUND"), "{problems}");
}
