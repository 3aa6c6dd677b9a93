// Board renderer for Game of God: the 8 x 8 board with its coordinates, the goal areas tinted
// in their owners' colours (with the side's name and letter), every stack drawn bottom to top
// as a column of discs with its height, frozen pieces (snowflake) and trapped pieces (lock),
// the last move, the challenge in progress and the last dice, whose turn and which step.
//
// Clicks: one of your movable stacks, then one of its lit targets (move:FROM-TO); a lone
// piece next to the piece you just moved (challenge:SQUARE); a square of your goal area to
// leave empty during set-up (vacant:X; with another number of pieces than the standard the
// chooser names several, one at a time, and the named ones are crossed out). Passing, trapping
// and sparing stay in the page's button list.

import { format, gettext, ngettext } from "../js/i18n.js";
import { SVG, el, linkStylesheet, seatLabel, seatName, shortName as shorten, title as tip } from "./board-kit.js";

const SIZE = 8;
const COLUMNS = "abcdefgh";
const SIDE_LETTER = { North: "N", East: "E", South: "S", West: "W" };
const SIDE_CLASS = { North: "north", East: "east", South: "south", West: "west" };
// The sides' names as people read them (the view's "North"… and the letters stay the game's).
const SIDE_NAMES = { North: gettext("North"), East: gettext("East"), South: gettext("South"), West: gettext("West") };
const STEP_WORDS = {
  chooser: gettext("the dice pick who chooses the empty goal squares"),
  vacant: gettext("choosing the empty goal squares"),
  first: gettext("the dice pick who moves first"),
  move: gettext("moving a piece"),
  challenge: gettext("challenge a lone piece or pass"),
  dice: gettext("challenger and defender roll a die each"),
  defender: gettext("the defender chooses: trap or spare"),
  over: gettext("game over"),
};

// Geometry in viewBox units.
const CELL = 60;
// The goal-area name band and the coordinate band outside the edges, and their text sizes:
// larger on a phone, where the board is drawn at about 60 %.
let BAND = 26;
let COORD = 22;
let BAND_FONT = 15;
let COORD_FONT = 15;
const GAP = 16;
const SIDE_W = 320;
const WIDE_MIN_PX = 620; // narrower containers get the panel under the board

// Module state: the stack picked to move, kept while the same position is on the board.
let selected = null; // a square name or null
let positionKey = "";
let last = null; // [container, view, ctx]
let listening = false;
let wasWide = null;



function txt(parent, x, y, content, cls, size, extra) {
  const t = el("text", { x, y, class: cls, "font-size": size, ...(extra || {}) }, parent);
  t.textContent = content;
  return t;
}




function sideOf(view, seat) {
  return (view.sides || [])[seat] || "North";
}

function letterOf(view, seat) {
  return SIDE_LETTER[sideOf(view, seat)] || String(seat + 1);
}

function seatClass(view, seat) {
  return `seat-${SIDE_CLASS[sideOf(view, seat)] || "north"}`;
}

// "e3" -> [column 0-7, row 0-7]; row 0 is the north edge (the top of the board).
function squareCR(name) {
  return [COLUMNS.indexOf(name[0]), Number(name.slice(1)) - 1];
}

function squareName(c, r) {
  return `${COLUMNS[c]}${r + 1}`;
}

// Makes an SVG element a keyboard-accessible button.
function clickable(node, label, onActivate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  tip(node, label);
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    onActivate();
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      onActivate();
    }
  });
}

function redraw(focusSelector) {
  if (!last) return;
  const [container, view, ctx] = last;
  container.replaceChildren();
  render(container, view, ctx);
  if (focusSelector) {
    const target = container.querySelector(focusSelector);
    if (target) target.focus();
  }
}

function listenOnce() {
  if (listening) return;
  listening = true;
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selected !== null) {
      const was = selected;
      selected = null;
      redraw(`[data-select="${was}"]`);
    }
  });
  window.addEventListener("resize", () => {
    if (!last || !last[0].isConnected) return;
    const wide = last[0].clientWidth >= WIDE_MIN_PX;
    if (wasWide !== null && wide !== wasWide) redraw();
    wasWide = wide;
  });
}

// The legal actions, sorted by what they touch on the board.
function legalMoves(ctx) {
  const m = { moves: new Map(), challenge: new Map(), vacant: new Map(), other: [] };
  for (const entry of ctx.legal || []) {
    const a = entry.action;
    if (a.startsWith("move:")) {
      const [from, to] = a.slice(5).split("-");
      if (!m.moves.has(from)) m.moves.set(from, new Map());
      m.moves.get(from).set(to, entry);
    } else if (a.startsWith("challenge:")) {
      m.challenge.set(a.slice(10), entry);
    } else if (a.startsWith("vacant:")) {
      m.vacant.set(a.slice(7), entry);
    } else {
      m.other.push(entry);
    }
  }
  return m;
}

