"""Rendering the emails from `templates/email/<kind>.txt` and `.html` pairs.

The HTML half is autoescaped (player names and game titles are user text); the text
half is not, since it is never interpreted as markup.
"""
from __future__ import annotations

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from service.resources import TEMPLATES

SUBJECTS = {
    # Never the game's title: it is the sender's text, quoted in the body.
    "invitation": "{inviter} invites you to a game of {game_name} on turnpost",
    "sign_in": "Your turnpost sign-in link",
    "your_turn": "{game_title}: your decision",
    "reminder": "{game_title}: reminder, due {deadline}",
    "deadline_passed": "{game_title}: a deadline passed",
    "game_over": "{game_title}: game over",
    "digest": "Your turnpost games today",
    "reply_answer": "Re: {game_title}",
    "table_talk": "{game_title}: said at the table",
}

_environment = Environment(
    loader=FileSystemLoader(str(TEMPLATES)),
    autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)


def render(kind: str, context: dict) -> tuple[str, str, str]:
    """(subject, text, html) of an email of `kind` (a key of SUBJECTS)."""
    if kind not in SUBJECTS:
        raise ValueError(f"unknown email kind {kind!r}; kinds: {', '.join(SUBJECTS)}")
    context = {"preferences_url": None, "unsubscribe_url": None, "table_talk": [], **context}
    subject = SUBJECTS[kind].format_map(_Missing(context))
    text = _environment.get_template(f"email/{kind}.txt").render(context)
    html = _environment.get_template(f"email/{kind}.html").render(context)
    return " ".join(subject.split()), text, html


class _Missing(dict):
    def __missing__(self, key):
        return ""


def compile_templates() -> None:
    """Compile every email's templates now rather than on its first use."""
    for kind in SUBJECTS:
        _environment.get_template(f"email/{kind}.txt")
        _environment.get_template(f"email/{kind}.html")
