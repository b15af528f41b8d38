// Runs a Python script in Pyodide under Node, with raspisnoy's offline bundle on the path,
// as the browser's worker does (web/js/offline_worker.js); prints what the script prints.
// Usage: node run_in_pyodide.mjs PYODIDE_DIR BUNDLE.zip SCRIPT.py [ARG...]
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, bundle, script, ...args] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, stdout: (line) => console.log(line) });
pyodide.unpackArchive(new Uint8Array(readFileSync(bundle)), "zip", { extractDir: "/home/pyodide/bundle" });
pyodide.globals.set("script_args", pyodide.toPy(args));
pyodide.runPython(`import sys; sys.path.insert(0, "/home/pyodide/bundle"); sys.argv = ["script", *script_args]`);
pyodide.runPython(readFileSync(script, "utf8"));
