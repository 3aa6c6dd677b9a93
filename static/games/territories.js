// Board renderer for Territories: the 8 x 6 field with its coordinates, the eight farm-house
// spots (free ones dashed), farm houses as house shapes in yellow or red with the letter Y or
// R, the trunks placed (the open fence in bright orange with a white dashed core, its open
// end ringed, the latest trunk haloed) and the decided areas shaded in their owner's colour
// with a hatching of their own (Yellow: single diagonal lines; Red: a cross-hatch) and a
// label with the letter and the land counted. Clicks: a free spot (`farm:SQUARE`) and a
// highlighted line (`trunk:EDGE`), each with a hit area wide enough for a finger.

import { format, gettext, ngettext } from "../js/i18n.js";
import { el, linkStylesheet, seatLabel, seatName, shortName, title } from "./board-kit.js";


const COLOURS = {
  yellow: { letter: "Y", name: gettext("Yellow") },
  red: { letter: "R", name: gettext("Red") },
};

// Geometry in viewBox units.
const CELL = 64;
const LEFT = 34; // row numbers
const TOP = 30; // column letters
const RIGHT = 14;
const BOARD_W = LEFT + 8 * CELL + RIGHT; // 560
const BOARD_H = TOP + 6 * CELL + 14;
const HIT_INSET = 3; // a legal line's touch area stops this short of its ends and the squares' middles
const WIDE_MIN_PX = 520; // below this: larger type, the legend in two columns

let last = null; // [container, view, ctx] of the latest render, to redraw on resize
let lastWide = null;
let listening = false;


function listenOnce() {
  if (listening) return;
  listening = true;
  window.addEventListener("resize", () => {
    if (!last || !last[0].isConnected) return;
    if (isWide(last[0]) !== lastWide) {
      const [container, view, ctx] = last;
      container.replaceChildren();
      render(container, view, ctx);
    }
  });
}

// Before the page is laid out the container may measure 0: go by the window then.
function isWide(container) {
  const width = container.clientWidth || window.innerWidth - 24;
  return width >= WIDE_MIN_PX;
}


function txt(parent, x, y, content, cls, extra) {
  const t = el("text", { x, y, class: cls, ...(extra || {}) }, parent);
  t.textContent = content;
  return t;
}




// Square "c4" -> [column 0..7, row 0..5].
function squareColRow(name) {
  return [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
}

function pointXY([x, y]) {
  return [LEFT + x * CELL, TOP + y * CELL];
}

// The grid points at both ends of the line between two neighbouring squares ("b3-c3").
function edgePoints(edge) {
  const [a, b] = edge.split("-").map(squareColRow);
  if (a[1] === b[1]) {
    const x = Math.max(a[0], b[0]);
    return [[x, a[1]], [x, a[1] + 1]];
  }
  const y = Math.max(a[1], b[1]);
  return [[a[0], y], [a[0] + 1, y]];
}

// A farm house centred on (cx, cy), about 2s across.
function housePoints(cx, cy, s) {
  const pts = [
    [0, -s],
    [s * 0.95, -s * 0.12],
    [s * 0.72, -s * 0.12],
    [s * 0.72, s * 0.9],
    [-s * 0.72, s * 0.9],
    [-s * 0.72, -s * 0.12],
    [-s * 0.95, -s * 0.12],
  ];
  return pts.map(([x, y]) => `${(cx + x).toFixed(1)},${(cy + y).toFixed(1)}`).join(" ");
}

function house(parent, cx, cy, s, colour, cls) {
  const g = el("g", { class: `tr-house-shape ${colour}${cls ? ` ${cls}` : ""}` }, parent);
  el("polygon", { points: housePoints(cx, cy, s), class: "tr-house-body" }, g);
  txt(g, cx, cy + s * 0.62, COLOURS[colour].letter, "tr-house-letter", { "text-anchor": "middle", "font-size": (s * 1.05).toFixed(1) });
  return g;
}

function clickable(node, entry, ctx) {
  node.dataset.action = entry.action;
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", entry.label);
  const go = (event) => {
    event.preventDefault();
    event.stopPropagation();
    ctx.act(entry.action);
  };
  node.addEventListener("click", go);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") go(event);
  });
}

