// Makes offline play's engine snapshot at install time (docs/offline.md, "Starting in a
// second"), run by scripts/bootstrap through raspisnoy.server.services.offline's
// make_snapshot: Pyodide under Node, started exactly as the browser's worker starts it
// (offline_engine.js's startPython: the bundle unpacked, the same modules imported), and
// its memory snapshot written to OUT. The browser restores it as it restores its own.
// Usage: node engine_snapshot.mjs PYODIDE_DIR BUNDLE.zip OUT
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { startPython } from "../src/raspisnoy/web/js/offline_engine.js";

const [pyodideDir, bundlePath, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const { snapshot } = await startPython(loadPyodide, `${pyodideDir}/`, new Uint8Array(readFileSync(bundlePath)));
writeFileSync(out, snapshot);
