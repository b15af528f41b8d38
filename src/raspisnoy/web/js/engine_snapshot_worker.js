// Makes the offline engine's snapshot in the background (docs/offline.md, "Starting in a
// second"): started by the lobby on a visit with the network once offline play's files
// are kept (offline_play.js, `prepareEngine`), it starts Python afresh, keeps the
// snapshot (or downloads the server's install-time one) and says `{ outcome }` ("made",
// "downloaded", "kept" when one was there, "not kept",
// "failed"); the page then ends it, so that its memory is freed at once.
import { prepareSnapshot } from "./offline_engine.js";

prepareSnapshot().then(
  (outcome) => self.postMessage({ outcome }),
  (error) => self.postMessage({ outcome: "failed", detail: String(error) }),
);
