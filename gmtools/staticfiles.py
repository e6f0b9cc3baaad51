"""WhiteNoise's middleware, able to run in Django's async request path.

WhiteNoise 6 is sync only, and one sync-only middleware makes Django run everything below it (the
other middleware, every view and the live streams) in a thread and back in the event loop through
``async_to_sync``: two more thread hops on every request, and under load a request whose client
hung up could leave that finished hop's executor in the handler's context, so that Django's
``request_finished`` failed ("Exception in ASGI application ... CurrentThreadExecutor already quit
or is broken", seen in ``make loadtest``). Without a sync-only middleware nothing in a request
calls ``async_to_sync``. WhiteNoise's own ASGI support is an open pull request (evansd/whitenoise#359,
forked as ServeStatic); its middleware needs only this to be async-capable, so we keep WhiteNoise.
"""

from __future__ import annotations

import os

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    async_capable = True

    def __init__(self, get_response) -> None:
        super().__init__(get_response)
        self.async_mode = iscoroutinefunction(self.get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def add_files(self, root, prefix=None) -> None:
        # Until someone runs collectstatic (``make run``, ``make table``, the tests) there is no
        # STATIC_ROOT and the finders serve every file: WhiteNoise's "No directory at" warning on
        # each start (and each test's middleware) says nothing wrong.
        if root == self.static_root and not os.path.isdir(root):
            return
        super().add_files(root, prefix)

    def __call__(self, request):
        if self.async_mode:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request):
        # A dict lookup (with DEBUG's autorefresh, a few stat calls): not worth a thread.
        static_file = self.find_file(request.path_info) if self.autorefresh else self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self.serve)(static_file, request)  # opens the file
        return await self.get_response(request)
