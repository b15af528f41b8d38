// raspisnoy's own Python in a Web Worker (docs/offline.md, "One engine"): Pyodide and the
// bundle of the package, both served by our server under /offline/ and kept by the
// service worker. Used by the offline game's worker (offline_worker.js) and the
// scorekeeper's (sheet_worker.js), so that both run the project's one implementation.
//
// Starting Python takes seconds on a phone (docs/offline.md, "Figures"): most of it is
// Python's own start and the imports. So the first start on a device takes a memory
// snapshot of Pyodide with the bundle imported and keeps it (Cache Storage); a later
// start restores it instead, in a fraction of the time. The server has one made at
// install time (with Node, scripts/engine_snapshot.mjs), which the service worker keeps
// with the files and an engine without one downloads; failing that, a visit with the
// network makes it in the background (engine_snapshot_worker.js), so that even the
// device's first offline game restores one. The snapshot is named by
// Pyodide's version and the bundle's hash, so a new version of either starts afresh and
// replaces it; one that does not restore is dropped and the engine starts afresh.

/** Where the page's own Python comes from: the rules, the bots, the scorekeeper. */
const BUNDLE = "/offline/raspisnoy.zip";
const PYODIDE = "/offline/pyodide/";
/** Where the bundle is unpacked in Pyodide's file system. */
const BUNDLE_DIR = "/home/pyodide/raspisnoy-bundle";
/** What both workers import: in the snapshot, so that one snapshot serves both. */
const MODULES = ["json", "random", "raspisnoy.server.offline", "raspisnoy.scorekeeper.page"];
/** The Cache Storage cache that keeps the engine's snapshot on this device. */
export const SNAPSHOTS = "raspisnoy-engine";

/** Pyodide (`loadPyodide` from `indexURL`) with `bundle` (the zip's bytes) unpacked and
 * MODULES imported: restored from `snapshot` (bytes of an earlier start's
 * `makeMemorySnapshot`) when one is given and restores, else started afresh. Resolves to
 * `{ pyodide, restored, snapshot }`: `snapshot` is a new one to keep after a fresh start,
 * null after a restore. Exported for the test that runs it under Node. */
export async function startPython(loadPyodide, indexURL, bundle, snapshot = null) {
  const options = { indexURL, stdout: () => {}, stderr: () => {} };
  if (snapshot !== null) {
    try {
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      prepare(pyodide, bundle);
      // the snapshot holds the random module's state: every start would draw the same
      pyodide.runPython("random.seed()");
      return { pyodide, restored: true, snapshot: null };
    } catch {
      // a snapshot of another build or a damaged one: started afresh below
    }
  }
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  prepare(pyodide, bundle);
  return { pyodide, restored: false, snapshot: pyodide.makeMemorySnapshot() };
}

/** The bundle's files in place (a restored snapshot has the imported modules but not the
 * files, which later imports read) and MODULES imported (at once after a restore). */
function prepare(pyodide, bundle) {
  pyodide.unpackArchive(bundle, "zip", { extractDir: BUNDLE_DIR });
  pyodide.runPython(`import sys
if ${JSON.stringify(BUNDLE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(BUNDLE_DIR)})
import ${MODULES.join(", ")}`);
}

/** Pyodide, then the bundle unpacked and `moduleName` imported from it: `{ pyodide, dumps,
 * module, timings }` (`timings`: the milliseconds of each step, and whether the snapshot
 * was restored); rejects when offline play's files are not here. */
export async function loadEngine(moduleName) {
  const begun = performance.now();
  const { loadPyodide, bundle, key } = await engineFiles();
  const files = performance.now();
  const kept = key === null ? null : ((await keptSnapshot(key)) ?? (await serverSnapshot(key)));
  const read = performance.now();
  const { pyodide, restored, snapshot } = await startPython(loadPyodide, PYODIDE, bundle, kept);
  const started = performance.now();
  if (key !== null && snapshot !== null) keepSnapshot(key, snapshot); // meanwhile the engine is ready
  const timings = { files: files - begun, snapshot_read: read - files, python: started - read, restored, since_start: started };
  return { pyodide, dumps: pyodide.pyimport("json").dumps, module: pyodide.pyimport(moduleName), timings };
}

/** Makes the engine's snapshot and keeps it, unless one of these files is kept already:
 * what a visit with the network does in the background (offline_play.js,
 * `prepareEngine`), so that even a device's first offline game restores one. Resolves to
 * "kept" (one was there), "made", or "not kept" (this page cannot keep one: an address
 * that is not secure, or a storage that refused it); "downloaded" when the server's
 * install-time one was kept instead. */
export async function prepareSnapshot() {
  const { loadPyodide, bundle, key } = await engineFiles();
  if (key === null) return "not kept";
  if (await hasSnapshot(key)) return "kept";
  if ((await serverSnapshot(key)) !== null) return "downloaded";
  const { snapshot } = await startPython(loadPyodide, PYODIDE, bundle);
  return (await keepSnapshot(key, snapshot)) ? "made" : "not kept";
}

/** `loadPyodide`, the bundle's bytes and the name of their snapshot (null where none can
 * be kept). */
async function engineFiles() {
  const [{ loadPyodide, version }, bundle] = await Promise.all([import(`${PYODIDE}pyodide.mjs`), fetchBundle()]);
  return { loadPyodide, bundle, key: await snapshotKey(version, bundle) };
}

async function fetchBundle() {
  const response = await fetch(BUNDLE);
  if (!response.ok) throw new Error(`${BUNDLE}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The snapshot's name for Pyodide `version` and `bundle`: the bundle's hash tells one
 * version of raspisnoy's files from another. Null where the page cannot keep one (an
 * address that is not secure has no Cache Storage and no crypto.subtle). */
async function snapshotKey(version, bundle) {
  if (typeof caches === "undefined" || !crypto.subtle) return null;
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bundle));
  const hex = Array.from(hash.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `/offline/snapshot/${version}/${hex}`;
}

/** Whether a snapshot is kept under `key` (without reading its bytes). */
async function hasSnapshot(key) {
  try {
    return (await (await caches.open(SNAPSHOTS)).match(key)) !== undefined;
  } catch {
    return false;
  }
}

/** The snapshot kept under `key`, or null (none, or the store cannot be read). */
async function keptSnapshot(key) {
  try {
    const response = await (await caches.open(SNAPSHOTS)).match(key);
    if (!response) return null;
    return new Uint8Array(await response.arrayBuffer());
  } catch {
    return null;
  }
}

/** The server's snapshot made at install time for these files (its address is `key`),
 * kept on the device; null where there is none (no network, a server without one). */
async function serverSnapshot(key) {
  try {
    const response = await fetch(key);
    if (!response.ok) return null;
    const snapshot = new Uint8Array(await response.arrayBuffer());
    await keepSnapshot(key, snapshot);
    return snapshot;
  } catch {
    return null;
  }
}

/** Keeps `snapshot` under `key` in place of any other; resolves to whether it is kept. A
 * full storage only means the next start is a fresh one, so a failure is not the
 * player's concern. */
async function keepSnapshot(key, snapshot) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    await cache.put(key, new Response(snapshot, { headers: { "content-type": "application/octet-stream" } }));
    for (const old of await cache.keys()) if (new URL(old.url).pathname !== key) await cache.delete(old);
    return true;
  } catch (error) {
    console.warn("the engine's snapshot is not kept:", error);
    return false;
  }
}
