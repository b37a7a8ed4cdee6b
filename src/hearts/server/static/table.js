// The table: one websocket to the server, which owns the game. This page only shows the seat's view
// the server sends and asks for moves; every rule (legal cards, passing, scoring) is the server's.
"use strict";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const path = location.pathname.split("/");
const ROLE = path[1] === "watch" ? "spectator" : "player";
const TOKEN = path[2];

const S = {
  ws: null, seat: null, view: null, table: null, seq: 0, selected: new Set(), hint: null,
  hands: [], queue: [], busy: false, watchToken: null, retry: 0, lastHand: null, closedForGood: false,
  errorTimer: null, received: null, tableAt: 0, sent: null,
  finished: null, // the finished trick left on the table: {at, skip} (see holdFinishedTrick)
  hintReply: null, // the last hint's {text, details}, shown until the table moves
};

// ---------- connection ----------

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${TOKEN}`);
  S.ws = ws;
  ws.onopen = () => { S.retry = 0; };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    onMessage(msg);
  };
  ws.onclose = (ev) => {
    if (ev.code === 4404 || S.closedForGood) return;
    showMessage("Connection lost — reconnecting…", true);
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(connect, 300 * 2 ** S.retry);
  };
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) { S.ws.send(JSON.stringify(msg)); return true; }
  showMessage("Not connected: wait a moment", true);
  return false;
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.queue = [];
      S.seat = msg.seat; S.table = msg.table; S.seq = msg.seq;
      // The review page (opened in a new tab) asks for this seat's reviews with its token in a header.
      if (ROLE === "player") keepSeat(msg.table.id, TOKEN, msg.view.phase === "game-over");
      S.watchToken = msg.watch_token; S.lastHand = msg.last_hand; S.selected = keptChoice(S.view, msg.view); S.hint = null;
      S.view = msg.view;
      S.tableAt = performance.now(); S.sent = null; dropFinishedTrick();
      messageIsError = false; clearTimeout(S.errorTimer); // connected again: "reconnecting" is over now
      $("hint").title = `Hint: the ${msg.hint_level} player's move (H)`;
      document.title = `Hearts — ${S.table.names.join(", ")}`;
      clearTrick(); renderTrickFromView(); render(); loadScores();
      break;
    case "table":
      S.table = msg.table; S.tableAt = performance.now(); renderSeats(); if (S.view) renderStatus();
      break;
    case "update":
      S.queue.push(msg); pump();
      break;
    case "hint":
      showHint(msg);
      break;
    case "error":
      if (msg.about === "connect") { S.closedForGood = true; showMessage(`${msg.message}. Check the link.`, true); return; }
      if (msg.about === "play" || msg.about === "pass" || msg.about === "moon" || msg.about === "claim") S.sent = null;
      showMessage(withSymbols(msg.message), true);
      break;
  }
}

// A reconnect's fresh view keeps the cards chosen to pass while that same pass is still to be made
// (a page that just opened has chosen nothing; a new hand or a pass made meanwhile starts afresh).
function keptChoice(before, now) {
  if (!before || S.seat === null || now.phase !== "pass" || now.has_passed[S.seat]) return new Set();
  if (before.hand_number !== now.hand_number) return new Set();
  return new Set([...S.selected].filter((code) => now.hand.includes(code)));
}

async function pump() {
  if (S.busy) return;
  S.busy = true;
  try {
    while (S.queue.length) await applyUpdate(S.queue.shift());
  } finally { S.busy = false; }
}

// ---------- geometry ----------

function players() { return S.view.rules.players; }
function bottomSeat() { return S.seat ?? 0; }
function rel(seat) { return (seat - bottomSeat() + players()) % players(); }

/** Where a seat sits around the table: an angle (degrees, 0 = right, 90 = top) per relative position. */
function angleOf(seat) {
  const n = players(), r = rel(seat);
  if (r === 0) return 270;
  if (n === 3) return r === 1 ? 160 : 20;
  return 180 - ((r - 1) * 180) / (n - 2);
}

