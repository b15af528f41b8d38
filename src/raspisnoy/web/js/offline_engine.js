// raspisnoy's own Python in a Web Worker (docs/offline.md, "One engine"): Pyodide and the
// bundle of the package, both served by our server under /offline/ and kept by the
// service worker. Used by the offline game's worker (offline_worker.js) and the
// scorekeeper's (sheet_worker.js), so that both run the project's one implementation.

/** Where the page's own Python comes from: the rules, the bots, the scorekeeper. */
const BUNDLE = "/offline/raspisnoy.zip";
const PYODIDE = "/offline/pyodide/";

/** Pyodide, then the bundle unpacked and `moduleName` imported from it: `{ pyodide, dumps,
 * module }`; rejects when offline play's files are not here. */
export async function loadEngine(moduleName) {
  const { loadPyodide } = await import(`${PYODIDE}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: PYODIDE, stdout: () => {}, stderr: () => {} });
  const response = await fetch(BUNDLE);
  if (!response.ok) throw new Error(`${BUNDLE}: ${response.status}`);
  pyodide.unpackArchive(new Uint8Array(await response.arrayBuffer()), "zip", { extractDir: "/home/pyodide/raspisnoy-bundle" });
  pyodide.runPython('import sys; sys.path.insert(0, "/home/pyodide/raspisnoy-bundle")');
  const dumps = pyodide.pyimport("json").dumps;
  return { pyodide, dumps, module: pyodide.pyimport(moduleName) };
}
