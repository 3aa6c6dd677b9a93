"""The container stack (deploy/compose.yaml, the Dockerfile, the Caddyfile) and the systemd
units agree with the code they run: every variable the settings read is named in
.env.example, every command a service or a health check runs exists, every long-running
service has a health check, and the image holds the runtime packages only.

This machine cannot pull images, so the stack is not booted here; what can be run without
Docker is: the Caddyfile through Caddy itself, and a move played through Caddy in front of the
real ASGI application (tests/deploy/test_proxy.py)."""

import ast
import importlib
import importlib.util
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from celery import Celery
from celery.bin.celery import celery as celery_cli
from django.conf import settings
from django.core.management import get_commands
from django.test import Client
from django.urls import resolve

ROOT = Path(settings.BASE_DIR)
DEPLOY = ROOT / "deploy"


def _load_healthcheck():
    """deploy/healthcheck.py, which is a script beside the stack, not a module of the portal."""
    spec = importlib.util.spec_from_file_location("healthcheck", DEPLOY / "healthcheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_group(pattern: str, text: str) -> str:
    found = re.search(pattern, text, re.M)
    assert found, f"nothing matches {pattern}"
    return found.group(1)


healthcheck = _load_healthcheck()
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
ENV_EXAMPLE = (DEPLOY / ".env.example").read_text()
DOCKERFILE = (DEPLOY / "Dockerfile").read_text()
UNITS = {path.name: path.read_text() for path in sorted((DEPLOY / "systemd").glob("*.service"))}
PORTAL_SERVICES = [name for name, service in SERVICES.items() if "build" in service]


def settings_variables() -> set[str]:
    """Every name portal/settings.py reads from the environment: env("X"), env.str("X", ...), ..."""
    tree = ast.parse((ROOT / "portal" / "settings.py").read_text())
    names = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args or not isinstance(node.args[0], ast.Constant):
            continue
        func = node.func
        reads_env = (isinstance(func, ast.Name) and func.id == "env") or (
            isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "env"
        )
        reads_os = isinstance(func, ast.Attribute) and func.attr in ("getenv", "get") and "environ" in ast.unparse(func)
        if reads_env or reads_os:
            names.add(str(node.args[0].value))
    return names


def named_in_env_example() -> set[str]:
    """Names set (NAME=...) or shown with their default (# NAME=...) in .env.example."""
    return set(re.findall(r"^#? ?([A-Z][A-Z0-9_]*)=", ENV_EXAMPLE, re.M))


def program(command) -> list[str]:
    """The argv a service's command or health check finally runs: through `sh -c "exec ..."`,
    `exec env NAME=value ...`, and compose's `$$` for a literal dollar."""
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if argv and argv[0] in ("CMD", "CMD-SHELL"):
        argv = shlex.split(argv[1]) if argv[0] == "CMD-SHELL" else argv[1:]
    if len(argv) >= 3 and argv[0] in ("sh", "/bin/sh") and argv[1] == "-c":
        argv = shlex.split(argv[2].replace("$$", "$"))
    while argv and (argv[0] in ("exec", "env") or re.fullmatch(r"[A-Z_]+=\S*", argv[0])):
        argv = argv[1:]
    return [word for word in argv if word not in (">/dev/null",)]


def assert_portal_command_exists(argv: list[str]) -> None:
    """The program is in the virtualenv the image and the units install (requirements/base.txt),
    and what it is told to load exists."""
    name = os.path.basename(argv[0])
    assert (Path(sys.executable).parent / name).exists() or name == "python", f"no {name} in the virtualenv"
    if name == "python" and argv[1:3] == ["-m", "portal.serve"]:  # uvicorn, a socket per worker
        module, attribute = argv[3].split(":")
        assert callable(getattr(importlib.import_module(module), attribute))
    elif name == "python" and argv[1] == "manage.py":
        assert argv[2] in get_commands(), f"manage.py has no command {argv[2]}"
    elif name == "python":
        assert argv[1] == "deploy/healthcheck.py" and (ROOT / argv[1]).exists()
        assert argv[2] in ("web", "beat")
        if argv[2] == "web" and len(argv) > 3:
            resolve(re.sub(r"^https?://[^/]+", "", argv[3]))  # raises Resolver404 for a path no view serves
    elif name == "uvicorn":
        module, attribute = argv[1].split(":")
        assert callable(getattr(importlib.import_module(module), attribute))
    elif name == "celery":
        assert argv[1:3] == ["-A", "portal"]
        assert isinstance(importlib.import_module("portal").celery_app, Celery)
        assert argv[3] in celery_cli.commands, f"celery has no command {argv[3]}"
    else:
        raise AssertionError(f"unknown program {argv}")


def test_every_variable_the_settings_read_is_named_in_env_example():
    read = settings_variables()
    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"} <= read  # the parse finds them
    assert read - named_in_env_example() == set()


def test_every_variable_compose_and_caddy_read_is_named_in_env_example():
    compose = re.findall(r"\$\{([A-Z_][A-Z0-9_]*)", (DEPLOY / "compose.yaml").read_text())
    caddy = re.findall(r"\{\$([A-Z_][A-Z0-9_]*)", (DEPLOY / "Caddyfile").read_text())
    assert (set(compose) | set(caddy)) - named_in_env_example() == set()


def test_the_stack_runs_web_worker_beat_postgres_redis_and_a_proxy_with_migrations_first():
    assert {"migrate", "web", "worker", "beat", "postgres", "redis", "proxy"} <= set(SERVICES)
    for name in ("web", "worker", "analysis-worker", "beat"):
        assert SERVICES[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
        assert SERVICES[name]["depends_on"]["postgres"] == {"condition": "service_healthy"}
        assert SERVICES[name]["depends_on"]["redis"] == {"condition": "service_healthy"}
    assert SERVICES["proxy"]["depends_on"]["web"] == {"condition": "service_healthy"}
    # Only the proxy is published; the web processes are reached through it.
    assert [name for name, service in SERVICES.items() if "ports" in service] == ["proxy"]


def test_every_long_running_service_has_a_health_check_and_only_migrate_runs_once():
    once = [name for name, service in SERVICES.items() if service.get("restart") == "no"]
    assert once == ["migrate"]
    for name, service in SERVICES.items():
        if name not in once:
            assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"


def test_every_command_the_portal_services_and_their_health_checks_run_exists():
    assert set(PORTAL_SERVICES) == {"migrate", "web", "worker", "analysis-worker", "beat"}
    for name in PORTAL_SERVICES:
        assert_portal_command_exists(program(SERVICES[name]["command"]))
        if "healthcheck" in SERVICES[name]:
            assert_portal_command_exists(program(SERVICES[name]["healthcheck"]["test"]))
    dockerfile_cmd = first_group(r"^CMD (\[.*\])$", DOCKERFILE)
    assert_portal_command_exists(yaml.safe_load(dockerfile_cmd))


def test_the_web_processes_run_as_make_serve_does_behind_the_one_proxy():
    web = program(SERVICES["web"]["command"])
    assert web[:4] == ["python", "-m", "portal.serve", "portal.asgi:application"]
    assert "--no-proxy-headers" in web  # the site reads X-Forwarded-For itself (TRUSTED_PROXY_COUNT)
    assert SERVICES["web"]["environment"]["TRUSTED_PROXY_COUNT"] == "1"
    assert SERVICES["web"]["environment"]["DJANGO_ENV"] == "production"
    # The worker's children each need one connection, whatever the web processes' pool.
    assert SERVICES["worker"]["environment"]["DB_POOL_MAX_SIZE"] == "2"


def test_every_named_volume_a_service_mounts_is_declared():
    declared = set(COMPOSE["volumes"])
    mounted = {
        volume.split(":", 1)[0]
        for service in SERVICES.values()
        for volume in service.get("volumes", [])
        if not volume.startswith((".", "/"))
    }
    assert mounted == declared
    assert {"pgdata", "redisdata", "caddy-data"} <= declared


def test_the_image_installs_the_runtime_packages_only_by_their_hashes_and_runs_unprivileged():
    assert "requirements/base.txt" in DOCKERFILE and "dev.txt" not in DOCKERFILE
    assert "--require-hashes" in DOCKERFILE
    assert "manage.py collectstatic" in DOCKERFILE
    assert len(re.findall(r"^FROM ", DOCKERFILE, re.M)) >= 2  # multi-stage
    user = re.findall(r"^USER (\S+)", DOCKERFILE, re.M)
    assert user and not user[-1].startswith(("root", "0"))
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", ".env", "tests"} <= set(ignored)


def test_the_systemd_units_run_the_same_commands_as_the_stack():
    assert {
        "portal-migrate.service",
        "portal-web.service",
        "portal-worker.service",
        "portal-analysis-worker.service",
        "portal-beat.service",
    } <= set(UNITS)
    for name, text in UNITS.items():
        exec_start = first_group(r"^ExecStart=(.+)$", text)
        argv = program(exec_start)
        assert_portal_command_exists(argv)
        assert "EnvironmentFile=/etc/portal/portal.env" in text, name
        assert re.search(r"^User=portal$", text, re.M), name
    web = program(first_group(r"^ExecStart=(.+)$", UNITS["portal-web.service"]))
    assert web[:4] == ["/srv/portal/.venv/bin/python", "-m", "portal.serve", "portal.asgi:application"]
    assert "--no-proxy-headers" in web
    for name in (
        "portal-web.service",
        "portal-worker.service",
        "portal-analysis-worker.service",
        "portal-beat.service",
    ):
        assert "Requires=portal-migrate.service" in UNITS[name]


@pytest.mark.django_db
def test_the_web_probe_is_answered_as_a_visitor_through_the_proxy_is_in_production(settings, monkeypatch):
    settings.ALLOWED_HOSTS = ["games.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    client = Client()
    # Asked plainly on the container's own address, production refuses it (so a bare probe
    # would call a healthy site sick).
    assert client.get("/healthz", headers={"Host": "127.0.0.1:8000"}).status_code == 400
    monkeypatch.setenv("ALLOWED_HOSTS", "games.example.org,www.example.org")
    headers = healthcheck.probe_headers()
    assert headers == {"Host": "games.example.org", "X-Forwarded-Proto": "https"}
    response = client.get("/healthz", headers=headers)
    assert response.status_code == 200 and response.content == b"ok"


def test_the_web_probe_names_what_failed(monkeypatch):
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    problem = healthcheck.check_web(f"http://127.0.0.1:{port}/healthz")
    assert problem and "did not answer" in problem


def test_the_beat_probe_fails_when_beat_stopped_writing_its_schedule(tmp_path):
    schedule = tmp_path / "celerybeat-schedule"
    assert "has not started" in healthcheck.check_beat(str(schedule))
    (tmp_path / "celerybeat-schedule.db").write_bytes(b"")  # dbm adds its own suffix
    now = time.time()
    assert healthcheck.check_beat(str(schedule), now=now + 60) is None
    stale = healthcheck.check_beat(str(schedule), now=now + healthcheck.BEAT_STALE_SECONDS + 60)
    assert stale and "last written" in stale
    assert healthcheck.main(["beat", str(schedule)]) == 0
    assert healthcheck.main(["nonsense"]) == 2


def caddy_or_skip() -> str:
    caddy = shutil.which("caddy")
    if not caddy:
        if os.environ.get("CI"):
            pytest.fail("CI needs Debian's caddy (.ci/run installs it)")
        pytest.skip("Caddy is not installed (apt-get install caddy)")
    return caddy


def test_caddy_reads_the_caddyfile_and_proxies_the_site_to_the_web_processes():
    caddy = caddy_or_skip()
    env = {
        **os.environ,
        "SITE_DOMAIN": "games.example.org",
        "ACME_EMAIL": "ops@example.org",
        "PORTAL_UPSTREAM": "web:8000",
    }
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    config = yaml.safe_load(adapted.stdout)  # JSON is YAML
    server = config["apps"]["http"]["servers"]["srv0"]
    assert server["listen"] == [":443"]
    route = server["routes"][0]
    assert route["match"] == [{"host": ["games.example.org"]}]
    handlers = [h for r in route["handle"][0]["routes"] for h in r["handle"]]
    proxy = next(h for h in handlers if h["handler"] == "reverse_proxy")
    assert proxy["upstreams"] == [{"dial": "web:8000"}]
    policies = config["apps"]["tls"]["automation"]["policies"]
    assert policies[0]["subjects"] == ["games.example.org"]
