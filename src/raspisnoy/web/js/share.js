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

/** Loads the link's QR code into `img` (once). A failure is said in the page's language
 * (the server's or the browser's status text is English, and means nothing to a player):
 * no network, or the code could not be made; the status goes to the console only. The
 * disclosure closes again, so that one more tap on *QR code* tries again. */
async function showCode(img, url) {
  if (img.getAttribute("src")) return;
  let code;
  try {
    const response = await fetch("/api/qr", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url }),
    });
    if (!response.ok) {
      codeFailed(img, t("web.lobby.qr.failed"), `HTTP ${response.status} ${response.statusText}`);
      return;
    }
    code = await response.blob();
  } catch (error) {
    codeFailed(img, t("web.error.network"), error); // no answer at all (offline)
    return;
  }
  img.src = URL.createObjectURL(code);
  img.hidden = false;
}

/** Says that `img`'s code did not come (`message`, translated), keeps `detail` for the
 * console, and closes its disclosure. */
function codeFailed(img, message, detail) {
  console.warn("QR code:", String(detail));
  img.closest("details").open = false;
  toast(message, "error");
}
