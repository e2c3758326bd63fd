"""The pattern index at work (issue 9), end to end on the interpreter: koptd with two interp
workers, `koptctl heldout` on four small operators of the suite (2 + 2, one round, four
candidates), then what it left behind: L1 settling rounds from a matched pattern, every result
naming the version it used, a job that excludes its own operator's patterns, and the three
dashboard pages driven in headless Chromium (tests/integration/browser.py) as a person
would read them.
"""
import json
import os
import subprocess
import time

import pytest
from browser import Browser, chromium_path
from kopt_helpers import BIN_DIR, ROOT, create_token, describe, psql
from pattern_fixtures import history, rnd
from worker_fixtures import *

pytestmark = pytest.mark.slow

OPS = ["bias_gelu", "gelu_tanh", "silu", "swiglu"]
DEVICES = os.environ.get("KOPT_TEST_HELDOUT_DEVICES", "interp:0,interp:1")
TIMEOUT = float(os.environ.get("KOPT_TEST_HELDOUT_TIMEOUT", "900"))
PAGE_TIMEOUT = 30


class Ho:
    pass


@pytest.fixture(scope="module")
def ho(module_wkoptd, module_dbs, tmp_path_factory):
    db = module_dbs.create()
    tmp = tmp_path_factory.mktemp("heldout")
    # support from one operator settles L1 here: A has two operators
    k = module_wkoptd(db, devices=DEVICES, lease_s=10, name="koptd-heldout", KOPT_PATTERN_MIN_SUPPORT=1)
    h = Ho()
    h.k, h.db = k, db
    h.admin = create_token(db, "admin", "t-admin")
    h.viewer = create_token(db, "viewer", "t-view")
    h.api = k.api(h.admin)
    module_wkoptd.wait_workers_ready(k, n=len(DEVICES.split(",")))
    suite = tmp / "suite"
    suite.mkdir()
    for op in OPS:
        (suite / op).symlink_to(ROOT / "bench" / "suite" / "ops" / op)
    h.report_path = tmp / "report.json"
    h.state_path = tmp / "state.json"
    t0 = time.monotonic()

    def heldout(timeout: float, seed: str = "3", state=h.state_path) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN_DIR / "koptctl"), "heldout", "--suite", str(suite), "--split", "0.5",
                               "--seed", seed, "--rounds", "1", "--backend", "interp", "--max-candidates", "4",
                               "--benchmark-cases", "1", "--correctness-cases", "1", "--min-operators", "1",
                               "--poll", "0.5", "--timeout", str(timeout), "--state", str(state),
                               "--out", str(h.report_path)],
                              check=False, env=dict(os.environ, KOPT_URL=k.base, KOPT_TOKEN=h.admin),
                              capture_output=True, text=True, timeout=3 * TIMEOUT)

    # interrupted: A cannot end within a second; with --state its jobs go on running
    h.first = heldout(1)
    h.state_after_first = json.loads(h.state_path.read_text())
    # another run's options against the same state file are refused before anything is made
    h.other = heldout(TIMEOUT, seed="4")
    # the same command resumes: no second batch A
    h.p = heldout(TIMEOUT)
    h.took = time.monotonic() - t0
    assert h.p.returncode == 0, f"koptctl heldout exited {h.p.returncode}:\n{h.p.stdout}\n{h.p.stderr}\n{log_tail(k)}"
    h.state = json.loads(h.state_path.read_text())
    # a state file naming a batch this server never made (another database): a clear refusal
    bogus = dict(h.state, steps={"seed_version": h.state["steps"]["seed_version"],
                                 "A": "00000000-0000-4000-8000-000000000000"})
    (tmp / "bogus.json").write_text(json.dumps(bogus))
    h.bogus = heldout(TIMEOUT, state=tmp / "bogus.json")
    h.report = json.loads(h.report_path.read_text())
    h.batches = {}
    for name, bid in (("A", h.report["A"]["batch"]), ("B-frozen", h.report["B"]["frozen"]["batch"]),
                      ("B-seed", h.report["B"]["seed"]["batch"])):
        r = h.api.get(f"/v1/batches/{bid}")
        assert r.status_code == 200, describe(r)
        h.batches[name] = r.json()
    return h


