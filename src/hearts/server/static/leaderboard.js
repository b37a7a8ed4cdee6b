// The leaderboard (/leaderboard) and a player's page (/players/{name}): ratings from rated public games.
"use strict";

const $ = (id) => document.getElementById(id);

function when(t) { return new Date(t * 1000).toLocaleString(); }

async function loadBoard() {
  const data = await (await fetch("/api/leaderboard")).json();
  const box = $("board");
  box.classList.remove("muted");
  if (!data.players.length) { box.textContent = `No one has ${data.min_games} rated games yet: games at public tables are rated.`; return; }
  let html = `<p class="muted">Players with at least ${data.min_games} rated games (public tables only). The rating is shown cautiously: mu − 3 sigma.</p>` +
    `<table class="sheet stack compact" id="leaderboard"><thead><tr><th>#</th><th>Player</th><th>Rating</th><th>Games</th><th>Win share</th><th>Average points a hand</th></tr></thead><tbody>`;
  data.players.forEach((r, i) => {
    html += `<tr><td data-label="#">${i + 1}</td><td><a href="/players/${encodeURIComponent(r.name)}">${escapeHtml(r.name)}</a>${r.kind !== "person" ? ` <span class="muted">(${escapeHtml(r.kind)})</span>` : ""}</td>` +
      `<td data-label="Rating" class="rating">${r.rating.toFixed(1)}</td><td data-label="Games">${r.games}</td>` +
      `<td data-label="Win share">${Math.round(r.win_share * 100)}%</td><td data-label="Average points a hand">${r.average_points ?? "–"}</td></tr>`;
  });
  box.innerHTML = html + "</tbody></table>";
}

// The rating shown to a player before their first rated game: mu − 3 sigma of a fresh openskill
// rating (hearts.server.community.shown_rating).
const FIRST_RATING = 0;

/** The rating after each game, oldest first, as a small line chart (SVG, no library); ``fromStart``:
 *  the first point is the rating before the first game (so a single game already draws a line). */
function chart(points, fromStart) {
  if (points.length < 2) return "";
  const w = 320, h = 90, lo = Math.min(...points), hi = Math.max(...points), span = hi - lo || 1;
  const xy = points.map((p, i) => `${(i * (w - 10)) / (points.length - 1) + 5},${h - 5 - ((p - lo) * (h - 10)) / span}`);
  const games = points.length - (fromStart ? 1 : 0);
  const over = !fromStart ? `the last ${games} games` : games === 1 ? "the first game" : `all ${games} games`;
  return `<svg class="rating-chart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="Rating over ${over}, from ${points[0].toFixed(1)} to ${points[points.length - 1].toFixed(1)}">` +
    `<polyline fill="none" stroke="currentColor" stroke-width="2" points="${xy.join(" ")}"/></svg>`;
}

async function loadPlayer(name) {
  const res = await fetch(`/api/players/${encodeURIComponent(name)}`);
  const box = $("board");
  box.classList.remove("muted");
  if (!res.ok) { box.textContent = "No player by that name."; return; }
  const p = await res.json();
  $("board-title").textContent = p.name;
  document.title = `Hearts — ${p.name}`;
  let html = `<p>Rating <strong id="player-rating">${p.rating === null ? "not rated yet" : p.rating.toFixed(1)}</strong> · ${p.games} rated game${p.games === 1 ? "" : "s"}</p>`;
  const ratings = p.recent.map((g) => g.rating).reverse();
  // Every rated game is listed: the chart can start where every player starts.
  const fromStart = p.games === p.recent.length;
  html += chart(fromStart ? [FIRST_RATING, ...ratings] : ratings, fromStart);
  if (p.recent.length) {
    html += `<table class="sheet stack compact"><thead><tr><th>When</th><th>Place</th><th>Points</th><th>Rating after</th><th></th></tr></thead><tbody>`;
    for (const g of p.recent) {
      html += `<tr><td>${escapeHtml(when(g.at))}</td><td data-label="Place">${g.rank}${g.won ? " (won)" : ""}</td><td data-label="Points">${g.points}</td>` +
        `<td data-label="Rating after">${g.rating.toFixed(1)}</td><td><a href="/replay/${g.table}/${g.hands}">replay</a> <a href="/review/${g.table}/${g.hands}?name=${encodeURIComponent(g.name)}">review</a></td></tr>`;
    }
    html += "</tbody></table>";
  }
  box.innerHTML = html;
}

const parts = location.pathname.split("/");
(parts[1] === "players" ? loadPlayer(decodeURIComponent(parts[2])) : loadBoard()).catch((e) => { $("board").textContent = `Cannot reach the server: ${e.message}`; });
