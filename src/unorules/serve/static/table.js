// A table's page: renders what the server sends for this seat, sends actions back.
// The server decides everything; this page only shows the view and the legal actions it was given.
"use strict";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const tokenKey = "unorules:" + tableId;
let token = localStorage.getItem(tokenKey);
let socket = null;
let message = null;       // the last state message
let receivedAt = 0;       // when it arrived (performance.now(), for the turn timer)
let backoff = 250;        // ms before reconnecting, doubled up to 4 s
let stopped = false;      // true when reconnecting cannot help (unknown or closed table)
let seenRounds = null;    // rounds already shown in the results panel
let lastHands = null;     // {number, hands}: the hands the last round ended with, when the server sent them
let lastVersion = -1;     // the version whose feed lines are shown
let askedRematch = false; // this page asked for the rematch: it goes there by itself
let looks = {};           // how each kind of card looks under the rule set, by kind (from the welcome)
let history = null;       // {version, lines}: what happened before the page came (the welcome's feed)
let invite = null;        // the invitation code: from the welcome (seated players) or the link's #join=CODE
const linkCode = /(?:^#|&)join=([A-Za-z0-9_-]+)/.exec(location.hash);
if (linkCode) invite = linkCode[1];

const COLORS = {
  R: { word: "red", mark: "●" },
  Y: { word: "yellow", mark: "▲" },
  G: { word: "green", mark: "■" },
  B: { word: "blue", mark: "◆" },
};
const COLOR_ORDER = { R: 0, Y: 1, G: 2, B: 3 };
// what each kind of card shows (its symbol, the word and icon on its face, the paint of a card of no
// colour) is the rule set's, sent once with the welcome (looks: the library's unorules.display)
const KIND_ORDER = { S: 10, R: 11, "+2": 12, W: 20, "W+4": 21 };
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
    if (data.type === "welcome") onWelcome(data);
    else if (data.type === "state") { message = data; receivedAt = performance.now(); render(); }
    else if (data.type === "error") onError(data);
  });
  socket.addEventListener("close", () => {
    socket = null;
    if (stopped) { setConnection("offline", "closed"); return; }
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
  if (data.code === "unknown-table" || data.code === "closed") stopped = true;
  if (data.code !== "stale") showError(data.message);
}

let errorTimer = null;
function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// -- the rule set, from the welcome ---------------------------------------------

function onWelcome(data) {
  if (data.invite) invite = data.invite;
  if (data.feed) history = data.feed;
  looks = data.looks || {};
  const rules = data.ruleset;
  $("rules").textContent = rules.title;
  $("rules-title").textContent = rules.title;
  $("rules-spec").textContent = "As text: " + rules.spec;
  const list = $("rules-list");
  list.replaceChildren();
  for (const plugin of rules.plugins) {
    const options = el("ul", { class: "rule-options" });
    for (const option of plugin.options) {
      const item = el("li", { title: option.codes.join(" ") }, option.label + ": ", el("strong", {}, option.value));
      if (option.changed) item.classList.add("changed");
      options.append(item);
    }
    list.append(el("section", { class: "rule", "data-plugin": plugin.name },
      el("h3", { title: plugin.codes.join(" ") }, plugin.title), el("p", {}, plugin.doc), options));
  }
}

// -- cards and words ----------------------------------------------------------

function cardInfo(text) {
  const info = message.view.cards[text] || { color: null, kind: text, name: text };
  const look = looks[info.kind] || { symbol: info.kind, label: "", icon: info.kind, paint: null, ink: null };
  return { ...info, ...look };
}

// a colour: the four's own, or one a plugin registers (word, paint and mark from the server's palette)
function colorInfo(code) {
  return COLORS[code] || (message && message.view.palette && message.view.palette[code]) || null;
}

function cardNode(text, size, tag) {
  const info = cardInfo(text);
  const color = info.color && colorInfo(info.color) ? info.color : null;
  const symbol = info.symbol, word = info.label;
  // a card of no colour that its rule set paints: its own face colour (and ink) instead of the wild's
  const painted = !color && info.paint;
  const custom = (color && !COLORS[color]) || painted;
  const node = el(tag || "div", {
    class: "card " + (custom ? "custom" : color || "wild") + (painted ? " painted" : "") + (size ? " " + size : ""),
    "data-card": text, title: info.name, "aria-label": info.name,
  });
  if (custom) node.style.setProperty("--c", painted ? info.paint : colorInfo(color).css);
  if (painted && info.ink) node.style.setProperty("--ink", info.ink);
  node.append(
    el("span", { class: "corner", "aria-hidden": "true" }, el("span", { class: "kind" }, symbol),
      el("span", { class: "mark" }, color ? colorInfo(color).mark : "")),
    el("span", { class: "face", "aria-hidden": "true" }, info.icon || symbol),
    el("span", { class: "word", "aria-hidden": "true" }, word || (color ? colorInfo(color).word : "")),
  );
  return node;
}

// a swatch button's classes and paint for a colour
function paintSwatch(node, code) {
  if (COLORS[code]) { node.classList.add("swatch", code); return; }
  const info = colorInfo(code);
  if (info) { node.classList.add("swatch", "custom"); node.style.setProperty("--c", info.css); }
}

function cardOrder(text) {
  const info = cardInfo(text);
  const palette = Object.keys(message.view.palette || {});
  const color = info.color in COLOR_ORDER ? COLOR_ORDER[info.color]
    : palette.includes(info.color) ? 4 + palette.indexOf(info.color) : 4 + palette.length;
  const number = /^\d+$/.test(info.kind) ? Number(info.kind) : (KIND_ORDER[info.kind] || 15);
  return [color, number, info.kind];
}

function sortedHand(hand) {
  return [...hand].sort((a, b) => {
    const [x, y] = [cardOrder(a), cardOrder(b)];
    return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
  });
}

function colorWord(code) { const info = colorInfo(code); return info ? info.word : code; }
function colorMark(code) { const info = colorInfo(code); return info ? info.mark + " " : ""; }

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
    case "color": return colorMark(action.color) + colorWord(action.color);
    default: {
      const parts = [action.verb.replace(/[_-]/g, " ")];
      if (action.card) parts.push(cardInfo(action.card).name);
      if (action.color) parts.push(colorWord(action.color));
      if (action.target !== null) parts.push(name(action.target));
      return parts.join(" ");
    }
  }
}

