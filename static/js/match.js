// The live match page: keeps a socket to the server, draws the seat's view with the game's
// renderer (static/games/<slug>.js), lists every legal action as a button, and steps
// through a replay once the match is over. The board, the score and the action buttons are
// drawn by board-view.js, which the lessons share.

import * as boardView from "./board-view.js";
import { showYourTurn } from "./your-turn.js";
import { dateTimeText } from "./times.js";
import { format, gettext, ngettext, say } from "./i18n.js";

const root = document.getElementById("match");
const matchId = root.dataset.matchId;
const token = root.dataset.token;
const els = {
  board: document.getElementById("board"),
  prompt: document.getElementById("prompt"),
  actions: document.getElementById("actions"),
  seats: document.getElementById("seats"),
  score: document.getElementById("score"),
  moves: document.getElementById("moves"),
  chat: document.getElementById("chat"),
  chatForm: document.getElementById("chat-form"),
  chatText: document.getElementById("chat-text"),
  banner: document.getElementById("banner"),
  error: document.getElementById("error"),
  result: document.getElementById("result"),
  replay: document.getElementById("replay"),
  replayPos: document.getElementById("replay-pos"),
  turn: document.getElementById("turn"),
  turnWho: document.getElementById("turn-who"),
  turnClock: document.getElementById("turn-clock"),
  clockWarning: document.getElementById("clock-warning"),
  takeback: document.getElementById("takeback"),
  takebackStatus: document.getElementById("takeback-status"),
  takebackButtons: document.getElementById("takeback-buttons"),
  moveNews: document.getElementById("move-news"),
  moveDue: document.getElementById("move-due"),
  moveDueTime: document.getElementById("move-due-time"),
};

// The close code of a socket whose sign-in ended (live.credentials.SIGNED_OUT).
const SIGNED_OUT = 4401;

// The engine's words in a snapshot are said in the page's language as it arrives (say).
let payload = say(JSON.parse(document.getElementById("match-payload").textContent));
let renderer = null;
let socket = null;
let retry = 0;
let pending = false;
let replayFrames = null;
let replayIndex = 0;
let clockTimer = null;
let clockExpiredAsked = false;
let clockWarned = false;

const { text } = boardView;

function showBanner(message) {
  els.banner.textContent = message;
  els.banner.hidden = !message;
}

function showError(message) {
  els.error.textContent = message;
  els.error.hidden = !message;
}

// Every seat's name comes from the server (games/seat_names.py): the player and the seat's
// colour, "Greedy (red)", so several bots of one kind are told apart everywhere.
function seatName(index) {
  return (payload.seat_names || [])[index] || format(gettext("Seat %(number)s"), { number: index + 1 });
}

// An action in plain words, with the seat it names ("Seat 2 plays first", counted from 1, in
// the page's language) called by its name: "Greedy (red) plays first".
const seatWord = gettext("Seat %(number)s")
  .split("%(number)s")
  .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
  .join("(\\d+)");
const seatPattern = new RegExp(`(?<![\\p{L}\\d])${seatWord}(?![\\p{L}\\d])`, "gu");

function moveWords(label) {
  return String(label).replace(seatPattern, (whole, n) => (payload.seat_names || [])[n - 1] || whole);
}

function act(action) {
  if (pending) return;
  const live = socket && socket.readyState === WebSocket.OPEN;
  pending = true;
  showError("");
  els.actions.querySelectorAll("button").forEach((b) => (b.disabled = true));
  if (live) socket.send(JSON.stringify({ type: "act", action, version: payload.version }));
  else actOverApi(action);
}

// Without the socket (the live connection is down, or it is reconnecting) a move goes over
// the REST API, with the version the page shows, as the socket would send it; the answer is
// the new position. Until the socket is back the page asks for the position now and then.
const csrfInput = document.querySelector("input[name=csrfmiddlewaretoken]");
const API_POLL_MS = 5000;
let apiPoll = null;

