"""The client's address, as every limit of the site counts it.

``TRUSTED_PROXY_COUNT`` says how many proxies of our own stand in front of the site. With 0
(the default) the address is the connection's own (``REMOTE_ADDR``) and ``X-Forwarded-For``
is ignored, since any client can write it. With N > 0 each of our proxies appended the address
it saw to ``X-Forwarded-For``, so the client is the N-th entry from the right; whatever a client
wrote further left is never read.

The same rule is given to DRF's throttles (``NUM_PROXIES``), allauth's rate limits
(``ALLAUTH_TRUSTED_PROXY_COUNT``), the login lockout (``AXES_CLIENT_IP_CALLABLE``) and
django-ratelimit (``RATELIMIT_IP_META_KEY``), so all of them see one address per client.
"""

import ipaddress

from django.conf import settings


def client_ip(request) -> str | None:
    """The address of the client that sent ``request`` (a Django or DRF request)."""
    return client_address(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"))


def client_address(remote_addr: str | None, forwarded: str | None) -> str | None:
    """The client's address from the connection's (``remote_addr``) and ``X-Forwarded-For``
    (``forwarded``), for a request or a WebSocket alike."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies == 0 or not forwarded:
        return remote_addr
    hops = [hop.strip() for hop in forwarded.split(",")]
    # The same choice as DRF's BaseThrottle.get_ident with NUM_PROXIES: a chain shorter than
    # the proxies configured (a request that bypassed one) gives its leftmost entry.
    hop = hops[-min(proxies, len(hops))]
    try:
        return str(ipaddress.ip_address(hop))
    except ValueError:  # not an address (only a client could have written it): the connection's
        return remote_addr
