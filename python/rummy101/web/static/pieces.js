// Tiles and cards: reading notation tokens, drawing them as SVG, naming them for screen readers,
// and the sort orders of the rack. Tokens are the project's notation: R5, Y13, B1, K7, * (tiles);
// AS, 10H, QC (cards).

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { R: ["red", "#c62828"], Y: ["yellow", "#b86e00"], B: ["blue", "#1565c0"], K: ["black", "#1b1b1b"] };
const SUITS = { S: ["spades", "♠", "#1b1b1b"], H: ["hearts", "♥", "#c62828"], D: ["diamonds", "♦", "#c62828"], C: ["clubs", "♣", "#1b1b1b"] };
const RANKS = { A: 1, J: 11, Q: 12, K: 13 };
const RANK_NAMES = { 1: "ace", 11: "jack", 12: "queen", 13: "king" };
const COLOUR_ORDER = "RYBK";
const SUIT_ORDER = "SHDC";

const PIECE = /^(\*|[RYBK](?:1[0-3]|[1-9])|(?:10|[2-9AJQK])[SHDC])$/;

export function isPiece(token) { return PIECE.test(token); }

// {joker, card, colour (R Y B K or suit S H D C), number 1..13}
export function parsePiece(token) {
  if (token === "*") return { joker: true, card: false, colour: "", number: 0 };
  const last = token[token.length - 1];
  if (SUITS[last]) {
    const r = token.slice(0, -1);
    return { joker: false, card: true, colour: last, number: RANKS[r] || Number(r) };
  }
  return { joker: false, card: false, colour: token[0], number: Number(token.slice(1)) };
}

export function pieceLabel(token) {
  const p = parsePiece(token);
  if (p.joker) return "joker";
  if (p.card) return `${RANK_NAMES[p.number] || p.number} of ${SUITS[p.colour][0]}`;
  return `${COLOURS[p.colour][0]} ${p.number}`;
}

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function star(cx, cy, r, fill) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = Math.PI / 5 * i - Math.PI / 2;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + rr * Math.cos(a)).toFixed(2)},${(cy + rr * Math.sin(a)).toFixed(2)}`);
  }
  return el("polygon", { points: pts.join(" "), fill });
}

// An SVG drawing of a tile or card (decorative: the button around it carries the label).
export function pieceSVG(token) {
  const p = parsePiece(token);
  const s = el("svg", { viewBox: "0 0 40 56", width: "40", height: "56", "aria-hidden": "true", focusable: "false", class: "face" });
  if (p.card) {
    const [, symbol, ink] = SUITS[p.colour];
    const rank = token.slice(0, -1);
    // the rank large at the top and the suit under it, as a tile's number and mark: a card's
    // rank was its corner index only (12 units of 56), about 7 px tall on the table and in the
    // discards, where J, Q and K could hardly be told apart
    s.append(el("rect", { x: 1, y: 1, width: 38, height: 54, rx: 4, fill: "#fff", stroke: "#9a9a9a" }));
    s.append(el("text", { x: 20, y: 26, fill: ink, "font-size": rank.length > 1 ? 19 : 22, "font-weight": 700, "text-anchor": "middle", "font-family": "Verdana, sans-serif", class: "rank" }, rank));
    s.append(el("text", { x: 20, y: 48, fill: ink, "font-size": 20, "text-anchor": "middle" }, symbol));
    return s;
  }
  s.append(el("rect", { x: 1, y: 1, width: 38, height: 54, rx: 6, fill: "#fbf5e6", stroke: "#b9a77f" }));
  s.append(el("rect", { x: 4, y: 4, width: 32, height: 48, rx: 4, fill: "none", stroke: "#eadfc2" }));
  if (p.joker) {
    s.append(star(20, 22, 12, "#c62828"));
    s.append(star(20, 22, 5, "#fbc02d"));
    s.append(el("text", { x: 20, y: 48, fill: "#1b1b1b", "font-size": 9, "font-weight": 700, "text-anchor": "middle", "font-family": "sans-serif" }, "JOKER"));
    return s;
  }
  const ink = COLOURS[p.colour][1];
  s.append(el("text", { x: 20, y: 33, fill: ink, "font-size": p.number >= 10 ? 21 : 24, "font-weight": 700, "text-anchor": "middle", "font-family": "Verdana, sans-serif" }, String(p.number)));
  s.append(colourMark(p.colour, ink));
  return s;
}

// The mark under a tile's number: a shape of its own per colour, so that the colours are told
// apart without seeing colour (red and yellow look alike, red nearly black, to a red-green
// colour-blind eye: one man in twelve): red a circle, yellow a triangle, blue a square, black a
// diamond.
function colourMark(colour, ink) {
  const fill = { fill: ink, class: "mark", "data-mark": colour };
  if (colour === "R") return el("circle", { cx: 20, cy: 44, r: 3.8, ...fill });
  const shape = {
    Y: "20,39 25,47.8 15,47.8",
    B: "16.5,40.5 23.5,40.5 23.5,47.5 16.5,47.5",
    K: "20,38.8 25.2,44 20,49.2 14.8,44",
  }[colour];
  return el("polygon", { points: shape, ...fill });
}

// Sort keys: runs (colour, then number), sets (number, then colour); jokers last.
function colourIndex(p) { return (p.card ? SUIT_ORDER : COLOUR_ORDER).indexOf(p.colour); }
function runKey(t) { const p = parsePiece(t); return p.joker ? [9, 99] : [colourIndex(p), p.number]; }
function setKey(t) { const p = parsePiece(t); return p.joker ? [99, 9] : [p.number, colourIndex(p)]; }
function cmp(a, b) { return a[0] - b[0] || a[1] - b[1]; }

export function sortRack(tokens, mode) {
  const list = [...tokens];
  if (mode === "runs") return list.sort((a, b) => cmp(runKey(a), runKey(b)));
  if (mode === "sets") return list.sort((a, b) => cmp(setKey(a), setKey(b)));
  // pairs: equal tiles side by side, pairs first, then the rest by number; jokers last
  const count = new Map();
  for (const t of list) count.set(t, (count.get(t) || 0) + 1);
  const paired = (t) => t !== "*" && count.get(t) > 1 ? 0 : 1;
  return list.sort((a, b) => paired(a) - paired(b) || cmp(setKey(a), setKey(b)));
}
