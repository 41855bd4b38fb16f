"""pylti1p3 fitted to Lanterloo: its registrations and deployments read from the database,
its login's state and nonce kept in :class:`~lessons.lti.models.LoginState` rows (used once),
its cookies ``SameSite=None; Secure; Partitioned`` (the launch comes back inside the
platform's frame), its HTTP calls with a time-out, and the platforms' key sets cached in the
shared cache.

pylti1p3 does the protocol: the OIDC redirect, the id_token's signature (the platform's JWKS),
its message type and claims, the deep-linking answer's JWT, the client-credentials token and
the AGS and NRPS calls. What it leaves loose is made strict here: the state must be the
browser's own (its cookie) and the nonce the one that login stored, unused and recent; the
audience must name the client id (and ``azp`` it, when there are several); ``exp`` and ``iat``
are required. Nothing is stored by a launch that fails any check (:mod:`lessons.lti.launch`).
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import jwt
import requests
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone
from pylti1p3.cookie import CookieService
from pylti1p3.deployment import Deployment as LibDeployment
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.message_launch import MessageLaunch
from pylti1p3.oidc_login import OIDCLogin
from pylti1p3.redirect import Redirect
from pylti1p3.registration import Registration
from pylti1p3.request import Request
from pylti1p3.session import SessionService
from pylti1p3.tool_config import ToolConfAbstract

from lessons.lti.models import LOGIN_SECONDS, Deployment, LoginState, Platform, ToolKey, new_token

#: Seconds any call to a platform may take.
TIMEOUT = 10
#: Seconds a platform's key set is kept in the shared cache.
KEYSET_SECONDS = 300
#: The state cookie lives as long as the login may wait.
STATE_COOKIE_SECONDS = LOGIN_SECONDS


#: The launch's state has no cookie in this browser: not the browser that started the login,
#: or one that keeps no cookie inside another site's frame.
NO_STATE_COOKIE = (
    "Your browser did not bring back the cookie Lanterloo set when this launch began: it may "
    "refuse cookies inside another site's page. Open the activity in a new window (the "
    "platform's link or setting for it), or allow this site's cookies."
)


def platform_named_by(request: HttpRequest) -> Platform | None:
    """The registered platform a launch's id_token names (unchecked: only to let that platform
    frame the page that refuses it)."""
    try:
        body = jwt.decode(
            str(request.POST.get("id_token", "")), options={"verify_signature": False}
        )
    except jwt.InvalidTokenError:
        return None
    audience = body.get("aud")
    client_id = audience[0] if isinstance(audience, list) and audience else audience
    return find_platform(str(body.get("iss", "")), str(client_id or "") or None)


class LaunchRefused(Exception):
    """A login or launch that fails a check: the message says which, for the 4xx page."""


class TimedSession(requests.Session):
    """A requests session whose every call has a time-out (requests has none by default)."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", TIMEOUT)
        return super().request(*args, **kwargs)


def http() -> requests.Session:
    session = TimedSession()
    session.headers["User-Agent"] = "Lanterloo-LTI"
    return session


class ToolRegistration(Registration):
    """pylti1p3's registration with the key id of our JWKS (it would leave ``kid`` out)."""

    kid: str = ""

    def get_kid(self) -> str:
        return self.kid


def registration_of(platform: Platform) -> ToolRegistration:
    key = ToolKey.signing()
    reg = ToolRegistration()
    reg.set_issuer(platform.issuer)
    reg.set_client_id(platform.client_id)
    reg.set_auth_login_url(platform.auth_login_url)
    reg.set_auth_token_url(platform.token_url)
    reg.set_key_set_url(platform.jwks_url)
    if platform.audience:
        reg.set_auth_audience(platform.audience)
    reg.set_tool_private_key(key.private_key)
    reg.set_tool_public_key(key.public_key)
    reg.kid = key.kid
    return reg


def find_platform(issuer: str, client_id: str | None) -> Platform | None:
    """The active platform of ``issuer`` and ``client_id`` (or the issuer's only one when the
    login did not name a client id)."""
    found = Platform.objects.active().filter(issuer=issuer)
    if client_id:
        return found.filter(client_id=client_id).first()
    only = list(found[:2])
    return only[0] if len(only) == 1 else None


class ToolConf(ToolConfAbstract):
    """Registrations from :class:`Platform` rows, found by issuer and client id; remembers
    the platform it found (``platform``)."""

    def __init__(self) -> None:
        super().__init__()
        self.platform: Platform | None = None

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def find_registration_by_issuer(self, iss: str, *args: Any, **kwargs: Any) -> Any:
        return self.find_registration_by_params(iss, None)

    def find_registration_by_params(
        self, iss: str, client_id: str | None, *args: Any, **kwargs: Any
    ) -> Any:
        self.platform = find_platform(iss, client_id)
        return registration_of(self.platform) if self.platform else None

    def find_deployment(self, iss: str, deployment_id: str) -> Any:
        return self.find_deployment_by_params(iss, deployment_id, None)

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str | None, *args: Any, **kwargs: Any
    ) -> Any:
        platform = self.platform or find_platform(iss, client_id)
        if platform is None or not deployment_id:
            return None
        if not Deployment.objects.filter(platform=platform, deployment_id=deployment_id).exists():
            return None
        return LibDeployment().set_deployment_id(deployment_id)


