// The analysis panel of a finished match's page (games/_analysis.html): while the analysis is
// queued or running it follows its progress, then puts in the finished panel; a click on the
// chart or on a marked move steps the replay there (match.js listens for "replay-go"), the
// replay's step is shown as a cursor on the chart, and the costly moves get their marks in
// the move list. Where the replay stands after a judged decision, the board marks the place of
// the move the analysis preferred and of the one played (each renderer's ``actionPlaces``,
// drawn by board-kit.js), and a key under the board says both in words. The panel's words come
// from the template, the key's from the page's JavaScript catalogue (i18n.js).

import { markPlaces } from "../games/board-kit.js";
import { format, gettext } from "./i18n.js";

// The socket tells how the analysis moves on (match.js passes it as "analysis-progress"); the
// page also asks now and then, should a message be lost.
const POLL_MS = 5000;
const moves = document.getElementById("moves");

function panel() {
  return document.getElementById("analysis-panel");
}

function following() {
  const current = panel();
  return current && ["queued", "running"].includes(current.dataset.status) ? current : null;
}

// Show how far the analysis has come; true once it is over (the panel then put in anew).
async function shown(status) {
  const current = following();
  if (!current) return true;
  const bar = document.getElementById("analysis-progress");
  if (bar) {
    bar.value = status.progress;
    bar.textContent = `${status.progress}%`;
  }
  if (status.status !== "done" && status.status !== "failed") return false;
  current.dataset.status = status.status; // put in once, whichever news comes first
  await replacePanel(current);
  return true;
}

async function follow() {
  const current = following();
  if (!current) return;
  try {
    const res = await fetch(current.dataset.statusUrl, { credentials: "same-origin" });
    if (res.ok && (await shown(await res.json()))) return;
  } catch (err) {
    /* offline for a moment: try again */
  }
  setTimeout(follow, POLL_MS);
}

document.addEventListener("analysis-progress", (event) => shown(event.detail));

async function replacePanel(current) {
  const res = await fetch(current.dataset.panelUrl, { credentials: "same-origin" });
  if (!res.ok) return;
  const html = new DOMParser().parseFromString(await res.text(), "text/html");
  const fresh = html.getElementById("analysis-panel");
  if (!fresh) return;
  current.replaceWith(document.adoptNode(fresh));
  markMoves();
}

function marks() {
  const script = document.getElementById("analysis-marks");
  return script ? JSON.parse(script.textContent) : {};
}

// The move list is drawn anew as it loads: the marks are put back each time.
function markMoves() {
  const found = marks();
  for (const [step, grade] of Object.entries(found)) {
    const li = moves && moves.querySelector(`li[data-index="${step}"]`);
    const template = document.getElementById(`analysis-mark-${grade}`);
    if (!li || !template || li.querySelector(".analysis-mark")) continue;
    li.append(template.content.cloneNode(true));
  }
}

function frameAt(svg, event) {
  const box = svg.getBoundingClientRect();
  const steps = Number(svg.dataset.steps) || 1;
  return Math.round(((event.clientX - box.left) / box.width) * steps);
}

document.addEventListener("click", (event) => {
  const inside = event.target.closest("#analysis-panel");
  if (!inside) return;
  const target = event.target.closest("[data-frame]");
  const svg = event.target.closest("#analysis-chart");
  let frame = null;
  if (target) frame = Number(target.dataset.frame);
  else if (svg) frame = frameAt(svg, event);
  if (frame === null) return;
  document.dispatchEvent(new CustomEvent("replay-go", { detail: frame }));
});

