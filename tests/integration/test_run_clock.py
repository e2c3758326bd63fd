"""A job's device time is the time its runs held a device (migrations/010_run_clock.sql).

The claims, renewals and ends are the statements koptd and the worker run (daemon/scheduler.c,
workers/job.c), issued here by hand against the real schema so the gaps between them can be
made long: a run whose worker vanished is charged up to its last sign of life, not up to the
claim that noticed, which on the H200 came three hours later."""
import time

import pytest
from kopt_helpers import psql

CLAIM = ("UPDATE jobs SET state = 'running', lease_owner = 'w', worker = 'w',"
         " lease_expires_at = now() + interval '{lease} seconds',"
         " attempts = CASE WHEN attempts = 0 OR last_attempt_end = 'job' THEN attempts + 1 ELSE attempts END,"
         " infra_retries = CASE WHEN attempts > 0 AND last_attempt_end IS DISTINCT FROM 'job'"
         "   THEN infra_retries + 1 ELSE infra_retries END,"
         " last_attempt_end = NULL, started_at = coalesce(started_at, now()) WHERE id = '{id}'")
RENEW = "UPDATE jobs SET lease_expires_at = now() + interval '{lease} seconds' WHERE id = '{id}'"
LAPSE = "UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = '{id}'"
FINISH = ("UPDATE jobs SET state = 'succeeded', finished_at = now(), lease_owner = NULL,"
          " lease_expires_at = NULL WHERE id = '{id}'")


def clock(db, jid):
    row = psql(db, f"SELECT run_s, run_started_at IS NOT NULL, kopt_job_run_seconds(j), state"
                   f" FROM jobs j WHERE id = '{jid}'")[0]
    return float(row[0]), row[1] == "t", float(row[2]), row[3]


def run(db, stmt, jid, lease=60):
    psql(db, stmt.format(id=jid, lease=lease))


def test_a_run_is_charged_from_its_claim_to_its_end(koptd, api):
    jid = api.create()["id"]
    assert clock(koptd.db_url, jid)[:2] == (0.0, False)
    run(koptd.db_url, CLAIM, jid)
    time.sleep(0.6)
    run_s, live, now_s, _ = clock(koptd.db_url, jid)
    assert run_s == 0 and live and now_s >= 0.5               # the run in progress counts
    psql(koptd.db_url, f"INSERT INTO rounds (job_id, round) VALUES ('{jid}', 1)")
    run(koptd.db_url, RENEW, jid)
    time.sleep(0.4)
    run(koptd.db_url, FINISH, jid)
    run_s, live, now_s, state = clock(koptd.db_url, jid)
    assert state == "succeeded" and not live
    assert 1.0 <= run_s < 5 and now_s == run_s
    r1 = float(psql(koptd.db_url, f"SELECT run_s FROM rounds WHERE job_id = '{jid}' AND round = 1")[0][0])
    assert 0.5 <= r1 < run_s                                   # the round's moment on the job's clock
    time.sleep(0.3)
    assert clock(koptd.db_url, jid)[0] == run_s                # an ended job's clock stands still


def test_a_lapsed_run_ends_at_its_last_sign_of_life_not_when_it_is_noticed(koptd, api):
    jid = api.create()["id"]
    run(koptd.db_url, CLAIM, jid, lease=1)
    time.sleep(0.3)
    run(koptd.db_url, RENEW, jid, lease=1)                    # alive at about 0.3 s
    time.sleep(2.5)                                            # the worker is gone; the lease lapses
    run(koptd.db_url, CLAIM, jid)                              # another worker claims it
    run_s, live, _, _ = clock(koptd.db_url, jid)
    assert live and 0.2 <= run_s < 1.5, run_s                  # not the 2.8 s until the claim
    time.sleep(0.5)
    run(koptd.db_url, FINISH, jid)
    total = clock(koptd.db_url, jid)[0]
    assert total == pytest.approx(run_s + 0.5, abs=0.4)
    assert psql(koptd.db_url, f"SELECT infra_retries FROM jobs WHERE id = '{jid}'")[0][0] == "1"


def test_a_released_run_is_charged_up_to_its_release(koptd, api):
    """koptd's release of a dead worker's lease (lapsed at once) and a requeue both end a run;
    a queued job's clock does not move."""
    jid = api.create()["id"]
    run(koptd.db_url, CLAIM, jid)
    time.sleep(0.4)
    run(koptd.db_url, LAPSE, jid)
    time.sleep(1.0)
    psql(koptd.db_url, f"UPDATE jobs SET state = 'queued', lease_owner = NULL WHERE id = '{jid}'")
    run_s, live, now_s, state = clock(koptd.db_url, jid)
    assert state == "queued" and not live and 0.3 <= run_s < 1.2 and now_s == run_s
    time.sleep(0.3)
    assert clock(koptd.db_url, jid)[2] == run_s