function seatPos(seat) {
  const a = (angleOf(seat) * Math.PI) / 180;
  const narrow = innerWidth < 640;
  if (rel(seat) === 0) return { x: 50, y: 80 }; // only spectators draw the bottom seat
  // On a phone the side seats keep to the edges, clear of the trick between them.
  return { x: 50 + Math.cos(a) * (narrow ? 35 : 40), y: 41 - Math.sin(a) * (narrow ? 28 : 31) };
}

function trickOffset(seat) {
  const a = (angleOf(seat) * Math.PI) / 180;
  return { dx: Math.cos(a) * 0.78, dy: -Math.sin(a) * 0.56, rot: ((seat * 37) % 14) - 7 };
}

function nameOf(seat) { return S.table ? S.table.names[seat] : `Seat ${seat + 1}`; }

// ---------- presence ----------

/** A person who joined and dropped: {takeoverIn: whole seconds until a computer plays for them (0: it
 *  does now), or null when the table waits for them; standIn}. null for anyone who is here. */
function absence(seat) {
  const info = S.table ? S.table.seats[seat] : null;
  if (!info || info.kind !== "human" || !info.joined || info.connected) return null;
  const since = (performance.now() - S.tableAt) / 1000; // the server's figures are as of its message
  const left = info.takeover_in === null || info.takeover_in === undefined ? null : Math.max(0, Math.ceil(info.takeover_in - since));
  return { takeoverIn: info.stand_in ? 0 : left, standIn: info.stand_in };
}

/** "Ann is away — a computer plays for Ann in 20 s", or "" when the seat is here. */
function awayText(seat) {
  const a = absence(seat);
  if (!a) return "";
  const name = nameOf(seat);
  if (a.takeoverIn === null) return `${name} is away — waiting for ${name} to come back`;
  if (a.takeoverIn > 0) return `${name} is away — a computer plays for ${name} in ${a.takeoverIn} s`;
  return `${name} is away — a computer is playing for ${name}`;
}

/** The short form under a seat's name. */
function awayShort(seat) {
  const a = absence(seat);
  if (!a) return "";
  if (a.takeoverIn === null) return " · away";
  return a.takeoverIn > 0 ? ` · away, computer in ${a.takeoverIn} s` : " · away, computer playing";
}

// ---------- rendering ----------

function render() {
  if (!S.view) return;
  autoPlay();
  renderChips(); renderSeats(); renderHand(); renderActions(); renderStatus();
}

// When one card is all you may play, it is played for you after a moment, and said so (a setting, on by
// default: "only legal card" in the bar), as other Hearts tables do.
function autoPlay() {
  const v = S.view;
  if (ROLE !== "player" || !Settings.autoPlay || v.phase !== "play" || !v.to_move.includes(S.seat)) return;
  if (!v.legal || v.legal.length !== 1 || S.auto === S.seq) return;
  const seq = S.seq, card = v.legal[0];
  S.auto = seq;
  setTimeout(() => { if (S.seq === seq && S.view.phase === "play") sendMove({ type: "play", card, seq }); }, 900 + 600 * Settings.speed);
}

function renderChips() {
  const v = S.view, chips = $("chips");
  const dir = v.direction === "hold" ? "no passing this hand" : `pass ${v.direction}`;
  chips.innerHTML = "";
  const add = (text, cls = "") => { const c = document.createElement("span"); c.className = `chip ${cls}`; c.textContent = text; chips.appendChild(c); };
  add(`Hand ${v.hand_number}`);
  add(dir);
  add(v.hearts_broken ? "♥ broken" : "♥ not broken", v.hearts_broken ? "on" : "");
  add(`to ${v.rules.target}`);
  if (S.seat === null) add("watching");
  if (S.table && S.table.again_of) {
    add(`practice · hand ${S.table.again_of.hand} again`, "practice");
    chips.lastChild.title = "A finished hand dealt again: not counted in the statistics";
  } else if (S.table && S.table.practice) {
    add("practice · fixed seed", "practice");
    chips.lastChild.title = "Dealt from a seed chosen when the table was made: not counted in the statistics";
  }
  if (S.table && S.table.status === "abandoned") add("abandoned");
}

