//! The board's routes: its three files, and the questions the page asks as JSON. Every answer
//! is one of the library's serde types ([`Walk`], [`Choice`], [`Reviewed`], `advise --json`'s
//! answer), the same the CLI prints.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Path, Request, State as Extract};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use signalbox_render::walk::{Choice, Reviewed, Walk};

use super::asks::{AskStatus, Asks, Folder, tab_name};
use super::games::{Kind, Open, ReviewResult, named_in};
use super::puzzles::{PuzzleView, Shelf, ShelfEntry, TryAnswer};

/// The most games kept open at once; opening more forgets the oldest.
const MAX_OPEN: usize = 256;

/// The most reviews running at once (each uses every core).
const MAX_REVIEWS: usize = 2;

/// The page, its script and its style, built into the binary.
const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/app.css");

/// What the page may load: its own files and nothing from elsewhere.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                      connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/// A review running or done.
struct ReviewJob {
    done: AtomicUsize,
    total: AtomicUsize,
    result: Mutex<Option<ReviewResult>>,
}

/// The server's state: the open games, their reviews and the tabs' questions.
pub struct State {
    games: Mutex<BTreeMap<u64, Arc<dyn Open>>>,
    next: Mutex<u64>,
    reviews: Mutex<HashMap<u64, Arc<ReviewJob>>>,
    asks: Asks,
    shelf: Arc<Shelf>,
    started: Vec<u64>,
    loopback: bool,
    port: u16,
}

impl State {
    /// The state of a server with the games opened from the command line, its questions' files in
    /// `folder` and searches capped at `cap`.
    pub fn new(
        folder: Folder,
        cap: Duration,
        opened: Vec<Box<dyn Open>>,
        shelf: Shelf,
        loopback: bool,
        port: u16,
    ) -> anyhow::Result<Arc<State>> {
        let exe = std::env::current_exe()?;
        let mut state = State {
            games: Mutex::new(BTreeMap::new()),
            next: Mutex::new(1),
            reviews: Mutex::new(HashMap::new()),
            asks: Asks::new(exe, cap, folder),
            shelf: Arc::new(shelf),
            started: Vec::new(),
            loopback,
            port,
        };
        for game in opened {
            let id = state.keep(game.into());
            state.started.push(id);
        }
        Ok(Arc::new(state))
    }

    /// Stops every search (the server is stopping).
    pub fn shut_down(&self) {
        self.asks.stop_all();
    }

    fn keep(&self, game: Arc<dyn Open>) -> u64 {
        let id = {
            let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
            let id = *next;
            *next += 1;
            id
        };
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.insert(id, game);
        while games.len() > MAX_OPEN {
            games.pop_first();
        }
        id
    }

    fn game(&self, id: u64) -> Result<Arc<dyn Open>, Refusal> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
            .cloned()
            .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, "no such game is open: open it again"))
    }
}

/// A request refused, with its reason in words.
#[derive(Debug)]
struct Refusal {
    status: StatusCode,
    error: String,
}

impl Refusal {
    fn new(status: StatusCode, error: impl Into<String>) -> Refusal {
        Refusal { status, error: error.into() }
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.status, Json(ErrorBody { error: &self.error })).into_response()
    }
}

/// The routes, with the body cap and the safety headers.
pub fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(|| async { page(INDEX, "text/html; charset=utf-8") }))
        .route("/app.js", get(|| async { page(SCRIPT, "text/javascript; charset=utf-8") }))
        .route("/app.css", get(|| async { page(STYLE, "text/css; charset=utf-8") }))
        .route("/api/games", get(list_games))
        .route("/api/open", post(open))
        .route("/api/new", post(new_game))
        .route("/api/g/{id}", get(walk))
        .route("/api/g/{id}/board/{at}", get(board))
        .route("/api/g/{id}/choices/{at}", get(choices))
        .route("/api/g/{id}/play", post(play))
        .route("/api/g/{id}/record", get(record))
        .route("/api/g/{id}/review", get(review_status).post(review_start))
        .route("/api/g/{id}/best/{decision}", get(best_board))
        .route("/api/ask", post(ask))
        .route("/api/ask/{tab}", get(ask_status))
        .route("/api/ask/{tab}/stop", post(ask_stop))
        .route("/api/puzzles", get(shelf))
        .route("/api/puzzles/{c}/{i}", get(puzzle))
        .route("/api/puzzles/{c}/{i}/try", post(try_answer))
        .route("/api/puzzles/{c}/{i}/hint/{n}", get(hint))
        .route("/api/puzzles/{c}/{i}/answer", get(answer_board))
        .layer(DefaultBodyLimit::max(super::MAX_BODY))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// Refuses a request addressed to another host name than this computer's while the server
