// The header of a signed-in person: how many matches wait for their move and how many
// notifications are unread, kept current over /ws/me/ (notifications.consumers.MeConsumer).
// The socket reconnects with a growing pause (up to a minute) and says every minute that the
// person is still here, which keeps the your-turn e-mail from being sent while they are.

const PING_EVERY = 60000;
// The close code of a socket whose sign-in ended (live.credentials.SIGNED_OUT).
const SIGNED_OUT = 4401;
const counts = {
  your_turn: document.getElementById("your-turn-count"),
  unread: document.getElementById("unread-count"),
};
const links = {
  your_turn: document.getElementById("your-turn-link"),
  unread: document.getElementById("notifications-link"),
};
const words = {
  your_turn: (n) => `${n} match${n === 1 ? "" : "es"} waiting for your move`,
  unread: (n) => `${n} unread notification${n === 1 ? "" : "s"}`,
};
let retry = 0;
let pinger = null;

function show(kind, n) {
  const el = counts[kind];
  if (!el) return;
  el.textContent = String(n);
  el.hidden = !n;
  if (links[kind]) links[kind].setAttribute("aria-label", words[kind](n));
  links[kind]?.classList.toggle("has-count", n > 0);
}

// Something to act on soon (a tournament table ready): said above the page, with its link,
// and in the tab's title ("(1) Your table is ready") for a player looking at another tab.
const notices = document.getElementById("notices");
const baseTitle = document.title;
let announced = 0;

function announce(msg) {
  announced += 1;
  document.title = `(${announced}) ${msg.title}`;
  if (!notices) return;
  const line = document.createElement("p");
  line.className = "message notice";
  const link = document.createElement("a");
  link.href = msg.url;
  link.textContent = msg.text;
  line.append(link);
  notices.append(line);
}

// Back on the tab, the person has seen it: the title is the page's own again.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && announced && document.hasFocus()) {
    announced = 0;
    document.title = baseTitle;
  }
});

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/me/`);
  window.meSocket = socket;
  socket.addEventListener("open", () => {
    // What the page follows through this socket may have moved on before it opened.
    document.dispatchEvent(new CustomEvent("me-connected"));
    retry = 0;
    pinger = setInterval(() => socket.send('{"type": "ping"}'), PING_EVERY);
  });
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "notice") announce(msg);
    // For the page's own parts that follow the person's challenges (challenges.js).
    if (msg.type === "challenge") document.dispatchEvent(new CustomEvent("challenge", { detail: msg.challenge }));
    if (msg.type !== "counts") return;
    show("your_turn", msg.your_turn);
    show("unread", msg.unread);
    document.documentElement.dataset.yourTurnCount = String(msg.your_turn);
  });
  socket.addEventListener("close", (event) => {
    clearInterval(pinger);
    if (event.code === 4403) return; // signed out in another tab
    if (event.code === SIGNED_OUT) {
      // This sign-in ended (a new password, a sign-out, a closed account): the counts are no
      // longer this page's to show, and reconnecting would be refused.
      show("your_turn", 0);
      show("unread", 0);
      document.documentElement.dataset.signedOut = "true";
      return;
    }
    const delay = Math.min(60000, 1000 * 2 ** retry) + Math.random() * 500;
    retry += 1;
    setTimeout(connect, delay);
  });
}

if (counts.your_turn) connect();