function variantLabel(action) {
  const parts = [];
  if (action.color) parts.push(colorMark(action.color) + colorWord(action.color));
  if (action.target !== null) parts.push("with " + name(action.target));
  return parts.join(", ") || "play";
}

function listed(items) {
  return items.length < 2 ? items.join("") : items.slice(0, -1).join(", ") + " or " + items[items.length - 1];
}

// What the seat to move may do now, in words, from its legal actions (the rule set decides: no
// "or draw" where drawing is not allowed, no "keep it" where the drawn card must be played).
function choicesText() {
  const { view, you } = message;
  const phase = view.phase;
  const wild = phase.card ? cardInfo(phase.card).name : "wild";
  const verbs = [...new Set(view.legal_actions.filter((a) => a.seat === you).map((a) => a.verb))];
  const words = {
    play: phase.name === "drawn" ? "play the card you drew" : "play a raised card",
    draw: phase.count > 1 ? "draw " + phase.count : "draw",
    pass: phase.name === "drawn" ? "keep it" : "pass",
    uno: "call UNO",
    challenge: "challenge the " + wild,
    accept: "accept" + (phase.count ? " and draw " + phase.count : ""),
    color: "name the colour",
  };
  return listed(verbs.map((verb) => words[verb] || verb.replace(/[_-]/g, " ")));
}