export function render(container, view, ctx) {
  linkStylesheet(new URL("./game-of-god.css", import.meta.url));
  listenOnce();
  last = [container, view, ctx];
  const key = `${view.move_number}|${(ctx.legal || []).length}`;
  if (key !== positionKey) {
    positionKey = key;
    selected = null;
  }
  const m = legalMoves(ctx);
  if (selected !== null && !m.moves.has(selected)) selected = null;
  if (selected === null && m.moves.size === 1) selected = [...m.moves.keys()][0];

  const wide = container.clientWidth >= WIDE_MIN_PX;
  wasWide = wide;
  const fs = wide ? 1.1 : 1.3; // text scale: a phone shows the board at about 60 %
  // On a phone the margins stay narrow enough for a square of 40 px on a 390 px screen.
  BAND = wide ? 26 : 30;
  COORD = wide ? 22 : 20;
  BAND_FONT = wide ? 15 : 18;
  COORD_FONT = wide ? 15 : 17;

  const goals = goalLayout(view);
  const margin = {
    top: COORD + (goals.byEdge.North !== undefined ? BAND : 4),
    bottom: COORD + (goals.byEdge.South !== undefined ? BAND : 4),
    left: COORD + (goals.byEdge.West !== undefined ? BAND : 4),
    right: COORD + (goals.byEdge.East !== undefined ? BAND : 4),
  };
  const boardW = margin.left + SIZE * CELL + margin.right;
  const boardH = margin.top + SIZE * CELL + margin.bottom;
  const width = wide ? boardW + GAP + SIDE_W : boardW;

  const svg = el("svg", {
    viewBox: `0 0 ${width} ${boardH}`,
    class: `game-of-god ${wide ? "wide" : "narrow"}`,
    role: "group",
    "aria-label": gettext("Game of God board: stacks, goal areas, last move and dice"),
  });
  svg.addEventListener("click", () => {
    if (selected !== null) {
      selected = null;
      redraw();
    }
  });
  const bg = el("rect", { x: 0, y: 0, width, height: boardH, class: "gg-bg" }, svg);
  const board = el("g", { class: "gg-board", transform: `translate(${margin.left} ${margin.top})` }, svg);
  drawBoard(board, view, ctx, m, goals, margin);

  let height = boardH;
  const panelW = wide ? SIDE_W : boardW - 2 * 8;
  const panel = el("g", { class: "gg-side", transform: `translate(${wide ? boardW + GAP : 8} ${wide ? 8 : boardH + 4})` }, svg);
  const panelH = drawPanel(panel, view, ctx, m, panelW, fs, !wide);
  height = wide ? Math.max(boardH, panelH + 16) : boardH + 4 + panelH + 10;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  bg.setAttribute("height", height);
  container.append(svg);
}

// ------------------------------------------------------------------------- board

// Which seat owns each goal square, and which edge each seat guards.
function goalLayout(view) {
  const owner = {};
  const byEdge = {};
  (view.goal_areas || []).forEach((squares, seat) => {
    for (const sq of squares) owner[sq] = seat;
    byEdge[sideOf(view, seat)] = seat;
  });
  return { owner, byEdge };
}

