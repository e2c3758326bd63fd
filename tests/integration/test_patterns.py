"""The pattern index and batches through the API (issue 9), on constructed round histories:
no workers; finished jobs and their rounds are written into PostgreSQL the way a worker writes
them (rounds.evidence.l1, the sweep, timing), then synthesis, diffs, freezing, pinning by
batches, tenancy and the batch report are checked. The worker side (L1 settling, exclusion,
the held-out command, the pages) is tests/integration/test_heldout.py.

Each test synthesizes from the seed and its own batch of constructed jobs (`base`,
`batch_ids`), so tests do not see each other's histories.
"""
import json
import math
import uuid

import pytest
from kopt_helpers import REFERENCE_SRC, assert_problem, describe, job_spec, psql
from pattern_fixtures import history, q, rnd, seed_version


def synthesize(api, token, expect=201, **body):
    r = api.post("/v1/patterns/synthesize", body, token=token)
    assert r.status_code == expect, describe(r)
    return r.json()


def patterns_of(api, token, version):
    r = api.get(f"/v1/patterns?version={version}", token=token)
    assert r.status_code == 200, describe(r)
    return {p["name"]: p for p in r.json()["patterns"]}


# ------------------------------------------------------------------------------ the seed

def test_seed_version_is_frozen_documented_practice(api, tokens):
    r = api.get("/v1/patterns?version=frozen", token=tokens["viewer"])
    assert r.status_code == 200, describe(r)
    doc = r.json()
    v = doc["version"]
    assert v["origin"] == "seed" and v["frozen"] and v["frozen_at"] and v["parent"] is None
    pats = doc["patterns"]
    assert len(pats) >= 15 and doc["counts"]["active"] == len(pats)
    targets = {t for p in pats for t in p["conditions"].get("target", [])}
    assert targets == {"cuda", "ascend"}, targets
    families = {p["rewrite_family"] for p in pats}
    for fam in ("vectorize_access", "block_size", "num_warps", "num_stages", "tile_grid", "row_in_registers",
                "persistent_grid", "fuse_kernels", "structured_access", "reduce_scalar_work"):
        assert fam in families, fam
    for p in pats:
        assert p["origin"] == "seed" and p["status"] == "active" and p["stats"] == {}
        assert len(p["guidance"]) > 80 and p["action"]["family"] == p["rewrite_family"]
        assert p["provenance"]["references"] and all(u.startswith("https://") for u in p["provenance"]["references"])
        assert p["when"] and p["entered_version"] == v["version"]
    # something for block/grid sizing, vectorization, pipelining, tile ordering, persistence
    names = " ".join(p["name"] for p in pats)
    for part in ("vectorize", "block_size", "pipeline", "tile_grid", "persistent", "core_count", "scalar"):
        assert part in names, part


# ------------------------------------------------------------------------------ synthesis

