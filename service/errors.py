"""Errors a use case raises, each with its HTTP status, a stable code and a message
that says what was wrong. The API and the pages turn them into responses in one place."""
from __future__ import annotations


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, code: str | None = None, **extra):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.extra = extra

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message, **self.extra}


class BadRequest(ServiceError):
    status, code = 400, "bad_request"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Stale(ServiceError):
    status, code = 409, "stale_version"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class Invalid(ServiceError):
    status, code = 422, "invalid"


class TooMany(ServiceError):
    status, code = 429, "rate_limited"
