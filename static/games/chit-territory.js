// Board renderer for Territory (chits): the 9 x 9 map in nine territories, every player's
// reserve, cup and discard pile. Clicks: build (choose a structure from your reserve, then a
// plot; one click when only one type can be built), war (click an opponent's structure) and
// discard (click a chit of your reserve). "Make peace" stays in the page's button list.

import { format, gettext, ngettext } from "../js/i18n.js";
import { SVG, el, linkStylesheet, points, seatLabel, seatName, shortName, title } from "./board-kit.js";

const TYPES = ["temple", "castle", "town", "farm", "mine", "palace", "army"];
const LETTER = { temple: "T", castle: "C", town: "W", farm: "F", mine: "M", palace: "P", army: "A" };
const SEAT_COLOURS = ["#0a5fb4", "#c44e00", "#00785f", "#8e3f8a"];
const SEAT_SHAPES = ["circle", "square", "diamond", "triangle"];
const PHASES = {
  setup: gettext("choosing who starts"),
  draw: gettext("drawing chits"),
  war: gettext("war or peace"),
  build: gettext("building"),
  discard: gettext("discarding"),
  over: gettext("game over"),
};
// The structures' names (the letters on the chits are the game's notation and stay).
const TYPE_NAMES = {
  temple: gettext("temple"),
  castle: gettext("castle"),
  town: gettext("town"),
  farm: gettext("farm"),
  mine: gettext("mine"),
  palace: gettext("palace"),
  army: gettext("army"),
};
const CHIT_COUNTS = {
  temple: (n) => ngettext("%(count)s temple", "%(count)s temples", n),
  castle: (n) => ngettext("%(count)s castle", "%(count)s castles", n),
  town: (n) => ngettext("%(count)s town", "%(count)s towns", n),
  farm: (n) => ngettext("%(count)s farm", "%(count)s farms", n),
  mine: (n) => ngettext("%(count)s mine", "%(count)s mines", n),
  palace: (n) => ngettext("%(count)s palace", "%(count)s palaces", n),
  army: (n) => ngettext("%(count)s army", "%(count)s armies", n),
};
const typeName = (type) => TYPE_NAMES[type] || type;

// Board geometry (viewBox units).
const CELL = 80;
const GAP = 12; // between territories, left to right
const BAND = 30; // label band above each row of territories
const VGAP = 8; // between rows of territories
const LEFT = 30; // row numbers
const COL_LABELS = 24;
const BOARD_W = LEFT + 9 * CELL + 2 * GAP + 6;
const WIDE_MIN_PX = 560; // below this the panels go under the board

// The page lists the many moves of a turn (162 plots to build on) as one filterable list, not
// a button each: the board's plots are the targets to click.
const actionPicker = true;

// Module state: the structure type picked for building, kept until the position changes.
let selectedType = null;
let positionKey = "";
let last = null; // [container, view, ctx] of the latest render, for re-drawing on selection
let listening = false;
let lastWide = null; // the layout of the latest render



function txt(parent, x, y, content, cls, extra) {
  const t = el("text", { x, y, class: cls, ...(extra || {}) }, parent);
  t.textContent = content;
  return t;
}



