// The page that creates a table: a form built from the installed plugins, each option a control
// that fits its values (a switch, a list, a number, text), labelled in the plugins' own words.
"use strict";

let rules = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function seatRow(kind) {
  const select = el("select", { class: "seat-kind", "aria-label": "seat" });
  select.append(el("option", { value: "open" }, "open: a friend joins by the link"));
  for (const bot of rules.bots) select.append(el("option", { value: "bot:" + bot }, "bot: " + bot));
  select.value = kind;
  return el("li", {}, select);
}

function renderSeats() {
  const list = document.getElementById("seat-list");
  const count = list.children.length + 1;
  document.getElementById("add-seat").disabled = count >= rules.max_players;
  document.getElementById("remove-seat").disabled = count <= rules.min_players;
}

// One option's control: its value is read and set as the option's text (what the server reads).
function control(option) {
  const id = "option-" + option.name;
  let input;
  if (option.control === "switch") {
    input = el("input", { type: "checkbox", id, class: "switch", role: "switch" });
  } else if (option.control === "choice") {
    input = el("select", { id });
    for (const choice of option.choices) input.append(el("option", { value: choice.value }, choice.label));
  } else if (option.control === "number") {
    input = el("input", { type: "number", id, step: "1", inputmode: "numeric" });
    if (option.min !== null) input.min = String(option.min);
  } else {
    input = el("input", { type: "text", id, placeholder: option.allowed, size: "24" });
  }
  input.dataset.option = option.name;
  input.dataset.default = option.default;
  setValue(input, option.default);
  return input;
}

function valueOf(input) {
  return input.type === "checkbox" ? (input.checked ? "on" : "off") : input.value.trim();
}

function setValue(input, text) {
  if (input.type === "checkbox") input.checked = text === "on";
  else input.value = text;
}

function renderPlugins() {
  const box = document.getElementById("plugins");
  box.replaceChildren();
  for (const plugin of rules.plugins) {
    const check = el("input", { type: "checkbox", class: "plugin-check switch", role: "switch", value: plugin.name,
      id: "use-" + plugin.name });
    const options = el("div", { class: "options" });
    for (const option of plugin.options) {
      const input = control(option);
      const label = el("label", { for: input.id, class: "option-label", title: option.codes.length ? "rules: " + option.codes.join(", ") : "" }, option.label);
      const row = el("div", { class: "option " + option.control, "data-name": option.name });
      if (option.control === "switch") row.append(input, label);
      else row.append(label, input);
      if (option.help) row.append(el("p", { class: "help" }, option.help));
      options.append(row);
    }
    const needs = plugin.requires.filter((n) => n !== "classic");
    const extra = needs.length ? " (needs " + needs.join(", ") + ")" : "";
    const head = el("label", { for: check.id, class: "plugin-head", title: plugin.name + (plugin.codes.length ? " · rules: " + plugin.codes.join(", ") : "") },
      check, " ", el("strong", {}, plugin.title), extra);
    const conflicts = Object.values(plugin.conflicts).map((why) => el("p", { class: "help" }, "Not with: " + why));
    box.append(el("div", { class: "plugin", id: "plugin-" + plugin.name, "data-plugin": plugin.name },
      head, el("p", { class: "doc" }, plugin.doc), ...conflicts, options));
    check.addEventListener("change", () => { usePlugin(plugin.name, check.checked); choseOwn(); });
    options.addEventListener("change", choseOwn);
  }
}

// The presets: rule sets the library names (and the server's own rulebooks, listed first).
function renderPresets() {
  const select = document.getElementById("preset");
  for (const preset of rules.presets) select.append(el("option", { value: preset.name }, preset.title));
  select.addEventListener("change", () => usePreset(select.value));
}

function usePreset(name) {
  const preset = rules.presets.find((p) => p.name === name);
  document.getElementById("preset").value = preset ? name : "";
  document.getElementById("preset-doc").textContent = preset ? preset.doc : "";
  if (!preset) return;
  setChoice({ rules: preset.rules, options: preset.options });
  if (preset.players.length) setSeats(preset.players[0]);
}

