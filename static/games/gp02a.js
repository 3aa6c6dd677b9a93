// Board renderer for GP02A Territory: the 12 x 6 territory in six blocks (gray fields, block
// numbers and counts), the 28-field chronology, the bag, the round (Main Player, die, turn
// cards), the turn in progress (block, chips to place, lifted chips) and every seat's hand.
//
// Clicks: a whole block (block:K), a free field (put:COLOUR@FIELD; when chips of several
// colours wait to be placed, pick the colour from the tray first), an own chip (lift:FIELD),
// any chip on a white field after a 1 (remove:FIELD), a hand chip or the chronology
// (chrono:COLOUR), and the purple chip in your hand followed by a chip on a white field
// (purge:FIELD; one click when removing with the purple chip is all that is left to do).
// Dealing the cards, moving and the die stay in the page's button list.
//
// Negotiation (a match option): below the board, the Main Player at the deal step gets a form
// to offer another player an exchange (the player, the chips given and the chips asked for,
// as offer:S@GIVE>TAKE), the player offered gets Accept and Decline, and everyone sees the
// open offer and the last answer.

import { format, gettext, ngettext } from "../js/i18n.js";
import { SVG, el, linkStylesheet, points, seatLabel, seatName, shortName as shorten, title as tip } from "./board-kit.js";

const COLOURS = ["blue", "red", "green", "yellow", "purple"];
const PLAIN = ["blue", "red", "green", "yellow"];
const LETTER = { blue: "B", red: "R", green: "G", yellow: "Y", purple: "P" };
const COLUMNS = "abcdefghijkl";
// The colours' names as people read them (the view's "blue"… are the game's own).
const COLOUR_NAMES = { blue: gettext("blue"), red: gettext("red"), green: gettext("green"), yellow: gettext("yellow"), purple: gettext("purple") };
const colourName = (c) => COLOUR_NAMES[c] || c;
const STEPS = {
  first: gettext("choosing the first Main Player"),
  roll: gettext("rolling the die"),
  remove: gettext("removing chips after a 1"),
  draw: gettext("drawing chips from the bag"),
  deal: gettext("dealing the turn cards"),
  chrono: gettext("a chip onto the chronology"),
  block: gettext("choosing a block"),
  lift: gettext("lifting own chips"),
  put: gettext("placing chips"),
  purge: gettext("using the purple chip"),
  end: gettext("game over"),
};

// Territory geometry (viewBox units).
const CELL = 60;
const GAP = 14; // between blocks, left to right
const BAND = 32; // label band above each row of blocks
const VGAP = 4;
const TERR_W = 12 * CELL + 2 * GAP;
const TERR_H = 2 * (BAND + 3 * CELL) + VGAP;
const PAD = 10;
const WIDE_MIN_PX = 600; // below this everything is stacked in one column

// Module state: a colour picked from the tray (placing) or the purple chip (removing), kept
// while the same turn step goes on.
let selection = null; // "blue" | "red" | "green" | "yellow" | "purple" | null
let turnKey = "";
let moveNumber = -1;
let last = null; // [container, view, ctx]
let listening = false;



function txt(parent, x, y, content, cls, size, extra) {
  const t = el("text", { x, y, class: cls, "font-size": size, ...(extra || {}) }, parent);
  t.textContent = content;
  return t;
}


function cap(word) {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : "";
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

function actionOn(node, entry, ctx) {
  node.dataset.action = entry.action;
  clickable(node, entry.label, () => {
    selection = entry.action.startsWith("put:") ? selection : null;
    ctx.act(entry.action);
  });
}

function selectOn(node, key, label) {
  node.dataset.select = key;
  node.setAttribute("aria-pressed", selection === key ? "true" : "false");
  clickable(node, label, () => {
    selection = selection === key ? null : key;
    redraw(key);
  });
}

// A chip: a disc in its colour with its letter (colour-blind safe).
function chip(parent, cx, cy, r, colour, cls) {
  const g = el("g", { class: `chip ${colour}${cls ? ` ${cls}` : ""}` }, parent);
  el("circle", { cx, cy, r, class: "chip-disc" }, g);
  txt(g, cx, cy + r * 0.36, LETTER[colour], "chip-letter", Math.round(r * 1.05));
  return g;
}

// The legal actions, sorted by what they touch.
function legalMoves(ctx) {
  const m = {
    block: new Map(),
    put: new Map(), // colour -> Map(field -> entry)
    lift: new Map(),
    remove: new Map(),
    purge: new Map(),
    chrono: new Map(),
    others: 0,
  };
  for (const entry of ctx.legal || []) {
    const a = entry.action;
    const [kind, rest] = a.includes(":") ? [a.slice(0, a.indexOf(":")), a.slice(a.indexOf(":") + 1)] : [a, ""];
    if (kind === "put") {
      const [colour, field] = rest.split("@");
      if (!m.put.has(colour)) m.put.set(colour, new Map());
      m.put.get(colour).set(field, entry);
    } else if (kind === "block" || kind === "lift" || kind === "remove" || kind === "purge" || kind === "chrono") {
      m[kind].set(rest, entry);
    } else {
      m.others += 1;
    }
  }
  const purgeOnly = m.purge.size > 0 && (ctx.legal || []).every((e) => e.action.startsWith("purge:"));
  m.purgeOnly = purgeOnly;
  m.purgeMode = m.purge.size > 0 && (purgeOnly || selection === "purple");
  const colours = [...m.put.keys()];
  m.putColours = colours;
  m.putColour = colours.length === 1 ? colours[0] : colours.includes(selection) ? selection : null;
  return m;
}

function redraw(focusKey) {
  if (!last) return;
  const [container, view, ctx] = last;
  container.replaceChildren();
  render(container, view, ctx);
  if (focusKey) {
    const target = container.querySelector(`[data-select="${focusKey}"]`);
    if (target) target.focus();
  }
}

function listenOnce() {
  if (listening) return;
  listening = true;
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selection !== null) {
      selection = null;
      redraw();
    }
  });
  let wasWide = null;
  window.addEventListener("resize", () => {
    if (!last || !last[0].isConnected) return;
    const wide = last[0].clientWidth >= WIDE_MIN_PX;
    if (wasWide !== null && wide !== wasWide) redraw();
    wasWide = wide;
  });
}

