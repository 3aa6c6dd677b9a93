// Board renderer for Territory (dice): the 6 x 6 addition table (each space with its number
// and its value), the players' pieces, this turn's white markers, the viewer's best group,
// the rolls of the turn, the free rolls left, the card in force, the round and the turn
// order. Clicks: claim or capture a highlighted space; Roll and Stop are drawn as big
// buttons too (they also stay in the page's button list).

import { format, gettext, ngettext } from "../js/i18n.js";
import { el, linkStylesheet, points, seatLabel, seatName, shortName, title } from "./board-kit.js";


// Okabe-Ito colours (red and green a shade darker, so that their white letters read at 4.5:1),
// each with its own letter and shape, so no seat relies on colour alone.
const SEATS = [
  { colour: "#0072b2", ink: "#fff", letter: "B", name: gettext("blue"), shape: "circle" },
  { colour: "#b84f00", ink: "#fff", letter: "R", name: gettext("red"), shape: "square" },
  { colour: "#00785f", ink: "#fff", letter: "G", name: gettext("green"), shape: "diamond" },
  { colour: "#cc79a7", ink: "#111", letter: "P", name: gettext("pink"), shape: "triangle" },
  { colour: "#e69f00", ink: "#111", letter: "O", name: gettext("orange"), shape: "hexagon" },
  { colour: "#56b4e9", ink: "#111", letter: "S", name: gettext("sky blue"), shape: "star" },
];
const SHAPE_NAMES = {
  circle: gettext("circle"),
  square: gettext("square"),
  diamond: gettext("diamond"),
  triangle: gettext("triangle"),
  hexagon: gettext("hexagon"),
  star: gettext("star"),
};
const RESULTS = {
  placed: gettext("placed a marker"),
  nothing: gettext("nothing to place"),
  ignored: gettext("repeat forgiven"),
  bust: gettext("BUST"),
};
const TAGS = { placed: gettext("placed"), nothing: gettext("none"), ignored: gettext("forgiven"), bust: gettext("BUST") };
const ENDINGS = { stop: gettext("stopped"), capture: gettext("captured and ended the turn"), bust: gettext("went bust") };
const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

// Geometry in viewBox units.
const CELL = 96;
const LEFT = 30; // row labels
const TOP_LABELS = 28; // column labels
const HEAD = { wide: 72, narrow: 88 }; // status and hint lines
const BOARD_W = LEFT + 6 * CELL + 6;
const GAP = 22; // board to side panel
const SIDE_W = 380;
const WIDE_MIN_PX = 560; // below this the panel goes under the board

let last = null; // [container, view, ctx] of the latest render, to redraw on resize
let lastWide = null;
let listening = false;


function listenOnce() {
  if (listening) return;
  listening = true;
  window.addEventListener("resize", () => {
    if (!last || !last[0].isConnected) return;
    if ((last[0].clientWidth >= WIDE_MIN_PX) !== lastWide) {
      const [container, view, ctx] = last;
      container.replaceChildren();
      render(container, view, ctx);
    }
  });
}


function txt(parent, x, y, content, cls, extra) {
  const t = el("text", { x, y, class: cls, ...(extra || {}) }, parent);
  t.textContent = content;
  return t;
}



function who(ctx, i) {
  return i === ctx.seat ? gettext("you") : seatName(ctx, i);
}


