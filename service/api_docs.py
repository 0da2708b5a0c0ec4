"""Swagger UI's files for the API's documentation page (/api/docs), served from the
swagger-ui-bundle package so the page needs no outside site."""
from __future__ import annotations

from flask import Blueprint, send_from_directory
from swagger_ui_bundle import swagger_ui_path

bp = Blueprint("api_docs_assets", __name__)


@bp.get("/api/docs/assets/<path:filename>")
def asset(filename):
    return send_from_directory(swagger_ui_path, filename, max_age=86400)