function legalMoves(ctx) {
  const farms = new Map();
  const trunks = new Map();
  for (const entry of ctx.legal || []) {
    if (entry.action.startsWith("farm:")) farms.set(entry.action.slice(5), entry);
    else if (entry.action.startsWith("trunk:")) trunks.set(entry.action.slice(6), entry);
  }
  return { farms, trunks, any: farms.size + trunks.size > 0 };
}

// Which seat plays a colour, and which colour a seat plays (null before the draw).
function colourOfSeat(view, seat) {
  return view.seat_colours && seat !== null && seat !== undefined ? view.seat_colours[seat] : null;
}

function seatOfColour(view, colour) {
  return view.colours ? view.colours[colour] : null;
}

export function render(container, view, ctx) {
  linkStylesheet(new URL("./territories.css", import.meta.url));
  listenOnce();
  last = [container, view, ctx];
  const wide = isWide(container);
  lastWide = wide;
  const moves = legalMoves(ctx);
  const lay = wide ? { status: 20, hint: 18, legend: 17, nameMax: 16, rowH: 30 } : { status: 24, hint: 22, legend: 22, nameMax: 10, rowH: 36 };

  const svg = el("svg", {
    class: `territories ${wide ? "tr-wide" : "tr-narrow"}`,
    role: "group",
    "aria-label": gettext("Territories board: the field of 8 by 6 squares, farm houses, trunks and decided areas"),
  });
  const defs = el("defs", {}, svg);
  hatchPatterns(defs);
  const bg = el("rect", { x: 0, y: 0, width: BOARD_W, class: "tr-bg" }, svg);

  const head = drawHeader(svg, view, ctx, moves, lay);
  const board = el("g", { class: "tr-board", transform: `translate(0 ${head})` }, svg);
  drawField(board, view, ctx, moves);
  const legendY = head + BOARD_H + 6;
  const legendH = drawLegend(svg, view, moves, lay, legendY);

  const height = Math.ceil(legendY + legendH + 8);
  svg.setAttribute("viewBox", `0 0 ${BOARD_W} ${height}`);
  bg.setAttribute("height", height);
  container.append(svg);
}

function hatchPatterns(defs) {
  // Yellow's land: single diagonal lines; Red's land: a cross-hatch. Told apart without colour.
  const y = el("pattern", { id: "tr-hatch-yellow", width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  el("rect", { width: 12, height: 12, class: "tr-hatch-bg yellow" }, y);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 12, class: "tr-hatch-line yellow" }, y);
  const r = el("pattern", { id: "tr-hatch-red", width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  el("rect", { width: 12, height: 12, class: "tr-hatch-bg red" }, r);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 12, class: "tr-hatch-line red" }, r);
  el("line", { x1: 0, y1: 0, x2: 12, y2: 0, class: "tr-hatch-line red" }, r);
}

// -- header: both farmers, the score, whose turn, what to do ---------------------------------

