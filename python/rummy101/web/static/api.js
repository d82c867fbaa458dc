// The games API of the service (docs/web.md): JSON in, JSON out; an error answer throws an
// Error whose message is the service's {"error": ...} text.

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

// One request at a time: a game or replay answers one request at a time (a second one meets
// 429 "busy"), and quick clicks (next, next, next) would otherwise overlap. A 429 that still
// happens (another tab) is retried after a pause.
let queue = Promise.resolve();

export function call(method, path, body) {
  const run = queue.then(() => send(method, path, body));
  queue = run.catch(() => undefined);
  return run;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function send(method, path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(method, path, body);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429 || attempt >= 20) throw err;
      await sleep(Math.min(2000, 150 * (attempt + 1)));
    }
  }
}

// JSON with the seed kept exact: a seed runs to 2^63 - 1 (the service's limit, _limits.py),
// and a Number holds whole numbers exactly only to 2^53 (9007199254740993 read as Number started
// game 9007199254740992). A seed past that is read as a BigInt (from its digits, where the
// browser gives the reviver the source text) and written back as those digits.
export function parseJSON(text) {
  return JSON.parse(text, (key, value, context) =>
    key === "seed" && typeof value === "number" && !Number.isSafeInteger(value) &&
      /^\d+$/.test(context?.source ?? "") ? BigInt(context.source) : value);
}

export function toJSON(value, space) {
  return JSON.stringify(value, (key, v) => (typeof v === "bigint" ? JSON.rawJSON(String(v)) : v), space);
}

// An answer that has not come after this long never will (the network went away, the server
// hangs): the request is given up with a message, so that the page (whose requests go one at a
// time) does not wait behind it for good. The service's own limits end its requests sooner.
export const TIMEOUT_MS = 120_000;

async function once(method, path, body) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  const init = { method, headers: {}, signal: abort.signal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = toJSON(body);
  }
  let response;
  let data = null;
  try {
    try {
      response = await fetch(path, init);
    } catch (err) {
      if (abort.signal.aborted) throw new ApiError(0, `the service did not answer within ${TIMEOUT_MS / 1000} s; is the network or rummy101 serve down? Try again`);
      throw new ApiError(0, `the service did not answer (${err.message}); is rummy101 serve running?`);
    }
    try { data = parseJSON(await response.text()); } catch { data = null; }
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    const text = data && data.error ? data.error : `HTTP ${response.status}`;
    throw new ApiError(response.status, text);
  }
  return data;
}

export const api = {
  options: () => call("GET", "/v1/game-options"),
  create: (body) => call("POST", "/v1/games", body),
  view: (id) => call("GET", `/v1/games/${id}`),
  act: (id, action) => call("POST", `/v1/games/${id}/actions`, { action }),
  hint: (id) => call("GET", `/v1/games/${id}/hint`),
  validateMeld: (rules, meld) => call("POST", "/v1/validate/meld", { rules, meld }),
  playHint: (id) => call("POST", `/v1/games/${id}/play-hint`, {}),
  record: (id) => call("GET", `/v1/games/${id}/record`),
  loadReplay: (record) => call("POST", "/v1/replays", { record }),
  replay: (id) => call("GET", `/v1/replays/${id}`),
  replayTurn: (id, n) => call("GET", `/v1/replays/${id}/turns/${n}`),
};