/// listens only here (a page elsewhere cannot reach it through a name it controls), and adds the
/// safety headers to every answer.
async fn guard(Extract(state): Extract<Arc<State>>, request: Request, next: Next) -> Response {
    if state.loopback {
        let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
        let port = state.port;
        let allowed = [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}")];
        if !allowed.iter().any(|a| a == host) {
            return Refusal::new(StatusCode::FORBIDDEN, "this board answers only at 127.0.0.1").into_response();
        }
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn page(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// A game the board lists.
#[derive(Serialize)]
struct GameName {
    command: &'static str,
    name: &'static str,
}

/// The games, and the open games named on the command line.
#[derive(Serialize)]
struct Start {
    games: Vec<GameName>,
    opened: Vec<Opened>,
}

/// An open game: its number on this server and its walk.
#[derive(Serialize)]
struct Opened {
    id: u64,
    walk: Walk,
}

fn opened(id: u64, game: &dyn Open) -> Opened {
    Opened { id, walk: game.walk().clone() }
}

async fn list_games(Extract(state): Extract<Arc<State>>) -> Json<Start> {
    let games = Kind::ALL.into_iter().map(|k| GameName { command: k.command(), name: k.name() }).collect();
    let opened = state.started.iter().filter_map(|&id| state.game(id).ok().map(|g| opened(id, &*g))).collect();
    Json(Start { games, opened })
}

fn kind(name: &str) -> Result<Kind, Refusal> {
    Kind::from_command(name).ok_or_else(|| Refusal::new(StatusCode::BAD_REQUEST, format!("no game is named `{name}`")))
}

/// Runs blocking work (replaying, drawing, reviewing) off the server's threads.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, "the work failed inside signalbox"))
}

/// A game to open: the chosen game's sample, or a file's text (its own `game` wins).
#[derive(Deserialize)]
struct OpenRequest {
    game: String,
    /// The file's name, as messages name it.
    name: Option<String>,
    /// The file's text; none for the sample.
    text: Option<String>,
}

/// The answer to a request to open or play: the game, or the reason it was refused in the words
/// the CLI uses for the same file or move. A refusal is an answer, not a failed request.
#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    /// The game opened or forked.
    Opened(Opened),
    /// Why not.
    Refused {
        /// The reason, as the CLI says it.
        refused: String,
    },
}

fn answer(state: &State, game: Result<Box<dyn Open>, String>) -> Json<Answer> {
    Json(match game {
        Ok(game) => {
            let game: Arc<dyn Open> = game.into();
            let id = state.keep(game.clone());
            Answer::Opened(opened(id, &*game))
        }
        Err(refused) => Answer::Refused { refused },
    })
}

async fn open(Extract(state): Extract<Arc<State>>, Json(request): Json<OpenRequest>) -> Result<Json<Answer>, Refusal> {
    let chosen = kind(&request.game)?;
    let game = blocking(move || match request.text {
        None => Ok(chosen.sample()),
        Some(text) => {
            let label = request.name.filter(|n| !n.is_empty()).unwrap_or_else(|| "the file".to_owned());
            named_in(&text).unwrap_or(chosen).open(&label, &text)
        }
    })
    .await?;
    Ok(answer(&state, game))
}

#[derive(Deserialize)]
struct NewRequest {
    game: String,
    seed: u64,
}

async fn new_game(
    Extract(state): Extract<Arc<State>>,
    Json(request): Json<NewRequest>,
) -> Result<Json<Answer>, Refusal> {
    let chosen = kind(&request.game)?;
    let game = blocking(move || chosen.new_game(request.seed)).await?;
    Ok(answer(&state, game))
}

async fn walk(Extract(state): Extract<Arc<State>>, Path(id): Path<u64>) -> Result<Json<Opened>, Refusal> {
    let game = state.game(id)?;
    Ok(Json(opened(id, &*game)))
}

fn svg(body: String) -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml")], body).into_response()
}

async fn board(Extract(state): Extract<Arc<State>>, Path((id, at)): Path<(u64, usize)>) -> Result<Response, Refusal> {
    let game = state.game(id)?;
    Ok(svg(blocking(move || game.board(at)).await?))
}