async function actOverApi(action) {
  try {
    const res = await fetch(`/api/matches/${matchId}/actions/`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", ...(csrfInput ? { "X-CSRFToken": csrfInput.value } : {}) },
      body: JSON.stringify({ action, version: payload.version }),
    });
    const body = await res.json().catch(() => ({}));
    if (res.ok) {
      applySnapshot(body);
      return;
    }
    pending = false;
    showError(body.message || format(gettext("The move was not accepted (%(status)s)."), { status: res.status }));
    render();
    await refreshOverApi();
  } catch {
    pending = false;
    showError(gettext("The move could not be sent: check your connection and try again."));
    render();
  }
}

async function refreshOverApi() {
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  try {
    const res = await fetch(`/api/matches/${matchId}/${q}`, { credentials: "same-origin" });
    if (!res.ok) return;
    const snapshot = await res.json();
    if (snapshot.version > payload.version || snapshot.status !== payload.status) applySnapshot(snapshot);
  } catch {
    /* offline: the next poll, or the socket once back, catches up */
  }
}

function pollWhileOffline(on) {
  if (on && apiPoll === null && (payload.status === "active" || payload.status === "open")) {
    apiPoll = setInterval(() => {
      if (!document.hidden && !pending) refreshOverApi();
    }, API_POLL_MS);
  } else if (!on && apiPoll !== null) {
    clearInterval(apiPoll);
    apiPoll = null;
  }
}

// Takebacks (casual matches): a player may ask to take back their last move while nobody
// else has moved since; every other person accepts or declines. The server decides; the
// buttons only show what may make sense, and a refusal comes back as an error.
function sendTakeback(frame) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  showError("");
  els.takebackButtons.querySelectorAll("button").forEach((b) => (b.disabled = true));
  socket.send(JSON.stringify({ ...frame, version: payload.version }));
}

function takebackButton(label, id, frame, cls = "button") {
  const b = text("button", label, cls);
  b.type = "button";
  b.id = id;
  b.addEventListener("click", () => sendTakeback(frame));
  return b;
}

function names(seats) {
  return seats.map(seatName).join(", ");
}

function lastMoveIsMine() {
  const last = els.moves.lastElementChild;
  return Boolean(last) && payload.seat !== null && last.dataset.seat === String(payload.seat);
}

// Chance fell (a roll, a drawn card) after this player's own last move: that move can no
// longer be taken back, and the takeback box says so instead of vanishing.
function chanceFollowedMyMove() {
  let li = els.moves.lastElementChild;
  if (!li || !li.classList.contains("chance") || payload.seat === null) return false;
  while (li && li.classList.contains("chance")) li = li.previousElementSibling;
  return Boolean(li) && li.dataset.seat === String(payload.seat);
}

function renderTakeback() {
  if (!els.takeback) return;
  const tb = payload.takeback;
  const seated = payload.seat !== null && payload.seat !== undefined;
  els.takebackButtons.replaceChildren();
  if (payload.status !== "active" || payload.rated || (!tb && !seated)) {
    els.takeback.hidden = true;
    return;
  }
  let status = "";
  if (tb && tb.declined_by !== null) {
    status = tb.seat === payload.seat
      ? format(gettext("%(name)s declined to take back your move."), { name: seatName(tb.declined_by) })
      : format(gettext("%(name)s declined to take back %(player)s's move."), { name: seatName(tb.declined_by), player: seatName(tb.seat) });
  } else if (tb && tb.seat === payload.seat) {
    status = format(gettext("You asked to take back your last move: waiting for %(names)s."), { names: names(tb.waiting) });
  } else if (tb) {
    status = format(gettext("%(name)s asks to take back their last move."), { name: seatName(tb.seat) });
    if (tb.waiting.includes(payload.seat)) {
      els.takebackButtons.append(
        takebackButton(gettext("Accept"), "takeback-accept", { type: "takeback_answer", accept: true }, "button primary"),
        takebackButton(gettext("Decline"), "takeback-decline", { type: "takeback_answer", accept: false }),
      );
    } else if (tb.waiting.length) {
      status += ` ${format(gettext("Waiting for %(names)s."), { names: names(tb.waiting) })}`;
    }
  } else if (lastMoveIsMine()) {
    els.takebackButtons.append(takebackButton(gettext("Ask to take back"), "takeback-ask", { type: "takeback_request" }));
  } else if (chanceFollowedMyMove()) {
    const b = takebackButton(gettext("Ask to take back"), "takeback-ask", { type: "takeback_request" });
    b.disabled = true;
    b.setAttribute("aria-describedby", "takeback-status");
    els.takebackButtons.append(b);
    status = gettext("No takeback after a roll of the dice or a drawn card.");
  }
  els.takebackStatus.textContent = status;
  els.takebackStatus.hidden = !status;
  els.takeback.hidden = !status && !els.takebackButtons.children.length;
}