export function render(container, view, ctx) {
  linkStylesheet(new URL("./gp02a.css", import.meta.url));
  listenOnce();
  last = [container, view, ctx];
  // A colour picked from the tray lasts while the same chips are being placed; the purple
  // chip's selection lasts one position.
  const key = `${view.acting_seat}|${view.block}|${view.step}|${(view.turn_order || []).join(",")}`;
  if (key !== turnKey) {
    turnKey = key;
    selection = null;
  }
  if (view.move_number !== moveNumber) {
    moveNumber = view.move_number;
    if (selection === "purple") selection = null;
  }
  const m = legalMoves(ctx);
  if (selection && selection !== "purple" && !m.putColours.includes(selection)) selection = null;
  if (selection === "purple" && !m.purge.size) selection = null;

  const wide = container.clientWidth >= WIDE_MIN_PX;
  const fs = wide ? 1.1 : 1.3; // text scale: a phone shows the stacked board at about half size
  const fullW = TERR_W + 2 * PAD;
  const sideW = 350;
  const width = wide ? fullW + sideW + PAD : fullW;

  const svg = el("svg", {
    viewBox: `0 0 ${width} 100`,
    class: `gp02a ${wide ? "wide" : "narrow"}`,
    role: "group",
    "aria-label": gettext("GP02A Territory: territory, chronology, bag, turn cards and hands"),
  });
  svg.addEventListener("click", () => {
    if (selection !== null) {
      selection = null;
      redraw();
    }
  });
  const bg = el("rect", { x: 0, y: 0, width, height: 100, class: "gp-bg" }, svg);

  const terr = el("g", { transform: `translate(${PAD} ${PAD})` }, svg);
  // On a phone a field of the whole territory is about 30 px: while a player places or lifts
  // chips in their block, that block is drawn again, 1.6 times as large, right under the
  // territory, with the chips to place beside it, and takes the clicks.
  const zoom = wide ? null : closeUpBlock(view, m);
  closeUpTray = zoom !== null;
  drawTerritory(terr, view, ctx, m, { quiet: zoom });
  let left = PAD + TERR_H + 8;
  let right = PAD;
  if (zoom !== null) left += drawCloseUp(svg, view, ctx, m, zoom, left, fs) + 10;
  const sideX = wide ? fullW : PAD;
  const sideWidth = wide ? sideW : TERR_W;

  if (!wide) right = left;
  const round = el("g", { transform: `translate(${sideX} ${right})` }, svg);
  right += drawRound(round, view, ctx, m, sideWidth, fs) + 10;
  if (wide) {
    const chrono = el("g", { transform: `translate(${sideX} ${right})` }, svg);
    right += drawChronology(chrono, view, ctx, m, sideWidth, fs) + 10;
    const bag = el("g", { transform: `translate(${sideX} ${right})` }, svg);
    right += drawBag(bag, view, sideWidth, fs) + 10;
  } else {
    const half = (TERR_W - 10) / 2;
    const chrono = el("g", { transform: `translate(${PAD} ${right})` }, svg);
    const h1 = drawChronology(chrono, view, ctx, m, half + 40, fs);
    const bag = el("g", { transform: `translate(${PAD + half + 50} ${right})` }, svg);
    const h2 = drawBag(bag, view, half - 40, fs);
    right += Math.max(h1, h2) + 10;
    left = right;
  }
  const players = el("g", { transform: `translate(${PAD} ${left})` }, svg);
  left += drawPlayers(players, view, ctx, m, TERR_W, fs);
  const height = Math.max(left, right) + PAD;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  bg.setAttribute("height", height);
  container.append(svg);
  if (view.negotiation) container.append(negotiationPanel(view, ctx));
}

// ------------------------------------------------------------------------- negotiation

// The offer being written, kept across redraws of the same deal step.
let draft = { key: "", partner: null, give: {}, take: {} };

function html(tag, attrs, parent, content) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (content !== undefined) node.textContent = content;
  if (parent) parent.append(node);
  return node;
}

function chipsWords(counts) {
  const parts = COLOURS.filter((c) => counts[c]).map((c) => `${counts[c]} ${colourName(c)}`);
  return parts.length > 1 ? parts.slice(0, -1).join(", ") + gettext(" and ") + parts[parts.length - 1] : parts[0] || gettext("nothing");
}

function chipsText(counts) {
  return COLOURS.filter((c) => counts[c]).map((c) => (counts[c] === 1 ? c : `${counts[c]}${c}`)).join("+");
}

export function offerAction(partner, give, take) {
  return `offer:${partner}@${chipsText(give)}>${chipsText(take)}`;
}

