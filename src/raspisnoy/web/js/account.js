// Accounts (docs/accounts.md): log in and register forms, and the account dialog the
// name in the header opens (profile, rename, log out here or everywhere).
import { del, post } from "./api.js";
import { t } from "./i18n.js";
import { forgetSheetsOfOthers } from "./score_kept.js";
import { closeDialog, esc, openDialog, toast } from "./ui.js";

/** The user name and password fields; `register` asks for a new password. */
function credentialFields(register) {
  return `<label for="account-username">${esc(t("web.account.username"))}</label>
    <input id="account-username" name="username" required minlength="2" maxlength="24" autocomplete="username">
    <label for="account-password">${esc(t("web.account.password"))}</label>
    <input id="account-password" name="password" type="password" required minlength="${register ? 8 : 1}" maxlength="128"
      autocomplete="${register ? "new-password" : "current-password"}">
    ${register ? `<p class="hint">${esc(t("web.account.password.hint"))}</p>` : ""}`;
}

/** A form that logs in (`mode` "login") or registers ("register"); `done(user)` after.
 * Registering while a guest keeps the guest's games and seats (the server upgrades it). */
export function accountForm(mode, done) {
  const register = mode === "register";
  const form = document.createElement("form");
  form.className = `account-form ${mode}`;
  form.innerHTML = `${credentialFields(register)}
    <p class="form-error" role="alert"></p>
    <button type="submit" class="primary">${esc(t(register ? "web.account.register" : "web.account.login"))}</button>`;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { username: form.username.value, password: form.password.value };
    try {
      done((await post(register ? "/account" : "/login", body)).user);
    } catch (error) {
      form.querySelector(".form-error").textContent = t("web.account.failed", { detail: error.message });
    }
  });
  return form;
}

/** The welcome screen's second way in: log in to an account (or register one). */
export function accountPanel(done) {
  const panel = document.createElement("section");
  panel.className = "panel account-entry";
  panel.innerHTML = `<h2>${esc(t("web.account.have"))}</h2><p class="hint">${esc(t("web.account.why"))}</p>
    <div class="tabs" role="group"><button type="button" class="small" data-mode="login" aria-pressed="true">${esc(t("web.account.login"))}</button>
    <button type="button" class="small" data-mode="register" aria-pressed="false">${esc(t("web.account.register"))}</button></div>
    <div class="account-slot"></div>`;
  const show = (mode) => {
    panel.querySelectorAll("[data-mode]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === mode)));
    panel.querySelector(".account-slot").replaceChildren(accountForm(mode, done));
  };
  panel.querySelectorAll("[data-mode]").forEach((b) => b.addEventListener("click", () => show(b.dataset.mode)));
  show("login");
  return panel;
}

/** Says that the guest's games are now an account's, and how to come back to it. */
export function accountMade(user) {
  toast(t("web.account.upgraded", { name: user.nickname }));
}

/** Log out of this device (`everywhere`: of every device); then the welcome screen. */
export async function logOut(app, everywhere = false) {
  await del(everywhere ? "/sessions" : "/session");
  app.user = null;
  forgetSheetsOfOthers(null); // the sheets kept for offline go with the session
  closeDialog();
  app.renderHeader();
  app.navigate("/");
}

/** A guest's way to keep their games as an account, under the menu's buttons: set apart
 * from them by the top margin of `.action-form` (style.css); its heading and words kept
 * together in a header, the form in its slot below. */
function upgradeMarkup() {
  return `<section class="action-form account-upgrade"><header><h3>${esc(t("web.account.upgrade"))}</h3>
    <p class="hint">${esc(t("web.account.upgrade.hint"))}</p></header><div class="account-slot"></div></section>`;
}

/** The dialog of the header's name: the profile, renaming, registering, logging out. */
export function accountMenu(app, rename) {
  const guest = app.user.kind === "guest";
  const body = openDialog(app.user.nickname, `<nav class="account-menu">
    <a class="button" data-nav href="/?player=${encodeURIComponent(app.user.id)}">${esc(t("web.profile.mine"))}</a>
    <a class="button" data-nav href="/?leaderboard">${esc(t("web.leaderboard.title"))}</a>
    ${app.moderator ? `<a class="button" data-nav href="/?moderation">${esc(t("web.moderation.title"))}</a>` : ""}
    <button type="button" data-do="rename">${esc(t("web.rename.title"))}</button>
    <button type="button" data-do="logout">${esc(t("web.account.logout"))}</button></nav>
    ${guest ? upgradeMarkup() : ""}`);
  body.addEventListener("click", (event) => {
    if (event.target.closest("a[data-nav]")) closeDialog();
    const action = event.target.closest("button[data-do]")?.dataset.do;
    if (action === "rename") rename();
    if (action === "logout") logOut(app);
  });
  if (guest) {
    body.querySelector(".account-slot").append(
      accountForm("register", (user) => {
        app.user = user;
        closeDialog();
        app.renderHeader();
        accountMade(user);
        app.screen?.render();
      }),
    );
  }
}
