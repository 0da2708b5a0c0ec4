"""Accounts: passwordless sign-in by emailed link, and personal API tokens."""
from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from sqlmodel import select

from service import auth, rows
from service.models import ApiToken
from service.play import Work, notify
from service.schemas import ProblemSchema, SignInRequestSchema, TokenCreateSchema, TokenListSchema, TokenSchema
from service.web import NO_STORE, current_user, run, settings

blp = Blueprint("accounts", __name__, url_prefix="/api", description="Sign-in and API tokens")


def request_sign_in(db, email: str, minutes: int):
    """Email a single-use sign-in link; returns the normalised address and the work.
    The same statements run whether or not the address has an account (nothing reveals
    which by its timing); the account is created when the link is used."""
    email = auth.normalise_email(email)
    nonce, issued_at = auth.record_sign_in_link(db, email)
    work = Work()
    # Not the link itself: the email's composer builds it again (workers/compose.py).
    notify(db, work, "sign_in", email, payload={"nonce": nonce, "issued_at": issued_at, "valid_minutes": minutes})
    rows.write(db)  # the notification's id, for the workers
    return email, work


@blp.route("/sign-in")
class SignIn(MethodView):
    @blp.arguments(SignInRequestSchema)
    @blp.response(202)
    @blp.alt_response(422, schema=ProblemSchema)
    @blp.alt_response(429, schema=ProblemSchema, description="too many sign-in requests")
    @blp.doc(security=[])
    def post(self, data):
        """Send a sign-in link to this address. The answer is the same whether or not
        the address had an account."""
        run(request_sign_in, data["email"], settings().sign_in_minutes)
        return {"message": "if the address is right, a sign-in link is on its way"}


@blp.route("/tokens")
class Tokens(MethodView):
    @blp.response(200, TokenListSchema)
    @blp.alt_response(401, schema=ProblemSchema)
    def get(self):
        """Your API tokens (never their secrets)."""
        def listing(db):
            user = current_user(db)
            return list(db.exec(select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id)))
        return {"tokens": run(listing)}

    @blp.arguments(TokenCreateSchema)
    @blp.response(201, TokenSchema)
    @blp.alt_response(401, schema=ProblemSchema)
    @blp.alt_response(422, schema=ProblemSchema)
    def post(self, data):
        """Create a token; its secret is in this answer only."""
        def create(db):
            row, secret = auth.create_api_token(db, current_user(db), data["label"])
            return {"id": row.id, "label": row.label, "created_at": row.created_at, "token": secret}
        return run(create), 201, NO_STORE  # the secret is on this answer alone


@blp.route("/tokens/<id:token_id>")
class TokenResource(MethodView):
    @blp.response(204)
    @blp.alt_response(401, schema=ProblemSchema)
    @blp.alt_response(404, schema=ProblemSchema)
    def delete(self, token_id):
        """Revoke a token."""
        run(lambda db: auth.revoke_api_token(db, current_user(db), token_id))
