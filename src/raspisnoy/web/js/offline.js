// Installable and offline (sw.js): registers the service worker that keeps the page's
// shell, and says clearly when the server cannot be reached, instead of a raw error; the
// page comes back by itself when the connection does.
import { ApiError } from "./api.js";
import { t } from "./i18n.js";
import { esc, failureText } from "./ui.js";

/** Registers the service worker (served at /sw.js, so its scope is the whole site). */
export function installOffline() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // no service worker (a private window, an old browser): the page works without one
    });
  }
  // Only once the server answers: Chromium also fires "online" at a page it is leaving
  // while still offline (seen when a new address is opened offline), sometimes with
  // navigator.onLine already true (seen in CI), and a reload then would take the person
  // back to the page they left. A page being left drops the question with itself.
  window.addEventListener("online", async () => {
    if (navigator.onLine && document.querySelector(".offline") && (await serverAnswers())) {
      location.reload();
    }
  });
}

/** Whether the server answers now (`/healthz`, which the service worker never keeps). */
async function serverAnswers() {
  try {
    return (await fetch("/healthz", { cache: "no-store" })).ok;
  } catch {
    return false;
  }
}

/** Whether `error` means the server could not be reached at all (no answer). */
function unreachable(error) {
  return !navigator.onLine || (error instanceof ApiError && error.status === 0);
}

/** A screen's failure as a panel: "no connection" with a way to try again when the server
 * could not be reached, else what went wrong (`failureText`). */
export function failureMarkup(error) {
  if (!unreachable(error)) return `<p class="panel error">${esc(failureText(error))}</p>`;
  return `<section class="panel offline" role="alert">
    <h1>${esc(t("web.lobby.offline.title"))}</h1>
    <p>${esc(t("web.lobby.offline.text"))}</p>
    <a class="button primary" href="${esc(location.href)}">${esc(t("web.lobby.offline.retry"))}</a>
    <a class="button" data-nav href="/?offline">${esc(t("web.offline.open"))}</a></section>`;
}