def test_synthesis_statistics_mining_retirement_provenance_diff(koptd, api, tokens):
    adm = tokens["admin"]
    seed = seed_version(api, adm)
    vec = ("elementwise", "small_block", "under_4_per_thread", "fits:elementwise_vector")
    odd = ("autotune",)
    bid = history(koptd.db_url, {
        # vectorize on three operators: 2x, 3x, 1.5x (+ one round L1 settled with it)
        "op_a": [rnd("vectorize_access", speedup=2.0, symptoms=vec),
                 rnd("vectorize_access", speedup=1.25, symptoms=vec, level=1,
                     settled_by="cuda.elementwise.vectorize", diagnose=0.01),
                 rnd("block_size", accepted=False, symptoms=vec)],
        "op_b": [rnd("vectorize_access", speedup=3.0, symptoms=vec), rnd("block_size", accepted=False, symptoms=vec)],
        "op_c": [rnd("vectorize_access", speedup=1.5, symptoms=vec), rnd("block_size", accepted=False, symptoms=vec),
                 rnd("block_size", accepted=False, symptoms=vec)],
        # rounds no pattern explains, one symptom -> family accepted on two operators: mined
        "op_d": [rnd("num_stages", speedup=1.4, symptoms=odd, cls="other")],
        "op_e": [rnd("num_stages", speedup=1.6, symptoms=odd, cls="other")],
        # never read: no sweep ran (the proposer failed)
        "op_f": [rnd("vectorize_access", speedup=9.0, symptoms=vec, sweep=False)],
    })
    failed = history(koptd.db_url, {"op_g": [rnd("vectorize_access", speedup=9.0, symptoms=vec)]}, state="failed")
    doc = synthesize(api, adm, base=seed, batch_ids=[bid, failed], min_operators=2, note="constructed")
    v = doc["version"]
    new = v["version"]
    assert v["parent"] == seed and v["origin"] == "synthesis" and not v["frozen"] and v["note"] == "constructed"
    assert v["source"]["rounds"] == 10, v["source"]          # op_f (no sweep) and op_g (failed job) not read
    assert v["source"]["operators"] == ["op_a", "op_b", "op_c", "op_d", "op_e"]
    assert sorted(v["source"]["batches"]) == sorted([bid, failed])
    pats = patterns_of(api, adm, new)

    vect = pats["cuda.elementwise.vectorize"]["stats"]["interp"]
    assert (vect["tried"], vect["accepted"], vect["operators"], vect["settled"]) == (4, 4, 3, 1), vect
    assert vect["speedup"]["median"] == pytest.approx(1.75, abs=1e-3)
    assert vect["speedup"]["geomean"] == pytest.approx(math.prod([2.0, 1.25, 3.0, 1.5]) ** 0.25, abs=1e-3)
    assert vect["speedup"]["values"] == [1.25, 1.5, 2.0, 3.0]
    assert vect["settled_accepted"] == 1
    assert vect["levels_saved"] == 2 and vect["seconds_saved"] == pytest.approx(3.99, abs=0.01)
    prov = pats["cuda.elementwise.vectorize"]["provenance"]
    assert prov["operators"] == ["op_a", "op_b", "op_c"] and prov["jobs"] == 3 and prov["rounds"] == 4
    assert prov["batches"] == [bid] and prov["references"] and len(prov["sample"]) == 4

    blk = pats["cuda.elementwise.block_size"]
    assert blk["status"] == "retired" and blk["stats"]["interp"]["tried"] == 4
    assert "0 of 4" in blk["retired_reason"], blk["retired_reason"]

    mined = pats["mined.cuda.autotune.num_stages"]
    assert mined["origin"] == "mined" and mined["status"] == "active" and mined["entered_version"] == new
    assert mined["conditions"] == {"target": ["cuda"], "symptoms_all": ["autotune"]}
    assert mined["action"] == {"family": "num_stages", "direction": "up"}
    assert "op_d, op_e" in mined["guidance"] and mined["stats"]["interp"]["operators"] == 2
    assert mined["provenance"]["mined_from"]["operators"] == ["op_d", "op_e"]
    # nothing mined for what a pattern explains already (the vectorize rounds)
    assert [n for n in pats if n.startswith("mined.")] == ["mined.cuda.autotune.num_stages"]

    diff = doc["diff"]
    assert diff["from"] == seed and diff["to"] == new
    assert [a["name"] for a in diff["added"]] == ["mined.cuda.autotune.num_stages"]
    assert [x["name"] for x in diff["retired"]] == ["cuda.elementwise.block_size"]
    changed = {c["name"]: c for c in diff["changed"]}
    assert changed["cuda.elementwise.vectorize"]["stats"]["interp"]["tried"] == [0, 4]
    text = "\n".join(diff["text"])
    assert "+ mined.cuda.autotune.num_stages: when target cuda; all of autotune, try num_stages (mined)" in text
    assert "! cuda.elementwise.block_size: active -> retired" in text
    assert "~ cuda.elementwise.vectorize: interp tried 0 -> 4, accepted 0 -> 4, settled 0 -> 1" in text
    r = api.get(f"/v1/patterns/versions/{new}/diff", token=tokens["viewer"])
    assert r.status_code == 200 and r.json()["text"] == diff["text"], describe(r)
    r = api.get(f"/v1/patterns/versions/{new}/diff?against={new}", token=tokens["viewer"])
    assert r.json()["text"] == [] and r.json()["unchanged"] == len(pats)

    # the seed is untouched, and no version is ever rewritten
    assert all(p["stats"] == {} for p in patterns_of(api, adm, seed).values())
    for sql in (f"UPDATE patterns SET guidance = 'x' WHERE version = {new}",
                f"DELETE FROM patterns WHERE version = {new}",
                f"DELETE FROM pattern_index_versions WHERE version = {new}",
                f"UPDATE pattern_index_versions SET note = 'x' WHERE version = {new}",
                (f"INSERT INTO patterns (version, name, symptom, rewrite_family, outcome, provenance, action,"
                 f" entered_version) VALUES ({new}, 'late.addition', 's', 'block_size', '{{}}', '{{}}',"
                 f" '{{\"family\": \"block_size\"}}', {new})")):
        with pytest.raises(RuntimeError, match="never|not being written"):
            psql(koptd.db_url, sql)


