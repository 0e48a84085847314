"""A bearer-token check for the OpenAI server, loaded with --middleware token_auth.authentication."""
import os

from fastapi.responses import JSONResponse


async def authentication(request, call_next):
    expected = os.environ.get("SERVE_TOKEN")
    if expected and request.headers.get("authorization") != f"Bearer {expected}":
        return JSONResponse({"error": "unauthorized"}, status_code=401)
    return await call_next(request)
