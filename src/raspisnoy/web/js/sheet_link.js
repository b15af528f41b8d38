// A finished sheet as one link that carries the whole game (docs/sheet-format.md, "The
// game in a link"): `/score#s1.<payload>.<check>`, opened with no server. The payload is
// the sheet's `raspisnoy-sheet/1` JSON, compressed (deflate-raw) and written in base64url;
// the check is the CRC-32 of the payload's text, so a cut or altered link is told apart
// from a sheet. The fragment never reaches a server.

/** The link format's version: its prefix after `#`. */
const VERSION = "s1";

/** Why a link cannot be read: `cut` (cut or altered) or `version` (a newer format). */
export class LinkError extends Error {
  constructor(reason) {
    super(`sheet link: ${reason}`);
    this.reason = reason;
  }
}

function crc32(text) {
  let crc = ~0;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (~crc >>> 0).toString(36);
}

async function through(stream, bytes) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

const toBase64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromBase64url = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

/** The fragment (without `#`) that carries `sheet`. */
export async function sheetFragment(sheet) {
  const packed = await through(new CompressionStream("deflate-raw"), new TextEncoder().encode(JSON.stringify(sheet)));
  const payload = toBase64url(packed);
  return `${VERSION}.${payload}.${crc32(payload)}`;
}

/** Whether a fragment (without `#`) is a sheet link of any version. */
export const isSheetFragment = (fragment) => /^s\d+\./.test(fragment);

/** The sheet a fragment carries; rejects with a LinkError when it was cut or altered, or
 * is of a version this page does not read. */
export async function sheetOfFragment(fragment) {
  const [version, payload, check, ...rest] = fragment.split(".");
  if (version !== VERSION) throw new LinkError("version");
  if (!payload || rest.length || check !== crc32(payload)) throw new LinkError("cut");
  try {
    return JSON.parse(new TextDecoder().decode(await through(new DecompressionStream("deflate-raw"), fromBase64url(payload))));
  } catch {
    throw new LinkError("cut");
  }
}