// Ticking a plugin or changing an option by hand leaves the preset: the choice is now the player's own.
function choseOwn() {
  document.getElementById("preset").value = "";
  document.getElementById("preset-doc").textContent = "";
}

function setSeats(count) {
  const list = document.getElementById("seat-list");
  const wanted = Math.max(rules.min_players, Math.min(rules.max_players, count)) - 1;  // seat 0 is you
  while (list.children.length < wanted) list.append(seatRow("bot:heuristic"));
  while (list.children.length > wanted) list.lastElementChild.remove();
  renderSeats();
}

function pluginData(name) { return rules.plugins.find((p) => p.name === name); }

// Turning a plugin on turns on what it needs and off what it conflicts with (an edition that
// replaces classic turns classic off); turning it off turns off what needs it.
function usePlugin(name, on) {
  const node = document.getElementById("plugin-" + name);
  if (!node) return;
  node.querySelector(".plugin-check").checked = on;
  node.querySelector(".options").hidden = !on;
  node.classList.toggle("chosen", on);
  if (on) {
    const mine = pluginData(name);
    for (const other of rules.plugins) {
      const clash = other.name in mine.conflicts || name in other.conflicts;
      if (clash && isUsed(other.name)) usePlugin(other.name, false);
    }
    for (const needed of mine.requires) if (!isUsed(needed)) usePlugin(needed, true);
  } else {
    for (const other of rules.plugins) if (other.requires.includes(name) && isUsed(other.name)) usePlugin(other.name, false);
  }
}

function isUsed(name) {
  const check = document.querySelector("#plugin-" + CSS.escape(name) + " .plugin-check");
  return Boolean(check && check.checked);
}

// The form as a choice of rules: {rules: [names], options: {name: text}}. setChoice is how a
// preset (a rule set the library names) fills the form; getChoice is what is sent.
function setChoice(choice) {
  for (const plugin of rules.plugins) usePlugin(plugin.name, false);
  for (const name of choice.rules) usePlugin(name, true);
  for (const input of document.querySelectorAll("[data-option]")) {
    const given = choice.options[input.dataset.option];
    setValue(input, given === undefined ? input.dataset.default : given);
  }
}

function getChoice() {
  const chosen = rules.plugins.map((p) => p.name).filter(isUsed);
  const options = {};
  for (const name of chosen) {
    for (const input of document.querySelectorAll("#plugin-" + CSS.escape(name) + " [data-option]")) {
      const value = valueOf(input);
      if (value !== input.dataset.default) options[input.dataset.option] = value;
    }
  }
  return { rules: chosen, options };
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("form-error");
  error.textContent = "";
  const choice = getChoice();
  const seats = [...document.querySelectorAll(".seat-kind")].map((s) => s.value);
  const body = {
    rules: choice.rules, options: choice.options, seats, name: document.getElementById("name").value,
    turn_seconds: Number(document.getElementById("turn-seconds").value),
  };
  let response, answer;
  try {
    response = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    answer = await response.json();
  } catch (failure) {
    error.textContent = "cannot reach the server: is 'unorules serve' still running?";
    return;
  }
  if (!response.ok) { error.textContent = answer.error; return; }
  localStorage.setItem("unorules:" + answer.table, answer.token);
  location.href = "/t/" + answer.table;
}

async function main() {
  try {
    rules = await (await fetch("/api/rules")).json();
  } catch (failure) {
    document.getElementById("plugins").textContent = "cannot reach the server: is 'unorules serve' still running?";
    return;
  }
  const list = document.getElementById("seat-list");
  for (const kind of ["open", "bot:heuristic", "bot:heuristic"]) list.append(seatRow(kind));
  document.getElementById("add-seat").addEventListener("click", () => { list.append(seatRow("bot:heuristic")); renderSeats(); });
  document.getElementById("remove-seat").addEventListener("click", () => { list.lastElementChild.remove(); renderSeats(); });
  renderSeats();
  renderPlugins();
  renderPresets();
  setChoice({ rules: ["classic"], options: {} });
  const own = rules.presets.find((p) => p.name.startsWith("file:"));
  if (own) usePreset(own.name);
  document.getElementById("create").addEventListener("submit", create);
}

main();