def test_synthesis_credits_the_family_that_won(koptd, api, tokens):
    """A structural round won by the kernel as written (evidence.credited_family, written by
    the worker) counts for that family: here three row_in_registers rounds, two won by a
    wider block, mine a block_size pattern and leave the rewrite one success."""
    adm = tokens["admin"]
    seed = seed_version(api, adm)
    row = ("loop_over_row",)
    bid = history(koptd.db_url, {
        "op_r1": [rnd("row_in_registers", speedup=2.2, symptoms=row, cls="reduction", credited="block_size")],
        "op_r2": [rnd("row_in_registers", speedup=1.8, symptoms=row, cls="reduction", credited="block_size")],
        "op_r3": [rnd("row_in_registers", speedup=1.5, symptoms=row, cls="reduction")],
    })
    doc = synthesize(api, adm, base=seed, batch_ids=[bid], min_operators=2)
    pats = patterns_of(api, adm, doc["version"]["version"])
    mined = {n: p for n, p in pats.items() if n.startswith("mined.")}
    assert list(mined) == ["mined.cuda.loop_over_row.block_size"], list(mined)
    m = mined["mined.cuda.loop_over_row.block_size"]
    assert m["action"]["family"] == "block_size" and m["provenance"]["mined_from"]["operators"] == ["op_r1", "op_r2"]
    assert m["stats"]["interp"]["tried"] == 2 and m["stats"]["interp"]["accepted"] == 2


def test_retired_stays_retired_and_statistics_accumulate_per_source(koptd, api, tokens):
    """A synthesis that starts from a version keeps what it read: its source batches are read
    again (never counted twice), and a pattern retired there stays retired."""
    adm = tokens["admin"]
    seed = seed_version(api, adm)
    vec = ("elementwise", "small_block")
    b1 = history(koptd.db_url, {f"r{i}": [rnd("block_size", accepted=False, symptoms=vec)] for i in range(4)})
    v1 = synthesize(api, adm, base=seed, batch_ids=[b1])["version"]["version"]
    b2 = history(koptd.db_url, {"r9": [rnd("block_size", speedup=2.0, symptoms=vec)]})
    doc = synthesize(api, adm, base=v1, batch_ids=[b2])
    assert sorted(doc["version"]["source"]["batches"]) == sorted([b1, b2])
    p = patterns_of(api, adm, doc["version"]["version"])["cuda.elementwise.block_size"]
    assert p["status"] == "retired" and p["stats"]["interp"]["tried"] == 5 and p["stats"]["interp"]["accepted"] == 1


