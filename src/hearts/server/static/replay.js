// A stored hand stepped through card by card and trick by trick, with the whole deal shown.
"use strict";

const $ = (id) => document.getElementById(id);
const [, , TABLE, HAND] = location.pathname.split("/");
let H = null;      // the hand, as /api/tables/{id}/hands/{n} lays it open
let plays = [];    // every card in order: {seat, card, trick, last (ends a trick), winner}
let step = 0;      // how many cards have been played

function buildPlays() {
  plays = [];
  H.tricks.forEach((t, i) => t.plays.forEach((p, j) => plays.push({ ...p, trick: i, last: j === t.plays.length - 1, winner: t.winner })));
  $("slider").max = String(plays.length);
}

const GRID = { 4: [[3, 2], [2, 1], [1, 2], [2, 3]] }; // South, West, North, East: [row, column]

function place(seat) {
  const n = H.names.length;
  if (GRID[n]) return GRID[n][seat];
  const spots = [[3, 2], [2, 1], [1, 1], [1, 3], [2, 3], [1, 2]];
  return spots[seat];
}

/** On a phone (style.css): two columns, the seats across from each other side by side, the top seat,
 *  the trick and the bottom seat across both; returns [row, column] like place(). */
function phonePlace(seat) {
  const n = H.names.length;
  const top = (n - 1) % 2 === 1 ? n / 2 : null;
  const pairs = Math.floor((n - 1) / 2);
  const first = top === null ? 1 : 2;
  if (seat === "center") return [first + pairs, "1 / 3"];
  if (seat === 0) return [first + pairs + 1, "1 / 3"];
  if (seat === top) return [1, "1 / 3"];
  const k = Math.min(seat, n - seat);
  return [first + pairs - k, seat === k ? "1" : "2"];
}

function placeBox(box, seat) {
  const [row, col] = seat === "center" ? [2, 2] : place(seat);
  box.style.gridRow = row; box.style.gridColumn = col;
  const [prow, pcol] = phonePlace(seat);
  box.style.setProperty("--phone-row", String(prow));
  box.style.setProperty("--phone-col", pcol);
}

function draw() {
  const board = $("board");
  board.innerHTML = "";
  const played = new Set(plays.slice(0, step).map((p) => p.card));
  const taken = H.names.map(() => 0);
  plays.slice(0, step).forEach((p) => { if (p.last) taken[p.winner] += 1; });
  H.seats.forEach((s) => {
    const box = document.createElement("div");
    box.className = "rseat";
    placeBox(box, s.seat);
    box.innerHTML = `<div><strong>${escapeHtml(s.name)}</strong> · ${taken[s.seat]} trick${taken[s.seat] === 1 ? "" : "s"} · scored ${s.score}</div>`;
    const row_ = cardRow(s.held);
    row_.querySelectorAll(".card").forEach((el) => { if (played.has(el.dataset.card)) el.classList.add("dim"); });
    box.appendChild(row_);
    const note = document.createElement("div");
    note.className = "muted";
    note.style.color = "#cfe";
    note.textContent = s.passed.length ? `passed ${s.passed.map(withSymbols).join(" ")} to ${H.names[s.pass_to]}, got ${s.received.map(withSymbols).join(" ")}` : "";
    box.appendChild(note);
    board.appendChild(box);
  });
  const center = document.createElement("div");
  center.className = "center";
  placeBox(center, "center");
  center.setAttribute("aria-live", "polite");
  if (step > 0) {
    const cur = plays[step - 1];
    const trick = plays.filter((p, i) => i < step && p.trick === cur.trick);
    const offsets = { 0: [72, 95], 1: [8, 50], 2: [72, 5], 3: [136, 50] };
    trick.forEach((p, i) => {
      const el = cardElement(p.card);
      const [x, y] = offsets[p.seat] || [20 + 30 * i, 40];
      el.style.left = `${x}px`; el.style.top = `${y}px`;
      el.setAttribute("aria-label", `${H.names[p.seat]} played ${cardLabel(p.card)}`);
      center.appendChild(el);
    });
    $("where").textContent = `Trick ${cur.trick + 1} of ${H.tricks.length}, card ${trick.length}` + (cur.last ? ` — ${H.names[cur.winner]} wins it` : "");
  } else $("where").textContent = "The deal, after the pass";
  board.appendChild(center);
  $("slider").value = String(step);
}