function renderSeats() {
  if (!S.view) return;
  const box = $("seats"), v = S.view;
  box.innerHTML = "";
  $("table").classList.toggle("crowded", players() >= 5); // five or six seats: narrower name plates on a phone
  for (let s = 0; s < players(); s++) {
    if (S.seat !== null && s === S.seat) continue;
    const info = S.table ? S.table.seats[s] : null;
    const el = document.createElement("div");
    el.className = "seat";
    el.id = `seat-${s}`;
    const p = seatPos(s);
    el.style.left = `${p.x}%`; el.style.top = `${p.y}%`;
    const a = angleOf(s);
    if ((a > 135 || a < 45) && rel(s) !== 0) el.classList.add("vertical");
    if (v.to_move.includes(s)) el.classList.add("to-move");
    const away = info && info.kind === "human" && !info.connected;
    const kind = !info ? "" : info.fault ? ` · ${info.stand_in_level} stand-in for ${info.stand_in_for} (${info.fault})` :
      info.kind === "human" ? (info.joined ? awayShort(s) : " · waiting to join") : ` · ${info.kind === "bot" ? "bot" : "computer"}`;
    if (absence(s)) el.classList.add("away");
    el.setAttribute("aria-label", `${nameOf(s)}: ${v.hand_sizes[s]} cards, ${v.points[s]} points this hand, ${v.totals[s]} in total${v.to_move.includes(s) ? ", to move" : ""}${absence(s) ? `. ${awayText(s)}` : ""}`);
    el.innerHTML = `<div class="nameplate"><span class="dot ${away ? "away" : ""}" title="${away ? "away" : "here"}"></span>${escapeHtml(nameOf(s))}</div>` +
      `<div class="sub">${v.points[s]} this hand · ${v.totals[s]} total${escapeHtml(kind)}</div>`;
    const backs = document.createElement("div");
    backs.className = "backs";
    backs.setAttribute("aria-hidden", "true");
    for (let i = 0; i < v.hand_sizes[s]; i++) backs.appendChild(cardBack());
    el.appendChild(backs);
    if (v.phase === "pass" && v.has_passed[s]) {
      const m = document.createElement("span"); m.className = "passed-mark"; m.textContent = "passed ✓"; el.appendChild(m);
    }
    box.appendChild(el);
  }
  const plate = $("me-plate");
  if (S.seat !== null) {
    plate.className = `seat ${v.to_move.includes(S.seat) ? "to-move" : ""}`;
    plate.innerHTML = `<div class="nameplate">${escapeHtml(nameOf(S.seat))} (you) · ${v.points[S.seat]} this hand · ${v.totals[S.seat]} total</div>`;
  } else plate.innerHTML = "";
}

/** Each card of the hand shows at least a strip this wide (px) to tap or click: a fingertip's width. */
const MIN_STRIP = 44;

/** The hand's card width, the visible strip of each overlapped card, and how many cards a row holds:
 *  one row where they fit with a strip of at least MIN_STRIP, else two or more overlapping rows. */
function handGeometry(count) {
  const phone = innerWidth < 640;
  const room = Math.min(innerWidth - 16, 1100);
  const cw = phone ? Math.min(68, Math.max(48, room * 0.17)) : Math.min(90, Math.max(54, innerWidth * 0.085));
  const perRow = Math.max(1, Math.floor((room - cw) / MIN_STRIP) + 1);
  const rows = Math.max(1, Math.ceil(count / perRow));
  const inRow = Math.ceil(count / rows);
  const strip = inRow > 1 ? Math.min(Math.max(MIN_STRIP, cw * 0.58), (room - cw) / (inRow - 1)) : cw;
  return { cw, strip, inRow };
}

