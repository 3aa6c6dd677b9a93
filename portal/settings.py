"""Settings of the portal, read from the environment.

With nothing set, the site runs on embedded defaults: a SQLite file, the in-memory channel
layer, the local-memory cache and eager Celery. With ``DATABASE_URL`` and ``REDIS_URL`` it runs
on PostgreSQL, channels-redis, the Redis cache and real Celery workers. The README lists every
variable.
"""

import secrets
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DJANGO_ENV = env.str("DJANGO_ENV", default="development")
PRODUCTION = DJANGO_ENV == "production"
TESTING = env.bool("PORTAL_TESTING", default=False)


def _embedded_secret_key() -> str:
    """A key generated once into an ignored local file, for the embedded default only."""
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def _admins(entries: list[str]) -> list[tuple[str, str]]:
    """ADMINS from "Name <address>" or bare addresses; a malformed one stops the start."""
    admins = []
    for name, address in getaddresses(entries):
        if "@" not in address:
            raise ImproperlyConfigured(f"ADMINS: {address!r} is not an e-mail address.")
        admins.append((name or address, address))
    return admins


# The shortest SECRET_KEY production starts with (and it needs a few different characters):
# an empty key would otherwise pass here and fail every request, a short one signs sessions,
# reset links and unsubscribe links anyone could forge.
SECRET_KEY_MIN_LENGTH = 32

if PRODUCTION:
    SECRET_KEY = env.str("SECRET_KEY", default="")
    if len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            f"Set SECRET_KEY in production to a random value of at least {SECRET_KEY_MIN_LENGTH} characters "
            f"(it has {len(SECRET_KEY)}), e.g. the output of: "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("Set ALLOWED_HOSTS in production.")
    DEBUG = False
else:
    SECRET_KEY = env.str("SECRET_KEY", default="") or _embedded_secret_key()
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
    # Off unless asked for, so `make run` shows the site's own error pages; DEBUG=1 shows
    # Django's debug pages instead.
    DEBUG = env.bool("DEBUG", default=False)

CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# A form refused for its CSRF token gets the site's 403 page and what to do about it.
CSRF_FAILURE_VIEW = "portal.views.csrf_failure"

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "servestatic.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files: no CDN
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "rankings",
    "forums",
    "challenges",
    "tournaments",
    "notifications",
    "portal",
]

# Every middleware is async-capable and, in async mode, runs in the event loop: an async view
# is served without a thread (portal.middleware holds Django's and django-csp's in that form;
# django-permissions-policy, ServeStatic, allauth's and django-axes's are so already).
# Django's deploy checks look for its middleware by name ("...SecurityMiddleware" in
# MIDDLEWARE): this list answers yes for an original when its subclass stands in its place.
MIDDLEWARE_STAND_INS = {
    "portal.middleware.SecurityMiddleware": "django.middleware.security.SecurityMiddleware",
    "portal.middleware.CSPMiddleware": "csp.middleware.CSPMiddleware",
    "portal.middleware.SessionMiddleware": "django.contrib.sessions.middleware.SessionMiddleware",
    "portal.middleware.LocaleMiddleware": "django.middleware.locale.LocaleMiddleware",
    "portal.middleware.CommonMiddleware": "django.middleware.common.CommonMiddleware",
    "portal.middleware.CsrfViewMiddleware": "django.middleware.csrf.CsrfViewMiddleware",
    "portal.middleware.AuthenticationMiddleware": "django.contrib.auth.middleware.AuthenticationMiddleware",
    "portal.middleware.MessageMiddleware": "django.contrib.messages.middleware.MessageMiddleware",
    "portal.middleware.XFrameOptionsMiddleware": "django.middleware.clickjacking.XFrameOptionsMiddleware",
}


class _MiddlewareList(list):
    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or any(
            MIDDLEWARE_STAND_INS.get(path) == name for path in self if isinstance(path, str)
        )

    def __add__(self, other):  # MIDDLEWARE += [...] below keeps the class
        return _MiddlewareList([*self, *other])

    def __iadd__(self, other):
        self.extend(other)
        return self


