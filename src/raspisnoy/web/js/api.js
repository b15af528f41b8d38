// The REST API (docs/PROTOCOL.md): JSON over fetch, the session in its cookie.

/** A refused request: the HTTP status and the server's explanation. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

/** The server's `detail` as one line: a string, or FastAPI's list of field errors. */
function describe(detail, fallback) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((item) => `${(item.loc || []).slice(1).join(".")}: ${item.msg}`).join("; ");
  }
  return fallback;
}

/** `method` on `/api{path}` with an optional JSON body; the answer's JSON, or ApiError. */
export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, String(error));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, describe(data?.detail, response.statusText));
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body ?? {});
export const patch = (path, body) => api("PATCH", path, body);
