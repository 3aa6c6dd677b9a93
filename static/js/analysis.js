// The analysis panel of a finished match's page (games/_analysis.html): while the analysis is
// queued or running it follows its progress, then puts in the finished panel; a click on the
// chart or on a marked move steps the replay there (match.js listens for "replay-go"), the
// replay's step is shown as a cursor on the chart, and the costly moves get their marks in
// the move list. Every word shown comes from the template.

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

if (moves) new MutationObserver(markMoves).observe(moves, { childList: true });
markMoves();
follow();