MIDDLEWARE = _MiddlewareList(
    [
        # First: every log line of the request, and its response, carry its id (X-Request-ID).
        "portal.logs.RequestIdMiddleware",
        "portal.middleware.SecurityMiddleware",
        "portal.middleware.CSPMiddleware",
        "django_permissions_policy.PermissionsPolicyMiddleware",
        "servestatic.middleware.ServeStaticMiddleware",
        "portal.middleware.SessionMiddleware",
        # The language of the page: the language cookie (the switcher), else the browser's
        # Accept-Language, else English; then a signed-in person's own choice over both.
        "portal.middleware.LocaleMiddleware",
        "accounts.middleware.LanguageMiddleware",
        "portal.middleware.CommonMiddleware",
        "portal.middleware.CsrfViewMiddleware",
        "portal.middleware.AuthenticationMiddleware",
        # After the account's middleware: each request in its viewer's time zone.
        "accounts.middleware.TimeZoneMiddleware",
        "portal.middleware.MessageMiddleware",
        "portal.middleware.XFrameOptionsMiddleware",
        "allauth.account.middleware.AccountMiddleware",
    ]
)

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "portal.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "portal.context_processors.site",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
# The embedded default (no DATABASE_URL): the one place the demo data makes the staff account
# `admin` with the published demo password (portal/management/commands/seed_demo.py).
EMBEDDED_DATABASE = not env.str("DATABASE_URL", default="")
USING_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
# Threads of one ASGI process that run the sockets' database calls (games.consumers); HTTP
# requests run in threads of their own. Each borrows a connection from the pool per call.
DB_THREADS = env.int("DB_THREADS", default=4)
# The event loop's own connections on PostgreSQL (``live.pg``: the sockets' moves), beside
# Django's pool.
LIVE_DB_POOL_MAX_SIZE = env.int("LIVE_DB_POOL_MAX_SIZE", default=4)
# Its statements are prepared once per connection; behind pgbouncer in transaction mode that
# needs pgbouncer's max_prepared_statements (1.21 and newer), or set this off.
LIVE_DB_PREPARED_STATEMENTS = env.bool("LIVE_DB_PREPARED_STATEMENTS", default=True)
if USING_POSTGRES:
    # Django's pool (psycopg_pool), bounded per process; persistent connections stay off
    # under ASGI: the executor's threads do not reuse them (Django ticket 33497) and they
    # pile up to the server's limit. Without a pool every database call connects anew.
    # A call that finds every connection busy waits up to DB_POOL_TIMEOUT seconds for one.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN_SIZE", default=2),
        "max_size": env.int("DB_POOL_MAX_SIZE", default=DB_THREADS + 6),
        "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
        "max_idle": 300,
    }
else:
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
    # The test database is a file, not Django's shared-cache memory database: there, two
    # connections (the live server's and a bot's) get "table is locked" at once instead of
    # waiting out the timeout as they do on the real file.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery -----------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
