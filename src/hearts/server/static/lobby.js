// The lobby: your name, Play now, the open public tables as they change (pushed over /ws/lobby), a
// game against the computer, or a table with chosen rules and invite links.
"use strict";

let OPTIONS = null;
const $ = (id) => document.getElementById(id);

async function api(path, body, method = "POST") {
  const res = await fetch(path, body === undefined ? {} : {
    method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = data.detail;
    throw new Error(typeof detail === "string" ? detail : Array.isArray(detail) ? detail.map((d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ") : `HTTP ${res.status}`);
  }
  return data;
}

function seatNames(n) {
  return n === 4 ? ["South", "West", "North", "East"] : Array.from({ length: n }, (_, i) => `Seat ${i + 1}`);
}

function levelSelect(id, value, label, withHuman = false) {
  const sel = document.createElement("select");
  sel.id = id;
  sel.setAttribute("aria-label", label);
  if (withHuman) sel.add(new Option("a person (invite link)", "human"));
  for (const lv of OPTIONS.levels) sel.add(new Option(`computer: ${lv}`, `computer:${lv}`));
  for (const b of OPTIONS.bots) sel.add(new Option(`bot: ${b}`, `bot:${b}`));
  sel.value = value;
  return sel;
}

function defaultLevel() {
  const prefer = ["medium", "easy", "hard", "expert", "random"];
  return prefer.find((l) => OPTIONS.levels.includes(l)) || OPTIONS.levels[0];
}

function buildQuick() {
  const box = $("quick-levels");
  box.innerHTML = "";
  ["West", "North", "East"].forEach((name, i) => {
    const label = document.createElement("label");
    label.className = "field";
    label.textContent = `${name}`;
    const sel = levelSelect(`quick-level-${i}`, `computer:${defaultLevel()}`, `${name}'s level`);
    label.appendChild(sel);
    box.appendChild(label);
  });
}

function buildSeats() {
  const n = parseInt($("players").value, 10);
  const box = $("seats");
  box.innerHTML = "";
  seatNames(n).forEach((name, i) => {
    const wrap = document.createElement("div");
    wrap.className = "field";
    wrap.innerHTML = `<label class="field">${name}: name <input type="text" id="seat-name-${i}" maxlength="24" placeholder="${name}"></label>`;
    const sel = levelSelect(`seat-kind-${i}`, i < 2 ? "human" : `computer:${defaultLevel()}`, `${name} is`, true);
    wrap.appendChild(sel);
    box.appendChild(wrap);
  });
}

function seatSpec(value, name) {
  if (value === "human") return { kind: "human", name: name || null };
  const [kind, level] = value.split(":");
  return { kind, level, name: name || null };
}

function ruleOverrides() {
  const rules = { players: parseInt($("players").value, 10) };
  if ($("target").value) rules.target = parseInt($("target").value, 10);
  if ($("moon").value) rules.moon = $("moon").value;
  if ($("pass_cycle").value) rules.pass_cycle = $("pass_cycle").value;
  if ($("pass_count").value) rules.pass_count = parseInt($("pass_count").value, 10);
  if ($("bonus_card").value) rules.bonus_card = $("bonus_card").value === "none" ? null : $("bonus_card").value;
  if ($("ties").value) rules.ties = $("ties").value;
  if ($("points_on_first_trick").checked) rules.points_on_first_trick = true;
  if ($("queen_breaks_hearts").checked) rules.queen_breaks_hearts = true;
  if ($("hearts_free").checked) rules.hearts_must_be_broken = false;
  return rules;
}

function copyButton(text) {
  const b = document.createElement("button");
  b.className = "btn secondary";
  b.textContent = "Copy";
  b.setAttribute("aria-label", `Copy ${text}`);
  b.onclick = async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = "Copied"; } catch { b.textContent = "Select and copy"; }
  };
  return b;
}

function showLinks(data) {
  const box = $("links");
  box.innerHTML = "";
  for (const s of data.seats) {
    const row = document.createElement("div");
    row.className = "link-row";
    if (s.join_url) {
      row.innerHTML = `<strong>${escapeHtml(s.name)}</strong> <code>${escapeHtml(s.join_url)}</code>`;
      row.appendChild(copyButton(s.join_url));
      const open = document.createElement("a");
      open.href = s.join_url; open.textContent = "Take this seat"; open.className = "btn secondary";
      row.appendChild(open);
    } else {
      row.innerHTML = `<strong>${escapeHtml(s.name)}</strong> <span class="muted">computer (${escapeHtml(s.level)})</span>`;
    }
    box.appendChild(row);
  }
  const watch = document.createElement("div");
  watch.className = "link-row";
  watch.innerHTML = `<strong>Watch</strong> <code>${escapeHtml(data.watch_url)}</code>`;
  watch.appendChild(copyButton(data.watch_url));
  box.appendChild(watch);
  if (data.practice) {
    const note = document.createElement("p");
    note.innerHTML = `<span class="badge">practice · fixed seed</span> dealt from a chosen seed: not counted in the statistics`;
    box.appendChild(note);
  }
  $("created").hidden = false;
}

async function quickPlay() {
  $("quick-error").textContent = "";
  const levels = [0, 1, 2].map((i) => $(`quick-level-${i}`).value.split(":")[1]);
  try {
    const data = await api("/api/quick", { name: $("quick-name").value || null, levels, preset: $("quick-preset").value });
    location.href = new URL(data.play_url).pathname;
  } catch (e) { $("quick-error").textContent = e.message; }
}

async function createTable() {
  $("create-error").textContent = "";
  const n = parseInt($("players").value, 10);
  const seats = Array.from({ length: n }, (_, i) => seatSpec($(`seat-kind-${i}`).value, $(`seat-name-${i}`).value.trim()));
  const options = {};
  if ($("pause").value !== "") options.pause = parseFloat($("pause").value);
  if ($("standin_after").value !== "") options.standin_after = parseFloat($("standin_after").value);
  // Any table can be watched (a private one through its watch link), so this holds for both kinds.
  if ($("spectator-chat-held").checked) options.spectator_chat = false;
  const isPublic = $("public").checked;
  if (isPublic) {
    options.public = true;
    if ($("wait").value !== "") options.wait = parseFloat($("wait").value);
    if ($("clock-play").value !== "") {
      const play = parseFloat($("clock-play").value);
      options.clock = { play, pass: play * 2 };
    }
  }
  try {
    if (isPublic && !ME.name) await saveName();
    const data = await api("/api/tables", { preset: $("preset").value, rules: ruleOverrides(), seats, options });
    const mine = data.seats.find((s) => s.join_url);
    // A public table's first person's seat is its creator's; the other seats are the lobby's.
    if (isPublic && mine) { location.href = new URL(mine.join_url).pathname; return; }
    showLinks(data);
  } catch (e) { $("create-error").textContent = e.message; }
}

// ---------- your name, Play now, the open tables ----------

const ME = { name: null };
const LOBBY = { tables: new Map(), skew: 0 };

async function loadMe() {
  const me = await api("/api/me");
  ME.name = me.name;
  $("my-name").value = me.name || me.suggestion;
  $("my-name").placeholder = me.suggestion;
  $("my-rating").textContent = me.rating === null ? "" : `rating ${me.rating.toFixed(1)}`;
}

async function saveName() {
  $("name-error").textContent = "";
  try {
    const data = await api("/api/me", { name: $("my-name").value }, "PUT");
    ME.name = data.name;
    $("my-name").value = data.name;
    $("name-error").textContent = "";
    $("my-rating").textContent = `saved: you are ${data.name}`;
  } catch (e) { $("name-error").textContent = e.message; throw e; }
}

async function playNow() {
  $("now-error").textContent = "";
  try {
    if (!ME.name && $("my-name").value.trim()) await saveName();
    const data = await api("/api/play-now", {});
    location.href = data.play_url;
  } catch (e) { $("now-error").textContent = e.message; }
}

async function sit(id, seat) {
  $("sit-error").textContent = "";
  try {
    if (!ME.name) await saveName();
    const data = await api(`/api/tables/${id}/sit`, { seat });
    location.href = data.play_url;
  } catch (e) { $("sit-error").textContent = e.message; }
}

function waited(entry) {
  const s = Math.max(0, Math.round(Date.now() / 1000 - LOBBY.skew - entry.created_at));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

function renderLobby() {
  const box = $("lobby-tables");
  const tables = [...LOBBY.tables.values()].sort((a, b) => (a.status !== "waiting") - (b.status !== "waiting") || b.people - a.people || a.created_at - b.created_at);
  if (!tables.length) { box.innerHTML = `<p class="muted">No open table yet: press Play now, or create a public table below.</p>`; return; }
  box.innerHTML = "";
  for (const t of tables) {
    const row = document.createElement("div");
    row.className = "link-row lobby-table";
    row.id = `lobby-${t.id}`;
    const head = document.createElement("strong");
    head.textContent = `${t.rules}`;
    row.appendChild(head);
    const status = document.createElement("span");
    status.className = "muted";
    status.textContent = t.status === "waiting" ? ` · waiting ${waited(t)} for ${t.free} more` : ` · playing, hand ${t.hands_done + 1}`;
    row.appendChild(status);
    const seats = document.createElement("span");
    seats.className = "lobby-seats";
    for (const s of t.seats) {
      const el = document.createElement("span");
      el.className = `chip ${s.taken ? "" : "free"}`;
      const level = s.kind !== "human" && !s.name.includes(`(${s.level})`) ? ` (${s.level})` : ""; // a computer's name often says its level
      el.textContent = s.taken ? `${s.name}${level}${s.rating !== null ? ` · ${s.rating.toFixed(1)}` : ""}` : "free seat";
      seats.appendChild(el);
    }
    row.appendChild(seats);
    const free = t.seats.find((s) => !s.taken);
    const computer = t.status === "playing" && t.seats.find((s) => s.kind === "computer" && !s.claimed);
    if (!free && computer) {
      const b = document.createElement("button");
      b.className = "btn secondary";
      b.textContent = "Sit (from the next hand)";
      b.setAttribute("aria-label", `Take ${computer.name}'s seat at ${t.rules} from the next hand`);
      b.onclick = () => sit(t.id, computer.seat);
      row.appendChild(b);
    }
    if (free) {
      const b = document.createElement("button");
      b.className = "btn";
      b.textContent = "Sit";
      b.setAttribute("aria-label", `Sit at the table ${t.rules} (seat ${free.seat + 1})`);
      b.onclick = () => sit(t.id, free.seat);
      row.appendChild(b);
    }
    const watch = document.createElement("a");
    watch.className = "btn secondary";
    watch.href = t.watch;
    watch.textContent = "Watch";
    row.appendChild(watch);
    box.appendChild(row);
  }
}

function watchLobby() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/lobby`);
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.now) LOBBY.skew = Date.now() / 1000 - msg.now;
    if (msg.type === "lobby") { LOBBY.tables = new Map(msg.tables.map((t) => [t.id, t])); }
    else if (msg.type === "listed") LOBBY.tables.set(msg.table.id, msg.table);
    else if (msg.type === "unlisted") LOBBY.tables.delete(msg.id);
    renderLobby();
  };
  ws.onclose = () => setTimeout(watchLobby, 2000);
}

async function init() {
  OPTIONS = await api("/api/options");
  for (const sel of [$("preset"), $("quick-preset")]) {
    for (const [name, text] of Object.entries(OPTIONS.presets)) {
      const o = new Option(name, name);
      o.title = text;
      sel.add(o);
    }
  }
  for (const m of OPTIONS.choices.moon) $("moon").add(new Option(m, m));
  $("pause").placeholder = String(OPTIONS.table_options.pause);
  const fan = $("fan");
  ["AH", "KH", "QS", "JD", "10C"].forEach((c, i) => {
    const el = cardElement(c);
    el.style.transform = `rotate(${(i - 2) * 9}deg) translateY(${Math.abs(i - 2) * 5}px)`;
    fan.appendChild(el);
  });
  buildQuick();
  buildSeats();
  $("players").onchange = buildSeats;
  $("quick-play").onclick = quickPlay;
  $("create").onclick = createTable;
  $("quick-name").value = localStorage.getItem("hearts.name") || "";
  $("quick-name").onchange = () => localStorage.setItem("hearts.name", $("quick-name").value);
  $("save-name").onclick = () => saveName().catch(() => {});
  $("play-now").onclick = playNow;
  watchLobby();
  setInterval(renderLobby, 5000); // the waiting times move on
  await loadMe();
}

init().catch((e) => { $("quick-error").textContent = `Cannot reach the server: ${e.message}`; });
