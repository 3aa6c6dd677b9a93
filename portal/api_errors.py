"""Every API error has the same shape as the socket's: ``{"code", "message"}``.

DRF's own errors (not signed in, no permission, throttled, not found, a bad body) keep their
``detail`` for clients that read it, and gain a code and a message a person can read. Anyone
not signed in who tries to act gets ``not_seated``, as on the socket. A service's refusal (a
``portal.errors.ServiceError``) is answered here too, with the status of its code in
``portal.errors.HTTP_STATUS``: the views let it through.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler

from .errors import ServiceError

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


def service_error_response(exc: ServiceError) -> Response:
    """A service's refusal: its code and message (and what the edge added, ``exc.extra``)."""
    # The message in the request's language (the API's: its Accept-Language, else English).
    return Response({"code": exc.code, "message": str(exc.message), **exc.extra}, status=exc.http_status)


def api_exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        # An answer, not a failure: whatever the request wrote before it stands, as it did when
        # each view turned the refusal into its response (no ``set_rollback``).
        return service_error_response(exc)
    response = exception_handler(exc, context)
    if response is None or not isinstance(response.data, (dict, list)):
        return response
    code = next((code for kind, code in CODE_FOR.items() if isinstance(exc, kind)), "bad_request")
    if isinstance(exc, exceptions.NotAuthenticated):
        message = _("Sign in to do that.")
    elif isinstance(exc, exceptions.ValidationError):
        message = _("Some fields are missing or wrong; see errors.")
    else:
        detail = response.data.get("detail") if isinstance(response.data, dict) else None
        message = str(detail or getattr(exc, "detail", "")) or _("That request was refused.")
    if isinstance(response.data, dict) and "code" not in response.data:
        response.data = {"code": code, "message": message, **response.data}
    elif isinstance(response.data, list):
        response.data = {"code": code, "message": message, "errors": response.data}
    return response


class ErrorSerializer(serializers.Serializer):
    """Every error of the API, as the schema publishes it (DRF's own also carry ``detail`` or
    the fields' errors beside these)."""

    code = serializers.CharField()
    message = serializers.CharField()


ERROR_SCHEMA = {
    "type": "object",
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
    "required": ["code", "message"],
}


def _error_response(description: str) -> dict:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def document_common_errors(result, generator, request, public):
    """drf-spectacular hook: the errors every operation can answer, whatever its view says:
    429 (every API view is throttled); with parameters in the path, 404 (nothing there,
    or a path no route matches: ``not_found_json``); and for a list in pages, 404 for a page
    that is not there (past the end, or not a page number)."""
    result.setdefault("components", {}).setdefault("schemas", {}).setdefault("Error", ERROR_SCHEMA)
    for path, operations in result.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.setdefault("429", _error_response("Too many requests: slow down."))
            if "{" in path:
                responses.setdefault("404", _error_response("Nothing there, or not visible to you."))
            if any(p.get("name") == "page" and p.get("in") == "query" for p in operation.get("parameters", [])):
                responses.setdefault("404", _error_response("No such page: past the end, or not a page number."))
    return result


def not_found_json(request) -> JsonResponse:
    """A 404 under /api/ for a path no route matches, in the API's own shape."""
    return JsonResponse({"code": "not_found", "message": _("There is nothing at this address.")}, status=404)