document.addEventListener("replay-shown", (event) => {
  const svg = document.getElementById("analysis-chart");
  const cursor = document.getElementById("analysis-cursor");
  if (!svg || !cursor) return;
  const steps = Number(svg.dataset.steps) || 1;
  const x = (Number(event.detail) / steps) * svg.viewBox.baseVal.width;
  cursor.setAttribute("x1", x);
  cursor.setAttribute("x2", x);
  cursor.classList.add("shown");
  // The marked move the replay stands on (the position after it), if any, stands out.
  for (const li of document.querySelectorAll(".analysis-marked li")) {
    const here = li.querySelector("[data-frame]")?.dataset.frame === String(event.detail);
    li.classList.toggle("current", here);
    if (here) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
});

// -- the board during the replay ----------------------------------------------------------
const board = document.getElementById("board");
const rendererUrl = document.getElementById("match")?.dataset.renderer;
let renderer = null; // the board's renderer module, as match.js loaded it (the same module)
let hint = null; // the judged decision whose position the replay shows, if any

function hints() {
  const script = document.getElementById("analysis-hints");
  return script ? JSON.parse(script.textContent) : {};
}

function loadRenderer() {
  if (!renderer && rendererUrl) {
    renderer = import(rendererUrl)
      .then((module) => module.default || module)
      .catch(() => null);
  }
  return renderer;
}

// A move's words with the seats it names called by their names ("Seat 2 plays first"), as
// the move list says them.
function moveWords(label) {
  const names = window.matchClient?.payload?.seat_names || [];
  return String(label).replace(/\bSeat (\d+)\b/g, (whole, n) => names[n - 1] || whole);
}

function verdict(h) {
  const values = { move: h.move, name: h.name };
  if (h.grade === "blunder") return format(gettext("Move %(move)s, %(name)s: a blunder."), values);
  if (h.grade === "mistake") return format(gettext("Move %(move)s, %(name)s: a mistake."), values);
  if (h.grade === "inaccuracy") return format(gettext("Move %(move)s, %(name)s: an inaccuracy."), values);
  if (h.best === h.action) return format(gettext("Move %(move)s, %(name)s: the best move."), values);
  return format(gettext("Move %(move)s, %(name)s: a good move."), values);
}

function keyItem(kind, words) {
  const li = document.createElement("li");
  const swatch = document.createElement("span");
  swatch.className = `analysis-swatch ${kind}`;
  swatch.setAttribute("aria-hidden", "true");
  li.append(swatch, words);
  return li;
}

// The key under the board: the verdict, then the better move and the one played in words,
// each beside the mark it has on the board (a move that names no place has its words only).
// A status region there from the start, empty (and out of sight) where no decision is shown,
// so that screen readers say each key as it changes.
const key = board ? document.createElement("div") : null;
if (key) {
  key.id = "analysis-board-key";
  key.className = "analysis-board-key";
  key.setAttribute("role", "status");
  board.after(key);
}

function showKey(h) {
  if (!h) {
    key.className = "analysis-board-key";
    key.replaceChildren();
    return;
  }
  const list = document.createElement("ul");
  list.append(keyItem("best", bestWords(h)));
  if (h.best !== h.action) list.append(keyItem("played", playedWords(h)));
  const p = document.createElement("p");
  p.textContent = verdict(h);
  key.className = `analysis-board-key ${h.grade || "good"}`;
  key.replaceChildren(p, list);
}

function bestWords(h) {
  if (h.best === h.action) return format(gettext("Played, and the best: %(move)s"), { move: moveWords(h.best_label) });
  return format(gettext("Better: %(move)s"), { move: moveWords(h.best_label) });
}

function playedWords(h) {
  return format(gettext("Played: %(move)s"), { move: moveWords(h.label) });
}

// The marks on the board, once per drawing of it (a renderer draws it anew, on a resize).
async function markBoard() {
  const h = hint;
  if (!h || !board || board.querySelector(".analysis-place")) return;
  const module = await loadRenderer();
  if (h !== hint || !module || !module.actionPlaces || board.querySelector(".analysis-place")) return;
  if (h.best !== h.action) markPlaces(board, module.actionPlaces(h.action), "played", playedWords(h));
  markPlaces(board, module.actionPlaces(h.best), "best", bestWords(h));
}

document.addEventListener("replay-shown", (event) => {
  if (!board) return;
  hint = hints()[String(event.detail)] || null;
  showKey(hint);
  markBoard();
});

if (board) new MutationObserver(markBoard).observe(board, { childList: true });
if (moves) new MutationObserver(markMoves).observe(moves, { childList: true });
markMoves();
follow();