async fn choices(
    Extract(state): Extract<Arc<State>>,
    Path((id, at)): Path<(u64, usize)>,
) -> Result<Json<Vec<Choice>>, Refusal> {
    let game = state.game(id)?;
    Ok(Json(blocking(move || game.choices(at)).await?))
}

#[derive(Deserialize)]
struct PlayRequest {
    at: usize,
    text: String,
}

async fn play(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<u64>,
    Json(request): Json<PlayRequest>,
) -> Result<Json<Answer>, Refusal> {
    let game = state.game(id)?;
    let forked = blocking(move || game.play(request.at, request.text.trim())).await?;
    Ok(answer(&state, forked))
}

async fn record(Extract(state): Extract<Arc<State>>, Path(id): Path<u64>) -> Result<Response, Refusal> {
    let game = state.game(id)?;
    let name = format!("attachment; filename=\"{}-record.json\"", game.kind().command());
    let text = blocking(move || game.record()).await?;
    let disposition = HeaderValue::from_str(&name).unwrap_or(HeaderValue::from_static("attachment"));
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// What the page is told of a review.
#[derive(Serialize)]
struct ReviewStatus {
    started: bool,
    done: usize,
    total: usize,
    finished: bool,
    error: Option<String>,
    reviewed: Option<Reviewed>,
}

fn review_status_of(job: Option<&ReviewJob>) -> ReviewStatus {
    let Some(job) = job else {
        return ReviewStatus { started: false, done: 0, total: 0, finished: false, error: None, reviewed: None };
    };
    let result = job.result.lock().unwrap_or_else(|e| e.into_inner());
    let (finished, error, reviewed) = match &*result {
        None => (false, None, None),
        Some(Ok((r, _))) => (true, None, Some(r.clone())),
        Some(Err(e)) => (true, Some(e.clone()), None),
    };
    ReviewStatus {
        started: true,
        done: job.done.load(Ordering::Relaxed),
        total: job.total.load(Ordering::Relaxed),
        finished,
        error,
        reviewed,
    }
}

fn review_job(state: &State, id: u64) -> Option<Arc<ReviewJob>> {
    state.reviews.lock().unwrap_or_else(|e| e.into_inner()).get(&id).cloned()
}

async fn review_status(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<u64>,
) -> Result<Json<ReviewStatus>, Refusal> {
    state.game(id)?;
    Ok(Json(review_status_of(review_job(&state, id).as_deref())))
}

async fn review_start(Extract(state): Extract<Arc<State>>, Path(id): Path<u64>) -> Result<Json<ReviewStatus>, Refusal> {
    let game = state.game(id)?;
    let job = {
        let mut reviews = state.reviews.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(job) = reviews.get(&id) {
            return Ok(Json(review_status_of(Some(job))));
        }
        let running = reviews.values().filter(|j| j.result.lock().map(|r| r.is_none()).unwrap_or(false)).count();
        if running >= MAX_REVIEWS {
            let mut status = review_status_of(None);
            status.error = Some(format!("{MAX_REVIEWS} reviews are running already: wait for one to finish"));
            return Ok(Json(status));
        }
        let job =
            Arc::new(ReviewJob { done: AtomicUsize::new(0), total: AtomicUsize::new(0), result: Mutex::new(None) });
        reviews.insert(id, job.clone());
        job
    };
    let worker = job.clone();
    std::thread::spawn(move || {
        let result = game.review(&|done, total| {
            worker.done.store(done, Ordering::Relaxed);
            worker.total.store(total, Ordering::Relaxed);
        });
        *worker.result.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
    });
    Ok(Json(review_status_of(Some(&job))))
}

async fn best_board(
    Extract(state): Extract<Arc<State>>,
    Path((id, decision)): Path<(u64, usize)>,
) -> Result<Response, Refusal> {
    let job = review_job(&state, id).ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, "review the game first"))?;
    let result = job.result.lock().unwrap_or_else(|e| e.into_inner());
    match &*result {
        Some(Ok((_, boards))) => boards
            .get(decision)
            .map(|b| svg(b.clone()))
            .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, "no such decision")),
        _ => Err(Refusal::new(StatusCode::NOT_FOUND, "the review has not finished")),
    }
}

#[derive(Deserialize)]
struct AskRequest {
    tab: String,
    game: u64,
    at: usize,
}

