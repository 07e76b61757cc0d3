//! The analysis pages in a real browser: each game's sample review is written with
//! `analyse --html`, opened from disk in headless Chromium driven over WebDriver (fantoccini with
//! Debian's `chromium-driver`), and must load without a console error or warning, an uncaught
//! exception, a failed resource or a request for anything but a file or a `data:` URL; the
//! page must hold the chart, one move-table row per decision of the review's JSON and the three
//! boards of each turning point; on a phone-sized screen nothing may stick out sideways, every
//! table column is on screen or in a box that scrolls sideways, and no text is drawn under 11 px
//! (SVG text at its picture's scale); in
//! print the navigation is hidden and a PDF is made (WebDriver's Print). A screenshot of each page
//! is saved under `target/tmp/browser/`. The checked-in pages under `reports/analysis/` must be what
//! the command writes today.
//!
//! What WebDriver has no command for (the screen's size and scale, the print media, a screenshot
//! of the whole page) goes to the DevTools protocol through chromedriver's `goog/cdp/execute`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them when missing), or
//! the programs named by `SIGNALBOX_CHROMIUM` and `SIGNALBOX_CHROMEDRIVER`.

#[path = "support/browser.rs"]
mod browser;
mod support;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine as _;
use fantoccini::Client;
use fantoccini::wd::{PrintConfiguration, PrintSize};
use serde_json::{Value, json};

use browser::{Cdp, Driver, problems, session, smallest_text};
use support::{run, temp_path};

/// A headless Chromium in a WebDriver session of its own chromedriver. Dropped, even by a failed
/// check, it ends the session (so the browser quits), the driver and the profile.
struct Browser {
    c: Client,
    profile: PathBuf,
    driver: Option<Driver>,
}

impl Browser {
    async fn start(tag: &str) -> Browser {
        let mut driver = Driver::start();
        let profile = temp_path(&format!("browser-{tag}"), "profile");
        let c = session(&mut driver, &profile, json!({})).await;
        Browser { c, profile, driver: Some(driver) }
    }

    /// Calls the DevTools command `method` on the tab and returns its result.
    async fn cdp(&self, method: &'static str, params: Value) -> Value {
        self.c.issue_cmd(Cdp(method, params)).await.unwrap_or_else(|e| panic!("{method}: {e}"))
    }

    /// Opens `page` from disk and lets it settle for half a second after its load event.
    async fn open(&self, page: &Path) {
        let url = format!("file://{}", page.canonicalize().expect("the page exists").display());
        self.c.goto(&url).await.unwrap_or_else(|e| panic!("{url} opens: {e}"));
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    /// Evaluates `expression` in the page and returns its value (JSON).
    async fn evaluate(&self, expression: &str) -> Value {
        self.c.execute(&format!("return ({expression});"), vec![]).await.unwrap_or_else(|e| panic!("{expression}: {e}"))
    }

    /// Every console error or warning (uncaught exceptions and failed loads included), failed
    /// resource and request off the page (not a file or `data:`) since the last look.
    async fn problems(&self) -> Vec<String> {
        problems(&self.c, |url| url.starts_with("file://") || url.starts_with("data:")).await
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The browser first, then its profile.
        drop(self.driver.take());
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Runs `f` to its end on a runtime of its own.
fn block_on<F: Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime").block_on(f)
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

fn number(v: &Value) -> usize {
    v.as_u64().unwrap_or_else(|| panic!("a count, got {v}")) as usize
}

/// Opens `page` in a fresh browser, checks that it loads cleanly, evaluates each of `counts` (a
/// script expression giving a number), saves a screenshot to `screenshot`, checks the phone
/// (with `phone_text`, the size of the smallest text too) and print layouts, and returns the
/// counts and the page printed to PDF (on A4, the books' own page size).
fn inspect(tag: &str, page: &Path, screenshot: &Path, counts: &[&str], phone_text: bool) -> (Vec<usize>, Vec<u8>) {
    block_on(async {
        let b = Browser::start(tag).await;
        b.cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
        )
        .await;
        b.open(page).await;
        let problems = b.problems().await;
        assert!(problems.is_empty(), "{}: {problems:#?}", page.display());
        assert_eq!(
            b.evaluate("[window.innerWidth, window.devicePixelRatio]").await,
            json!([1200, 1]),
            "a desktop screen"
        );

        let mut seen = Vec::new();
        for c in counts {
            seen.push(number(&b.evaluate(c).await));
        }

        // The whole page, not only the screen's worth that WebDriver's screenshot takes.
        let shot = b.cdp("Page.captureScreenshot", json!({ "format": "png", "captureBeyondViewport": true })).await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("screenshot data"))
            .expect("base64");
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        std::fs::create_dir_all(screenshot.parent().expect("a folder")).expect("screenshot folder");
        std::fs::write(screenshot, png).expect("write the screenshot");

        // A phone: nothing wider than the screen except inside the scrolling table boxes.
        b.cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true }),
        )
        .await;
        b.c.refresh().await.expect("the page reloads");
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(b.evaluate("[screen.width, window.devicePixelRatio]").await, json!([390, 2]), "a phone");
        let overflow = b.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth").await;
        assert!(
            overflow.as_f64().unwrap_or(f64::MAX) <= 1.0,
            "{}: the page is {overflow} px wider than a phone",
            page.display()
        );
        let hidden = b.evaluate(COLUMNS_OUT_OF_REACH).await;
        assert_eq!(hidden, json!([]), "{}: table columns a phone's reader cannot see or scroll to", page.display());
        let smallest = b.evaluate(&smallest_text("body")).await;
        let size = smallest["size"].as_f64().unwrap_or(0.0);
        assert!(
            !phone_text || size >= MIN_TEXT_PX - 0.05,
            "{}: on a phone, text drawn {size:.1} px high (under {MIN_TEXT_PX} px): {}",
            page.display(),
            smallest["text"]
        );

        // Print: the navigation is hidden, and a PDF comes out.
        b.cdp("Emulation.setEmulatedMedia", json!({ "media": "print" })).await;
        let nav = b.evaluate("getComputedStyle(document.querySelector('nav')).display").await;
        assert_eq!(nav, json!("none"), "the print stylesheet hides the navigation");
        let a4 = PrintConfiguration::builder().size(PrintSize::A4).build().expect("A4");
        let pdf = b.c.print(a4).await.expect("the page prints");
        assert!(pdf.starts_with(b"%PDF") && pdf.len() > 1000, "a PDF of the page");
        let problems = b.problems().await;
        assert!(problems.is_empty(), "{}: {problems:#?}", page.display());
        (seen, pdf)
    })
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
         <img src=\"missing.png\"><img src=\"http://127.0.0.1:9/remote.png\">\
         <script>console.error('boom')</script></body></html>",
    )
    .expect("write");
    let problems = block_on(async {
        let b = Browser::start("broken").await;
        b.open(&page).await;
        b.problems().await.join("\n")
    });
    assert!(problems.contains("boom"), "{problems}");
    assert!(problems.contains("failed resource") || problems.contains("ERR_FILE_NOT_FOUND"), "{problems}");
    assert!(problems.contains("the page asked for http://127.0.0.1:9/remote.png"), "{problems}");
}
