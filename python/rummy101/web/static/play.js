// Play: a game against the bots. The page knows no rules: it shows the observation, offers the
// legal-action texts the server sends, and sends what the person builds (select pieces, pick a
// meld or a joker on the table); the engine on the server accepts it or refuses it with the rule.

import { api, ApiError, toJSON } from "./api.js";
import { h, piece, pieces, renderInfo, renderPlayers, renderTable } from "./board.js";
import { isPiece, parsePiece, pieceLabel } from "./pieces.js";
import { RackOrder } from "./rack.js";

const $ = (id) => document.getElementById(id);

// "add R6 to 3@end" -> {verb: "add", pieces: ["R6"], meld: 3, pos: "end"}; "retrieve 2:1 with R11"
// -> {meld: 2, index: 1, pieces: ["R11"]}; "break 2" -> {index: 2}.
export function parseAction(text) {
  const words = text.trim().split(/\s+/);
  const a = { text, verb: words[0], pieces: [], meld: null, index: null, pos: null, place: null };
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (isPiece(w)) a.pieces.push(w);
    else if (a.verb === "add" && words[i - 1] === "to") {
      const [m, pos] = w.split("@");
      a.meld = Number(m); a.pos = pos || null;
    } else if (a.verb === "retrieve" && w.includes(":")) {
      const [m, j] = w.split(":");
      a.meld = Number(m); a.index = Number(j);
    } else if (/^\d+$/.test(w)) a.index = Number(w);
    else if (/^@\d+$/.test(w)) a.place = Number(w.slice(1));  // "lay R3 * R5 R6 * R8 @4" (RO-9.5)
  }
  return a;
}

// What each joker of a run stands for, from a real tile's number and its place ("run * Y6 Y7":
// ["Y5"]; "R12 R13 *", Remi's 12-13-1 and a high ace: ["R1"]); `added`: instead, the places
// beyond the pieces (-1: before the first, tokens.length: after the last) of jokers added to them.
// Empty for cards and for pieces without a real tile.
export function jokersAs(tokens, added = null) {
  const k = tokens.findIndex((t) => t !== "*");
  if (k < 0) return [];
  const p = parsePiece(tokens[k]);
  if (p.card) return [];
  const at = added || tokens.map((t, i) => (t === "*" ? i : null)).filter((i) => i !== null);
  return at.map((i) => {
    const n = p.number + i - k;
    return `${p.colour}${n > 13 ? n - 13 : n < 1 ? n + 13 : n}`;
  });
}

// "(joker as Y5)": where a joker stands in a run laid or added to, told in words; only its place
// in the text told it ("Lay run * Y6 Y7" and "Lay run Y6 Y7 *" side by side). `table`: the
// observation's melds (an added joker stands before or after the run's pieces).
function jokerNote(a, table) {
  if (!a.pieces.includes("*")) return "";
  let as = [];
  if (a.verb === "run" || a.verb === "lay") as = jokersAs(a.pieces);
  else if (a.verb === "add" && a.pos && a.pieces.length === 1) {
    const meld = (table || []).find((m) => m.id === a.meld);
    if (meld && meld.kind === "run") as = jokersAs(meld.tiles, [a.pos === "start" ? -1 : meld.tiles.length]);
  }
  return as.length ? `${as.length > 1 ? "jokers" : "joker"} as ${as.join(", ")}` : "";
}

export function describe(text, table = null) {
  const a = parseAction(text);
  const list = a.pieces.join(" ");
  const joker = jokerNote(a, table);
  const as = joker ? ` (${joker})` : "";
  switch (a.verb) {
    case "draw": return "Draw from the stock";
    case "take": return "Take the discard";
    case "button": return "Press the joker button";
    case "discard": return `Discard ${list}`;
    case "run": case "set": case "pair": return `Lay ${a.verb} ${list}${as}`;
    case "lay": return `Lay the whole run ${list}${a.place || joker ? ` (${[joker, a.place ? `the retrieved Joly at place ${a.place}` : ""].filter(Boolean).join("; ")})` : ""}`;
    case "add": return `Add ${list} to meld ${a.meld}${a.pos ? ` (${a.pos}${joker ? `: ${joker}` : ""})` : ""}`;
    case "retrieve": return `Retrieve the joker of meld ${a.meld} with ${list}`;
    case "open": return "Open: commit the staged melds";
    case "reset": return "Undo this turn's plays";
    case "announce": return `Announce the double ${list}`;
    case "accept": return `Accept the exchange with ${list}`;
    case "decline": return "Decline the exchange";
    case "break": return `Break the train at ${a.index}`;
    case "atu": return "Take the Atu";
    case "tabla": return "Declare tabla (close on the rack)";
    case "close": return "Close";
    default: return text;
  }
}

const key = (tokens) => [...tokens].sort().join(" ");

// What the status line says while a request takes a while, by what a failure would say.
const DOING = {
  "Not played": "Playing your move; the bots move on the server…",
  "No hint": "Working out a hint…",
  "Your game could not be reopened": "Reopening your game…",
};

// The game this tab plays, so that a reload (or a browser restoring the tab) reopens it.
const GAME_KEY = "rummy101.game";
const remember = (id) => { try { sessionStorage.setItem(GAME_KEY, id); } catch { /* private mode */ } };
// (the setup stays: a reload after the game was found gone sets the form to it, not to defaults)
const forget = () => { try { sessionStorage.removeItem(GAME_KEY); } catch { /* private mode */ } };
const remembered = () => { try { return sessionStorage.getItem(GAME_KEY); } catch { return null; } };
// and its setup (rules text, bots, the person's seat): a game gone from the server (the service
// restarted) left the form at its defaults, and New game started Rummy 101 for a Remi player
const SETUP_KEY = "rummy101.setup";
const rememberSetup = (view) => { try { sessionStorage.setItem(SETUP_KEY, JSON.stringify({ rules: view.rules, bots: view.bots, seat: view.seat })); } catch { /* private mode */ } };
const rememberedSetup = () => { try { return JSON.parse(sessionStorage.getItem(SETUP_KEY) || "null"); } catch { return null; } };

export class PlayPanel {
  constructor() {
    this.options = null;
    this.view = null;
    this.rack = null;
    this.selected = [];      // one flag per rack position
    this.meld = null;        // selected table meld id
    this.joker = null;       // [meld id, index] of a selected table joker
    this.busy = false;
    this.gone = false;       // the game shown was found gone from the server (404 "no game")
    this.failure = null;     // the error of the last request that failed
    // A move whose answer never came (timed out, the network gone: status 0) may have been played
    // on the server all the same: the next move asks for the game first (caughtUp)
    this.unanswered = false;
    this.hintMarks = { tiles: [], melds: new Set() };
    // The hint's actions while the person plays them one by one ({actions, done}): a move played
    // as the hint's next step keeps the hint, that step ticked. It was put away at every move, and
    // asked again after a first lay short of the opening, the hint plans the turn from its start,
    // "reset" first (R101-7): followed step by step, it went round in a circle.
    this.plan = null;
    this.focus = 0;
    this.roundNote = "";     // "Round 3 ended: …" on the status line after a round ended (not
                             // "over": the status line holds "over" only when the game is)
    // Moving pieces by taps (a phone has no drag and drop): with Move on, a tap picks a piece up
    // and the next tap puts it in the place of the piece tapped (or at the end: the rack's free
    // space); Space and Enter do the same from the keyboard.
    this.arranging = false;
    this.lifted = null;      // the rack position of the piece picked up
  }