def test_synthesis_admin_only_and_validated(api, tokens, koptd):
    for role in ("viewer", "submitter"):
        assert_problem(api.post("/v1/patterns/synthesize", {}, token=tokens[role]), 403, "forbidden")
    assert_problem(api.post("/v1/patterns/synthesize", {}, token=None), 401, "unauthorized")
    adm = tokens["admin"]
    body = api.post("/v1/patterns/synthesize", {"min_operators": 0, "retire_max_rate": 2, "colour": 1,
                                                "batch_ids": ["nope"], "base": "x"}, token=adm)
    b = assert_problem(body, 400, "validation")
    fields = {e["field"] for e in b["errors"]}
    assert fields == {"min_operators", "retire_max_rate", "colour", "batch_ids", "base"}, b
    assert_problem(api.post("/v1/patterns/synthesize", {"batch_ids": [str(uuid.uuid4())]}, token=adm),
                   400, "validation", "batch_ids")
    assert_problem(api.post("/v1/patterns/synthesize", {"base": 999999}, token=adm), 400, "validation", "base")
    assert_problem(api.post("/v1/patterns/synthesize", data=b"{", token=adm,
                            headers={"Content-Type": "application/json"}), 400, "malformed-json")
    # an empty body is a synthesis over everything finished
    r = api.post("/v1/patterns/synthesize", token=adm)
    assert r.status_code == 201 and r.headers["Location"].startswith("/v1/patterns?version="), describe(r)


def test_freeze_versions_and_listing(api, tokens):
    adm = tokens["admin"]
    v = synthesize(api, adm)["version"]["version"]
    assert_problem(api.post(f"/v1/patterns/versions/{v}/freeze", token=tokens["submitter"]), 403, "forbidden")
    r = api.post(f"/v1/patterns/versions/{v}/freeze", token=adm)
    assert r.status_code == 200 and r.json()["frozen"] and r.json()["frozen_at"], describe(r)
    again = api.post(f"/v1/patterns/versions/{v}/freeze", token=adm).json()
    assert again["frozen_at"] == r.json()["frozen_at"]                       # idempotent
    assert_problem(api.post("/v1/patterns/versions/9999999/freeze", token=adm), 404, "not-found")
    assert_problem(api.get("/v1/patterns/versions/0/diff", token=adm), 404, "not-found")
    assert_problem(api.get("/v1/patterns/versions/12/diff?against=x", token=adm), 400, "validation", "against")
    # "frozen" is the newest frozen version; newer unfrozen ones do not count
    newer = synthesize(api, adm)["version"]["version"]
    got = api.get("/v1/patterns?version=frozen", token=adm).json()["version"]["version"]
    assert got == v < newer
    assert api.get("/v1/patterns", token=adm).json()["version"]["version"] == newer
    assert_problem(api.get("/v1/patterns?version=abc", token=adm), 400, "validation", "version")
    assert_problem(api.get("/v1/patterns?status=gone", token=adm), 400, "validation", "status")
    assert_problem(api.get("/v1/patterns?version=9999999", token=adm), 404, "not-found")
    # versions, newest first, a page at a time
    first = api.get("/v1/patterns/versions?limit=1", token=tokens["viewer"]).json()
    assert [x["version"] for x in first["versions"]] == [newer] and first["next_cursor"]
    second = api.get(f"/v1/patterns/versions?limit=1&cursor={first['next_cursor']}", token=adm).json()
    assert second["versions"][0]["version"] == newer - 1 and second["versions"][0]["frozen"]
    assert_problem(api.get("/v1/patterns/versions?cursor=zz", token=adm), 400, "validation", "cursor")
    assert_problem(api.get("/v1/patterns/versions?limit=0", token=adm), 400, "validation", "limit")


# ------------------------------------------------------------------------------ batches

def batch_body(n=2, **over):
    body = {"name": "b", "jobs": [job_spec(name=f"j{i}", operator=f"op{i}",
                                           reference={"source": REFERENCE_SRC}) for i in range(n)]}
    body.update(over)
    return body


