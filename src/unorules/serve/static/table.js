// A table's page: renders what the server sends for this seat, sends actions back.
// The server decides everything; this page only shows the view and the legal actions it was given.
"use strict";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const tokenKey = "unorules:" + tableId;
let token = localStorage.getItem(tokenKey);
let socket = null;
let message = null;       // the last state message
let backoff = 250;        // ms before reconnecting, doubled up to 4 s
let stopped = false;      // true when reconnecting cannot help (unknown table)
let seenRounds = null;    // rounds already shown in the results panel
let lastHands = null;     // {number, hands}: the hands the last round ended with, when the server sent them
let lastVersion = -1;
let invite = null;        // the invitation code: from the welcome (seated players) or the link's #join=CODE
const linkCode = /(?:^#|&)join=([A-Za-z0-9_-]+)/.exec(location.hash);
if (linkCode) invite = linkCode[1];

const COLOR_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue" };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// -- connection ---------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(tableId));
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", token }));
    backoff = 250;
    setConnection("online", "connected");
  });
  socket.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "welcome") { if (data.invite) invite = data.invite; }
    else if (data.type === "state") { message = data; render(); }
    else if (data.type === "error") onError(data);
  });
  socket.addEventListener("close", () => {
    socket = null;
    if (stopped) return;
    setConnection("offline", "reconnecting…");
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 4000);
  });
}

function setConnection(kind, text) {
  const conn = $("conn");
  conn.className = "conn " + kind;
  conn.textContent = text;
  document.body.dataset.connection = kind;
}

function send(data) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(data));
  else showError("not connected: reconnecting…");
}

function act(text) {
  send({ type: "act", action: text, version: message.table.version });
}

function onError(data) {
  if (data.code === "bad-token") {   // a token of another server or table: watch instead
    localStorage.removeItem(tokenKey);
    token = null;
  }
  if (data.code === "unknown-table") stopped = true;
  if (data.code !== "stale") showError(data.message);
}

let errorTimer = null;
function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { box.hidden = true; }, 5000);
}

// -- cards and words ----------------------------------------------------------

function cardLabel(info, text) {
  const kind = info ? info.kind : text;
  return { S: "⊘", R: "⇄", W: "W", "W+4": "+4" }[kind] || kind;
}

function cardNode(text, size, tag) {
  const info = message.view.cards[text];
  const color = info ? info.color : null;
  const node = el(tag || "div", { class: "card " + (color || "wild") + (size ? " " + size : ""), "data-card": text,
    title: info ? info.name : text }, cardLabel(info, text));
  return node;
}

function name(seat) {
  if (seat === message.you) return "you";
  return message.table.names[seat];
}

function actionLabel(action) {
  const view = message.view;
  switch (action.verb) {
    case "draw": return view.phase.count > 1 && view.current_player === action.seat ? "Draw " + view.phase.count : "Draw";
    case "pass": return "Keep it";
    case "uno": return "UNO!";
    case "catch": return "Catch " + name(action.target);
    case "challenge": return "Challenge";
    case "accept": return view.phase.count ? "Accept (draw " + view.phase.count + ")" : "Accept";
    case "color": return COLOR_NAMES[action.color] || action.color;
    default: {
      const parts = [action.verb.replace(/[_-]/g, " ")];
      if (action.card) parts.push(action.card);
      if (action.color) parts.push(COLOR_NAMES[action.color] || action.color);
      if (action.target !== null) parts.push(name(action.target));
      return parts.join(" ");
    }
  }
}

function variantLabel(action) {
  const parts = [];
  if (action.color) parts.push(COLOR_NAMES[action.color] || action.color);
  if (action.target !== null) parts.push("with " + name(action.target));
  return parts.join(", ") || "play";
}