function renderSeats() {
  els.seats.replaceChildren();
  const view = payload.view || {};
  for (const seat of payload.seats) {
    const li = text("li", null, "seat");
    li.dataset.seat = seat.index;
    const toMove = payload.status === "active" && payload.clocks.to_move === seat.index;
    if (toMove) li.classList.add("to-move");
    if (seat.index === payload.seat) li.classList.add("me");
    const colour = view.seat_colours ? view.seat_colours[seat.index] : null;
    const letter = (view.seat_letters || [])[seat.index] || (colour ? colour[0].toUpperCase() : String(seat.index + 1));
    const swatch = text("span", letter, "swatch");
    if (colour) swatch.dataset.colour = colour;
    li.append(swatch);
    if (seat.username) {
      const a = text("a", seatName(seat.index), "name");
      a.href = seat.url;
      a.title = seatName(seat.index);
      li.append(" ", a);
    } else if (seat.record_name) {
      li.append(" ", text("span", seat.record_name, "name"));  // an imported match's player
    } else {
      li.append(" ", text("em", gettext("Open seat")));
    }
    if (seat.is_bot || seat.bot) li.append(" ", text("span", gettext("bot"), "badge"));
    if (seat.resigned) li.append(" ", text("span", gettext("resigned"), "badge"));
    if (seat.timed_out) li.append(" ", text("span", gettext("out of time"), "badge"));
    if (seat.place) li.append(" ", text("strong", format(gettext("place %(place)s"), { place: seat.place })));
    if (toMove) {
      if (seat.is_bot || seat.bot) li.append(" ", text("span", gettext("thinking…"), "thinking"));
      else if (payload.clocks.deadline) li.append(" ", text("span", "", "clock"));
    }
    els.seats.append(li);
  }
  tickClock();
}

// Beside the board: who is to move (a bot shows that it is thinking) and their clock.
function renderTurn() {
  const toMove = payload.status === "active" ? payload.clocks.to_move : null;
  const seat = toMove === null || toMove === undefined ? null : payload.seats[toMove];
  els.turn.hidden = !seat;
  if (!seat) return;
  const bot = seat.is_bot || seat.bot;
  const mine = seat.index === payload.seat;
  els.turn.classList.toggle("mine", mine);
  els.turn.classList.toggle("thinking", Boolean(bot));
  const name = seatName(seat.index);
  els.turnWho.textContent = mine
    ? gettext("Your move")
    : format(bot ? gettext("%(name)s is thinking…") : gettext("%(name)s to move"), { name });
  els.turnClock.hidden = !payload.clocks.deadline;
}

// A correspondence move's deadline as a time of day in the viewer's zone.
function renderMoveDue() {
  if (!els.moveDue) return;
  const deadline = payload.status === "active" ? payload.clocks.deadline : null;
  els.moveDue.hidden = !deadline;
  if (!deadline) return;
  const time = document.createElement("time");
  time.dateTime = deadline;
  time.textContent = dateTimeText(deadline);
  els.moveDueTime.replaceChildren(time);
}

function clockText(left) {
  if (left > 86400) {
    return format(gettext("%(days)s d %(hours)s h left"), { days: Math.floor(left / 86400), hours: Math.floor((left % 86400) / 3600) });
  }
  if (left > 3600) {
    return format(gettext("%(hours)s h %(minutes)s min left"), { hours: Math.floor(left / 3600), minutes: Math.floor((left % 3600) / 60) });
  }
  const minutes = Math.floor(left / 60);
  const seconds = String(Math.floor(left % 60)).padStart(2, "0");
  return format(gettext("%(minutes)s:%(seconds)s left"), { minutes, seconds });
}

