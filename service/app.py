"""The Flask application factory."""
from __future__ import annotations

from datetime import timedelta

from flask import Flask, jsonify, render_template, request
from flask_smorest import Api
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from service import resources
from service.config import Settings
from service.db import make_engine
from service.errors import ServiceError
from service.headers import install_headers
from service.input_guard import install_input_guard
from service.limits import install_limits

csrf = CSRFProtect()
MAX_ID = 2**31 - 1


class IdConverter(IntegerConverter):
    """A row id in the URL: 1 to the database's largest integer (else 404)."""

    def __init__(self, url_map):
        super().__init__(url_map, min=1, max=MAX_ID)


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings()
    app = Flask(__name__, template_folder=str(resources.TEMPLATES), static_folder=str(resources.STATIC))
    app.config.update(
        SECRET_KEY=settings.secret_key,
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        API_TITLE="turnpost",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/api/docs/assets/",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),  # "keep me signed in"
        WTF_CSRF_TIME_LIMIT=None,
    )
    app.extensions["turnpost"] = {"settings": settings, "database": make_engine(settings.database_url)}
    if settings.trusted_proxies:  # the client's address (for rate limits) as the proxies saw it
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)  # type: ignore[method-assign]  # Flask's way
    app.url_map.converters["id"] = IdConverter
    api = Api(app, spec_kwargs={"components": {"securitySchemes": {
        "bearer": {"type": "http", "scheme": "bearer"}}}, "security": [{"bearer": []}]})
    api.register_converter(IdConverter, lambda _: {"type": "integer", "minimum": 1, "maximum": MAX_ID})
    csrf.init_app(app)
    install_input_guard(app)
    register_blueprints(app, api)
    register_error_handlers(app)
    install_limits(app, settings)
    install_headers(app, settings.base_url)
    return app


def register_blueprints(app: Flask, api: Api) -> None:
    from service import api_docs, links, open_seat_pages, pages, rating_pages, rules_pages, talk_pages
    from service.api import accounts, games, inbound, inbound_providers, open_seats, ratings, talk

    for blueprint in (games.blp, accounts.blp, talk.blp, ratings.blp, open_seats.blp):
        api.register_blueprint(blueprint)
        csrf.exempt(blueprint)  # the API authenticates with bearer tokens, not cookies
    app.register_blueprint(pages.bp)
    app.register_blueprint(talk_pages.bp)
    app.register_blueprint(rating_pages.bp)
    app.register_blueprint(open_seat_pages.bp)
    app.register_blueprint(rules_pages.bp)
    app.register_blueprint(links.bp)
    app.register_blueprint(api_docs.bp)
    app.register_blueprint(inbound.bp)
    csrf.exempt(inbound.bp)  # authenticated by the HMAC of its body
    app.register_blueprint(inbound_providers.bp)
    csrf.exempt(inbound_providers.bp)  # authenticated by each provider's signature or credentials
    csrf.exempt(links.unsubscribe)  # one-click unsubscribe POSTs come from mail clients
    if app.extensions["turnpost"]["settings"].bench_endpoints:
        from service import bench_endpoint

        app.register_blueprint(bench_endpoint.bp)
        csrf.exempt(bench_endpoint.bp)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(err: ServiceError):
        return jsonify(err.to_dict()), err.status

    @app.errorhandler(OperationalError)
    def database_unavailable(err: OperationalError):
        # The connection was lost (a restart, a killed backend): the transaction was
        # rolled back or, if the loss came during the commit, may have been applied;
        # a retry is safe, as changes carry the version they apply to.
        app.logger.warning("database unavailable: %s", err)
        body = {"code": "unavailable",
                "message": "the database is unavailable for a moment; try again (a change already applied "
                           "answers with a stale version)"}
        if not request.path.startswith("/api/"):  # plain text: a page template would ask the database
            return body["message"], 503, {"Content-Type": "text/plain; charset=utf-8", "Retry-After": "1"}
        return jsonify(body), 503, {"Retry-After": "1"}

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        code = err.code or 500  # a bare HTTPException has no code: answered as the server's error
        body = {"code": _HTTP_CODES.get(code, "http_error"), "message": err.description}
        messages = (getattr(err, "data", None) or {}).get("messages")
        if messages == {"json": ["Invalid JSON body."]}:
            body.update(code="bad_json", message="the body is not valid JSON")
        elif messages:
            body["errors"] = messages
            body["message"] = "the request does not match the schema; see errors"
        if _wants_page():
            return render_template("pages/message.html", title=_PAGE_TITLES.get(code, err.name),
                                   text=err.description), code
        return jsonify(body), code


def _wants_page() -> bool:
    """A browser asking for a page (not the API, not a client asking for JSON) gets its
    errors as a page."""
    if request.path.startswith("/api/") or request.path == "/api":
        return False
    # "*/*" (fetch, curl) keeps JSON; a browser's navigation names text/html first.
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"


_PAGE_TITLES = {404: "Page not found", 405: "Not allowed here"}
_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large",
               422: "invalid", 429: "rate_limited"}