function statusText() {
  const { view, table } = message;
  if (!table.started) return "Waiting for the host to start the game";
  if (view.is_over) {
    const names = table.winners.map(name);
    return "Game over: " + (names.length ? names.join(" and ") + (names.includes("you") && names.length === 1 ? " win!" : " won") : "nobody won");
  }
  const phase = view.phase;
  const mine = view.current_player === message.you;
  const who = mine ? "Your turn" : name(view.current_player) + "'s turn";
  const prompts = {
    play: mine ? "play a highlighted card or draw" : "playing",
    drawn: mine ? "play the card you drew, or keep it" : "deciding on the drawn card",
    penalty: "draw " + phase.count,
    challenge: mine ? "challenge the Wild Draw Four, or accept and draw " + phase.count : "challenge or accept the Wild Draw Four",
    color: "name the colour",
  };
  return who + ": " + (prompts[phase.name] || phase.name.replace(/[_-]/g, " "));
}

// -- rendering ----------------------------------------------------------------

function render() {
  const { view, table, you } = message;
  document.title = "unorules: " + (you === null ? "watching" : table.names[you]);
  document.body.dataset.version = table.version;
  document.body.dataset.started = table.started;
  document.body.dataset.over = view.is_over;
  document.body.dataset.you = you === null ? "" : you;
  document.body.dataset.current = view.current_player;
  $("rules").textContent = table.rules;
  $("round").textContent = table.started ? "round " + (view.rounds.length + 1 - (view.is_over ? 1 : 0)) : "";
  renderLobby();
  renderSeats();
  renderMiddle();
  $("status").textContent = (you === null && table.started ? "Watching · " : "") + statusText();
  renderActions();
  renderHand();
  renderFeed();
  renderResults();
  if (!$("picker").hidden && !view.legal_actions.some((a) => a.text === $("picker").dataset.first)) closePicker();
}

function renderLobby() {
  const { table, you } = message;
  $("lobby").hidden = table.started;
  if (table.started) return;
  $("invite").value = location.origin + "/t/" + table.id + (invite ? "#join=" + invite : "");
  const open = table.kinds.filter((k) => k === "open").length;
  $("join-box").hidden = !(you === null && open > 0);
  $("start").hidden = you !== 0;
  $("lobby-note").textContent = open ? open + " open seat(s): a bot takes each one still open at the start." : "Every seat is taken.";
}

// What the last action did to each seat, from the structured events: who acted, who was
// targeted (caught, traded with, made to answer a stack), how many cards each drew.
function seatNews() {
  const view = message.view;
  const news = { acted: new Set(), targeted: new Set(), notes: {} };
  const note = (seat, text) => { (news.notes[seat] = news.notes[seat] || []).push(text); };
  if (view.last_action) {
    const seat = Number(view.last_action.split(":")[0]);
    if (Number.isInteger(seat)) news.acted.add(seat);
  }
  for (const e of view.events) {
    if (e.kind === "deal" || e.kind === "round-end" || e.kind === "reshuffle") continue;
    if (e.seat !== null) news.acted.add(e.seat);
    if (e.target !== null && e.target !== e.seat) news.targeted.add(e.target);
    if (e.kind === "draw" && e.count) note(e.seat, "drew " + e.count);
    else if (e.kind === "uno") note(e.seat, "UNO!");
    else if (e.kind === "caught") note(e.seat, "caught");
  }
  return news;
}

function renderSeats() {
  const { view, table, you } = message;
  const box = $("seats");
  box.replaceChildren();
  const news = table.started ? seatNews() : { acted: new Set(), targeted: new Set(), notes: {} };
  table.names.forEach((seatName, seat) => {
    const classes = ["seat"];
    if (table.started && !view.is_over && seat === view.current_player) classes.push("turn");
    if (seat === you) classes.push("you");
    if (news.acted.has(seat)) classes.push("acted");
    if (news.targeted.has(seat)) classes.push("targeted");
    const badges = el("div", {});
    for (const text of news.notes[seat] || []) badges.append(el("span", { class: "badge news" }, text));
    if (table.kinds[seat] === "bot") badges.append(el("span", { class: "badge" }, "bot"));
    if (table.kinds[seat] === "open") badges.append(el("span", { class: "badge" }, "open"));
    if (!table.online[seat] && table.kinds[seat] === "human") badges.append(el("span", { class: "badge off" }, "away"));
    if (seat === view.dealer) badges.append(el("span", { class: "badge" }, "dealer"));
    if (view.uno_exposed.includes(seat)) badges.append(el("span", { class: "badge uno" }, "1 card, no UNO"));
    if (view.left.includes(seat)) badges.append(el("span", { class: "badge" }, "out"));
    const node = el("div", { class: classes.join(" "), "data-seat": seat },
      el("div", { class: "name" }, seatName + (seat === you ? " (you)" : "")),
      el("div", {}, el("span", { class: "count" }, String(view.hand_sizes[seat])), " cards · ", String(view.scores[seat]), " pts"),
      badges);
    const shown = view.visible_hands[String(seat)];
    if (shown) node.append(el("div", { class: "shown" }, ...shown.map((c) => cardNode(c, "small"))));
    box.append(node);
  });
}

