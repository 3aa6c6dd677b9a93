// The lobby keeps its list of open matches current: a socket says when the list changed,
// and the page fetches its own page of it again (with its filters), a moment later so that
// a burst of changes costs one request. A page in a background tab waits until it is seen.

let socket = null;
let retry = 0;
let timer = null;
let stale = false;

function section() {
  return document.getElementById("open-matches");
}

function refreshSoon() {
  if (document.hidden) {
    stale = true;
    return;
  }
  if (timer === null) timer = setTimeout(refresh, 300 + Math.random() * 1700);
}

async function refresh() {
  timer = null;
  const current = section();
  if (!current) return;
  if (current.contains(document.activeElement)) {
    // Someone is using the filters or a Join button: do not pull the list from under them.
    timer = setTimeout(refresh, 3000);
    return;
  }
  try {
    const res = await fetch(new URL(current.dataset.partUrl, location.href), { credentials: "same-origin" });
    if (!res.ok) return;
    const template = document.createElement("template");
    template.innerHTML = (await res.text()).trim();
    const fresh = template.content.getElementById("open-matches");
    if (fresh && section() === current) current.replaceWith(fresh);
  } catch (err) {
    /* offline for a moment: the socket reconnects and asks again */
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
  socket.addEventListener("open", () => {
    if (retry > 0) refreshSoon(); // changes may have been missed while away
    retry = 0;
    document.documentElement.dataset.lobbyLive = "true";
  });
  socket.addEventListener("message", (event) => {
    if (JSON.parse(event.data).type === "changed") refreshSoon();
  });
  socket.addEventListener("close", () => {
    delete document.documentElement.dataset.lobbyLive;
    const delay = Math.min(60000, 1000 * 2 ** retry) + Math.random() * 1000;
    retry += 1;
    setTimeout(connect, delay);
  });
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && stale) {
    stale = false;
    refreshSoon();
  }
});

if (section()) connect();
