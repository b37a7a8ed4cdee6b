// Cards drawn with HTML and CSS only (text glyphs on a scalable box): crisp at any size, no images.
// Shared by the table, the lobby preview and the replay page.
"use strict";

const SUITS = { C: "♣", D: "♦", S: "♠", H: "♥" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", S: "spades", H: "hearts" };
const RANK_NAMES = { J: "jack", Q: "queen", K: "king", A: "ace" };

function cardParts(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

/** "QS" -> "queen of spades": the words screen readers read out. */
function cardLabel(code) {
  const { rank, suit } = cardParts(code);
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suit]}`;
}

/** A face-up card element. `tag` is "button" for playable cards, "div" otherwise. */
function cardElement(code, tag = "div") {
  const { rank, suit } = cardParts(code);
  const el = document.createElement(tag);
  el.className = `card face suit-${suit}`;
  el.dataset.card = code;
  if (tag === "button") el.type = "button";
  el.setAttribute("aria-label", cardLabel(code));
  el.innerHTML =
    `<span class="corner tl" aria-hidden="true"><b>${rank}</b><i>${SUITS[suit]}</i></span>` +
    `<span class="pip" aria-hidden="true">${SUITS[suit]}</span>` +
    `<span class="corner br" aria-hidden="true"><b>${rank}</b><i>${SUITS[suit]}</i></span>`;
  return el;
}

function cardBack(label) {
  const el = document.createElement("div");
  el.className = "card back";
  if (label) el.setAttribute("aria-label", label);
  else el.setAttribute("aria-hidden", "true");
  return el;
}

/** A row of small face-up cards, e.g. for the end-of-hand deal. */
function cardRow(codes, cls = "mini") {
  const row = document.createElement("div");
  row.className = `card-row ${cls}`;
  row.setAttribute("role", "list");
  for (const c of codes) {
    const el = cardElement(c);
    el.setAttribute("role", "listitem");
    row.appendChild(el);
  }
  return row;
}

/** Card codes in a text ("'10H'", "QS") shown with their suit symbols ("10♥", "Q♠"). */
function withSymbols(text) {
  return String(text).replace(/'?\b(10|[2-9TJQKA])([CDSH])\b'?/g, (_, rank, suit) => (rank === "T" ? "10" : rank) + SUITS[suit]);
}

/** "QS" -> "Q♠". */
function cardShort(code) { const { rank, suit } = cardParts(code); return rank + SUITS[suit]; }

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);
}

/** Settings kept in the browser: animation speed and the four-colour deck. */
const Settings = {
  get speed() { return parseFloat(localStorage.getItem("hearts.speed") ?? "1"); },
  set speed(v) { localStorage.setItem("hearts.speed", String(v)); },
  get fourColour() { return localStorage.getItem("hearts.fourColour") === "1"; },
  set fourColour(v) { localStorage.setItem("hearts.fourColour", v ? "1" : "0"); applyDeckColours(); },
  get autoPlay() { return localStorage.getItem("hearts.autoPlay") !== "0"; },
  set autoPlay(v) { localStorage.setItem("hearts.autoPlay", v ? "1" : "0"); },
};

function applyDeckColours() {
  document.body.classList.toggle("four-colour", Settings.fourColour);
}

document.addEventListener("DOMContentLoaded", applyDeckColours);

// A seat's link token, kept in this browser for the review page of its game (hearts.seat.ID), is kept
// only while the game is played and for a day after it ends (the review page then still knows your
// seat); hearts.seat-until.ID says until when. A game left unplayed lets its link go a week after its
// page was last opened. Every page forgets the links past their time when it loads.
const SEAT_KEPT_MS = { playing: 7 * 86400e3, over: 86400e3 };

function keepSeat(table, token, over = false) {
  localStorage.setItem(`hearts.seat.${table}`, token);
  localStorage.setItem(`hearts.seat-until.${table}`, String(Date.now() + (over ? SEAT_KEPT_MS.over : SEAT_KEPT_MS.playing)));
}

function forgetOldSeats(now = Date.now()) {
  for (const key of Object.keys(localStorage)) {
    if (!key.startsWith("hearts.seat.")) continue;
    const table = key.slice("hearts.seat.".length);
    const until = parseFloat(localStorage.getItem(`hearts.seat-until.${table}`));
    if (!Number.isFinite(until)) localStorage.setItem(`hearts.seat-until.${table}`, String(now + SEAT_KEPT_MS.playing));
    else if (until < now) { localStorage.removeItem(key); localStorage.removeItem(`hearts.seat-until.${table}`); }
  }
}

forgetOldSeats();

// "Play this deal again": a practice table dealing finished hand `number` again, you at your seat (the
// seat of the token sent in a header, or `seat`), computers at the others. `newTab`: keep this page (a
// game still being played) and open the new table beside it; the tab is opened now, while the click
// still counts, so no pop-up blocker stops it.
async function playAgain(table, number, { headers = {}, seat = null } = {}, newTab = false) {
  const tab = newTab ? window.open("", "_blank") : null;
  try {
    const res = await fetch(`/api/tables/${table}/hands/${number}/again`, {
      method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(seat === null ? {} : { seat }),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(typeof data.detail === "string" ? data.detail : `HTTP ${res.status}`);
    if (tab) tab.location = data.play_url; else window.location = data.play_url;
  } catch (e) {
    if (tab) tab.close();
    const text = `Could not deal this hand again: ${e.message}`;
    if (typeof showMessage === "function") showMessage(text, true); else alert(text);
  }
}
