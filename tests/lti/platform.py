"""A learning platform simulated for the LTI tests: its own RSA keys, its JWKS, an OIDC auth
endpoint, an OAuth2 token endpoint (the tool's client-credentials grant, its assertion checked
against the tool's JWKS), AGS line items and scores, NRPS memberships and a page that frames
a launch, all served over HTTP on the loopback by a thread of its own.

Everything it receives is recorded (``scores``, ``lineitems``, ``tokens``); a handler that
fails records its error (``errors``), which the fixture turns into a test failure. ``stop``
shuts the server down and joins its thread.
"""

from __future__ import annotations

import html
import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jwt
from jwcrypto.jwk import JWK

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
ROLE = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
INSTRUCTOR = ROLE + "Instructor"
LEARNER = ROLE + "Learner"
MENTOR = ROLE + "Mentor"
SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
]


def new_key(kid: str) -> JWK:
    return JWK.generate(kty="RSA", size=2048, kid=kid)


def pem(key: JWK) -> bytes:
    return bytes(key.export_to_pem(private_key=True, password=None))


@dataclass
class Platform:
    """The simulated platform: see the module's note."""

    client_id: str = "lanterloo-client"
    deployment_id: str = "deployment-1"
    key: JWK = field(default_factory=lambda: new_key("platform-key-1"))
    #: The tool's JWKS, as the platform fetched it (the tests hand it over).
    tool_jwks: dict[str, Any] = field(default_factory=dict)
    scores: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    lineitems: dict[str, dict[str, Any]] = field(default_factory=dict)
    tokens: list[dict[str, Any]] = field(default_factory=list)
    members: list[dict[str, Any]] = field(default_factory=list)
    deep_link_answers: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: The score endpoint answers 500 this many times before accepting.
    failing_scores: int = 0
    #: What the auth endpoint signs into the id_token for the next browser launch.
    next_claims: dict[str, Any] = field(default_factory=dict)
    #: The tool's launch URL (the browser test's live server).
    tool_url: str = ""
    server: ThreadingHTTPServer | None = None
    thread: threading.Thread | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    # -- the server ---------------------------------------------------------------------------

    def start(self) -> Platform:
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._answer("GET")

            def do_POST(self) -> None:
                self._answer("POST")

            def _answer(self, method: str) -> None:
                try:
                    length = int(self.headers.get("Content-Length") or 0)
                    body = self.rfile.read(length).decode() if length else ""
                    status, kind, text = platform.handle(
                        method, self.path, dict(self.headers), body
                    )
                except Exception as error:  # recorded: the fixture fails the test
                    platform.errors.append(f"{method} {self.path}: {error!r}")
                    status, kind, text = 500, "text/plain", "error"
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        # Its request threads are joined when the server closes (block_on_close).
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = False
        self.thread = threading.Thread(target=self.server.serve_forever, name="platform")
        self.thread.start()
        return self

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def issuer(self) -> str:
        return self.url

    def registration(self) -> dict[str, str]:
        """The fields an administrator copies into the tool's admin."""
        return {
            "issuer": self.issuer,
            "client_id": self.client_id,
            "auth_login_url": f"{self.url}/auth",
            "token_url": f"{self.url}/token",
            "jwks_url": f"{self.url}/jwks",
        }

    # -- signing --------------------------------------------------------------------------------

    def sign(self, claims: dict[str, Any], key: JWK | None = None) -> str:
        key = key or self.key
        return jwt.encode(claims, pem(key), algorithm="RS256", headers={"kid": key.kid})

    def claims(
        self,
        nonce: str,
        *,
        sub: str,
        role: str = LEARNER,
        name: str = "Ada Lovelace",
        context: str = "course-1",
        link: str = "link-1",
        custom: dict[str, str] | None = None,
        lineitem: str = "",
        message: str = "LtiResourceLinkRequest",
        **extra: Any,
    ) -> dict[str, Any]:
        """A launch's claims as a platform sends them."""
        now = int(time.time())
        body: dict[str, Any] = {
            "iss": self.issuer,
            "aud": self.client_id,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            "name": name,
            LTI + "message_type": message,
            LTI + "version": "1.3.0",
            LTI + "deployment_id": self.deployment_id,
            LTI + "target_link_uri": self.tool_url or "http://testserver/lti/launch/",
            LTI + "roles": [role],
            LTI + "context": {"id": context, "title": f"Course {context}", "label": context},
            LTI + "custom": custom or {},
            AGS: {
                "scope": SCOPES,
                "lineitems": f"{self.url}/{context}/lineitems",
                **({"lineitem": lineitem} if lineitem else {}),
            },
            NRPS: {
                "context_memberships_url": f"{self.url}/{context}/memberships",
                "service_versions": ["2.0"],
            },
        }
        if message == "LtiResourceLinkRequest":
            body[LTI + "resource_link"] = {"id": link, "title": "Lanterloo"}
        else:
            body[DL] = {
                "deep_link_return_url": f"{self.url}/deep-link-return",
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["iframe", "window"],
                "data": "platform-data-1",
            }
        body.update(extra)
        return body

    # -- the endpoints ----------------------------------------------------------------------------

    def handle(
        self, method: str, path: str, headers: dict[str, str], body: str
    ) -> tuple[int, str, str]:
        parts = urlsplit(path)
        route = parts.path
        if route == "/jwks":
            return 200, "application/json", json.dumps({"keys": [self.key.export_public(True)]})
        if route == "/auth":
            return self.authorize(parse_qs(parts.query))
        if route == "/token":
            return self.token(parse_qs(body))
        if route == "/deep-link-return":
            answer = parse_qs(body)["JWT"][0]
            with self.lock:
                self.deep_link_answers.append(self.read_tool_jwt(answer, audience=self.issuer))
            return 200, "text/html", "<!doctype html><title>Added</title><h1>Activity added</h1>"
        if route.startswith("/frame"):
            return 200, "text/html", self.frame_page(parse_qs(parts.query))
        if route == "/favicon.ico":
            return 404, "text/plain", "no icon"
        self.check_bearer(headers)
        if route.endswith("/memberships"):
            return (
                200,
                "application/vnd.ims.lti-nrps.v2.membershipcontainer+json",
                json.dumps(
                    {"id": route, "context": {"id": route.split("/")[1]}, "members": self.members}
                ),
            )
        if route.endswith("/lineitems") and method == "POST":
            item = json.loads(body)
            item["id"] = f"{self.url}{route}/{uuid.uuid4().hex[:8]}"
            with self.lock:
                self.lineitems[item["id"]] = item
            return 201, "application/vnd.ims.lis.v2.lineitem+json", json.dumps(item)
        if route.endswith("/lineitems"):
            items = [i for i in self.lineitems.values() if i["id"].startswith(self.url + route)]
            return 200, "application/vnd.ims.lis.v2.lineitemcontainer+json", json.dumps(items)
        if route.endswith("/scores") and method == "POST":
            with self.lock:
                if self.failing_scores > 0:
                    self.failing_scores -= 1
                    return 500, "text/plain", "the gradebook is down"
                self.scores.append((f"{self.url}{route.removesuffix('/scores')}", json.loads(body)))
            return 200, "application/json", "{}"
        return 404, "text/plain", "no such endpoint"

    def authorize(self, query: dict[str, list[str]]) -> tuple[int, str, str]:
        """The browser's OIDC auth request: an auto-posting form with the id_token."""

        def one(name: str) -> str:
            return query[name][0]

        assert one("client_id") == self.client_id and one("response_mode") == "form_post"
        claims = self.claims(one("nonce"), **self.next_claims)
        token = self.sign(claims)
        return (
            200,
            "text/html",
            (
                "<!doctype html><title>Launching</title>"
                f'<form method="post" action="{html.escape(one("redirect_uri"))}" id="launch">'
                f'<input type="hidden" name="id_token" value="{token}">'
                f'<input type="hidden" name="state" value="{html.escape(one("state"))}">'
                '<button type="submit">Continue to Lanterloo</button></form>'
                "<script>document.getElementById('launch').submit()</script>"
            ),
        )

    def frame_page(self, query: dict[str, list[str]]) -> str:
        """A course page of the platform, the tool's login in an iframe."""
        src = html.escape(query["src"][0])
        return (
            "<!doctype html><meta name=viewport content='width=device-width'>"
            "<title>Course 1 | Platform</title><h1>Course 1</h1>"
            f'<iframe name="tool" title="Lanterloo" src="{src}" style="width:100%;height:760px">'
            "</iframe>"
        )

    def read_tool_jwt(self, token: str, audience: str) -> dict[str, Any]:
        """A JWT the tool signed, checked against its JWKS."""
        header = jwt.get_unverified_header(token)
        keys = {k["kid"]: k for k in self.tool_jwks.get("keys", [])}
        key = JWK(**keys[header["kid"]]).export_to_pem()
        return dict(jwt.decode(token, key, algorithms=["RS256"], audience=audience))

    def token(self, form: dict[str, list[str]]) -> tuple[int, str, str]:
        """The client-credentials grant: the tool's signed assertion, checked."""
        assert form["grant_type"] == ["client_credentials"]
        claims = self.read_tool_jwt(form["client_assertion"][0], audience=f"{self.url}/token")
        assert claims["iss"] == claims["sub"] == self.client_id
        issued = {"access_token": uuid.uuid4().hex, "scope": form["scope"][0]}
        with self.lock:
            self.tokens.append(issued)
        return 200, "application/json", json.dumps({**issued, "token_type": "Bearer"})

    def check_bearer(self, headers: dict[str, str]) -> None:
        given = headers.get("Authorization", "").removeprefix("Bearer ")
        assert any(t["access_token"] == given for t in self.tokens), "no valid access token"
