"""Every API error has the same shape as the socket's: ``{"code", "message"}``.

DRF's own errors (not signed in, no permission, throttled, not found, a bad body) keep their
``detail`` for clients that read it, and gain a code and a message a person can read. Anyone
not signed in who tries to act gets ``not_seated``, as on the socket.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.views import exception_handler

CODE_FOR = {
    exceptions.NotAuthenticated: "not_seated",
    exceptions.AuthenticationFailed: "not_seated",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    Http404: "not_found",
    PermissionDenied: "forbidden",
    exceptions.Throttled: "throttled",
    exceptions.MethodNotAllowed: "bad_request",
    exceptions.ParseError: "bad_request",
    exceptions.UnsupportedMediaType: "bad_request",
    exceptions.ValidationError: "bad_request",
}


def api_exception_handler(exc, context):
    response = exception_handler(exc, context)
    if response is None or not isinstance(response.data, (dict, list)):
        return response
    code = next((code for kind, code in CODE_FOR.items() if isinstance(exc, kind)), "bad_request")
    if isinstance(exc, exceptions.NotAuthenticated):
        message = "Log in to do that."
    elif isinstance(exc, exceptions.ValidationError):
        message = "Some fields are missing or wrong; see errors."
    else:
        detail = response.data.get("detail") if isinstance(response.data, dict) else None
        message = str(detail or getattr(exc, "detail", "")) or "That request was refused."
    if isinstance(response.data, dict) and "code" not in response.data:
        response.data = {"code": code, "message": message, **response.data}
    elif isinstance(response.data, list):
        response.data = {"code": code, "message": message, "errors": response.data}
    return response