class DjangoParams(Request):
    """A request's parameters as pylti1p3 reads them: the launch is a POST only; the login
    may be a GET or a POST."""

    def __init__(self, request: HttpRequest, post_only: bool = False) -> None:
        self.request = request
        self.post_only = post_only

    @property
    def session(self) -> Any:
        return self.request.session

    def get_param(self, key: str) -> Any:
        if self.post_only:
            return self.request.POST.get(key)
        return self.request.GET.get(key, self.request.POST.get(key))

    def get_cookie(self, key: str) -> str | None:
        return self.request.COOKIES.get(key)

    def is_secure(self) -> bool:
        return self.request.is_secure()


class Cookies(CookieService):
    """The login's state cookie: ``SameSite=None; Secure`` (the launch that reads it is a
    cross-site POST, often inside the platform's frame), HttpOnly, gone with the login."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request
        self.to_set: dict[str, str] = {}

    def _key(self, name: str) -> str:
        return f"{self._cookie_prefix}-{name}"

    def get_cookie(self, name: str) -> str | None:
        return self.request.COOKIES.get(self._key(name))

    def set_cookie(self, name: str, value: Any, exp: int | None = 3600) -> None:
        self.to_set[self._key(name)] = str(value)

    def write(self, response: HttpResponse) -> None:
        for key, value in self.to_set.items():
            response.set_cookie(
                key, value, max_age=STATE_COOKIE_SECONDS, secure=True, httponly=True, path="/lti/"
            )
            cross_site(response, key)


def cross_site(response: HttpResponseBase, name: str) -> None:
    """Make the cookie ``name`` that ``response`` sets one the browser keeps and sends inside
    another site's frame: ``SameSite=None; Secure``, and ``Partitioned`` (CHIPS), so that a
    browser that blocks third-party cookies still keeps it for the frames of that one
    platform (a launch in a new window is not cross-site, and keeps it as any cookie).
    Python's cookies know no ``Partitioned`` attribute before 3.14: it is written after
    ``SameSite``'s value."""
    response.cookies[name]["samesite"] = "None; Partitioned"
    response.cookies[name]["secure"] = True


class StateStore(SessionService):
    """pylti1p3's session service, reduced: the login's nonce is kept in its
    :class:`LoginState` row (:class:`Login`), and the launch checks it there
    (:meth:`Launch.validate_nonce`); no launch data is kept."""

    def __init__(self) -> None:
        pass

    def save_nonce(self, nonce: str) -> None:
        pass

    def save_state_params(self, state: str, params: Any) -> None:
        pass

    def check_state_is_valid(self, state: str, id_token_hash: str) -> bool:
        return False  # no shortcut: every launch shows its state cookie

    def save_launch_data(self, key: str, jwt_body: Any) -> None:
        pass

    def set_state_valid(self, state: str, id_token_hash: str) -> None:
        pass


class _Redirect(Redirect):
    def __init__(self, location: str) -> None:
        self.location = location

    def do_redirect(self) -> str:
        return self.location

    def do_js_redirect(self) -> str:
        return self.location

    def set_redirect_url(self, location: str) -> None:
        self.location = location

    def get_redirect_url(self) -> str:
        return self.location


class Login(OIDCLogin):
    """The OIDC third-party login: checks the platform is registered, makes the state and
    nonce (a :class:`LoginState` row is written by :func:`start_login` once all is well) and
    the platform's auth URL to send the browser to."""

    def __init__(self, request: HttpRequest) -> None:
        self.conf = ToolConf()
        self.cookies = Cookies(request)
        self.token, self.nonce = new_token(), new_token()
        super().__init__(DjangoParams(request), self.conf, StateStore(), self.cookies)

    def _get_uuid(self) -> str:
        return self.token

    def _generate_nonce(self) -> str:
        return self.nonce

    def get_redirect(self, url: str) -> _Redirect:
        return _Redirect(url)


def start_login(request: HttpRequest, launch_url: str) -> tuple[str, Cookies]:
    """The platform's auth URL to redirect to, and the state cookie to set. Raises
    :class:`LaunchRefused` for an unknown platform or a login without its parameters."""
    login = Login(request)
    try:
        url = login.get_redirect_object(launch_url).get_redirect_url()
    except (LtiException, OIDCException) as error:
        raise LaunchRefused(str(error)) from None
    platform = login.conf.platform
    if platform is None:
        raise LaunchRefused("This platform is not registered with Lanterloo.")
    LoginState.objects.create(platform=platform, state=f"state-{login.token}", nonce=login.nonce)
    return url, login.cookies


