// The page: two tabs (Play, Replay & analysis) over the games API of `rummy101 serve`.

import { api, toJSON } from "./api.js";
import { PlayPanel } from "./play.js";
import { ReplayPanel } from "./replay.js";

const play = new PlayPanel();
const replay = new ReplayPanel();

// The tab shown, so that a reload shows it again (with the replay it held: replay.reopen).
const TAB_KEY = "rummy101.tab";

// A tab chosen by the person is a step in the tab's history (same address), so that the browser's
// Back button goes back to Play from Replay (it left the page, game and all); Forward again.
function go(tab) {
  if (tab.getAttribute("aria-selected") === "true") return;
  history.pushState({ tab: tab.id }, "");
  select(tab);
}

function select(tab) {
  try { sessionStorage.setItem(TAB_KEY, tab.id); } catch { /* private mode */ }
  for (const t of document.querySelectorAll('[role="tab"]')) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
  }
}

function tabs() {
  const list = [...document.querySelectorAll('[role="tab"]')];
  list.forEach((t, i) => {
    t.addEventListener("click", () => go(t));
    t.addEventListener("keydown", (ev) => {
      if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
      const next = list[(i + (ev.key === "ArrowRight" ? 1 : list.length - 1)) % list.length];
      go(next);
      next.focus();
    });
  });
  // Back and Forward between the tabs (the page's own entry is given its tab in main)
  window.addEventListener("popstate", (ev) => {
    const tab = document.getElementById(ev.state?.tab || "tab-play");
    if (tab) select(tab);
  });
}

async function main() {
  tabs();
  replay.init();
  document.getElementById("analyse-game").addEventListener("click", async () => {
    if (!play.view) return;
    let record;
    try {
      record = await api.record(play.view.id);
    } catch (err) {  // the game gone from the server, the server gone: say so where the click was
      play.setMessage(err.message, "No analysis");
      return;
    }
    // a record longer than the replay takes (a classic match to 200 can pass 5,000 actions):
    // say so here, where it was asked, in the person's words, not the replay form's refusal
    const most = play.options?.limits?.max_record_actions;
    if (most && record.actions.length > most) {
      play.setMessage(`this game has ${record.actions.length} actions, more than the ${most} that the replay steps through. Download record keeps the whole game.`, "No analysis");
      return;
    }
    document.getElementById("record-text").value = toJSON(record);  // (a seed past 2^53 exact)
    document.getElementById("record-file").value = "";  // else Load record would load that file
    go(document.getElementById("tab-replay"));
    // the pressed button is hidden with the Play panel: the focus goes on into the replay
    await replay.load(record, { focus: true });
  });
  try {
    await play.init();
    let tab = null;
    try { tab = sessionStorage.getItem(TAB_KEY); } catch { /* private mode */ }
    if (tab === "tab-replay") {
      select(document.getElementById("tab-replay"));
      await replay.reopen();
    }
    // the entry the page opened on holds its tab: Back to it from the other shows that one
    if (!history.state) history.replaceState({ tab: document.querySelector('[role="tab"][aria-selected="true"]').id }, "");
    document.body.dataset.ready = "true";
  } catch (err) {
    document.getElementById("message").hidden = false;
    document.getElementById("message-text").textContent = `The page could not start: ${err.message}`;
  }
}

main();