# The deployment's names in Redis: its channels', and games.bot_activity's key.
CHANNEL_PREFIX = env.str("CHANNEL_PREFIX", default="portal")
if REDIS_URL:
    from redis.asyncio.retry import Retry as _AsyncRetry
    from redis.backoff import NoBackoff as _NoBackoff
    from redis.exceptions import ConnectionError as _RedisConnectionError
    from redis.retry import Retry as _Retry

    # Every Redis client of the process (cache, channel layer, broker) waits at most
    # REDIS_SOCKET_TIMEOUT for an answer: a Redis that hangs rather than refuses (a blackholed
    # network, a stopped process) fails a call within it, and the first such failure opens
    # the server's breaker (portal.redis_pool), so the calls after it do not wait at all.
    REDIS_SOCKET_TIMEOUT = env.float("REDIS_SOCKET_TIMEOUT", default=1.0)
    REDIS_CONNECT_TIMEOUT = env.float("REDIS_CONNECT_TIMEOUT", default=REDIS_SOCKET_TIMEOUT)
    REDIS_BROKER_HEALTH_CHECK_SECONDS = env.int("REDIS_BROKER_HEALTH_CHECK_SECONDS", default=5)
    # For the cache's and the channel layer's connections: a command on a connection that
    # Redis closed (it restarted) reconnects and is sent once more; a timeout is not retried
    # (redis-py's Retry would by default: it would only double the wait on a Redis that hangs).
    REDIS_CONNECTION_OPTIONS = {
        "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
        "socket_timeout": REDIS_SOCKET_TIMEOUT,
        "health_check_interval": 30,
    }
    _RETRY_ON = (_RedisConnectionError,)
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "live.layer.TieredRedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "retry": _AsyncRetry(_NoBackoff(), 1, supported_errors=_RETRY_ON),
                        **REDIS_CONNECTION_OPTIONS,
                    }
                ],
                "prefix": CHANNEL_PREFIX,
            },
        }
    }
    # Fails open while Redis is down (portal.cache); a dead pooled connection is dropped and
    # the command retried once, so the first one after Redis comes back goes through.
    CACHES = {
        "default": {
            "BACKEND": "portal.cache.FaultTolerantRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "pool_class": "portal.redis_pool.SharedConnectionPool",
                "retry": _Retry(_NoBackoff(), 1, supported_errors=_RETRY_ON),
                **REDIS_CONNECTION_OPTIONS,
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    # Queuing a task waits on Redis as briefly as the other clients, and is not retried: the
    # callers catch the failure and the periodic checks queue again what was lost. While the
    # breaker is open, nothing is sent (portal.celery.BreakerTask).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_timeout": REDIS_SOCKET_TIMEOUT,
        "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
        # A worker waits for work in a BRPOP that no socket timeout covers: kombu drops it when
        # its answer is this much overdue (checked as often), so a worker whose Redis hangs
        # finds it out within about 1 + 2 x this many seconds (51 by kombu's default) and
        # reconnects, trying again until Redis answers.
        "health_check_interval": REDIS_BROKER_HEALTH_CHECK_SECONDS,
    }
    CELERY_TASK_PUBLISH_RETRY = False
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "live.layer.TieredInMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
# A rate limit whose counter cannot be read lets the request through (see portal.cache).
RATELIMIT_FAIL_OPEN = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 30
CELERY_TASK_TIME_LIMIT = 60
# The periodic jobs and their intervals: portal.celery.PERIODIC_JOBS (beat and run_clocks read it).

# --- Accounts ----------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: Django tells it of every saved password, and it revokes the API tokens.
    {"NAME": "accounts.passwords.RevokeCredentialsOnPasswordChange"},
]
if TESTING:
    # Tests create many users; the production hashers are deliberately slow.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# Sign-up answers the same whether or not the address is registered: a new address gets a
# confirmation link and its account logs in once confirmed; a registered one gets a mail to
# its owner saying so ("account already exists"), and nothing else happens. That needs
# mandatory verification (allauth's enumeration prevention works only with it). Accounts made
# before it have their addresses marked verified (accounts migration 0002).
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_FORMS = {
    "signup": "accounts.forms.SignupForm",  # usernames of at most 30 characters
    "login": "accounts.forms.LoginForm",  # says a bot account cannot sign in
}
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"  # no session for a bot account, whatever the way in
ACCOUNT_USERNAME_BLACKLIST = ["admin", "staff", "system", "random", "greedy"]
ACCOUNT_RATE_LIMITS = {
    # Failed log-ins are counted by the one lockout of every way in (below, django-axes).
    "login_failed": None,
    "reset_password": "20/m/ip,5/m/key",
    "signup": "20/m/ip",
}
ACCOUNT_PRESERVE_USERNAME_CASING = False
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "/accounts/login/"

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Territory Games <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- API ---------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # DRF's parsers, with JSON read under the size and depth limits below (portal.json_limits).
    "DEFAULT_PARSER_CLASSES": [
        "portal.json_limits.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "portal.api_errors.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "portal.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {"anon": "120/min", "user": "600/min"},
}
# JSON a client sends (an API body, a socket frame has its own smaller size) is refused past
# this size or nesting depth: Python's parser has no depth limit of its own.
JSON_MAX_BYTES = env.int("JSON_MAX_BYTES", default=64 * 1024)
JSON_MAX_DEPTH = env.int("JSON_MAX_DEPTH", default=20)
SPECTACULAR_SETTINGS = {
    "TITLE": "Territory Games API",
    "DESCRIPTION": "Matches, moves, rankings and players of the territory-games portal.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A speed as bare values (the bodies that create a match or a challenge) has one name however
    # many components use it; tournaments have a status and a clock of their own, beside the matches'.
    "ENUM_NAME_OVERRIDES": {
        "SpeedEnum": ["untimed", "live", "correspondence"],
        "StatusEnum": "games.models.Match.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "TournamentSpeedEnum": "tournaments.models.Tournament.Speed",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "portal.api_errors.document_common_errors",
    ],
}

