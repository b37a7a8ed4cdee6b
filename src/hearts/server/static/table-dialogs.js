// The table page's dialogs: the end-of-hand screen (score sheet and the whole deal), the score sheet,
// and the invite links. Loaded before table.js, whose state (S) and helpers these use when called.
"use strict";

function openDialog(html, focusId) {
  const d = $("dialog");
  d.innerHTML = html;
  $("overlay").hidden = false;
  const close = d.querySelector("[data-close]");
  if (close) close.onclick = closeDialog;
  (focusId ? $(focusId) : d).focus();
  return d;
}
function closeDialog() { $("overlay").hidden = true; $("hand").querySelector(".card")?.focus(); }

function sheetHtml(rows, names, winners) {
  let html = `<table class="sheet scores"><thead><tr><th>Hand</th>${names.map((n) => `<th>${escapeHtml(n)}</th>`).join("")}</tr></thead><tbody>`;
  for (const h of rows) html += `<tr><td>${h.number}</td>${h.points.map((p) => `<td>${p}</td>`).join("")}</tr>`;
  const totals = rows.length ? rows[rows.length - 1].totals : names.map(() => 0);
  html += `<tr class="total"><td>Total</td>${totals.map((t, i) => `<td class="${winners && winners.includes(i) ? "win" : ""}">${t}</td>`).join("")}</tr>`;
  return html + "</tbody></table>";
}

function showHandOver(hand, winners) {
  const names = hand.names;
  const moon = hand.shooter !== null && hand.shooter !== undefined ? `<p><strong>${escapeHtml(names[hand.shooter])} shot the moon!</strong></p>` : "";
  const title = winners ? `Game over — ${winners.map((w) => names[w]).join(" and ")} ${winners.length > 1 ? "share the win" : "wins"}` : `Hand ${hand.number} is over`;
  const deal = document.createElement("div");
  deal.className = "deal";
  for (const s of hand.seats) {
    const box = document.createElement("div");
    box.innerHTML = `<div class="who">${escapeHtml(s.name)} — ${s.score} point${s.score === 1 ? "" : "s"}</div>`;
    box.appendChild(cardRow(s.held));
    const note = document.createElement("div");
    note.className = "note";
    note.textContent = s.passed.length ? `dealt ${s.dealt.map(cardShort).join(" ")}; passed ${s.passed.map(cardShort).join(" ")} to ${names[s.pass_to]}` : "no passing";
    box.appendChild(note);
    deal.appendChild(box);
  }
  const tableId = S.table ? S.table.id : "";
  const d = openDialog(
    `<h2 id="dialog-title">${escapeHtml(title)}</h2>${moon}${sheetHtml(S.hands, names, winners)}` +
    `<h3>The whole deal (after the pass)</h3><div id="deal-slot"></div>` +
    `<p class="dialog-actions" style="display:flex;gap:.6rem;flex-wrap:wrap">` +
    (winners && ROLE === "player" && typeof askRematch === "function" ? `<button class="btn" id="rematch">Play again</button>` : "") +
    (winners ? `<a class="btn" href="/">New game</a><a class="btn secondary" href="/history">History</a>` : `<button class="btn" id="next-hand" data-close>Next hand</button>`) +
    `<a class="btn secondary" href="/replay/${tableId}/${hand.number}" target="_blank" rel="noopener">Replay this hand</a>` +
    (ROLE === "player" ? `<a class="btn secondary" id="review-hand" href="/review/${tableId}/${hand.number}" target="_blank" rel="noopener">Review this hand</a>` : "") +
    (ROLE === "player" ? `<button class="btn secondary" id="play-again">Play this deal again</button>` : "") +
    (winners || ROLE === "player" ? `<button class="btn secondary" id="download-record">Download record</button>` : "") +
    (winners ? `<button class="btn secondary" data-close>Close</button>` : "") + `</p>`,
    winners ? null : "next-hand",
  );
  d.querySelector("#deal-slot").replaceWith(deal);
  d.querySelectorAll("[data-close]").forEach((b) => (b.onclick = closeDialog));
  const dl = d.querySelector("#download-record");
  if (dl) dl.onclick = () => downloadRecord(hand.number);
  const rematch = d.querySelector("#rematch");
  if (rematch) rematch.onclick = () => { askRematch(); closeDialog(); };
  const again = d.querySelector("#play-again");
  if (again) again.onclick = () => playAgain(S.table.id, hand.number, { headers: { "X-Hearts-Token": TOKEN } }, !winners);
}

// While the game is played its record (the finished hands) is the seats' alone: the seat's token goes
// in a header, never in a URL (which would land in logs and browser history).
async function downloadRecord(number) {
  const id = S.table.id;
  try {
    const res = await fetch(`/api/tables/${id}/record?hand=${number}`, ROLE === "player" ? { headers: { "X-Hearts-Token": TOKEN } } : {});
    if (!res.ok) {
      const data = await res.json().catch(() => ({}));
      throw new Error(typeof data.detail === "string" ? data.detail : `HTTP ${res.status}`);
    }
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a");
    a.href = url; a.download = `hearts-${id}-hand${number}.json`;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (e) { showMessage(`No record: ${e.message}`, true); }
}

async function loadScores() {
  if (!S.table) return;
  try {
    const res = await fetch(`/api/tables/${S.table.id}/hands`);
    if (res.ok) S.hands = await res.json();
  } catch { /* the score sheet fills in as hands finish */ }
}

function showScores() {
  if (!S.view) return;
  openDialog(`<h2 id="dialog-title">Scores</h2>${sheetHtml(S.hands, S.table.names, S.view.winners)}<p><button class="btn" data-close>Close</button></p>` +
    (S.lastHand ? `<p><button class="btn secondary" id="last-hand">Show the last hand</button></p>` : ""));
  const b = $("last-hand");
  if (b) b.onclick = () => showHandOver(S.lastHand, S.view.phase === "game-over" ? S.view.winners : null);
}

function showInvite() {
  if (!S.table) return;
  const watch = S.watchToken ? `${location.origin}/watch/${S.watchToken}` : location.href;
  const open = S.table.seats.filter((s) => s.kind === "human" && !s.joined);
  openDialog(`<h2 id="dialog-title">Invite</h2><p>Anyone with this link can watch (no hands are shown until a hand is over):</p>` +
    `<div class="link-row"><code>${escapeHtml(watch)}</code></div>` +
    (open.length && S.seat !== null ? `<p>${open.map((s) => escapeHtml(s.name)).join(", ")} ha${open.length > 1 ? "ve" : "s"} not joined yet.</p><p><button class="btn" id="fill">Fill empty seats with computer players</button></p>` : "") +
    `<p><button class="btn secondary" data-close>Close</button></p>`);
  const fill = $("fill");
  if (fill) fill.onclick = () => { send({ type: "fill", level: "medium" }); closeDialog(); };
}
