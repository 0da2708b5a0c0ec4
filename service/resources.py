"""Where the files read at run time lie: inside the installed package (a wheel ships
the top-level templates/ folder as service/templates), or beside it in a checkout."""
from __future__ import annotations

from pathlib import Path

_SERVICE = Path(__file__).resolve().parent


def _templates() -> Path:
    installed = _SERVICE / "templates"
    return installed if installed.is_dir() else _SERVICE.parent / "templates"


TEMPLATES = _templates()  # pages/*.html and email/*.txt|html
STATIC = _SERVICE / "static"  # the pages' scripts and styles
MIGRATIONS = _SERVICE / "migrations"  # Alembic: env.py, script.py.mako, versions/