// Low: the last quarter of the time for a move, and at most the last 30 s of it.
function lowAt() {
  return Math.min(30, payload.clocks.seconds_per_move / 4);
}

function tickClock() {
  const clocks = [...els.seats.querySelectorAll(".clock"), els.turnClock];
  if (!payload.clocks.deadline || payload.status !== "active") {
    els.clockWarning.hidden = true;
    return;
  }
  const left = Math.max(0, (new Date(payload.clocks.deadline) - Date.now()) / 1000);
  const low = left <= lowAt();
  for (const el of clocks) {
    el.textContent = clockText(left);
    el.classList.toggle("low", low);
  }
  const mine = payload.clocks.to_move === payload.seat;
  if (low && mine && !clockWarned) {
    clockWarned = true; // said once per move: an alert read out every second would drown the page
    const seconds = Math.ceil(left);
    els.clockWarning.textContent = format(
      ngettext("Hurry: %(seconds)s second left for this move.", "Hurry: %(seconds)s seconds left for this move.", seconds),
      { seconds },
    );
  }
  els.clockWarning.hidden = !(low && mine);
  if (left === 0 && !clockExpiredAsked && socket && socket.readyState === WebSocket.OPEN) {
    clockExpiredAsked = true; // the server checks the clock on every read
    socket.send(JSON.stringify({ type: "snapshot" }));
  }
}

function renderScore(view) {
  boardView.renderScore(els.score, view, seatName);
}

function renderActions() {
  boardView.renderActions(els.actions, payload.legal_actions || [], act, Boolean(renderer && renderer.actionPicker));
}

function renderResult() {
  if (payload.status !== "finished" && payload.status !== "aborted") {
    els.result.hidden = true;
    return;
  }
  els.result.replaceChildren();
  els.result.hidden = false;
  els.result.className = "result card";
  if (payload.status === "aborted") {
    els.result.append(text("h2", gettext("The match was called off")));
    if (payload.end_reason === "expired") els.result.append(text("p", gettext("Nobody took the free seats for a day, so the match was closed.")));
    return;
  }
  els.result.append(text("h2", gettext("Final ranking")));
  const ol = text("ul", null, "final-ranking");
  const ranked = [...payload.seats].sort((a, b) => a.place - b.place);
  const tieBreaks = (payload.view || {}).tie_breaks || { labels: [], values: [] };
  let tied = false;
  ranked.forEach((seat, k) => {
    const li = text("li", `${seat.place}. `);
    li.append(text("span", seatName(seat.index), "name"));
    li.lastChild.title = seatName(seat.index);
    const points = format(ngettext("%(count)s point", "%(count)s points", seat.score), { count: seat.score });
    const left = [seat.resigned ? gettext("(resigned)") : "", seat.timed_out ? gettext("(out of time)") : ""];
    li.append([` — ${points}`, ...left.filter(Boolean)].join(" "));
    const note = tieNote(seat, ranked, k, tieBreaks);
    if (note) {
      tied = true;
      li.append(" ", text("span", note, "tie-break"));
    }
    ol.append(li);
  });
  els.result.append(ol);
  if (tied) {
    const rule = tieBreaks.labels.length
      ? format(gettext("Equal points are decided by %(rules)s; players still equal share their place."), {
          rules: tieBreaks.labels.join(gettext(", then ")),
        })
      : gettext("Players with equal points share their place.");
    els.result.append(text("p", rule, "muted tie-rule"));
  }
  els.replay.hidden = false;
}

// Why a seat stands where it does among equal scores: a shared place, or the first tie-break
// that sets it above the next seat on the same score.
function tieNote(seat, ranked, k, tieBreaks) {
  const left = (s) => s.resigned || s.timed_out;
  if (left(seat)) return "";
  if (ranked.some((o) => o !== seat && o.place === seat.place)) return gettext("(shared place)");
  const next = ranked[k + 1];
  if (!next || left(next) || next.score !== seat.score) return "";
  const mine = tieBreaks.values[seat.index] || [];
  const theirs = tieBreaks.values[next.index] || [];
  const i = mine.findIndex((v, j) => v !== theirs[j]);
  if (i < 0) return "";
  return format(gettext("(ahead of %(name)s on the tie-break: %(rule)s, %(mine)s to %(theirs)s)"), {
    name: seatName(next.index),
    rule: tieBreaks.labels[i],
    mine: mine[i],
    theirs: theirs[i],
  });
}

