"""ASGI entry point: what `make run` serves (gunicorn with uvicorn's workers), so that a
table's live stream (games.live.sse) waits on the event loop instead of holding a worker.

Every other page is served as under WSGI: the middleware and views are sync, and Django runs
them in a thread per request. WhiteNoise (6.x) answers static files with a sync iterator,
which Django's ASGI handler reads in a thread and warns about, once per worker: the files
are small and hashed (a browser fetches each once), so the warning is silenced here, and
only this one.
"""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "loo_site.settings")

warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    category=Warning,
    module="django.core.handlers.asgi",
)

application = get_asgi_application()
