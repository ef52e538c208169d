"""A Feldera user's session, with Feldera's own Python client (code unchanged),
against the Freshet edge worker. Each call is printed with its result; a call
that fails is printed with its error and the session goes on.

Run (see README.md):  python3 tests/feldera_client/session.py http://127.0.0.1:8787 [API_KEY]

The calls follow Feldera's tutorial sequence (create_or_replace, start,
input_json / input_pandas, listen, foreach_chunk, wait_for_completion, query /
query_tabular, pause / resume, checkpoint(wait=True), stats, stop,
clear_storage, delete), then Feldera's own test_egress_send_snapshot
(python/tests/runtime/test_output_snapshot.py) with its program unchanged.
"""

import json
import sys
import threading
import time
import traceback

import pandas as pd

from feldera import FelderaClient, PipelineBuilder
from feldera.enums import PipelineStatus
from feldera.runtime_config import RuntimeConfig

URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8787"
API_KEY = sys.argv[2] if len(sys.argv) > 2 else None
results = []


def call(what, thunk):
    """Runs one call of the client, prints what it returned or raised."""
    started = time.monotonic()
    try:
        value = thunk()
        shown = value if not isinstance(value, pd.DataFrame) else value.to_dict("records")
        line = f"ok    {what}: {shown!r}"[:400]
        results.append((what, True))
    except Exception as error:  # noqa: BLE001 — the session reports every failure
        line = f"FAIL  {what}: {type(error).__name__}: {error}"[:600]
        results.append((what, False))
        if "-v" in sys.argv:
            traceback.print_exc()
    print(f"{line}  ({time.monotonic() - started:.2f} s)", flush=True)
    return None if line.startswith("FAIL") else value


def refused(what, thunk, expected):
    """A call Feldera refuses too: ok when it raises an error whose text contains `expected`."""
    try:
        thunk()
        line, ok = f"FAIL  {what}: accepted, but Feldera refuses it", False
    except Exception as error:  # noqa: BLE001
        ok = expected in str(error)
        line = f"{'ok' if ok else 'FAIL':5} {what}: refused: {type(error).__name__}: {str(error).splitlines()[0]}"[:400]
    results.append((what, ok))
    print(line, flush=True)


SQL = """
CREATE TABLE students (name VARCHAR NOT NULL PRIMARY KEY, id INT NOT NULL);
CREATE TABLE grades (student_id INT NOT NULL, science INT, maths INT, art INT);
CREATE MATERIALIZED VIEW average_scores AS
  SELECT name, ((science + maths + art) / 3) AS average
  FROM students JOIN grades ON id = student_id;
"""

client = call("FelderaClient(url, api_key)", lambda: FelderaClient(URL, api_key=API_KEY))
if client is None:
    sys.exit(1)
call("client.get_config().edition", lambda: client.get_config().edition)

pipeline = call("PipelineBuilder(...).create_or_replace()",
                lambda: PipelineBuilder(client, name="notebook", sql=SQL).create_or_replace())
if pipeline is None:
    sys.exit(1)
call("pipeline.status() after create", lambda: pipeline.status())
call("pipeline.program_status()", lambda: pipeline.program_status())
call("[t.name for t in pipeline.tables()]", lambda: [t.name for t in client.get_pipeline("notebook", __import__("feldera").enums.PipelineFieldSelector.ALL).tables])
call("client.pipelines() names", lambda: [p.name for p in client.pipelines()])
call("pipeline.start_paused()", lambda: pipeline.start_paused())
call("pipeline.status()", lambda: pipeline.status())

out = call("pipeline.listen('average_scores')", lambda: pipeline.listen("average_scores"))
chunks = []


def on_chunk(df, seq):
    chunks.append((seq, df.to_dict("records")))


# foreach_chunk blocks until its listener is attached, then returns; the callback runs on a thread.
call("pipeline.foreach_chunk('average_scores', callback)", lambda: pipeline.foreach_chunk("average_scores", on_chunk))
call("pipeline.resume()", lambda: pipeline.resume())
call("pipeline.status()", lambda: pipeline.status())

call("pipeline.input_pandas('students', df)",
     lambda: pipeline.input_pandas("students", pd.DataFrame([{"name": "Bob", "id": 1001}, {"name": "Sam", "id": 1002}])))
call("pipeline.input_json('grades', rows)",
     lambda: pipeline.input_json("grades", [{"student_id": 1001, "science": 80, "maths": 90, "art": 70},
                                            {"student_id": 1002, "science": 60, "maths": 70, "art": 80}]))
call("pipeline.wait_for_completion(timeout_s=30)", lambda: pipeline.wait_for_completion(timeout_s=30))
time.sleep(1)
call("listener: out.to_dict()", lambda: out.to_dict() if out else None)
call("foreach_chunk chunks", lambda: chunks)
call("list(pipeline.query('SELECT * FROM average_scores'))",
     lambda: [dict(row) for row in pipeline.query("SELECT * FROM average_scores")])
