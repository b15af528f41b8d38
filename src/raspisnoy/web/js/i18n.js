// Translations: the page's catalog in the chosen language (ru, uk or en), loaded from
// i18n/<lang>.json (the `web` domain of src/raspisnoy/i18n, shared with the Python code).
// The language comes from the visitor's earlier choice, else the browser's languages,
// else English, which is also the fallback for any key missing in a catalog.
// A message that counts has one key per CLDR plural category ("web.cards.one", ".few",
// ".many", ".other"): `tn` picks it with Intl.PluralRules, as Babel does on the server.

export const LANGUAGES = ["ru", "uk", "en"];
/** The languages' own names, shown in the switcher whatever the page's language. */
export const LANGUAGE_NAMES = { ru: "Русский", uk: "Українська", en: "English" };
const STORAGE_KEY = "raspisnoy.lang";
const FALLBACK = "en";

let current = FALLBACK;
const englishPlurals = new Intl.PluralRules(FALLBACK);
let plurals = englishPlurals;
let numbers = new Intl.NumberFormat(FALLBACK, { useGrouping: false });
let messages = {};
let fallback = {};
const listeners = new Set();

async function fetchCatalog(lang) {
  const response = await fetch(`/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`translations ${lang}: HTTP ${response.status}`);
  return response.json();
}

/** The web app manifest in `lang` (the installed app's name and description; served by
 * the server from these catalogs, kept offline by sw.js): the page links it, in place of
 * index.html's Russian `/manifest.webmanifest`, once its language is known. */
function manifestHref(lang) {
  return `/manifest/${lang}.webmanifest`;
}

/** The language to start with: remembered, else the browser's first supported one. */
export function preferredLanguage() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const code = tag.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return FALLBACK;
}

/** Loads `lang` (and English for missing keys), remembers it, and redraws listeners. */
export async function setLanguage(lang, { remember = true } = {}) {
  const [chosen, english] = await Promise.all([
    fetchCatalog(lang),
    lang === FALLBACK ? null : fetchCatalog(FALLBACK),
  ]);
  messages = chosen;
  fallback = english || chosen;
  current = lang;
  plurals = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang, { useGrouping: false });
  if (remember) localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
  document.title = t("web.app.title");
  document.querySelector("link[rel=manifest]")?.setAttribute("href", manifestHref(lang));
  for (const listener of listeners) listener(lang);
}

export function language() {
  return current;
}

/** Calls `listener(lang)` after every language change. */
export function onLanguageChange(listener) {
  listeners.add(listener);
}

/** The message `key` with `{name}` placeholders filled from `values` (Python's str.format
 * syntax, so the same catalogs serve both sides). */
export function t(key, values = {}) {
  return fill(messages[key] ?? fallback[key] ?? key, values);
}

/** The message `key` in the plural form `count` takes in the page's language, with
 * `{count}` (formatted for the language) and `values` filled in. */
export function tn(key, count, values = {}) {
  const category = plurals.select(count);
  const template = messages[`${key}.${category}`] ?? fallback[`${key}.${englishPlurals.select(count)}`] ?? key;
  return fill(template, { count: numbers.format(count), ...values });
}

/** The CLDR plural category ("one", "few", "many", "other") `count` takes in the page's
 * language, for messages whose forms come from elsewhere than the catalog. */
export function pluralCategory(count) {
  return plurals.select(count);
}

/** A number as the page's language writes it, negative numbers with a real minus sign. */
export function formatNumber(value) {
  return numbers.format(value);
}

/** A number with `digits` decimals as the page's language writes it («0,183» in Russian,
 * "0.183" in English), e.g. the advisor's expected values. */
export function formatDecimal(value, digits) {
  return new Intl.NumberFormat(current, { useGrouping: false, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** `template` with its `{name}` placeholders filled from `values` (unknown ones stay). */
export function fill(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in values ? String(values[name]) : whole,
  );
}

/** `key` if the catalog has it, else null (for optional per-item texts). */
export function tMaybe(key, values = {}) {
  return key in messages || key in fallback ? t(key, values) : null;
}

/** A preset's name in the page's language (its own name if the catalog has none). */
export function presetLabel(name) {
  return tMaybe(`web.preset.${name}`) ?? name;
}
