// The table's social side, loaded after table.js: the chat (shown as text, never as markup; a person
// can mute another for themselves), the turn clock's countdown, "I'm back" once the clock gave your
// seat to its stand-in, and the rematch. It reads the messages table.js reads, by wrapping onMessage.
"use strict";

const SOCIAL = {
  clock: null, clockAt: 0, unread: 0, open: false,
  muted: new Set(JSON.parse(localStorage.getItem("hearts.muted") || "[]")),
};

function buildSocial() {
  const button = document.createElement("button");
  button.className = "btn secondary";
  button.id = "chat-btn";
  button.textContent = "Chat";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "chat");
  button.onclick = () => toggleChat();
  document.body.appendChild(button); // floats at the felt's edge: the header keeps its height on a phone

  const panel = document.createElement("aside");
  panel.id = "chat";
  panel.className = "chat-panel";
  panel.hidden = true;
  panel.setAttribute("aria-label", "Table chat");
  panel.innerHTML = `<div class="chat-head"><strong>Table chat</strong> <button class="btn secondary" id="chat-close" aria-label="Close the chat">×</button></div>` +
    `<div id="chat-log" role="log" aria-live="polite"></div>` +
    `<form id="chat-form"><input id="chat-text" maxlength="200" autocomplete="off" placeholder="Say something" aria-label="Chat message"><button class="btn" id="chat-send">Send</button></form>`;
  document.body.appendChild(panel);
  $("chat-close").onclick = () => toggleChat(false);
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) $("chat-text").value = ""; // kept to send again while the connection is down
  };

  const clock = document.createElement("div");
  clock.id = "clock";
  clock.setAttribute("role", "timer");
  $("dock").prepend(clock);
  const back = document.createElement("button");
  back.className = "btn";
  back.id = "back-btn";
  back.hidden = true;
  back.textContent = "I'm back: let me play";
  back.onclick = () => send({ type: "back" });
  $("dock").prepend(back);
  setInterval(renderClock, 250);
}

function toggleChat(open = !SOCIAL.open) {
  SOCIAL.open = open;
  $("chat").hidden = !open;
  $("chat-btn").setAttribute("aria-expanded", String(open));
  if (open) { SOCIAL.unread = 0; $("chat-text").focus(); }
  $("chat-btn").textContent = SOCIAL.unread ? `Chat (${SOCIAL.unread})` : "Chat";
}

function chatLine(said) {
  const line = document.createElement("div");
  line.className = "chat-line";
  line.dataset.name = said.name;
  if (SOCIAL.muted.has(said.name)) line.hidden = true;
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = said.spectator ? `${said.name} (watching)` : said.name;
  const text = document.createElement("span");
  text.className = "text";
  text.textContent = said.text; // text, never markup
  line.append(who, ": ", text);
  const mine = S.seat !== null && said.seat === S.seat;
  if (!mine) {
    const mute = document.createElement("button");
    mute.className = "mute";
    mute.textContent = "mute";
    mute.title = `Hide what ${said.name} writes (for you only)`;
    mute.onclick = () => setMuted(said.name, true);
    line.appendChild(mute);
  }
  return line;
}

function setMuted(name, muted) {
  if (muted) SOCIAL.muted.add(name); else SOCIAL.muted.delete(name);
  localStorage.setItem("hearts.muted", JSON.stringify([...SOCIAL.muted]));
  for (const line of document.querySelectorAll("#chat-log .chat-line")) line.hidden = SOCIAL.muted.has(line.dataset.name);
}

function addChat(said) {
  $("chat-log").appendChild(chatLine(said));
  $("chat-log").scrollTop = $("chat-log").scrollHeight;
  if (!SOCIAL.open && !SOCIAL.muted.has(said.name)) { SOCIAL.unread += 1; $("chat-btn").textContent = `Chat (${SOCIAL.unread})`; }
}

function renderClock() {
  const box = $("clock");
  const back = $("back-btn");
  const me = S.table && S.seat !== null ? S.table.seats[S.seat] : null;
  back.hidden = !(me && me.clocked_out);
  if (!SOCIAL.clock || !S.table) { box.textContent = ""; return; }
  const since = (performance.now() - SOCIAL.clockAt) / 1000;
  const parts = [];
  let urgent = false;
  for (const [seat, secs] of Object.entries(SOCIAL.clock)) {
    const left = Math.max(0, Math.ceil(secs - since));
    const mine = S.seat !== null && Number(seat) === S.seat;
    if (mine && left <= 5) urgent = true;
    parts.push(mine ? `Your move: ${left} s` : `${S.table.names[Number(seat)]}: ${left} s`);
  }
  box.textContent = parts.length ? `Clock: ${parts.join(" · ")}` : "";
  box.classList.toggle("urgent", urgent);
}

function onRematch(msg) {
  if (msg.play) { location.href = msg.play; return; }
  showMessage("The players started a rematch: you can watch it", false);
  if (msg.watch && ROLE === "spectator") location.href = msg.watch;
}

function rematchWords(table) {
  if (!table || !table.rematch || table.rematch.table) return;
  const people = table.seats.filter((s) => s.kind === "human" && s.connected);
  const waiting = people.filter((s) => !table.rematch.accepted.includes(s.seat)).map((s) => s.name);
  if (table.rematch.accepted.length && waiting.length) showMessage(`Play again: waiting for ${waiting.join(", ")} to accept`, false);
}

const baseOnMessage = onMessage;
// eslint-disable-next-line no-global-assign
onMessage = function socialOnMessage(msg) {
  if (msg.type === "chat") { addChat(msg); return; }
  if (msg.type === "rematch") { onRematch(msg); return; }
  if (msg.type === "seated") { location.reload(); return; } // the computer's seat we claimed is ours: open it as a player
  baseOnMessage(msg);
  if (msg.type === "welcome") {
    $("chat-log").innerHTML = "";
    for (const said of msg.chat || []) $("chat-log").appendChild(chatLine(said));
  }
  if (msg.type === "welcome" || msg.type === "table") { SOCIAL.clock = msg.table.clock; SOCIAL.clockAt = performance.now(); rematchWords(msg.table); }
  if (msg.type === "update" && "clock" in msg) { SOCIAL.clock = msg.clock; SOCIAL.clockAt = performance.now(); }
};

/** "Play again" at the end of a game: the same seats and rules, once everyone here accepts. */
function askRematch() {
  send({ type: "rematch" });
  showMessage("Play again: waiting for the others to accept", false);
}

buildSocial();
if (S.table && S.ws && S.ws.readyState === WebSocket.OPEN) send({ type: "sync" }); // a welcome that came before this script: again, with the chat