function drawHeader(svg, view, ctx, moves, lay) {
  const g = el("g", { class: "tr-head" }, svg);
  const toMove = (ctx.seats || []).some((s) => s.place) ? null : view.current_player;
  const half = BOARD_W / 2;
  ["yellow", "red"].forEach((colour, k) => {
    const seat = seatOfColour(view, colour);
    const x = k * half + 4;
    const chip = el("g", { class: `tr-player ${colour}${seat !== null && seat === toMove ? " to-move" : ""}${seat !== null && seat === ctx.seat ? " me" : ""}`, "data-colour": colour }, g);
    el("rect", { x, y: 4, width: half - 8, height: lay.status + 18, rx: 8, class: "tr-player-bg" }, chip);
    house(chip, x + 22, 4 + (lay.status + 18) / 2, 15, colour);
    const baseline = 4 + (lay.status + 18) / 2 + lay.status * 0.36;
    let label = COLOURS[colour].name;
    if (seat !== null && seat !== undefined) {
      const score = view.scores ? view.scores[seat] : 0;
      // The name takes what the score leaves in the chip (bold type, about 0.62 of its
      // size a character), so it never runs into a two-digit score. The chip's colour and
      // its house's letter already say the seat's colour: the player's own name is enough
      // ("Random", not "Rand… (yellow)"); the tooltip names both.
      const room = Math.floor((half - 8 - 44 - 20 - 10) / (lay.status * 0.62)) - String(score).length;
      const player = (ctx.seats || [])[seat];
      const name = player && player.username ? player.username : seatName(ctx, seat);
      label = shortName(name, Math.max(6, Math.min(lay.nameMax, room)));
      title(chip, format(gettext("%(name)s: %(count)s land"), { name: seatLabel(ctx, seat), count: score }));
      txt(chip, x + half - 20, baseline, String(score), "tr-player-score", { "font-size": lay.status, "text-anchor": "end" });
    }
    txt(chip, x + 44, baseline, label, "tr-player-name", { "font-size": lay.status });
  });
  const chars = Math.floor((BOARD_W - 16) / (lay.hint * 0.56));
  const lines = wrap(statusLine(view, ctx, moves), chars);
  const hint = el("text", { class: moves.any ? "tr-hint mine" : "tr-hint", "font-size": lay.hint, "aria-live": "polite" }, g);
  const top = lay.status + 30 + lay.hint * 1.1;
  lines.forEach((content, i) => {
    const span = el("tspan", { x: 8, y: top + i * lay.hint * 1.3 }, hint);
    span.textContent = content;
  });
  return Math.ceil(top + (lines.length - 1) * lay.hint * 1.3 + lay.hint * 0.7);
}

