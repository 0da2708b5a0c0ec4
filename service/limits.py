"""Rate limits (Flask-Limiter): shared storage on Redis when REDIS_URL is set."""
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

limiter = Limiter(get_remote_address, default_limits=["600 per minute"], key_prefix="turnpost-limit")