def test_heldout_resumes_from_its_state_file(ho):
    """A run cut short by --timeout leaves its batches running and its progress on disk; the
    same command resumes it (the batch A it made, not a second one); another run's options
    against that file are refused, naming the setting that differs."""
    assert ho.first.returncode != 0 and "the same command resumes them" in ho.first.stderr, ho.first.stderr
    first = ho.state_after_first
    assert first["format"] == 1 and len(first["key"]) == 16, first
    assert first["steps"]["seed_version"] > 0 and first["steps"]["A"], first
    assert "B-frozen" not in first["steps"], first
    assert ho.other.returncode != 0 and "belongs to another run" in ho.other.stderr, ho.other.stderr
    assert 'setting "' in ho.other.stderr, ho.other.stderr
    assert "resuming the run recorded in" in ho.p.stderr, ho.p.stderr
    assert ho.report["A"]["batch"] == first["steps"]["A"]
    steps = ho.state["steps"]
    assert steps["frozen"] is True and steps["synthesized_version"] == ho.report["synthesized_version"]
    assert steps["B-frozen"] == ho.report["B"]["frozen"]["batch"]
    assert steps["B-seed"] == ho.report["B"]["seed"]["batch"]
    assert psql(ho.db, "SELECT count(*) FROM batches WHERE name LIKE 'heldout A %'") == [["1"]]
    assert ho.bogus.returncode != 0 and "remove the file to start over" in ho.bogus.stderr, ho.bogus.stderr


def test_b_sides_interleave_in_the_queue(ho):
    """B's two batches share one queue: their jobs' priorities interleave them pair by pair,
    alternating which side runs first (the second of a pair finds the Triton cache warm), at
    or below the default priority so that other users' jobs are not overtaken."""
    pri = {}
    for side, name in (("frozen", "B-frozen"), ("seed", "B-seed")):
        for j in ho.batches[name]["jobs"]:
            pri[(side, j["operator"])] = ho.api.job(j["id"])["priority"]
    for j in ho.batches["A"]["jobs"]:
        assert ho.api.job(j["id"])["priority"] == 0
    b_ops = [x["operator"] for x in ho.report["B"]["per_operator"]]
    pairs = [(pri[("frozen", op)], pri[("seed", op)]) for op in b_ops]
    for k, (f, s) in enumerate(pairs):
        assert max(f, s) <= 0 and f != s, pairs
        assert (f > s) == (k % 2 == 0), f"pair {k}: frozen {f}, seed {s} ({pairs})"
        if k:
            assert min(pairs[k - 1]) > max(f, s), pairs


def rounds_of(api, job_id):
    r = api.get(f"/v1/jobs/{job_id}/rounds")
    assert r.status_code == 200, describe(r)
    return r.json()["rounds"]


def versions(api):
    return {v["version"]: v for v in api.get("/v1/patterns/versions?limit=100").json()["versions"]}


def test_heldout_command(ho):
    rep, out = ho.report, ho.p.stdout
    a, b = rep["A"]["operators"], rep["B"]["operators"]
    assert sorted(a + b) == OPS and len(a) == 2 and len(b) == 2, rep
    vs = versions(ho.api)
    seed, new = rep["seed_version"], rep["synthesized_version"]
    assert vs[seed]["origin"] == "seed" and vs[seed]["frozen"]
    v = vs[new]
    assert v["frozen"] and v["parent"] == seed and v["origin"] == "synthesis"
    # synthesized from the seed and A alone: nothing of B read, no pattern's provenance names B
    assert v["source"]["batches"] == [rep["A"]["batch"]] and set(v["source"]["operators"]) <= set(a), v
    pats = ho.api.get(f"/v1/patterns?version={new}").json()["patterns"]
    for p in pats:
        assert set(p["provenance"]["operators"]) <= set(a), (p["name"], p["provenance"])
    assert ho.batches["A"]["pattern_index"] == seed
    assert ho.batches["B-frozen"]["pattern_index"] == new and ho.batches["B-frozen"]["pattern_index_frozen"]
    assert ho.batches["B-seed"]["pattern_index"] == seed
    for name in ("A", "B-frozen", "B-seed"):
        assert ho.batches[name]["state"] == "done", ho.batches[name]
    # B against B, per operator, as the batches recorded it
    per = {x["operator"]: x for x in rep["B"]["per_operator"]}
    assert sorted(per) == sorted(b)
    for side, batch in (("frozen", "B-frozen"), ("seed", "B-seed")):
        assert rep["B"][side]["aggregate"] == ho.batches[batch]["aggregate"]
        for j in ho.batches[batch]["jobs"]:
            got = per[j["operator"]][side]
            assert got["state"] == j["state"] and got["speedup"] == j["speedup"]
            assert got["rounds"] == j["rounds"] and got["device_seconds"] == j["device_seconds"]
            assert got["l1_share"] == pytest.approx(j["settled_l1"] / j["rounds"]) if j["rounds"] else True
    for line in ("held-out protocol", f"synthesized from the seed and A alone: v{new}, frozen",
                 "B, held out, run under both", "share of rounds settled at L1", "device-seconds"):
        assert line in out, out
    for op in b:
        assert op in out
    print(f"\nheldout on interp took {ho.took:.0f} s:\n{out}")


