// Replay & analysis: a game record loaded on the server, stepped through turn by turn; at each
// turn the position before it, the move played, the hint's turn and the verdict (a mistake when the
// played turn scores clearly below the hint's, by the hint's own evaluation).

import { api, parseJSON } from "./api.js";
import { h, pieces, renderTable } from "./board.js";
import { renderSteps } from "./play.js";

const $ = (id) => document.getElementById(id);

// The replay this tab shows and its turn, so that a reload reopens them (as play.js its game).
const REPLAY_KEY = "rummy101.replay";
const remember = (id, at) => { try { sessionStorage.setItem(REPLAY_KEY, JSON.stringify({ id, at })); } catch { /* private mode */ } };
const forget = () => { try { sessionStorage.removeItem(REPLAY_KEY); } catch { /* private mode */ } };
const remembered = () => { try { return JSON.parse(sessionStorage.getItem(REPLAY_KEY) || "null"); } catch { return null; } };

// The service's note as a sentence of the page: its first letter upper case.
const sentence = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

export class ReplayPanel {
  constructor() {
    this.summary = null;
    this.at = 0;
    this.cache = new Map();
    this.loading = false;
  }

  init() {
    $("replay-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const file = $("record-file").files[0];
      const text = file ? await file.text() : $("record-text").value;
      if (!text.trim()) { this.message("Nothing to load: paste a game record (its JSON, e.g. from Download record) or choose a file."); return; }
      let record;
      try { record = parseJSON(text); } catch (err) { this.message(`Not loaded: the record is not JSON (${err.message}).`); return; }
      this.load(record);
    });
    // a record pasted (or typed) after a file was chosen is the one meant: the file had won,
    // and Load record loaded the file again under the new text
    $("record-text").addEventListener("input", () => { $("record-file").value = ""; });
    $("replay-first").addEventListener("click", () => this.show(0));
    $("replay-prev").addEventListener("click", () => this.show(this.at - 1));
    $("replay-next").addEventListener("click", () => this.show(this.at + 1));
    $("replay-last").addEventListener("click", () => this.show(this.summary.turns.length - 1));
    $("replay-analyse").addEventListener("click", () => this.analyseAll());
    document.addEventListener("keydown", (ev) => {
      if (!this.summary || $("replay-panel").hidden) return;
      if (["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement?.tagName)) return;
      if (ev.key === "ArrowLeft") { ev.preventDefault(); this.show(this.at - 1); }
      if (ev.key === "ArrowRight") { ev.preventDefault(); this.show(this.at + 1); }
    });
  }

  message(text) {
    const m = $("replay-message");
    m.hidden = !text;
    m.textContent = text || "";
  }

  // With `focus` (Analyse this game: the button pressed is hidden with its panel) the focus goes
  // to the turn's line while the first turn loads (on the form, an Enter would load the record
  // again), then to Next.
  async load(record, { focus = false } = {}) {
    this.message(null);
    const refuse = (why) => {  // the replay shown before stays
      this.message(`Not loaded: ${why}`);
      if (focus) $("replay-load").focus({ preventScroll: true });
    };
    let summary;
    try {
      summary = await api.loadReplay(record);
    } catch (err) {
      refuse(err.message);
      return;
    }
    // a record of no actions (saved before the first move) showed "Turn 1 of 0", empty boxes
    // and Next and Last enabled, and the service's "turn 0 does not exist": refused here
    if (!summary.turns.length) {
      refuse(`this record (${summary.rules}, seed ${summary.seed}) holds no moves: there is no turn to step through.`);
      return;
    }
    this.summary = summary;
    await this.open(0, focus);
  }

  // After a reload: the replay this tab showed, at its turn, as the server holds it. A replay
  // gone (idle for an hour, evicted, the service restarted) says so and what to do.
  async reopen() {
    const was = remembered();
    if (!was || typeof was.id !== "string") return false;
    try {
      this.summary = await api.replay(was.id);
    } catch (err) {
      forget();
      this.message(`Your replay could not be reopened: ${err.message}. Load the record again (Analyse this game on Play, or paste it above).`);
      return true;
    }
    await this.open(Number(was.at) || 0, false);
    return true;
  }

  async open(at, focus) {
    this.cache.clear();
    this.at = at;
    $("replay").hidden = false;
    if (focus) $("replay-pos").focus({ preventScroll: true });
    this.renderTurns();
    const names = this.names();
    const totals = this.summary.standings.map((t, i) => `${names[i]} ${t}`).join(", ");
    // analysis is the service's for some variants only (summary.hints): no button that would
    // end in "Analysed: 0 mistakes" where nothing was judged; and no words of the record before
    const analyse = $("replay-analyse");
    analyse.hidden = !this.summary.hints;
    analyse.textContent = "Analyse all turns";
    const none = this.summary.hints ? "" : ` There is no analysis for ${this.summary.variant} yet: step through the turns.`;
    $("replay-summary").textContent = `${this.summary.rules}, seed ${this.summary.seed}: ${this.summary.turns.length} turn${this.summary.turns.length === 1 ? "" : "s"}; ${this.summary.terminal ? "final" : "current"} standings ${totals}.${none}`;
    await this.show(at);
    if (focus && !$("replay-next").disabled) $("replay-next").focus({ preventScroll: true });
  }

  names() {
    const seats = this.summary.seats;
    return Array.from({ length: this.summary.players }, (_, i) => seats && seats[i] ? (seats[i] === "you" ? "you" : `seat ${i} (${seats[i]})`) : `seat ${i}`);
  }

  renderTurns() {
    const list = $("turns");
    // drawn anew: a turn's button that had the focus (Enter on it) keeps it
    const had = list.contains(document.activeElement) ? document.activeElement.dataset.turn : undefined;
    list.replaceChildren();
    const names = this.names();
    // a match of several rounds: a line where each round begins (seat 1 played turns 18 and 19,
    // one after the other, with nothing to say that a round ended between them)
    const turns = this.summary.turns;
    const rounds = turns.length && turns[turns.length - 1].round > 0;
    turns.forEach((t, i) => {
      if (rounds && (i === 0 || turns[i - 1].round !== t.round)) list.append(h("li", { class: "round-start", "data-testid": "replay-round", text: `Round ${t.round + 1}` }));
      const done = this.cache.get(t.turn);
      const mark = done ? (done.mistake ? "✗" : done.loss === null ? "·" : "✓") : "";
      const li = h("li", { class: `${t.turn === this.at ? "current" : ""}${done && done.mistake ? " mistake" : ""}` });
      const b = h("button", { type: "button", "data-testid": "replay-turn", "data-turn": t.turn, "aria-current": t.turn === this.at ? "step" : null,
        "aria-label": `turn ${t.turn + 1}, ${names[t.seat]}: ${t.actions.join(", ")}${done && done.mistake ? ", marked a mistake" : ""}`,
        onclick: () => this.show(t.turn) });
      b.append(h("span", { class: "mark", "aria-hidden": "true", text: mark }), h("span", { class: "n", text: `${t.turn + 1}.` }), h("span", { class: "who", text: names[t.seat] }), h("span", { class: "acts", text: t.actions.join(" · ") }));
      li.append(b);
      list.append(li);
    });
    if (had !== undefined) list.querySelector(`[data-turn="${had}"]`)?.focus({ preventScroll: true });
    // the list scrolls to the current turn; scrollIntoView would scroll the page as well, away
    // from the position being read below the list
    const cur = list.querySelector(".current");
    if (cur) {
      const box = list.getBoundingClientRect();
      const at = cur.getBoundingClientRect();
      if (at.top < box.top) list.scrollTop -= box.top - at.top;
      else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
    }
  }

  async turn(n) {
    if (!this.cache.has(n)) this.cache.set(n, await api.replayTurn(this.summary.id, n));
    return this.cache.get(n);
  }

  async show(n) {
    if (!this.summary) return;
    n = Math.max(0, Math.min(this.summary.turns.length - 1, n));
    this.at = n;
    remember(this.summary.id, n);
    $("replay-pos").textContent = `Turn ${n + 1} of ${this.summary.turns.length}`;
    const last = n === this.summary.turns.length - 1;
    const had = document.activeElement;
    $("replay-first").disabled = $("replay-prev").disabled = n === 0;
    $("replay-next").disabled = $("replay-last").disabled = last;
    // Enter on Next at the last turn but one (Prev at the second) disabled the focused button
    // and the focus fell to the page's body: it goes to the way back (on) instead
    if (had && had.disabled && had.closest(".replay-nav")) (last ? $("replay-prev") : $("replay-next")).focus();
    let t;
    try { t = await this.turn(n); } catch (err) { this.message(err.message); return; }
    if (this.at !== n) return;
    this.message(null);  // a turn shown: a failure of one before is over
    const names = this.names();
    $("replay-head").textContent = `Round ${t.round + 1}, ${names[t.seat]} to play (${t.phase}).`;
    renderTable($("replay-table"), t.observation.table, names.map((x) => x.replace(/ \(.*\)$/, "")));
    // "Your rack", not "Rack of you", for the person's own turns
    const whose = names[t.seat] === "you" ? "Your rack" : `Rack of ${names[t.seat]}`;
    $("replay-rack-head").textContent = `${whose} before the turn (${t.observation.rack.length})`;
    const rack = $("replay-rack");
    rack.replaceChildren(pieces(t.observation.rack));
    const played = $("replay-played");
    played.replaceChildren();
    const ol = h("ol", { class: "steps" });
    for (const a of t.played) ol.append(h("li", {}, h("code", { text: a })));
    played.append(ol);
    if (t.played_score !== null) played.append(h("p", { class: "help", text: `Evaluation ${t.played_score}` }));
    const hint = $("replay-hint");
    hint.replaceChildren();
    if (t.hint) {
      hint.append(renderSteps(t.hint.steps, t.hint.evaluation));
      if (t.hint_after_draw) {
        hint.append(h("p", { class: "help", text: "After the draw, with the drawn tile known:" }), renderSteps(t.hint_after_draw.steps, t.hint_after_draw.evaluation));
      }
    } else hint.append(h("p", { class: "help", text: sentence(t.note) || "No hint for this turn." }));
    const v = $("replay-verdict");
    // a variant without analysis: the summary says so once; the verdict's box repeated the hint
    // box's note ("no replay analysis yet for remi: …") in large type at every turn
    v.hidden = !this.summary.hints;
    v.className = `verdict${t.mistake ? " bad" : t.loss !== null ? " good" : ""}`;
    if (t.loss === null) v.textContent = sentence(t.note) || "Not scored.";
    else if (t.mistake) v.textContent = `✗ Mistake: the played turn scores ${t.loss.toFixed(1)} below the hint's.`;
    else if (t.loss > 0.001) v.textContent = `✓ Close to the hint (${t.loss.toFixed(1)} below).`;
    else v.textContent = "✓ As good as the hint or better.";
    this.renderTurns();
  }

  async analyseAll() {
    if (this.loading || !this.summary) return;
    this.loading = true;
    const button = $("replay-analyse");
    // not disabled while it works: that dropped the focus on it to the page's body (a second
    // press does nothing: this.loading)
    button.setAttribute("aria-disabled", "true");
    try {
      for (const t of this.summary.turns) {
        await this.turn(t.turn);
        if (t.turn % 8 === 0) { button.textContent = `Analysing… ${t.turn + 1}/${this.summary.turns.length}`; this.renderTurns(); }
      }
      const mistakes = [...this.cache.values()].filter((t) => t.mistake).length;
      button.textContent = `Analysed: ${mistakes} mistake${mistakes === 1 ? "" : "s"}`;
      this.renderTurns();
    } catch (err) { this.message(err.message); button.textContent = "Analyse all turns"; }
    finally { this.loading = false; button.removeAttribute("aria-disabled"); }
  }
}
