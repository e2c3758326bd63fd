"""Prepared statements on koptd's database connections (issue 8, item 13: submissions).

The submission's statements and the job read are prepared once per pool connection and
then sent by name. Shown here: tests/unit/test_db.c against this suite's PostgreSQL (a
statement the session lost, DISCARD ALL inside and outside a transaction, a terminated
backend), and over HTTP: repeated submissions prepare nothing more, and after a PostgreSQL
restart the next submission and read are answered (201, 200), not 503, on a new session
that prepares its statements again."""
import os
import subprocess

from kopt_helpers import BIN_DIR, ROOT, create_token, describe
from worker_fixtures import metric, restart_pg

JOBS_PER_BATCH = 6


def test_db_unit_cases_against_postgres(fresh_db):
    b = BIN_DIR / "tests" / "test_db"
    assert b.is_file(), f"{b} is missing: scripts/test.sh builds it (make unit-bins / asan)"
    env = {**os.environ, "KOPT_TEST_DATABASE_URL": fresh_db}
    p = subprocess.run([str(b)], env=env, capture_output=True, text=True, timeout=120,
                       cwd=str(ROOT), check=False)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert "[  PASSED  ] 5 test(s)." in out, out  # the PostgreSQL group ran, all of it
    assert "Sanitizer" not in out and "runtime error" not in out, out


def submit_and_read(api, n):
    ids = []
    for i in range(n):
        ids.append(api.create()["id"])
        r = api.get(f"/v1/jobs/{ids[-1]}")
        assert r.status_code == 200, describe(r)
    return ids


def test_submissions_prepare_once_and_survive_pg_restart(launch, fresh_db):
    k = launch(fresh_db, env={"KOPT_POOL_SIZE": "2"})
    api = k.api(create_token(fresh_db, "submitter"))
    first = submit_and_read(api, JOBS_PER_BATCH)
    warm = metric(k, "kopt_db_prepares_total")
    # kernel insert, job insert, durability wait, job read: on at most both connections
    assert 4 <= warm <= 8, warm
    submit_and_read(api, JOBS_PER_BATCH)
    assert metric(k, "kopt_db_prepares_total") == warm, "statements were prepared again"

    restart_pg()
    r = api.get(f"/v1/jobs/{first[0]}")  # a read first: the token lookup and the job read
    assert r.status_code == 200, "read after a PostgreSQL restart" + describe(r)
    r = api.submit(expect=None)
    assert r.status_code == 201, "submission after a PostgreSQL restart" + describe(r)
    restart_pg()
    r = api.submit(expect=None)
    assert r.status_code == 201, "submission right after a restart" + describe(r)
    after = metric(k, "kopt_db_prepares_total")
    assert after > warm, (warm, after)  # the new sessions prepared theirs
    assert metric(k, "kopt_db_statements_lost_total") == 0  # resets the pool saw