function negotiationPanel(view, ctx) {
  const neg = view.negotiation;
  const box = html("section", { class: "gp02a-negotiation", "aria-label": gettext("Negotiation") });
  html("h3", {}, box, gettext("Negotiation"));
  const name = (s) => `${seatName(ctx, s)} (${colourName(view.seat_colours[s])})`;
  const legal = new Set((ctx.legal || []).map((e) => e.action));
  if (neg.open) {
    const o = neg.open;
    const about = { main: name(o.main), partner: name(o.partner), give: chipsWords(o.give), take: chipsWords(o.take) };
    const line = format(gettext("%(main)s offers %(partner)s %(give)s for %(take)s."), about);
    html("p", { class: "offer-open", role: "status" }, box, line);
    if (ctx.seat === o.partner && legal.has("accept")) {
      const row = html("p", { class: "offer-answer" }, box);
      for (const [action, label] of [["accept", gettext("Accept the exchange")], ["decline", gettext("Decline the exchange")]]) {
        const b = html("button", { type: "button", class: `button${action === "accept" ? " primary" : ""}`, "data-answer": action }, row, label);
        b.addEventListener("click", () => ctx.act(action));
      }
    } else {
      html("p", { class: "muted" }, box, format(gettext("Waiting for %(name)s to answer."), { name: seatName(ctx, o.partner) }));
    }
  }
  if (neg.last) {
    const l = neg.last;
    const verb = l.accepted ? "accepted" : "declined";
    const about = { main: name(l.main), partner: name(l.partner), give: chipsWords(l.give), take: chipsWords(l.take) };
    const words = l.accepted
      ? gettext("%(partner)s accepted %(main)s's offer of %(give)s for %(take)s.")
      : gettext("%(partner)s declined %(main)s's offer of %(give)s for %(take)s.");
    html("p", { class: `offer-last ${verb}`, role: "status" }, box, format(words, about));
  }
  const mayOffer = neg.can_offer && ctx.seat === view.main_player && [...legal].some((a) => a.startsWith("deal:"));
  if (mayOffer) box.append(offerForm(view, ctx, neg));
  else if (!neg.open && !neg.last) {
    html("p", { class: "muted" }, box,
      gettext("Before dealing the turn cards, the Main Player may offer another player an exchange of chips. Talk in the chat binds nobody."));
  }
  return box;
}

function offerForm(view, ctx, neg) {
  const me = ctx.seat;
  const key = `${view.move_number}`;
  if (draft.key !== key) draft = { key, partner: null, give: {}, take: {}, error: "" };
  const others = [];
  for (let s = 0; s < view.num_players; s++) if (s !== me) others.push(s);
  if (draft.partner === null || !others.includes(draft.partner)) draft.partner = others[0];
  const form = html("form", { class: "offer-form" });
  html("p", {}, form,
    format(
      ngettext(
        "Offer an exchange before you deal (%(count)s offer left this round, 1 to %(max)s chips a side).",
        "Offer an exchange before you deal (%(count)s offers left this round, 1 to %(max)s chips a side).",
        neg.offers_left,
      ),
      { count: neg.offers_left, max: neg.max_chips },
    ));
  const who = html("label", {}, form, `${gettext("To")} `);
  const select = html("select", { name: "partner" }, who);
  for (const s of others) {
    const opt = html("option", { value: String(s) }, select, `${seatName(ctx, s)} (${colourName(view.seat_colours[s])})`);
    if (s === draft.partner) opt.selected = true;
  }
  select.addEventListener("change", () => {
    draft.partner = Number(select.value);
    draft.take = {};
    redraw();
  });
  const side = (legend, hand, counts, field) => {
    const fs = html("fieldset", { class: `offer-side ${field}` }, form);
    html("legend", {}, fs, legend);
    const held = COLOURS.filter((c) => hand[c]);
    if (!held.length) html("span", { class: "muted" }, fs, gettext("no chips"));
    for (const c of held) {
      const label = html("label", { class: `offer-chip ${c}` }, fs, `${cap(colourName(c))} `);
      const input = html("input", { type: "number", min: "0", max: String(hand[c]), value: String(counts[c] || 0), name: `${field}-${c}` }, label);
      html("span", { class: "muted" }, label, ` ${format(gettext("of %(count)s"), { count: hand[c] })}`);
      input.addEventListener("input", () => {
        counts[c] = Math.max(0, Math.min(hand[c], Number(input.value) || 0));
      });
    }
  };
  side(gettext("You give"), view.hands[me] || {}, draft.give, "give");
  side(format(gettext("You ask %(name)s for"), { name: seatName(ctx, draft.partner) }), view.hands[draft.partner] || {}, draft.take, "take");
  const error = html("p", { class: "error", role: "alert" }, form, draft.error || "");
  error.hidden = !draft.error;
  html("button", { type: "submit", class: "button primary" }, form, gettext("Propose exchange"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const total = (counts) => COLOURS.reduce((n, c) => n + (counts[c] || 0), 0);
    const g = total(draft.give);
    const t = total(draft.take);
    if (g < 1 || t < 1 || g > neg.max_chips || t > neg.max_chips) {
      draft.error = format(gettext("Put 1 to %(max)s chips on each side of the exchange."), { max: neg.max_chips });
      error.textContent = draft.error;
      error.hidden = false;
      return;
    }
    ctx.act(offerAction(draft.partner, draft.give, draft.take));
  });
  return form;
}

// ------------------------------------------------------------------------- territory

function fieldXY(name) {
  const col = COLUMNS.indexOf(name[0]);
  const row = Number(name.slice(1)) - 1;
  const x = col * CELL + Math.floor(col / 4) * GAP;
  const y = BAND + row * CELL + (row >= 3 ? VGAP + BAND : 0);
  return [x, y];
}

