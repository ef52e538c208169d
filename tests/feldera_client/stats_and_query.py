"""Feldera's own Python client (code unchanged) against the edge worker's
statistics, checkpoint-status and ad-hoc query routes. Run it with
`feldera-client.sh tests/feldera_client/stats_and_query.py http://127.0.0.1:PORT`
against `npm start` (node edge-worker/dev.mjs), which serves pipeline 'demo'.
Prints each call and its result; exits non-zero on the first failure.

Until GET /v0/config and Feldera's pipeline fields are served (i19-api), the
FelderaClient is built without its constructor's /v0/config probe, and the
Pipeline object is given the pipeline's name directly (the calls below read
nothing else of it). Not part of `npm test`: CI has no copy of the client."""
import sys
import traceback

from feldera.pipeline import Pipeline
from feldera.rest.errors import FelderaAPIError
from feldera.rest.config import Config
from feldera.rest.feldera_client import FelderaClient
from feldera.rest._httprequests import HttpRequests
from feldera.stats import PipelineStatistics

url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8787"
name = sys.argv[2] if len(sys.argv) > 2 else "demo"

client = FelderaClient.__new__(FelderaClient)  # skips the /v0/config probe
client.config = Config(url=url)
client.http = HttpRequests(client.config)


class Named:
    """The part of Feldera's InnerPipeline these calls read."""

    def __init__(self, name):
        self.name = name


pipeline = Pipeline._from_inner(Named(name), client)
failed = False


def call(what, fn):
    global failed
    try:
        result = fn()
        print(f"OK   {what}: {result}")
        return result
    except Exception:
        failed = True
        print(f"FAIL {what}:\n{traceback.format_exc()}")


stats = call("pipeline.stats()", lambda: pipeline.stats())
if stats:
    g = stats.global_metrics
    call("  global_metrics", lambda: f"state={g.state.name} incarnation={g.incarnation_uuid} "
         f"start_time={g.start_time} input={g.total_input_records} processed={g.total_processed_records} "
         f"complete={g.pipeline_complete} {g.progress_summary()}")
    call("  inputs", lambda: [(i.endpoint_name, i.metrics.total_records) for i in stats.inputs])
    call("  outputs", lambda: [(o.endpoint_name, o.metrics.transmitted_records) for o in stats.outputs])
call("pipeline.is_complete()", lambda: pipeline.is_complete())
call("PipelineStatistics.from_dict(client.get_pipeline_stats())",
     lambda: type(PipelineStatistics.from_dict(client.get_pipeline_stats(name))).__name__)
call("pipeline.input_connector_stats('orders', 'api-ingress')",
     lambda: pipeline.input_connector_stats("orders", "api-ingress").metrics.total_records)
call("pipeline.output_connector_stats('revenue_by_region', 'revenue_kv')",
     lambda: pipeline.output_connector_stats("revenue_by_region", "revenue_kv").metrics.transmitted_records)
call("pipeline.checkpoint(wait=True)", lambda: pipeline.checkpoint(wait=True, timeout_s=30))
call("pipeline.checkpoint_response(wait=True)", lambda: pipeline.checkpoint_response(wait=True, timeout_s=30))
call("client.checkpoint_pipeline_status()", lambda: client.checkpoint_pipeline_status(name))
call("pipeline.query('SELECT * FROM revenue_by_region')",
     lambda: list(pipeline.query("SELECT * FROM revenue_by_region"))[:3])
call("pipeline.query_tabular('SELECT * FROM revenue_by_region')",
     lambda: "\n" + "\n".join(pipeline.query_tabular("SELECT * FROM revenue_by_region")))


def refused(what, fn):
    """A call the edge worker refuses: OK when it raises FelderaAPIError (printed with its code)."""
    global failed
    try:
        result = fn()
        failed = True
        print(f"FAIL {what}: expected an error, got {result}")
    except FelderaAPIError as error:
        print(f"OK   {what}: refused, {error.status_code} {error.error_code}: {error.message}")


# Any SELECT: the engine's SQL front end compiles it (p.query).
call("pipeline.query('SELECT region, orders FROM revenue_by_region WHERE orders > 500 ORDER BY orders DESC LIMIT 3')",
     lambda: list(pipeline.query("SELECT region, orders FROM revenue_by_region WHERE orders > 500 "
                                 "ORDER BY orders DESC LIMIT 3")))
refused("pipeline.query_tabular('SELECT * FROM nope')", lambda: list(pipeline.query_tabular("SELECT * FROM nope")))
refused("pipeline.query_parquet(...)", lambda: pipeline.query_parquet("SELECT * FROM revenue_by_region", "/tmp/r.parquet"))
sys.exit(1 if failed else 0)
