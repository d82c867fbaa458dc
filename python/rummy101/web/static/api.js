// The games API of the service (docs/web.md): JSON in, JSON out; an error answer throws an
// Error whose message is the service's {"error": ...} text.

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, `the service did not answer (${err.message}); is rummy101 serve running?`);
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
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
  playHint: (id) => call("POST", `/v1/games/${id}/play-hint`, {}),
  record: (id) => call("GET", `/v1/games/${id}/record`),
  loadReplay: (record) => call("POST", "/v1/replays", { record }),
  replayTurn: (id, n) => call("GET", `/v1/replays/${id}/turns/${n}`),
};
