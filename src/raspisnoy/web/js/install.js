// Putting the game on the home screen as an app: where the browser offers it
// (`beforeinstallprompt`, Chromium on Android and desktops) our own button asks for its
// prompt; on iPhone and iPad, whose Safari has no prompt, the button shows how to do it
// by hand. Nothing shows once the page runs as the installed app.
import { t } from "./i18n.js";
import { esc, openDialog } from "./ui.js";

/** The browser's deferred install prompt, kept for our button (null: none offered now). */
let offered = null;
/** The lobby's panel, one element redrawn in place when the offer comes or goes. */
const panel = document.createElement("section");
panel.className = "panel install no-print";

const installed = () => matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
const apple = () => /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);

/** Listens for the browser's offer from the page's start (it may come before the lobby). */
export function watchInstall() {
  addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // the browser's own mini bar: our button asks instead
    offered = event;
    draw();
  });
  addEventListener("appinstalled", () => {
    offered = null;
    draw();
  });
}

function draw() {
  const way = installed() ? null : offered ? "prompt" : apple() ? "apple" : null;
  panel.hidden = way === null;
  panel.dataset.way = way ?? "";
  panel.innerHTML = way
    ? `<h2>${esc(t("web.install.title"))}</h2><p class="hint">${esc(t("web.install.hint"))}</p>
      <button type="button" class="install-button">${esc(t("web.install.button"))}</button>`
    : "";
  panel.querySelector(".install-button")?.addEventListener("click", install);
}

async function install() {
  if (!offered) {
    openDialog(t("web.install.title"), `<p class="install-how">${esc(t("web.install.apple"))}</p>`);
    return;
  }
  const prompt = offered;
  offered = null; // a prompt is shown once
  await prompt.prompt();
  draw();
}

/** The lobby's install panel (hidden where there is nothing to install), in the page's
 * language as it is now. */
export function installPanel() {
  draw();
  return panel;
}