function statusText() {
  const { view, table } = message;
  if (!table.started) {
    if (message.you === 0) return "Start the game when everyone is here";
    return "Waiting for the host to start the game";
  }
  if (view.is_over) {
    const names = table.winners.map(name);
    return "Game over: " + (names.length ? names.join(" and ") + (names.includes("you") && names.length === 1 ? " win!" : " won") : "nobody won");
  }
  const phase = view.phase;
  if (view.current_player === message.you) return "Your turn: " + (choicesText() || phase.doc || phase.name);
  const wild = phase.card ? cardInfo(phase.card).name : "wild";
  // another seat's turn: what it is doing (the rule set's words for its own phases, phase.doc)
  const doing = {
    play: "playing",
    drawn: "deciding on the drawn card",
    penalty: phase.count ? "drawing " + phase.count : "drawing",
    challenge: "deciding whether to challenge the " + wild,
    color: "naming the colour",
  };
  return name(view.current_player) + "'s turn: " + (doing[phase.name] || phase.doc || phase.name.replace(/[_-]/g, " "));
}

// -- rendering ----------------------------------------------------------------

function render() {
  const { view, table, you } = message;
  document.title = "unorules: " + (you === null ? "watching" : table.names[you]) + " · " + table.title;
  document.body.dataset.version = table.version;
  document.body.dataset.started = table.started;
  document.body.dataset.over = view.is_over;
  document.body.dataset.you = you === null ? "" : you;
  document.body.dataset.current = view.current_player;
  document.body.dataset.autopilot = you !== null && table.autopilot[you];
  document.body.classList.toggle("watching", you === null);
  if (!$("rules").textContent) $("rules").textContent = table.title;
  $("rules").title = "the rules of this table: " + table.rules;
  $("round").textContent = table.started ? "round " + (view.rounds.length + 1 - (view.is_over ? 1 : 0)) : "";
  renderLobby();
  renderSeats();
  renderMiddle();
  $("status").textContent = (you === null && table.started ? "Watching · " : "") + statusText();
  renderTimer();
  $("autopilot-note").hidden = !(you !== null && table.autopilot[you] && !view.is_over);
  renderActions();
  renderTakeBack();
  renderHand();
  renderFeed();
  renderResults();
  renderRematch();
  if (!$("picker").hidden && !view.legal_actions.some((a) => a.text === $("picker").dataset.first)) closePicker();
}

function renderLobby() {
  const { table, you } = message;
  $("lobby").hidden = table.started;
  if (table.started) return;
  $("invite-row").hidden = !invite || (you === null && !linkCode);
  $("invite").value = location.origin + "/t/" + table.id + (invite ? "#join=" + invite : "");
  $("watch").value = location.origin + "/t/" + table.id;
  const open = table.kinds.filter((k) => k === "open").length;
  $("join-box").hidden = !(you === null && open > 0 && invite);
  $("start").hidden = you !== 0;
  let note = open ? open + " open seat(s): a bot takes each one still open at the start." : "Every seat is taken.";
  if (you === null && open > 0 && !invite) note = "You are watching: ask a player for the invitation link to take a seat.";
  if (table.turn_seconds) note += " Turn timer: " + table.turn_seconds + " s (the autopilot plays a seat whose time runs out).";
  $("lobby-note").textContent = note;
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
  const drew = {};
  for (const e of view.events) {
    if (e.kind === "deal" || e.kind === "round-end" || e.kind === "reshuffle") continue;
    if (e.seat !== null) news.acted.add(e.seat);
    if (e.target !== null && e.target !== e.seat) news.targeted.add(e.target);
    if (e.kind === "draw" && e.count) drew[e.seat] = (drew[e.seat] || 0) + e.count;
    else if (e.kind === "uno") note(e.seat, "UNO!");
    else if (e.kind === "caught") note(e.seat, "caught");
  }
  for (const [seat, count] of Object.entries(drew)) note(seat, "drew " + count);
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
    const badges = el("div", { class: "badges" });
    for (const text of news.notes[seat] || []) badges.append(el("span", { class: "badge news" }, text));
    if (table.kinds[seat] === "bot") badges.append(el("span", { class: "badge" }, "bot"));
    if (table.kinds[seat] === "open") badges.append(el("span", { class: "badge" }, "open"));
    if (table.autopilot[seat]) badges.append(el("span", { class: "badge autopilot" }, "autopilot"));
    else if (!table.online[seat] && table.kinds[seat] === "human") badges.append(el("span", { class: "badge off" }, "away"));
    if (seat === view.dealer) badges.append(el("span", { class: "badge" }, "dealer"));
    if (view.uno_exposed.includes(seat)) badges.append(el("span", { class: "badge uno" }, "1 card, no UNO"));
    if (view.left.includes(seat)) badges.append(el("span", { class: "badge" }, "out"));
    const count = view.hand_sizes[seat];
    const node = el("div", { class: classes.join(" "), "data-seat": seat },
      el("div", { class: "name" }, seatName + (seat === you ? " (you)" : "")),
      el("div", {}, el("span", { class: "count" }, String(count)), count === 1 ? " card · " : " cards · ", String(view.scores[seat]), " pts"),
      badges);
    const shown = view.visible_hands[String(seat)];
    if (shown) node.append(el("div", { class: "shown" }, ...sortedHand(shown).map((c) => cardNode(c, "small"))));
    // two-faced cards: the backs of this hand that you see, in the order the hand holds them
    const backs = seat === you ? null : view.backs[String(seat)];
    if (backs) node.append(el("div", { class: "backs", "data-backs": seat, title: "the backs of this hand" },
      ...backs.map((c) => cardNode(c, "small"))));
    box.append(node);
  });
}