function blockBox(k) {
  const bc = (k - 1) % 3;
  const br = Math.floor((k - 1) / 3);
  const [x, y] = fieldXY(`${COLUMNS[bc * 4]}${br * 3 + 1}`);
  return { x, y, w: 4 * CELL, h: 3 * CELL };
}

// ``opts.only``: draw that block alone (the phone's close-up), with its targets;
// ``opts.quiet``: that block's fields take no clicks here (the close-up has them).
function drawTerritory(g, view, ctx, m, opts = {}) {
  const fields = (view.territory || []).filter((f) => !opts.only || f.block === opts.only);
  const lifted = new Set(view.lifted || []);
  const counts = {};
  const free = {};
  for (let k = 1; k <= 6; k++) {
    counts[k] = { blue: 0, red: 0, green: 0, yellow: 0 };
    free[k] = 0;
  }
  for (const f of fields) {
    if (f.colour) counts[f.block][f.colour] += 1;
    else free[f.block] += 1;
  }
  // Block frames and labels.
  for (let k = 1; k <= 6; k++) {
    if (opts.only && k !== opts.only) continue;
    const b = blockBox(k);
    const chosen = view.block === k && !view.terminal;
    el("rect", { x: b.x - 3, y: b.y - 3, width: b.w + 6, height: b.h + 6, class: `block-frame${chosen ? " chosen" : ""}`, "data-block": k }, g);
    const parts = PLAIN.filter((c) => counts[k][c]).map((c) => `${LETTER[c]}${counts[k][c]}`);
    txt(g, b.x, b.y - 10, format(gettext("Block %(block)s · %(free)s free"), { block: k, free: free[k] }), `block-label${chosen ? " chosen" : ""}`, 16);
    if (parts.length) {
      const c = txt(g, b.x + b.w, b.y - 10, parts.join(" "), "block-counts", 14, { "text-anchor": "end" });
      const chips = PLAIN.filter((p) => counts[k][p]).map((p) => `${counts[k][p]} ${colourName(p)}`).join(", ");
      tip(c, format(gettext("Chips in block %(block)s: %(chips)s"), { block: k, chips }));
    }
  }
  const putColour = m.purgeMode ? null : m.putColour;
  for (const f of fields) {
    const [x, y] = fieldXY(f.name);
    const cell = el("g", { class: "field", "data-field": f.name }, g);
    el("rect", { x, y, width: CELL, height: CELL, class: `field-bg${f.gray ? " gray" : ""}` }, cell);
    txt(cell, x + 4, y + 14, f.name, "field-name", 12);
    const cx = x + CELL / 2;
    const cy = y + CELL / 2 + 3;
    if (f.colour) chip(cell, cx, cy, CELL * 0.36, f.colour);
    else if (lifted.has(f.name)) {
      el("circle", { cx, cy, r: CELL * 0.33, class: "lifted-mark" }, cell);
      txt(cell, cx, cy + 5, gettext("lifted"), "lifted-text", 13);
    }
    let entry = null;
    let kind = "";
    if (opts.quiet === f.block) {
      // the close-up under the territory takes this block's clicks
    } else if (m.purgeMode) {
      entry = m.purge.get(f.name);
      kind = "purge";
    } else if (m.remove.has(f.name)) {
      entry = m.remove.get(f.name);
      kind = "remove";
    } else if (m.lift.has(f.name)) {
      entry = m.lift.get(f.name);
      kind = "lift";
    } else if (putColour && m.put.get(putColour).has(f.name)) {
      entry = m.put.get(putColour).get(f.name);
      kind = "put";
    } else if (!putColour && !f.colour && m.putColours.some((c) => m.put.get(c).has(f.name))) {
      // several colours could go here: the field waits for a colour from the tray
      el("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, class: "waiting" }, cell);
    }
    if (entry) {
      const t = el("g", { class: `target ${kind}` }, g);
      el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 6, class: "target-box" }, t);
      if (kind === "put") {
        const ghost = chip(t, cx, cy, CELL * 0.3, putColour, "ghost");
        ghost.setAttribute("aria-hidden", "true");
      }
      actionOn(t, entry, ctx);
    }
  }
  // Gray-field note and the whole blocks that can be chosen, drawn on top of the fields.
  if (!m.purgeMode && !opts.only) {
    for (const [k, entry] of m.block) {
      const b = blockBox(Number(k));
      const t = el("g", { class: "target block-target" }, g);
      el("rect", { x: b.x - 2, y: b.y - 2, width: b.w + 4, height: b.h + 4, rx: 6, class: "target-box" }, t);
      // The block's number on its top-left corner, the point farthest from every field's
      // chip (a chip fills 0.72 of its field): nothing on the board is hidden while choosing.
      el("circle", { cx: b.x, cy: b.y, r: CELL * 0.3, class: "block-pill" }, t);
      txt(t, b.x, b.y + CELL * 0.11, String(k), "block-pill-text", Math.round(CELL * 0.32));
      tip(t, format(gettext("Choose block %(block)s"), { block: k }));
      actionOn(t, entry, ctx);
    }
  }
}

// ------------------------------------------------------------------------- phone close-up

const ZOOM = 1.6;
let closeUpTray = false; // the chips to place are picked in the close-up, not the round panel

