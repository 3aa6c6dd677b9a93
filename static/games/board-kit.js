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