function renderMiddle() {
  const view = message.view;
  $("draw-count").textContent = view.draw_pile_size;
  $("discard").replaceChildren(...view.discard_top.slice(-3).map((c) => cardNode(c, "big")));
  const dot = $("color-dot");
  dot.style.background = view.color ? "var(--" + { R: "red", Y: "yellow", G: "green", B: "blue" }[view.color] + ")" : "#555";
  dot.title = "colour to match: " + (view.color_name || "none yet");
  dot.dataset.color = view.color || "";
  $("direction").textContent = view.direction > 0 ? "↻" : "↺";
  $("direction").title = view.direction > 0 ? "play goes left (clockwise)" : "play goes right";
}

function renderActions() {
  const { view, you } = message;
  const box = $("actions");
  box.replaceChildren();
  if (view.is_over && view.rounds.length) {  // the results panel (and the record) after it was closed
    const button = el("button", { type: "button", id: "show-results" }, "Results");
    button.addEventListener("click", () => { $("results").hidden = false; });
    box.append(button);
  }
  for (const action of view.legal_actions) {
    if (action.verb === "play") continue;
    const outOfTurn = action.seat !== view.current_player;
    const button = el("button", { type: "button", "data-action": action.text, "data-verb": action.verb,
      class: outOfTurn ? "oot" : "" }, actionLabel(action));
    button.addEventListener("click", () => act(action.text));
    box.append(button);
  }
  // A card the rules let you play out of your hand but that is not in it (none in the shipped rules) still gets a button.
  const hand = new Set(view.hand);
  for (const action of view.legal_actions) {
    if (action.verb === "play" && action.card && !hand.has(action.card) && action.seat === you) {
      const button = el("button", { type: "button", "data-action": action.text }, "play " + action.card);
      button.addEventListener("click", () => act(action.text));
      box.append(button);
    }
  }
}

function renderHand() {
  const view = message.view;
  const box = $("hand");
  box.replaceChildren();
  const plays = {};
  for (const action of view.legal_actions) {
    if (action.verb === "play" && action.card) (plays[action.card] = plays[action.card] || []).push(action);
  }
  for (const text of view.hand) {
    const variants = plays[text] || [];
    const node = cardNode(text, "", "button");
    node.type = "button";
    if (variants.length) {
      node.classList.add("playable");
      node.addEventListener("click", () => playCard(text, variants));
    } else {
      node.disabled = true;
    }
    box.append(node);
  }
}

function playCard(text, variants) {
  if (variants.length === 1) { act(variants[0].text); return; }
  const picker = $("picker");
  picker.dataset.first = variants[0].text;
  $("picker-title").textContent = "Play " + (message.view.cards[text] ? message.view.cards[text].name : text) + ":";
  const box = $("picker-choices");
  box.replaceChildren();
  for (const action of variants) {
    const button = el("button", { type: "button", "data-action": action.text, class: action.color || "" }, variantLabel(action));
    button.addEventListener("click", () => { closePicker(); act(action.text); });
    box.append(button);
  }
  picker.hidden = false;
}

function closePicker() { $("picker").hidden = true; }

function actionText(text) {
  // "1: play R7" -> "Bob: play R7"
  const found = /^(\d+): (.*)$/.exec(text);
  if (!found) return text;
  const seatName = message.table.names[Number(found[1])];
  return (seatName === undefined ? found[1] : seatName) + ": " + found[2];
}