# --- Login lockout and the client's address ----------------------------------------------
# One lockout for every way to log in (the site's form, POST /api/auth/token/, /admin/login/):
# django-axes counts failed sign-ins in the database (never the cache, so a Redis outage
# cannot open or break it) and refuses a client that reached any of these limits within the
# last LOGIN_LOCKOUT_MINUTES, even with the right password. A refused attempt is not counted,
# so the time the refusal names holds. An administrator unlocks in the admin (Axes > access
# attempts: delete the rows) or with `manage.py axes_reset_username NAME`; setting a new
# password unlocks the account too (accounts.services.user_revoke_credentials).
LOGIN_LOCKOUT_MINUTES = env.int("LOGIN_LOCKOUT_MINUTES", default=15)
LOGIN_FAILURE_LIMITS = (  # (what is counted together, failures that lock it)
    (["username", "ip_address"], env.int("LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS", default=5)),
    (["ip_address"], env.int("LOGIN_FAILURES_PER_ADDRESS", default=20)),
    (["username"], env.int("LOGIN_FAILURES_PER_ACCOUNT", default=20)),
)
INSTALLED_APPS += ["axes"]
MIDDLEWARE += ["axes.middleware.AxesMiddleware"]  # last, as django-axes asks
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", *AUTHENTICATION_BACKENDS]
AXES_HANDLER = "accounts.lockout.TieredDatabaseHandler"
AXES_LOCKOUT_PARAMETERS = [parameters for parameters, _limit in LOGIN_FAILURE_LIMITS]
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMITS[0][1]
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = False  # else one good log-in would wipe an address's failures
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "portal.client_ip.client_ip"
AXES_DISABLE_ACCESS_LOG = True  # failures are what the lockout needs; no row per log-in

# How many proxies of our own stand in front of the site. 0: the client is the connection's
# address and X-Forwarded-For is ignored (a client can write it). N: the N-th address from
# the right of X-Forwarded-For. Every limit reads the client this one way (portal.client_ip).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
RATELIMIT_IP_META_KEY = "portal.client_ip.client_ip"

# --- Internationalisation, static files --------------------------------------------------
LANGUAGE_CODE = "en-us"
# The languages of the pages, each named in itself (the switcher lists them so). The API's
# codes, not its sentences, are its contract: its messages follow the client's Accept-Language
# only (English without one of these), never the site's cookie or a saved choice.
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
]
# The catalogues, compiled and committed (`make messages` rebuilds them).
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = env.str("LANGUAGE_COOKIE_NAME", default="django_language")
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"  # what is stored, and the zone of a visitor whose zone is not known
USE_I18N = True
USE_TZ = True
# The cookie that keeps a visitor's time zone as their browser reports it (static/js/times.js),
# for those not signed in or with no zone saved; a person's saved zone comes first.
TIME_ZONE_COOKIE_NAME = env.str("TIME_ZONE_COOKIE_NAME", default="tz")

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Static files are served by ServeStatic's async middleware (or by a proxy in front, which then
# answers /static/ itself: README). Hashed names (production's manifest storage) are sent with
# a year's Cache-Control and "immutable", other files for 60 s.
SERVESTATIC_USE_FINDERS = not PRODUCTION  # serve straight from static/ without collectstatic
if not PRODUCTION:
    STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "servestatic.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Security ----------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
