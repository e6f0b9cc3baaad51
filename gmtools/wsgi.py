import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gmtools.settings")
application = get_wsgi_application()

from gmtools.startup import refuse_weak_key  # noqa: E402 - needs the settings

refuse_weak_key()