function renderMiddle() {
  const view = message.view;
  $("draw-count").textContent = view.draw_pile_size;
  // two-faced cards: the draw pile shows the other face of its top card
  const pile = $("draw-pile");
  const face = view.draw_pile_back;
  pile.replaceChildren($("draw-count"));
  pile.className = "card back";
  pile.style.removeProperty("--c");
  delete pile.dataset.card;
  if (face) {
    const shown = cardNode(face, "");
    pile.className = shown.className + " showing";
    pile.dataset.card = face;
    if (shown.style.getPropertyValue("--c")) pile.style.setProperty("--c", shown.style.getPropertyValue("--c"));
    pile.title = "draw pile: the top card shows " + cardInfo(face).name;
    pile.prepend(...shown.childNodes);
  } else {
    pile.title = "draw pile";
  }
  $("discard").replaceChildren(...view.discard_top.slice(-3).map((c) => cardNode(c, "big")));
  const chip = $("color-chip");
  const color = view.color && colorInfo(view.color) ? view.color : null;
  chip.className = "chip " + (color ? (COLORS[color] ? color : "custom") : "none");
  if (color && !COLORS[color]) chip.style.setProperty("--c", colorInfo(color).css); else chip.style.removeProperty("--c");
  chip.querySelector(".mark").textContent = color ? colorInfo(color).mark : "";
  chip.querySelector(".word").textContent = color ? colorWord(color) : "no colour yet";
  chip.title = "colour to match: " + (color ? colorWord(color) : "none yet");
  chip.dataset.color = view.color || "";
  // two-faced cards: the side in play, as the rule set calls it ("dark side")
  $("side").hidden = !view.side_name;
  $("side").textContent = view.side_name || "";
  $("direction").textContent = view.direction > 0 ? "↻ clockwise" : "↺ anticlockwise";
  $("direction").title = view.direction > 0 ? "play goes left (clockwise)" : "play goes right";
}

function timeLeft() {
  const left = message.table.time_left;
  if (left === null || left === undefined) return null;
  return Math.max(0, left - (performance.now() - receivedAt) / 1000);
}

function renderTimer() {
  const { table } = message;
  const left = timeLeft();
  const box = $("timer");
  box.hidden = left === null;
  document.body.dataset.timer = left === null ? "" : "on";
  if (left === null) return;
  $("timer-bar").style.width = Math.min(100, (100 * left) / table.turn_seconds) + "%";
  box.classList.toggle("low", left < 5);
  const seat = table.turn_seat;
  const who = seat === message.you ? "you have" : name(seat) + " has";
  box.title = who + " " + Math.ceil(left) + " s left";
  const status = $("status");
  const base = status.textContent.replace(/ · \d+ s left$/, "");
  status.textContent = base + " · " + Math.ceil(left) + " s left";
}

