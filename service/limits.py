"""Rate limits (Flask-Limiter): shared storage on Redis when REDIS_URL is set."""
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# The default limit per client address comes from the settings (RATE_LIMIT).
limiter = Limiter(get_remote_address, key_prefix="turnpost-limit")
