// Drawing what every variant shows: pieces as buttons, the table's melds, the players, the stock
// and discards. Generic over the observation: known keys are shown, the rest is left out.

import { isPiece, pieceLabel, pieceSVG } from "./pieces.js";

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// A piece: a small figure (table, discards) or, with `button`, a focusable control.
export function piece(token, { button = false, testid = null, extra = "", small = false } = {}) {
  const label = pieceLabel(token);
  const e = h(button ? "button" : "span", {
    class: `piece${small ? " small" : ""} ${extra}`.trim(),
    "data-tile": token,
    "data-testid": testid,
    type: button ? "button" : null,
    role: button ? null : "img",
    "aria-label": label,
    title: label,
  });
  e.append(pieceSVG(token));
  return e;
}

export function pieces(tokens, opts = {}) {
  const row = h("span", { class: "pieces" });
  for (const t of tokens || []) row.append(isPiece(t) ? piece(t, { small: true, ...opts }) : h("span", { text: t }));
  return row;
}

// A seat as the table and the discards name it: its player ("you", "greedy"), or with two bots of
// one kind (4 players: greedy, greedy, random) the seat too, "seat 2 (greedy)", as the players'
// list and the moves name it: "Discards of greedy" twice said not whose. `short`: the seat alone
// ("seat 2"), for a meld's head, which the longer name widened to one meld a row on a phone.
export function seatName(names, seat, short = false) {
  const name = names[seat];
  if (!name) return `seat ${seat}`;
  if (names.filter((n) => n === name).length < 2) return name;
  return short ? `seat ${seat}` : `seat ${seat} (${name})`;
}

// The table: one group per meld, with its number (the index actions use), owner and kind. On the
// person's turn a meld and each of its jokers are controls: a click anywhere on the meld picks it,
// and for the keyboard its head is a button (Tab, Enter or Space) and each joker one of its own;
// the group itself is no button, so that the jokers' buttons are not nested in another control.
export function renderTable(container, table, names, { onMeld = null, onJoker = null, selectedMeld = null, selectedJoker = null, marks = new Set() } = {}) {
  container.replaceChildren();
  if (!table || table.length === 0) {
    container.append(h("p", { class: "empty", text: "No melds on the table yet." }));
    return;
  }
  table.forEach((m, i) => {
    const id = m.id ?? i;
    const owner = m.owner === undefined || m.owner === null ? "" : seatName(names, m.owner);
    const staged = m.staged ? " (staged)" : "";
    const label = `meld ${id}: ${m.kind || "meld"} of ${owner}${staged}, ${m.tiles.map(pieceLabel).join(", ")}`;
    const group = h("div", {
      class: `meld${m.staged ? " staged" : ""}${selectedMeld === id ? " selected" : ""}${marks.has(id) ? " hinted" : ""}${onMeld ? " pickable" : ""}`,
      "data-meld": id, "data-testid": "meld", role: "group", "aria-label": label,
    });
    const value = m.value === undefined || m.value === null ? "" : ` · ${m.value} pts`;
    const who = owner ? seatName(names, m.owner, true) : "";
    const head = `#${id} ${m.kind || ""}${who ? " · " + who : ""}${value}${staged}`;
    if (onMeld) {
      group.append(h("button", {
        type: "button", class: "meld-head", "data-testid": "meld-pick", "data-meld": id,
        "aria-pressed": String(selectedMeld === id), "aria-label": `${label}: pick it to add to it`, text: head,
      }));
    } else group.append(h("span", { class: "meld-head", "aria-hidden": "true", text: head }));
    const row = h("span", { class: "pieces" });
    m.tiles.forEach((t, j) => {
      const joker = t === "*" && !!onJoker;
      const sel = joker && selectedJoker && selectedJoker[0] === id && selectedJoker[1] === j;
      const p = piece(t, { small: true, button: joker, testid: "table-tile", extra: `${joker ? "joker-pick" : ""}${sel ? " selected" : ""}` });
      if (joker) {
        p.dataset.meld = String(id);
        p.dataset.index = String(j);
        p.setAttribute("aria-pressed", String(!!sel));
        p.setAttribute("aria-label", `joker at position ${j + 1} of meld ${id}: pick it, then the rack tile that replaces it`);
        p.setAttribute("title", `joker at position ${j + 1} of meld ${id}: click, then choose the tile that replaces it`);
        p.addEventListener("click", (ev) => { ev.stopPropagation(); onJoker(id, j); });
      }
      row.append(p);
    });
    group.append(row);
    // the mouse: anywhere on the meld (its head button handles its own click and keys)
    if (onMeld) group.addEventListener("click", () => onMeld(id));
    container.append(group);
  });
}