/// What the page is told when it asks the best move: the search started, or why not.
#[derive(Serialize)]
#[serde(untagged)]
enum Asked {
    /// The search started (at the step asked, or at the start of its turn where the game advises
    /// only there).
    Started(AskStatus),
    /// Why not, in words.
    Refused {
        /// The reason.
        refused: String,
    },
}

async fn ask(Extract(state): Extract<Arc<State>>, Json(request): Json<AskRequest>) -> Result<Json<Asked>, Refusal> {
    let tab = tab_name(&request.tab).map_err(|e| Refusal::new(StatusCode::BAD_REQUEST, e))?;
    let game = state.game(request.game)?;
    let asked = request.at;
    // Where the game advises only at a turn's start, the best turn from the start of this one.
    let call = blocking(move || {
        let at = asked.min(game.walk().steps.len());
        if game.choices(at).is_empty() {
            return None;
        }
        (0..=at).rev().find_map(|a| game.advise(a).map(|call| (a, call))).map(|found| (game.kind(), found))
    })
    .await?;
    let Some((kind, (at, call))) = call else {
        return Ok(Json(Asked::Refused { refused: "there is no move to advise here: the game is over".to_owned() }));
    };
    Ok(Json(match state.asks.start(tab, kind.command(), request.game, at, call) {
        Ok(status) => Asked::Started(status),
        Err(refused) => Asked::Refused { refused },
    }))
}

async fn ask_status(Extract(state): Extract<Arc<State>>, Path(tab): Path<String>) -> Result<Json<AskStatus>, Refusal> {
    let tab = tab_name(&tab).map_err(|e| Refusal::new(StatusCode::BAD_REQUEST, e))?;
    state.asks.status(tab).map(Json).ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, "this tab has asked nothing"))
}

async fn ask_stop(Extract(state): Extract<Arc<State>>, Path(tab): Path<String>) -> Result<Json<AskStatus>, Refusal> {
    let tab = tab_name(&tab).map_err(|e| Refusal::new(StatusCode::BAD_REQUEST, e))?;
    state.asks.stop(tab).map(Json).ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, "this tab has asked nothing"))
}

async fn shelf(Extract(state): Extract<Arc<State>>) -> Json<Vec<ShelfEntry>> {
    Json(state.shelf.list())
}

fn no_puzzle() -> Refusal {
    Refusal::new(StatusCode::NOT_FOUND, "no such puzzle")
}

async fn puzzle(
    Extract(state): Extract<Arc<State>>,
    Path((c, i)): Path<(usize, usize)>,
) -> Result<Json<PuzzleView>, Refusal> {
    let shelf = state.shelf.clone();
    blocking(move || shelf.puzzle(c, i)).await?.map(Json).ok_or_else(no_puzzle)
}

#[derive(Deserialize)]
struct TryRequest {
    answer: String,
}

/// A verdict on an answer, or why the answer could not be read (in `puzzles try`'s words).
#[derive(Serialize)]
#[serde(untagged)]
enum Tried {
    /// The verdict.
    Judged(TryAnswer),
    /// Why the answer could not be read.
    Refused {
        /// The reason.
        refused: String,
    },
}

async fn try_answer(
    Extract(state): Extract<Arc<State>>,
    Path((c, i)): Path<(usize, usize)>,
    Json(request): Json<TryRequest>,
) -> Result<Json<Tried>, Refusal> {
    let shelf = state.shelf.clone();
    if shelf.puzzle_exists(c, i) {
        let judged = blocking(move || shelf.attempt(c, i, request.answer.trim())).await?;
        Ok(Json(match judged {
            Ok(t) => Tried::Judged(t),
            Err(refused) => Tried::Refused { refused },
        }))
    } else {
        Err(no_puzzle())
    }
}

/// A hint, or none past the last.
#[derive(Serialize)]
struct Hint {
    hint: Option<String>,
}

async fn hint(
    Extract(state): Extract<Arc<State>>,
    Path((c, i, n)): Path<(usize, usize, usize)>,
) -> Result<Json<Hint>, Refusal> {
    if !state.shelf.puzzle_exists(c, i) {
        return Err(no_puzzle());
    }
    Ok(Json(Hint { hint: state.shelf.hint(c, i, n) }))
}

async fn answer_board(
    Extract(state): Extract<Arc<State>>,
    Path((c, i)): Path<(usize, usize)>,
) -> Result<Response, Refusal> {
    let shelf = state.shelf.clone();
    blocking(move || shelf.answer_board(c, i)).await?.map(svg).ok_or_else(no_puzzle)
}
