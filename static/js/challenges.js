// The challenges page while some of yours wait for an answer: asks now and then how they
// stand (less often the longer nothing happens), and goes to the match once one is accepted.

const sent = document.getElementById("challenges-sent");
const FIRST_MS = 3000;
const MOST_MS = 30000;
let wait = FIRST_MS;

function waiting() {
  return [...sent.querySelectorAll("li[data-challenge][data-state=pending]")];
}

function settle(row, challenge) {
  row.dataset.state = challenge.state;
  const status = row.querySelector(".challenge-status");
  if (status) status.textContent = challenge.state === "declined" ? "declined" : challenge.state;
  row.querySelectorAll("form").forEach((form) => form.remove());
}

async function check() {
  const rows = waiting();
  if (!rows.length) return;
  if (!document.hidden) {
    try {
      // The list comes in pages, newest first: read on until every row waiting is found.
      const byId = new Map();
      let url = "/api/challenges/";
      let res = null;
      while (url) {
        res = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (!res.ok) break;
        const page = await res.json();
        for (const c of page.results) byId.set(String(c.id), c);
        url = rows.every((row) => byId.has(row.dataset.challenge)) ? null : page.next;
      }
      if (res.ok) {
        for (const row of rows) {
          const challenge = byId.get(row.dataset.challenge);
          if (!challenge || challenge.state === "pending") continue;
          if (challenge.state === "accepted" && challenge.match_url) {
            window.location.assign(challenge.match_url);
            return;
          }
          settle(row, challenge);
          wait = FIRST_MS;
        }
      }
    } catch (err) {
      /* offline for a moment: ask again later */
    }
  }
  wait = Math.min(MOST_MS, wait * 1.5);
  setTimeout(check, wait);
}

setTimeout(check, FIRST_MS);
