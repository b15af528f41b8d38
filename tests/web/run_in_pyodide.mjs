// Runs a Python script in Pyodide under Node, with raspisnoy's offline bundle on the path,
// started as the browser's worker starts it (web/js/offline_engine.js): afresh, which
// takes a memory snapshot, then restored from that snapshot, as every later start on a
// device is. The script runs in RESTORES (default 1) interpreters restored from the one
// snapshot, one after another, and prints what it prints; each start says on stderr
// whether it was restored. With DAMAGED=1 the snapshot is cut short first (a damaged one
// kept on a device): the engine must start afresh instead.
// Usage: [RESTORES=N] [DAMAGED=1] node run_in_pyodide.mjs PYODIDE_DIR BUNDLE.zip SCRIPT.py [ARG...]
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { startPython } from "../../src/raspisnoy/web/js/offline_engine.js";

const [pyodideDir, bundlePath, script, ...args] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const bundle = new Uint8Array(readFileSync(bundlePath));
const { snapshot } = await startPython(loadPyodide, `${pyodideDir}/`, bundle);
const kept = process.env.DAMAGED ? snapshot.subarray(0, snapshot.length / 2) : snapshot;
for (let run = 0; run < Number(process.env.RESTORES ?? 1); run++) {
  const { pyodide, restored } = await startPython(loadPyodide, `${pyodideDir}/`, bundle, kept);
  console.error(JSON.stringify({ restored }));
  pyodide.setStdout({ batched: (line) => console.log(line) });
  pyodide.globals.set("script_args", pyodide.toPy(args));
  pyodide.runPython(`import sys; sys.argv = ["script", *script_args]`);
  pyodide.runPython(readFileSync(script, "utf8"));
}