// The chosen block, when every field the player may click lies in it (lifting, placing).
function closeUpBlock(view, m) {
  if (!view.block || view.terminal || m.purgeMode) return null;
  const named = [...m.lift.keys(), ...[...m.put.values()].flatMap((fields) => [...fields.keys()])];
  if (!named.length) return null;
  const blockOf = new Map((view.territory || []).map((f) => [f.name, f.block]));
  return named.every((name) => blockOf.get(name) === view.block) ? view.block : null;
}

function drawCloseUp(svg, view, ctx, m, k, top, fs) {
  const b = blockBox(k);
  const at = `translate(${PAD} ${top + 4}) scale(${ZOOM}) translate(${-b.x} ${BAND - b.y})`;
  drawTerritory(el("g", { class: "close-up", transform: at }, svg), view, ctx, m, { only: k });
  const blockW = b.w * ZOOM;
  const h = (BAND + b.h + 6) * ZOOM + 4;
  // The chips still to place, beside the block: pick a colour when several wait.
  const tray = el("g", { class: "close-up-tray", transform: `translate(${PAD + blockW + 24} ${top + 8})` }, svg);
  const toPlace = view.to_place || {};
  const waiting = PLAIN.filter((c) => toPlace[c]);
  const trayW = TERR_W - blockW - 24;
  if (!waiting.length) return h;
  const total = waiting.reduce((sum, c) => sum + toPlace[c], 0);
  txt(tray, 0, 26, format(gettext("Still to place: %(count)s"), { count: total }), "panel-line strong", 26 * (fs / 1.3));
  const r = 36;
  const itemW = 2 * r + 70;
  const perRow = Math.max(1, Math.floor(trayW / itemW));
  waiting.forEach((c, i) => {
    const x = (i % perRow) * itemW + r + 6;
    const cy = 50 + Math.floor(i / perRow) * (2 * r + 20) + r;
    const tg = el("g", { class: "tray-chip" }, tray);
    if (m.putColours.length > 1 && m.putColours.includes(c)) {
      el("rect", { x: x - r - 5, y: cy - r - 5, width: itemW - 8, height: 2 * r + 10, rx: 10, class: `select-box${selection === c ? " selected" : ""}` }, tg);
      selectOn(tg, c, placeWords(c, view.block));
    }
    chip(tg, x, cy, r, c);
    txt(tg, x + r + 8, cy + 10, `×${toPlace[c]}`, "count", 28);
  });
  return h;
}

// ------------------------------------------------------------------------- round panel

function dieFace(g, x, y, size, n) {
  el("rect", { x, y, width: size, height: size, rx: size * 0.18, class: "die" }, g);
  const p = size / 4;
  const spots = {
    1: [[2, 2]],
    2: [[1, 1], [3, 3]],
    3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  }[n] || [];
  for (const [sx, sy] of spots) el("circle", { cx: x + sx * p, cy: y + sy * p, r: size * 0.09, class: "pip" }, g);
}

