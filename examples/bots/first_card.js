// A bot for unorules in JavaScript, speaking the bot protocol (unorules.bot/1) on stdin/stdout.
//
//     unorules simulate --players 2 --games 20 --bot "cmd:node examples/bots/first_card.js" --bot heuristic
//
// It calls UNO and catches whenever it may, plays the first card it may (naming the colour it holds
// most of for a wild), and otherwise draws. It reads one JSON object per line and answers "hello"
// and "act" with one line each; logs go to stderr.
"use strict";

const readline = require("readline");

const COLORS = ["R", "Y", "G", "B"];
let seat = null;

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// The colour of a card in notation ("R7", "B+2", "W+4" has none).
function colorOf(card) {
  return COLORS.includes(card[0]) ? card[0] : null;
}

function favouriteColor(hand) {
  const counts = { R: 0, Y: 0, G: 0, B: 0 };
  for (const card of hand) {
    const color = colorOf(card);
    if (color) counts[color] += 1;
  }
  return COLORS.reduce((best, c) => (counts[c] > counts[best] ? c : best), "R");
}

function choose(view) {
  // Legal actions are written in the action notation: "0: play R7", "0: play W R", "0: draw".
  const actions = view.legal_actions;
  const verb = (text) => text.split(" ")[1];
  for (const wanted of ["uno", "catch"]) {
    const found = actions.find((a) => verb(a) === wanted);
    if (found) return found;
  }
  if (view.current_player !== view.seat) return null;
  const plays = actions.filter((a) => verb(a) === "play");
  if (plays.length) {
    const color = favouriteColor(view.hand);
    // A wild is listed once per colour ("play W R", "play W Y", ...): take the colour held most.
    const wild = plays.find((a) => a.split(" ").length === 4 && a.endsWith(" " + color));
    const plain = plays.find((a) => a.split(" ").length === 3);
    return plain || wild || plays[0];
  }
  for (const wanted of ["draw", "accept", "pass"]) {
    const found = actions.find((a) => verb(a) === wanted);
    if (found) return found;
  }
  return actions[0];
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "hello", name: "first-card.js" });
      break;
    case "game":
      seat = message.seat;
      process.stderr.write(`first-card.js: seat ${seat} of ${message.players}, rules ${message.rules}\n`);
      break;
    case "view":
      break; // this bot needs nothing between its turns
    case "act":
      send({ type: "action", action: choose(message.view) });
      break;
    case "quit":
      process.exit(0);
  }
});
