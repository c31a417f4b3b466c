"""/metrics: every metric of the process, and consolidation's backlog in this app's store.

prometheus_client's own ASGI app renders on the event loop; here a scrape renders in a worker
thread, since reading the backlog is a store query and no request should wait for it.
"""

from __future__ import annotations

from functools import partial

from prometheus_client.exposition import choose_encoder
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from hippograph.api.threads import call
from hippograph.consolidation.status import backlog
from hippograph.kernel import metrics
from hippograph.runtime import Runtime


def metrics_route(runtime: Runtime) -> Route:
    """/metrics itself, no redirect to /metrics/ (which a mount would answer with)."""
    backlog_gauges = metrics.BacklogCollector(
        partial(backlog, runtime.store, runtime.clock), runtime.settings.server.metrics_backlog_cache_s
    )
    served = metrics.registry([backlog_gauges])

    async def scrape(request: Request) -> Response:
        encode, content_type = choose_encoder(request.headers.get("accept", ""))
        return Response(await call(encode, served), media_type=content_type)

    return Route("/metrics", scrape, methods=["GET"])