function drawRound(g, view, ctx, m, w, fs) {
  const line = Math.round(26 * fs);
  const f = (n) => Math.round(n * fs);
  const box = el("rect", { x: 0, y: 0, width: w, height: 10, rx: 8, class: "panel" }, g);
  let y = f(28);
  if (view.terminal) {
    txt(g, 12, y, gettext("Game over"), "panel-title", f(20));
    y += line;
    const reason = (view.prompt || "").replace(/^The game is over: /, "");
    y = wrapText(g, 12, y, cap(reason), "panel-line", f(17), w - 24, line);
  } else {
    y = wrapText(g, 12, y, format(gettext("Now: %(step)s"), { step: STEPS[view.step] || view.step || "" }), "panel-title", f(19), w - 24, line);
  }
  // Main Player.
  if (view.main_player !== null && view.main_player !== undefined) {
    const colour = view.seat_colours[view.main_player];
    const mainWord = gettext("Main Player:");
    const x = 12 + textWidth(mainWord, f(17)) + 8;
    txt(g, 12, y, mainWord, "panel-line", f(17));
    chip(g, x + f(11), y - f(6), f(11), colour);
    // The name takes the rest of the panel's width (bold: about 0.62 of the type a character).
    const room = Math.floor((w - 12 - x - f(28)) / (f(17) * 0.62));
    const main = el("g", {}, g);
    txt(main, x + f(28), y, shorten(seatName(ctx, view.main_player), Math.max(6, Math.min(18, room))), "panel-line strong", f(17));
    tip(main, format(gettext("Main Player: %(name)s"), { name: seatName(ctx, view.main_player) }));
    y += line;
  }
  // The die.
  const dieSize = f(30);
  if (view.last_roll) {
    dieFace(g, 12, y - f(20), dieSize, view.last_roll);
    txt(g, 12 + dieSize + 10, y, format(gettext("Last roll: %(roll)s"), { roll: view.last_roll }), "panel-line", f(17));
  } else {
    txt(g, 12, y, gettext("The die has not been rolled this round."), "panel-line muted", f(17));
  }
  y += view.last_roll ? dieSize + 6 : line;
  if (view.removal_done) {
    y = wrapText(g, 12, y, gettext("A 1 came up: each player removed a chip."), "panel-line muted", f(15), w - 24, f(20));
  }
  // The turn cards.
  const order = view.turn_order || [];
  if (order.length) {
    txt(g, 12, y, gettext("Turn cards:"), "panel-line", f(17));
    y += line;
    for (const s of order) {
      const now = view.acting_seat === s && !view.terminal && ["chrono", "block", "lift", "put", "purge"].includes(view.step);
      const row = el("g", { class: `card-row${now ? " now" : ""}` }, g);
      if (now) el("rect", { x: 6, y: y - f(20), width: w - 12, height: f(26), rx: 5, class: "now-bg" }, row);
      el("rect", { x: 14, y: y - f(18), width: f(18), height: f(24), rx: 3, class: "card" }, row);
      txt(row, 14 + f(9), y, String(view.cards[s]), "card-num", f(15));
      chip(row, 14 + f(36), y - f(6), f(10), view.seat_colours[s]);
      const short = shorten(seatName(ctx, s), 16);
      txt(row, 14 + f(52), y, now ? `${short} — ${gettext("playing")}` : short, "panel-line", f(16));
      y += f(28);
    }
  } else if (!view.terminal) {
    const notYet = view.step === "deal"
      ? gettext("Turn cards: not dealt yet (the Main Player deals them now).")
      : gettext("Turn cards: not dealt yet (the Main Player deals them after the draw).");
    y = wrapText(g, 12, y, notYet, "panel-line muted", f(15), w - 24, f(20));
  }
  // The turn in progress.
  if (view.block && !view.terminal) {
    txt(g, 12, y, format(gettext("Chosen block: %(block)s"), { block: view.block }), "panel-line strong", f(17));
    y += line;
  }
  if (view.moving) {
    const lift = ngettext("Moving: %(count)s own chip still to lift", "Moving: %(count)s own chips still to lift", view.to_lift || 0);
    txt(g, 12, y, view.to_lift ? format(lift, { count: view.to_lift }) : gettext("Moving own chips"), "panel-line", f(17));
    y += line;
  }
  if ((view.lifted || []).length) {
    y = wrapText(g, 12, y, format(gettext("Lifted from: %(fields)s"), { fields: view.lifted.join(", ") }), "panel-line", f(17), w - 24, line);
  }
  const toPlace = view.to_place || {};
  const waiting = PLAIN.filter((c) => toPlace[c]);
  if (waiting.length) {
    const total = waiting.reduce((s, c) => s + toPlace[c], 0);
    txt(g, 12, y, format(gettext("Still to place: %(count)s"), { count: total }), "panel-line strong", f(17));
    y += f(12);
    const r = f(17);
    let x = 12 + r;
    for (const c of waiting) {
      const tg = el("g", { class: "tray-chip" }, g);
      const cy = y + r + 4;
      if (m.putColours.length > 1 && m.putColours.includes(c) && !m.purgeMode && !closeUpTray) {
        el("rect", { x: x - r - 5, y: cy - r - 5, width: 2 * r + 10 + f(34), height: 2 * r + 10, rx: 8, class: `select-box${selection === c ? " selected" : ""}` }, tg);
        selectOn(tg, c, placeWords(c, view.block));
      }
      chip(tg, x, cy, r, c);
      txt(tg, x + r + 5, cy + f(6), `×${toPlace[c]}`, "count", f(17));
      x += 2 * r + f(50);
    }
    y += 2 * r + 14;
    if (m.putColours.length > 1 && !m.purgeMode) {
      const hint = m.putColour
        ? format(gettext("Now click a free field for the %(colour)s chip."), { colour: colourName(m.putColour) })
        : gettext("Pick a colour above, then a free field.");
      y += f(8);
      y = wrapText(g, 12, y, hint, "panel-line hint", f(15), w - 24, f(20));
    }
  }
  if (m.purge.size && !m.purgeOnly) {
    const hint = m.purgeMode
      ? gettext("Purple chip picked: click a chip on a white field (Escape cancels).")
      : gettext("You hold the purple chip: click it in your hand, then a chip on a white field, to remove that chip.");
    y = wrapText(g, 12, y, hint, "panel-line hint", f(15), w - 24, f(20));
  }
  if (view.last_chance && view.last_chance.startsWith("draw:")) {
    const c = view.last_chance.slice(5);
    const drawn = gettext("Last chip drawn:");
    txt(g, 12, y, drawn, "panel-line muted", f(15));
    chip(g, 12 + textWidth(drawn, f(15)) + 8 + f(10), y - f(5), f(10), c);
    y += line;
  }
  const h = y - f(8);
  box.setAttribute("height", h);
  return h;
}

// Roughly how wide a text is in viewBox units (the renderer has no layout pass).
function textWidth(content, size) {
  return content.length * size * 0.56;
}

// Breaks text into lines of at most about ``maxW`` units; returns the next baseline.
function wrapText(g, x, y, content, cls, size, maxW, step) {
  const perLine = Math.max(10, Math.floor(maxW / (size * 0.58)));
  const words = content.split(" ");
  let lineText = "";
  for (const word of words) {
    if (lineText && (lineText + " " + word).length > perLine) {
      txt(g, x, y, lineText, cls, size);
      y += step;
      lineText = word;
    } else {
      lineText = lineText ? `${lineText} ${word}` : word;
    }
  }
  if (lineText) {
    txt(g, x, y, lineText, cls, size);
    y += step;
  }
  return y;
}

// ------------------------------------------------------------------------- chronology