function opened(obs, seat) {
  for (const key of ["opened", "laid", "melded"]) {
    if (Array.isArray(obs[key])) {
      const v = obs[key][seat];
      if (v === true) return "laid down";
      if (v === false || v === null) return "";
      return `opened (${v})`;
    }
  }
  return "";
}

export function renderPlayers(container, obs, names, standings, word = "piece") {
  container.replaceChildren();
  const sizes = obs.rack_sizes || [];
  names.forEach((name, seat) => {
    const turn = obs.current_player === seat && obs.phase !== "over";
    const li = h("li", { class: `player${turn ? " to-move" : ""}${name === "you" ? " you" : ""}`, "data-testid": "player" });
    // the seat to move: an arrow for the eyes, words for a screen reader (it read the arrow's
    // Unicode name, "black right-pointing triangle", and nothing said whose turn it was)
    li.append(h("span", { class: "who" }, turn ? h("span", { "aria-hidden": "true", text: "▶ " }) : null,
      `seat ${seat}: ${name}`, turn ? h("span", { class: "sr-only", text: "(to move)" }) : null));
    li.append(h("span", { class: "detail", text: `${sizes[seat] ?? "?"} ${sizes[seat] === 1 ? word : word + "s"}${opened(obs, seat) ? " · " + opened(obs, seat) : ""} · ${standings[seat] ?? 0} pts` }));
    container.append(li);
  });
}

// Stock, discards and each variant's public extras (Atu, train, thresholds, joker button…).
export function renderInfo(container, obs, names) {
  container.replaceChildren();
  const dl = h("dl", { class: "facts" });
  const row = (term, value) => { dl.append(h("dt", { text: term })); dl.append(h("dd", {}, value)); };
  if (obs.stock !== undefined) row("Stock", document.createTextNode(`${obs.stock} left`));
  if (obs.last_discard) row("Last discard", pieces([obs.last_discard]));
  if (obs.atu) row("Atu", pieces([obs.atu]));
  if (Array.isArray(obs.train) && obs.train.length) row("Train", pieces(obs.train));
  if (obs.thresholds) row("To open", document.createTextNode(`${obs.thresholds.points} points or ${obs.thresholds.pairs} pairs`));
  if (obs.button && obs.button.available) row("Joker button", document.createTextNode("available"));
  if (obs.target) row("Target", document.createTextNode(`${obs.target} points`));
  if (Array.isArray(obs.discard_pile) && obs.discard_pile.length) row("Discard pile", pieces(obs.discard_pile.slice(-8)));
  if (Array.isArray(obs.discards)) {
    obs.discards.forEach((pile, seat) => {
      if (pile.length) row(`Discards of ${seatName(names, seat)}`, pieces(pile.slice(-6)));
    });
  }
  // classic: the cards each seat took from the pile and still holds, seen by all (CR-3)
  if (Array.isArray(obs.known)) {
    obs.known.forEach((cards, seat) => {
      if (seat !== obs.seat && Array.isArray(cards) && cards.length) {
        row(`Seat ${seat} (${names[seat] || "?"}) holds, taken from the pile`, pieces(cards));
      }
    });
  }
  container.append(dl);
}