  async init() {
    this.options = await api.options();
    const select = $("variant");
    for (const v of this.options.variants) select.append(h("option", { value: v.name, text: v.name }));
    select.addEventListener("change", () => this.renderOptions());
    $("setup").addEventListener("submit", (ev) => { ev.preventDefault(); this.newGame(); });
    // the browser's own check stopped New game (seed -1, 1.5, an option's number emptied or out
    // of range): its bubble says why, and a message of an earlier try ("No new game: …") would
    // speak of a start not made now (invalid does not bubble: caught on its way down)
    $("setup").addEventListener("invalid", () => this.setMessage(null), true);
    this.renderOptions();
    for (const b of document.querySelectorAll("#controls [data-do]")) {
      b.addEventListener("click", () => this.control(b.dataset.do));
    }
    // the message stays on top of the page while it scrolls (a phone's rack under it): a click
    // or tap on it puts it away, and for the keyboard its ✕ button and Esc (anywhere) do
    $("message").addEventListener("click", () => this.putAwayMessage());
    for (const b of document.querySelectorAll("[data-sort]")) {
      b.addEventListener("click", () => { if (this.rack) { this.rack.sort(b.dataset.sort); this.clearSelection(); this.renderRack(); } });
    }
    $("arrange").addEventListener("click", () => this.setArranging(!this.arranging));
    $("typed").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("typed-move").value.trim();
      // Play with nothing typed (or spaces) did nothing at all: say what the field wants
      if (!text) { this.setMessage(`type a move first, ${$("typed-move").placeholder} (All legal moves lists the moves legal now).`); return; }
      this.send(text).then((ok) => { if (ok) $("typed-move").value = ""; });
    });
    $("hint").addEventListener("click", () => this.showHint());
    $("play-hint").addEventListener("click", () => this.playHint());
    $("download").addEventListener("click", () => this.download());
    await this.reopen();
    const rack = $("rack");
    rack.addEventListener("dragover", (ev) => ev.preventDefault());
    rack.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const from = Number(ev.dataTransfer.getData("text/plain"));
      if (ev.target === rack && !Number.isNaN(from)) this.moveTile(from, this.rack.order.length - 1);
    });
    // a tap on the rack's free space puts the piece picked up at the end
    rack.addEventListener("click", (ev) => {
      if (ev.target === rack && this.lifted !== null) this.place(this.rack.order.length - 1);
    });
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && !$("message").hidden && !$("play-panel").hidden) { this.putAwayMessage(); return; }
      const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement?.tagName);
      if (typing || !this.view || $("play-panel").hidden) return;
      if (ev.key === "Escape" && this.lifted !== null) { this.lifted = null; this.renderRack(); this.focusRack(); }
      else if (ev.key === "Escape") { this.clearSelection(); this.render(); }
      else if ((ev.key === "h" || ev.key === "H") && !ev.ctrlKey && !ev.metaKey && !ev.altKey) this.showHint();
    });
  }

  variant() { return this.options.variants.find((v) => v.name === $("variant").value); }

  renderOptions() {
    const box = $("variant-options");
    box.replaceChildren();
    for (const o of this.variant().options) {
      let input;
      const id = `opt-${o.name}`;
      if (o.accepted === "on|off") {
        input = h("input", { type: "checkbox", id, "data-option": o.name, checked: o.default === "on" });
      } else if (o.accepted.includes("|")) {
        input = h("select", { id, "data-option": o.name });
        for (const c of o.accepted.split("|")) input.append(h("option", { value: c, text: c, selected: String(o.default) === c }));
      } else {
        const [lo, hi] = o.accepted.split("..").map(Number);
        // required: emptied, it was sent as "button_jokers=" and refused as a bad value
        input = h("input", { type: "number", id, "data-option": o.name, min: lo, max: hi, value: o.default, required: true });
        if (hi - lo <= 3) {
          input = h("select", { id, "data-option": o.name });
          for (let n = lo; n <= hi; n++) input.append(h("option", { value: n, text: n, selected: Number(o.default) === n }));
        }
      }
      input.addEventListener("change", () => this.renderBots());
      box.append(h("label", { title: o.doc }, `${o.name.replace(/_/g, " ")} `, input));
    }
    this.renderBots();
  }

  players() {
    const p = document.querySelector('[data-option="players"]');
    return p ? Number(p.value) : 4;
  }

  renderBots() {
    const box = $("bot-seats");
    const before = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren();
    for (let seat = 1; seat < this.players(); seat++) {
      const s = h("select", { "data-testid": `bot-${seat}`, "aria-label": `bot in seat ${seat}` });
      for (const b of this.options.bots) s.append(h("option", { value: b, text: b, selected: (before[seat - 1] || "greedy") === b }));
      box.append(h("label", {}, `seat ${seat} `, s));
    }
  }

  rulesText() {
    const v = this.variant();
    const parts = [];
    for (const o of v.options) {
      const input = document.querySelector(`[data-option="${o.name}"]`);
      // a number field's number, not its text: the field takes "1e3" (1000), the service digits
      const value = input.type === "checkbox" ? (input.checked ? "on" : "off")
        : input.type === "number" && Number.isFinite(input.valueAsNumber) ? String(input.valueAsNumber) : String(input.value);
      if (value !== String(o.default)) parts.push(`${o.name}=${value}`);
    }
    return parts.length ? `${v.name}(${parts.join(",")})` : v.name;
  }

  async newGame() {
    // a game in progress would be gone from this tab: ask first (a finished one is not)
    // (nor one found gone from the server: there is nothing left to leave unfinished)
    if (this.view && !this.view.over && !this.gone && !this.busy &&
        !window.confirm("Start a new game? The game in progress is left unfinished.")) return;
    const bots = [...$("bot-seats").querySelectorAll("select")].map((s) => s.value);
    // the seed as typed: past 2^53 a Number rounds it (api.js), so its digits go as a BigInt
    const typed = $("seed").value;
    const exact = /^\d+$/.test(typed) && !Number.isSafeInteger(Number(typed));
    const seed = typed === "" ? undefined : exact && JSON.rawJSON ? BigInt(typed) : Number(typed);
    await this.run(async () => {
      if (exact && !JSON.rawJSON) throw new Error(`this browser would round a seed past ${Number.MAX_SAFE_INTEGER}; choose one up to that`);
      const view = await api.create({ rules: this.rulesText(), bots, seed });
      this.show(view);
      $("rack").querySelector("button")?.focus();
    }, "No new game");
  }

  show(view) {
    $("game").hidden = false;
    $("hint-out").replaceChildren();
    this.gone = false;
    this.rack = new RackOrder(view.id);
    this.setView(view);
    remember(view.id);
    rememberSetup(view);
  }

  // After a reload: the game this tab was playing, as the server has it now, and the new-game
  // form set to it (the form's defaults would describe another game, and New game start that).
  async reopen() {
    const id = remembered();
    const setup = rememberedSetup();
    if (!id) {  // a game found gone before this reload: the form is set to it, as it was then
      if (setup) this.fillSetup(setup);
      return;
    }
    const ok = await this.run(async () => {
      const view = await api.view(id);
      this.show(view);
      this.fillSetup(view);
    }, "Your game could not be reopened");
    // gone from the server ("Start a new game above"): the form above is set to that game
    if (!ok && setup && this.failure?.status === 404) this.fillSetup(setup);
  }

  // The form set to a game's rules text ("remi(players=3,tabla=off)") and bots; not its seed.
  // `view`: a game's view, or the setup remembered of one ({rules, bots, seat}).
  fillSetup(view) {
    const m = /^([^(]+)(?:\((.*)\))?$/.exec(view.rules || "");
    if (!m || !this.options.variants.some((v) => v.name === m[1])) return;
    $("variant").value = m[1];
    this.renderOptions();
    const given = new Map((m[2] || "").split(",").filter(Boolean).map((kv) => kv.split("=").map((x) => x.trim())));
    for (const o of this.variant().options) {
      const input = document.querySelector(`[data-option="${o.name}"]`);
      const value = given.has(o.name) ? given.get(o.name) : String(o.default);
      if (input.type === "checkbox") input.checked = value === "on";
      else input.value = value;
    }
    this.renderBots();
    const seats = [...$("bot-seats").querySelectorAll("select")];
    view.bots.filter((_, seat) => seat !== view.seat).forEach((name, i) => { if (seats[i]) seats[i].value = name; });
  }

  // After a failed request: a refused move changed nothing, but a bot that stopped after the
  // person's move, or a meld laid before one of its additions failed, did; show the game as the
  // server has it (the message stays).
  // `sent`: the move refused. Played from another tab of the same game (a duplicated tab), the
  // game had gone on without this one, and the engine's refusal ("first take a tile") spoke of a
  // position the person never saw here: say why the game shown changed.
  async resync(sent = null) {
    // no answer at all (status 0) or no game (404): asking again would only wait or fail again
    if (!this.view || !this.failure || this.failure.status === 0 || this.failure.status === 404) return;
    try {
      const view = await api.view(this.view.id);
      const before = this.view.actions_played;
      if (view.actions_played !== before || view.your_turn !== this.view.your_turn) {
        // a refused move played nothing, so moves after this tab's last came from elsewhere;
        // unless the move was played and then the bots stopped (the service's words say so:
        // games.py, _bots_after)
        const played = / was played, but then the bots stopped/.test(this.failure.message);
        this.plan = null;  // the hint's plan was for the game before
        this.setView(view, true);
        if (sent !== null && view.actions_played > before && !played && !$("message").hidden) {
          $("message-text").textContent += " The game had gone on in another tab or window; it is shown here as it is now.";
        }
      }
    } catch { /* the message already says what went wrong */ }
  }

  // Run one request at a time; an error shows the service's message (the engine's, with its
  // rule) after `what` failed: "Not played", "No hint"...
  async run(work, what = "Not played") {
    if (this.busy) return false;
    this.busy = true;
    this.failure = null;
    this.setMessage(null);
    document.body.classList.add("busy");
    this.renderControls();
    // A slow answer (search bots, the pure-Python backend) says so on the status line and the
    // New game button: the disabled buttons alone looked like a page that had stopped working.
    const slow = setTimeout(() => {
      $("status").textContent = DOING[what] || "Waiting for the service…";
      $("status").classList.add("waiting");
      if (what === "No new game") $("new-game").textContent = "Starting…";
    }, 400);
    try {
      await work();
      return true;
    } catch (err) {
      this.failure = err;
      if (err.status === 0 && what === "Not played") this.unanswered = true;
      let text = err.message;
      if (err.status === 404 && /^no game /.test(text)) {  // expired or evicted: say what to do
        forget();
        this.gone = true;
        text += ". Start a new game above.";
      }
      this.setMessage(text, what);
      return false;
    } finally {
      clearTimeout(slow);
      $("status").classList.remove("waiting");
      $("new-game").textContent = "New game";
      // a game found gone: its status line ("Your turn…") would invite moves that cannot be made
      if (this.view) $("status").textContent = this.statusText();
      this.busy = false;
      document.body.classList.remove("busy");
      this.renderControls();
      // the button that was pressed is disabled or gone now: keep a keyboard player in the game
      // (on the rack, one Tab before the moves) rather than back at the top of the page; a game
      // won with an empty rack is over: on to its analysis
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost && this.view && !$("game").hidden) {
        const to = $("rack").querySelector('[tabindex="0"]') || (this.view.over ? $("analyse-game") : $("controls").querySelector("button:not(:disabled):not([hidden])"));
        to?.focus({ preventScroll: true });
      }
    }
  }

  // (after a move that ended a round, the line says so first: the rack and the table were dealt
  // anew, and the round's end was told only at the foot of Standings)
  statusText() { return this.gone ? "This game is no longer on the server: start a new game above." : `${this.roundNote}${this.view.status}`; }

  setMessage(text, what = "Not played") {
    $("message").hidden = !text;
    $("message-text").textContent = text ? `${what}: ${text}` : "";
  }

  // The message put away: a focus on its ✕ goes back to the game (the rack), or the new-game form.
  putAwayMessage() {
    const m = $("message");
    const had = m.contains(document.activeElement);
    m.hidden = true;
    if (!had) return;
    const back = this.view && !$("game").hidden ? $("rack").querySelector('[tabindex="0"]') : null;
    (back || $("new-game")).focus({ preventScroll: true });
  }

  setView(view, keepHint = false) {
    // a round ended and the person has not moved since (in the log, no move of theirs in the
    // round now played), while the game goes on: said on the status line until their next move;
    // read from the view alone, so that a reload says it too (it was lost there, told only in
    // Moves and Standings)
    const n = view.round_results.length;
    const mine = view.log.filter((m) => m.seat === view.seat);
    const unmoved = !mine.length || mine[mine.length - 1].round < n;
    this.roundNote = n && unmoved && !view.over ? `${roundEnd(view, n - 1, true)} ` : "";
    this.view = view;
    this.rack.reconcile(view.observation.rack);
    this.clearSelection();
    if (!keepHint) {  // a move was played: the hint (its steps and marks) was for the position before
      this.hintMarks = { tiles: [], melds: new Set() };
      this.plan = null;
      $("hint-out").replaceChildren();
    }
    this.render();
  }

  clearSelection() {
    this.selected = this.rack ? this.rack.order.map(() => false) : [];
    this.meld = null;
    this.joker = null;
    this.lifted = null;
  }

  selectedTokens() { return this.rack.order.filter((_, i) => this.selected[i]); }

  // Remi: a piece held off the rack until it is laid in a new meld (a retrieved Joly, RO-9.5; a
  // tile taken from the train, RO-9.4); the legal lays hold it, so a selection is laid with it.
  pending() { return (this.view && this.view.your_turn && this.view.observation.turn_state?.pending) || null; }

  // The pieces a hint may play that are not on the rack (see hintMarks).
  offRack() { return { held: this.pending(), discard: this.view.observation.last_discard || null }; }

  layTokens() {
    const sel = this.selectedTokens();
    return sel.length && this.pending() ? [...sel, this.pending()] : sel;
  }

  render() {
    const v = this.view;
    $("status").textContent = this.statusText();
    // words and controls of the variant: cards have no jokers to retrieve, pairs are Rummy 101's
    const cards = v.variant === "classic";
    // a finger taps: a phone's person was told to click
    const verb = window.matchMedia?.("(pointer: coarse)").matches ? "tap" : "click";
    $("table-help").textContent = cards ? `(${verb} a meld to lay off a card on it)`
      : `(${verb} a meld to add to it, a joker to retrieve it)`;
    document.querySelector('[data-do="retrieve"]').hidden = cards;
    document.querySelector('[data-sort="pairs"]').hidden = v.variant !== "rummy101";
    $("typed-move").placeholder = cards ? "e.g. run 3S 4S 5S or discard KC" : "e.g. run R3 R4 R5 or discard K7";
    renderPlayers($("players"), v.observation, v.bots, v.standings, cards ? "card" : "piece");
    renderInfo($("info"), v.observation, v.bots);
    this.renderTable();
    this.renderRack();
    this.renderLog();
    this.renderStandings();
  }

  renderTable() {
    const mine = this.view.your_turn;
    // the table is drawn anew: a meld or joker that had the focus (Enter on it) keeps it, else
    // the focus fell to the page's body and the next Tab started at the top of the page
    const had = document.activeElement;
    const again = had && $("table").contains(had) && had.dataset.meld !== undefined
      ? `[data-meld="${had.dataset.meld}"]${had.dataset.index !== undefined ? `[data-index="${had.dataset.index}"]` : ".meld-head"}`
      : null;
    renderTable($("table"), this.view.observation.table, this.view.bots, {
      onMeld: mine ? (id) => { this.meld = this.meld === id ? null : id; this.joker = null; this.renderTable(); this.renderControls(); } : null,
      onJoker: mine ? (id, j) => { const same = this.joker && this.joker[0] === id && this.joker[1] === j; this.joker = same ? null : [id, j]; this.meld = null; this.renderTable(); this.renderControls(); } : null,
      selectedMeld: this.meld, selectedJoker: this.joker, marks: this.hintMarks.melds,
    });
    if (again) $("table").querySelector(again)?.focus({ preventScroll: true });
  }

  renderRack() {
    const box = $("rack");
    box.replaceChildren();
    const order = this.rack.order;
    const held = this.pending();
    const heldName = () => (this.view.observation.turn_state.pending_kind === "joly" ? "the Joly you retrieved" : pieceLabel(held));
    $("rack-count").textContent = `(${order.length})${held ? ` + ${heldName()}, to lay now with two of these` : ""}`;
    const hinted = new Map();
    for (const t of this.hintMarks.tiles) hinted.set(t, (hinted.get(t) || 0) + 1);
    this.focus = Math.min(this.focus, Math.max(0, order.length - 1));
    order.forEach((t, i) => {
      const mark = hinted.get(t) > 0;
      if (mark) hinted.set(t, hinted.get(t) - 1);
      const lifted = this.lifted === i;
      const b = piece(t, { button: true, testid: "tile", extra: `${this.selected[i] ? "selected" : ""}${mark ? " hinted" : ""}${lifted ? " lifted" : ""}` });
      b.setAttribute("role", "option");
      b.setAttribute("aria-selected", String(!!this.selected[i]));
      b.setAttribute("aria-label", `${pieceLabel(t)}, position ${i + 1} of ${order.length}${mark ? ", in the hint" : ""}${lifted ? ", picked up to move" : ""}`);
      b.setAttribute("tabindex", i === this.focus ? "0" : "-1");
      b.dataset.pos = String(i);
      b.draggable = true;
      b.addEventListener("click", () => { this.focus = i; this.tap(i); });
      b.addEventListener("keydown", (ev) => this.rackKey(ev, i));
      b.addEventListener("dragstart", (ev) => { ev.dataTransfer.setData("text/plain", String(i)); ev.dataTransfer.effectAllowed = "move"; b.classList.add("dragging"); });
      b.addEventListener("dragend", () => b.classList.remove("dragging"));
      b.addEventListener("dragover", (ev) => { ev.preventDefault(); b.classList.add("drop-target"); });
      b.addEventListener("dragleave", () => b.classList.remove("drop-target"));
      b.addEventListener("drop", (ev) => {
        ev.preventDefault(); ev.stopPropagation();
        const from = Number(ev.dataTransfer.getData("text/plain"));
        if (!Number.isNaN(from)) this.moveTile(from, i);
      });
      box.append(b);
    });
    box.classList.toggle("arranging", this.arranging);
    this.renderArrange();
    this.renderControls();
  }

  // Move on or off: the button says which, the line under it what a tap does now.
  setArranging(on) {
    this.arranging = on;
    this.lifted = null;
    if (this.rack) this.renderRack();
  }

  renderArrange() {
    const word = this.view && this.view.variant === "classic" ? "card" : "tile";
    const b = $("arrange");
    b.setAttribute("aria-pressed", String(this.arranging));
    b.textContent = this.arranging ? "Done moving" : `Move ${word}s`;
    const help = $("arrange-help");
    help.hidden = !this.arranging;
    help.textContent = !this.arranging ? ""
      : this.lifted === null ? `Tap a ${word} to pick it up, then the ${word} whose place it takes (or the free space at the end of the rack).`
        : `${pieceLabel(this.rack.order[this.lifted])} picked up: tap where it goes (itself to put it back).`;
  }

  // A tap (click, Space, Enter) on the piece at i: selects it, or with Move on picks it up or
  // puts the piece picked up in its place.
  tap(i) {
    if (!this.arranging) { this.toggle(i); return; }
    if (this.lifted === null) { this.lifted = i; this.renderRack(); }
    else if (this.lifted === i) { this.lifted = null; this.renderRack(); }
    else { this.place(i); return; }
    this.focusRack();
  }

  place(to) {
    const from = this.lifted;
    this.lifted = null;
    this.moveTile(from, to);
    this.focus = to;
    this.renderRack();
    this.focusRack();
  }

  focusRack() { $("rack").querySelector(`[data-pos="${this.focus}"]`)?.focus({ preventScroll: true }); }

  rackKey(ev, i) {
    const n = this.rack.order.length;
    const go = (j) => { this.focus = (j + n) % n; this.renderRack(); $("rack").querySelector(`[data-pos="${this.focus}"]`)?.focus(); };
    if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
      ev.preventDefault();
      const d = ev.key === "ArrowLeft" ? -1 : 1;
      if (ev.altKey || ev.shiftKey) {
        const j = Math.max(0, Math.min(n - 1, i + d));
        this.moveTile(i, j);
        this.focus = j;
        $("rack").querySelector(`[data-pos="${j}"]`)?.focus();
      } else go(i + d);
    } else if (ev.key === "Home") { ev.preventDefault(); go(0); }
    else if (ev.key === "End") { ev.preventDefault(); go(n - 1); }
    else if (ev.key === " " || ev.key === "Enter") {
      ev.preventDefault();
      this.focus = i;
      this.tap(i);
      if (!this.arranging) $("rack").querySelector(`[data-pos="${i}"]`)?.focus();
    }
  }

  toggle(i) {
    this.selected[i] = !this.selected[i];
    this.renderRack();
  }

  moveTile(from, to) {
    this.lifted = null;  // a drag or Alt+arrow moves pieces: a picked-up position would be stale
    const flag = this.selected.splice(from, 1)[0];
    this.rack.move(from, to);
    this.selected.splice(to, 0, flag);
    this.renderRack();
  }

  legal() { return (this.view && this.view.legal) || []; }

  // The legal moves of the selection: its pieces exactly, on the picked meld or joker; with a
  // meld or joker picked and no piece selected yet, every move on it (which piece goes there).
  matching() {
    const sel = key(this.layTokens());
    return this.legal().map(parseAction).filter((a) => {
      if (this.meld !== null && a.meld !== this.meld) return false;
      if (this.joker && !(a.verb === "retrieve" && a.meld === this.joker[0] && a.index === this.joker[1])) return false;
      if (!sel) return this.meld !== null || !!this.joker;
      return key(a.pieces) === sel;
    });
  }

  renderControls() {
    if (!this.view) return;
    const mine = this.view.your_turn && !this.busy && !this.gone;
    const n = this.selectedTokens().length;
    const verbs = new Set(this.legal().map((t) => t.split(" ")[0]));
    // Lay meld is not offered before the turn's take: it was refused, "first take a tile"
    // (R101-3, RO-5, CR-3). After it, a selection that is no meld is still sent, for the engine
    // to say why.
    const taking = !["run", "set", "pair", "lay"].some((v) => verbs.has(v)) && (verbs.has("draw") || verbs.has("take"));
    const enable = { draw: mine && verbs.has("draw"), take: mine && verbs.has("take"), meld: mine && n >= 2 && !taking, add: mine && n === 1 && this.meld !== null, retrieve: mine && n === 1 && !!this.joker, discard: mine && n === 1 && verbs.has("discard") };
    for (const b of document.querySelectorAll("#controls [data-do]")) {
      b.disabled = !enable[b.dataset.do];
      if (b.dataset.do === "draw" || b.dataset.do === "take") b.hidden = !verbs.has(b.dataset.do) && !["draw", "take"].some((x) => verbs.has(x));
    }
    // the piece a take takes, on its button: on a phone the last discard is a screen above it
    const top = verbs.has("take") ? this.view.observation.last_discard : null;
    const take = document.querySelector('#controls [data-do="take"]');
    take.replaceChildren("Take discard", ...(top ? [" ", piece(top, { small: true })] : []));
    if (top) take.setAttribute("aria-label", `Take discard: ${pieceLabel(top)}`);
    else take.removeAttribute("aria-label");
    const bare = $("bare");
    bare.replaceChildren();
    // the moves without pieces, and Remi's exchange of doubles (RO-3: a few announcements or
    // acceptances, each a button; selecting a tile of the pair to make one appear was a guess)
    // A seat without a double is asked too (RO-3: the order must not show who holds one), and
    // its only move is to decline: say that plainly, as a pass.
    const ex = this.view.observation.exchange;
    const pass = this.legal().length === 1 && this.legal()[0] === "decline"
      ? `No ${ex && ex.announcer !== null ? `${ex.size} ` : ""}double: pass` : null;
    // Remi's take from the train (RO-9.4, `break N`) is a button of the take phase too, the tile it
    // takes drawn on it: it was only in All legal moves, as "break 5", with no word of the train
    const train = this.view.observation.train || [];
    for (const t of this.legal()) {
      const verb = t.split(" ")[0];
      if ((t.includes(" ") && !["announce", "accept", "break"].includes(verb)) || t === "draw" || t === "take") continue;
      const tile = verb === "break" ? train[parseAction(t).index] : null;
      if (tile) {
        const after = train.length - 1 - parseAction(t).index;
        const label = `Take ${pieceLabel(tile)} from the train (RO-9.4): lay it at once with two of your tiles; the ${after} tile${after === 1 ? "" : "s"} after it then come to your rack`;
        bare.append(h("button", { type: "button", disabled: !mine, "data-action": t, "aria-label": label, title: label, onclick: () => this.send(t) }, "Take from the train ", piece(tile, { small: true })));
        continue;
      }
      bare.append(h("button", { type: "button", disabled: !mine, "data-action": t, onclick: () => this.send(t) }, pass || describe(t)));
    }
    const sug = $("suggest");
    sug.replaceChildren();
    const found = mine ? this.matching() : [];
    if (found.length) {
      sug.append(h("span", { class: "help", text: "Legal with this selection: " }));
      for (const a of found.slice(0, 24)) sug.append(h("button", { type: "button", class: "suggestion", "data-action": a.text, onclick: () => this.send(a.text) }, describe(a.text, this.view.observation.table)));
    } else if (mine && (n || this.meld !== null || this.joker)) {
      const word = this.view.variant === "classic" ? "card" : "tile";
      // one piece picked while no discard is legal but `reset` is: melds laid short of the
      // opening (staged: R101-7, RO-8) or a taken discard not laid yet (R101-4, RO-10) hold it
      // back, and the line says which (it spoke of melds "of more than 3", another thing)
      const ts = this.view.observation.turn_state || {};
      const waits = n === 1 && !verbs.has("discard") && verbs.has("reset");
      // Remi's exchange of doubles (RO-3): a piece that is no double on offer was told of melds
      // "of more than 3", which nothing in this phase lays
      const exchange = this.legal().length && this.legal().every((t) => ["announce", "accept", "decline"].includes(t.split(" ")[0]));
      const text = n && exchange ? "The exchange of doubles comes first (RO-3): its moves are the buttons above; play begins after it."
        : n && taking ? `First take a ${word} (Draw or Take discard); then lay melds or discard.`
        : waits && ts.must_use ? `Discard waits: first lay ${ts.must_use}, the discard you took, or press Undo this turn's plays.`
        : waits && ts.staged ? "Discard waits: the melds laid this turn do not open yet. Lay more to open, or press Undo this turn's plays, then discard."
        : n ? "No single legal move uses exactly this selection (a meld of more than 3 is laid as 3, then added to)."
        : this.joker ? "No tile of yours can take the place of this joker now."
          : `None of your ${this.view.variant === "classic" ? "cards" : "pieces"} can be added to meld ${this.meld} now.`;
      sug.append(h("span", { class: "help", text }));
    }
    const all = $("legal");
    all.replaceChildren();
    $("legal-count").textContent = String(this.legal().length);
    for (const t of this.legal()) all.append(h("button", { type: "button", class: "legal", disabled: !mine, "data-action": t, onclick: () => this.send(t) }, t));
    $("hint").disabled = !mine;
    $("play-hint").disabled = !mine || !this.view.hints;
  }

  // More than one legal move does what the person picked (where a joker stands): said, and the
  // focus on the first of the moves listed under the rack, one of which is theirs to choose.
  askToChoose(what) {
    this.setMessage(`${what}: choose one of the moves listed under the rack.`);
    $("suggest").querySelector("button")?.focus({ preventScroll: true });
  }

  // After a move that got no answer: whether the game is still as shown. If the move was played
  // on the server after all, the game is shown as it is now with a note, and the move asked for
  // now (pressed again, as the timeout's message invites) is not sent: chosen in the position
  // before, it was refused by the one after, "the game had gone on in another tab", or, legal in
  // both (Play hint), played twice.
  async caughtUp() {
    if (!this.unanswered) return true;
    const now = await api.view(this.view.id);
    this.unanswered = false;
    if (now.actions_played === this.view.actions_played && now.your_turn === this.view.your_turn) return true;
    this.setView(now);
    this.setMessage("your earlier move, whose answer did not come in time, was played on the server after all; the game is shown here as it is now (Moves lists what was played). Choose your move again.", "Note");
    return false;
  }

  async send(text) {
    const ok = await this.run(async () => {
      if (!(await this.caughtUp())) return;
      const before = this.view.actions_played;
      const view = await api.act(this.view.id, text);
      const elsewhere = this.wentOn(before, view);
      const follows = !elsewhere && this.follows(text, view);
      this.setView(view, follows);
      if (follows) this.tickHint();
      if (elsewhere) this.saySeenElsewhere();
    });
    if (!ok) await this.resync(text);
    return ok;
  }

  control(what) {
    const sel = this.selectedTokens();
    if (what === "draw" || what === "take") return this.send(what);
    if (what === "discard") return this.send(`discard ${sel[0]}`);
    if (what === "add") {
      const legal = this.legal().map(parseAction).filter((a) => a.verb === "add" && a.meld === this.meld && key(a.pieces) === key(sel));
      // a joker goes on at either end of a run (add * to 0@start, @end): not at a guess, as the
      // first of them was; the person picks one of the moves listed under the rack
      if (legal.length > 1) {
        this.askToChoose(`${sel[0]} can go on meld ${this.meld} in ${legal.length} places`);
        return null;
      }
      return this.send(legal.length ? legal[0].text : `add ${sel[0]} to ${this.meld}`);
    }
    if (what === "retrieve") return this.send(`retrieve ${this.joker[0]}:${this.joker[1]} with ${sel[0]}`);
    if (what === "meld") return this.layMeld(this.layTokens());
    return null;
  }

  // Lay the selected pieces as one meld: a legal 3-piece window (or pair) first, then the others
  // added to it one at a time; a selection that is no meld is sent as it is, for the engine to say why.
  async layMeld(sel) {
    const lays = this.legal().map(parseAction).filter((a) => ["run", "set", "pair", "lay"].includes(a.verb));
    const exacts = lays.filter((a, i) => key(a.pieces) === key(sel) && lays.findIndex((b) => b.text === a.text) === i);
    // a joker among the pieces can stand at either end (run * Y6 Y7, run Y6 Y7 *): the first was
    // laid, a choice the person never made (and Y9 would not go on it); the moves are listed
    // under the rack, each a button: one of them is the person's to choose
    if (exacts.length > 1) {
      this.askToChoose(`${sel.join(" ")} can be laid in ${exacts.length} ways (where the joker stands)`);
      return false;
    }
    const exact = exacts[0];
    // two pieces are a pair in Rummy 101 only (R101-5): elsewhere "pair" was refused as no
    // action of the variant, not for the meld's size ("meld takes exactly 3 cards")
    const verb = sel.length === 2 && this.view.variant === "rummy101" ? "pair" : "meld";
    if (exact || sel.length <= 3) return this.send(exact ? exact.text : `${verb} ${sel.join(" ")}`);
    const counts = (list) => list.reduce((m, t) => m.set(t, (m.get(t) || 0) + 1), new Map());
    const have = counts(sel);
    const parts = lays.filter((a) => [...counts(a.pieces)].every(([t, c]) => (have.get(t) || 0) >= c));
    if (!parts.length) return this.send(`meld ${sel.join(" ")}`);
    const ok = await this.run(async () => {
      if (!(await this.caughtUp())) return;
      // the selection is one meld, or nothing is laid: a legal three of it (4H 4D 4C of 4H 4D 4C
      // 6D) was laid for good, and "Not played: 6D could not be added" said nothing of that
      const plans = await this.growths(sel, parts);
      // a joker among them that can stand at more than one place (R4 R5 R6 *: R3 or R7): asked, not guessed
      if (new Set(plans.map((p) => p.order.join(" "))).size > 1) {
        throw new ApiError(422, `${sel.join(" ")} can be laid in more than one way (where the joker stands): select three of them and lay those first (the moves listed under the rack say where the joker goes), then add the others`);
      }
      const plan = plans[0];
      if (!plan) {
        const whole = await api.validateMeld(this.view.rules, sel.join(" "));
        throw new ApiError(422, whole.valid ? `${sel.join(" ")} cannot be laid as three of it and the rest added; lay three, then add the others one by one` : whole.reason);
      }
      let view = await api.act(this.view.id, plan.part.text);
      const meldId = view.observation.table[view.observation.table.length - 1].id;
      const rest = [];
      for (const [t, side] of plan.adds) {
        const adds = view.legal.map(parseAction).filter((a) => a.verb === "add" && a.meld === meldId && a.pieces[0] === t);
        const add = adds.find((a) => a.pos === side) || adds.find((a) => a.pos === null) || adds[0];
        if (add) view = await api.act(this.view.id, add.text);
        else rest.push(t);
      }
      this.setView(view);
      if (rest.length) this.setMessage(`meld ${meldId} was laid without ${rest.join(" ")}, which could not be added to it`, "Partly played");
    });
    if (!ok) await this.resync();
    return ok;
  }

  // How the selection is laid as one meld, asked of the service's validate/meld (its `additions`:
  // which piece may go at which place of a meld) before anything is played: a legal three of it
  // (`parts`, in the engine's order: run Y6 Y7 *), then each other piece added at the start or
  // the end. A list of {part, adds: [[piece, "start" | "end"], ...], order}, one per part that
  // grows into the whole selection; empty when none does (it is no meld; 5S 3S 4S 6S, a run in a
  // rack's order, is one).
  async growths(sel, parts) {
    const plans = [];
    for (const part of parts) {
      const order = [...part.pieces];
      const rest = [...sel];
      for (const t of part.pieces) rest.splice(rest.indexOf(t), 1);
      const adds = [];
      let check = await api.validateMeld(this.view.rules, order.join(" "));
      while (rest.length && check.valid) {
        const hit = (check.additions || []).find(([, t]) => rest.includes(t));
        if (!hit) break;
        const [at, t] = hit;
        rest.splice(rest.indexOf(t), 1);
        adds.push([t, at === 0 ? "start" : "end"]);
        order.splice(at, 0, t);
        check = await api.validateMeld(this.view.rules, order.join(" "));
      }
      if (!rest.length && check.valid) plans.push({ part, adds, order });
    }
    return plans;
  }

  async showHint() {
    if (!this.view || !this.view.your_turn) return;
    await this.run(async () => {
      // the hint is for the game as the server has it: played on in another tab of it (a
      // duplicated tab), this one showed a 22-tile rack to discard from beside a hint to draw
      const now = await api.view(this.view.id);
      const moved = now.actions_played !== this.view.actions_played;
      // (a move of this tab's whose answer did not come in time, played after all, is no other tab's)
      const mine = this.unanswered;
      this.unanswered = false;
      if (moved) this.setView(now);
      if (!now.your_turn) return;
      const answer = await api.hint(this.view.id);
      const out = $("hint-out");
      out.replaceChildren();
      if (moved) out.append(h("p", { class: "help", "data-testid": "hint-moved", text: mine ? "Your earlier move, whose answer did not come in time, was played on the server after all; the game is shown here as it is now, and the hint is for this position." : "The game had gone on in another tab or window; it is shown here as it is now, and the hint is for this position." }));
      if (!answer.available) { out.append(h("p", { class: "help", "data-testid": "no-hint", text: answer.message })); return; }
      out.append(renderSteps(answer.turn.steps, answer.turn.evaluation));
      // each action of the turn is a code of the steps, in order: the plan a move can follow
      const codes = out.querySelectorAll("[data-testid=hint-steps] code");
      this.plan = codes.length === answer.turn.actions.length ? { actions: answer.turn.actions, done: 0 } : null;
      this.hintMarks = hintMarks(answer.turn.actions, this.offRack());
      this.renderRack();
      this.renderTable();
    }, "No hint");
  }

  // Whether the game had gone on elsewhere (another tab of it) before a move of this tab that was
  // played: a move legal in both positions (Play hint, a draw) went through, and the game shown
  // jumped on by the other tab's moves without a word. The view's `moves` are this request's.
  wentOn(before, view) { return view.actions_played !== before + (view.moves || []).length; }

  saySeenElsewhere() {
    this.setMessage("your move was played, but the game had gone on in another tab or window before it; it is shown here as it is now (Moves lists what was played).", "Note");
  }

  // Whether `text`, just played, was the hint's next action and leaves more of it to play on this
  // turn (a draw does not: the hint asks to be asked again with the drawn tile known).
  follows(text, view) {
    const p = this.plan;
    const ok = !!p && p.actions[p.done] === text && text !== "draw" && view.your_turn && p.done + 1 < p.actions.length;
    if (ok) p.done += 1;
    else this.plan = null;
    return ok;
  }

  // The hint's actions played so far ticked; the marks on the rack and table for the rest.
  tickHint() {
    const codes = $("hint-out").querySelectorAll("[data-testid=hint-steps] code");
    codes.forEach((c, i) => {
      if (i < this.plan.done && !c.classList.contains("done")) {
        c.classList.add("done");
        c.append(h("span", { class: "sr-only", text: " (played)" }));
      }
    });
    this.hintMarks = hintMarks(this.plan.actions.slice(this.plan.done), this.offRack());
    this.renderRack();
    this.renderTable();
  }

  async playHint() {
    const ok = await this.run(async () => {
      if (!(await this.caughtUp())) return;
      const before = this.view.actions_played;
      const rounds = this.view.round_results.length;
      const view = await api.playHint(this.view.id);
      this.setView(view);
      if (this.wentOn(before, view)) this.saySeenElsewhere();
      // the turn played, step by step; not once the round it was played in ended (a bot went
      // out after it, or it went out): its list stayed beside the next round's new rack, as if
      // it were advice for it (the status line and Moves tell the round's end)
      if (view.round_results.length === rounds) {
        $("hint-out").replaceChildren(h("p", { class: "help", text: "Played:" }), renderSteps(view.played_hint.steps, null));
      }
    });
    if (!ok) await this.resync();
  }

  renderLog() {
    const log = $("log");
    log.replaceChildren();
    // a line where a round ended (the entries' rounds change, or the last entry's round has its
    // result): the moves of two deals ran on as one list
    const entries = this.view.log.slice(-14);
    const ended = (r) => log.append(h("li", { class: "round-end", "data-testid": "round-end", text: roundEnd(this.view, r, false) }));
    entries.forEach((m, i) => {
      if (i && entries[i - 1].round !== m.round) ended(entries[i - 1].round);
      const li = h("li", { class: m.by === "you" ? "you" : "" });
      li.append(h("span", { class: "n", text: String(m.n) }));
      li.append(h("span", { class: "who", text: m.by === "you" ? "you" : `seat ${m.seat} (${m.by})` }), document.createTextNode(": "));
      // the action's words in their order, its pieces drawn ("retrieve 0:2 with [B11]")
      m.action.split(/\s+/).forEach((w, i) => {
        if (i) li.append(document.createTextNode(" "));
        li.append(isPiece(w) ? pieces([w]) : document.createTextNode(w));
      });
      log.append(li);
    });
    const last = entries[entries.length - 1];
    if (last && last.round < this.view.round_results.length) ended(last.round);
    // the list scrolls to its latest line; scrollIntoView would scroll the page as well, away
    // from the status line and the table
    log.scrollTop = log.scrollHeight;
  }

  renderStandings() {
    const v = this.view;
    const box = $("standings");
    box.replaceChildren();
    const table = h("table", {}, h("caption", { class: "sr-only", text: "Standings" }));
    const head = h("tr", {}, h("th", { scope: "col", text: "Seat" }), h("th", { scope: "col", text: "Player" }), h("th", { scope: "col", text: "Total" }));
    v.round_scores.forEach((_, r) => head.append(h("th", { scope: "col", text: `R${r + 1}` })));
    table.append(head);
    const best = Math.max(...v.standings);
    v.bots.forEach((name, seat) => {
      const tr = h("tr", { class: v.over && v.standings[seat] === best ? "winner" : "" }, h("td", { text: String(seat) }), h("th", { scope: "row", text: name }), h("td", { text: String(v.standings[seat]) }));
      v.round_scores.forEach((scores) => tr.append(h("td", { text: String(scores[seat]) })));
      table.append(tr);
    });
    // the table scrolls sideways in a box of its own (a column per round: a classic match to 200
    // has dozens), and says so: a phone's scrollbar shows only while a finger moves it, and the
    // later rounds sat past the screen's edge with no sign of them. A fade at the edge that hides
    // more (edge.more-left, edge.more-right, from the scroll position), and the box takes the
    // keyboard's focus when it scrolls.
    const scroller = h("div", { class: "scroller", "data-testid": "standings-table" }, table);
    const edge = h("div", { class: "scroll-edge" }, scroller);
    box.append(edge);
    const cue = () => {
      const more = scroller.scrollWidth - scroller.clientWidth;
      edge.classList.toggle("more-left", more > 1 && scroller.scrollLeft > 1);
      edge.classList.toggle("more-right", more > 1 && scroller.scrollLeft < more - 1);
      if (more > 1) {
        scroller.tabIndex = 0;
        scroller.setAttribute("role", "region");
        scroller.setAttribute("aria-label", "Standings, a column per round: scrolls sideways");
      } else {
        scroller.removeAttribute("tabindex");
        scroller.removeAttribute("role");
        scroller.removeAttribute("aria-label");
      }
    };
    scroller.addEventListener("scroll", cue, { passive: true });
    // the box's width changes with the screen (a phone turned) and from none while the tab is hidden
    this.standingsSize?.disconnect();
    this.standingsSize = new ResizeObserver(cue);
    this.standingsSize.observe(scroller);
    cue();
    // a line per round, in a box of its own that shows the latest (a classic match to 200 can
    // take 80 rounds and more: the lines made Standings 1,600 px tall on a phone)
    const rounds = h("div", { class: "rounds", "data-testid": "rounds", role: "region", "aria-label": "How each round ended" });
    for (const [r, res] of v.round_results.entries()) {
      const who = res.winner === null || res.winner === undefined ? "nobody finished" : `${v.bots[res.winner] === "you" ? "you" : "seat " + res.winner} finished`;
      rounds.append(h("p", { class: "round", text: `Round ${r + 1}: ${res.end}${res.end === "finish" ? ` — ${who}` : ""}${res.joker_finish ? " with a joker" : ""}.` }));
    }
    if (v.round_results.length) box.append(rounds);
    if (rounds.scrollHeight > rounds.clientHeight) {  // scrolls: the keyboard can reach and scroll it
      rounds.tabIndex = 0;
      rounds.scrollTop = rounds.scrollHeight;
    }
    // the seed, once the game is over (before, it would deal the bots' racks): typed in Seed, it
    // deals this game again; a random one was shown nowhere but in the record
    if (v.over) box.append(h("p", { class: "over", "data-testid": "game-over", text: `Game over. Seed ${v.seed}: type it in Seed above to deal this game again.` }));
  }

  async download() {
    if (!this.view) return;
    await this.run(async () => {
      const rec = await api.record(this.view.id);
      const url = URL.createObjectURL(new Blob([toJSON(rec, 1)], { type: "application/json" }));
      const a = h("a", { href: url, download: `rummy101-${this.view.variant}-${this.view.seed}.json` });
      document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    }, "No record");
  }
}

