"""HTTP and WebSocket routing of the portal (served by uvicorn, or daphne under runserver)."""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

from portal.asgi_handler import get_asgi_application  # noqa: E402 (Django's, without needless threads)

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from live.bridge import ServerLoop  # noqa: E402
from notifications.routing import websocket_urlpatterns as me_urlpatterns  # noqa: E402
from portal.sockets import (  # noqa: E402
    FirstFrameToken,
    OriginOrToken,
    SocketsPerAddressLimit,
    TokenAuth,
    UnknownPathConsumer,
)
from tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402

# A path no route serves is refused at the handshake (URLRouter alone raises: a 500 and a
# logged error for every probe).
unknown_path = [re_path(r"", UnknownPathConsumer.as_asgi())]
sockets = websocket_urlpatterns + me_urlpatterns + tournament_sockets + unknown_path

# ServerLoop notes the event loop for the threads that send on its behalf (``live.bridge``).
application = ServerLoop(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": SocketsPerAddressLimit(
                FirstFrameToken(OriginOrToken(AuthMiddlewareStack(TokenAuth(URLRouter(sockets)))))
            ),
        }
    )
)

# Everything loaded so far (Django, the apps, their modules: about 150,000 objects) lives as
# long as the process. Kept out of the cyclic collector's passes, a full pass no longer walks
# them all: about 80 ms during which the process answered nobody.
gc.freeze()
