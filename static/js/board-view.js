// What every page that shows a board draws the same way: the game's renderer
// (static/games/<slug>.js) on the board, the score table with each seat's breakdown, and a
// button for every legal action. The live match page (match.js) and the lessons (learn.js)
// both draw through these.

export function text(tag, content, cls) {
  const el = document.createElement(tag);
  if (content !== undefined && content !== null) el.textContent = content;
  if (cls) el.className = cls;
  return el;
}

// "1 point", "2 points".
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || `${one}s`}`;
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
  details.append(text("summary", plural(parts.length, "item")));
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

// A button for every legal action ({action, label}), each calling ``act(action)``.
export function renderActions(container, legal, act) {
  container.replaceChildren();
  if (!legal.length) return;
  const list = text("ul", null, "action-list");
  for (const { action, label } of legal) {
    const li = document.createElement("li");
    const b = text("button", label, "button action");
    b.type = "button";
    b.dataset.action = action;
    b.addEventListener("click", () => act(action));
    li.append(b);
    list.append(li);
  }
  container.append(list);
}