function drawBoard(g, view, ctx, m, goals, margin) {
  const stacks = view.stacks || {};
  const frozen = view.frozen || {};
  const trapped = view.trapped || {};
  const full = SIZE * CELL;
  const namedEmpty = emptyNamed(view);

  // Goal-area bands with the side's letter, name and player.
  for (const [side, seat] of Object.entries(goals.byEdge)) drawGoalBand(g, view, ctx, side, seat, full);

  // Coordinates on all four sides.
  for (let i = 0; i < SIZE; i++) {
    const mid = i * CELL + CELL / 2;
    txt(g, mid, -COORD / 2, COLUMNS[i], "gg-coord", COORD_FONT, { "text-anchor": "middle", "dominant-baseline": "central" });
    txt(g, mid, full + COORD / 2, COLUMNS[i], "gg-coord", COORD_FONT, { "text-anchor": "middle", "dominant-baseline": "central" });
    txt(g, -COORD / 2, mid, String(i + 1), "gg-coord", COORD_FONT, { "text-anchor": "middle", "dominant-baseline": "central" });
    txt(g, full + COORD / 2, mid, String(i + 1), "gg-coord", COORD_FONT, { "text-anchor": "middle", "dominant-baseline": "central" });
  }

  // Squares.
  const lastMove = view.last_move || null;
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      const name = squareName(c, r);
      const x = c * CELL;
      const y = r * CELL;
      const home = goals.owner[name];
      const cls = ["gg-square", (r + c) % 2 ? "dark" : "light"];
      if (home !== undefined) cls.push("goal", seatClass(view, home));
      const sq = el("g", { class: "gg-cell", "data-square": name }, g);
      el("rect", { x, y, width: CELL, height: CELL, class: cls.join(" ") }, sq);
      if (lastMove && lastMove[0] === name) el("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: "gg-last-from" }, sq);
      if (lastMove && lastMove[1] === name) el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: "gg-last-to" }, sq);
      if (view.challenge_from === name) el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, class: "gg-challenger" }, sq);
      if (view.challenged === name) el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, class: "gg-challenged" }, sq);
      const stack = stacks[name];
      if (stack && stack.length) drawStack(sq, view, x, y, stack, frozen[name] || [], trapped[name] || [], home, name);
      else if (namedEmpty.has(name)) crossOut(sq, x, y, name);
      else if (view.step === "vacant" && home !== undefined) setUpPreview(sq, view, x, y, home, name);
    }
  }
  el("rect", { x: 0, y: 0, width: full, height: full, class: "gg-frame" }, g);

  // The last move as an arrow from its square to its target.
  if (lastMove) {
    const [fc, fr] = squareCR(lastMove[0]);
    const [tc, tr] = squareCR(lastMove[1]);
    const x1 = fc * CELL + CELL / 2;
    const y1 = fr * CELL + CELL / 2;
    const x2 = tc * CELL + CELL / 2;
    const y2 = tr * CELL + CELL / 2;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    const ex = x2 - ux * 16;
    const ey = y2 - uy * 16;
    const arrow = el("g", { class: "gg-arrow", "aria-hidden": "true" }, g);
    el("line", { x1: x1 + ux * 10, y1: y1 + uy * 10, x2: ex, y2: ey }, arrow);
    const hx = ex + ux * 10;
    const hy = ey + uy * 10;
    el("polygon", { points: `${hx},${hy} ${ex - uy * 7},${ey + ux * 7} ${ex + uy * 7},${ey - ux * 7}` }, arrow);
  }

  drawClickables(g, view, ctx, m, goals);
}

// While the set-up goes on, the goal squares already named to stay empty (both the chooser's
// and the mirrored ones of the facing side).
function emptyNamed(view) {
  const named = new Set();
  if (view.step !== "vacant") return named;
  (view.vacant || []).forEach((labels, seat) => {
    const side = sideOf(view, seat);
    for (const sq of (view.goal_areas || [])[seat] || []) {
      const [c, r] = squareCR(sq);
      if ((labels || []).includes(side === "North" || side === "South" ? COLUMNS[c] : String(r + 1))) named.add(sq);
    }
  });
  return named;
}

// While the empty goal squares are chosen, the board is still empty: every goal square not
// (yet) named empty shows, faintly, the pair of pieces the set-up will stand on it, so the
// choice reads as "which of these pairs to leave out".
function setUpPreview(parent, view, x, y, seat, name) {
  const g = el("g", { class: "gg-preview" }, parent);
  drawStack(g, view, x, y, [seat, seat], [], [], seat, name);
  const t = g.querySelector("title");
  const words = gettext("%(square)s: a pair of %(side)s's pieces will stand here unless this square is left empty");
  if (t) t.textContent = format(words, { square: name, side: sideName(view, seat) });
}

function crossOut(parent, x, y, name) {
  const s = el("g", { class: "gg-named-empty" }, parent);
  el("line", { x1: x + 16, y1: y + 16, x2: x + CELL - 16, y2: y + CELL - 16 }, s);
  el("line", { x1: x + CELL - 16, y1: y + 16, x2: x + 16, y2: y + CELL - 16 }, s);
  tip(s, format(gettext("%(square)s stays empty"), { square: name }));
}

