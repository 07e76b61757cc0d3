//! What the browser tests share (`tests/browser_reports.rs`, `tests/browser_app.rs`): a
//! chromedriver of their own, a headless Chromium session with its console and network logs, and
//! the reading of those logs for problems. Included with `#[path]` by the tests that drive a
//! browser only.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them when missing), or the
//! programs named by `SIGNALBOX_CHROMIUM` and `SIGNALBOX_CHROMEDRIVER`.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder};
use serde_json::{Value, json};

/// A chromedriver on a free port: dropped, even by a failed check, it ends its session (so the
/// browser quits) and then itself.
pub struct Driver {
    child: Child,
    /// The port it listens on.
    pub port: u16,
    session: Option<String>,
}

impl Driver {
    /// Starts chromedriver and waits until it listens.
    pub fn start() -> Driver {
        let program = std::env::var("SIGNALBOX_CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".to_owned());
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let child = Command::new(&program)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {program} ({e}): install Debian's chromium-driver, as .ci/run does")
            });
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver listens within 30 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        Driver { child, port, session: None }
    }

    /// Ends the WebDriver session, synchronously (a failed check panics outside any runtime).
    fn end_session(&self, session: &str) {
        let Ok(mut s) = TcpStream::connect(("127.0.0.1", self.port)) else { return };
        let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
        let request = format!(
            "DELETE /session/{session} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            self.port
        );
        if s.write_all(request.as_bytes()).is_err() {
            return;
        }
        // Until the whole answer is in: chromedriver may keep the connection open.
        let mut answer = Vec::new();
        let mut chunk = [0; 4096];
        while let Ok(n @ 1..) = s.read(&mut chunk) {
            answer.extend_from_slice(&chunk[..n]);
            let text = String::from_utf8_lossy(&answer);
            let Some((head, body)) = text.split_once("\r\n\r\n") else { continue };
            let length = head
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:")?.trim().parse().ok())
                .unwrap_or(0);
            if body.len() >= length {
                break;
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            self.end_session(&session);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Chromedriver's log of one kind (`browser`: the console; `performance`: the network), emptied
/// as it is read.
#[derive(Debug)]
pub struct Log(pub &'static str);

impl WebDriverCompatibleCommand for Log {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({ "type": self.0 }).to_string()))
    }
}

/// A DevTools command on the current tab, through chromedriver (`goog/cdp/execute`), for what
/// WebDriver has no command for.
#[derive(Debug)]
#[allow(dead_code)] // Only the analysis pages' test sets the screen and the print media.
pub struct Cdp(pub &'static str, pub Value);

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({ "cmd": self.0, "params": self.1 }).to_string()))
    }
}

/// A headless Chromium session of `driver`, with the profile folder `profile` and `options`
/// added to its `goog:chromeOptions` (`mobileEmulation`, more `args`), its console and network
/// logged. What the browser did before the session's first page (Debian's build opens a start
/// page of its own, which this machine cannot reach) is read off and dropped.
pub async fn session(driver: &mut Driver, profile: &Path, options: Value) -> Client {
    let program = std::env::var("SIGNALBOX_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
    let mut args = vec![
        json!("--headless=new"),
        json!("--no-sandbox"),
        json!("--disable-gpu"),
        json!("--disable-quic"),
        json!("--disable-dev-shm-usage"),
        json!("--no-first-run"),
        json!("--disable-background-networking"),
        json!("--disable-component-update"),
        json!("--disable-sync"),
        json!("--hide-scrollbars"),
        json!(format!("--user-data-dir={}", profile.display())),
    ];
    let mut chrome = json!({ "binary": program });
    if let Value::Object(extra) = options {
        for (key, value) in extra {
            if key == "args" {
                args.extend(value.as_array().cloned().unwrap_or_default());
            } else {
                chrome[key] = value;
            }
        }
    }
    chrome["args"] = Value::Array(args);
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".to_owned(), chrome);
    caps.insert("goog:loggingPrefs".to_owned(), json!({ "browser": "ALL", "performance": "ALL" }));
    let c = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a WebDriver session");
    driver.session = c.session_id().await.ok().flatten();
    c.goto("about:blank").await.expect("a blank page");
    tokio::time::sleep(Duration::from_millis(300)).await;
    for kind in ["browser", "performance"] {
        c.issue_cmd(Log(kind)).await.expect("the log is read");
    }
    c
}

/// Every console error or warning (uncaught exceptions and failed loads included), failed
/// request, answer of status 400 or more, and request for a URL that `allowed` refuses, since the
/// last look.
pub async fn problems(c: &Client, allowed: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let console = c.issue_cmd(Log("browser")).await.expect("the console log");
    for entry in console.as_array().into_iter().flatten() {
        if matches!(entry["level"].as_str(), Some("SEVERE" | "WARNING")) {
            out.push(format!("console {}: {}", entry["level"], entry["message"]));
        }
    }
    let network = c.issue_cmd(Log("performance")).await.expect("the network log");
    let mut sent = HashMap::new();
    for entry in network.as_array().into_iter().flatten() {
        let Ok(message) = serde_json::from_str::<Value>(entry["message"].as_str().unwrap_or("{}")) else { continue };
        let (m, p) = (&message["message"]["method"], &message["message"]["params"]);
        match m.as_str().unwrap_or("") {
            "Network.requestWillBeSent" => {
                let url = p["request"]["url"].as_str().unwrap_or("");
                sent.insert(p["requestId"].as_str().unwrap_or("").to_owned(), url.to_owned());
                if !allowed(url) && url != "about:blank" {
                    out.push(format!("the page asked for {url}"));
                }
            }
            "Network.loadingFailed" => {
                let url = sent.get(p["requestId"].as_str().unwrap_or("")).cloned().unwrap_or_default();
                out.push(format!("failed resource: {} ({url})", p["errorText"]));
            }
            "Network.responseReceived" => {
                let status = p["response"]["status"].as_u64().unwrap_or(0);
                if status >= 400 {
                    out.push(format!("{} answered {status}", p["response"]["url"]));
                }
            }
            _ => {}
        }
    }
    out
}

/// A script giving the smallest text drawn inside the elements `selector` matches (HTML and SVG,
/// at the page's scale: an SVG's text counts as drawn at its font size times the picture's
/// scale), with its words: `{size, text}`.
pub fn smallest_text(selector: &str) -> String {
    format!(
        r#"(() => {{
  let best = {{ size: 1e9, text: '' }};
  for (const root of document.querySelectorAll({selector:?})) {{
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {{
      const t = n.textContent.trim();
      const el = n.parentElement;
      if (!t || !el || el.closest('style, script, title, desc')) continue;
      const cs = getComputedStyle(el);
      if (cs.display === 'none' || cs.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      let size = parseFloat(cs.fontSize);
      if (el instanceof SVGElement && el.getScreenCTM) {{
        const m = el.getScreenCTM();
        if (m) size *= Math.hypot(m.a, m.b);
      }}
      if (size < best.size) best = {{ size, text: t.slice(0, 60) }};
    }}
  }}
  return best;
}})()"#
    )
}
