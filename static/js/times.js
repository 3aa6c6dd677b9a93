// Times in the viewer's zone. The server prints every time as <time datetime="ISO, UTC"> with a
// readable UTC text inside (cached parts of pages are shared by viewers in every zone); this
// shows each in the viewer's zone: the zone saved on their account or kept in the cookie
// (<body data-time-zone>), else the browser's. <time data-local="relative"> reads "in 3 hours",
// with the date itself in its title; data-local="date" only the day. All in the page's language.
//
// On a first visit (<body data-time-zone-save>) the browser's zone is saved once: on the
// account of a signed-in person who has none (a POST; the server never overrides their own
// choice), in a cookie for a visitor who is not signed in.

import { gettext } from "./i18n.js";

const body = document.body;
// The page's language (<html lang>): English pages keep the British order of day and month.
const pageLanguage = document.documentElement.lang || "en";
const locale = pageLanguage === "en" ? "en-GB" : pageLanguage;
const browserZone = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
})();

export function viewerZone() {
  return body.dataset.timeZoneSave !== undefined ? browserZone : body.dataset.timeZone || browserZone;
}

function format(options) {
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: viewerZone() });
  } catch {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
  }
}

const DATE_TIME = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
const DATE = { day: "numeric", month: "long", year: "numeric" };

// "27 Nov 2026, 18:00 GMT+9": a time in the viewer's zone, with the zone said.
export function dateTimeText(iso) {
  return format(DATE_TIME).format(new Date(iso));
}

const STEPS = [
  ["year", 365 * 86400],
  ["month", 30 * 86400],
  ["week", 7 * 86400],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];

export function relativeText(iso, now = Date.now()) {
  const seconds = (new Date(iso) - now) / 1000;
  const words = new Intl.RelativeTimeFormat(pageLanguage, { numeric: "auto" });
  for (const [unit, size] of STEPS) {
    if (Math.abs(seconds) >= size) return words.format(Math.round(seconds / size), unit);
  }
  return Math.abs(seconds) < 10 ? gettext("now") : words.format(Math.round(seconds), "second");
}

export function renderTimes(root = document) {
  for (const el of root.querySelectorAll("time[data-local]")) {
    const iso = el.getAttribute("datetime");
    if (!iso) continue;
    const how = el.dataset.local;
    if (how === "relative") {
      el.textContent = relativeText(iso);
      el.title = dateTimeText(iso);
    } else if (how === "date") {
      el.textContent = format(DATE).format(new Date(iso));
    } else {
      el.textContent = dateTimeText(iso);
    }
  }
}

function saveBrowserZone() {
  const url = body.dataset.timeZoneSave;
  if (url === undefined) return;
  if (!url) {
    // Not signed in: the cookie the server reads on the next request.
    const cookie = body.dataset.timeZoneCookie || "tz";
    const secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `${cookie}=${browserZone}; Max-Age=31536000; Path=/; SameSite=Lax${secure}`;
    return;
  }
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (!csrf) return;
  const form = new FormData();
  form.append("time_zone", browserZone);
  fetch(url, { method: "POST", body: form, headers: { "X-CSRFToken": csrf.value }, credentials: "same-origin" }).catch(() => {});
}

renderTimes();
saveBrowserZone();

// Parts of the page drawn again later (a tournament's live part, a new challenge) bring their
// own <time> elements: shown in the viewer's zone as they arrive.
new MutationObserver((changes) => {
  for (const change of changes) {
    for (const node of change.addedNodes) {
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      if (node.matches("time[data-local]")) renderTimes(node.parentElement || document);
      else renderTimes(node);
    }
  }
}).observe(body, { childList: true, subtree: true });
