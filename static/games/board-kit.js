// Pieces every board renderer shares: SVG element building, titles, names, the stylesheet.

import { format, gettext, ngettext } from "../js/i18n.js";

export const SVG = "http://www.w3.org/2000/svg";

// An SVG element with the given attributes (null, undefined and false leave one out),
// appended to ``parent`` when given.
export function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  if (parent) parent.append(node);
  return node;
}

// A tooltip (and accessible name) for an SVG element; text only, never markup.
export function title(parent, content) {
  const t = el("title", {}, parent);
  t.textContent = content;
  return t;
}

// The seat's name as the server gives it (games/seat_names.py: "Greedy (red)").
export function seatName(ctx, i) {
  const named = (ctx.seatNames || [])[i];
  if (named) return named;
  const seat = (ctx.seats || [])[i];
  return seat && seat.username ? seat.username : format(gettext("Seat %(number)s"), { number: i + 1 });
}

// A seat's name for the boards, with "you" for the viewer's own seat folded into the colour it
// carries ("alice (blue, you)"; "alice (you)" without one), never a second pair of brackets;
// a lesson's seat already called "You (blue)" stays as it is.
export function seatLabel(ctx, i) {
  const name = seatName(ctx, i);
  if (i !== ctx.seat || /^You\b/.test(name)) return name;
  const you = gettext("you");
  return /\)$/.test(name) ? `${name.slice(0, -1)}, ${you})` : `${name} (${you})`;
}

// A name cut to ``max`` characters; a seat's colour at its end stays whole ("Greedy (red)"
// becomes "Gre… (red)"), so two seats held by the same bot stay apart when space is short.
export function shortName(name, max) {
  if (name.length <= max) return name;
  const tagged = /^(.+)( \([^()]+\))$/.exec(name);
  if (tagged && tagged[2].length + 2 <= max) return `${tagged[1].slice(0, max - tagged[2].length - 1)}…${tagged[2]}`;
  return `${name.slice(0, max - 1)}…`;
}

// A score in words, singular for one: "1 point", "3 points"; short: "1 pt", "3 pts".
export function points(n, short = false) {
  const words = short ? ngettext("%(count)s pt", "%(count)s pts", n) : ngettext("%(count)s point", "%(count)s points", n);
  return format(words, { count: n });
}

// Link a renderer's own stylesheet once: ``linkStylesheet(new URL("./x.css", import.meta.url))``.
export function linkStylesheet(url) {
  const href = String(url);
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

// After the game (the analysis of a finished match, static/js/analysis.js): the place a move
// names, marked over the board drawn in ``container``. Each renderer says which places an
// action names (its ``actionPlaces(action)``), in terms of the board's own elements:
// ``{at: selector}`` rings that element, ``{from: selector, to: selector}`` draws an arrow from
// the one to the other and rings the second, ``{edge: [selector, selector]}`` draws the line
// two neighbouring cells share. ``kind`` ("best" or "played") is the mark's class, ``words``
// its accessible name. The marks lie over everything and take no clicks; drawing the board
// anew removes them. Returns whether anything was marked.
export function markPlaces(container, places, kind, words) {
  const svg = container.querySelector("svg");
  if (!svg || !places || !places.length) return false;
  const layer = el("g", { class: `analysis-place ${kind}`, role: "img", "aria-label": words });
  title(layer, words);
  let marked = false;
  const box = (selector) => {
    const node = svg.querySelector(selector);
    return node ? boxIn(svg, node) : null;
  };
  for (const place of places) {
    if (place.at) {
      const b = box(place.at);
      if (b) {
        ring(layer, b);
        marked = true;
      }
    } else if (place.from && place.to) {
      const [a, b] = [box(place.from), box(place.to)];
      if (a && b) {
        arrow(layer, middle(a), middle(b));
        ring(layer, b);
        marked = true;
      }
    } else if (place.edge) {
      const [a, b] = place.edge.map(box);
      if (a && b) {
        // Two neighbouring cells' boxes meet in a line: their overlap, thin one way.
        const x1 = Math.max(a.x, b.x);
        const y1 = Math.max(a.y, b.y);
        const x2 = Math.min(a.x + a.width, b.x + b.width);
        const y2 = Math.min(a.y + a.height, b.y + b.height);
        el("line", { x1, y1, x2, y2, class: "analysis-halo" }, layer);
        el("line", { x1, y1, x2, y2, class: "analysis-stroke" }, layer);
        marked = true;
      }
    }
  }
  if (marked) svg.append(layer);
  return marked;
}

// ``node``'s bounding box in the coordinates of ``svg``'s own drawing (through every
// transform between them), or null when the board is not laid out.
function boxIn(svg, node) {
  const outer = svg.getScreenCTM();
  const inner = node.getScreenCTM();
  if (!outer || !inner) return null;
  const m = outer.inverse().multiply(inner);
  const b = node.getBBox();
  const xs = [];
  const ys = [];
  for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]) {
    xs.push(m.a * x + m.c * y + m.e);
    ys.push(m.b * x + m.d * y + m.f);
  }
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function middle(b) {
  return [b.x + b.width / 2, b.y + b.height / 2];
}

function ring(layer, b) {
  const inset = 3;
  const attrs = { x: b.x + inset, y: b.y + inset, width: Math.max(1, b.width - 2 * inset), height: Math.max(1, b.height - 2 * inset), rx: 6 };
  el("rect", { ...attrs, class: "analysis-halo" }, layer);
  el("rect", { ...attrs, class: "analysis-stroke" }, layer);
}

function arrow(layer, [x1, y1], [x2, y2]) {
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const [ex, ey] = [x2 - ux * 18, y2 - uy * 18];
  const head = `${x2 - ux * 6},${y2 - uy * 6} ${ex - uy * 9},${ey + ux * 9} ${ex + uy * 9},${ey - ux * 9}`;
  for (const cls of ["analysis-halo", "analysis-stroke"]) {
    el("line", { x1: x1 + ux * 8, y1: y1 + uy * 8, x2: ex, y2: ey, class: cls }, layer);
    el("polygon", { points: head, class: `${cls} analysis-head` }, layer);
  }
}
