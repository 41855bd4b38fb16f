"""Site-wide pages that belong to neither app: the start page and the health check."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def show_start_page(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_safe
def check_health(request: HttpRequest) -> HttpResponse:
    """Answer a load balancer's probe: no database, no template, no session."""
    return HttpResponse("ok", content_type="text/plain")
