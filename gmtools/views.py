from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from gmtools.models import Campaign


def home(request: HttpRequest) -> HttpResponse:
    campaigns = Campaign.objects.for_gm(request.user).annotate(character_count=Count("characters"))
    return render(request, "home.html", {"campaigns": campaigns})
