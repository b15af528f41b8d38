// "Your turn" signals besides the tab's title: a short chime made with the Web Audio API
// (no sound file; on unless the player turns it off with the dock's bell button, kept in
// localStorage) and, while the tab is hidden, a system notification. The browser asks for
// the notification permission once ever, when the player first makes a move or takes a
// seat (a moment they chose to play), never when a page loads.
import { t } from "./i18n.js";
import { esc } from "./ui.js";

const SOUND_KEY = "raspisnoy.sound";
/** The switch's bell, struck through while the sound is off. */
const BELL = (on) =>
  `<svg class="icon-art" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z"/><path d="M10 20a2 2 0 0 0 4 0"/>${on ? "" : '<path d="M4 4l16 16"/>'}</svg>`;
const ASKED_KEY = "raspisnoy.notifications.asked";

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

let audio = null;

/** Two soft rising notes. Browsers let a page play sound only after the person has
 * interacted with it; before that the context stays suspended and nothing plays. */
function chime() {
  const Context = window.AudioContext ?? window.webkitAudioContext;
  if (!Context) return;
  audio ??= new Context();
  if (audio.state === "suspended") audio.resume();
  const start = audio.currentTime;
  [660, 880].forEach((frequency, i) => {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    const at = start + i * 0.16;
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.15);
    tone.connect(gain).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.16);
  });
}

/** Asks for the notification permission the first time ever it is called (from a
 * player's own click: browsers refuse a request made without one). */
export function askNotificationsOnce() {
  if (!("Notification" in window) || localStorage.getItem(ASKED_KEY)) return;
  localStorage.setItem(ASKED_KEY, "1");
  if (Notification.permission === "default") Notification.requestPermission();
}

/** The bell button for the table dock and the signal to give when the turn comes. */
export function turnSignals(dock) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "dock-button sound-toggle";
  function draw() {
    const on = soundOn();
    button.setAttribute("aria-pressed", String(on));
    button.title = t(on ? "web.turn.sound.on" : "web.turn.sound.off");
    button.setAttribute("aria-label", t("web.turn.sound"));
    button.innerHTML = `${BELL(on)}<span class="label">${esc(t("web.turn.sound"))}</span>`;
  }
  button.addEventListener("click", () => {
    localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
    draw();
    if (soundOn()) chime(); // what it will sound like
  });
  dock.prepend(button);
  draw();
  let shown = null;
  return {
    render: draw,
    /** The player's turn has come: chime, and notify if the tab is in the background. */
    yourTurn(body) {
      if (soundOn()) chime();
      if (document.hidden && "Notification" in window && Notification.permission === "granted") {
        shown?.close();
        shown = new Notification(t("web.turn.notify.title"), { body, tag: "raspisnoy-turn", icon: "/favicon.svg" });
        shown.onclick = () => {
          window.focus();
          shown.close();
        };
      }
    },
    stop() {
      shown?.close();
      button.remove();
    },
  };
}
