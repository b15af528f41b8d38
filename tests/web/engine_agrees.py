"""Run by ``test_offline_engine.py`` twice, by CPython and by Pyodide (the browser's
engine), each with only raspisnoy's offline bundle: replays the records given, plays the
games given to their end (seat 0 takes its first legal action), and prints what came of
it as JSON, for the test to compare."""

import json
import sys

from raspisnoy.core import loads_record, replay, replay_report
from raspisnoy.server.offline import LocalTable

jobs = json.loads(sys.argv[1])
reports = [replay_report(replay(loads_record(text))) for text in jobs["records"]]
games = []
for game in jobs["games"]:
    table = LocalTable("local-x", game["settings"], "A", game["seed"])
    while not table.game.is_over:
        if table.bot_due():
            table.bot_turn()
        else:
            table.act("c", table.state()["game"]["legal"][0])
    games.append({"actions": table.actions, "record": table.record(), "report": table.report()})
print(json.dumps({"reports": reports, "games": games}))