def test_l1_settles_from_a_matched_pattern(ho):
    """Under the frozen version a B round whose L1 matched a pattern with support settles at
    L1 with it, and says so; under the seed (no statistics) none does."""
    settled = 0
    for name in ("B-frozen", "B-seed"):
        for j in ho.batches[name]["jobs"]:
            for rec in rounds_of(ho.api, j["id"]):
                pat = rec["escalation"][0]["patterns"]
                l1 = rec["evidence"]["l1"]
                strong = [m for m in pat["matched"] if m["tried"] > 0 and m["support"] >= pat["min_support"]
                          and 2 * m["accepted"] >= m["tried"]]
                if name == "B-seed":
                    assert not strong and l1["settled_by"] is None, rec["escalation"][0]
                    continue
                if not strong:
                    assert l1["settled_by"] is None
                    continue
                # round 1: nothing exhausted yet, so the best supported match settles
                assert rec["level_reached"] == 1, rec["escalation"]
                assert l1["settled_by"] == strong[0]["name"] == pat["settled_by"]
                assert rec["rewrite_family"] == strong[0]["family"]
                assert rec["escalation"][0]["tests"] == {"hotspot": True, "one_family": True, "sufficient": True}
                assert "enough support to settle L1" in rec["escalation"][0]["why"]
                assert rec["hypothesis"].startswith("L1:"), rec["hypothesis"]
                assert len(rec["escalation"]) == 1          # no level above was paid for
                settled += 1
    assert settled >= 1, "no B round settled at L1 under the frozen version"
    assert ho.batches["B-frozen"]["aggregate"]["rounds_settled_l1"] == settled
    assert ho.batches["B-seed"]["aggregate"]["rounds_settled_l1"] == 0


def test_every_result_records_its_version(ho):
    for batch in ho.batches.values():
        v = batch["pattern_index"]
        for j in batch["jobs"]:
            job = ho.api.job(j["id"])
            assert job["best"]["pattern_index"] == v and job["spec"]["pattern_index"] == v
            assert psql(ho.db, f"SELECT pattern_version FROM jobs WHERE id = '{j['id']}'") == [[str(v)]]
            for rec in rounds_of(ho.api, j["id"]):
                assert rec["evidence"]["l1"]["pattern_index"] == v
                assert rec["escalation"][0]["patterns"]["version"] == v


