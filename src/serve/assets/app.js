// The analysis board's page: opens a game, steps through it, reviews it, asks the best move and
// tries other moves. Every answer comes from the server as the library's JSON; nothing is fetched
// from anywhere else.

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

const state = {
  games: [],
  current: null, // { id, walk }
  main: null, // the main line, when trying moves off it
  forkAt: null,
  at: 0,
  review: null, // Reviewed of the current game
  tab: makeTab(),
  boardToken: 0,
  askedAt: null,
};

function makeTab() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function call(url, body) {
  const options = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  const response = await fetch(url, options);
  const kind = response.headers.get('Content-Type') || '';
  const data = kind.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    throw new Error(typeof data === 'object' && data && data.error ? data.error : `the server answered ${response.status}`);
  }
  if (data && typeof data === 'object' && typeof data.refused === 'string') throw new Error(data.refused);
  return data;
}

function say(text, bad = false) {
  const m = $('message');
  m.textContent = text;
  m.classList.toggle('error', bad);
}

function gameName(command) {
  const g = state.games.find((x) => x.command === command);
  return g ? g.name : command;
}

// ---- opening ----

async function openSample() {
  await openWith({ game: $('game').value });
}

async function openText(name, text) {
  await openWith({ game: $('game').value, name, text });
}

async function openWith(request) {
  say('Opening…');
  try {
    show(await call('/api/open', request), true);
    say('');
  } catch (e) {
    say(e.message, true);
  }
}

async function newGame() {
  say('Dealing a new game…');
  try {
    show(await call('/api/new', { game: $('game').value, seed: Number($('seed').value || 0) }), true);
    say('');
  } catch (e) {
    say(e.message, true);
  }
}

function readFile(file) {
  if (!file) return;
  if (file.size > 4 * 1024 * 1024) {
    say(`${file.name}: larger than 4 MiB: not a record of signalbox`, true);
    return;
  }
  file.text().then((text) => openText(file.name, text), () => say(`${file.name}: cannot read the file`, true));
}

// ---- showing a game ----

function show(opened, asMain, at) {
  state.current = opened;
  if (asMain) {
    state.main = opened;
    state.forkAt = null;
  }
  state.review = null;
  $('game').value = opened.walk.game;
  $('first-step').hidden = true;
  $('puzzles').hidden = true;
  $('app').hidden = false;
  const name = gameName(opened.walk.game);
  $('title').textContent = opened.walk.title.startsWith(name) ? opened.walk.title : `${name} · ${opened.walk.title}`;
  $('moves').classList.toggle('solo', opened.walk.players.length <= 1);
  $('save').href = `/api/g/${opened.id}/record`;
  $('save').setAttribute('download', `${opened.walk.game}-record.json`);
  document.querySelectorAll('.hint code').forEach((c) => { c.textContent = `signalbox ${opened.walk.game} replay FILE`; });
  const forked = state.forkAt !== null;
  $('fork').hidden = !forked;
  if (forked) $('fork-text').textContent = `You are trying moves from step ${state.forkAt + 1} of the main line.`;
  $('chart').replaceChildren();
  $('review-progress').hidden = true;
  $('review-text').textContent = '';
  $('review').disabled = false;
  $('answer').hidden = true;
  $('ask-text').textContent = '';
  fillMoves();
  goTo(at === undefined ? 0 : at);
}

