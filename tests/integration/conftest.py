"""Fixtures for the koptd integration suite.

- one private PostgreSQL cluster per session (scripts/pg.sh start --fast var/test-pg),
- a fresh database per module (`db`) or per test (`fresh_db`),
- koptd processes from $KOPT_BIN_DIR (default bin/; bin/asan for the sanitizer run) on free
  ports, stopped with SIGTERM at teardown, which must exit 0 with no sanitizer report,
- tokens per role, made with `koptd token create`.
"""
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kopt_helpers import (BIN_DIR, ROOT, Koptd, create_token, psql)  # noqa: E402

PG_DIR = Path(os.environ.get("KOPT_TEST_PG_DIR", ROOT / "var" / "test-pg"))
_db_counter = itertools.count(1)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes more than a few seconds")


def pytest_report_header(config):
    return f"koptd under test: {BIN_DIR / 'koptd'}"


def _pg(*args):
    return subprocess.run(["bash", str(ROOT / "scripts" / "pg.sh"), *args],
                          capture_output=True, text=True, timeout=180)


@pytest.fixture(scope="session")
def koptd_bin():
    b = BIN_DIR / "koptd"
    if not (b.is_file() and os.access(b, os.X_OK)):
        pytest.fail(f"{b} is missing: build it first (make all asan)")
    return b


@pytest.fixture(scope="session")
def pg_admin_url():
    """URI of the session cluster's `kopt` database, used for CREATE/DROP DATABASE."""
    was_running = _pg("status", str(PG_DIR)).returncode == 0
    p = _pg("--fast", "start", str(PG_DIR))
    assert p.returncode == 0, f"pg.sh start failed:\n{p.stdout}\n{p.stderr}"
    p = _pg("url", str(PG_DIR))
    assert p.returncode == 0, f"pg.sh url failed:\n{p.stderr}"
    url = p.stdout.strip().splitlines()[-1]
    yield url
    if not was_running and not os.environ.get("KOPT_TEST_KEEP_PG"):
        _pg("stop", str(PG_DIR))


class Databases:
    """Creates databases kopt_t<pid>_<n>; drops them when the owning scope ends."""

    def __init__(self, admin_url):
        self.admin_url = admin_url
        self.made = []

    def url_for(self, name):
        return self.admin_url.replace("postgresql:///kopt?", f"postgresql:///{name}?", 1)

    def create(self):
        name = f"kopt_t{os.getpid()}_{next(_db_counter)}"
        psql(self.admin_url, f"CREATE DATABASE {name}")
        self.made.append(name)
        return self.url_for(name)

    def drop_all(self):
        for name in self.made:
            try:
                psql(self.admin_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            except Exception as e:  # leave it; the cluster is private and disposable
                print(f"warning: could not drop {name}: {e}")
        self.made.clear()


class Launcher:
    """Starts koptd processes; at teardown stops every one still running (exit 0 asserted)."""

    def __init__(self, logdir):
        self.logdir = logdir
        self.procs = []

    def __call__(self, db_url, env=None, args=None, wait=True, name="koptd"):
        for attempt in range(3):
            k = Koptd(db_url, self.logdir, env=env, args=args, name=name)
            self.procs.append(k)
            try:
                return k.start(wait=wait)
            except AssertionError:
                # the free port was taken between probe and bind: try another one
                if attempt < 2 and not k.alive() and "cannot bind" in k.log():
                    k.checked = True
                    self.procs.remove(k)
                    continue
                raise

    def stop_all(self):
        errors = []
        for k in self.procs:
            try:
                k.stop()
            except AssertionError as e:
                errors.append(str(e))
        self.procs.clear()
        if errors:
            pytest.fail("\n\n".join(errors), pytrace=False)


@pytest.fixture(scope="session")
def logdir(tmp_path_factory):
    d = ROOT / "var" / "test-results" / ("koptd-logs-" + BIN_DIR.name)
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture(scope="module")
def module_dbs(pg_admin_url):
    d = Databases(pg_admin_url)
    yield d
    d.drop_all()


@pytest.fixture
def dbs(pg_admin_url):
    d = Databases(pg_admin_url)
    yield d
    d.drop_all()


@pytest.fixture(scope="module")
def db(module_dbs):
    """A fresh database for this module."""
    return module_dbs.create()


@pytest.fixture
def fresh_db(dbs):
    """A fresh database for this test."""
    return dbs.create()


@pytest.fixture(scope="module")
def module_launcher(koptd_bin, logdir, module_dbs):
    lau = Launcher(logdir)
    yield lau
    lau.stop_all()


@pytest.fixture
def launch(koptd_bin, logdir, dbs):
    """launch(db_url, env=None, args=None, wait=True) -> Koptd, stopped at teardown."""
    lau = Launcher(logdir)
    yield lau
    lau.stop_all()


@pytest.fixture(scope="module")
def koptd(module_launcher, db):
    """One koptd for the module, on the module's database."""
    return module_launcher(db)


@pytest.fixture(scope="module")
def tokens(koptd):
    """Tokens per role on the module koptd's database (migrations applied by its start-up)."""
    return {
        "viewer": create_token(koptd.db_url, "viewer", "test-viewer"),
        "submitter": create_token(koptd.db_url, "submitter", "test-submitter"),
        "submitter2": create_token(koptd.db_url, "submitter", "test-submitter-2"),
        "admin": create_token(koptd.db_url, "admin", "test-admin"),
    }


@pytest.fixture(scope="module")
def api(koptd, tokens):
    """Api client of the module koptd, as the submitter."""
    return koptd.api(tokens["submitter"])


@pytest.fixture
def fresh(launch, fresh_db):
    """A koptd of its own on a fresh database, with tokens: (koptd, tokens, api)."""
    k = launch(fresh_db)
    toks = {r: create_token(fresh_db, r, f"t-{r}") for r in ("viewer", "submitter", "admin")}
    return k, toks, k.api(toks["submitter"])