def test_exclusion_and_pinning(ho):
    """A job for an operator of A under the latest version (the frozen one): with
    exclude_same_operator, no pattern whose provenance names it is matched, though such
    patterns match its features; "latest" is resolved when it starts and kept after a newer
    version appears. A version that does not exist fails the job and says why."""
    new = ho.report["synthesized_version"]
    op = ho.report["A"]["operators"][0]
    src = ROOT / "bench" / "suite" / "ops" / op
    spec = va_spec(kernel=(src / "kernel.py").read_text(), rounds=1, operator=op, exclude_same_operator=True,
                   max_candidates=2)
    spec["reference"] = {"source": (src / "ref.py").read_text()}
    excl = ho.api.create(spec)["id"]
    missing = ho.api.create(va_spec(rounds=1, pattern_index=999))["id"]
    j = wait_job(ho.api, excl, koptds=[ho.k])
    assert j["state"] == "succeeded", j
    later = ho.api.post("/v1/patterns/synthesize", {"note": "after the exclusion job"}).json()["version"]["version"]
    assert later > new
    j = ho.api.job(excl)
    assert j["best"]["pattern_index"] == new and j["spec"]["pattern_index"] == "latest"
    rec = rounds_of(ho.api, excl)[0]
    pat = rec["escalation"][0]["patterns"]
    assert pat["excluded_operator"] == op and pat["version"] == new
    prov = {p["name"]: p["provenance"]["operators"]
            for p in ho.api.get(f"/v1/patterns?version={new}&status=active").json()["patterns"]}
    assert all(op not in prov[m["name"]] for m in pat["matched"]), pat
    # ... and something was left out: a pattern with this operator in its provenance matches
    feats = json.dumps(rec["evidence"]["l1"]).replace("'", "''")
    left_out = psql(ho.db, f"SELECT name FROM patterns WHERE version = {new} AND status = 'active'"
                           f" AND kopt_pattern_matches(conditions, '{feats}'::jsonb)"
                           f" AND provenance->'operators' ? '{op}'")
    assert left_out, f"no pattern of v{new} with {op} in its provenance matches {feats}"
    m = wait_job(ho.api, missing, koptds=[ho.k])
    assert m["state"] == "failed" and "pattern_index: version 999 does not exist" in m["error"], m


def test_spent_settled_family_climbs_on(ho):
    """A round whose L1 a pattern settles on a family an earlier round already spent (every
    candidate measured) climbs on with that family skipped instead of ending the job: on the
    H200 a mined persistent_grid pattern ended bias_gelu at round 2 with block_size, which the
    seed version's climb found (1.24x), never tried. The pattern is mined here from
    constructed histories (two operators that gained from a persistent grid), so that it
    exists whatever the interpreter's timings made of batch A."""
    bid = history(ho.db, {"spent-x": [rnd("persistent_grid")], "spent-y": [rnd("persistent_grid")]})
    r = ho.api.post("/v1/patterns/synthesize", {"base": ho.report["seed_version"], "batch_ids": [bid],
                                                "min_operators": 2, "note": "spent family test"})
    assert r.status_code == 201, describe(r)
    v = r.json()["version"]["version"]
    op = "bias_gelu"
    src = ROOT / "bench" / "suite" / "ops" / op
    spec = va_spec(kernel=(src / "kernel.py").read_text(), rounds=3, operator=op, pattern_index=v,
                   max_candidates=32)
    spec["reference"] = {"source": (src / "ref.py").read_text()}
    jid = ho.api.create(spec)["id"]
    j = wait_job(ho.api, jid, koptds=[ho.k])
    assert j["state"] == "succeeded", j
    recs = rounds_of(ho.api, jid)
    seen = "; ".join(f"round {r['round']} L{r['level_reached']} {r['rewrite_family']} settled_by "
                     f"{r['escalation'][0]['patterns']['settled_by']} accepted {r['accepted']}" for r in recs)
    stop = j["progress"].get("stop_reason") or ""
    first = recs[0]
    assert first["escalation"][0]["patterns"]["settled_by"] and first["rewrite_family"] == "persistent_grid", seen
    # round 1 measured every persistent grid; round 2's L1 would settle on it again: it climbs
    # on instead (before the fix: "no rewrite family left that the evidence (levels 1-1)
    # justifies" and the job ended after one round)
    assert len(recs) >= 2, f"the job ended after the settled round: {stop} ({seen})"
    assert recs[1]["level_reached"] >= 2 and recs[1]["rewrite_family"] != "persistent_grid", seen


# ------------------------------------------------------------------------------ pages

@pytest.fixture(scope="module")
def page(ho):
    if not chromium_path():
        pytest.fail("chromium is not installed: scripts/deps.sh installs Debian's chromium")
    with Browser.start() as b:
        b.goto(ho.k.base + "/")
        b.eval(f"localStorage.setItem('kopt_token', {json.dumps(ho.viewer)})")
        yield b


def fixed(b, x, digits=3):
    """x as the dashboard writes it (JavaScript's toFixed, which rounds a tie up where Python's
    format rounds it to even: 4.5625 reads 4.563 on the page, "4.562" from f"{x:.3f}")."""
    return b.eval(f"Number({json.dumps(x)}).toFixed({digits})")