function drawBoard(view, interactive) {
  boardView.drawBoard(els.board, renderer, view, {
    seat: payload.seat,
    seats: payload.seats,
    seatNames: payload.seat_names || [],
    legal: interactive ? payload.legal_actions || [] : [],
    act: interactive ? act : () => {},
  });
}

// The line above the board: the view's prompt, said to the seat to move ("You rolled 6..."),
// for that seat's player; for everyone else the shared wording that names the seat ("Blue
// rolled 6 and places..."). As games.selectors.headline picks for the first page.
function headline(view) {
  const mine = payload.seat !== null && payload.seat !== undefined && payload.seat === view.current_player;
  return (mine ? view.prompt : payload.prompt_others ?? view.prompt) || "";
}

function render() {
  const view = payload.view || {};
  const over = { finished: payload.outcome || gettext("The match is over."), aborted: gettext("The match was called off.") };
  els.prompt.textContent =
    payload.status === "open" ? gettext("Waiting for players to take the open seats.") : over[payload.status] || headline(view);
  renderSeats();
  renderTurn();
  renderMoveDue();
  tickClock();
  renderScore(view);
  renderActions();
  renderResult();
  showYourTurn(payload);
  renderTakeback();
  // A renderer that writes the headline on the board (Game of God) writes the same words.
  if (replayFrames === null) drawBoard({ ...view, prompt: headline(view) }, true);
  keepFocus();
  // For the page's other parts that follow the match (a tournament table's countdown).
  document.dispatchEvent(new CustomEvent("match-drawn", { detail: payload }));
}

// Every update draws the board and the action buttons anew. A keyboard player whose focus was
// there gets it back on the same action or square, else on the board itself, instead of on
// the page's top: what was focused last in either is kept, and forgotten on a focus or a
// click elsewhere.
let focusWas = null;

document.addEventListener("focusin", (event) => {
  const where = [els.board, els.actions].find((box) => box.contains(event.target));
  const item = where && event.target.closest("[data-action], [data-select], [data-square]");
  focusWas = where ? { where, data: item ? { ...item.dataset } : {} } : null;
});
document.addEventListener("pointerdown", (event) => {
  if (!els.board.contains(event.target) && !els.actions.contains(event.target)) focusWas = null;
});

function keepFocus() {
  const now = document.activeElement;
  if (!focusWas || (now && now !== document.body)) return;
  const same = ["action", "select", "square"]
    .filter((key) => focusWas.data[key] !== undefined)
    .map((key) => focusWas.where.querySelector(`[data-${key}="${CSS.escape(focusWas.data[key])}"]`))
    .find(Boolean);
  (same || els.board).focus({ preventScroll: true });
}

function applySnapshot(update) {
  const snapshot = say(update);
  const statusChanged = payload.status !== snapshot.status;
  // A player who resigned or ran out of time watches from now on: the header and buttons
  // around the board say so once the page is drawn again.
  const leftMySeat = payload.seat !== null && snapshot.seat === null && snapshot.status === "active";
  if (snapshot.version !== payload.version) clockWarned = false;
  payload = snapshot;
  pending = false;
  clockExpiredAsked = false;
  if (snapshot.chat) renderChat(snapshot.chat);
  render();
  extendMoves(snapshot);
  // Abort is offered only before the first move: it goes once the match has moved on.
  const abortForm = document.getElementById("abort-form");
  if (abortForm && (snapshot.status !== "active" || snapshot.moves > Number(abortForm.dataset.moves))) abortForm.remove();
  if (statusChanged && (snapshot.status === "active" || snapshot.status === "finished")) {
    // Seats and buttons around the board (join, resign) depend on the status.
    if (document.getElementById("waiting-heading") || snapshot.status === "finished") window.location.reload();
  }
  if (leftMySeat) window.location.reload();
}

// One move in plain words ("Greedy (red): Put a blue chip on b2"), numbered from 1; once the
// match is over, a button that shows the position after it.
function moveText(m) {
  return `${m.seat === null ? gettext("Chance") : seatName(m.seat)}: ${moveWords(m.label || m.action)}`;
}

