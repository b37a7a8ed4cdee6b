// The review of one finished hand: the expert's valuation of each decision of one seat, stepped
// through with your card and the expert's side by side, coloured by mark, the cost and the reason;
// a bar along the hand shows where points were lost. The review is worked out by the server in the
// background: this page asks, shows each decision's verdict as soon as it is made (the bar fills in
// decision by decision, under a progress line), and asks again until the whole hand is reviewed.
"use strict";

const $ = (id) => document.getElementById(id);
const [, , TABLE, HAND] = location.pathname.split("/");
// The seat's link token, kept by its table page in this browser: while the game is played only a
// seat may have its hands reviewed, and it goes in a header, never in a URL.
const TOKEN = localStorage.getItem(`hearts.seat.${TABLE}`);
// A mark as a count says it: "1 mistake", "2 mistakes", "3 best".
const PLURALS = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
const ASK_EVERY_MS = 300;
// The points of a cost not in your own points from which its parts are told (hearts.review.model.PARTS_SHOWN).
const PARTS_SHOWN = 0.5;
// decisions[n]: decision n's review once it is made (the plays come first, the pass last).
let R = null, H = null, at = 0, seat = null, decisions = [], total = 0, follows = 0;

function made() { return decisions.filter(Boolean); }
// The reviewed decision before or after ``from`` (-1 when there is none).
function step(from, by) {
  for (let i = from + by; i >= 0 && i < decisions.length; i += by) if (decisions[i]) return i;
  return -1;
}

function counted(n, mark) { return `${n} ${n === 1 ? mark : PLURALS[mark] || mark}`; }
function tenths(x) { return (Math.round(x * 10) / 10).toFixed(1); }
// The expert's reason in words, without its search's figures (they end it in brackets).
function words(reason) { return reason.replace(/\s*\([^()]*\d[^()]*\)\s*$/, ""); }

function cardsRow(codes, cls = "") {
  const row = document.createElement("div");
  row.className = `card-row ${cls}`;
  for (const c of codes) row.appendChild(cardElement(c));
  return row;
}

function where(d) {
  if (d.kind === "pass") return "The pass";
  const t = H.tricks[d.trick];
  const before = t.plays.slice(0, d.position).map((p) => `${H.names[p.seat]} ${cardShort(p.card)}`);
  return `Trick ${d.trick + 1}: ` + (d.position === 0 ? "you led" : `after ${before.join(", ")}`);
}

// What the cost is, in points of the hand, and its parts: your own points, and the rest (a moon's
// points for the others, the game's end) when there is any, so that the parts add up to the cost.
function costText(d) {
  if (d.mark === "best") return "No cost: the expert's own choice.";
  if (d.cost < 0.05) return `No cost the search could measure: the expert chose otherwise, but valued yours as high (over ${d.worlds} sampled deals).`;
  const own = Math.round(d.own * 10) / 10, rest = Math.round(d.cost * 10) / 10 - own;
  const parts = Math.abs(rest) >= PARTS_SHOWN
    ? ` = ${tenths(own)} of your own points ${rest >= 0 ? "+" : "−"} ${tenths(Math.abs(rest))} from the others' points (a moon) and the game's end`
    : "";
  return `Cost ${tenths(d.cost)} points expected (± ${tenths(d.se)})${parts}: what your choice gave up against the expert's, over ${d.worlds} deals sampled from what you could see.`;
}

function draw() {
  const d = decisions[at];
  if (!d) return;
  $("where").textContent = `Decision ${at + 1} of ${total || decisions.length}`;
  $("prev").disabled = step(at, -1) < 0;
  $("next").disabled = step(at, 1) < 0;
  document.querySelectorAll("#lossbar .seg").forEach((s, i) => s.classList.toggle("now", i === at));
  const box = $("decision");
  box.className = `decision mark-${d.mark}`;
  const expert = words(d.expert_reason);
  box.innerHTML =
    `<h3>${escapeHtml(where(d))} <span class="mark mark-${d.mark}">${d.mark}</span></h3>` +
    `<div class="versus"><div class="side"><div class="who">You</div><div id="mine"></div></div>` +
    `<div class="side expert"><div class="who">The expert</div><div id="theirs"></div></div></div>` +
    `<p class="cost">${escapeHtml(costText(d))}</p><p class="reason">${escapeHtml(d.reason)}</p>` +
    (expert && expert !== d.reason && !d.reason.includes(expert) ? `<p class="muted">The expert: ${escapeHtml(expert)}</p>` : "");
  $("mine").replaceWith(cardsRow(d.played, `mine mark-${d.mark}`));
  $("theirs").replaceWith(cardsRow(d.best, "theirs"));
}

// The bar along the hand: a segment per decision reviewed, coloured by its mark, its height the
// points it lost; a grey one for each decision still being reviewed.
function drawBar() {
  const bar = $("lossbar");
  bar.innerHTML = "";
  const most = Math.max(1, ...made().map((d) => d.cost));
  for (let i = 0; i < Math.max(total, decisions.length); i++) {
    const d = decisions[i];
    const seg = document.createElement("button");
    seg.type = "button";
    seg.setAttribute("role", "listitem");
    if (d) {
      seg.className = `seg mark-${d.mark}`;
      seg.style.setProperty("--loss", String(Math.max(0.12, d.cost / most)));
      seg.setAttribute("aria-label", `${where(d)}: ${d.mark}, ${tenths(d.cost)} points`);
      seg.title = `${where(d)}: ${d.mark} (${tenths(d.cost)})`;
      seg.onclick = () => { at = i; draw(); };
    } else {
      seg.className = "seg pending";
      seg.disabled = true;
      seg.setAttribute("aria-label", `decision ${i + 1}: being reviewed`);
    }
    bar.appendChild(seg);
  }
  document.querySelectorAll("#lossbar .seg").forEach((s, i) => s.classList.toggle("now", i === at));
}