def test_batch_validation(api, tokens):
    sub = tokens["submitter"]
    assert_problem(api.post("/v1/batches", {"name": "x"}, token=sub), 400, "validation", "jobs")
    assert_problem(api.post("/v1/batches", {"jobs": []}, token=sub), 400, "validation", "jobs")
    bad = batch_body(3, colour="red", policy="always_deep")
    bad["jobs"][1]["rounds"] = 1000
    bad["jobs"][2]["policy"] = "hierarchy"
    bad["jobs"][0]["pattern_index"] = 1
    b = assert_problem(api.post("/v1/batches", bad, token=sub), 400, "validation")
    fields = {e["field"] for e in b["errors"]}
    assert fields == {"colour", "jobs[1].rounds", "jobs[2].policy", "jobs[0].pattern_index"}, b
    assert_problem(api.post("/v1/batches", batch_body(pattern_index=9999999), token=sub), 400, "validation",
                   "pattern_index")
    assert_problem(api.post("/v1/batches", batch_body(), token=tokens["viewer"]), 403, "forbidden")
    assert_problem(api.post("/v1/batches", data=b"{}", token=sub, headers={"Content-Type": "text/plain"}),
                   415, "unsupported-media-type")


def test_batch_pins_one_version_and_tenancy(koptd, api, tokens):
    sub, other = tokens["submitter"], tokens["submitter2"]
    frozen = api.get("/v1/patterns?version=frozen", token=sub).json()["version"]["version"]
    r = api.post("/v1/batches", batch_body(3, pattern_index="frozen", policy="profile_only",
                                           exclude_same_operator=True), token=sub)
    assert r.status_code == 201, describe(r)
    b = r.json()
    assert r.headers["Location"] == f"/v1/batches/{b['id']}"
    assert b["pattern_index"] == frozen and b["pattern_index_frozen"] and b["policy"] == "profile_only"
    assert [j["pattern_index"] for j in b["jobs"]] == [frozen] * 3
    for j in b["jobs"]:
        job = api.job(j["id"], token=sub)
        assert job["batch_id"] == b["id"] and job["policy"] == "profile_only"
        assert job["spec"]["pattern_index"] == frozen and job["spec"]["exclude_same_operator"] is True
    rows = psql(koptd.db_url, f"SELECT DISTINCT pattern_version FROM jobs WHERE batch_id = '{b['id']}'")
    assert rows == [[str(frozen)]]
    # tenancy: another submitter neither reads nor lists it; viewers and admins do
    assert_problem(api.get(f"/v1/batches/{b['id']}", token=other), 404, "not-found")
    assert b["id"] not in [x["id"] for x in api.get("/v1/batches?limit=100", token=other).json()["batches"]]
    for tok in (sub, tokens["viewer"], tokens["admin"]):
        assert api.get(f"/v1/batches/{b['id']}", token=tok).status_code == 200
        assert b["id"] in [x["id"] for x in api.get("/v1/batches?limit=100", token=tok).json()["batches"]]
    # idempotent submission
    key = {"Idempotency-Key": "batch-" + str(uuid.uuid4())}
    first = api.post("/v1/batches", batch_body(), token=sub, headers=key)
    again = api.post("/v1/batches", batch_body(), token=sub, headers=key)
    assert first.status_code == 201 and again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert_problem(api.post("/v1/batches", batch_body(name="other"), token=sub, headers=key), 409,
                   "idempotency-conflict")
    assert_problem(api.get("/v1/batches?cursor=x1", token=sub), 400, "validation", "cursor")


