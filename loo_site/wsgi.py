"""WSGI entry point: `gunicorn loo_site.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "loo_site.settings")

application = get_wsgi_application()
