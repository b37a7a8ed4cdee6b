// The review of one finished hand: the expert's valuation of each decision of one seat, stepped
// through with your card and the expert's side by side, coloured by mark, the cost and the reason;
// a bar along the hand shows where points were lost. The review is worked out by the server in the
// background: this page asks, shows the progress, and asks again until it is made.
"use strict";

const $ = (id) => document.getElementById(id);
const [, , TABLE, HAND] = location.pathname.split("/");
// The seat's link token, kept by its table page in this browser: while the game is played only a
// seat may have its hands reviewed, and it goes in a header, never in a URL.
const TOKEN = localStorage.getItem(`hearts.seat.${TABLE}`);
const MARK_WORDS = { best: "best", good: "good", inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };
let R = null, H = null, at = 0, seat = null;

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

function costText(d) {
  if (d.mark === "best") return "no cost: the expert's choice, or as good";
  return `cost ${d.cost.toFixed(2)} points expected (± ${d.se.toFixed(2)}, ${d.worlds} deals sampled)`;
}

function draw() {
  const d = R.decisions[at];
  $("where").textContent = `Decision ${at + 1} of ${R.decisions.length}`;
  $("prev").disabled = at === 0;
  $("next").disabled = at === R.decisions.length - 1;
  document.querySelectorAll("#lossbar .seg").forEach((s, i) => s.classList.toggle("now", i === at));
  const box = $("decision");
  box.className = `decision mark-${d.mark}`;
  box.innerHTML =
    `<h3>${escapeHtml(where(d))} <span class="mark mark-${d.mark}">${MARK_WORDS[d.mark]}</span></h3>` +
    `<div class="versus"><div class="side"><div class="who">You</div><div id="mine"></div></div>` +
    `<div class="side expert"><div class="who">The expert</div><div id="theirs"></div></div></div>` +
    `<p class="cost">${escapeHtml(costText(d))}</p><p class="reason">${escapeHtml(d.reason)}</p>` +
    (d.expert_reason ? `<p class="muted">The expert: ${escapeHtml(d.expert_reason)}</p>` : "");
  $("mine").replaceWith(cardsRow(d.played, `mine mark-${d.mark}`));
  $("theirs").replaceWith(cardsRow(d.best, "theirs"));
}

function show(review) {
  R = review;
  if (!$("seat-box").hidden) $("seat").value = String(R.seat);
  $("progress-box").hidden = true;
  $("review").hidden = false;
  const lost = R.decisions.reduce((sum, d) => sum + d.cost, 0);
  const counts = Object.entries(R.marks).filter(([, n]) => n).map(([m, n]) => `${n} ${m}`).join(", ");
  $("summary").textContent = `${R.name} took ${R.points} point${R.points === 1 ? "" : "s"}; against the expert's choices ` +
    `${lost.toFixed(1)} points were lost in expectation (${counts}).` + (R.moon ? ` ${R.moon.text.charAt(0).toUpperCase()}${R.moon.text.slice(1)}.` : "");
  const costliest = R.costliest.map((n) => R.decisions[n]);
  $("story").innerHTML = costliest.length
    ? "<h3>The costliest decisions</h3><ol>" + costliest.map((d) => `<li>${escapeHtml(where(d))}: ${escapeHtml(d.reason)} (${d.cost.toFixed(1)})</li>`).join("") + "</ol>"
    : "<p>Every decision was the expert's or as good.</p>";
  const bar = $("lossbar");
  bar.innerHTML = "";
  const most = Math.max(1, ...R.decisions.map((d) => d.cost));
  R.decisions.forEach((d, i) => {
    const seg = document.createElement("button");
    seg.type = "button";
    seg.className = `seg mark-${d.mark}`;
    seg.style.setProperty("--loss", String(Math.max(0.12, d.cost / most)));
    seg.setAttribute("role", "listitem");
    seg.setAttribute("aria-label", `${where(d)}: ${d.mark}, ${d.cost.toFixed(1)} points`);
    seg.title = `${where(d)}: ${d.mark} (${d.cost.toFixed(1)})`;
    seg.onclick = () => { at = i; draw(); };
    bar.appendChild(seg);
  });
  at = 0;
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
  $("review").hidden = true;
  $("progress-box").hidden = false;
  $("progress-text").textContent = "The expert is looking at your decisions…";
  for (;;) {
    let data;
    try { data = await ask(); } catch (e) { $("progress-box").hidden = true; $("summary").textContent = e.message; return; }
    if (data.status === "done") { show(data.review); return; }
    if (data.status === "failed") { $("progress-box").hidden = true; $("summary").textContent = data.error; return; }
    $("progress").max = Math.max(1, data.total);
    $("progress").value = data.done;
    $("progress-text").textContent = data.total ? `${data.done} of ${data.total} decisions reviewed` : "waiting for the expert…";
    await new Promise((r) => setTimeout(r, 600));
  }
}

async function init() {
  const res = await fetch(`/api/tables/${TABLE}/hands/${HAND}`);
  if (!res.ok) { $("summary").textContent = (await res.json().catch(() => ({}))).detail || "No such hand"; return; }
  H = await res.json();
  $("title").textContent = `Hand ${H.number} reviewed`;
  const info = await fetch(`/api/tables/${TABLE}`).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (info && info.status !== "playing") {  // over: any seat may be reviewed
    H.names.forEach((n, i) => $("seat").add(new Option(n, String(i))));
    const mine = new URLSearchParams(location.search).get("seat");
    seat = mine !== null ? parseInt(mine, 10) : null;
    if (seat !== null) $("seat").value = String(seat);
    $("seat-box").hidden = false;
    $("seat").onchange = () => { seat = parseInt($("seat").value, 10); follow(); };
  }
  $("prev").onclick = () => { if (at > 0) { at -= 1; draw(); } };
  $("next").onclick = () => { if (R && at < R.decisions.length - 1) { at += 1; draw(); } };
  $("worst").onclick = () => { if (R && R.costliest.length) { at = R.costliest[0]; draw(); } };
  $("again").onclick = (e) => { e.preventDefault(); playAgain(TABLE, H.number, TOKEN ? { headers: { "X-Hearts-Token": TOKEN } } : { seat: R ? R.seat : 0 }); };
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") $("next").click(); if (e.key === "ArrowLeft") $("prev").click(); });
  follow();
}

init();