function moveItem(m) {
  const li = text("li", null, m.seat === null ? "move chance" : "move");
  li.dataset.index = m.index;
  if (m.seat !== null) li.dataset.seat = m.seat;
  li.append(text("span", `${m.index + 1}.`, "move-no"));
  const words = moveText(m);
  if (payload.status === "finished" || payload.status === "aborted") {
    const b = text("button", words, "link-button move-jump");
    b.type = "button";
    b.dataset.frame = m.index + 1;
    li.append(" ", b);
  } else {
    li.append(" ", text("span", words));
  }
  return li;
}

// An update carries the moves it added: the list grows from it without a request, unless
// the page missed some (then it asks for the whole list).
function extendMoves(snapshot) {
  const added = snapshot.new_moves || [];
  if (added.length && added[0].index === els.moves.children.length) {
    els.moves.append(...added.map(moveItem));
    els.moves.scrollTop = els.moves.scrollHeight;
    announceMoves(added);
  }
  // Moves taken back (a casual match) leave the list: the rest is unchanged.
  while (els.moves.children.length > snapshot.moves) els.moves.lastElementChild.remove();
  if (els.moves.children.length !== snapshot.moves) loadMoves();
  renderTakeback();
}

// The moves the others made, read out by the page's live region as the list words them
// ("Blue: Move the top piece from c3 to c4"); a player's own move is not read back to them.
function announceMoves(added) {
  const others = added.filter((m) => m.seat === null || m.seat !== payload.seat);
  if (others.length) els.moveNews.textContent = others.map(moveText).join(". ");
}

// The move list follows the board: one request at a time, at most one every 1.5 s, and a
// refused request (the API's rate limit) is tried again when the server says, so a fast
// match never leaves the list behind.
let movesBusy = false;
let movesAgain = false;
let movesLast = 0;

async function loadMoves() {
  if (movesBusy) {
    movesAgain = true;
    return;
  }
  movesBusy = true;
  movesAgain = false;
  let retryIn = 0;
  try {
    const wait = movesLast + 1500 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    movesLast = Date.now();
    const q = token ? `?token=${encodeURIComponent(token)}` : "";
    // The list comes in pages: follow `next` to its end.
    const moves = [];
    // The labels in the page's language (the API's are English unless asked).
    const lang = document.documentElement.lang || "en";
    let url = `/api/matches/${matchId}/moves/${q ? `${q}&` : "?"}lang=${encodeURIComponent(lang)}`;
    let res = null;
    while (url) {
      res = await fetch(url, { credentials: "same-origin" });
      if (!res.ok) break;
      const page = await res.json();
      moves.push(...page.results);
      url = page.next;
    }
    if (res.status === 429) {
      retryIn = 1000 * (Number(res.headers.get("Retry-After")) || 5);
    } else if (res.ok) {
      els.moves.replaceChildren(...moves.map(moveItem));
      els.moves.scrollTop = els.moves.scrollHeight;
      renderTakeback();
      // An update came while we asked (more moves, or a move taken back): ask again.
      if (moves.length !== payload.moves) movesAgain = true;
    }
  } catch (err) {
    retryIn = 5000; /* offline for a moment: the socket reconnects, the list follows */
  } finally {
    movesBusy = false;
  }
  if (retryIn) setTimeout(loadMoves, retryIn);
  else if (movesAgain) loadMoves();
}

function renderChat(messages) {
  els.chat.replaceChildren(...messages.map(chatItem));
  els.chat.scrollTop = els.chat.scrollHeight;
}

function chatItem(m) {
  const li = document.createElement("li");
  li.dataset.chatId = String(m.id);
  li.append(text("strong", m.user), ": ", text("span", m.text));
  return li;
}

