// The bearer token of a service started with --auth-token-file. The page itself loads without
// one (/, /viewer/*); the first /v1 call answered 401 asks for the token in a dialog, keeps it
// in sessionStorage (this tab, until it is closed: never written to disk by the page) and
// retries. Calls answered 401 at the same time share one dialog.

const KEY = "taptrace.token";

// Kept in memory too, for a browser whose storage is disabled.
let memoryToken = null;

/** The token of this tab's session, or null. */
function currentToken() {
  try { return sessionStorage.getItem(KEY) ?? memoryToken; } catch { return memoryToken; }
}

function remember(token) {
  memoryToken = token;
  try { sessionStorage.setItem(KEY, token); } catch { /* storage disabled: memory only */ }
}

let pendingPrompt = null;

/**
 * `fetch` with `Authorization: Bearer` when a token is known. A 401 asks for a token and
 * retries with it; cancelling the dialog returns the 401 for the caller to report. `init.body`
 * must be reusable (a string, Blob or File, as api.js sends).
 */
export async function authorizedFetch(path, init = {}) {
  for (;;) {
    const token = currentToken();
    const headers = { ...init.headers };
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(path, { ...init, headers });
    if (response.status !== 401) return response;
    // Another call may have been given a token since this one was sent: try that first.
    const latest = currentToken();
    if (latest && latest !== token) continue;
    const entered = await askForToken(token ? "That token was not accepted. Enter another one." : null);
    if (!entered) return response;
    remember(entered);
  }
}

/** One dialog at a time; resolves with the token entered, or null when cancelled. */
function askForToken(message) {
  if (!pendingPrompt) {
    pendingPrompt = showDialog(message).finally(() => { pendingPrompt = null; });
  }
  return pendingPrompt;
}

function showDialog(message) {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "token-dialog";
    dialog.setAttribute("aria-labelledby", "token-dialog-title");
    dialog.setAttribute("aria-describedby", "token-dialog-help");
    dialog.innerHTML = `
      <form method="dialog">
        <h2 id="token-dialog-title">Access token</h2>
        <p id="token-dialog-help"></p>
        <label for="token-dialog-input">Token</label>
        <input id="token-dialog-input" name="token" type="password" autocomplete="off" spellcheck="false" required>
        <p>
          <button type="submit" value="use">Use token</button>
          <button type="button" value="cancel" id="token-dialog-cancel">Cancel</button>
        </p>
      </form>`;
    dialog.querySelector("#token-dialog-help").textContent = message
      ?? "This TapTrace service needs an access token. It is kept for this tab only.";
    const input = dialog.querySelector("#token-dialog-input");
    let settled = false;
    const finish = (value) => {
      if (settled) return;
      settled = true;
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    dialog.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (token) finish(token);
    });
    dialog.querySelector("#token-dialog-cancel").addEventListener("click", () => finish(null));
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); finish(null); });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}