function drawChronology(g, view, ctx, m, w, fs) {
  const f = (n) => Math.round(n * fs);
  const chron = view.chronology || { counts: {}, used: 0, size: 28 };
  g.classList.add("chronology");
  const box = el("rect", { x: 0, y: 0, width: w, height: 10, rx: 8, class: "panel" }, g);
  txt(g, 12, f(28), format(gettext("Chronology: %(used)s of %(size)s"), { used: chron.used, size: chron.size }), "panel-title", f(20));
  const labelW = f(26);
  const cell = Math.min(f(40), Math.floor((w - 24 - labelW) / 7));
  const gx = 12 + labelW;
  let gy = f(42) + f(16);
  for (let d = 0; d < 7; d++) txt(g, gx + d * cell + cell / 2, gy - 5, `D${d + 1}`, "grid-label mid", f(12));
  const sequence = [];
  for (const c of PLAIN) for (let i = 0; i < (chron.counts[c] || 0); i++) sequence.push(c);
  const chronoEntries = m.purgeMode ? [] : [...m.chrono.values()];
  for (let r = 0; r < 4; r++) {
    txt(g, 12, gy + r * cell + cell / 2 + 5, `G${r + 1}`, "grid-label", f(12));
    for (let d = 0; d < 7; d++) {
      const i = r * 7 + d;
      const x = gx + d * cell;
      const y = gy + r * cell;
      el("rect", { x, y, width: cell, height: cell, class: "chrono-cell" }, g);
      if (i < sequence.length) chip(g, x + cell / 2, y + cell / 2, cell * 0.38, sequence[i]);
      else if (i === sequence.length && chronoEntries.length === 1) {
        const t = el("g", { class: "target chrono-next" }, g);
        el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: 5, class: "target-box" }, t);
        const colour = chronoEntries[0].action.slice(7);
        chip(t, x + cell / 2, y + cell / 2, cell * 0.3, colour, "ghost");
        actionOn(t, chronoEntries[0], ctx);
      }
    }
  }
  gy += 4 * cell + f(10);
  // Counts per colour; the colours you may put there now are buttons.
  const r = f(14);
  const step = Math.floor((w - 24) / 4);
  PLAIN.forEach((c, k) => {
    const x = 12 + k * step;
    const cy = gy + r + 4;
    const entry = m.purgeMode ? null : m.chrono.get(c);
    const cg = el("g", { class: "chrono-count" }, g);
    if (entry) {
      cg.classList.add("target");
      el("rect", { x: x - 4, y: cy - r - 5, width: step - 6, height: 2 * r + 10, rx: 8, class: "target-box" }, cg);
    }
    chip(cg, x + r, cy, r, c);
    txt(cg, x + 2 * r + 6, cy + f(6), String(chron.counts[c] || 0), "count", f(18));
    if (entry) actionOn(cg, entry, ctx);
    else tip(cg, format(gettext("%(colour)s: %(count)s on the chronology"), { colour: cap(colourName(c)), count: chron.counts[c] || 0 }));
  });
  gy += 2 * r + f(16);
  if (chronoEntries.length) {
    gy += f(8);
    gy = wrapText(g, 12, gy, gettext("Click a colour (here or in your hand) to put that chip on the chronology."), "panel-line hint", f(14), w - 24, f(19));
  }
  const h = gy;
  box.setAttribute("height", h);
  return h;
}

// ------------------------------------------------------------------------- bag

function drawBag(g, view, w, fs) {
  const f = (n) => Math.round(n * fs);
  const bag = view.bag || {};
  const box = el("rect", { x: 0, y: 0, width: w, height: 10, rx: 8, class: "panel" }, g);
  txt(g, 12, f(28), format(gettext("Bag: %(count)s chips"), { count: view.bag_total ?? 0 }), "panel-title", f(20));
  const r = f(14);
  const perRow = w >= f(330) ? 5 : 3;
  const step = Math.floor((w - 24) / perRow);
  let y = f(42);
  COLOURS.forEach((c, k) => {
    const col = k % perRow;
    const row = Math.floor(k / perRow);
    const x = 12 + col * step;
    const cy = y + row * (2 * r + 10) + r;
    const cg = el("g", { class: `bag-count${bag[c] ? "" : " empty"}` }, g);
    tip(cg, format(gettext("%(colour)s: %(count)s in the bag"), { colour: cap(colourName(c)), count: bag[c] || 0 }));
    chip(cg, x + r, cy, r, c);
    txt(cg, x + 2 * r + 5, cy + f(6), String(bag[c] || 0), "count", f(17));
  });
  const rows = Math.ceil(COLOURS.length / perRow);
  const h = y + rows * (2 * r + 10) + 6;
  box.setAttribute("height", h);
  return h;
}

// ------------------------------------------------------------------------- players

function placeWords(c, block) {
  return format(gettext("Place a %(colour)s chip: pick it, then a free field of block %(block)s"), { colour: colourName(c), block });
}

function placeBadge(n) {
  const words = { 1: gettext("1st place"), 2: gettext("2nd place"), 3: gettext("3rd place") }[n];
  return words || format(gettext("%(place)sth place"), { place: n });
}

function drawPlayers(g, view, ctx, m, w, fs) {
  const n = view.num_players || 0;
  const panels = [];
  for (let s = 0; s < n; s++) panels.push(s);
  if (view.dummy) panels.push("dummy");
  const cols = 2;
  const pw = (w - 10 * (cols - 1)) / cols;
  const ph = Math.round(150 * fs);
  panels.forEach((p, k) => {
    const x = (k % cols) * (pw + 10);
    const y = Math.floor(k / cols) * (ph + 10);
    const pg = el("g", { transform: `translate(${x} ${y})` }, g);
    if (p === "dummy") drawDummy(pg, view, pw, ph, fs);
    else drawSeat(pg, view, ctx, m, p, pw, ph, fs);
  });
  const rows = Math.ceil(panels.length / cols);
  return rows * (ph + 10);
}

