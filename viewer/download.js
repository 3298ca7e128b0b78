// Export links (text, Chrome trace, JSON) that work when the service asks for a token. A plain
// link's request carries no Authorization header, so a service started with --auth-token-file
// would refuse it (401). The link keeps its address (copying it, or opening it where no token
// is needed, still works); a click fetches the file through authorizedFetch, which asks for
// the token when needed, and saves what arrived under the link's file name.

import { authorizedFetch } from "./auth.js";

/** Makes a click on `link` (an <a href download>) fetch with the token and save the file. */
export function downloadWithToken(link, onError) {
  link.addEventListener("click", async (event) => {
    // Modified clicks (new tab, save as) keep the browser's own behaviour.
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    try {
      const response = await authorizedFetch(link.getAttribute("href"));
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      const url = URL.createObjectURL(await response.blob());
      const save = document.createElement("a");
      save.href = url;
      save.download = link.download;
      document.body.append(save);
      save.click();
      save.remove();
      // The browser has taken the file once the click has been handled.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      onError?.(error);
    }
  });
  return link;
}