// The close code of a socket opened while the live connection is down (live.reach).
const LIVE_DOWN = 4503;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/matches/${matchId}/${q}`);
  socket.addEventListener("open", () => {
    retry = 0;
    showBanner("");
    pollWhileOffline(false);
    socket.send(JSON.stringify({ type: "snapshot" }));
  });
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "snapshot") {
      if (msg.version < payload.version) return;
      applySnapshot(msg);
    } else if (msg.type === "ack") {
      pending = false;
    } else if (msg.type === "error") {
      pending = false;
      showError(msg.message);
      render(); // back to the last good state
    } else if (msg.type === "takeback") {
      if (msg.version !== payload.version) return; // about another position: its snapshot follows
      payload.takeback = msg.takeback;
      renderTakeback();
    } else if (msg.type === "chat") {
      els.chat.append(chatItem(msg.message));
      els.chat.scrollTop = els.chat.scrollHeight;
    } else if (msg.type === "chat_hidden") {
      // A moderator hid it: gone from this page too.
      for (const li of els.chat.querySelectorAll("li")) if (li.dataset.chatId === String(msg.id)) li.remove();
    } else if (msg.type === "analysis") {
      // For the analysis panel (analysis.js): how far the analysis of this match has come.
      document.dispatchEvent(new CustomEvent("analysis-progress", { detail: msg }));
    } else if (msg.type === "rematch") {
      // Drawn by static/js/rematch.js, the rematch panel's own script.
      document.dispatchEvent(new CustomEvent("rematch", { detail: msg.offer }));
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403) {
      showBanner(gettext("You may not watch this match."));
      return;
    }
    if (event.code === SIGNED_OUT) {
      // A new password, a sign-out or a closed account ended this page's sign-in
      // (live.credentials): no reconnecting, which would only come back as someone else.
      pending = false;
      showBanner(gettext("You were signed out (a new password, or signed out elsewhere). Reload the page to carry on."));
      return;
    }
    const delay = Math.min(10000, 500 * 2 ** retry) + Math.random() * 250;
    retry += 1;
    if (event.code === LIVE_DOWN) {
      showBanner(
        gettext(
          "The live connection is down: your moves go to the server directly, and others' moves show within seconds. Reconnecting…",
        ),
      );
    } else {
      showBanner(event.code === 4429 ? `${event.reason} ${gettext("Reconnecting…")}` : gettext("Reconnecting…"));
    }
    pollWhileOffline(true);
    setTimeout(connect, delay);
  });
}

// -- replay -------------------------------------------------------------------------
// The replay comes in one request, the first time a step is asked for (games/replays.py: the
// first position's view, then each step's patch of it). While it loads the bar says so, and
// the steps asked for meanwhile wait in order, then are taken from the last position, as
// they would have been had it been there already.
let replayLoad = null;
const replayAsked = [];

function loadReplay() {
  if (replayLoad) return;
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  els.replay.setAttribute("aria-busy", "true");
  els.replayPos.textContent = gettext("Loading the replay…");
  replayLoad = fetch(`/matches/${matchId}/replay.json${q}`, { credentials: "same-origin" })
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
    .then((replay) => {
      replayFrames = replayFramesOf(say(replay));
      replayIndex = replayFrames.length - 1;
      for (const move of replayAsked.splice(0)) replayIndex = move(replayIndex, replayFrames.length - 1);
      showFrame();
    })
    .catch(() => {
      replayLoad = null; // the next click tries again
      replayAsked.length = 0;
      els.replayPos.textContent = gettext("The replay could not be loaded: try again.");
    })
    .finally(() => els.replay.removeAttribute("aria-busy"));
}

// Every position, each view the one before with the step's patch applied.
function replayFramesOf(replay) {
  let view = replay.start;
  const frames = [{ view, action: null, seat: null }];
  replay.patches.forEach((patch, i) => {
    view = patched(view, patch);
    frames.push({ view, seat: replay.seats[i], action: replay.actions[i], label: replay.labels[i] });
  });
  return frames;
}

// A value with a patch of games/replays.py applied; the value itself is left as it was (the
// positions before share what did not change).
function patched(value, patch) {
  if (Array.isArray(patch)) {
    if (patch[0] === 0) return patch[1];
    const items = value.slice(0, patch[1]);
    for (let k = 2; k < patch.length; k += 2) items[patch[k]] = patched(value[patch[k]], patch[k + 1]);
    return items;
  }
  const result = { ...value };
  for (const [key, sub] of Object.entries(patch)) {
    if (Array.isArray(sub) && sub[0] === 1) delete result[key];
    else result[key] = patched(value[key], sub);
  }
  return result;
}

// Go to the step ``move(current, last)`` gives: now if the replay is here, else once it is.
function replayGo(move) {
  if (replayFrames) {
    replayIndex = move(replayIndex, replayFrames.length - 1);
    showFrame();
    return;
  }
  replayAsked.push(move);
  loadReplay();
}

function showFrame() {
  const frame = replayFrames[replayIndex];
  els.moves.querySelectorAll("li.current").forEach((li) => li.classList.remove("current"));
  const current = els.moves.querySelector(`li[data-index="${replayIndex - 1}"]`);
  if (current) {
    current.classList.add("current");
    els.moves.scrollTop = current.offsetTop - els.moves.clientHeight / 2;
  }
  drawBoard(frame.view, false);
  els.prompt.textContent = frame.view.prompt || "";
  renderScore(frame.view);
  const what = frame.action
    ? `${frame.seat === null ? gettext("Chance") : seatName(frame.seat)}: ${moveWords(frame.label || frame.action)}`
    : gettext("start");
  const where = format(gettext("Step %(step)s of %(steps)s"), { step: replayIndex, steps: replayFrames.length - 1 });
  els.replayPos.textContent = `${where} — ${what}`;
  // For the page's other parts that follow the replay (the analysis chart's cursor).
  document.dispatchEvent(new CustomEvent("replay-shown", { detail: replayIndex }));
}

const REPLAY_STEPS = {
  first: () => 0,
  back: (i) => Math.max(0, i - 1),
  forward: (i, last) => Math.min(last, i + 1),
  last: (i, last) => last,
};

function step(where) {
  replayGo(REPLAY_STEPS[where]);
}

// A move in the list jumps the replay to the position after it.
els.moves.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-frame]");
  if (!button) return;
  const frame = Number(button.dataset.frame);
  replayGo((i, last) => Math.min(last, frame));
});

// Another part of the page (the analysis) asks for a step: ``detail`` is the position's index.
document.addEventListener("replay-go", (event) => {
  const frame = Number(event.detail);
  replayGo((i, last) => Math.max(0, Math.min(last, frame)));
});

els.replay.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-step]");
  if (button) step(button.dataset.step);
});
document.addEventListener("keydown", (event) => {
  if (els.replay.hidden || event.target.matches("input, textarea, select")) return;
  const map = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
  if (map[event.key]) {
    event.preventDefault();
    step(map[event.key]);
  }
});

if (els.chatForm) {
  els.chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = els.chatText.value.trim();
    if (!value || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "chat", text: value }));
    els.chatText.value = "";
  });
}

// The invite link: selected on focus, copied by its button.
const inviteLink = document.getElementById("invite-link");
if (inviteLink) {
  inviteLink.addEventListener("focus", () => inviteLink.select());
  document.getElementById("invite-copy").addEventListener("click", async (event) => {
    inviteLink.select();
    try {
      await navigator.clipboard.writeText(inviteLink.value);
      event.target.textContent = gettext("Copied");
    } catch (err) {
      event.target.textContent = gettext("Press Ctrl+C to copy");
    }
  });
}
// The page's own handlers live here, not in the markup: the site's Content-Security-Policy
// runs no inline script or on* attribute.
document.addEventListener("submit", (event) => {
  const question = event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener("click", (event) => {
  if (event.target.matches("input[data-select-on-click]")) event.target.select();
});

clockTimer = setInterval(tickClock, 1000);
// Updates travel at most once: should one be lost on the way, the page would wait for a move
// already made. Now and then it tells the server which version it shows, and gets the
// latest if that is not it.
const SYNC_EVERY_MS = 20000;
setInterval(() => {
  if (payload.status !== "active" && payload.status !== "open") return;
  if (document.hidden || !socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ type: "sync", version: payload.version, takeback: payload.takeback ?? null }));
}, SYNC_EVERY_MS);
window.matchClient = { act, get payload() { return payload; }, get socket() { return socket; } };

renderer = await boardView.loadRenderer(root.dataset.renderer);
if (payload.chat) renderChat(payload.chat);
render();
loadMoves();
if (payload.status !== "aborted") connect();
