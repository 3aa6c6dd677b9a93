// The challenges page follows the challenges waiting on it, live: the person's /ws/me/ socket
// (me.js) hands over each one that stops waiting (accepted, declined, withdrawn, expired) as a
// "challenge" event. A challenge of yours accepted takes you to its match; any other row says
// what became of it, and when. Answers given before the socket opened (or while it was away)
// are asked for once, as it opens.

const WORDS = { accepted: "accepted", declined: "declined", cancelled: "withdrawn", expired: "expired" };

function row(id) {
  return document.querySelector(`li[data-challenge="${id}"][data-state=pending]`);
}

function settle(li, challenge) {
  const mine = li.closest("#challenges-sent") !== null;
  if (mine && challenge.state === "accepted" && challenge.match_url) {
    window.location.assign(challenge.match_url);
    return;
  }
  li.dataset.state = challenge.state;
  li.querySelector(".challenge-buttons")?.remove();
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.textContent = WORDS[challenge.state] || challenge.state;
  const when = document.createElement("span");
  when.className = "muted";
  when.textContent = " just now";
  li.querySelector(".challenge-expiry")?.replaceWith(badge, when);
  if (challenge.match_url) {
    const link = document.createElement("a");
    link.href = challenge.match_url;
    link.textContent = " go to the match";
    li.append(link);
  }
}

document.addEventListener("challenge", (event) => {
  const li = row(event.detail.id);
  if (li) settle(li, event.detail);
});

// The socket (re)opened: how do the rows still shown as waiting stand now?
async function catchUp() {
  const waiting = [...document.querySelectorAll("li[data-challenge][data-state=pending]")];
  let url = "/api/challenges/";
  const byId = new Map();
  try {
    while (url && waiting.some((li) => !byId.has(li.dataset.challenge))) {
      const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!res.ok) return;
      const page = await res.json();
      for (const c of page.results) byId.set(String(c.id), c);
      url = page.next;
    }
  } catch (err) {
    return; /* offline again: the next reconnection asks */
  }
  for (const li of waiting) {
    const challenge = byId.get(li.dataset.challenge);
    if (challenge && challenge.state !== "pending") settle(li, challenge);
  }
}

document.addEventListener("me-connected", catchUp);