function renderHand() {
  const v = S.view, box = $("hand");
  box.innerHTML = "";
  if (S.seat === null) return;
  const g = handGeometry(v.hand.length);
  box.style.setProperty("--cw", `${g.cw}px`);
  box.style.setProperty("--strip", `${g.strip}px`);
  let row = null;
  const myTurn = v.phase === "play" && v.to_move.includes(S.seat);
  const passing = v.phase === "pass" && !v.has_passed[S.seat];
  const received = v.received && v.tricks.length === 0 ? new Set(v.received) : new Set();
  v.hand.forEach((code) => {
    const el = cardElement(code, "button");
    if (myTurn && !v.legal.includes(code)) {
      el.classList.add("illegal");
      el.setAttribute("aria-label", `${cardLabel(code)} (not playable now)`);
    }
    if (passing && S.selected.has(code)) { el.classList.add("selected"); el.setAttribute("aria-pressed", "true"); }
    else if (passing) el.setAttribute("aria-pressed", "false");
    if (received.has(code)) el.classList.add("received");
    if (S.hint && S.hint.includes(code)) el.classList.add("hinted");
    el.addEventListener("click", () => onCard(code, el));
    if (!row || row.children.length >= g.inRow) {
      row = document.createElement("div");
      row.className = "hand-row";
      box.appendChild(row);
    }
    row.appendChild(el);
  });
}

function renderActions() {
  const v = S.view, box = $("actions");
  box.innerHTML = "";
  if (S.seat === null) return;
  if (v.phase === "pass" && !v.has_passed[S.seat]) {
    const b = document.createElement("button");
    b.className = "btn"; b.id = "confirm-pass";
    const need = v.rules.pass_count;
    b.textContent = `Pass ${need} to ${nameOf(v.pass_to)}`;
    b.disabled = S.selected.size !== need;
    b.onclick = () => sendMove({ type: "pass", cards: [...S.selected], seq: S.seq });
    box.appendChild(b);
  }
  // A claim of every remaining trick: the server checks it against every lie of the unseen cards and
  // refuses it with the reason, or plays the hand out.
  if (v.phase === "play" && v.to_move.includes(S.seat) && v.hand.length > 1) {
    const b = document.createElement("button");
    b.className = "btn secondary"; b.id = "claim"; b.textContent = "Claim the rest";
    b.title = "Claim every remaining trick: allowed only if your cards take them all, however the others' cards lie";
    b.onclick = () => sendMove({ type: "claim", seq: S.seq });
    box.appendChild(b);
  }
  if (v.moon_options.length) {
    const words = { "add-to-others": "Add the moon to everyone else", "subtract-from-self": "Take the moon off my score" };
    for (const o of v.moon_options) {
      const b = document.createElement("button");
      b.className = "btn"; b.textContent = words[o] || o; b.dataset.option = o;
      b.onclick = () => sendMove({ type: "moon", option: o, seq: S.seq });
      box.appendChild(b);
    }
  }
}

function renderStatus() {
  const v = S.view;
  let text = "";
  if (v.phase === "game-over") text = `Game over — ${v.winners.map(nameOf).join(" and ")} ${v.winners.length > 1 ? "share the win" : "wins"}`;
  else if (S.seat === null) text = v.to_move.length === 1 ? `${nameOf(v.to_move[0])} to ${v.phase === "pass" ? "pass" : "play"} — watching (hands are shown when a hand is over)` : "Watching — hands are shown when a hand is over";
  else if (v.phase === "pass") {
    if (!v.has_passed[S.seat]) text = `Choose ${v.rules.pass_count} cards to pass ${v.direction} to ${nameOf(v.pass_to)}`;
    else text = `You passed ${v.passed.map(cardShort).join(" ")} to ${nameOf(v.pass_to)} — waiting for ${v.to_move.map(nameOf).join(", ")}`;
  } else if (v.phase === "moon-choice") text = v.moon_options.length ? "You shot the moon! Choose how it scores." : `${nameOf(v.to_move[0])} shot the moon and is choosing…`;
  else if (v.to_move.includes(S.seat) && S.auto === S.seq) text = `Only ${cardShort(v.legal[0])} can be played: played for you`;
  else if (v.to_move.includes(S.seat)) text = v.trick.cards.length ? "Your turn" : "Your lead";
  else if (v.to_move.length) text = `${nameOf(v.to_move[0])} to play…`;
  // Whoever the table waits for and is away: say so, and what the table does about it.
  const away = v.phase === "game-over" ? [] : v.to_move.filter((s) => s !== S.seat && absence(s));
  if (away.length && v.to_move.length === 1) text = awayText(away[0]);
  else if (away.length) text += ` · ${away.map(awayText).join(" · ")}`;
  if (S.seat !== null && v.received && v.tricks.length === 0 && v.phase === "play")
    text += ` · received ${v.received.map(cardShort).join(" ")} from ${nameOf(v.pass_from)}`;
  if (S.hintReply && !messageIsError) { showHintReply(); return; }
  showMessage(text, false);
}

