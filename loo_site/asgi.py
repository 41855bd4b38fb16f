"""ASGI entry point: what `make run` serves (gunicorn with uvicorn's workers), so that a
table's live stream (games.live.sse) waits on the event loop instead of holding a worker.

Every other page is served as under WSGI: the middleware and views are sync, and Django runs
them in a thread of the request's own, made for it and ended after it. So a database
connection kept for the next request (CONN_MAX_AGE) would never be used again, and would stay
open until its thread was collected: under ASGI each request's connection is closed at its
end (DJANGO_CONN_MAX_AGE=0, unless the environment says otherwise; a PostgreSQL deployment
that wants connections kept puts a pool in front, e.g. PgBouncer).

WhiteNoise (6.x) answers static files with a sync iterator, which Django's ASGI handler
reads in a thread and warns about, once per worker: the files are small and hashed (a browser
fetches each once), so the warning is silenced here, and only this one.
"""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "loo_site.settings")
os.environ.setdefault("DJANGO_CONN_MAX_AGE", "0")

warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    category=Warning,
    module="django.core.handlers.asgi",
)

application = get_asgi_application()