function go(n) { step = Math.max(0, Math.min(plays.length, n)); draw(); }
function trickStart(i) { return plays.findIndex((p) => p.trick === i); }

async function init() {
  $("four-colour").checked = Settings.fourColour;
  $("four-colour").onchange = () => { Settings.fourColour = $("four-colour").checked; };
  const res = await fetch(`/api/tables/${TABLE}/hands/${HAND}`);
  if (!res.ok) { $("summary").textContent = (await res.json()).detail || "No such hand"; return; }
  H = await res.json();
  $("title").textContent = `Hand ${H.number} — ${H.names.join(", ")}`;
  $("summary").textContent = `Pass ${H.direction}. Scores this hand: ${H.seats.map((s) => `${s.name} ${s.score}`).join(", ")}.` +
    (H.shooter !== null ? ` ${H.names[H.shooter]} shot the moon.` : "") + ` Totals after it: ${H.totals.join(" / ")}.`;
  $("download").href = `/api/tables/${TABLE}/record?hand=${H.number}`;
  // While the game is played its record is its seats' alone (they download it from the table page).
  const info = await fetch(`/api/tables/${TABLE}`).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (info && info.status === "playing") {
    $("download").style.display = "none";
    $("summary").textContent += " The record can be downloaded here once the game is over.";
  }
  if (info && info.practice) $("summary").textContent += " (A practice table: dealt from a fixed seed.)";
  H.seats.forEach((s) => $("again-seat").add(new Option(s.name, String(s.seat))));
  const reviewLink = () => { $("review").href = `/review/${TABLE}/${H.number}?seat=${$("again-seat").value}`; };
  $("again-seat").onchange = reviewLink;
  reviewLink();
  if (info && info.status === "playing") $("review").style.display = "none";  // a seat reviews from its table page
  $("again").onclick = () => playAgain(TABLE, H.number, { seat: parseInt($("again-seat").value, 10) });
  buildPlays();
  $("start").onclick = () => go(0);
  $("end").onclick = () => go(plays.length);
  $("prev").onclick = () => go(step - 1);
  $("next").onclick = () => go(step + 1);
  $("next-trick").onclick = () => { const t = step ? plays[step - 1].trick + (plays[step - 1].last ? 1 : 0) : 0; go(t >= H.tricks.length ? plays.length : trickStart(t) + H.tricks[t].plays.length); };
  $("prev-trick").onclick = () => { const t = step ? plays[step - 1].trick - 1 : -1; go(t < 0 ? 0 : trickStart(t) + H.tricks[t].plays.length); };
  $("slider").oninput = () => go(parseInt($("slider").value, 10));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") go(step + 1); if (e.key === "ArrowLeft") go(step - 1); });
  draw();
}

/** What was said at the table during this hand (text, never markup); the chat of a private table
 *  in play is not open, and then nothing is shown. */
async function loadChat() {
  const res = await fetch(`/api/tables/${TABLE}/chat`);
  if (!res.ok) return;
  const lines = (await res.json()).chat.filter((c) => c.hand === H.number);
  if (!lines.length) return;
  const box = $("replay-chat-log");
  for (const c of lines) {
    const line = document.createElement("div");
    line.className = "chat-line";
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = c.spectator ? `${c.name} (watching)` : c.name;
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = c.text;
    line.append(who, ": ", text);
    box.appendChild(line);
  }
  $("replay-chat").hidden = false;
}

init().then(loadChat).catch(() => {});