def finish_job(db, jid, state, speedup=None, best_round=0, rounds=(), error=None):
    """Ends a queued job the way a worker would: its rounds (round i recorded after 20*i s of
    the job's device time), best and state, after 100 s of device time."""
    sql = []
    for i, (accepted, sp, settled) in enumerate(rounds, 1):
        ev = {"l1": {"settled_by": "cuda.elementwise.vectorize" if settled else None}}
        sql.append("INSERT INTO rounds (job_id, round, level_reached, evidence, rewrite_family, accepted, timing,"
                   f" run_s) VALUES ('{jid}', {i}, {1 if settled else 3}, {q(json.dumps(ev))}::jsonb, 'block_size',"
                   f" {str(accepted).lower()}, {q(json.dumps({'speedup': sp}))}::jsonb, {20 * i})")
    best = {"round": best_round, "speedup": speedup} if speedup is not None else None
    sql.append(f"UPDATE jobs SET state = {q(state)}, started_at = now() - interval '100 seconds', finished_at = now(),"
               " run_s = 100,"
               f" best = {q(json.dumps(best)) + '::jsonb' if best else 'NULL'}, error = {q(error) if error else 'NULL'}"
               f" WHERE id = '{jid}'")
    psql(db, ";\n".join(sql))


def test_batch_aggregate_counts_every_failure(koptd, api, tokens):
    sub = tokens["submitter"]
    b = api.post("/v1/batches", batch_body(5, synthesize_after=True), token=sub).json()
    ids = [j["id"] for j in b["jobs"]]
    finish_job(koptd.db_url, ids[0], "succeeded", 4.0, 2, [(True, 2.0, True), (True, 2.0, False)])
    finish_job(koptd.db_url, ids[1], "succeeded", 1.0, 0, [(False, 1.0, False)])
    finish_job(koptd.db_url, ids[2], "succeeded", 6.0, 1, [(True, 6.0, True)])
    finish_job(koptd.db_url, ids[3], "failed", error="initial kernel validate failed: boom")
    mid = api.get(f"/v1/batches/{b['id']}", token=sub).json()
    assert mid["state"] == "running" and mid["finished_at"] is None and mid["synthesized_version"] is None
    api.cancel(ids[4], token=sub)
    doc = api.get(f"/v1/batches/{b['id']}", token=sub).json()
    a = doc["aggregate"]
    assert doc["state"] == "done" and doc["finished_at"]
    assert (a["jobs"], a["succeeded"], a["failed"], a["cancelled"]) == (5, 3, 1, 1)
    assert a["geomean_speedup"] == pytest.approx((4 * 1 * 6) ** (1 / 3), abs=1e-3)
    assert a["median_speedup"] == pytest.approx(4.0)
    assert a["geomean_speedup_all"] == pytest.approx((4 * 1 * 6) ** (1 / 5), abs=1e-3)
    assert (a["at_least_2x"], a["at_least_5x"]) == (2, 1)
    assert a["speedups"] == [1.0, 4.0, 6.0]
    assert a["rounds_to_best_median"] == 1 and a["rounds"] == 4 and a["rounds_settled_l1"] == 2
    assert a["l1_share"] == pytest.approx(0.5)
    assert a["device_seconds"] == pytest.approx(400, abs=5)          # 4 jobs ran 100 s each
    assert a["seconds_to_best_median"] == pytest.approx(30)          # best rounds 2 and 1: 40 s, 20 s
    fails = {f["id"]: f for f in a["failures"]}
    assert set(fails) == {ids[3], ids[4]}
    assert fails[ids[3]]["reason"] == "initial kernel validate failed: boom" and fails[ids[3]]["state"] == "failed"
    assert fails[ids[4]]["state"] == "cancelled" and "cancelled" in fails[ids[4]]["reason"]
    jobs = {j["id"]: j for j in doc["jobs"]}
    assert jobs[ids[0]]["settled_l1"] == 1 and jobs[ids[0]]["best_round"] == 2 and jobs[ids[0]]["operator"] == "op0"
    # the batch asked for a synthesis when it ended: from its own rounds only, on top of the newest version
    v = doc["synthesized_version"]
    assert v and doc["synthesis_error"] is None, doc
    src = api.get("/v1/patterns/versions?limit=100", token=sub).json()["versions"]
    mine = next(x for x in src if x["version"] == v)
    assert b["id"] in mine["source"]["batches"] and "after batch" in mine["note"]