def show(b, hash_, page_name):
    """Navigates to a dashboard page and waits until it has rendered; opens every details
    element, as a person reading the page would."""
    b.eval(f"location.hash = {json.dumps(hash_)}")
    b.wait_for(f"document.getElementById('app').dataset.page === {json.dumps(page_name)}"
               " && document.getElementById('app').dataset.ready === '1'", PAGE_TIMEOUT)
    b.eval("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert b.text("#err") == "", b.text("#err")
    return b.text("main")


def test_job_page(ho, page):
    batch = ho.batches["B-frozen"]
    j = max(batch["jobs"], key=lambda x: x["settled_l1"])
    job, recs = ho.api.job(j["id"]), rounds_of(ho.api, j["id"])
    text = show(page, f"#/jobs/{j['id']}", "job")
    assert job["name"] in text and "succeeded" in text and f"v{batch['pattern_index']}" in text
    assert page.text("#best-speedup").startswith(fixed(page, job['best']['speedup']) + "x")
    assert "Speedup of the incumbent over rounds" in text
    assert page.count("#speedup-plot circle.round-dot") == len(recs) + 1
    assert page.count("#speedup-plot circle.accepted") == sum(r["accepted"] for r in recs)
    assert page.count("#rounds tr.round") == len(recs)
    for r in recs:
        row = page.text(f"#rounds tr.round[data-round='{r['round']}']")
        assert f"L{r['level_reached']}" in row and r["rewrite_family"] in row
        assert ("accepted" in row) if r["accepted"] else ("not accepted" in row)
        if r["evidence"]["l1"]["settled_by"]:
            assert f"settled by {r['evidence']['l1']['settled_by']}" in row
    # each round's evidence per level and its sweep
    assert text.count("tests: hotspot") == sum(len(r["escalation"]) for r in recs)
    assert page.count("table.sweep tr") >= sum(len(r["evidence"]["sweep"]["candidates"]) for r in recs)
    assert "Best kernel" in text
    if any(r["accepted"] for r in recs):
        assert page.count("#best-diff pre.diff") == sum(r["accepted"] for r in recs)
    else:
        assert "the initial kernel is the best" in text


def test_batch_page(ho, page):
    b = ho.batches["B-frozen"]
    a = b["aggregate"]
    text = show(page, f"#/batches/{b['id']}", "batch")
    assert b["name"] in text and "frozen" in text and f"v{b['pattern_index']}" in text
    assert page.text("#agg-geomean").startswith(fixed(page, a['geomean_speedup']) + "x")
    assert page.text("#agg-median").startswith(fixed(page, a['median_speedup']) + "x")
    assert f"{a['rounds_settled_l1']} of {a['rounds']}" in text
    assert page.count("#batch-jobs tbody tr") == len(b["jobs"])
    assert page.count("#dist-plot rect.bar") == a["succeeded"]
    for j in b["jobs"]:
        assert j["operator"] in page.text("#batch-jobs")
    assert page.text("#failures") == "none" if not a["failures"] else all(
        f["reason"][:40] in page.text("#failures") for f in a["failures"])


def test_patterns_page(ho, page):
    new = ho.report["synthesized_version"]
    doc = ho.api.get(f"/v1/patterns?version={new}").json()
    diff = ho.api.get(f"/v1/patterns/versions/{new}/diff").json()
    text = show(page, f"#/patterns/{new}", "patterns")
    assert page.count("#versions tbody tr") == len(versions(ho.api))
    assert f"Version {new}" in text and "frozen" in text
    assert page.text("#diff") == ("\n".join(diff["text"]) or "no change")
    assert page.count("#patterns tr.pattern") == len(doc["patterns"])
    for p in doc["patterns"]:
        row = page.text(f"#patterns tr.pattern[data-name='{p['name']}']")
        assert p["when"] in row and p["rewrite_family"] in row
        st = p["stats"].get("interp")
        if st:
            assert f"interp: accepted {st['accepted']}/{st['tried']}" in row, row
            for op in p["provenance"]["operators"]:
                assert op in row
        else:
            assert "not observed yet" in row
