// A tournament table's match page, until its first move is made: a countdown of that move's
// clock, so that a player called to the table sees how long they have before they forfeit.
// It goes once the match moves on (a new deadline: the first move was made) or ends.

const box = document.getElementById("table-ready");
const left = document.getElementById("table-ready-left");
const deadline = box ? box.dataset.deadline : null;

function tick() {
  const seconds = Math.max(0, Math.ceil((new Date(deadline) - Date.now()) / 1000));
  const minutes = Math.floor(seconds / 60);
  left.textContent = `the first move is due within ${minutes}:${String(seconds % 60).padStart(2, "0")}.`;
}

if (box) {
  tick();
  const timer = setInterval(tick, 1000);
  document.addEventListener("match-drawn", (event) => {
    const payload = event.detail;
    if (payload.status !== "active" || (payload.clocks && payload.clocks.deadline !== deadline)) {
      clearInterval(timer);
      box.remove();
    }
  });
}