function renderFeed() {
  const { view, table } = message;
  if (table.version === lastVersion) return;
  lastVersion = table.version;
  const feed = $("feed");
  const lines = view.events.map((e) => el("li", { "data-kind": e.kind }, e.text));
  if (view.last_action) lines.unshift(el("li", { class: "move" }, actionText(view.last_action)));
  for (const line of lines.reverse()) feed.prepend(line);
  while (feed.children.length > 60) feed.lastElementChild.remove();
}

function renderResults() {
  const { view, table } = message;
  const rounds = view.rounds.length;
  if (view.last_round_hands && rounds) lastHands = { number: view.rounds[rounds - 1].number, hands: view.last_round_hands };
  if (seenRounds === null) { seenRounds = view.is_over ? rounds - 1 : rounds; }
  if (rounds <= seenRounds && !(view.is_over && $("results").dataset.over !== "true")) return;
  seenRounds = rounds;
  const last = view.rounds[rounds - 1];
  const title = view.is_over ? statusText() : "Round " + last.number + ": " + (last.winner === null ? "nobody" : name(last.winner)) + " won (" + last.reason + ")";
  $("results-title").textContent = title;
  const hands = last && lastHands && lastHands.number === last.number ? lastHands.hands : null;
  const head = [el("th", {}, "player")];
  if (hands) head.push(el("th", {}, "cards left"));
  head.push(el("th", {}, "this round"), el("th", {}, "total"));
  const rows = [el("tr", {}, ...head)];
  table.names.forEach((seatName, seat) => {
    const cells = [el("td", {}, seatName)];
    if (hands) cells.push(el("td", { class: "left-hand" }, ...(hands[seat] || []).map((c) => cardNode(c, "small"))));
    cells.push(el("td", {}, last ? String(last.points[seat]) : ""), el("td", {}, String(view.scores[seat])));
    rows.push(el("tr", { "data-seat": seat }, ...cells));
  });
  $("results-table").replaceChildren(...rows);
  // every round's points: rows are rounds (a phone scrolls down, not sideways)
  const every = [el("tr", {}, el("th", {}, "round"), ...table.names.map((n) => el("th", {}, n)))];
  for (const round of view.rounds) {
    every.push(el("tr", {}, el("td", {}, String(round.number)),
      ...round.points.map((p, seat) => el("td", { class: seat === round.winner ? "won" : "" }, String(p)))));
  }
  $("rounds-table").replaceChildren(...every);
  $("rounds-box").hidden = rounds < 2;
  $("rounds-box").open = view.is_over;
  $("record-link").href = "/api/tables/" + encodeURIComponent(table.id) + "/record";
  $("record-link").hidden = !view.is_over;
  $("results").dataset.over = view.is_over;
  $("results-close").textContent = view.is_over ? "Close" : "Continue";
  $("results").hidden = false;
}

// -- lobby buttons -------------------------------------------------------------

async function join() {
  let response, answer;
  try {
    response = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/join", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: $("join-name").value, invite }),
    });
    answer = await response.json();
  } catch (error) {
    showError("cannot reach the server: try again in a moment");
    return;
  }
  if (!response.ok) { showError(answer.error); return; }
  token = answer.token;
  localStorage.setItem(tokenKey, token);
  if (socket) socket.close(); // reconnects with the new token
}

async function copyInvite() {
  // The clipboard API exists only on https and localhost: on a home network's http address the
  // link is selected and the older copy command used instead.
  const input = $("invite");
  input.select();
  let copied = false;
  try {
    if (navigator.clipboard) { await navigator.clipboard.writeText(input.value); copied = true; }
  } catch (error) { copied = false; }
  if (!copied) copied = document.execCommand && document.execCommand("copy");
  $("copy").textContent = copied ? "Copied" : "Select and copy";
  setTimeout(() => { $("copy").textContent = "Copy"; }, 2000);
}

function main() {
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("join").addEventListener("click", join);
  $("copy").addEventListener("click", copyInvite);
  $("picker-cancel").addEventListener("click", closePicker);
  $("results-close").addEventListener("click", () => { $("results").hidden = true; });
  setConnection("offline", "connecting…");
  connect();
}

main();