function drawGoalBand(g, view, ctx, side, seat, full) {
  const letter = letterOf(view, seat);
  const cls = `gg-band ${seatClass(view, seat)}`;
  const name = seatLabel(ctx, seat);
  const most = ctx.seat === seat ? 19 : 14;
  const squares = ((view.goal_areas || [])[seat] || []).map(squareCR);
  // The label fits its band (the full name is in the band's tooltip): the name gets what the
  // side's words leave, and the words go first when even a short name would not fit.
  const fits = Math.floor((squares.length * CELL - 12) / (BAND_FONT * 0.6));
  const sideWord = SIDE_NAMES[side] || side;
  const head = `${letter} · ${format(gettext("%(side)s goal area"), { side: sideWord })} · `;
  const label =
    fits - head.length >= 8
      ? head + shorten(name, Math.min(most, fits - head.length))
      : `${letter} · ` + shorten(name, Math.max(4, fits - 4));
  const band = el("g", { class: "gg-goal-band" }, g);
  const about = { side: sideWord, name: seatName(ctx, seat) };
  tip(band, format(gettext("%(side)s's goal area (%(name)s): opponents' pieces that reach it are frozen there."), about));
  if (side === "North" || side === "South") {
    const cols = squares.map(([c]) => c);
    const x0 = Math.min(...cols) * CELL;
    const x1 = (Math.max(...cols) + 1) * CELL;
    const y = side === "North" ? -COORD - BAND + 2 : full + COORD;
    el("rect", { x: x0 + 1, y, width: x1 - x0 - 2, height: BAND - 4, rx: 5, class: cls }, band);
    txt(band, (x0 + x1) / 2, y + (BAND - 4) / 2, label, "gg-band-text", BAND_FONT, { "text-anchor": "middle", "dominant-baseline": "central" });
  } else {
    const rows = squares.map(([, r]) => r);
    const y0 = Math.min(...rows) * CELL;
    const y1 = (Math.max(...rows) + 1) * CELL;
    const x = side === "West" ? -COORD - BAND + 2 : full + COORD + 2;
    el("rect", { x, y: y0 + 1, width: BAND - 4, height: y1 - y0 - 2, rx: 5, class: cls }, band);
    const cx = x + (BAND - 4) / 2;
    const cy = (y0 + y1) / 2;
    const angle = side === "West" ? -90 : 90;
    txt(band, cx, cy, label, "gg-band-text", BAND_FONT, {
      "text-anchor": "middle",
      "dominant-baseline": "central",
      transform: `rotate(${angle} ${cx} ${cy})`,
    });
  }
}

// A stack from bottom to top: thin discs below, the top disc with its seat's letter, the
// height in a badge, a snowflake on frozen pieces and a lock on trapped ones.
function drawStack(parent, view, x, y, stack, frozenLevels, trappedLevels, home, name) {
  const n = stack.length;
  const g = el("g", { class: "gg-stack" }, parent);
  const cx = x + 33;
  const w = 34;
  const bottom = y + CELL - 6;
  const topH = 20;
  const lowerShown = Math.min(n - 1, 6);
  const lowerH = lowerShown === 0 ? 0 : n - 1 <= 2 ? 13 : Math.max(3.5, 22 / lowerShown);
  let yy = bottom;
  const lowerStart = n - 1 - lowerShown; // deepest pieces not drawn when the stack is tall
  for (let i = lowerStart; i < n - 1; i++) {
    yy -= lowerH;
    const cls = `gg-disc ${seatClass(view, stack[i])}${trappedLevels.includes(i) ? " trapped" : ""}`;
    el("rect", { x: cx - w / 2, y: yy, width: w, height: lowerH, rx: Math.min(5, lowerH / 2), class: cls }, g);
    if (lowerH >= 12) txt(g, cx, yy + lowerH - 3, letterOf(view, stack[i]), "gg-disc-letter small", 10, { "text-anchor": "middle" });
  }
  yy -= topH;
  const top = stack[n - 1];
  el("rect", { x: cx - w / 2 - 2, y: yy, width: w + 4, height: topH, rx: 8, class: `gg-disc top ${seatClass(view, top)}` }, g);
  txt(g, cx, yy + topH - 5, letterOf(view, top), "gg-disc-letter", 14, { "text-anchor": "middle" });
  if (n >= 2) {
    el("circle", { cx: x + CELL - 9, cy: y + 10, r: 9, class: "gg-count-bg" }, g);
    txt(g, x + CELL - 9, y + 14.5, String(n), "gg-count", 12.5, { "text-anchor": "middle" });
  }
  const counts = {};
  for (const s of stack) counts[letterOf(view, s)] = (counts[letterOf(view, s)] || 0) + 1;
  const letters = stack.map((s) => letterOf(view, s)).join(", ");
  const pieces = ngettext("%(square)s: %(count)s piece (%(letters)s from bottom to top)", "%(square)s: %(count)s pieces (%(letters)s from bottom to top)", n);
  const parts = [format(pieces, { square: name, count: n, letters })];
  if (frozenLevels.length) {
    snowflake(g, x + 9, y + 11, 7);
    const side = home !== undefined ? sideName(view, home) : "";
    parts.push(format(gettext("%(count)s frozen in %(side)s's goal area"), { count: frozenLevels.length, side }));
  }
  if (trappedLevels.length) {
    padlock(g, x + 9, bottom - 8);
    const count = trappedLevels.length;
    parts.push(count === 1 ? gettext("the bottom piece is trapped") : format(gettext("%(count)s pieces are trapped"), { count }));
  }
  tip(g, parts.join("; "));
}

function snowflake(g, cx, cy, r) {
  const s = el("g", { class: "gg-frozen" }, g);
  el("circle", { cx, cy, r: r + 2, class: "gg-icon-bg" }, s);
  for (let k = 0; k < 3; k++) {
    const a = (Math.PI / 3) * k + Math.PI / 2;
    const dx = Math.cos(a) * r;
    const dy = Math.sin(a) * r;
    el("line", { x1: cx - dx, y1: cy - dy, x2: cx + dx, y2: cy + dy }, s);
  }
  return s;
}

