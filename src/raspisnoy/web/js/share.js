// Sharing a link (a table's invite, a score sheet's links): the phone's share sheet
// (`navigator.share`: Telegram, Viber, WhatsApp…) where the browser has one, its QR code
// (drawn by the server from the link sent in the body, POST /api/qr, so a hand-over
// link's token stays out of addresses and logs), and copying, which always works.
import { t } from "./i18n.js";
import { copyText, esc, toast } from "./ui.js";

/** The markup of `url` to share: the link with Copy (and Share where the browser can),
 * and its QR code under a disclosure. `id` and `inputClass` name the link's field. */
export function shareMarkup(url, { label, id = "", inputClass = "" }) {
  const native = "share" in navigator;
  return `<div class="share-box" data-url="${esc(url)}">
    <div class="invite-row"><input ${id ? `id="${esc(id)}"` : `aria-label="${esc(label)}"`} class="${esc(inputClass)}" readonly value="${esc(url)}">
      <button type="button" class="copy ${native ? "" : "primary"}">${esc(t("web.invite.copy"))}</button>
      ${native ? `<button type="button" class="primary share-native">${esc(t("web.lobby.share"))}</button>` : ""}</div>
    <details class="qr"><summary>${esc(t("web.lobby.qr"))}</summary>
      <img class="qr-code" alt="${esc(t("web.lobby.qr.alt"))}" width="200" height="200" hidden></details>
  </div>`;
}

/** Wires every share box inside `root`; `title` is what the share sheet shows with the link. */
export function wireShare(root, title) {
  for (const box of root.querySelectorAll(".share-box")) {
    const url = box.dataset.url;
    box.querySelector(".copy").addEventListener("click", () => copyText(url));
    box.querySelector(".share-native")?.addEventListener("click", () => {
      navigator.share({ title, text: title, url }).catch((error) => {
        if (error.name !== "AbortError") copyText(url); // closed by the person: nothing to do
      });
    });
    const qr = box.querySelector("details.qr");
    qr.addEventListener("toggle", () => {
      if (qr.open) showCode(qr.querySelector("img"), url);
    });
  }
}

/** Loads the link's QR code into `img` (once). */
async function showCode(img, url) {
  if (img.getAttribute("src")) return;
  try {
    const response = await fetch("/api/qr", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url }),
    });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    img.src = URL.createObjectURL(await response.blob());
    img.hidden = false;
  } catch (error) {
    // No answer at all (offline): the browser's own text is English.
    toast(error instanceof TypeError ? t("web.error.network") : t("web.error.server", { detail: error.message }), "error");
  }
}