// Splits a sentence into lines of at most about `chars` characters, at spaces.
function wrap(sentence, chars) {
  const lines = [];
  let line = "";
  for (const word of sentence.split(" ")) {
    if (line && line.length + 1 + word.length > chars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function statusLine(view, ctx, moves) {
  const who = (colour) => {
    const seat = seatOfColour(view, colour);
    return seat === null || seat === undefined ? COLOURS[colour].name : shortName(seatLabel(ctx, seat), 24);
  };
  if (view.terminal || view.phase === "over") {
    const scores = view.scores || [0, 0];
    const ys = seatOfColour(view, "yellow");
    const rs = seatOfColour(view, "red");
    if (ys === null || ys === undefined) return gettext("Game over.");
    const y = scores[ys];
    const r = scores[rs];
    if (y === r) return format(gettext("Game over: a draw, %(yellow)s–%(red)s."), { yellow: y, red: r });
    return format(gettext("Game over: %(name)s wins %(high)s–%(low)s."), {
      name: y > r ? who("yellow") : who("red"),
      high: Math.max(y, r),
      low: Math.min(y, r),
    });
  }
  // A match can end before the game does: a resignation, a clock run out.
  const seats = ctx.seats || [];
  if (seats.some((s) => s.place)) {
    const gone = seats.filter((s) => s.resigned || s.timed_out);
    const why = gone.map((s) =>
      format(s.resigned ? gettext("%(name)s resigned") : gettext("%(name)s ran out of time"), {
        name: shortName(s.username || gettext("a player"), 14),
      }),
    );
    return why.length ? format(gettext("The match is over: %(why)s."), { why: why.join(", ") }) : gettext("The match is over.");
  }
  if (view.phase === "chance" || !view.seat_colours) return gettext("Drawing who plays Yellow…");
  const colour = view.to_move_colour;
  if (view.phase === "farms") {
    const placed = (view.farm_houses || []).length;
    if (moves.farms.size) return format(gettext("Your turn: click a dashed spot for a farm house (%(placed)s of 8 placed)."), { placed });
    return format(gettext("Farm houses: %(placed)s of 8 placed · %(name)s places one."), { placed, name: who(colour) });
  }
  const ring = view.open_end ? { x: view.open_end[0], y: view.open_end[1], name: who(colour) } : { name: who(colour) };
  if (moves.trunks.size) {
    return view.open_end
      ? format(gettext("Your turn: click a green line for a trunk from the ring at (%(x)s, %(y)s)."), ring)
      : gettext("Your turn: click a green line for a trunk.");
  }
  return view.open_end
    ? format(gettext("Trunks · %(name)s to move, going on from the ring at (%(x)s, %(y)s)."), ring)
    : format(gettext("Trunks · %(name)s to move, starting a fence."), ring);
}

// -- the field ----------------------------------------------------------------------------------

function drawField(g, view, ctx, moves) {
  for (let c = 0; c < 8; c++) {
    txt(g, LEFT + c * CELL + CELL / 2, TOP - 9, String.fromCharCode(97 + c), "tr-coord", { "text-anchor": "middle" });
  }
  for (let r = 0; r < 6; r++) {
    txt(g, LEFT / 2, TOP + r * CELL + CELL / 2 + 7, String(r + 1), "tr-coord", { "text-anchor": "middle" });
  }
  const areas = view.areas || [];
  const squares = view.squares || [];
  const cells = el("g", { class: "tr-cells" }, g);
  for (const sq of squares) {
    const x = LEFT + sq.col * CELL;
    const y = TOP + sq.row * CELL;
    const area = areas[sq.area];
    const owner = area && area.owner;
    const cg = el("g", { class: `tr-square${owner ? ` decided ${owner}` : ""}`, "data-square": sq.square }, cells);
    el("rect", { x, y, width: CELL, height: CELL, class: "tr-cell" }, cg);
    if (owner) {
      el("rect", { x, y, width: CELL, height: CELL, class: `tr-area ${owner}`, fill: `url(#tr-hatch-${owner})` }, cg);
    }
    txt(cg, x + 4, y + 13, sq.square, "tr-square-name");
  }
  // The outer edge already counts as fence.
  el("rect", { x: LEFT, y: TOP, width: 8 * CELL, height: 6 * CELL, class: "tr-border" }, g);
  const dots = el("g", { class: "tr-points" }, g);
  for (let y = 1; y < 6; y++) {
    for (let x = 1; x < 8; x++) {
      const [px, py] = pointXY([x, y]);
      el("circle", { cx: px, cy: py, r: 2.6, class: "tr-point" }, dots);
    }
  }
  drawAreaLabels(g, view, squares);
  drawSpots(g, view, ctx, moves);
  drawTrunks(g, view);
  drawLegalTrunks(g, moves, ctx);
}

// One label per decided area with land: its owner's letter and the land it counts, on the
// square nearest its middle that has no farm house. A closed area without any farm house is
// nobody's: its label says so ("– 1") and it is not shaded.
function drawAreaLabels(g, view, squares) {
  const bySquare = new Map(squares.map((s) => [s.square, s]));
  const labels = el("g", { class: "tr-area-labels" }, g);
  const fenced = view.phase === "trunks" || view.phase === "over";
  for (const area of view.areas || []) {
    const nobody = fenced && !area.owner && !area.farms.yellow && !area.farms.red;
    if (!area.owner && !nobody) continue;
    const cells = area.squares.map((n) => bySquare.get(n)).filter(Boolean);
    const pick = cells.filter((s) => !s.farm);
    if (!pick.length) continue; // farm houses only: no land, and the houses say whose it is
    const mx = cells.reduce((t, s) => t + s.col, 0) / cells.length;
    const my = cells.reduce((t, s) => t + s.row, 0) / cells.length;
    pick.sort((a, b) => (a.col - mx) ** 2 + (a.row - my) ** 2 - ((b.col - mx) ** 2 + (b.row - my) ** 2));
    const s = pick[0];
    const cx = LEFT + s.col * CELL + CELL / 2;
    const cy = TOP + s.row * CELL + CELL / 2 + 4;
    const squaresWord = format(ngettext("%(count)s land square", "%(count)s land squares", area.land), { count: area.land });
    const lg = el("g", { class: `tr-area-label ${nobody ? "nobody" : area.owner}` }, labels);
    title(
      lg,
      nobody
        ? format(gettext("No farm house: %(squares)s for nobody"), { squares: squaresWord })
        : format(gettext("%(colour)s's area: %(squares)s"), { colour: COLOURS[area.owner].name, squares: squaresWord }),
    );
    el("rect", { x: cx - 25, y: cy - 15, width: 50, height: 28, rx: 14, class: "tr-area-pill" }, lg);
    txt(lg, cx, cy + 6, `${nobody ? "–" : COLOURS[area.owner].letter} ${area.land}`, "tr-area-text", { "text-anchor": "middle" });
  }
}

function drawSpots(g, view, ctx, moves) {
  const houses = new Map((view.farm_houses || []).map((h) => [h.square, h]));
  const spots = el("g", { class: "tr-spots" }, g);
  const ghost = view.to_move_colour || colourOfSeat(view, ctx.seat) || "yellow";
  for (const name of view.farm_spots || []) {
    const [c, r] = squareColRow(name);
    const cx = LEFT + c * CELL + CELL / 2;
    const cy = TOP + r * CELL + CELL / 2 + 3;
    const farm = houses.get(name);
    if (farm) {
      const hg = house(spots, cx, cy, 22, farm.colour, "tr-house");
      hg.dataset.square = name;
      const seat = farm.seat;
      const farmWords = { colour: COLOURS[farm.colour].name, square: name };
      title(
        hg,
        seat !== null && seat !== undefined
          ? format(gettext("%(colour)s farm house on %(square)s (%(name)s)"), { ...farmWords, name: seatName(ctx, seat) })
          : format(gettext("%(colour)s farm house on %(square)s"), farmWords),
      );
      continue;
    }
    const entry = moves.farms.get(name);
    const sg = el("g", { class: `tr-spot${entry ? " target" : ""}`, "data-spot": name }, spots);
    if (entry) {
      // The whole square takes the tap (about 42 px on a phone), the dashed box inside shows it.
      el("rect", { x: cx - CELL / 2, y: cy - 3 - CELL / 2, width: CELL, height: CELL, class: "tr-spot-hit" }, sg);
      el("rect", { x: cx - CELL / 2 + 4, y: cy - 3 - CELL / 2 + 4, width: CELL - 8, height: CELL - 8, rx: 10, class: "tr-spot-target" }, sg);
      house(sg, cx, cy, 20, ghost, "tr-ghost");
      clickable(sg, entry, ctx);
    } else {
      el("polygon", { points: housePoints(cx, cy, 20), class: "tr-spot-outline" }, sg);
      title(sg, format(gettext("Free farm-house spot %(square)s"), { square: name }));
    }
  }
}

function drawTrunks(g, view) {
  const trunks = view.trunks || [];
  const layer = el("g", { class: "tr-trunks" }, g);
  const latest = trunks.length ? trunks[trunks.length - 1] : null;
  if (latest) {
    const [x1, y1] = pointXY(latest.from);
    const [x2, y2] = pointXY(latest.to);
    el("line", { x1, y1, x2, y2, class: "tr-last" }, layer);
  }
  for (const t of trunks) {
    const [x1, y1] = pointXY(t.from);
    const [x2, y2] = pointXY(t.to);
    const tg = el("g", { class: `tr-trunk${t.open_fence ? " open" : ""}${t === latest ? " latest" : ""}`, "data-edge": t.edge }, layer);
    const trunkWords = [format(gettext("Trunk %(edge)s"), { edge: t.edge }), t.open_fence ? ` ${gettext("(fence still open)")}` : ""];
    title(tg, `${trunkWords.join("")}${t === latest ? gettext(", the latest") : ""}`);
    el("line", { x1, y1, x2, y2, class: "tr-trunk-line" }, tg);
    if (t.open_fence) el("line", { x1, y1, x2, y2, class: "tr-trunk-core" }, tg);
  }
  if (view.open_end) {
    const [cx, cy] = pointXY(view.open_end);
    const ring = el("g", { class: "tr-open-end" }, layer);
    title(
      ring,
      format(gettext("The open end of the fence, %(point)s: the next trunk goes on from here"), { point: view.open_end_name || gettext("here") }),
    );
    el("circle", { cx, cy, r: 12, class: "tr-ring" }, ring);
  }
}

function drawLegalTrunks(g, moves, ctx) {
  if (!moves.trunks.size) return;
  const layer = el("g", { class: "tr-legal" }, g);
  for (const [edge, entry] of moves.trunks) {
    const [p, q] = edgePoints(edge);
    const [x1, y1] = pointXY(p);
    const [x2, y2] = pointXY(q);
    const eg = el("g", { class: "tr-edge", "data-edge": edge }, layer);
    // The hit area: a diamond from end to end, reaching almost to the middles of the two
    // squares beside the line. Neighbouring diamonds never overlap, so every touch near a
    // line finds that line.
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const [ux, uy] = [(x2 - x1) / CELL, (y2 - y1) / CELL]; // along the line
    const [nx, ny] = [-uy, ux]; // across it
    const half = CELL / 2 - HIT_INSET;
    const diamond = [
      [x1 + ux * HIT_INSET, y1 + uy * HIT_INSET],
      [mx + nx * half, my + ny * half],
      [x2 - ux * HIT_INSET, y2 - uy * HIT_INSET],
      [mx - nx * half, my - ny * half],
    ];
    el("polygon", { points: diamond.map(([x, y]) => `${x},${y}`).join(" "), class: "tr-edge-hit" }, eg);
    el("line", { x1, y1, x2, y2, class: "tr-edge-line" }, eg);
    clickable(eg, entry, ctx);
  }
}

// -- legend ---------------------------------------------------------------------------------

function drawLegend(svg, view, moves, lay, top) {
  // Only what the board can show now: no free spots once all eight houses stand, no open
  // fence before the trunks or after the end.
  const items = [
    ["area-yellow", gettext("Yellow's land (Y)")],
    ["area-red", gettext("Red's land (R)")],
  ];
  if ((view.farm_houses || []).length < (view.farm_spots || []).length) items.push(["spot", gettext("free farm-house spot")]);
  items.push(["trunk", gettext("trunk")]);
  if (view.phase === "trunks") items.push(["open", gettext("fence still open")], ["ring", gettext("open end")]);
  if (moves.trunks.size) items.push(["legal", gettext("you may put a trunk")]);
  const g = el("g", { class: "tr-legend", transform: `translate(0 ${top})` }, svg);
  // Flowed left to right, each item as wide as its label, wrapping at the board's width.
  let x = 8;
  let y = 0;
  for (const [kind, label] of items) {
    const w = 38 + label.length * lay.legend * 0.56;
    if (x > 8 && x + w > BOARD_W - 4) {
      x = 8;
      y += lay.rowH;
    }
    const mid = y + lay.rowH / 2;
    const ig = el("g", { class: "tr-legend-item" }, g);
    if (kind.startsWith("area-")) {
      const colour = kind.slice(5);
      el("rect", { x, y: mid - 10, width: 30, height: 20, class: `tr-area ${colour} tr-swatch`, fill: `url(#tr-hatch-${colour})` }, ig);
    } else if (kind === "spot") {
      el("polygon", { points: housePoints(x + 15, mid + 1, 11), class: "tr-spot-outline" }, ig);
    } else if (kind === "ring") {
      el("circle", { cx: x + 15, cy: mid, r: 9, class: "tr-ring" }, ig);
    } else {
      const cls = kind === "legal" ? "tr-edge-line" : "tr-trunk-line";
      const wrap = el("g", { class: kind === "legal" ? "tr-edge" : `tr-trunk-sample${kind === "open" ? " open" : ""}` }, ig);
      el("line", { x1: x + 3, y1: mid, x2: x + 27, y2: mid, class: cls }, wrap);
      if (kind === "open") el("line", { x1: x + 3, y1: mid, x2: x + 27, y2: mid, class: "tr-trunk-core" }, wrap);
    }
    txt(ig, x + 38, mid + lay.legend * 0.35, label, "tr-legend-text", { "font-size": lay.legend });
    x += w + 18;
  }
  return y + lay.rowH;
}

// The places an action names, for the analysis's marks (board-kit.js, ``markPlaces``): a farm
// house's square, a trunk's line between two squares.
export function actionPlaces(action) {
  const [verb, arg] = String(action).split(":");
  const square = (name) => `.tr-square[data-square=${JSON.stringify(name)}]`;
  if (verb === "farm" && /^[a-h][1-6]$/.test(arg)) return [{ at: square(arg) }];
  const edge = /^([a-h][1-6])-([a-h][1-6])$/.exec(arg || "");
  if (verb === "trunk" && edge) return [{ edge: [square(edge[1]), square(edge[2])] }];
  return [];
}

export default { render, actionPlaces };