function cap(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

// The shape of seat i centred on (cx, cy), about 2r across.
function seatShape(parent, i, cx, cy, r, cls) {
  const attrs = { class: cls, fill: SEAT_COLOURS[i % 4] };
  switch (SEAT_SHAPES[i % 4]) {
    case "square":
      return el("rect", { ...attrs, x: cx - r * 0.88, y: cy - r * 0.88, width: r * 1.76, height: r * 1.76, rx: r * 0.12 }, parent);
    case "diamond": {
      const d = r * 1.18;
      return el("polygon", { ...attrs, points: `${cx},${cy - d} ${cx + d},${cy} ${cx},${cy + d} ${cx - d},${cy}` }, parent);
    }
    case "triangle": {
      const d = r * 1.3;
      const pts = [-90, 30, 150].map((a) => {
        const rad = (a * Math.PI) / 180;
        const [px, py] = [cx + d * Math.cos(rad), cy + r * 0.25 + d * Math.sin(rad)];
        return `${px.toFixed(1)},${py.toFixed(1)}`;
      });
      return el("polygon", { ...attrs, points: pts.join(" ") }, parent);
    }
    default:
      return el("circle", { ...attrs, cx, cy, r }, parent);
  }
}

function plotXY(name) {
  const col = name.charCodeAt(0) - 97;
  const row = Number(name.slice(1)) - 1;
  const x = LEFT + col * CELL + Math.floor(col / 3) * GAP;
  const y = COL_LABELS + (Math.floor(row / 3) + 1) * BAND + row * CELL + Math.floor(row / 3) * VGAP;
  return [x, y];
}

// Makes an SVG element a keyboard-accessible button.
function clickable(node, label, onActivate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
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

function actionButton(node, entry, ctx) {
  node.dataset.action = entry.action;
  clickable(node, entry.label, () => ctx.act(entry.action));
}

function legalMoves(ctx) {
  const build = {}; // type -> Map(plot -> {action, label})
  const war = new Map(); // plot -> {action, label}
  const discard = new Map(); // type -> {action, label}
  for (const entry of ctx.legal || []) {
    const a = entry.action;
    if (a.startsWith("build:")) {
      const [type, plot] = a.slice(6).split("@");
      (build[type] = build[type] || new Map()).set(plot, entry);
    } else if (a.startsWith("war:")) {
      war.set(a.slice(4), entry);
    } else if (a.startsWith("discard:")) {
      discard.set(a.slice(8), entry);
    }
  }
  return { build, war, discard, peace: (ctx.legal || []).some((e) => e.action === "peace") };
}

function redraw(focusKey) {
  if (!last) return;
  const [container, view, ctx] = last;
  container.replaceChildren();
  render(container, view, ctx);
  if (focusKey) {
    // After choosing a structure, the keyboard goes on to the first plot it may go on.
    const target = container.querySelector(`[data-action^="build:${focusKey}@"]`) || container.querySelector(`[data-select="${focusKey}"]`);
    if (target) target.focus();
  }
}

function listenOnce() {
  if (listening) return;
  listening = true;
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selectedType !== null) {
      selectedType = null;
      redraw();
    }
  });
  window.addEventListener("resize", () => {
    if (last && last[0].isConnected && (last[0].clientWidth >= WIDE_MIN_PX) !== lastWide) redraw();
  });
}

export function render(container, view, ctx) {
  linkStylesheet(new URL("./chit-territory.css", import.meta.url));
  listenOnce();
  last = [container, view, ctx];
  const legal = ctx.legal || [];
  const key = `${view.move_number}|${legal.map((e) => e.action).join(",")}`;
  if (key !== positionKey) {
    positionKey = key;
    selectedType = null;
  }
  const moves = legalMoves(ctx);
  const buildTypes = Object.keys(moves.build);
  let buildType = null;
  if (buildTypes.length === 1) buildType = buildTypes[0];
  else if (buildTypes.includes(selectedType)) buildType = selectedType;

  const n = view.num_players || (view.players || []).length;
  // Wide: the players in a column beside the board; narrow (phones): under it, full width.
  const wide = container.clientWidth >= WIDE_MIN_PX;
  lastWide = wide;
  const lay = wide
    ? { panelW: 384, panelH: 206, chit: 44, font: "compact" }
    : { panelW: BOARD_W, panelH: 214, chit: 80, font: "roomy" }; // chits of 40 px on a phone
  const headH = 64;
  const boardH = COL_LABELS + 3 * (BAND + 3 * CELL) + 2 * VGAP + 6;
  const legendLines = legendText(view, wide ? 3 : 7);
  const legendH = 10 + legendLines.length * 22;
  const panelX = wide ? BOARD_W + 14 : 0;
  const panelY = wide ? headH : headH + boardH + 6;
  const panelsEnd = panelY + n * (lay.panelH + 10) + legendH;
  const width = wide ? panelX + lay.panelW + 2 : BOARD_W;
  const height = Math.max(wide ? headH + boardH : 0, panelsEnd) + 4;

  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: `chit-territory ${wide ? "wide" : "narrow"}`,
    role: "group",
    "aria-label": gettext("Territory map, reserves, cups and discard piles"),
  });
  svg.addEventListener("click", () => {
    if (selectedType !== null) {
      selectedType = null;
      redraw();
    }
  });
  el("rect", { x: 0, y: 0, width, height, class: "ct-bg" }, svg);

  drawHeader(svg, view, ctx, moves, buildTypes, buildType);
  const board = el("g", { transform: `translate(0 ${headH})` }, svg);
  drawBoard(board, view, ctx, moves, buildType);
  for (let i = 0; i < n; i++) {
    const g = el("g", { transform: `translate(${panelX} ${panelY + i * (lay.panelH + 10)})` }, svg);
    drawPlayer(g, view, ctx, i, lay, moves, buildTypes, buildType);
  }
  legendLines.forEach((line, k) => {
    txt(svg, panelX + 8, panelY + n * (lay.panelH + 10) + 16 + k * 22, line, "ct-legend");
  });
  container.append(svg);
  fitPanelLines(svg, lay.panelW - 20, wide ? 18 : 17);
}

