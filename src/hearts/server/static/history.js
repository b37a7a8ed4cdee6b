// History and stats: every stored game with its hands (replay, record download) and per-player figures.
"use strict";

const $ = (id) => document.getElementById(id);

function when(t) { return new Date(t * 1000).toLocaleString(); }

async function loadStats() {
  const rows = await (await fetch("/api/stats")).json();
  if (!rows.length) { $("stats").textContent = "No hands counted yet (practice games, with a fixed seed, and abandoned games are not counted)."; return; }
  // One row per player (a person by their browser, a computer by its level), never merged by name.
  // On a phone each player is a line of its name and a line of labelled figures (style.css).
  let html = `<p class="muted">Practice games (a fixed seed) and abandoned games are not counted.</p><table class="sheet stack compact"><thead><tr><th>Player</th><th>Games</th><th>Wins</th><th>Hands</th><th>Average points a hand</th><th>Moons</th><th>Faults</th></tr></thead><tbody>`;
  for (const r of rows) {
    html += `<tr><td title="${escapeHtml(r.player)}">${escapeHtml(r.name)}${r.kind !== "human" ? ` <span class="muted">(${escapeHtml(r.kind)})</span>` : ""}</td>` +
      `<td data-label="Games">${r.games}</td><td data-label="Wins">${r.wins}</td><td data-label="Hands">${r.hands}</td>` +
      `<td data-label="Average points a hand">${r.average_points ?? "–"}</td><td data-label="Moons">${r.moons}</td><td data-label="Faults">${r.faults ?? 0}</td></tr>`;
  }
  $("stats").innerHTML = html + "</tbody></table>";
  $("stats").classList.remove("muted");
}

async function toggleHands(id, cell, button, done) {
  if (cell.dataset.loaded) { cell.hidden = !cell.hidden; return; }
  const hands = await (await fetch(`/api/tables/${id}/hands`)).json();
  cell.dataset.loaded = "1";
  if (!hands.length) { cell.textContent = "No hand finished yet."; return; }
  cell.innerHTML = hands.map((h) =>
    `<div class="link-row">Hand ${h.number}: ${h.points.join(" / ")} (totals ${h.totals.join(" / ")}) ` +
    `<a href="/replay/${id}/${h.number}">replay</a>${done ? ` <a href="/api/tables/${id}/record?hand=${h.number}">record</a>` : ""}</div>`).join("");
  button.setAttribute("aria-expanded", "true");
}

async function loadGames() {
  const games = await (await fetch("/api/history")).json();
  if (!games.length) { $("games").textContent = "No games yet: start one from the lobby."; return; }
  const box = $("games");
  box.innerHTML = "";
  box.classList.remove("muted");
  const table = document.createElement("table");
  table.className = "sheet stack"; // on a phone each game is a block of labelled lines (style.css)
  table.innerHTML = `<thead><tr><th>Started</th><th class="l">Players</th><th>Totals</th><th>Hands</th><th class="l">Result</th><th></th></tr></thead>`;
  const body = document.createElement("tbody");
  for (const g of games) {
    const tr = document.createElement("tr");
    const result = (g.status === "over" ? `${g.winners.map((w) => escapeHtml(g.names[w])).join(" & ")} won` : g.status === "abandoned" ? "abandoned" : "in progress") +
      (g.practice ? ` <span class="badge" title="Dealt from a seed chosen when the table was made: not counted in the statistics">practice · fixed seed</span>` : "");
    const done = g.status !== "playing";  // a game's record is everyone's once it is over
    tr.innerHTML = `<td data-label="Started">${when(g.created_at)}</td><td class="l" data-label="Players">${g.names.map((n, i) => `${escapeHtml(n)}${g.seats[i] && g.seats[i] !== "human" && !n.includes(g.seats[i]) ? ` <span class="muted">(${escapeHtml(g.seats[i])})</span>` : ""}`).join(", ")}</td>` +
      `<td data-label="Totals" class="nowrap">${g.totals.join(" / ")}</td><td data-label="Hands">${g.hands}</td><td class="l" data-label="Result">${result}</td><td></td>`;
    const btn = document.createElement("button");
    btn.className = "btn secondary"; btn.textContent = "Hands"; btn.setAttribute("aria-expanded", "false");
    const more = document.createElement("tr");
    const cell = document.createElement("td");
    cell.colSpan = 6; cell.hidden = true; more.appendChild(cell);
    btn.onclick = () => { cell.hidden = false; toggleHands(g.id, cell, btn, done); };
    tr.lastChild.appendChild(btn);
    if (g.hands && done) {
      const dl = document.createElement("a");
      dl.href = `/api/tables/${g.id}/record`; dl.textContent = " record"; dl.setAttribute("aria-label", "Download the game record");
      tr.lastChild.appendChild(dl);
    }
    body.appendChild(tr); body.appendChild(more);
  }
  table.appendChild(body);
  box.appendChild(table);
}

loadStats().catch((e) => { $("stats").textContent = `Cannot load: ${e.message}`; });
loadGames().catch((e) => { $("games").textContent = `Cannot load: ${e.message}`; });
