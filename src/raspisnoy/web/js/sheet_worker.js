// The scorekeeper with no network (docs/offline.md, "The scorekeeper offline"): a module
// Web Worker running raspisnoy.scorekeeper.page in Pyodide (offline_engine.js), so that
// a sheet kept on the device is checked and scored by the project's own model. Each
// message `{ request, sheet, change }` is answered `{ request, answer }`: the sheet's view
// or the model's problem (no `change`: the sheet as it is); `{ request, failed }` when the
// engine is not here.
import { loadEngine } from "./offline_engine.js";

const ready = loadEngine("raspisnoy.scorekeeper.page");

self.addEventListener("message", async (event) => {
  const { request, sheet, change } = event.data;
  try {
    const { pyodide, dumps, module } = await ready;
    // through JSON text, so that null is None (toPy would make it JsNull)
    const python = (value) => pyodide.pyimport("json").loads(JSON.stringify(value));
    const answer = change ? module.page_change(python(sheet), python(change)) : module.page_view(python(sheet));
    self.postMessage({ request, answer: JSON.parse(dumps(answer)) });
    answer.destroy();
  } catch (error) {
    self.postMessage({ request, failed: String(error) });
  }
});
