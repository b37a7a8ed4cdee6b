#!/usr/bin/env node
// A small Hearts bot in JavaScript for the hearts bot protocol, version 1 (docs/bot-protocol.md).
// Node's standard library only. It passes its three most dangerous cards, ducks under the
// winning card when it can, dumps the queen of spades and high hearts when void, and leads low.
//
//   hearts tournament --players 'cmd:node examples/bots/js_bot.js',easy,easy,easy
"use strict";

const readline = require("readline");

const RANKS = { "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, J: 11, Q: 12, K: 13, A: 14 };
const rank = (card) => RANKS[card.slice(0, -1)];
const suit = (card) => card.slice(-1);
const byRank = (a, b) => rank(a) - rank(b);

function danger(card) {
  // Q, K, A of spades catch the queen; high hearts catch points.
  let score = rank(card);
  if (suit(card) === "S" && rank(card) >= 12) score += 20;
  if (suit(card) === "H") score += 3;
  return score;
}

function choosePass(view) {
  const cards = [...view.hand].sort((a, b) => danger(b) - danger(a)).slice(0, view.rules.pass_count);
  return { type: "pass", cards, reason: "my most dangerous cards" };
}

function choosePlay(view) {
  const legal = [...view.legal].sort(byRank);
  const trick = view.trick.cards;
  if (trick.length === 0) {
    const nonHearts = legal.filter((c) => suit(c) !== "H");
    return { type: "play", card: (nonHearts.length ? nonHearts : legal)[0], reason: "lead low" };
  }
  const led = suit(trick[0]);
  if (legal.every((c) => suit(c) === led)) {
    const winning = trick.filter((c) => suit(c) === led).sort(byRank).pop();
    const under = legal.filter((c) => rank(c) < rank(winning));
    if (under.length) return { type: "play", card: under.pop(), reason: "duck under the winning card" };
    return { type: "play", card: legal[legal.length - 1], reason: "cannot duck: play high" };
  }
  if (legal.includes("QS")) return { type: "play", card: "QS", reason: "dump the queen" };
  const hearts = legal.filter((c) => suit(c) === "H");
  const pool = hearts.length ? hearts : legal;
  return { type: "play", card: pool[pool.length - 1], reason: "discard high" };
}

function answer(message) {
  const view = message.view;
  if (message.decision === "pass") return choosePass(view);
  if (message.decision === "play") return choosePlay(view);
  return { type: "moon", option: "add-to-others", reason: "the usual moon" };
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.type === "hello" && message.version !== 1) {
    process.stderr.write(`js_bot speaks protocol version 1, not ${message.version}\n`);
    process.exit(2);
  } else if (message.type === "decide") {
    process.stdout.write(JSON.stringify(answer(message)) + "\n");
  } else if (message.type === "error") {
    process.stderr.write(`the engine refused my answer: ${message.message}\n`);
  } else if (message.type === "bye") {
    input.close();
  }
});