function crosshair(g, cx, cy, r) {
  const s = el("g", { class: "gg-crosshair", "aria-hidden": "true" }, g);
  el("circle", { cx, cy, r }, s);
  el("line", { x1: cx - r - 3, y1: cy, x2: cx + r + 3, y2: cy }, s);
  el("line", { x1: cx, y1: cy - r - 3, x2: cx, y2: cy + r + 3 }, s);
  return s;
}

function padlock(g, cx, cy) {
  const s = el("g", { class: "gg-lock" }, g);
  el("path", { d: `M ${cx - 3.5} ${cy - 1} v -3 a 3.5 3.5 0 0 1 7 0 v 3`, class: "gg-shackle" }, s);
  el("rect", { x: cx - 6, y: cy - 1, width: 12, height: 9, rx: 1.5, class: "gg-lock-body" }, s);
  return s;
}

// Movable stacks, their targets, challengeable pieces and the set-up squares, on top of all.
// The whole square takes the tap, not only the outline drawn inside it: on a phone a square
// is about 40 px across.
function hitArea(node, c, r) {
  el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: "gg-hit" }, node);
}

function drawClickables(g, view, ctx, m, goals) {
  const stacks = view.stacks || {};
  const layer = el("g", { class: "gg-clickables" }, g);
  const targets = selected !== null ? m.moves.get(selected) : null;

  for (const [from, tos] of m.moves) {
    if (targets && targets.has(from)) continue; // a target takes the click
    const [c, r] = squareCR(from);
    const isSel = from === selected;
    const node = el("g", { class: `gg-pick${isSel ? " selected" : ""}`, "data-select": from }, layer);
    hitArea(node, c, r);
    el("rect", { x: c * CELL + 2, y: r * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 6, class: "gg-pick-box" }, node);
    node.setAttribute("aria-pressed", isSel ? "true" : "false");
    const n = (stacks[from] || []).length;
    const label = isSel
      ? format(
          ngettext(
            "Your stack on %(square)s is picked (%(count)s target); click it again to put it back",
            "Your stack on %(square)s is picked (%(count)s targets); click it again to put it back",
            tos.size,
          ),
          { square: from, count: tos.size },
        )
      : format(
          ngettext("Pick your stack on %(square)s (%(count)s piece) to move its top piece", "Pick your stack on %(square)s (%(count)s pieces) to move its top piece", n),
          { square: from, count: n },
        );
    clickable(node, label, () => {
      selected = isSel ? null : from;
      if (selected) redraw(`[data-action^="move:${from}-"]`);
      else redraw(`[data-select="${from}"]`);
    });
  }

  if (targets) {
    for (const [to, entry] of targets) {
      const [c, r] = squareCR(to);
      const node = el("g", { class: "gg-target move" }, layer);
      hitArea(node, c, r);
      el("rect", { x: c * CELL + 3, y: r * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: "gg-target-box" }, node);
      if (!(stacks[to] || []).length) el("circle", { cx: c * CELL + CELL / 2, cy: r * CELL + CELL / 2, r: 9, class: "gg-target-dot" }, node);
      node.dataset.action = entry.action;
      clickable(node, entry.label, () => {
        selected = null;
        ctx.act(entry.action);
      });
    }
  }

  for (const [sq, entry] of m.challenge) {
    const [c, r] = squareCR(sq);
    const node = el("g", { class: "gg-target challenge" }, layer);
    hitArea(node, c, r);
    el("rect", { x: c * CELL + 3, y: r * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: "gg-target-box" }, node);
    crosshair(node, c * CELL + 11, r * CELL + CELL - 11, 6);
    node.dataset.action = entry.action;
    clickable(node, entry.label, () => ctx.act(entry.action));
  }

  if (m.vacant.size && ctx.seat !== null && ctx.seat !== undefined) {
    const side = sideOf(view, ctx.seat);
    const squares = (view.goal_areas || [])[ctx.seat] || [];
    for (const sq of squares) {
      const [c, r] = squareCR(sq);
      const key = side === "North" || side === "South" ? COLUMNS[c] : String(r + 1);
      const entry = m.vacant.get(key);
      if (!entry) continue;
      const node = el("g", { class: "gg-target vacant" }, layer);
      hitArea(node, c, r);
      el("rect", { x: c * CELL + 3, y: r * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: "gg-target-box" }, node);
      txt(node, c * CELL + CELL / 2, r * CELL + CELL / 2 + 5, key, "gg-vacant-key", 15, { "text-anchor": "middle" });
      node.dataset.action = entry.action;
      clickable(node, entry.label, () => ctx.act(entry.action));
    }
  }
}