# Sessions are written to the database and read through the cache: a signed-in page or
# socket costs no session query (Django's cached_db, through one cache object per process).
SESSION_ENGINE = "portal.sessions"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Content-Security-Policy (django-csp): scripts and styles only from our own static files, no
# inline script or on* attribute (data reaches scripts through json_script, which is not
# run). 'self' covers the match socket (ws:/wss: to the same host) in connect-src.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Browser features the site never uses, switched off for it and anything it might embed.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # Probes and scrapers inside the network ask over plain HTTP (docs/METRICS.md).
    SECURE_REDIRECT_EXEMPT = [r"^readyz$", r"^metrics$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# --- Logs, metrics, error reports --------------------------------------------------------
# Each log line has its time, level, logger and the id of the request, socket or Celery task
# it was written in (portal.logs). LOG_FORMAT=json (the default in production) writes one JSON
# object a line for a log collector; text (the default elsewhere) is for people.
LOG_LEVEL = env.str("LOG_LEVEL", default="WARNING")
LOG_FORMAT = env.str("LOG_FORMAT", default="json" if PRODUCTION else "text")
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"LOG_FORMAT is json or text, not {LOG_FORMAT!r}.")
# People mailed the traceback of every server error (500) when DEBUG is off, as
# "Name <address>" or bare addresses, comma-separated: ADMINS=Ops <ops@example.org>. Mail goes
# through EMAIL_URL from SERVER_EMAIL.
ADMINS = _admins(env.list("ADMINS", default=[]))
# A Redis outage is logged once when it starts and once when it ends (portal.redis_pool), not
# as a traceback per request, socket or second: records whose error is Redis not answering
# are dropped at the handler.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redis_outage": {"()": "portal.redis_pool.OutageLogFilter", "url": REDIS_URL},
        "context": {"()": "portal.logs.ContextFilter"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "formatters": {
        "json": {"()": "portal.logs.json_formatter"},
        "text": {"()": "portal.logs.TextFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["redis_outage", "context"],
            "formatter": LOG_FORMAT,
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false", "redis_outage"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own handlers replaced by these: everything to the console, once.
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        # Server errors (500) are logged by django.request: to the console, and to ADMINS.
        "django.request": {"handlers": ["mail_admins"], "level": LOG_LEVEL, "propagate": True},
    },
}
# Celery's worker and beat log through the same handlers as the site, not a format of their own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Prometheus metrics at /metrics (portal.metrics, docs/METRICS.md) are served only to a scraper
# sending "Authorization: Bearer <METRICS_TOKEN>"; unset, /metrics is refused to everyone.
# Several processes add up their metrics through PROMETHEUS_MULTIPROC_DIR (an environment
# variable prometheus-client reads itself; see portal.metrics).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

# Error tracking: with SENTRY_DSN set, errors and their traces go to Sentry (or a compatible
# service); SENTRY_TRACES_SAMPLE_RATE (0 by default) samples performance traces too.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=DJANGO_ENV,
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
        send_default_pii=False,
    )

