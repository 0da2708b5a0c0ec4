"""The REST API: flask-smorest blueprints, documented at /api/openapi.json."""
