// The tournament page keeps its standings and rounds current: a socket says when they
// changed (a table finished, a round began or the tournament ended), and the page fetches
// its live part again, a moment later so that a burst of changes costs one request.

const live = document.getElementById("tournament-live");
const client = { socket: null, refreshes: 0 };
window.tournamentClient = client;
let retry = 0;
let timer = null;

function refreshSoon() {
  if (timer === null) timer = setTimeout(refresh, 200 + Math.random() * 800);
}

async function refresh() {
  timer = null;
  try {
    const res = await fetch(new URL(live.dataset.partUrl, location.href), { credentials: "same-origin" });
    if (!res.ok) return;
    const template = document.createElement("template");
    template.innerHTML = (await res.text()).trim();
    const fresh = template.content.getElementById("tournament-live-part");
    const current = document.getElementById("tournament-live-part");
    if (fresh && current) {
      current.replaceWith(fresh);
      client.refreshes += 1;
    }
  } catch (err) {
    /* offline for a moment: the socket reconnects and asks again */
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${live.dataset.socketPath}`);
  client.socket = socket;
  socket.addEventListener("open", () => {
    if (retry > 0) refreshSoon(); // changes may have been missed while away
    retry = 0;
  });
  socket.addEventListener("message", (event) => {
    if (JSON.parse(event.data).type === "changed") refreshSoon();
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403) return; // not allowed to watch: no point in retrying
    const delay = Math.min(60000, 1000 * 2 ** retry) + Math.random() * 1000;
    retry += 1;
    setTimeout(connect, delay);
  });
}

if (live) connect();
