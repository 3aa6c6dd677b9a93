// What every page that shows a board draws the same way: the game's renderer
// (static/games/<slug>.js) on the board, the score table with each seat's breakdown, and a
// button for every legal action. The live match page (match.js) and the lessons (learn.js)
// both draw through these.

import { format, gettext, ngettext } from "./i18n.js";

export function text(tag, content, cls) {
  const el = document.createElement(tag);
  if (content !== undefined && content !== null) el.textContent = content;
  if (cls) el.className = cls;
  return el;
}

// The game's renderer module, or null (the board then shows the raw view).
export async function loadRenderer(url) {
  try {
    const module = await import(url);
    return module.default || module;
  } catch (err) {
    return null;
  }
}

// ``ctx``: {seat, seats, seatNames, legal, act}, as every renderer takes it.
export function drawBoard(container, renderer, view, ctx) {
  container.replaceChildren();
  if (renderer && renderer.render) {
    renderer.render(container, view, ctx);
  } else {
    container.append(text("pre", JSON.stringify(view, null, 1), "raw-view"));
  }
}

// The score of every seat, named by ``seatName(index)``, with its breakdown folded.
export function renderScore(container, view, seatName) {
  container.replaceChildren();
  const table = text("table", null, "table score-table");
  const breakdown = view.score_breakdown || [];
  const body = document.createElement("tbody");
  (view.scores || []).forEach((score, i) => {
    const row = document.createElement("tr");
    const th = text("th", null, "name-cell");
    th.scope = "row";
    th.append(text("span", seatName(i), "name"));
    th.title = seatName(i);
    row.append(th, text("td", String(score), "num"));
    row.append(breakdownCell(breakdown[i] || []));
    body.append(row);
  });
  table.append(body);
  container.append(table);
}

// A seat's score breakdown, folded: the line items in a small table behind "how".
function breakdownCell(parts) {
  const td = text("td", null, "breakdown");
  if (!parts.length) return td;
  const details = document.createElement("details");
  details.append(text("summary", format(ngettext("%(count)s item", "%(count)s items", parts.length), { count: parts.length })));
  const table = text("table", null, "breakdown-table");
  for (const [label, pts] of parts) {
    const tr = document.createElement("tr");
    tr.append(text("td", label), text("td", String(pts), "num"));
    table.append(tr);
  }
  details.append(table);
  td.append(details);
  return td;
}

// A button for every legal action ({action, label}), each calling ``act(action)``. With
// ``picker`` (a renderer whose board is its own set of targets, the chit game's 162 plots on a
// first turn) and more than PICKER_FROM actions, the many are one filterable list instead:
// type to narrow it, choose, Play. An action alone of its kind ("peace") stays a button.
const PICKER_FROM = 24;

function actionButton(action, label, act) {
  const b = text("button", label, "button action");
  b.type = "button";
  b.dataset.action = action;
  b.addEventListener("click", () => act(action));
  return b;
}

export function renderActions(container, legal, act, picker = false) {
  container.replaceChildren();
  if (!legal.length) return;
  const kind = (action) => action.split(":")[0];
  const counts = new Map();
  for (const { action } of legal) counts.set(kind(action), (counts.get(kind(action)) || 0) + 1);
  const many = picker && legal.length > PICKER_FROM;
  const listed = many ? legal.filter(({ action }) => counts.get(kind(action)) < 4) : legal;
  if (many) container.append(actionPicker(legal.filter((a) => !listed.includes(a)), act));
  if (!listed.length) return;
  const list = text("ul", null, "action-list");
  for (const { action, label } of listed) {
    const li = document.createElement("li");
    li.append(actionButton(action, label, act));
    list.append(li);
  }
  container.append(list);
}

let pickerFilter = "";

function actionPicker(legal, act) {
  const form = text("form", null, "action-picker");
  const find = text("label", gettext("Find a move"), "");
  find.htmlFor = "action-filter";
  const filter = document.createElement("input");
  filter.type = "search";
  filter.id = "action-filter";
  filter.placeholder = gettext("e.g. castle a1");
  filter.value = pickerFilter;
  const which = text("label", format(gettext("Move (%(count)s)"), { count: legal.length }), "");
  which.htmlFor = "action-choice";
  const select = document.createElement("select");
  select.id = "action-choice";
  const play = text("button", gettext("Play"), "button primary action");
  play.type = "submit";
  const fill = () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = legal.filter(({ label }) => words.every((w) => label.toLowerCase().includes(w)));
    select.replaceChildren(
      ...shown.map(({ action, label }) => {
        const option = text("option", label);
        option.value = action;
        option.dataset.action = action;
        return option;
      }),
    );
    which.textContent = format(gettext("Move (%(shown)s of %(count)s)"), { shown: shown.length, count: legal.length });
    play.disabled = !shown.length;
  };
  filter.addEventListener("input", () => {
    pickerFilter = filter.value;
    fill();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (select.value) act(select.value);
  });
  fill();
  const row = (...parts) => {
    const div = text("div", null, "action-picker-row");
    div.append(...parts);
    return div;
  };
  form.append(row(find, filter), row(which, select, play));
  return form;
}