function showSoFar(list, of) {
  const first = made().length === 0;
  decisions = [];
  for (const d of list) decisions[d.number] = d;
  total = of;
  if (!made().length) return;
  $("review").hidden = false;
  $("worst").hidden = true;
  if (first || !decisions[at]) at = step(-1, 1);
  drawBar();
  draw();
}

function show(review) {
  R = review;
  if (!$("seat-box").hidden) $("seat").value = String(R.seat);
  $("progress-box").hidden = true;
  $("review").hidden = false;
  $("worst").hidden = false;
  $("title").textContent = `Hand ${H.number} reviewed`;
  const keep = made().length ? at : 0;
  decisions = R.decisions;
  total = R.decisions.length;
  const counts = Object.entries(R.marks).filter(([, n]) => n).map(([m, n]) => counted(n, m)).join(", ");
  const rest = Math.round((R.total_cost - R.own_cost) * 10) / 10;
  const parts = Math.abs(rest) >= PARTS_SHOWN
    ? ` (${tenths(R.own_cost)} of your own points, ${rest >= 0 ? "" : "less "}${tenths(Math.abs(rest))} from the others' points (moons) and the game's end)`
    : "";
  $("summary").textContent = `${R.name} took ${R.points} point${R.points === 1 ? "" : "s"}. Against the expert's choices ` +
    `${tenths(R.total_cost)} points were lost in expectation${parts}: each decision's cost added up, ` +
    `each the points it gave up at that moment over deals sampled from what you could see (${counts}).` +
    (R.moon ? ` ${R.moon.text.charAt(0).toUpperCase()}${R.moon.text.slice(1)}.` : "");
  const costliest = R.costliest.map((n) => R.decisions[n]);
  $("story").innerHTML = costliest.length
    ? "<h3>The costliest decisions</h3><ol>" + costliest.map((d) => `<li>${escapeHtml(where(d))}: ${escapeHtml(d.reason)} (${tenths(d.cost)})</li>`).join("") + "</ol>"
    : "<p>No decision cost more than half a point against the expert's.</p>";
  drawBar();
  at = Math.min(keep, decisions.length - 1);
  draw();
}

async function ask() {
  const headers = { "Content-Type": "application/json" };
  if (TOKEN) headers["X-Hearts-Token"] = TOKEN;
  const res = await fetch(`/api/tables/${TABLE}/hands/${HAND}/review`, {
    method: "POST", headers, body: JSON.stringify(seat === null ? {} : { seat }),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(typeof data.detail === "string" ? data.detail : `HTTP ${res.status}`);
  return data;
}

async function follow() {
  const mine = ++follows;  // a newer follow (another seat chosen) ends this one
  R = null; decisions = []; total = 0; at = 0;
  $("review").hidden = true;
  $("summary").textContent = "";
  $("story").innerHTML = "";
  $("title").textContent = `Hand ${H.number} review`;
  $("progress-box").hidden = false;
  $("progress-text").textContent = "The expert is looking at your decisions…";
  for (;;) {
    let data;
    try { data = await ask(); } catch (e) { $("progress-box").hidden = true; $("summary").textContent = e.message; return; }
    if (mine !== follows) return;
    if (data.status === "done") { show(data.review); return; }
    if (data.status === "failed") { $("progress-box").hidden = true; $("summary").textContent = data.error; return; }
    $("progress").max = Math.max(1, data.total);
    $("progress").value = data.done;
    $("progress-text").textContent = data.total ? `${data.done} of ${data.total} decisions reviewed…` : "Waiting for the expert…";
    if ((data.decisions || []).length > made().length || data.total !== total) showSoFar(data.decisions || [], data.total);
    await new Promise((r) => setTimeout(r, ASK_EVERY_MS));
  }
}

async function init() {
  const res = await fetch(`/api/tables/${TABLE}/hands/${HAND}`);
  if (!res.ok) { $("summary").textContent = (await res.json().catch(() => ({}))).detail || "No such hand"; return; }
  H = await res.json();
  $("title").textContent = `Hand ${H.number} review`;
  const info = await fetch(`/api/tables/${TABLE}`).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (info && info.status !== "playing") {  // over: any seat may be reviewed
    H.names.forEach((n, i) => $("seat").add(new Option(n, String(i))));
    const query = new URLSearchParams(location.search);
    const chosen = query.get("seat");
    // A player's page names its player, whose seat its visitors come to see (not their own).
    const named = H.names.indexOf(query.get("name"));
    seat = chosen !== null ? parseInt(chosen, 10) : named >= 0 ? named : null;
    if (seat !== null) $("seat").value = String(seat);
    $("seat-box").hidden = false;
    $("seat").onchange = () => { seat = parseInt($("seat").value, 10); follow(); };
  }
  $("prev").onclick = () => { const i = step(at, -1); if (i >= 0) { at = i; draw(); } };
  $("next").onclick = () => { const i = step(at, 1); if (i >= 0) { at = i; draw(); } };
  $("worst").onclick = () => { if (R && R.costliest.length) { at = R.costliest[0]; draw(); } };
  $("again").onclick = (e) => { e.preventDefault(); playAgain(TABLE, H.number, TOKEN ? { headers: { "X-Hearts-Token": TOKEN } } : { seat: R ? R.seat : 0 }); };
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") $("next").click(); if (e.key === "ArrowLeft") $("prev").click(); });
  follow();
}

init();
