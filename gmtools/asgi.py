import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gmtools.settings")
# WhiteNoise answers static files with a file iterator, which Django streams from a thread under
# ASGI and warns about; it is the documented way to serve them with uvicorn and costs nothing here.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous iterators")
application = get_asgi_application()

from gmtools.startup import refuse_weak_key  # noqa: E402 - needs the settings

refuse_weak_key()

# `python -m gmtools.serve` posts each campaign's rolls to its Discord from every server process
# (gmtools.discord.worker: the rows are claimed, so several processes never post one twice).
if os.environ.get("GMTOOLS_DISCORD_WORKER") == "1":
    from gmtools.discord.worker import start_in_background

    start_in_background()