// A player's line longer than the panel (a language's longer words: "Cubilete 68: T8 C10…") is
// narrowed to fit instead of running past the panel's edge. Measured at the stylesheet's size
// (.ct-line), which the first drawing may precede.
function fitPanelLines(svg, room, size) {
  for (const t of svg.querySelectorAll(".ct-panel .ct-line")) {
    t.setAttribute("font-size", size);
    if (typeof t.getComputedTextLength !== "function" || t.getComputedTextLength() <= room) continue;
    t.setAttribute("textLength", room);
    t.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}

function drawHeader(svg, view, ctx, moves, buildTypes, buildType) {
  const g = el("g", { class: "ct-head" }, svg);
  const turn = view.turn_player;
  let status;
  if (view.terminal) {
    status = format(gettext("Game over after round %(round)s"), { round: view.round }) + (view.end ? ` · ${view.end}` : "");
  } else if (view.phase === "setup" || turn === null || turn === undefined) {
    status = gettext("Choosing who starts");
  } else {
    const who = turn === ctx.seat ? gettext("your turn") : format(gettext("%(name)s's turn"), { name: seatName(ctx, turn) });
    status = format(gettext("Round %(round)s · %(who)s · %(phase)s"), { round: view.round, who, phase: PHASES[view.phase] || view.phase });
  }
  txt(g, 8, 26, status, "ct-status");
  let hint = "";
  let hintTitle = "";
  if (view.terminal && Array.isArray(view.ranking)) {
    const order = view.ranking.map((place, i) => [place, i]).sort((a, b) => a[0] - b[0]);
    // On one line across the board: each name cut to its share (the whole ranking is the
    // line's tooltip).
    const share = Math.floor((svg.viewBox.baseVal.width - 16) / (19 * 0.56) / order.length);
    const entry = (place, i, max) => `${place}. ${shortName(seatName(ctx, i), max)} ${view.scores[i]}`;
    hint = order.map(([place, i]) => entry(place, i, Math.max(6, share - `${place}. ${view.scores[i]}`.length - 4))).join("   ");
    hintTitle = order.map(([place, i]) => entry(place, i, 200)).join(", ");
  } else if (buildTypes.length) {
    if (buildType) {
      hint = format(gettext("Build (%(type)s): click a highlighted plot."), { type: typeName(buildType) });
      if (buildTypes.length > 1) hint += ` ${gettext("Esc to choose again.")}`;
    } else {
      hint = gettext("Build: choose a structure in your reserve, then a plot.");
    }
  } else if (moves.war.size) {
    hint = gettext("War: click an opponent's structure to remove it, or make peace below.");
  } else if (moves.discard.size) {
    hint = gettext("Discard: click a chit in your reserve.");
  } else if (!view.terminal) {
    hint = view.built_this_round ? gettext("Someone has built this round.") : gettext("Nobody has built yet this round.");
    if (view.rounds_without_build) {
      const n = view.rounds_without_build;
      const stall = ngettext(
        "%(count)s full round in a row without a build: the game ends after %(limit)s.",
        "%(count)s full rounds in a row without a build: the game ends after %(limit)s.",
        n,
      );
      hint += ` ${format(stall, { count: n, limit: view.stall_rounds })}`;
    }
  }
  const hintNode = txt(g, 8, 54, hint, ctx.legal && ctx.legal.length ? "ct-hint mine" : "ct-hint");
  hintNode.setAttribute("aria-live", "polite");
  if (hintTitle) title(hintNode, hintTitle);
}

function drawBoard(g, view, ctx, moves, buildType) {
  const byName = {};
  for (const plot of view.board || []) byName[plot.plot] = plot;
  // Column and row labels.
  for (let c = 0; c < 9; c++) {
    const [x] = plotXY(`${String.fromCharCode(97 + c)}1`);
    txt(g, x + CELL / 2, 18, String.fromCharCode(97 + c), "ct-coord", { "text-anchor": "middle" });
  }
  for (let r = 0; r < 9; r++) {
    const [, y] = plotXY(`a${r + 1}`);
    txt(g, LEFT / 2, y + CELL / 2 + 7, String(r + 1), "ct-coord", { "text-anchor": "middle" });
  }
  // Territories: tint, frame and label band.
  for (const terr of view.territories || []) {
    const t = terr.number - 1;
    const [x, y] = plotXY(`${String.fromCharCode(97 + (t % 3) * 3)}${Math.floor(t / 3) * 3 + 1}`);
    const tg = el("g", { class: "ct-territory", "data-territory": terr.number }, g);
    const counts = terr.counts || [];
    const parts = counts.map((c, i) => `${seatName(ctx, i)} ${c}`).join(", ");
    const ctrl = terr.controller;
    title(
      tg,
      ctrl === null || ctrl === undefined
        ? format(gettext("Territory %(number)s: %(counts)s; controlled by nobody"), { number: terr.number, counts: parts })
        : format(gettext("Territory %(number)s: %(counts)s; controlled by %(name)s"), {
            number: terr.number,
            counts: parts,
            name: seatName(ctx, ctrl),
          }),
    );
    el("rect", { x, y: y - BAND, width: 3 * CELL, height: BAND, class: "ct-band" }, tg);
    if (ctrl !== null && ctrl !== undefined) {
      el("rect", { x, y: y - BAND, width: 3 * CELL, height: BAND + 3 * CELL, fill: SEAT_COLOURS[ctrl % 4], class: "ct-tint" }, tg);
    }
    el("rect", { x: x + 3, y: y - BAND + 4, width: 24, height: BAND - 8, rx: 4, class: "ct-terr-badge" }, tg);
    txt(tg, x + 15, y - 9, String(terr.number), "ct-terr-num", { "text-anchor": "middle" });
    let cx = x + 40;
    counts.forEach((count, i) => {
      if (!count) return;
      const isCtrl = ctrl === i;
      if (isCtrl) el("rect", { x: cx - 3, y: y - BAND + 3, width: 46, height: BAND - 6, rx: 5, class: "ct-ctrl-box" }, tg);
      seatShape(tg, i, cx + 8, y - BAND / 2, 7.5, "ct-mini");
      txt(tg, cx + 19, y - 9, isCtrl ? `${count}★` : String(count), isCtrl ? "ct-count ctrl" : "ct-count");
      cx += 49;
    });
  }
  // Plots.
  const mountains = new Set(view.mountains || []);
  const rivers = new Set(view.rivers || []);
  const targets = buildType ? moves.build[buildType] : null;
  for (const plot of view.board || []) {
    const [x, y] = plotXY(plot.plot);
    const pg = el("g", { class: "ct-plot", "data-plot": plot.plot }, g);
    let cls = "ct-cell";
    if (mountains.has(plot.plot) || plot.mountain) cls += " mountain";
    if (rivers.has(plot.plot) || plot.river) cls += " river";
    el("rect", { x, y, width: CELL, height: CELL, class: cls }, pg);
    if (mountains.has(plot.plot) || plot.mountain) {
      el("path", { d: `M${x + 44} ${y + 74} l14 -22 l8 10 l6 -8 l12 20 z`, class: "ct-mountain" }, pg);
    }
    if (rivers.has(plot.plot) || plot.river) {
      el("path", { d: `M${x + 4} ${y + 68} q9 -8 18 0 t18 0 t18 0 t18 0`, class: "ct-river" }, pg);
      el("path", { d: `M${x + 4} ${y + 76} q9 -8 18 0 t18 0 t18 0 t18 0`, class: "ct-river" }, pg);
    }
    txt(pg, x + 4, y + 14, plot.plot, "ct-plot-name");
    const terrain = plot.mountain ? gettext(", mountain") : plot.river ? gettext(", river") : "";
    if (plot.structure) {
      const owner = plot.owner;
      const sg = el("g", { class: `ct-structure seat-${owner}` }, pg);
      seatShape(sg, owner, x + CELL / 2, y + CELL / 2, 26, "ct-shape");
      txt(sg, x + CELL / 2, y + CELL / 2 + (SEAT_SHAPES[owner % 4] === "triangle" ? 14 : 10), LETTER[plot.structure], "ct-letter", { "text-anchor": "middle" });
      const war = moves.war.get(plot.plot);
      if (war) {
        pg.classList.add("war-target");
        el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 37, class: "ct-war-ring" }, pg);
        actionButton(pg, war, ctx);
      } else {
        title(
          pg,
          format(gettext("%(plot)s%(terrain)s: %(name)s's %(structure)s"), {
            plot: plot.plot,
            terrain,
            name: seatName(ctx, owner),
            structure: typeName(plot.structure),
          }),
        );
      }
    } else if (targets && targets.has(plot.plot)) {
      const entry = targets.get(plot.plot);
      pg.classList.add("target");
      el("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 6, class: "ct-target" }, pg);
      txt(pg, x + CELL / 2, y + CELL / 2 + 10, LETTER[buildType], "ct-ghost", { "text-anchor": "middle" });
      actionButton(pg, entry, ctx);
    } else {
      title(pg, format(gettext("%(plot)s%(terrain)s: empty"), { plot: plot.plot, terrain }));
    }
  }
  // Thick territory borders on top of the plots.
  for (let t = 0; t < 9; t++) {
    const [x, y] = plotXY(`${String.fromCharCode(97 + (t % 3) * 3)}${Math.floor(t / 3) * 3 + 1}`);
    el("rect", { x, y, width: 3 * CELL, height: 3 * CELL, class: "ct-border" }, g);
  }
}