function drawSeat(g, view, ctx, m, s, w, h, fs) {
  const f = (n) => Math.round(n * fs);
  const colour = view.seat_colours[s];
  const acting = view.acting_seat === s && !view.terminal;
  const me = ctx.seat === s;
  g.setAttribute("class", `seat-panel${acting ? " acting" : ""}${me ? " me" : ""}`);
  el("rect", { x: 0, y: 0, width: w, height: h, rx: 8, class: "panel" }, g);
  chip(g, f(22), f(24), f(14), colour);
  const seat = (ctx.seats || [])[s] || {};
  const suffix = seat.is_bot || seat.bot ? ` (${gettext("bot")})` : "";
  const room = Math.floor((w - f(42) - f(100)) / (f(19) * 0.6)) - suffix.length;
  txt(g, f(42), f(30), shorten(seatLabel(ctx, s), Math.max(6, room)) + suffix, "seat-name", f(19));
  // Badges: Main Player, card, place.
  const badges = [];
  if (view.main_player === s) badges.push(gettext("Main"));
  if (view.cards && view.cards[s]) badges.push(format(gettext("Card %(card)s"), { card: view.cards[s] }));
  if (view.ranking) badges.push(placeBadge(view.ranking[s]));
  const toMove = !view.ranking && acting ? gettext("to move") : null;
  if (toMove) badges.push(toMove);
  let bx = 12;
  for (const b of badges) {
    const bw = f(10) + b.length * f(9);
    el("rect", { x: bx, y: f(42), width: bw, height: f(24), rx: f(12), class: `badge${b === toMove ? " move" : ""}` }, g);
    txt(g, bx + bw / 2, f(59), b, "badge-text", f(14));
    bx += bw + 6;
  }
  const parts = (view.score_parts || [])[s] || {};
  const score = (view.scores || [])[s] ?? 0;
  txt(g, w - 12, f(30), points(score, true), "seat-score", f(19), { "text-anchor": "end" });
  txt(g, w - 12, f(86), partsText(parts), "seat-parts", f(13), { "text-anchor": "end" });
  // The hand.
  const hand = (view.hands || [])[s] || {};
  const y = f(86);
  txt(g, 12, y, gettext("Hand"), "seat-parts", f(14));
  const r = f(14);
  const step = Math.floor((w - 24) / 5);
  COLOURS.forEach((c, k) => {
    const x = 12 + k * step;
    const cy = y + f(14) + r;
    const count = hand[c] || 0;
    const cg = el("g", { class: `hand-chip${count ? "" : " empty"}` }, g);
    let entry = null;
    if (me && !m.purgeMode && c !== "purple") entry = m.chrono.get(c) || null;
    const canPick = me && c === "purple" && count && m.purge.size && !m.purgeOnly;
    if (entry || canPick) {
      el("rect", { x: x - 5, y: cy - r - 6, width: step - 4, height: 2 * r + 12, rx: 8, class: entry ? "target-box" : `select-box${selection === "purple" ? " selected" : ""}` }, cg);
      if (entry) cg.classList.add("target");
    }
    chip(cg, x + r, cy, r, c);
    txt(cg, x + 2 * r + 4, cy + f(6), `×${count}`, "count", f(16));
    if (entry) actionOn(cg, entry, ctx);
    else if (canPick) selectOn(cg, "purple", gettext("Use the purple chip: pick it, then a chip on a white field to remove"));
    else tip(cg, format(gettext("%(colour)s: %(count)s in hand"), { colour: cap(colourName(c)), count }));
  });
}

function partsText(p) {
  return format(gettext("chron. %(chronology)s · groups %(groups)s · blocks %(blocks)s"), {
    chronology: p.chronology ?? 0,
    groups: p.groups ?? 0,
    blocks: p.blocks ?? 0,
  });
}

function drawDummy(g, view, w, h, fs) {
  const f = (n) => Math.round(n * fs);
  const d = view.dummy;
  g.setAttribute("class", "seat-panel dummy");
  el("rect", { x: 0, y: 0, width: w, height: h, rx: 8, class: "panel" }, g);
  chip(g, f(22), f(24), f(14), d.colour);
  txt(g, f(42), f(30), cap(colourName(d.colour)), "seat-name", f(19));
  txt(g, f(42) + textWidth(cap(colourName(d.colour)), f(19)) + 8, f(30), gettext("dummy"), "seat-parts", f(15));
  txt(g, w - 12, f(30), points(d.score, true), "seat-score", f(19), { "text-anchor": "end" });
  txt(g, w - 12, f(56), partsText(d.parts || {}), "seat-parts", f(13), { "text-anchor": "end" });
  wrapText(g, 12, f(90), gettext("Nobody plays yellow: whoever draws its chips places them. It can win blocks but is never ranked."), "seat-parts", f(14), w - 24, f(19));
}

// The places an action names, for the analysis's marks (board-kit.js, ``markPlaces``): a
// field of the territory (a chip put, removed or lifted there), a block, the chronology.
export function actionPlaces(action) {
  const [verb, arg = ""] = String(action).split(":");
  const field = arg.includes("@") ? arg.split("@")[1] : arg;
  if (["put", "remove", "lift", "purge"].includes(verb) && /^[a-z]\d+$/.test(field)) {
    return [{ at: `.field[data-field=${JSON.stringify(field)}]` }];
  }
  if (verb === "block" && /^\d$/.test(arg)) return [{ at: `.block-frame[data-block="${arg}"]` }];
  if (verb === "chrono") return [{ at: ".chronology" }];
  return [];
}
