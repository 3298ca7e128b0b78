// A version's screenshot as an address an image element can show. The bytes are read through
// the API (api.js, with the page's authorization; an image element's own request would carry
// none) and given to the element as a data: URL, which the page's Content-Security-Policy
// allows for images (blob: it does not). Kept by content (SHA-256), the last few only: the
// same image is read once however often its version is shown.

import { api } from "./api.js";

const KEPT = 4;
const cache = new Map();

/** A promise of the data: URL of `shot` (a version's `screenshot` member). */
export function screenshotURL(shot) {
  let url = cache.get(shot.sha256);
  if (!url) {
    url = api.screenshotImage(shot).then(dataURL);
    // A failed read is not kept: the next show asks again.
    url.catch(() => cache.delete(shot.sha256));
    cache.set(shot.sha256, url);
    while (cache.size > KEPT) cache.delete(cache.keys().next().value);
  }
  return url;
}

function dataURL(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}
