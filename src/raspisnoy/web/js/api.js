// The REST API (docs/PROTOCOL.md): JSON over fetch, the session in its cookie.
import { language, presetLabel, t, tMaybe, tn } from "./i18n.js";
import { toast } from "./ui.js";

/** A refused request: the HTTP status, the refusal in the page's language as one line,
 * its `detail` as sent (English text, or an object for structured problems such as a score
 * sheet's) and its `code` and `params` (PROTOCOL.md "Refusals"). */
export class ApiError extends Error {
  constructor(status, message, detail = null, code = null, params = {}) {
    super(message);
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.params = params;
  }
}

/** The parameters a refusal may count (its message then has CLDR plural forms). */
const COUNTED = ["count", "seconds"];

/** A moment (ISO 8601, or milliseconds since the epoch) as the page's language writes a
 * date and time, in local time. */
export function formatMoment(iso) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return String(iso);
  return moment.toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

/** A rules option's name in the page's language (`preset`: the rules as a whole). */
function optionLabel(name) {
  return tMaybe(`web.option.${name}`) ?? (name === "preset" ? t("web.create.rules") : name);
}

/** A round plan as sent (`9:blind,5`) with its round kinds in the page's language, as
 * the rules form takes them (`9:тёмная, 5`). */
function planLabel(plan) {
  return plan
    .split(",")
    .map((entry) => entry.trim().replace(/:(.+)$/, (_, kind) => `:${tMaybe(`web.kind.${kind}`) ?? kind}`))
    .join(", ");
}

/** A request body's field (`bad_field`'s `field`, dotted: `players.0`) by its label in
 * the page's language (`web.field.<name>`, of the whole path or of its first part); null
 * where the page has none, for a raw field name means nothing to a player. */
function fieldLabel(field) {
  return tMaybe(`web.field.${field}`) ?? tMaybe(`web.field.${field.split(".")[0]}`);
}

/** How each parameter that names a thing is worded in the page's language: bot levels
 * (`web.bot.<level>`), moments (ISO 8601, as a mute's end: docs/moderation.md), a
 * tournament's state, a rules option, a preset, a round plan and a request's field;
 * unknown names stay as sent, except a field's (null: see `wordedRefusal`). */
const WORDINGS = {
  level: (level) => tMaybe(`web.bot.${level}`) ?? level,
  strongest: (level) => tMaybe(`web.bot.${level}`) ?? level,
  until: formatMoment,
  state: (state) => tMaybe(`web.tournament.state.${state}`) ?? state,
  option: optionLabel,
  preset: presetLabel,
  plan: planLabel,
  field: fieldLabel,
};

/** `params` with each parameter that names a thing worded in the page's language. */
function worded(params) {
  const out = { ...(params ?? {}) };
  for (const [name, word] of Object.entries(WORDINGS)) {
    if (typeof out[name] === "string") out[name] = word(out[name]);
  }
  return out;
}

/** The message `key` filled from `params` (in the plural form of a counted parameter,
 * the things it names worded), or null where the page has no such message. A parameter
 * the page cannot word (a field it has no label for) gives the general "something in
 * this request does not fit" instead, never the raw name. */
function wordedRefusal(key, sent) {
  const params = worded(sent);
  const counted = COUNTED.find((name) => typeof params[name] === "number");
  const plural = counted !== undefined && tMaybe(`${key}.other`) !== null;
  if (!plural && tMaybe(key) === null) return null;
  if (Object.keys(WORDINGS).some((name) => typeof sent?.[name] === "string" && params[name] === null)) {
    return t("web.refusal.invalid");
  }
  if (plural) {
    const { [counted]: number, ...others } = params;
    return tn(key, number, others);
  }
  return tMaybe(key, params);
}

/** A refusal in the page's language: `web.refusal.<code>` filled from `params`, else the
 * server's English text on an English page and a general translated refusal on any
 * other, so that a Russian or Ukrainian page never shows the server's English. */
export function refusalText(code, params, english) {
  const known = code ? wordedRefusal(`web.refusal.${code}`, params) : null;
  if (known !== null) return known;
  return language() === "en" && english ? english : t("web.refusal.generic");
}

/** A table socket's `error` message in the page's language: `web.error.<code>` filled
 * from its `params` (PROTOCOL.md `error`), else the server's own text. */
export function socketErrorText(message) {
  return wordedRefusal(`web.error.${message.code}`, message.params) ?? message.message;
}

/** The server's `detail` as one line: a string, FastAPI's list of field errors, or an
 * object with a `message`. */
function describe(detail, fallback) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((item) => `${(item.loc || []).slice(1).join(".")}: ${item.msg}`).join("; ");
  }
  return typeof detail?.message === "string" ? detail.message : fallback;
}

/** `method` on `/api{path}` with an optional JSON body and extra headers; the answer's
 * JSON, or ApiError. */
export async function api(method, path, body, headers = {}) {
  let response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // No answer (offline, a dropped connection): the browser's own text is English.
    throw new ApiError(0, t("web.error.network"), String(error));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const english = describe(data?.detail, response.statusText);
    // A score sheet's problem is worded by score.js from its templates; until then (and
    // where they cannot be had) a general line, never the model's English.
    const message = data?.detail?.problem ? t("web.score.problem.generic") : refusalText(data?.code, data?.params, english);
    const error = new ApiError(response.status, message, data?.detail ?? null, data?.code ?? null, data?.params ?? {});
    // A limit (429) says what was too much and when to try again: shown wherever it came.
    if (response.status === 429) toast(error.message, "error");
    throw error;
  }
  return data;
}

export const get = (path, headers) => api("GET", path, undefined, headers);
export const post = (path, body, headers) => api("POST", path, body ?? {}, headers);
export const patch = (path, body) => api("PATCH", path, body);
export const put = (path, body, headers) => api("PUT", path, body, headers);
export const del = (path, body) => api("DELETE", path, body);