// How round r (from 0) of the view ended: who went out or that the stock ran out, with the
// person's score of it (`short`: the status line) or every seat's (the Moves list).
function roundEnd(view, r, short) {
  const res = view.round_results[r];
  const scores = view.round_scores[r] || [];
  if (!res) return `Round ${r + 1} ended.`;
  const who = (seat) => (seat === view.seat ? "you" : `seat ${seat} (${view.bots[seat]})`);
  const how = res.end === "finish" && res.winner !== null && res.winner !== undefined
    ? `${who(res.winner)} went out${res.joker_finish ? " with a joker" : ""}`
    : res.end === "exhausted" ? "the stock ran out, nobody went out" : res.end;
  const points = short ? `you score ${scores[view.seat]}`
    : scores.map((p, seat) => `${who(seat)} ${p}`).join(", ");
  return `Round ${r + 1} ended: ${how}; ${points}.`;
}

// The rack's pieces and the table's melds that a hint's actions use, to mark them. The pieces are
// a list with a copy per piece played: a Set of their texts marked one of two Y12s when the hint
// played both (renderRack marks as many copies as the list holds). A piece that does not come
// from the rack is left out: the discard a "take" takes, the joker a "retrieve" brings back, the
// piece held off the rack (`held`) to lay now; a rack holding a copy of it had that copy marked.
function hintMarks(actions, { held = null, discard = null } = {}) {
  const tiles = [];
  const melds = new Set();
  const notFromRack = held ? [held] : [];
  for (const text of actions) {
    const a = parseAction(text);
    if (a.meld !== null) melds.add(a.meld);
    if (a.verb === "take") { if (discard) notFromRack.push(discard); }
    else tiles.push(...a.pieces);
    if (a.verb === "retrieve") notFromRack.push("*");
  }
  for (const t of notFromRack) {
    const i = tiles.indexOf(t);
    if (i >= 0) tiles.splice(i, 1);
  }
  return { tiles, melds };
}