call("list(pipeline.query_tabular('SELECT * FROM average_scores'))",
     lambda: "".join(pipeline.query_tabular("SELECT * FROM average_scores")))
call("pipeline.pause()", lambda: pipeline.pause())
call("pipeline.status()", lambda: pipeline.status())
call("pipeline.resume()", lambda: pipeline.resume())
call("pipeline.checkpoint(wait=True)", lambda: pipeline.checkpoint(wait=True, timeout_s=30))
call("pipeline.stats().global_metrics.state", lambda: pipeline.stats().global_metrics.state)
call("pipeline.stop(force=False)", lambda: pipeline.stop(force=False))
call("pipeline.status()", lambda: pipeline.status())
# The client retries a 503 three times (python/feldera/rest/retry.py), as against Feldera.
refused("pipeline.input_json on a stopped pipeline",
        lambda: pipeline.input_json("grades", [{"student_id": 1, "science": 1, "maths": 1, "art": 1}], force=True),
        "PipelineInteractionNotDeployed")
call("pipeline.start() (resumes from the checkpoint)", lambda: pipeline.start())
call("query after restart", lambda: [dict(row) for row in pipeline.query("SELECT * FROM average_scores")])
call("pipeline.stop(force=True)", lambda: pipeline.stop(force=True))
call("pipeline.clear_storage()", lambda: pipeline.clear_storage())
call("pipeline.storage_status() after refresh",
     lambda: (pipeline.refresh(__import__("feldera").enums.PipelineFieldSelector.STATUS), pipeline.storage_status())[1])
call("pipeline.delete()", lambda: pipeline.delete())
call("client.pipelines() names after delete", lambda: [p.name for p in client.pipelines()])

# A program that does not compile: stored with its SQL errors, as Feldera does.
refused("create_or_replace with a SQL error",
        lambda: PipelineBuilder(client, name="broken", sql="CREATE TABLE t (id INT,\n  x FROB);").create_or_replace(),
        "failed to compile")
call("broken: program_error", lambda: client.get_pipeline("broken", __import__("feldera").enums.PipelineFieldSelector.ALL).program_error)
call("broken: delete", lambda: client.delete_pipeline("broken"))


# Feldera's test_egress_send_snapshot (python/tests/runtime/test_output_snapshot.py), program unchanged.
def collect_output_chunks(stream, expected_rows):
    chunks, rows = [], []
    while len(rows) < expected_rows:
        chunk = next(stream)
        chunks.append(chunk)
        rows.extend(chunk.get("json_data") or [])
    return chunks, rows


def normalize(rows):
    return [row.get("insert") or row.get("delete") or row for row in rows]


def test_egress_send_snapshot(pipeline_name="test_egress_send_snapshot"):
    sql = """
    CREATE TABLE t1(id INT) WITH ('materialized' = 'true');
    CREATE MATERIALIZED VIEW v1 AS SELECT * FROM t1;
    """.strip()
    p = PipelineBuilder(client, name=pipeline_name, sql=sql, runtime_config=RuntimeConfig(workers=1)).create_or_replace()
    p.start()
    client.push_to_pipeline(pipeline_name, "t1", "json", [{"id": 1}, {"id": 2}], array=True,
                            update_format="raw", wait=True, wait_timeout_s=30.0)
    stream = client.listen_to_pipeline(pipeline_name, "v1", format="json", send_snapshot=True)()
    snapshot_chunks, snapshot_rows = collect_output_chunks(stream, 2)
    assert sorted(normalize(snapshot_rows), key=json.dumps) == [{"id": 1}, {"id": 2}]
    assert all(chunk.get("snapshot") is True for chunk in snapshot_chunks)
    client.push_to_pipeline(pipeline_name, "t1", "json", [{"id": 3}], array=True,
                            update_format="raw", wait=True, wait_timeout_s=30.0)
    delta_chunks, delta_rows = collect_output_chunks(stream, 1)
    assert normalize(delta_rows) == [{"id": 3}]
    assert all(chunk.get("snapshot") is False for chunk in delta_chunks)
    p.stop(force=True)
    p.clear_storage()
    p.delete()
    return "passed"


call("test_egress_send_snapshot (Feldera's, program unchanged)", test_egress_send_snapshot)

failed = [what for what, ok in results if not ok]
print(f"\n{len(results) - len(failed)} of {len(results)} calls ok" + (f"; failed: {failed}" if failed else ""))
# Listener threads are daemons of the client; leave without waiting for them.
sys.stdout.flush()
import os  # noqa: E402
os._exit(0 if not failed else 1)
