"""The short kill -9 campaign (issue 8, item 5) in `make test`: at least 20 SIGKILLs of koptd,
its workers and their harness processes at random moments and one PostgreSQL restart
mid-job, over a stream of small vector_add jobs (rounds 0-2); then every invariant of
tests/integration/killcampaign.py must hold. The long campaign (100+ kills, 3+ restarts) is
run by hand: `python tests/integration/killcampaign.py --help`."""
import os

from killcampaign import Campaign, Config
from worker_fixtures import PG_DIR

KILLS = int(os.environ.get("KOPT_TEST_CAMPAIGN_KILLS", "20"))


def test_short_kill_campaign(fresh_db, logdir, koptd_bin):
    cfg = Config(db_url=fresh_db, pg_dir=PG_DIR, logdir=logdir, jobs=6, kills=KILLS,
                 pg_restarts=1, max_s=420, seed=int(os.environ.get("KOPT_TEST_CAMPAIGN_SEED", "7")),
                 devices="interp:0,interp:1", kill_every=(1.0, 3.5))
    report = Campaign(cfg).run()
    print(report.text())
    assert report.ok, report.text()
