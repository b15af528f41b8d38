// The REST API (docs/PROTOCOL.md): JSON over fetch, the session in its cookie.
import { toast } from "./ui.js";

/** A refused request: the HTTP status, the server's explanation as one line, and its
 * `detail` as sent (an object for structured problems, such as a score sheet's). */
export class ApiError extends Error {
  constructor(status, message, detail = null) {
    super(message);
    this.status = status;
    this.detail = detail;
  }
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
    throw new ApiError(0, String(error));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new ApiError(response.status, describe(data?.detail, response.statusText), data?.detail ?? null);
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