// A table of one person and bots: your last action may be taken back with the bots' replies (the
// server says why not when it may not). Apart from the actions: it is no move of the game.
function renderTakeBack() {
  const { view, you, table } = message;
  const box = $("take-back");
  box.replaceChildren();
  if (you === null || !table.take_backs || !table.started || view.is_over || table.version === 0) return;
  if (table.autopilot[you]) return;
  const button = el("button", { type: "button", id: "undo", class: "quiet" }, "Take back");
  button.title = "take back your last action and the bots' replies since, while nothing new was shown to you";
  button.addEventListener("click", () => send({ type: "undo", version: message.table.version }));
  box.append(button);
}

function renderActions() {
  const { view, you, table } = message;
  const box = $("actions");
  box.replaceChildren();
  if (view.is_over && view.rounds.length) {  // the results panel (and the record) after it was closed
    const button = el("button", { type: "button", id: "show-results" }, "Results");
    button.addEventListener("click", () => { $("results").hidden = false; });
    box.append(button);
  }
  if (you !== null && table.autopilot[you]) return;  // the autopilot plays: nothing to press but "I'm back"
  for (const action of view.legal_actions) {
    if (action.verb === "play") continue;
    const outOfTurn = action.seat !== view.current_player;
    const classes = [outOfTurn ? "oot" : ""];
    const button = el("button", { type: "button", "data-action": action.text, "data-verb": action.verb,
      class: classes.join(" ").trim() }, actionLabel(action));
    if (action.verb === "color") paintSwatch(button, action.color);
    button.addEventListener("click", () => act(action.text));
    box.append(button);
  }
  // A card the rules let you play out of your hand but that is not in it (none in the shipped rules) still gets a button.
  const hand = new Set(view.hand);
  for (const action of view.legal_actions) {
    if (action.verb === "play" && action.card && !hand.has(action.card) && action.seat === you) {
      const button = el("button", { type: "button", "data-action": action.text }, "play " + cardInfo(action.card).name);
      button.addEventListener("click", () => act(action.text));
      box.append(button);
    }
  }
}

function renderHand() {
  const { view, table, you } = message;
  const box = $("hand");
  box.replaceChildren();
  if (!table.started) return;  // nobody holds a hand before the start
  const plays = {};
  const autopilot = you !== null && table.autopilot[you];
  for (const action of view.legal_actions) {
    if (action.verb === "play" && action.card) (plays[action.card] = plays[action.card] || []).push(action);
  }
  // Two-faced cards: several cards may show one face; the k-th of them (in hand order) is
  // played with "#k". The sort keeps the hand order of equal faces, and with your own backs
  // shown the hand stays in its order, each card over its back.
  const backs = you === null ? null : view.backs[String(you)];
  const order = backs ? view.hand.map((text, i) => [text, backs[i]]) : sortedHand(view.hand).map((t) => [t, null]);
  const seen = {};
  for (const [text, back] of order) {
    seen[text] = (seen[text] || 0) + 1;
    const k = seen[text];
    const all = autopilot ? [] : plays[text] || [];
    const variants = view.two_faced ? all.filter((a) => (a.nth || 1) === k) : all;
    const node = cardNode(text, "", "button");
    node.type = "button";
    if (k > 1) node.dataset.nth = k;
    if (variants.length) {
      node.classList.add("playable");
      node.addEventListener("click", () => playCard(text, variants));
    } else {
      node.disabled = true;
    }
    if (back) {
      node.dataset.back = back;
      box.append(el("div", { class: "with-back" }, node, cardNode(back, "small")));
    } else {
      box.append(node);
    }
  }
}

function playCard(text, variants) {
  if (variants.length === 1) { act(variants[0].text); return; }
  const picker = $("picker");
  picker.dataset.first = variants[0].text;
  $("picker-title").textContent = "Play " + cardInfo(text).name + ":";
  const box = $("picker-choices");
  box.replaceChildren();
  for (const action of variants) {
    const button = el("button", { type: "button", "data-action": action.text }, variantLabel(action));
    if (action.color) paintSwatch(button, action.color);
    button.addEventListener("click", () => { closePicker(); act(action.text); });
    box.append(button);
  }
  picker.hidden = false;
}

