//! `signalbox serve`: the analysis board, a local web app for all four games. It opens a game
//! (a bundled sample, a record picked or dropped, a record named on the command line, a new game
//! from a seed), steps through it, reviews it in the background, asks the best move at any step
//! (the CLI's own `advise`, in a process of its own that a stop button ends with the best found),
//! and tries other moves from any step, forking the game and saving it as a record the CLI reads.
//! Its puzzles are the shipped collections and any collection folder named with `--puzzles`,
//! solved on the page with `puzzles try`'s verdict and hints from the answer key.
//!
//! Safe by default: it listens on 127.0.0.1 unless `--host` says otherwise; it serves only its
//! own three files, built into the binary, under a policy that lets the page load nothing from
//! elsewhere; no request names a path on the disk (the files the questions need live in a folder
//! of the server's own, removed when it stops); request bodies and search time are capped.

mod api;
mod asks;
pub mod games;
pub mod puzzles;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;

use crate::input::{bad, read_text};

/// Arguments of `serve`.
///
/// Examples:
///   signalbox serve                          (then open http://127.0.0.1:8080 in a browser)
///   signalbox serve my-game.json             (opens the record at once)
///   signalbox serve --port 9000 --search-limit 20
///   signalbox serve --puzzles club-puzzles      (a collection of your own beside the shipped ones)
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Game records to open at the start (any of the four games); the first is shown at once.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The port to listen on (0: any free port, printed at the start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default, 127.0.0.1, lets only this computer in; another
    /// address lets in anyone who can reach it.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// The longest a best-move search may run, in seconds; past it the answer is the best found
    /// with its bound, labelled not proven.
    #[arg(long, value_name = "S", default_value = "60", value_parser = crate::flags::seconds)]
    search_limit: Duration,
    /// A puzzle collection folder (as `puzzles make --out` writes it) to offer beside the
    /// shipped collections; may be given more than once.
    #[arg(long, value_name = "DIR")]
    puzzles: Vec<PathBuf>,
}

/// The largest request body accepted (an uploaded record): 4 MiB.
pub const MAX_BODY: usize = 4 << 20;

/// Runs `serve`.
pub fn run(a: Args) -> anyhow::Result<()> {
    let mut opened = Vec::new();
    for path in &a.files {
        let label = path.display().to_string();
        let text = read_text(path)?;
        let kind = games::named_in(&text)
            .ok_or_else(|| bad(format!("{label}: not a game record of signalbox: it names no `game`")))?;
        opened.push(kind.open(&label, &text).map_err(bad)?);
    }
    let shelf = puzzles::Shelf::new(&a.puzzles).map_err(bad)?;
    let dir = asks::Folder::new().context("cannot make the folder for the questions' files")?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let address = SocketAddr::new(a.host, a.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| bad(format!("cannot listen on {address}: {e}")))?;
        let local = listener.local_addr()?;
        if !a.host.is_loopback() {
            eprintln!(
                "warning: listening on {local}: anyone who can reach this address can use the board and its searches"
            );
        }
        let state = api::State::new(dir, a.search_limit, opened, shelf, a.host.is_loopback(), local.port())?;
        let app = api::router(state.clone());
        say!("The analysis board is at http://{}:{}/ (Ctrl-C to stop)", shown_host(a.host), local.port());
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .context("the server stopped")?;
        state.shut_down();
        anyhow::Ok(())
    })
}

/// The host as a browser's address bar takes it.
fn shown_host(host: IpAddr) -> String {
    match host {
        IpAddr::V6(v6) => format!("[{v6}]"),
        IpAddr::V4(v4) => v4.to_string(),
    }
}
