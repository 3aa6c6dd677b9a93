// "Your move" on an open match page: the tab's title and icon say so, and, when the player
// has turned it on (off by default, remembered in this browser), a short sound plays as the
// move comes to them. Driven by match.js after every update it draws; a spectator, or a
// player who left their seat, has no seat in the payload and is never told it is their move.

import { gettext } from "./i18n.js";

const PREFIX = `(${gettext("Your move")}) `;
const SOUND_KEY = "territory-games:turn-sound";
const baseTitle = document.title.startsWith(PREFIX) ? document.title.slice(PREFIX.length) : document.title;
const icon = document.querySelector('link[rel="icon"]');
const icons = { idle: icon ? icon.href : "", mine: icon ? icon.dataset.yourTurn || icon.href : "" };
const toggle = document.getElementById("turn-sound");
let wasMine = null;
let audio = null;

function soundOn() {
  try {
    return window.localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false; // storage refused (private mode): the default, off
  }
}

function beep() {
  if (!audio) return; // made on the toggle's click: browsers allow sound only after a gesture
  const now = audio.currentTime;
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.setValueAtTime(660, now);
  tone.frequency.setValueAtTime(880, now + 0.12);
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
  tone.connect(gain).connect(audio.destination);
  tone.start(now);
  tone.stop(now + 0.32);
}

function wakeAudio() {
  if (!audio && window.AudioContext) audio = new AudioContext();
}

if (toggle) {
  toggle.hidden = false;
  const box = toggle.querySelector("input");
  box.checked = soundOn();
  box.addEventListener("change", () => {
    try {
      window.localStorage.setItem(SOUND_KEY, box.checked ? "on" : "off");
    } catch {
      // not remembered, but on for this page
    }
    if (box.checked) {
      wakeAudio();
      beep();
    }
  });
  if (box.checked) document.addEventListener("pointerdown", wakeAudio, { once: true });
}

export function isMyMove(payload) {
  const seat = payload.seat;
  return payload.status === "active" && seat !== null && seat !== undefined && payload.clocks.to_move === seat;
}

export function showYourTurn(payload) {
  const mine = isMyMove(payload);
  if (mine === wasMine) return;
  document.title = mine ? PREFIX + baseTitle : baseTitle;
  document.documentElement.dataset.yourMove = mine ? "yes" : "no";
  if (icon) icon.href = mine ? icons.mine : icons.idle;
  if (mine && wasMine === false && soundOn()) beep();
  wasMine = mine;
}