function chit(g, x, y, size, type, count, cls) {
  el("rect", { x, y, width: size, height: size, rx: size / 7, class: `ct-chit${type === "army" ? " army" : ""}${cls ? " " + cls : ""}` }, g);
  const big = size >= 50;
  txt(g, x + size / 2, y + size / 2 + (big ? 8 : 5), LETTER[type], big ? "ct-chit-letter" : "ct-chit-letter small", { "text-anchor": "middle" });
  txt(g, x + size - 4, y + size - 4, `×${count}`, big ? "ct-chit-count" : "ct-chit-count small", { "text-anchor": "end" });
}

function countsLine(counts) {
  return TYPES.filter((t) => counts[t]).map((t) => `${LETTER[t]}${counts[t]}`).join(" ");
}

function chits(type, count) {
  const words = CHIT_COUNTS[type];
  return words ? format(words(count), { count }) : `${count} ${type}`;
}


function drawPlayer(g, view, ctx, i, lay, moves, buildTypes, buildType) {
  const p = (view.players || [])[i];
  if (!p) return;
  const w = lay.panelW;
  const compact = lay.font === "compact";
  const toMove = !view.terminal && view.turn_player === i;
  const me = ctx.seat === i;
  g.setAttribute("class", `ct-panel${toMove ? " to-move" : ""}${me ? " me" : ""}`);
  g.dataset.seat = i;
  el("rect", { x: 0, y: 0, width: w, height: lay.panelH, rx: 10, class: "ct-panel-bg" }, g);
  seatShape(g, i, 22, 22, 11, "ct-seat-marker");
  const score = (view.scores || [])[i] ?? 0;
  const scoreText = points(score);
  // The name takes the room the score leaves (21-unit bold type, about 13 units a
  // character), cut with its colour kept; the whole name is in the panel's tooltip.
  const label = seatLabel(ctx, i);
  const room = Math.floor((w - 10 - scoreText.length * 11 - 16 - 42) / 13);
  txt(g, 42, 29, shortName(label, Math.max(6, Math.min((compact ? 24 : 40) + (me ? 5 : 0), room))), "ct-name");
  title(g, `${label}: ${scoreText}`);
  txt(g, w - 10, 29, scoreText, "ct-score", { "text-anchor": "end" });
  let status = "";
  if (toMove) {
    const drawn = view.drawn_this_turn || [];
    status = drawn.length
      ? format(gettext("▶ to move · drew %(chits)s"), { chits: drawn.map(typeName).join(", ") })
      : gettext("▶ to move");
  } else if (view.first_player === i) {
    status = gettext("starts each round");
  }
  if (status) txt(g, 12, 52, status, toMove ? "ct-turn" : "ct-note");
  // Reserve: one chit per type, with its count.
  const size = lay.chit;
  const step = compact ? (w - 20 - size) / 6 : Math.min(size + 28, (w - 20) / 7);
  const top = 62;
  const rg = el("g", { class: "ct-reserve", "aria-label": format(gettext("%(name)s's reserve"), { name: seatName(ctx, i) }) }, g);
  TYPES.forEach((type, k) => {
    const count = p.reserve[type] || 0;
    const cg = el("g", { class: `ct-chit-g${count ? "" : " empty"}`, "data-type": type }, rg);
    const discard = me ? moves.discard.get(type) : null;
    const canChoose = me && buildTypes.length > 1 && buildTypes.includes(type);
    let cls = "";
    if (discard) cls = "discardable";
    else if (canChoose) cls = buildType === type ? "selected" : "selectable";
    else if (me && buildTypes.length === 1 && buildTypes[0] === type) cls = "selected";
    chit(cg, 10 + k * step, top, size, type, count, cls);
    if (discard) {
      actionButton(cg, discard, ctx);
    } else if (canChoose) {
      const plots = moves.build[type].size;
      cg.dataset.select = type;
      cg.setAttribute("aria-pressed", buildType === type ? "true" : "false");
      const choose = ngettext("Choose to build: %(type)s (%(count)s free plot)", "Choose to build: %(type)s (%(count)s free plots)", plots);
      clickable(cg, format(choose, { type: typeName(type), count: plots }), () => {
        selectedType = selectedType === type ? null : type;
        redraw(type);
      });
    } else {
      title(cg, format(gettext("%(chits)s in reserve"), { chits: chits(type, count) }));
    }
  });
  const below = top + size + 22;
  const limit = view.reserve_limit || 4;
  const lh = compact ? 22 : 21;
  let y = below;
  if (compact) {
    txt(g, 10, y, format(gettext("Reserve %(total)s (keeps %(limit)s)"), { total: p.reserve_total, limit }), "ct-line");
    y += lh;
    txt(g, 10, y, format(gettext("Structures on the map: %(count)s"), { count: p.structures_on_board }), "ct-line");
  } else {
    const line = gettext("Reserve %(total)s (keeps %(limit)s) · %(count)s structures on the map");
    txt(g, 10, y, format(line, { total: p.reserve_total, limit, count: p.structures_on_board }), "ct-line");
  }
  const cup = countsLine(p.cup);
  const cupLine = cup ? gettext("Cup %(total)s: %(chits)s") : gettext("Cup %(total)s (empty)");
  txt(g, 10, (y += lh), format(cupLine, { total: p.cup_total, chits: cup }), "ct-line");
  const pile = countsLine(p.discard);
  const pileLine = pile ? gettext("Discards %(total)s: %(chits)s") : gettext("Discards %(total)s");
  txt(g, 10, (y += lh), format(pileLine, { total: p.discard_total, chits: pile }), "ct-line");
}

function legendText(view, perLine) {
  const items = TYPES.map((t) => `${LETTER[t]} ${typeName(t)}`);
  if (view.options && view.options.mountains_rivers) {
    items.push(gettext("▲ mountain: mines on or next to it"), gettext("≈ river: farms on or next to it"));
  }
  const lines = [];
  for (let k = 0; k < items.length; ) {
    const take = k >= TYPES.length ? 1 : Math.min(perLine, TYPES.length - k);
    lines.push(items.slice(k, k + take).join(" · "));
    k += take;
  }
  return lines;
}

// The places an action names, for the analysis's marks (board-kit.js, ``markPlaces``): the
// plot built on or warred on.
export function actionPlaces(action) {
  const [verb, arg = ""] = String(action).split(":");
  const plot = verb === "build" ? arg.split("@")[1] : verb === "war" ? arg : null;
  return plot && /^[a-i][1-9]$/.test(plot) ? [{ at: `.ct-plot[data-plot=${JSON.stringify(plot)}]` }] : [];
}

export default { render, actionPicker, actionPlaces };