/** The hint: the move and its reason in words; the figures behind it (a search player's expected
 *  points and sample sizes) behind a "details" toggle. */
function showHintReply() {
  const m = $("message"), h = S.hintReply;
  m.classList.remove("error");
  m.textContent = h.text;
  if (!h.details) return;
  const b = document.createElement("button");
  b.type = "button"; b.className = "details-toggle"; b.id = "hint-details-toggle";
  b.textContent = h.open ? "hide details" : "details";
  b.setAttribute("aria-expanded", String(h.open));
  b.setAttribute("aria-controls", "hint-details");
  b.onclick = (e) => { e.stopPropagation(); h.open = !h.open; showHintReply(); };
  const d = document.createElement("div");
  d.className = "hint-details"; d.id = "hint-details"; d.hidden = !h.open;
  d.textContent = `The figures: ${h.details}`;
  m.append(" ", b, d);
}


let messageIsError = false;
function showMessage(text, isError) {
  const m = $("message");
  if (!isError && messageIsError) return; // let an error stay readable for a moment
  m.textContent = text;
  m.classList.toggle("error", !!isError);
  if (isError) {
    messageIsError = true;
    clearTimeout(S.errorTimer);
    S.errorTimer = setTimeout(() => { messageIsError = false; if (S.view) renderStatus(); }, 3500);
  }
}

// ---------- the trick ----------

function trickCard(seat, code) {
  const el = cardElement(code);
  const o = trickOffset(seat);
  el.dataset.seat = seat;
  el.dataset.final = `translate(calc(var(--cw) * ${o.dx}), calc(var(--cw) * ${o.dy})) rotate(${o.rot}deg)`;
  el.style.transform = el.dataset.final;
  el.setAttribute("aria-label", `${nameOf(seat)} played ${cardLabel(code)}`);
  return el;
}

function clearTrick() { $("trick").innerHTML = ""; $("trick").classList.remove("finished"); }

/** With animations off, a finished trick stays on the table, its winner marked, until the next card
 *  is played (at least HOLD_MS, so a computer's quick lead does not sweep it away) or a click. */
const HOLD_MS = 900;

function markTrickWon(winner) {
  const trick = $("trick");
  trick.classList.add("finished");
  trick.querySelectorAll(".card").forEach((el) => el.classList.toggle("winner", Number(el.dataset.seat) === winner));
  const cap = document.createElement("div");
  cap.className = "trick-caption";
  cap.textContent = winner === S.seat ? "You take the trick" : `${nameOf(winner)} takes the trick`;
  trick.appendChild(cap);
}

async function holdFinishedTrick() {
  const f = S.finished;
  if (!f) return;
  const left = HOLD_MS - (performance.now() - f.at);
  if (left > 0) await new Promise((resolve) => { f.skip = resolve; setTimeout(resolve, left); });
  if (S.finished === f) dropFinishedTrick();
}

function dropFinishedTrick() {
  const f = S.finished;
  if (!f) return;
  S.finished = null;
  if (f.skip) f.skip();
  clearTrick();
}