function fillMoves() {
  const body = $('moves').tBodies[0];
  const rows = state.current.walk.steps.map((s, i) => {
    const tr = document.createElement('tr');
    tr.dataset.at = String(i);
    if (s.chance) tr.classList.add('chance');
    for (const [text, cls] of [[String(i + 1)], [String(s.turn)], [s.player], [s.text, 'move'], [''], ['']]) {
      const td = document.createElement('td');
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    tr.addEventListener('click', () => goTo(i));
    return tr;
  });
  const end = document.createElement('tr');
  end.dataset.at = String(state.current.walk.steps.length);
  const td = document.createElement('td');
  td.colSpan = 6;
  td.textContent = `end: ${state.current.walk.next}`;
  end.append(td);
  end.addEventListener('click', () => goTo(state.current.walk.steps.length));
  body.replaceChildren(...rows, end);
}

function steps() {
  return state.current ? state.current.walk.steps : [];
}

async function goTo(at) {
  if (!state.current) return;
  const n = steps().length;
  state.at = Math.max(0, Math.min(at, n));
  const step = steps()[state.at];
  $('where').textContent = `step ${state.at} of ${n}`;
  const solo = state.current.walk.players.length <= 1;
  const who = step && !step.chance && !solo ? `${step.player} plays ` : '';
  $('caption').textContent = step
    ? `Turn ${step.turn} · next in the record: ${who}${step.text}`
    : `The record ends: ${state.current.walk.next}`;
  for (const tr of $('moves').tBodies[0].rows) {
    const here = Number(tr.dataset.at) === state.at;
    tr.classList.toggle('here', here);
    if (here) keepInView(tr);
  }
  $('first').disabled = $('prev').disabled = state.at === 0;
  $('next').disabled = $('last').disabled = state.at === n;
  $('play-error').textContent = '';
  $('move').value = '';
  showDecision();
  markChart();
  await Promise.all([drawBoard(`/api/g/${state.current.id}/board/${state.at}`), fillChoices()]);
}

/** Scrolls the move list, and only the move list, so that the row shows. */
function keepInView(tr) {
  const box = tr.closest('.moves-box');
  if (!box) return;
  const head = $('moves').tHead ? $('moves').tHead.offsetHeight : 0;
  const top = tr.offsetTop;
  const bottom = top + tr.offsetHeight;
  if (top - head < box.scrollTop) box.scrollTop = top - head;
  else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
}

/** The smallest text a board may draw, in CSS pixels. */
const MIN_TEXT_PX = 11;

/**
 * Draws `svg` into `box` never so small that its smallest text falls under MIN_TEXT_PX: wider,
 * the box scrolls sideways (unless the reader asked to fit the board to the screen).
 */
function showSvg(box, svg) {
  box.innerHTML = svg;
  const picture = box.querySelector('svg');
  if (!picture) return;
  const view = picture.viewBox && picture.viewBox.baseVal;
  let smallest = Infinity;
  picture.querySelectorAll('[font-size]').forEach((e) => {
    const size = parseFloat(e.getAttribute('font-size'));
    if (size > 0) smallest = Math.min(smallest, size);
  });
  if (view && view.width > 0 && Number.isFinite(smallest)) {
    picture.style.minWidth = `${Math.ceil((view.width * MIN_TEXT_PX) / smallest)}px`;
  }
}

async function drawBoard(url) {
  const token = ++state.boardToken;
  try {
    const svg = await call(url);
    if (token !== state.boardToken) return;
    showSvg($('board'), svg);
    $('board').dataset.shown = url;
  } catch (e) {
    if (token === state.boardToken) say(e.message, true);
  }
}

// ---- trying moves ----

async function fillChoices() {
  const select = $('choices');
  const id = state.current.id;
  const at = state.at;
  let choices = [];
  try {
    choices = await call(`/api/g/${id}/choices/${at}`);
  } catch (e) {
    say(e.message, true);
  }
  if (state.current.id !== id || state.at !== at) return;
  const first = document.createElement('option');
  first.value = '';
  first.textContent = choices.length ? `choose one of ${choices.length}…` : 'none: the game is over here';
  const groups = new Map();
  for (const c of choices) {
    if (!groups.has(c.group)) {
      const g = document.createElement('optgroup');
      g.label = c.group;
      groups.set(c.group, g);
    }
    const o = document.createElement('option');
    o.value = c.text;
    o.textContent = c.text;
    groups.get(c.group).append(o);
  }
  select.replaceChildren(first, ...groups.values());
}

async function playMove() {
  const text = $('move').value.trim();
  if (!text) {
    $('play-error').textContent = 'Type a move, or choose one of the legal moves.';
    return;
  }
  try {
    const forked = await call(`/api/g/${state.current.id}/play`, { at: state.at, text });
    if (state.forkAt === null) state.forkAt = state.at;
    show(forked, false, state.at + 1);
  } catch (e) {
    $('play-error').textContent = e.message;
  }
}

function backToMain() {
  const at = state.forkAt === null ? state.at : state.forkAt;
  state.forkAt = null;
  show(state.main, true, at);
}

// ---- review ----

let reviewTimer = null;

async function startReview() {
  const id = state.current.id;
  $('review').disabled = true;
  $('review-progress').hidden = false;
  $('review-text').textContent = 'Reviewing…';
  try {
    const s = await call(`/api/g/${id}/review`, {});
    if (!s.started) {
      $('review-text').textContent = s.error || 'The review could not start.';
      $('review').disabled = false;
      $('review-progress').hidden = true;
      return;
    }
  } catch (e) {
    $('review-text').textContent = e.message;
    return;
  }
  clearInterval(reviewTimer);
  reviewTimer = setInterval(() => pollReview(id), 400);
}

async function pollReview(id) {
  if (!state.current || state.current.id !== id) {
    clearInterval(reviewTimer);
    return;
  }
  let s;
  try {
    s = await call(`/api/g/${id}/review`);
  } catch (e) {
    clearInterval(reviewTimer);
    $('review-text').textContent = e.message;
    return;
  }
  const bar = $('review-progress');
  if (s.total > 0) {
    bar.max = s.total;
    bar.value = s.done;
    $('review-text').textContent = `Reviewing: ${s.done} of ${s.total}`;
  }
  if (!s.finished) return;
  clearInterval(reviewTimer);
  bar.hidden = true;
  if (s.error) {
    $('review-text').textContent = s.error;
    return;
  }
  state.review = s.reviewed;
  const r = s.reviewed.review;
  const lost = r.decisions.filter((d) => d.label && ['inaccuracy', 'mistake', 'blunder'].includes(d.label)).length;
  $('review-text').textContent = `Reviewed: ${r.decisions.length} decisions, ${lost} marked; values in ${r.measure.unit}`;
  fillLosses();
  drawChart();
  showDecision();
}

const LABEL_WORDS = { best: 'best', good: 'good', inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder', not_proven: 'not proven' };

function lossText(d) {
  return Math.abs(d.loss) < 1e-9 ? '0' : (Math.round(d.loss * 100) / 100).toString();
}

function fillLosses() {
  const rows = $('moves').tBodies[0].rows;
  const r = state.review.review;
  r.decisions.forEach((d, i) => {
    const at = state.review.at[i];
    const row = rows[at.before];
    if (!row || row.cells.length < 6) return;
    const label = d.label ? (LABEL_WORDS[d.label] || d.label.replace('_', ' ')) : '';
    row.cells[4].textContent = row.cells[4].textContent ? `${row.cells[4].textContent}, ${lossText(d)}` : lossText(d);
    row.cells[5].textContent = row.cells[5].textContent ? `${row.cells[5].textContent}, ${label}` : label;
    row.cells[5].className = d.label || '';
  });
}

function drawChart() {
  const r = state.review.review;
  const n = r.decisions.length;
  if (!n) return;
  const width = 600;
  const height = 160;
  const top = Math.max(...r.decisions.map((d) => d.loss), 1e-9);
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Loss at each decision, in ${r.measure.unit}`);
  const w = width / n;
  r.decisions.forEach((d, i) => {
    const h = Math.max(2, (d.loss / top) * height);
    const rect = document.createElementNS(SVG_NS, 'rect');
    rect.setAttribute('x', String(i * w + w * 0.1));
    rect.setAttribute('y', String(height - h));
    rect.setAttribute('width', String(Math.max(w * 0.8, 1)));
    rect.setAttribute('height', String(h));
    rect.setAttribute('fill', { blunder: '#b3261e', mistake: '#e07b00', inaccuracy: '#d9b500' }[d.label] || '#7a8aa0');
    rect.classList.add('bar');
    rect.dataset.decision = String(i);
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = `decision ${d.index}, turn ${d.turn}: lost ${lossText(d)} ${r.measure.unit}`;
    rect.append(title);
    rect.addEventListener('click', () => goTo(state.review.at[i].before));
    svg.append(rect);
  });
  const caption = document.createElement('p');
  caption.className = 'hint';
  caption.textContent = `The loss at each decision, in ${r.measure.unit}: click a bar to go there.`;
  $('chart').replaceChildren(svg, caption);
  markChart();
}

function markChart() {
  document.querySelectorAll('#chart rect.bar').forEach((rect) => {
    const at = state.review && state.review.at[Number(rect.dataset.decision)];
    rect.classList.toggle('here', Boolean(at && at.before === state.at));
  });
}

function showDecision() {
  const box = $('decision');
  box.replaceChildren();
  if (!state.review) {
    box.hidden = true;
    return;
  }
  const here = state.review.at
    .map((at, i) => ({ at, i, d: state.review.review.decisions[i] }))
    .filter((x) => x.at.before === state.at);
  box.hidden = here.length === 0;
  const id = state.current.id;
  for (const { at, i, d } of here) {
    const name = document.createElement('span');
    name.textContent = `${here.length > 1 ? `decision ${d.index}: ` : ''}${d.kind}, lost ${lossText(d)} ${state.review.review.measure.unit}; best: ${d.best.text}`;
    const make = (label, url) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.addEventListener('click', () => {
        box.querySelectorAll('button').forEach((x) => x.classList.remove('on'));
        b.classList.add('on');
        drawBoard(url);
      });
      return b;
    };
    box.append(
      name,
      make('Before', `/api/g/${id}/board/${at.before}`),
      make('Played', `/api/g/${id}/board/${at.after}`),
      make('Best', `/api/g/${id}/best/${i}`),
    );
  }
}

// ---- asking the best move ----

let askTimer = null;

/** The answer of `advise --json` in words, for each game's answer. */
function answerWords(game, a) {
  if (!a) return '';
  const proven = (yes, bound, side) => (yes ? 'proven' : `not proven: the search stopped first${bound === undefined || bound === null ? '' : `; ${side} ${bound}`}`);
  switch (game) {
    case 'express01': {
      if (!a.best) return 'no turn to advise';
      return `Best turn: ${a.best.steps.join(', ')}. Value ${a.best.value} (${proven(a.proven, a.bound, 'at most')}).`;
    }
    case 'coe': {
      const best = a.options && a.options[0];
      if (!best) return 'no move to advise';
      const value = best.exact ? `${best.value}` : `about ${best.value.toFixed(1)} (between ${best.low.toFixed(1)} and ${best.high.toFixed(1)})`;
      let text = `Best: ${best.words.join('; ')}. Expected final score ${value}.`;
      if (a.hindsight) text += ` Knowing the dice and cards to come: ${a.hindsight.score} (${proven(a.hindsight.proven, a.hindsight.upper_bound, 'at most')}).`;
      return text;
    }
    case 'cube-express': {
      const words = (a.words || []).map((w, i) => `${i + 1}. ${w}`).join(' ');
      return `Best turn for ${a.player}: value ${a.value} (${proven(a.proven, a.upper_bound, 'at most')}). ${words}`;
    }
    case 'railways': {
      if (a.tiles === null || a.tiles === undefined) return `${a.player}: ${a.reason || 'no plan'} (${proven(a.proven, a.at_least, 'at least')})`;
      let text = `${a.player} needs ${a.tiles} tiles to link ${a.to_link.join(', ')} (${proven(a.proven, a.at_least, 'at least')}).`;
      if (a.roll && a.roll.builds) text += ` With this roll: ${JSON.stringify(a.roll.builds)}`;
      return text;
    }
    default:
      return JSON.stringify(a);
  }
}

async function ask() {
  $('answer').hidden = true;
  try {
    state.askedAt = state.at;
    const s = await call('/api/ask', { tab: state.tab, game: state.current.id, at: state.at });
    showAsk(s);
  } catch (e) {
    $('ask-text').textContent = e.message;
    return;
  }
  $('stop').hidden = false;
  $('ask').disabled = true;
  clearInterval(askTimer);
  askTimer = setInterval(pollAsk, 300);
}

async function pollAsk() {
  let s;
  try {
    s = await call(`/api/ask/${state.tab}`);
  } catch (e) {
    clearInterval(askTimer);
    $('ask-text').textContent = e.message;
    return;
  }
  showAsk(s);
}

function showAsk(s) {
  if (s.running) {
    $('ask-text').textContent = `Searching: ${s.elapsed.toFixed(1)} s of at most ${s.cap} s`;
    return;
  }
  clearInterval(askTimer);
  $('stop').hidden = true;
  $('ask').disabled = false;
  $('ask-text').textContent = s.stopped ? `Stopped after ${s.elapsed.toFixed(1)} s` : `Answered in ${s.elapsed.toFixed(1)} s`;
  const box = $('answer');
  box.hidden = false;
  box.replaceChildren();
  const p = document.createElement('p');
  p.className = s.error ? 'error' : '';
  const where = s.at === state.askedAt ? `At step ${s.at + 1}` : `At step ${s.at + 1}, the start of this turn`;
  p.textContent = s.error ? s.error : `${where}: ${answerWords(state.current ? state.current.walk.game : '', s.answer)}`;
  box.append(p);
  if (s.board) {
    const b = document.createElement('div');
    b.className = 'board';
    showSvg(b, s.board);
    box.append(b);
  }
}

async function stopAsk() {
  try {
    showAsk(await call(`/api/ask/${state.tab}/stop`, {}));
  } catch (e) {
    $('ask-text').textContent = e.message;
  }
}

// ---- puzzles ----

const PROGRESS_KEY = 'signalbox-puzzles';
const shelf = { entries: [], collection: 0, index: null, hints: 0 };

function progress() {
  try {
    return JSON.parse(localStorage.getItem(PROGRESS_KEY) || '{}');
  } catch (e) {
    return {};
  }
}

function remember(id, how) {
  const all = progress();
  if (all[id] !== 'solved') all[id] = how;
  localStorage.setItem(PROGRESS_KEY, JSON.stringify(all));
}

async function openPuzzles() {
  $('first-step').hidden = true;
  $('app').hidden = true;
  $('puzzles').hidden = false;
  if (!shelf.entries.length) {
    try {
      shelf.entries = await call('/api/puzzles');
    } catch (e) {
      say(e.message, true);
      return;
    }
    $('collection').replaceChildren(...shelf.entries.map((c) => {
      const o = document.createElement('option');
      o.value = String(c.number);
      o.textContent = `${c.game_name}: ${c.title} (${c.puzzles.length}, ${c.source})`;
      return o;
    }));
  }
  listPuzzles();
}

function listPuzzles() {
  shelf.collection = Number($('collection').value || 0);
  const entry = shelf.entries[shelf.collection];
  if (!entry) return;
  const done = progress();
  const solved = entry.puzzles.filter((p) => done[p.id] === 'solved').length;
  $('collection-progress').textContent = `${solved} of ${entry.puzzles.length} solved`;
  $('puzzle-list').replaceChildren(...entry.puzzles.map((p) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.index = String(p.number);
    const mark = done[p.id] === 'solved' ? ' · solved' : done[p.id] === 'tried' ? ' · tried' : '';
    b.textContent = `${p.difficulty}${p.themes.length ? ` · ${p.themes.map((t) => t.replaceAll('-', ' ')).join(', ')}` : ''}${mark}`;
    if (done[p.id]) b.classList.add(done[p.id]);
    if (shelf.index === p.number) b.classList.add('here');
    b.addEventListener('click', () => showPuzzle(p.number));
    li.append(b);
    return li;
  }));
}

async function showPuzzle(index) {
  let view;
  try {
    view = await call(`/api/puzzles/${shelf.collection}/${index}`);
  } catch (e) {
    say(e.message, true);
    return;
  }
  shelf.index = index;
  shelf.hints = 0;
  shelf.view = view;
  $('puzzle').hidden = false;
  $('puzzle-title').textContent = `${view.title}: ${view.id} (${view.difficulty})`;
  $('puzzle-question').textContent = view.question;
  showSvg($('puzzle-board'), view.board);
  $('puzzle-format').textContent = `${view.answer_format.description} For example: ${view.answer_format.example}`;
  $('puzzle-answer').value = '';
  $('puzzle-verdict').textContent = '';
  $('puzzle-verdict').className = '';
  $('puzzle-hints').replaceChildren();
  $('puzzle-hint').disabled = view.hints === 0;
  $('puzzle-answer-board').hidden = true;
  $('puzzle-answer-board').replaceChildren();
  listPuzzles();
}

async function showAnswerBoard() {
  try {
    showSvg($('puzzle-answer-board'), await call(`/api/puzzles/${shelf.collection}/${shelf.index}/answer`));
    $('puzzle-answer-board').hidden = false;
  } catch (e) {
    say(e.message, true);
  }
}

async function tryAnswer() {
  const answer = $('puzzle-answer').value.trim();
  const verdict = $('puzzle-verdict');
  if (!answer) {
    verdict.textContent = 'Write your answer first, in the words shown above.';
    verdict.className = 'wrong';
    return;
  }
  try {
    const t = await call(`/api/puzzles/${shelf.collection}/${shelf.index}/try`, { answer });
    verdict.textContent = `${t.read_as} — ${t.verdict}`;
    verdict.className = t.solved ? 'solved' : 'wrong';
    remember(shelf.view.id, t.solved ? 'solved' : 'tried');
    if (t.solved) showAnswerBoard();
  } catch (e) {
    verdict.textContent = e.message;
    verdict.className = 'wrong';
    remember(shelf.view.id, 'tried');
  }
  listPuzzles();
}

async function nextHint() {
  try {
    const h = await call(`/api/puzzles/${shelf.collection}/${shelf.index}/hint/${shelf.hints}`);
    if (h.hint) {
      const li = document.createElement('li');
      li.textContent = h.hint;
      $('puzzle-hints').append(li);
      shelf.hints += 1;
    }
    if (shelf.hints >= shelf.view.hints) {
      $('puzzle-hint').disabled = true;
      showAnswerBoard();
    }
  } catch (e) {
    say(e.message, true);
  }
}

// ---- wiring ----

function keys(e) {
  if (!state.current || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || '';
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag)) return;
  const moves = { ArrowLeft: state.at - 1, ArrowRight: state.at + 1, Home: 0, End: steps().length };
  if (e.key in moves) {
    e.preventDefault();
    goTo(moves[e.key]);
  }
}

async function start() {
  $('open-sample').addEventListener('click', openSample);
  $('new-game').addEventListener('click', newGame);
  $('file').addEventListener('change', (e) => { readFile(e.target.files[0]); e.target.value = ''; });
  $('first').addEventListener('click', () => goTo(0));
  $('prev').addEventListener('click', () => goTo(state.at - 1));
  $('next').addEventListener('click', () => goTo(state.at + 1));
  $('last').addEventListener('click', () => goTo(steps().length));
  $('review').addEventListener('click', startReview);
  $('ask').addEventListener('click', ask);
  $('stop').addEventListener('click', stopAsk);
  $('play').addEventListener('click', playMove);
  $('move').addEventListener('keydown', (e) => { if (e.key === 'Enter') playMove(); });
  $('choices').addEventListener('change', (e) => { $('move').value = e.target.value; });
  $('main-line').addEventListener('click', backToMain);
  $('open-puzzles').addEventListener('click', openPuzzles);
  $('fit').addEventListener('click', () => {
    const fit = $('board').classList.toggle('fit');
    $('fit').setAttribute('aria-pressed', String(fit));
    $('fit').textContent = fit ? 'Full size' : 'Fit the board';
  });
  $('collection').addEventListener('change', () => { shelf.index = null; $('puzzle').hidden = true; listPuzzles(); });
  $('puzzle-try').addEventListener('click', tryAnswer);
  $('puzzle-hint').addEventListener('click', nextHint);
  document.addEventListener('keydown', keys);
  document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dropping'); });
  document.addEventListener('dragleave', () => document.body.classList.remove('dropping'));
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dropping');
    readFile(e.dataTransfer && e.dataTransfer.files[0]);
  });
  window.addEventListener('pagehide', () => navigator.sendBeacon(`/api/ask/${state.tab}/stop`));
  try {
    const start = await call('/api/games');
    state.games = start.games;
    $('game').replaceChildren(...start.games.map((g) => {
      const o = document.createElement('option');
      o.value = g.command;
      o.textContent = g.name;
      return o;
    }));
    if (start.opened.length) show(start.opened[0], true);
  } catch (e) {
    say(e.message, true);
  }
}

start();
