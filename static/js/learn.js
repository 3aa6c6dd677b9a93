// A lesson on the real board (games/learn_views.py): the server sends the learner's view
// of the current step; a move on the board or a button is posted to it, and the answer is
// either the next step or a hint with the same position. No match, no socket.

import * as boardView from "./board-view.js";
import { format, gettext } from "./i18n.js";

const root = document.getElementById("lesson");
const els = {
  board: document.getElementById("board"),
  prompt: document.getElementById("prompt"),
  title: document.getElementById("lesson-title"),
  count: document.getElementById("lesson-count"),
  done: document.getElementById("lesson-done"),
  hint: document.getElementById("hint"),
  actions: document.getElementById("actions"),
  score: document.getElementById("score"),
  steps: document.getElementById("lesson-steps"),
  end: document.getElementById("lesson-end"),
};
const csrfToken = document.querySelector("#restart-form input[name=csrfmiddlewaretoken]").value;

let lesson = JSON.parse(document.getElementById("lesson-payload").textContent);
let renderer = null;
let pending = false;

function seatName(index) {
  return lesson.seat_names[index] || format(gettext("Seat %(number)s"), { number: index + 1 });
}

function showHint(message) {
  els.hint.textContent = message;
  els.hint.hidden = !message;
}

async function act(action) {
  if (pending || lesson.finished) return;
  pending = true;
  els.actions.querySelectorAll("button").forEach((b) => (b.disabled = true));
  let answer = null;
  try {
    const res = await fetch(root.dataset.moveUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken },
      body: JSON.stringify({ action, progress: lesson.progress }),
    });
    answer = await res.json();
    if (!res.ok) showHint(answer.message || gettext("That did not work: try again."));
  } catch (err) {
    showHint(gettext("The server did not answer: check your connection and try again."));
  } finally {
    pending = false;
  }
  if (answer && answer.lesson) {
    lesson = answer.lesson;
    render();
    showHint(answer.ok ? "" : answer.hint);
  } else {
    render();
  }
}

function renderSteps() {
  [...els.steps.children].forEach((li, i) => {
    li.classList.toggle("passed", i < lesson.step);
    li.classList.toggle("current", i === lesson.step);
    if (i === lesson.step) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  });
}

function render() {
  const view = lesson.view || {};
  els.count.textContent = lesson.finished
    ? gettext("Lesson done")
    : format(gettext("Step %(step)s of %(steps)s"), { step: lesson.step + 1, steps: lesson.steps.length });
  els.title.textContent = lesson.title;
  els.prompt.textContent = lesson.prompt;
  els.done.textContent = lesson.done;
  els.done.hidden = !lesson.done;
  els.end.hidden = !lesson.finished;
  boardView.drawBoard(els.board, renderer, view, {
    seat: lesson.seat,
    seats: lesson.seats,
    seatNames: lesson.seat_names,
    legal: lesson.legal_actions,
    act,
  });
  boardView.renderScore(els.score, view, seatName);
  boardView.renderActions(els.actions, lesson.legal_actions, act);
  renderSteps();
}

window.lessonClient = { act, get lesson() { return lesson; } };

renderer = await boardView.loadRenderer(root.dataset.renderer);
render();
root.dataset.ready = "1";