function closePicker() { $("picker").hidden = true; }

function renderFeed() {
  const { view, table } = message;
  // before the start nothing has happened yet (the deal is told when the game starts, with the
  // names of the players who took the seats)
  if (!table.started || table.version === lastVersion) return;
  const feed = $("feed");
  if (lastVersion === -1) {
    // a page that comes late (a spectator, a reload): what happened so far, then this action
    feed.replaceChildren();
    if (history && history.version === table.version) {
      for (const text of history.lines) feed.prepend(el("li", {}, text));
    }
    history = null;
  } else if (table.version < lastVersion) {
    // a take-back: the table went back to an earlier state
    const back = lastVersion - table.version;
    feed.prepend(el("li", { class: "taken-back" }, "Taken back: the last " + (back === 1 ? "action" : back + " actions")));
    lastVersion = table.version;
    return;
  }
  lastVersion = table.version;
  // newest first: this action's sentences, in the order they happened, above the older ones
  const lines = view.feed.map((text) => el("li", {}, text));
  for (const line of lines.reverse()) feed.prepend(line);
  while (feed.children.length > 200) feed.lastElementChild.remove();
  feed.parentElement.scrollTop = 0;
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
    if (hands) cells.push(el("td", { class: "left-hand" }, ...sortedHand(hands[seat] || []).map((c) => cardNode(c, "small"))));
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

function renderRematch() {
  const { view, table, you } = message;
  const seated = you !== null;
  $("rematch").hidden = !(view.is_over && seated && !table.rematch);
  const go = $("go-rematch");
  go.hidden = !table.rematch;
  if (!table.rematch) return;
  go.href = "/t/" + encodeURIComponent(table.rematch);
  go.textContent = seated ? "Go to the rematch" : "Watch the rematch";
  if (seated && token) localStorage.setItem("unorules:" + table.rematch, token);  // the same seat there
  if (askedRematch) location.href = go.href;
}

// -- buttons -------------------------------------------------------------------

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

async function copyLink(event) {
  // The clipboard API exists only on https and localhost: on a home network's http address the
  // link is selected and the older copy command used instead.
  const button = event.currentTarget;
  const input = $(button.dataset.for);
  input.select();
  let copied = false;
  try {
    if (navigator.clipboard) { await navigator.clipboard.writeText(input.value); copied = true; }
  } catch (error) { copied = false; }
  if (!copied) copied = document.execCommand && document.execCommand("copy");
  button.textContent = copied ? "Copied" : "Select and copy";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
}

function setColourBlind(on) {
  document.body.classList.toggle("colour-blind", on);
  $("colour-blind").checked = on;
  localStorage.setItem("unorules:colour-blind", on ? "on" : "off");
}

function toggleRules(show) {
  const pop = $("rules-pop");
  pop.hidden = show === undefined ? !pop.hidden : !show;
  $("rules").setAttribute("aria-expanded", String(!pop.hidden));
}

function main() {
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("join").addEventListener("click", join);
  $("copy").addEventListener("click", copyLink);
  $("copy-watch").addEventListener("click", copyLink);
  $("picker-cancel").addEventListener("click", closePicker);
  $("results-close").addEventListener("click", () => { $("results").hidden = true; });
  $("back").addEventListener("click", () => send({ type: "back" }));
  $("rematch").addEventListener("click", () => { askedRematch = true; send({ type: "rematch" }); });
  $("rules").addEventListener("click", () => toggleRules());
  $("rules-close").addEventListener("click", () => toggleRules(false));
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") toggleRules(false); });
  $("colour-blind").addEventListener("change", (event) => setColourBlind(event.target.checked));
  setColourBlind(localStorage.getItem("unorules:colour-blind") === "on");
  setInterval(() => { if (message && message.table.time_left !== null) renderTimer(); }, 250);
  setConnection("offline", "connecting…");
  connect();
}

main();