// ------------------------------------------------------------------------- side panel

function textWidth(content, size) {
  return content.length * size * 0.55;
}

// Breaks text into lines of at most about ``maxW`` units; returns the next baseline.
function wrapText(g, x, y, content, cls, size, maxW, step) {
  const perLine = Math.max(10, Math.floor(maxW / (size * (cls.includes("strong") || cls.includes("hint") ? 0.6 : 0.56))));
  let line = "";
  for (const word of content.split(" ")) {
    if (line && `${line} ${word}`.length > perLine) {
      txt(g, x, y, line, cls, size);
      y += step;
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) {
    txt(g, x, y, line, cls, size);
    y += step;
  }
  return y;
}

function dieFace(g, x, y, size, n, cls) {
  const d = el("g", { class: `gg-die ${cls || ""}` }, g);
  el("rect", { x, y, width: size, height: size, rx: size * 0.18, class: "gg-die-face" }, d);
  const p = size / 4;
  const spots = {
    1: [[2, 2]],
    2: [[1, 1], [3, 3]],
    3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  }[n] || [];
  for (const [sx, sy] of spots) el("circle", { cx: x + sx * p, cy: y + sy * p, r: size * 0.09, class: "gg-pip" }, d);
  tip(d, format(gettext("rolled %(number)s"), { number: n }));
  return d;
}

function chipLetter(g, cx, cy, r, view, seat) {
  el("circle", { cx, cy, r, class: `gg-chip ${seatClass(view, seat)}` }, g);
  txt(g, cx, cy + r * 0.38, letterOf(view, seat), "gg-disc-letter", Math.round(r * 1.1), { "text-anchor": "middle" });
}

function sideName(view, seat) {
  const side = sideOf(view, seat);
  return SIDE_NAMES[side] || side;
}

function who(view, ctx, seat) {
  return `${seatName(ctx, seat)} (${sideName(view, seat)})`;
}

// The panel beside the board (desktop) or under it (phone, ``compact``: fewer, denser lines).
function drawPanel(g, view, ctx, m, w, fs, compact) {
  const f = (n) => Math.round(n * fs);
  const line = f(22);
  const pad = 12;
  const inner = w - 2 * pad;
  const box = el("rect", { x: 0, y: 0, width: w, height: 10, rx: 8, class: "gg-panel" }, g);
  let y = f(26);

  // Whose turn and which step.
  const status = el("g", { class: "gg-status" }, g);
  if (view.terminal) {
    txt(status, pad, y, gettext("Game over"), "gg-title", f(19));
    y += line;
    y = wrapText(status, pad, y, view.prompt || "", "gg-line", f(15), inner, line);
  } else {
    const actor = view.current_player;
    if (actor !== null && actor !== undefined) {
      const mine = ctx.seat === actor;
      chipLetter(status, pad + f(10), y - f(6), f(10), view, actor);
      const head = mine ? gettext("Your turn") : format(gettext("%(name)s to play"), { name: shorten(seatName(ctx, actor), 16) });
      txt(status, pad + f(26), y, head, "gg-title", f(18));
    } else {
      txt(status, pad, y, gettext("Dice"), "gg-title", f(18));
    }
    y += line;
    const stepWords = format(gettext("Step: %(step)s"), { step: STEP_WORDS[view.step] || view.step });
    y = wrapText(status, pad, y, stepWords, "gg-line strong", f(15), inner, line);
    const hint = hintFor(view, ctx, m);
    if (hint) y = wrapText(status, pad, y, hint, "gg-line hint", f(14), inner, line);
  }
  if (!compact && ctx.seat !== null && ctx.seat !== undefined && view.sides) {
    const yours = format(gettext("You play %(side)s (%(letter)s)."), { side: sideName(view, ctx.seat), letter: letterOf(view, ctx.seat) });
    y = wrapText(g, pad, y, yours, "gg-line muted", f(14), inner, line);
  }
  y += f(4);

  // Players: letter, name, pieces in opponents' goal areas (two to a row on a phone).
  // Wrapped: longer in some languages than the panel is wide.
  y = wrapText(g, pad, y, gettext("Pieces in opponents' goal areas"), "gg-head", f(15), inner, line);
  const n = view.num_players || (view.sides || []).length;
  const perRow = compact ? 2 : 1;
  const colW = (inner + 8) / perRow;
  for (let s = 0; s < n; s++) {
    const x = pad + (s % perRow) * colW;
    const row = el("g", { class: `gg-player${view.current_player === s ? " to-move" : ""}`, "data-seat": s }, g);
    if (view.current_player === s) el("rect", { x: x - 4, y: y - f(16), width: colW - 4, height: f(22), rx: 4, class: "gg-player-hi" }, row);
    chipLetter(row, x + f(9), y - f(5), f(9), view, s);
    const count = `${(view.in_goal || [])[s] || 0}/${(view.pieces_per_player || [])[s] || 0}`;
    const room = Math.floor((colW - f(24) - textWidth(count, f(15)) - 12) / (f(15) * 0.56));
    txt(row, x + f(24), y, shorten(seatLabel(ctx, s), Math.max(4, Math.min(ctx.seat === s ? 22 : 16, room))), "gg-line", f(15));
    txt(row, x + colW - 12, y, count, "gg-line strong", f(15), { "text-anchor": "end" });
    const inGoal = format(gettext("%(name)s: %(count)s pieces in opponents' goal areas"), { name: who(view, ctx, s), count });
    tip(row, view.winner === s ? `${inGoal} — ${gettext("winner")}` : inGoal);
    if (s % perRow === perRow - 1 || s === n - 1) y += line;
  }
  const played = { played: view.moves_played || 0, limit: view.move_limit || 400 };
  const moves = format(gettext("Moves played: %(played)s of %(limit)s"), played);
  const lastMove = view.last_move ? format(gettext("Last move: %(from)s → %(to)s"), { from: view.last_move[0], to: view.last_move[1] }) : "";
  if (compact) {
    const both = lastMove ? `${lastMove} · ${format(gettext("%(played)s of %(limit)s moves"), played)}` : moves;
    y = wrapText(g, pad, y, both, "gg-line", f(14), inner, line);
  } else {
    y = wrapText(g, pad, y, moves, "gg-line muted", f(14), inner, line);
    if (lastMove) y = wrapText(g, pad, y, lastMove, "gg-line", f(15), inner, line);
  }
  const pieces = (view.pieces_per_player || [])[0];
  if (pieces && view.standard_pieces && pieces !== view.standard_pieces) {
    const each = format(gettext("%(count)s pieces each (standard: %(standard)s)"), { count: pieces, standard: view.standard_pieces });
    y = wrapText(g, pad, y, each, "gg-line strong", f(14), inner, line);
  }
  if (view.vacant && view.vacant.some((v) => v && v.length) && (!compact || (view.moves_played || 0) === 0)) {
    // One choice per pair of opposite sides: "N/S column d", "E/W rows 2, 5".
    const pairs = new Map();
    view.vacant.forEach((named, s) => {
      const labels = [].concat(named || []);
      if (!labels.length) return;
      const listed = { labels: labels.join(", ") };
      const what = /^[a-h]$/.test(labels[0])
        ? format(ngettext("column %(labels)s", "columns %(labels)s", labels.length), listed)
        : format(ngettext("row %(labels)s", "rows %(labels)s", labels.length), listed);
      if (!pairs.has(what)) pairs.set(what, []);
      pairs.get(what).push(letterOf(view, s));
    });
    const parts = [...pairs].map(([what, letters]) => `${letters.join("/")} ${what}`);
    const empty = format(gettext("Left empty at set-up: %(parts)s"), { parts: parts.join(", ") });
    y = wrapText(g, pad, y, empty, "gg-line muted", f(13), inner, line);
  }
  y += f(4);

  // The challenge in progress.
  if (view.challenge_from && (view.step === "challenge" || view.step === "dice" || view.step === "defender")) {
    const ch = el("g", { class: "gg-current-challenge" }, g);
    let words;
    if (view.step === "challenge") {
      const t = (view.challenge_targets || []).join(", ");
      words = format(gettext("The piece on %(square)s may challenge %(targets)s."), { square: view.challenge_from, targets: t || gettext("nobody") });
    } else if (view.step === "dice") {
      words = format(gettext("%(from)s challenges %(target)s: the dice roll."), { from: view.challenge_from, target: view.challenged });
    } else {
      const about = { from: view.challenge_from, target: view.challenged, name: seatName(ctx, view.defender) };
      words = format(gettext("%(from)s challenged %(target)s and lost: %(name)s traps or spares."), about);
    }
    y = wrapText(ch, pad, y, words, "gg-line strong", f(15), inner, line) + f(6);
  }

  // The last dice.
  const dice = view.last_dice;
  if (dice) {
    const dg = el("g", { class: "gg-dice" }, g);
    txt(dg, pad, y, format(gettext("Last challenge · move %(move)s"), { move: dice.move }), "gg-head", f(15));
    y += f(10);
    const size = f(compact ? 30 : 34);
    const half = inner / 2;
    dieFace(dg, pad, y, size, dice.challenger_roll, "challenger");
    dieFace(dg, pad + half, y, size, dice.defender_roll, "defender");
    const tx = size + f(8);
    const on = gettext("%(letter)s on %(square)s");
    txt(dg, pad + tx, y + f(13), gettext("Challenger"), "gg-line muted", f(13));
    txt(dg, pad + tx, y + f(29), format(on, { letter: letterOf(view, dice.challenger), square: dice.from }), "gg-line strong", f(15));
    txt(dg, pad + half + tx, y + f(13), gettext("Defender"), "gg-line muted", f(13));
    txt(dg, pad + half + tx, y + f(29), format(on, { letter: letterOf(view, dice.defender), square: dice.target }), "gg-line strong", f(15));
    y += size + line;
    let outcome;
    if (dice.outcome === "challenger wins") {
      const about = { high: dice.challenger_roll, low: dice.defender_roll, name: seatName(ctx, dice.challenger), square: dice.trapped || dice.target };
      outcome = format(gettext("%(high)s beats %(low)s: %(name)s wins and traps the piece on %(square)s."), about);
    } else if (dice.outcome === "defender wins") {
      const about = { high: dice.defender_roll, low: dice.challenger_roll, name: seatName(ctx, dice.defender), square: dice.trapped };
      if (dice.trapped) outcome = gettext("%(high)s beats %(low)s: %(name)s wins and traps the piece on %(square)s.");
      else if (view.step === "defender" && view.challenged === dice.target) outcome = gettext("%(high)s beats %(low)s: %(name)s wins and now chooses.");
      else outcome = gettext("%(high)s beats %(low)s: %(name)s wins and spares the challenger.");
      outcome = format(outcome, about);
    } else {
      outcome = format(gettext("Both rolled %(roll)s: nothing happens."), { roll: dice.challenger_roll });
    }
    y = wrapText(dg, pad, y, outcome, "gg-line outcome", f(14), inner, line);
  }
  y += f(2);

  // Legend: one row on a phone, one line each on a desktop.
  const legend = el("g", { class: "gg-legend" }, g);
  const items = [
    ["frozen", compact ? gettext("frozen") : gettext("frozen in a goal area")],
    ["trapped", compact ? gettext("trapped") : gettext("trapped under a piece")],
    ["count", compact ? gettext("stack height") : gettext("pieces in the stack")],
  ];
  let lx = pad + f(8);
  items.forEach(([kind, words], i) => {
    const cy = y - f(5);
    if (kind === "frozen") snowflake(legend, lx, cy, f(6));
    else if (kind === "trapped") padlock(legend, lx, cy - 2);
    else {
      el("circle", { cx: lx, cy, r: f(8), class: "gg-count-bg" }, legend);
      txt(legend, lx, cy + f(4), "3", "gg-count", f(11), { "text-anchor": "middle" });
    }
    txt(legend, lx + f(14), y, words, "gg-line muted", f(13));
    if (compact) lx += f(14) + textWidth(words, f(13)) + f(24);
    if (!compact || i === items.length - 1) {
      y += line;
      lx = pad + f(8);
    }
  });
  y += f(2) - line + f(14);
  box.setAttribute("height", y);
  return y;
}

function hintFor(view, ctx, m) {
  if (m.moves.size) {
    if (selected !== null) {
      return format(gettext("Click a lit square to move the top piece of %(square)s there, or another of your stacks."), { square: selected });
    }
    return gettext("Click one of your outlined stacks, then one of its lit target squares.");
  }
  if (m.challenge.size) return gettext("Click a piece in a red frame to challenge it, or choose “Do not challenge” below.");
  if (m.vacant.size) {
    const left = (view.vacancies || 1) - (((view.vacant || [])[ctx.seat] || []).length);
    if ((view.vacancies || 1) === 1) return gettext("Click the square of your goal area to leave empty (the opposite side mirrors it).");
    const more = ngettext(
      "Click %(count)s more square of your goal area to leave empty, one at a time (the opposite side mirrors them).",
      "Click %(count)s more squares of your goal area to leave empty, one at a time (the opposite side mirrors them).",
      left,
    );
    return format(more, { count: left });
  }
  if (m.other.some((e) => e.action === "trap")) return gettext("You won the challenge: trap the challenger's piece or spare it (buttons below).");
  const actor = view.current_player;
  if (actor !== null && actor !== undefined && ctx.seat !== actor && view.sides) return format(gettext("Waiting for %(names)s."), { names: who(view, ctx, actor) });
  return "";
}

// The places an action names, for the analysis's marks (board-kit.js, ``markPlaces``): a
// move's square and target, a challenged piece's square.
export function actionPlaces(action) {
  const [verb, arg] = String(action).split(":");
  const square = (name) => `.gg-cell[data-square=${JSON.stringify(name)}]`;
  const move = /^([a-h][1-8])-([a-h][1-8])$/.exec(arg || "");
  if (verb === "move" && move) return [{ from: square(move[1]), to: square(move[2]) }];
  if (verb === "challenge" && /^[a-h][1-8]$/.test(arg)) return [{ at: square(arg) }];
  return [];
}