function renderTrickFromView() {
  const t = S.view.trick;
  if (S.finished && !t.cards.length) return; // the finished trick is still being shown
  S.finished = null;
  clearTrick();
  t.cards.forEach((c, i) => $("trick").appendChild(trickCard((t.leader + i) % players(), c)));
}

function sourceRect(seat, code) {
  if (seat === S.seat) {
    const mine = document.querySelector(`#hand .card[data-card="${code}"]`);
    if (mine) return mine.getBoundingClientRect();
  }
  const el = document.querySelector(`#seat-${seat} .backs`) || document.querySelector(`#seat-${seat}`);
  if (el) return el.getBoundingClientRect();
  const t = $("table").getBoundingClientRect();
  return { left: t.left + t.width / 2, top: t.bottom, width: 0, height: 0 };
}

async function animatePlay(seat, code) {
  await holdFinishedTrick();
  const speed = Settings.speed;
  const from = sourceRect(seat, code);
  const el = trickCard(seat, code);
  $("trick").appendChild(el);
  if (seat === S.seat) {
    const mine = document.querySelector(`#hand .card[data-card="${code}"]`);
    if (mine) mine.style.visibility = "hidden";
  }
  if (!speed) return;
  const to = el.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const ms = 320 * speed;
  el.style.transition = "none";
  el.style.transform = `translate(${dx}px, ${dy}px) ${el.dataset.final}`;
  el.getBoundingClientRect();
  el.style.transition = `transform ${ms}ms cubic-bezier(.2,.7,.3,1)`;
  el.style.transform = el.dataset.final;
  await sleep(ms);
}

async function animateTrickWon(winner) {
  const speed = Settings.speed;
  markTrickWon(winner);
  if (!speed) { S.finished = { at: performance.now(), skip: null }; return; } // see holdFinishedTrick
  const cards = [...$("trick").querySelectorAll(".card")];
  await sleep(Math.max(700, 1000 * speed)); // the finished trick stays readable before it is gathered
  $("trick").querySelector(".trick-caption")?.remove();
  const target = winner === S.seat ? $("me-plate") : $(`seat-${winner}`);
  if (target) {
    const t = target.getBoundingClientRect();
    const ms = 380 * speed;
    for (const el of cards) {
      const r = el.getBoundingClientRect();
      const dx = t.left + t.width / 2 - (r.left + r.width / 2), dy = t.top + t.height / 2 - (r.top + r.height / 2);
      el.style.transition = `transform ${ms}ms ease-in, opacity ${ms}ms ease-in`;
      el.style.transform = `translate(${dx}px, ${dy}px) scale(.4)`;
      el.style.opacity = "0";
    }
    await sleep(ms);
  }
  clearTrick();
}

async function applyUpdate(msg) {
  const handEnded = !!msg.finished_hand;
  for (const e of msg.events) {
    if (e.type === "card_played") await animatePlay(e.seat, e.card);
    else if (e.type === "trick_won") { S.view.hand_sizes = msg.view.hand_sizes; await animateTrickWon(e.seat); }
    else if (e.type === "cards_received") S.received = e.cards;
  }
  // A hand's last trick stays readable before the hand's end (or the moon choice) is shown.
  if (handEnded || msg.view.phase !== "play") await holdFinishedTrick();
  S.view = msg.view; S.seq = msg.seq; S.hint = null; S.hintReply = null;
  if (msg.view.phase !== "pass") S.selected.clear();
  renderTrickFromView();
  render();
  if (handEnded) {
    // The game's end: its seat link is kept a day more (for the review page), then forgotten.
    if (ROLE === "player" && msg.view.phase === "game-over") keepSeat(S.table.id, TOKEN, true);
    S.lastHand = msg.finished_hand;
    S.hands.push({ number: msg.finished_hand.number, points: msg.finished_hand.scores, totals: msg.finished_hand.totals });
    showHandOver(msg.finished_hand, msg.view.phase === "game-over" ? msg.view.winners : null);
  }
}

// ---------- actions ----------