// Greedy word wrap to lines of at most `max` characters.
function wrap(text, max) {
  const lines = [];
  let line = "";
  for (const word of String(text).split(/\s+/)) {
    if (!word) continue;
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

// Word wrap to lines of at most `max` characters; a word longer than a line (a user name)
// fills the line it starts on and runs on to the next: every character is kept.
function wrapWhole(text, max) {
  const lines = [];
  let line = "";
  for (let word of String(text).split(/\s+/)) {
    if (!word) continue;
    if (word.length > max) {
      const start = line ? `${line} ` : "";
      const take = Math.max(0, max - start.length);
      line = start + word.slice(0, take);
      word = word.slice(take);
      while (word) {
        lines.push(line);
        line = word.slice(0, max);
        word = word.slice(max);
      }
    } else if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

// The shape of seat i centred on (cx, cy), about 2r across, with the seat's letter on it.
function seatShape(parent, i, cx, cy, r, cls) {
  const seat = SEATS[i % SEATS.length];
  const attrs = { class: cls, fill: seat.colour };
  const poly = (pts) => el("polygon", { ...attrs, points: pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ") }, parent);
  const around = (n, radius, start, inner) => {
    const pts = [];
    for (let k = 0; k < n; k++) {
      const a = ((start + (360 / n) * k) * Math.PI) / 180;
      const rr = inner && k % 2 ? inner : radius;
      pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
    }
    return pts;
  };
  switch (seat.shape) {
    case "square":
      return el("rect", { ...attrs, x: cx - r * 0.86, y: cy - r * 0.86, width: r * 1.72, height: r * 1.72, rx: r * 0.14 }, parent);
    case "diamond":
      return poly(around(4, r * 1.2, -90));
    case "triangle":
      return poly(around(3, r * 1.35, -90).map(([x, y]) => [x, y + r * 0.25]));
    case "hexagon":
      return poly(around(6, r * 1.05, 0));
    case "star":
      return poly(around(10, r * 1.3, -90, r * 0.72));
    default:
      return el("circle", { ...attrs, cx, cy, r }, parent);
  }
}

// A seat's piece: its shape in its colour with its letter.
function piece(parent, i, cx, cy, r, cls) {
  const g = el("g", { class: `dt-piece seat-${i}${cls ? " " + cls : ""}` }, parent);
  seatShape(g, i, cx, cy, r, "dt-shape");
  const seat = SEATS[i % SEATS.length];
  const dy = seat.shape === "triangle" ? r * 0.5 : r * 0.36;
  txt(g, cx, cy + dy, seat.letter, "dt-letter", { "text-anchor": "middle", fill: seat.ink, "font-size": (r * 1.05).toFixed(1) });
  return g;
}

// A white marker of this turn: a white disc ringed in the colour of the player placing it.
function whiteMarker(parent, seat, cx, cy, r) {
  const g = el("g", { class: "dt-marker" }, parent);
  const s = seat === null || seat === undefined ? null : SEATS[seat % SEATS.length];
  el("circle", { cx, cy, r, class: "dt-marker-disc", stroke: s ? s.colour : "#333" }, g);
  txt(g, cx, cy + r * 0.36, s ? s.letter : "?", "dt-marker-letter", { "text-anchor": "middle", "font-size": (r * 1.05).toFixed(1) });
  return g;
}

function die(parent, x, y, size, value) {
  const g = el("g", { class: "dt-die" }, parent);
  el("rect", { x, y, width: size, height: size, rx: size * 0.18, class: "dt-die-face" }, g);
  const c = size / 2;
  const off = size * 0.27;
  for (const [dx, dy] of PIPS[value] || []) {
    el("circle", { cx: x + c + dx * off, cy: y + c + dy * off, r: size * 0.09, class: "dt-pip" }, g);
  }
  title(g, format(gettext("a die showing %(value)s"), { value }));
  return g;
}

function clickable(node, entry, ctx) {
  node.dataset.action = entry.action;
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", entry.label);
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    ctx.act(entry.action);
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      ctx.act(entry.action);
    }
  });
}

function legalMoves(ctx) {
  const claim = new Map();
  const capture = new Map();
  let roll = null;
  let stop = null;
  for (const entry of ctx.legal || []) {
    const a = entry.action;
    if (a.startsWith("claim:")) claim.set(a.slice(6), entry);
    else if (a.startsWith("capture:")) capture.set(a.slice(8), entry);
    else if (a === "roll") roll = entry;
    else if (a === "stop") stop = entry;
  }
  return { claim, capture, roll, stop, any: (ctx.legal || []).length > 0 };
}

export function render(container, view, ctx) {
  linkStylesheet(new URL("./dice-territory.css", import.meta.url));
  listenOnce();
  last = [container, view, ctx];
  const wide = container.clientWidth >= WIDE_MIN_PX;
  lastWide = wide;
  const moves = legalMoves(ctx);
  const lay = wide
    ? { head: HEAD.wide, panelX: BOARD_W + GAP, panelY: HEAD.wide, panelW: SIDE_W, text: 19, lh: 25, chars: 36, big: 22 }
    : { head: HEAD.narrow, panelX: 0, panelY: HEAD.narrow + TOP_LABELS + 6 * CELL + 24, panelW: BOARD_W, text: 25, lh: 32, chars: 42, big: 28 };
  const width = wide ? BOARD_W + GAP + SIDE_W : BOARD_W;

  const svg = el("svg", {
    class: `dice-territory ${wide ? "dt-wide" : "dt-narrow"}`,
    role: "group",
    "aria-label": gettext("Dice territory board: the addition table, the dice of this turn, the card and the turn order"),
  });
  const bg = el("rect", { x: 0, y: 0, width, class: "dt-bg" }, svg);

  drawHeader(svg, view, ctx, moves, wide);
  const board = el("g", { class: "dt-board", transform: `translate(0 ${lay.head})` }, svg);
  drawBoard(board, view, ctx, moves);
  const panel = el("g", { class: "dt-panel", transform: `translate(${lay.panelX} ${lay.panelY})` }, svg);
  const panelH = drawPanel(panel, view, ctx, moves, lay);

  const boardBottom = lay.head + TOP_LABELS + 6 * CELL + 8;
  const height = Math.ceil(Math.max(wide ? boardBottom : 0, lay.panelY + panelH) + 6);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  bg.setAttribute("height", height);
  container.append(svg);
}

// -- header -------------------------------------------------------------------------------

function drawHeader(svg, view, ctx, moves, wide) {
  const g = el("g", { class: "dt-head" }, svg);
  let status;
  let hint = "";
  let hintTitle = "";
  const turn = view.turn;
  if (view.terminal) {
    status = format(gettext("Game over after %(rounds)s rounds"), { rounds: view.rounds });
    const order = (view.ranking || []).map((place, i) => [place, i]).sort((a, b) => a[0] - b[0]);
    // The winners by their whole names (the places follow on the panel), a tooltip with them all.
    const winners = order.filter(([place]) => place === 1).map(([, i]) => seatLabel(ctx, i));
    // As much of them as the header's width holds (a character is about 0.56 of the text size).
    const room = Math.floor(((wide ? BOARD_W + GAP + SIDE_W : BOARD_W) - 16) / ((wide ? 19 : 24) * 0.56));
    hint = winners.length > 1
      ? format(gettext("Shared win: %(names)s"), { names: winners.join(gettext(" and ")) })
      : format(gettext("Won by: %(name)s"), { name: winners[0] });
    if (hint.length > room) hint = `${hint.slice(0, room - 1)}…`;
    hintTitle = order.map(([place, i]) => `${place}. ${seatName(ctx, i)}: ${points(view.scores[i])}`).join("; ");
  } else if (!view.round) {
    status = gettext("Setting up: who plays first?");
  } else if (turn === null || turn === undefined) {
    status = format(gettext("Round %(round)s of %(rounds)s · drawing the next card"), { round: view.round, rounds: view.rounds });
  } else {
    const mine = turn === ctx.seat;
    const whose = mine ? gettext("your turn") : format(gettext("%(name)s's turn"), { name: shortName(seatName(ctx, turn), 16) });
    status = format(gettext("Round %(round)s of %(rounds)s · %(who)s"), { round: view.round, rounds: view.rounds, who: whose });
    if (mine && moves.any) {
      if (moves.claim.size || moves.capture.size) {
        const number = view.placing ? view.placing.number : "";
        const lucky = view.placing && view.placing.number === 7 && view.card && view.card.letter === "G";
        if (moves.claim.size && moves.capture.size) hint = format(gettext("Click a %(number)s: claim a free one or capture."), { number });
        else if (moves.capture.size) hint = format(gettext("All the %(number)ss are taken: click one to capture."), { number });
        else hint = lucky ? gettext("Lucky seven: click any free space.") : format(gettext("Click a highlighted %(number)s to claim it."), { number });
      } else if (moves.stop) {
        hint = gettext("Roll again, or stop to keep your markers.");
      } else if (moves.roll) {
        const count = view.free_rolls_left;
        hint = format(ngettext("Roll the dice (%(count)s free roll left).", "Roll the dice (%(count)s free rolls left).", count), { count });
      }
    } else if (view.placing) {
      hint = format(gettext("%(name)s is placing on a %(number)s."), { name: shortName(seatName(ctx, turn), 14), number: view.placing.number });
    } else if (view.chance) {
      hint = gettext("The dice are rolling…");
    } else {
      hint = format(gettext("Waiting for %(names)s."), { names: shortName(seatName(ctx, turn), 20) });
    }
  }
  txt(g, 8, wide ? 28 : 32, status, "dt-status");
  const h = txt(g, 8, wide ? 58 : 72, hint, moves.any ? "dt-hint mine" : "dt-hint");
  h.setAttribute("aria-live", "polite");
  if (hintTitle) title(h, hintTitle);
}

// -- board --------------------------------------------------------------------------------

function cellXY(col, row) {
  return [LEFT + col * CELL, TOP_LABELS + row * CELL];
}

function drawBoard(g, view, ctx, moves) {
  for (let c = 0; c < 6; c++) {
    const [x] = cellXY(c, 0);
    txt(g, x + CELL / 2, 20, String.fromCharCode(97 + c), "dt-coord", { "text-anchor": "middle" });
  }
  for (let r = 0; r < 6; r++) {
    const [, y] = cellXY(0, r);
    txt(g, LEFT / 2, y + CELL / 2 + 7, String(r + 1), "dt-coord", { "text-anchor": "middle" });
  }
  const turn = view.turn;
  const focus = ctx.seat !== null && ctx.seat !== undefined ? ctx.seat : null;
  const best = new Set(focus !== null ? (view.best_group || [])[focus] || [] : []);
  for (const sp of view.board || []) {
    const [x, y] = cellXY(sp.col, sp.row);
    const owner = sp.owner;
    const sg = el("g", { class: "dt-space", "data-space": sp.space }, g);
    let cls = `dt-cell value-${sp.value}`;
    if (owner !== null && owner !== undefined) cls += " owned";
    if (sp.marker) cls += " marked";
    el("rect", { x, y, width: CELL, height: CELL, class: cls }, sg);
    if (owner !== null && owner !== undefined) {
      el("rect", { x, y, width: CELL, height: CELL, class: "dt-tint", fill: SEATS[owner % SEATS.length].colour }, sg);
    }
    const claim = moves.claim.get(sp.space);
    const capture = moves.capture.get(sp.space);
    if (claim || capture) {
      el("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: `dt-target${capture ? " capture" : ""}` }, sg);
    }
    txt(sg, x + 6, y + 17, sp.space, "dt-name");
    txt(sg, x + 33, y + 56, String(sp.number), "dt-number", { "text-anchor": "middle" });
    txt(sg, x + 6, y + CELL - 9, points(sp.value, true), "dt-value");
    const pcx = x + CELL - 24;
    const pcy = y + CELL - 30;
    if (owner !== null && owner !== undefined) piece(sg, owner, pcx, pcy, 17);
    else if (sp.marker) whiteMarker(sg, turn, pcx, pcy, 17);
    if (claim) {
      sg.classList.add("target", "claim");
      el("circle", { cx: pcx, cy: pcy, r: 17, class: "dt-ghost" }, sg);
      clickable(sg, claim, ctx);
    } else if (capture) {
      sg.classList.add("target", "capture");
      el("circle", { cx: pcx, cy: pcy, r: 23, class: "dt-capture-ring" }, sg);
      clickable(sg, capture, ctx);
    } else {
      let held = gettext("free");
      if (sp.marker) {
        held = turn === null || turn === undefined
          ? gettext("a white marker of this turn")
          : format(gettext("a white marker of %(name)s (this turn)"), { name: seatName(ctx, turn) });
      } else if (owner !== null && owner !== undefined) {
        held = format(gettext("held by %(name)s"), { name: seatName(ctx, owner) });
      }
      const about = { space: sp.space, number: sp.number, worth: points(sp.value), held };
      title(sg, format(gettext("%(space)s: number %(number)s, worth %(worth)s, %(held)s"), about) + (best.has(sp.space) ? gettext(", in your best group") : ""));
    }
  }
  // The viewer's best group: an outline along its outer edges.
  if (best.size) {
    const bg = el("g", { class: "dt-best" }, g);
    const inGroup = (c, r) => best.has(`${String.fromCharCode(97 + c)}${r + 1}`);
    const segs = [];
    for (const name of best) {
      const c = name.charCodeAt(0) - 97;
      const r = Number(name.slice(1)) - 1;
      const [x, y] = cellXY(c, r);
      if (!inGroup(c, r - 1)) segs.push(`M${x} ${y}h${CELL}`);
      if (!inGroup(c, r + 1)) segs.push(`M${x} ${y + CELL}h${CELL}`);
      if (!inGroup(c - 1, r)) segs.push(`M${x} ${y}v${CELL}`);
      if (!inGroup(c + 1, r)) segs.push(`M${x + CELL} ${y}v${CELL}`);
    }
    const d = segs.join("");
    el("path", { d, class: "dt-best-under" }, bg);
    el("path", { d, class: "dt-best-line" }, bg);
  }
  el("rect", { x: LEFT, y: TOP_LABELS, width: 6 * CELL, height: 6 * CELL, class: "dt-frame" }, g);
}

// -- side panel ---------------------------------------------------------------------------

// Draws the panel from y = 0 down; returns its height.
function drawPanel(g, view, ctx, moves, lay) {
  const w = lay.panelW;
  let y = 0;
  const line = (content, cls, x = 0) => {
    y += lay.lh;
    return txt(g, x, y - 6, content, cls || "dt-text");
  };

  // Round and card.
  let roundText = view.round
    ? format(gettext("Round %(round)s of %(rounds)s"), { round: view.round, rounds: view.rounds })
    : format(gettext("A game of %(rounds)s rounds"), { rounds: view.rounds });
  if (view.terminal) roundText = format(gettext("All %(rounds)s rounds played · last card:"), { rounds: view.rounds });
  else if (view.card) roundText += ` · ${gettext("card in force:")}`;
  y += 4;
  line(roundText, "dt-section");
  y += 4;
  const card = view.card;
  const cg = el("g", { class: "dt-card" }, g);
  const cardTop = y;
  const letter = card ? card.letter || "?" : "–";
  const name = card ? (card.letter ? card.name : gettext("A hidden card")) : gettext("No card yet");
  const body = card ? card.text : gettext("A card is drawn at the start of each round.");
  const textX = 64;
  const bodyLines = wrap(body, Math.floor(lay.chars * (w - textX) / w));
  const cardH = 16 + lay.lh * (1 + bodyLines.length) + 8;
  el("rect", { x: 0, y: cardTop, width: w, height: cardH, rx: 10, class: `dt-card-bg${card && !card.letter ? " hidden" : ""}` }, cg);
  el("rect", { x: 10, y: cardTop + 12, width: 44, height: 56, rx: 6, class: "dt-card-letter-bg" }, cg);
  txt(cg, 32, cardTop + 50, letter, "dt-card-letter", { "text-anchor": "middle" });
  txt(cg, textX, cardTop + 10 + lay.lh - 4, name, "dt-card-name");
  bodyLines.forEach((l, k) => txt(cg, textX, cardTop + 10 + lay.lh * (k + 2) - 6, l, "dt-text"));
  title(cg, card ? `${card.letter ? card.letter + " " : ""}${name}: ${body}` : body);
  y = cardTop + Math.max(cardH, 80);
  const played = (view.cards_played || []).filter((c) => c.round !== view.round);
  if (played.length) {
    y += 4;
    const earlier = played.map((c) => `${c.letter} ${c.name} (${c.round})`).join(", ");
    for (const l of wrap(format(gettext("Earlier cards (round): %(cards)s"), { cards: earlier }), lay.chars)) line(l, "dt-note");
  }

  // Turn order, with every player's colour, letter and score.
  y += 12;
  const seats = [...Array(view.num_players || 0).keys()];
  let order = (view.turn_order || []).length ? view.turn_order : seats;
  if (view.terminal && view.ranking) order = seats.sort((p, q) => view.ranking[p] - view.ranking[q] || p - q);
  line(view.terminal ? gettext("Final places") : view.round ? gettext("Turn order this round") : gettext("Players"), "dt-section");
  const pos = view.turn === null || view.turn === undefined ? (view.round ? order.length : -1) : order.indexOf(view.turn);
  order.forEach((seat, k) => {
    const rg = el("g", { class: `dt-player${seat === view.turn && !view.terminal ? " to-move" : ""}${seat === ctx.seat ? " me" : ""}`, "data-seat": seat }, g);
    const place = view.terminal ? (view.ranking || [])[seat] : null;
    let state = "";
    if (place === 1) state = gettext("winner");
    else if (view.terminal) state = "";
    else if (pos >= 0 && k < pos) state = gettext("played");
    else if (k === pos) state = gettext("▶ playing");
    const score = (view.scores || [])[seat] ?? 0;
    const right = `${state ? state + " · " : ""}${points(score, true)}`;
    // The name is written whole: beside the state and the score when it fits (a character
    // is about 0.6 of the text size), else over as many lines as it needs, the state and the
    // score on a line of their own below it, so "(you)" never runs into "playing".
    const full = `${place ?? k + 1}. ${seatLabel(ctx, seat)}`;
    const room = Math.floor((w - 10 - 44 - 12) / (lay.text * 0.56));
    const names = full.length + 2 + right.length <= room ? [full] : wrapWhole(full, room);
    const lines = names.length + (names.length > 1 || full.length + 2 + right.length > room ? 1 : 0);
    const rowH = lines === 1 ? Math.max(40, lay.lh + 12) : lay.lh * lines + 14;
    el("rect", { x: 0, y, width: w, height: rowH - 4, rx: 8, class: "dt-player-bg" }, rg);
    piece(rg, seat, 22, y + (rowH - 4) / 2, 14);
    if (lines === 1) {
      const cy = y + (rowH - 4) / 2 + lay.text * 0.36;
      txt(rg, 44, cy, full, "dt-text dt-player-name");
      txt(rg, w - 10, cy, right, "dt-text dt-player-score", { "text-anchor": "end" });
    } else {
      const base = (n) => y + 5 + lay.lh * (n + 1) - lay.lh * 0.3;
      names.forEach((part, n) => txt(rg, 44, base(n), part, "dt-text dt-player-name"));
      txt(rg, w - 10, base(names.length), right, "dt-text dt-player-score", { "text-anchor": "end" });
    }
    const owned = (view.owned_value || [])[seat] ?? 0;
    const s = SEATS[seat % SEATS.length];
    const about = { name: seatName(ctx, seat), colour: s.name, shape: SHAPE_NAMES[s.shape], letter: s.letter, best: points(score), all: points(owned) };
    const first = view.first_player === seat ? gettext("; first player") : "";
    title(rg, format(gettext('%(name)s: %(colour)s %(shape)s "%(letter)s"; best group %(best)s, all spaces %(all)s'), about) + first);
    y += rowH;
  });

  // This turn: rolls, free rolls left, Roll / Stop.
  y += 8;
  const turn = view.turn;
  if (!view.terminal && turn !== null && turn !== undefined) {
    line(turn === ctx.seat ? gettext("Your turn") : format(gettext("%(name)s's turn"), { name: shortName(seatName(ctx, turn), 18) }), "dt-section");
    const left = view.free_rolls_left ?? 0;
    const freeLeft = format(gettext("Free rolls left: %(left)s of %(free)s"), { left, free: view.free_rolls });
    line(left ? `${freeLeft} ${gettext("(must be taken)")}` : freeLeft, "dt-text dt-free-left");
    const rolls = view.rolls || [];
    if (!rolls.length) {
      for (const l of wrap(gettext("No dice rolled yet this turn."), lay.chars)) line(l, "dt-note");
    } else {
      drawRolls(g, rolls, view, lay, y + 6);
      const perRow = lay.panelW > 500 ? 3 : 2;
      y += 6 + Math.ceil(rolls.length / perRow) * ROLL_H;
      const seen = [...new Set(rolls.map((r) => r.number))].sort((a, b) => a - b);
      const rolled = left ? gettext("Rolled: %(numbers)s") : gettext("Rolled: %(numbers)s: any of these again busts");
      const msg = format(rolled, { numbers: seen.join(", ") });
      for (const l of wrap(msg, lay.chars)) line(l, left ? "dt-note" : "dt-text dt-warn");
    }
    if (view.placing) {
      const p = view.placing;
      const anywhere = p.number === 7 && view.card && view.card.letter === "G";
      let placing = format(anywhere ? gettext("Placing on a %(number)s or any free space") : gettext("Placing on a %(number)s"), { number: p.number });
      if (p.markers_left > 1) placing += ` ${format(gettext("(%(count)s markers)"), { count: p.markers_left })}`;
      line(placing, "dt-text dt-strong");
    }
    if (moves.roll || moves.stop) {
      y += 10;
      const bw = moves.stop ? (w - 12) / 2 : w;
      const bh = lay.big * 2.4;
      if (moves.roll) bigButton(g, 0, y, bw, bh, gettext("Roll"), moves.roll, ctx, "roll");
      if (moves.stop) bigButton(g, moves.roll ? bw + 12 : 0, y, bw, bh, gettext("Stop"), moves.stop, ctx, "stop");
      y += bh + 4;
    }
  }

  // How the last turn ended.
  const lt = view.last_turn;
  if (lt) {
    y += 8;
    const bustOn = view.last_chance && view.last_chance.kind === "dice" && lt.ended_by === "bust";
    const lastDice = bustOn ? ` ${format(gettext("on %(number)s"), { number: view.last_chance.number })}` : "";
    const kept = lt.kept && lt.kept.length ? format(gettext("kept %(spaces)s"), { spaces: lt.kept.join(" ") }) : gettext("kept nothing");
    const ending = `${ENDINGS[lt.ended_by] || lt.ended_by}${lastDice}`;
    const msg = format(gettext("Last turn: %(who)s %(ending)s, %(kept)s."), { who: who(ctx, lt.seat), ending, kept });
    for (const l of wrap(msg, lay.chars)) line(l, "dt-note");
  }

  // Key.
  y += 8;
  const key = [
    gettext("Big number: the space's number; pts: its value."),
    gettext("White disc: a marker of this turn."),
  ];
  if (ctx.seat !== null && ctx.seat !== undefined) {
    const mine = (view.best_group || [])[ctx.seat] || [];
    const best = points((view.scores || [])[ctx.seat] ?? 0);
    key.push(mine.length ? format(gettext("Gold outline: your best group (%(points)s)."), { points: best }) : gettext("Gold outline: your best group (none yet)."));
  }
  for (const k of key) for (const l of wrap(k, lay.chars + 4)) line(l, "dt-key");
  return y + 4;
}

const ROLL_H = 52;

function drawRolls(g, rolls, view, lay, top) {
  const perRow = lay.panelW > 500 ? 3 : 2;
  const colW = lay.panelW / perRow;
  const rg = el("g", { class: "dt-rolls", "aria-label": gettext("Rolls of this turn") }, g);
  rolls.forEach((roll, k) => {
    const x = (k % perRow) * colW;
    const y = top + Math.floor(k / perRow) * ROLL_H;
    const free = k < (view.free_rolls ?? 3);
    const one = el("g", { class: `dt-roll ${roll.result}${free ? " free" : ""}` }, rg);
    el("rect", { x: x + 1, y, width: colW - 6, height: ROLL_H - 6, rx: 8, class: "dt-roll-bg" }, one);
    die(one, x + 6, y + 6, 34, roll.dice[0]);
    die(one, x + 44, y + 6, 34, roll.dice[1]);
    txt(one, x + 84, y + 31, `=${roll.number}`, "dt-roll-number");
    txt(one, x + colW - 12, y + 21, free ? gettext("free") : gettext("extra"), `dt-roll-kind${free ? " free" : ""}`, { "text-anchor": "end" });
    txt(one, x + colW - 12, y + 40, TAGS[roll.result] || roll.result, `dt-roll-tag ${roll.result}`, { "text-anchor": "end" });
    const about = { n: k + 1, a: roll.dice[0], b: roll.dice[1], number: roll.number, result: RESULTS[roll.result] || roll.result };
    const rollWords = free
      ? gettext("Roll %(n)s (free): %(a)s and %(b)s make %(number)s; %(result)s")
      : gettext("Roll %(n)s: %(a)s and %(b)s make %(number)s; %(result)s");
    title(one, format(rollWords, about));
  });
}

function bigButton(g, x, y, w, h, label, entry, ctx, cls) {
  const bg = el("g", { class: `dt-button ${cls}` }, g);
  el("rect", { x, y, width: w, height: h, rx: 12, class: "dt-button-bg" }, bg);
  txt(bg, x + w / 2, y + h / 2 + 10, label, "dt-button-label", { "text-anchor": "middle" });
  clickable(bg, entry, ctx);
}

// The places an action names, for the analysis's marks (board-kit.js, ``markPlaces``): the
// space claimed or captured.
export function actionPlaces(action) {
  const [verb, arg] = String(action).split(":");
  if ((verb === "claim" || verb === "capture") && /^[a-z]\d+$/.test(arg)) return [{ at: `.dt-space[data-space=${JSON.stringify(arg)}]` }];
  return [];
}

export default { render, actionPlaces };