export function renderSteps(steps, evaluation) {
  const ol = h("ol", { class: "steps", "data-testid": "hint-steps" });
  for (const s of steps) {
    const li = h("li", {});
    li.append(h("strong", { text: s.step.replace("_", " ") }), document.createTextNode(" "));
    const acts = s.actions || [];
    for (const t of acts) {
      const a = parseAction(t);
      li.append(h("code", { text: t }), document.createTextNode(" "));
      if (a.pieces.length && a.verb !== "take") li.append(pieces(a.pieces), document.createTextNode(" "));
    }
    if (s.reason) li.append(h("div", { class: "reason", text: s.reason }));
    ol.append(li);
  }
  if (evaluation) {
    // "1 tile left", not "1 tiles left"
    const left = (n, word) => `${n} ${word}${n === 1 ? "" : "s"} left`;
    const detail = evaluation.deadwood !== undefined
      ? `${left(evaluation.pieces_left, "piece")}, ${evaluation.deadwood} points of deadwood.`
      : evaluation.penalty_if_round_ended !== undefined
        ? `${left(evaluation.tiles_left, "tile")}, penalty ${evaluation.penalty_if_round_ended} if the round ended now.`
        : `${evaluation.round_points} points this round.`;
    const wrap = h("div", {}, ol, h("p", { class: "help", text: `Evaluation ${evaluation.score}${evaluation.finishes ? " (finishes the round)" : ""}: ${detail}` }));
    return wrap;
  }
  return ol;
}
