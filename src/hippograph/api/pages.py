"""The browser pages: GraphiQL at GET /graphql, the graph explorer at /explore, and their scripts,
styles and vendored libraries under /static. The pages hold no data: everything they show comes
from /graphql, with the key the user gives them."""

from __future__ import annotations

from pathlib import Path

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_HERE = Path(__file__).parent
PAGES = _HERE / "html"
STATIC = _HERE / "static"

# Everything from this server only: no CDN, no inline script or style, no plugins, no framing.
# GraphiQL's stylesheet carries its fonts and icons as data: URLs. 'self' covers this server's own
# WebSocket (ws: and wss:) in current browsers, for GraphiQL's subscriptions.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # The key lives in the page, never in a URL; no URL leaves in a Referer either.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def page(name: str) -> HTMLResponse:
    """One of the pages; they are static HTML, so no input reaches them."""
    return HTMLResponse((PAGES / f"{name}.html").read_text(encoding="utf-8"), headers={"Cache-Control": "no-cache"})


async def explore(request: Request) -> HTMLResponse:
    return page("explore")


def static_files() -> StaticFiles:
    """/static: files only (a directory is 404, never listed), typed by their extension."""
    return StaticFiles(directory=STATIC, html=False, follow_symlink=False)


class SecurityHeaders:
    """Adds the headers above to every HTTP response: API answers carry them too, so a JSON body
    opened in a tab can neither be sniffed into a script nor framed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