function onCard(code, el) {
  const v = S.view;
  if (v.phase === "pass" && !v.has_passed[S.seat]) {
    if (S.selected.has(code)) S.selected.delete(code);
    else if (S.selected.size < v.rules.pass_count) S.selected.add(code);
    else { showMessage(`You pass ${v.rules.pass_count} cards: unselect one first`, true); return; }
    renderHand(); renderActions();
    const again = document.querySelector(`#hand .card[data-card="${code}"]`);
    if (again) again.focus();
    return;
  }
  if (v.phase === "play") {
    if (!v.to_move.includes(S.seat)) { showMessage(`Not your turn: ${nameOf(v.to_move[0])} plays now`, true); return; }
    // Sent even when greyed: the server refuses an illegal card and says which rule forbids it.
    sendMove({ type: "play", card: code, seq: S.seq });
    return;
  }
  if (v.phase === "pass") showMessage("You have passed: waiting for the others", true);
  else if (v.phase === "game-over") showMessage("The game is over", true);
}

/** A move answers the view at S.seq; a second one for the same view (a double click) is not sent. */
function sendMove(msg) {
  if (S.sent === S.seq) return;
  // Marked sent only once it is on its way: a move tried while the connection is down can be tried again.
  if (send(msg)) S.sent = S.seq;
}

function showHint(msg) {
  const m = msg.move;
  S.hint = m.type === "play" ? [m.card] : m.type === "pass" ? m.cards : [];
  if (m.type === "pass" && S.view.phase === "pass") { S.selected = new Set(m.cards); }
  renderHand(); renderActions();
  const what = m.type === "play" ? cardShort(m.card) : m.type === "pass" ? m.cards.map(cardShort).join(" ") : m.option;
  S.hintReply = { text: `Hint (${msg.level}): ${what} — ${msg.summary ?? msg.reason}`, details: msg.details || "", open: false };
  renderStatus();
}

// ---------- start ----------

function init() {
  $("speed").value = String(Settings.speed);
  if (!$("speed").value) $("speed").value = "1";
  $("speed").onchange = () => { Settings.speed = parseFloat($("speed").value); };
  $("four-colour").checked = Settings.fourColour;
  $("four-colour").onchange = () => { Settings.fourColour = $("four-colour").checked; };
  // "only legal card": play it for me (on by default); added here beside the other settings.
  const auto = document.createElement("label");
  auto.className = "check";
  auto.innerHTML = `<input type="checkbox" id="auto-play"> only legal card: play it`;
  $("four-colour").closest("label").after(auto);
  auto.hidden = ROLE === "spectator";
  $("auto-play").checked = Settings.autoPlay;
  $("auto-play").onchange = () => { Settings.autoPlay = $("auto-play").checked; };
  $("hint").onclick = () => send({ type: "hint" });
  $("scores-btn").onclick = showScores;
  $("invite-btn").onclick = showInvite;
  if (ROLE === "spectator") $("hint").hidden = true;
  $("overlay").addEventListener("click", (e) => { if (e.target === $("overlay")) closeDialog(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("overlay").hidden) { closeDialog(); return; }
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if ((e.key === "h" || e.key === "H") && ROLE === "player") send({ type: "hint" });
    const cards = [...document.querySelectorAll("#hand .card")];
    const i = cards.indexOf(document.activeElement);
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      const next = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
      cards[next]?.focus(); e.preventDefault();
    }
  });
  addEventListener("resize", () => { if (S.view) { renderSeats(); renderHand(); renderTrickFromView(); } });
  // A click on the table takes a finished trick away at once (with animations off it waits for the next card).
  $("table").addEventListener("click", (e) => { if (S.finished && !e.target.closest("#hand, #actions, button")) dropFinishedTrick(); });
  // Away players' countdowns ("a computer plays for Ann in 12 s") tick on the page between messages.
  setInterval(() => {
    if (S.view && S.table && S.table.seats.some((x) => { const a = absence(x.seat); return a && a.takeoverIn; })) { renderSeats(); renderStatus(); }
  }, 1000);
  connect();
}

init();