class Launch(MessageLaunch):
    """A launch's id_token, checked: state (the browser's cookie), format, nonce (its login's,
    unused, recent), registration (issuer, client id in the audience), signature and expiry,
    deployment, message. :attr:`login` is the login it answers, to be marked used by the
    transaction that acts on the launch."""

    def __init__(self, request: HttpRequest) -> None:
        self.conf = ToolConf()
        self.login: LoginState | None = None
        super().__init__(
            DjangoParams(request, post_only=True),
            self.conf,
            session_service=StateStore(),
            cookie_service=Cookies(request),
            requests_session=http(),
        )
        options: Any = {"verify_aud": False, "require": ["exp", "iat"]}
        self.set_jwt_verify_options(options)

    def _get_request_param(self, key: str) -> Any:
        return self._request.get_param(key)

    def validate_state(self) -> Launch:
        state = self._get_request_param("state")
        if not state:
            raise LtiException("The launch has no state.")
        if self._cookie_service.get_cookie(state) != state:
            raise LtiException(NO_STATE_COOKIE)
        return self

    def validate_nonce(self) -> Launch:
        nonce = self._get_jwt_body().get("nonce")
        state = self._get_request_param("state")
        if not nonce:
            raise LtiException("The launch has no nonce.")
        recent = timezone.now() - timedelta(seconds=LOGIN_SECONDS)
        self.login = LoginState.objects.filter(state=state, nonce=nonce).first()
        if self.login is None:
            raise LtiException("The launch's nonce is not the one its login was given.")
        if self.login.used is not None:
            raise LtiException("This launch was used already (a replay).")
        if self.login.created < recent:
            raise LtiException("The login that started this launch has expired.")
        return self

    def validate_registration(self) -> Launch:
        super().validate_registration()
        body = self._get_jwt_body()
        client_id = self.conf.platform.client_id if self.conf.platform else None
        audience = body.get("aud")
        audiences = audience if isinstance(audience, list) else [audience]
        if client_id not in audiences:
            raise LtiException("The launch is not meant for this client id (its audience).")
        if len(audiences) > 1 and body.get("azp") != client_id:
            raise LtiException("The launch's authorized party is not this client id.")
        if self.login is not None and self.login.platform_id != self.conf.platform.pk:  # type: ignore[union-attr]
            raise LtiException("The launch comes from another platform than its login.")
        return self

    def fetch_public_key(self, key_set_url: str) -> Any:
        key = "lti-keyset:" + hashlib.sha256(key_set_url.encode()).hexdigest()
        found = cache.get(key)
        if found:
            return found
        found = super().fetch_public_key(key_set_url)
        cache.set(key, found, KEYSET_SECONDS)
        return found

    def get_public_key(self) -> Any:
        try:
            return super().get_public_key()
        except LtiException:
            # A key the cached set lacks: the platform may have a new one. Read the set again.
            url = self.conf.platform.jwks_url if self.conf.platform else ""
            cache.delete("lti-keyset:" + hashlib.sha256(url.encode()).hexdigest())
            assert self._registration is not None
            self._registration.set_key_set(None)
            return super().get_public_key()

    def save_launch_data(self) -> Launch:
        return self

    def checked(self) -> dict[str, Any]:
        """The id_token's claims, every check passed; raises :class:`LaunchRefused`."""
        try:
            self.validate()
        except LtiException as error:
            raise LaunchRefused(in_words(str(error))) from None
        return dict(self._get_jwt_body())

    def platform(self) -> Platform:
        assert self.conf.platform is not None
        return self.conf.platform

    def registration(self) -> Registration:
        assert self._registration is not None
        return self._registration


#: pylti1p3's refusals (by how they begin), in the words the refusal page uses; the library's
#: own follows in brackets, for the administrator.
WORDS = {
    "Unable to find deployment": "This deployment of Lanterloo is not registered: Lanterloo's "
    "administrator adds its deployment id to the platform in the admin.",
    "Registration not found": "This platform, with this client id, is not registered with "
    "Lanterloo.",
    "Client id not registered": "This platform, with this client id, is not registered with "
    "Lanterloo.",
    "Can't decode id_token": "The launch could not be verified by the platform's keys (its "
    "signature, or its dates).",
    "Unable to find public key": "The launch is signed with a key the platform does not publish.",
}


def in_words(reason: str) -> str:
    for start, words in WORDS.items():
        if reason.startswith(start):
            return f"{words} ({reason})"
    return reason


def claim(body: dict[str, Any], name: str, default: Any = None) -> Any:
    """An LTI claim of the launch by its short name: ``context``, ``resource_link``,
    ``roles``, ``custom``, ``deployment_id``; ``ags:endpoint``, ``nrps:namesroleservice``,
    ``dl:deep_linking_settings``."""
    prefixes = {
        "ags": "https://purl.imsglobal.org/spec/lti-ags/claim/",
        "nrps": "https://purl.imsglobal.org/spec/lti-nrps/claim/",
        "dl": "https://purl.imsglobal.org/spec/lti-dl/claim/",
    }
    space, _, short = name.rpartition(":")
    prefix = prefixes.get(space, "https://purl.imsglobal.org/spec/lti/claim/")
    return body.get(prefix + short, default)
