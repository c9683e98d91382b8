// The page that creates a table: a form generated from the installed plugins' declared options.
"use strict";

let rules = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function seatRow(kind) {
  const select = el("select", { class: "seat-kind" });
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

function renderPlugins() {
  const box = document.getElementById("plugins");
  box.replaceChildren();
  for (const plugin of rules.plugins) {
    const check = el("input", { type: "checkbox", class: "plugin-check", value: plugin.name });
    check.checked = plugin.name === "classic";
    const options = el("div", { class: "options" });
    for (const option of plugin.options) {
      let input;
      if (option.switch) {
        input = el("select", { "data-option": option.name });
        for (const word of ["off", "on"]) input.append(el("option", { value: word }, word));
      } else {
        input = el("input", { "data-option": option.name, size: "14" });
      }
      input.value = option.default;
      input.dataset.default = option.default;
      options.append(el("label", { title: option.doc }, option.name + " ", input,
        el("span", { class: "hint" }, " " + option.allowed)));
    }
    options.hidden = !check.checked;
    check.addEventListener("change", () => { options.hidden = !check.checked; });
    const extra = plugin.requires.length ? " (needs " + plugin.requires.join(", ") + ")" : "";
    box.append(el("div", { class: "plugin", id: "plugin-" + plugin.name },
      el("label", {}, check, " ", el("strong", {}, plugin.name), extra),
      el("p", { class: "doc" }, plugin.doc), options));
  }
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("form-error");
  error.textContent = "";
  const chosen = [...document.querySelectorAll(".plugin-check:checked")].map((c) => c.value);
  const options = {};
  for (const name of chosen) {
    for (const input of document.querySelectorAll("#plugin-" + name + " [data-option]")) {
      if (input.value !== input.dataset.default) options[input.dataset.option] = input.value;
    }
  }
  const seats = [...document.querySelectorAll(".seat-kind")].map((s) => s.value);
  const body = { rules: chosen, options, seats, name: document.getElementById("name").value };
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
  rules = await (await fetch("/api/rules")).json();
  const list = document.getElementById("seat-list");
  for (const kind of ["open", "bot:heuristic", "bot:heuristic"]) list.append(seatRow(kind));
  document.getElementById("add-seat").addEventListener("click", () => { list.append(seatRow("bot:heuristic")); renderSeats(); });
  document.getElementById("remove-seat").addEventListener("click", () => { list.lastElementChild.remove(); renderSeats(); });
  renderSeats();
  renderPlugins();
  document.getElementById("create").addEventListener("submit", create);
}

main();