# --- The portal's own knobs --------------------------------------------------------------
# Open WebSockets one client address may hold in one server process (portal.sockets); the
# address is the peer's, or taken through TRUSTED_PROXY_COUNT proxies of our own.
SOCKETS_PER_ADDRESS = env.int("SOCKETS_PER_ADDRESS", default=100)
# A socket opened with ?auth=frame sends its API token in its first frame within this many seconds.
SOCKET_AUTH_SECONDS = env.float("SOCKET_AUTH_SECONDS", default=5)
# A socket's sign-in is checked again on a writing frame at most this often: a new password or a
# sign-out closes its sockets at once (live.credentials); this bounds how long one that missed
# that message may still write, without a query on every move.
SOCKET_RECHECK_SECONDS = env.float("SOCKET_RECHECK_SECONDS", default=30.0)
# Event streams over HTTP (live.streams: a match's updates, a person's events, as NDJSON): at
# most this many open at once per person in one server process; a blank line keeps a quiet
# one alive this often.
STREAMS_PER_PERSON = env.int("STREAMS_PER_PERSON", default=8)
STREAM_KEEP_ALIVE_SECONDS = env.float("STREAM_KEEP_ALIVE_SECONDS", default=20.0)
SITE_NAME = "Territory Games"
# Forum search: at most this many searches run at once in one server process (a search past
# them waits up to FORUM_SEARCH_WAIT_SECONDS for a place, then gets a 429), so searches alone
# can never hold the whole database pool; PostgreSQL stops any statement of a search after
# FORUM_SEARCH_TIMEOUT_MS.
FORUM_SEARCHES_AT_ONCE = env.int("FORUM_SEARCHES_AT_ONCE", default=4)
FORUM_SEARCH_WAIT_SECONDS = env.float("FORUM_SEARCH_WAIT_SECONDS", default=1.0)
FORUM_SEARCH_TIMEOUT_MS = env.int("FORUM_SEARCH_TIMEOUT_MS", default=2500)
# Live games: seconds per move; correspondence: days per move.
LIVE_SECONDS_DEFAULT = 90
CORRESPONDENCE_DAYS_DEFAULT = 3
# Matches waiting for players: at most this many created by one person at a time, and each
# called off (its players told) once nothing has happened to it for this many hours.
MAX_OPEN_MATCHES_PER_PERSON = env.int("MAX_OPEN_MATCHES_PER_PERSON", default=5)
OPEN_MATCH_EXPIRY_HOURS = env.float("OPEN_MATCH_EXPIRY_HOURS", default=24)
# Compute belongs to people: one person has at most this many matches against bots going at
# once (open or being played, made by them; a tournament's tables are never refused), and at
# most this many tournaments of their making not yet over.
MAX_BOT_MATCHES_PER_PERSON = env.int("MAX_BOT_MATCHES_PER_PERSON", default=5)
MAX_OPEN_TOURNAMENTS_PER_PERSON = env.int("MAX_OPEN_TOURNAMENTS_PER_PERSON", default=3)
# Bots' turns are queued fairly (games.bot_queue): at most this many of one person's bot turns
# (their matches' creator's) are with the workers at once, the rest wait in the person's own
# queue; 0 hands every turn to the workers in the order they come.
BOT_TURNS_AT_ONCE_PER_PERSON = env.int("BOT_TURNS_AT_ONCE_PER_PERSON", default=1)
# After the game (games.services.analysis): an analysis judges each position of a finished
# match by Monte Carlo tree search at this many iterations (its budget: the same answer on a
# busy worker as on an idle one), on the Celery queue "analysis", apart from the live bots'
# queue. One person has at most this many analyses queued or running at once, and a worker
# stops one that takes longer than this many seconds.
ANALYSIS_ITERATIONS = env.int("ANALYSIS_ITERATIONS", default=20 if TESTING else 200)  # tests: tiny
ANALYSIS_QUEUED_PER_PERSON = env.int("ANALYSIS_QUEUED_PER_PERSON", default=3)
ANALYSIS_SECONDS = env.int("ANALYSIS_SECONDS", default=1800)
# An analysis pauses while a live bot of the deployment thinks (games.bot_activity): off when
# the analyses' worker has cores (or a host) of its own, where it slows no bot.
ANALYSIS_PAUSES_FOR_BOTS = env.bool("ANALYSIS_PAUSES_FOR_BOTS", default=True)
CELERY_TASK_ROUTES = {"games.tasks.analyse_match": {"queue": "analysis"}}
# Challenges and rematch offers wait this long for an answer; one person has at most this
# many challenges waiting at a time.
CHALLENGE_EXPIRY_HOURS = env.float("CHALLENGE_EXPIRY_HOURS", default=24)
REMATCH_OFFER_EXPIRY_HOURS = env.float("REMATCH_OFFER_EXPIRY_HOURS", default=24)
MAX_PENDING_CHALLENGES_PER_PERSON = env.int("MAX_PENDING_CHALLENGES_PER_PERSON", default=10)
# Bot accounts (a person's own bots, playing through the API): how many one person may register,
# and after how many timeouts in a row a bot account is paused until its owner unpauses it.
BOT_ACCOUNTS_PER_PERSON = env.int("BOT_ACCOUNTS_PER_PERSON", default=3)
BOT_ACCOUNT_TIMEOUTS_TO_PAUSE = env.int("BOT_ACCOUNT_TIMEOUTS_TO_PAUSE", default=3)
# The challenges a bot account may have waiting for an answer at once (a person: the one above).
BOT_ACCOUNT_PENDING_CHALLENGES = env.int("BOT_ACCOUNT_PENDING_CHALLENGES", default=3)
# Your-turn e-mail of correspondence matches (notifications): sent only to people away from the
# site this long, at most once per match in this many hours; links in it start with SITE_URL.
NOTIFY_AWAY_MINUTES = env.int("NOTIFY_AWAY_MINUTES", default=10)
TURN_MAIL_EVERY_HOURS = env.int("TURN_MAIL_EVERY_HOURS", default=6)
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
