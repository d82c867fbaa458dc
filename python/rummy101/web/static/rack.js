// The person's rack: an order of their pieces that they choose (drag and drop, Alt+arrows, the sort
// buttons) and that survives turns: when the rack changes, pieces still there keep their places and
// new ones go to the end. Saved per game in sessionStorage.

import { sortRack } from "./pieces.js";

export class RackOrder {
  constructor(gameId) {
    this.key = `rummy101.rack.${gameId}`;
    this.order = [];
    try { this.order = JSON.parse(sessionStorage.getItem(this.key) || "[]"); } catch { this.order = []; }
  }

  save() { try { sessionStorage.setItem(this.key, JSON.stringify(this.order)); } catch { /* private mode */ } }

  // Keep the order of the pieces still on the rack; new pieces go to the end in the server's order.
  reconcile(rack) {
    const left = new Map();
    for (const t of rack) left.set(t, (left.get(t) || 0) + 1);
    const kept = [];
    for (const t of this.order) {
      if (left.get(t) > 0) { kept.push(t); left.set(t, left.get(t) - 1); }
    }
    for (const t of rack) {
      if (left.get(t) > 0) { kept.push(t); left.set(t, left.get(t) - 1); }
    }
    this.order = kept;
    this.save();
    return this.order;
  }

  move(from, to) {
    if (from === to || from < 0 || from >= this.order.length) return;
    const [t] = this.order.splice(from, 1);
    this.order.splice(Math.max(0, Math.min(to, this.order.length)), 0, t);
    this.save();
  }

  sort(mode) { this.order = sortRack(this.order, mode); this.save(); }
}
