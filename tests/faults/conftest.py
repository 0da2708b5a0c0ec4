"""The fault suite's stack: its own redis-server (killed and restarted by PID, never
the shared one), the web app on it, the outbox relay, Celery worker and beat processes,
and an aiosmtpd sink. Every wait is bounded; every process is stopped at the end."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from aiosmtpd.controller import Controller

from service.app import create_app
from service.config import Settings
from tests.conftest import new_database
from tests.workers.conftest import free_port
from tests.workers.test_retries import MoodyServer
from workers.app import mail_queue
from workers.wiring import start_dispatcher


def wait_for(condition, timeout: float = 30.0, what: str = "condition", every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class RedisServer:
    """A redis-server of this test's own, on a free port, without persistence (a
    restart comes back empty, the harder case)."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self.ping, 10, "redis-server to answer")

    def ping(self) -> bool:
        try:
            return redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
        except redis.ConnectionError:
            return False

    def kill(self, how: signal.Signals = signal.SIGKILL) -> None:
        """Kill it (SIGKILL: connections just break) or stop it (SIGTERM: Redis closes
        them first, as on a restart)."""
        assert self.process is not None, "started"
        self.process.send_signal(how)
        self.process.wait(timeout=10)

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)


@pytest.fixture
def own_redis(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.fail("MISSING: redis-server (Debian package redis-server) is needed by the fault tests")
    server = RedisServer(tmp_path)
    server.start()
    yield server
    if server.process.poll() is None:
        server.kill()


@pytest.fixture
def smtp_server():
    """An SMTP sink whose answers a test can change (accepting all by default)."""
    server = MoodyServer()
    controller = Controller(server, hostname="127.0.0.1", port=free_port())
    controller.start()
    server.url = f"smtp://127.0.0.1:{controller.port}"
    yield server
    controller.stop()


@pytest.fixture
def own_database(worker_id):
    """A database of this test's own: the fault tests kill its connections and the
    processes working on it, and leave rows owed, none of which may reach the other
    tests' database, pool or outbox."""
    with new_database(f"turnpost_fault_{worker_id}_{uuid.uuid4().hex[:12]}") as url:
        yield url


@pytest.fixture
def own_app(own_database, tmp_path):
    """The web app on `own_database`, with no Redis."""
    settings = Settings(database_url=own_database, redis_url=None, smtp_url=None, base_url="http://turnpost.test",
                        secret_key="fault-secret", maildir=tmp_path / "mail", sign_in_limit="1000 per minute",
                        rate_limit="100000 per minute")
    app = create_app(settings)
    app.config["TESTING"] = True
    yield app
    app.extensions["turnpost"]["database"].dispose()


@pytest.fixture
def fault_stack(own_database, smtp_server, own_redis, tmp_path):
    """The web app on `own_database` and `own_redis`, and a way to start worker, mailer and beat
    processes (they sweep the outbox every second, for rows older than 2 s, and retry
    a failed email after 1, 2, then at most 4 s, 8 attempts at most)."""
    queue = f"turnpost-fault-{uuid.uuid4().hex[:12]}"
    database_url = own_database
    settings = Settings(database_url=database_url, redis_url=own_redis.url, smtp_url=smtp_server.url,
                        base_url="http://turnpost.test", secret_key="fault-secret", queue=queue,
                        maildir=tmp_path / "mail", sign_in_limit="1000 per minute", rate_limit="100000 per minute")
    app = create_app(settings)
    app.config["TESTING"] = True
    start_dispatcher(app)
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": own_redis.url, "SMTP_URL": smtp_server.url,
           "SECRET_KEY": "fault-secret", "BASE_URL": "http://turnpost.test", "TURNPOST_QUEUE": queue,
           "TURNPOST_OUTBOX_SWEEP_SECONDS": "1", "TURNPOST_OUTBOX_GRACE_SECONDS": "2", "MAIL_CLAIM_SECONDS": "3",
           "MAIL_RETRY_SECONDS": "1", "MAIL_RETRY_MAX_SECONDS": "4", "MAIL_MAX_ATTEMPTS": "8"}
    processes: list[subprocess.Popen] = []
    log_of: dict[subprocess.Popen, Path] = {}

    def spawn(*args: str) -> subprocess.Popen:
        log = open(tmp_path / f"{args[0]}-{len(processes)}.log", "wb")
        process = subprocess.Popen([sys.executable, "-m", "celery", "-A", "workers.app", *args],
                                   env=env, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
        log_of[process] = Path(log.name)
        processes.append(process)
        return process

    def worker(queues: str = f"{queue},{mail_queue(queue)}", pool: str = "solo",
               concurrency: int = 1) -> subprocess.Popen:
        """A worker, once ready: its start-up takes what a busy machine gives it."""
        from tests.workers.test_end_to_end import wait_until_ready

        # Gossip, mingle and heartbeat on, as the Procfile runs it.
        process = spawn("worker", f"--pool={pool}", f"--concurrency={concurrency}", "-Q", queues, "--loglevel=info")
        wait_until_ready(process, log_of[process])
        return process

    def beat() -> subprocess.Popen:
        return spawn("beat", "--loglevel=info", "--schedule", str(tmp_path / "beat-schedule"))

    def relay() -> subprocess.Popen:
        """`turnpost relay`, once it listens (the web app's moves reach Celery through it)."""
        log = open(tmp_path / f"relay-{len(processes)}.log", "wb")
        process = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "turnpost"), "relay"],
                                   env=env, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
        log_of[process] = Path(log.name)
        processes.append(process)
        wait_for(lambda: process.poll() is not None or b"relaying the work announced" in log_of[process].read_bytes(),
                 120, "the relay to listen")
        assert process.poll() is None, f"the relay exited: {log_of[process].read_text()[-2000:]}"
        return process

    stack = type("FaultStack", (), {
        "app": app, "settings": settings, "engine": app.extensions["turnpost"]["database"], "redis": own_redis,
        "inbox": smtp_server, "worker": staticmethod(worker), "beat": staticmethod(beat), "logs": tmp_path,
        "env": env,  # the processes' environment: a test may change it before starting them
        "start_relay": staticmethod(relay),
        "log_of": log_of,  # each process's log file
    })()
    stack.relay = relay()  # running as the Procfile's `relay` does
    yield stack
    app.extensions["turnpost"]["database"].dispose()
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
