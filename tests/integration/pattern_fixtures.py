"""Round histories constructed as a worker writes them (jobs of a batch, their rounds'
evidence), for synthesis tests that must not depend on what a real run happened to accept:
tests/integration/test_patterns.py, test_heldout.py."""
import json
import uuid

from kopt_helpers import describe, psql


def q(s):
    """A SQL string literal."""
    return "'" + str(s).replace("'", "''") + "'"


def seed_version(api, token):
    r = api.get("/v1/patterns?version=frozen&status=active", token=token)
    assert r.status_code == 200, describe(r)
    vs = api.get("/v1/patterns/versions?limit=100", token=token).json()["versions"]
    return min(v["version"] for v in vs if v["origin"] == "seed")


def rnd(family, accepted=True, speedup=2.0, symptoms=("elementwise", "small_block", "under_4_per_thread"),
        cls="elementwise", level=3, settled_by=None, diagnose=4.0, sweep=True, backend="interp",
        credited=None):
    """credited: the family a worker credits when the kernel as written won a structural round."""
    return {"family": family, "accepted": accepted, "speedup": speedup, "symptoms": list(symptoms),
            "cls": cls, "level": level, "settled_by": settled_by, "diagnose": diagnose, "sweep": sweep,
            "backend": backend, "credited": credited}


def history(db, jobs, state="succeeded"):
    """Writes finished jobs of a new batch: jobs = {operator: [rounds]}; returns the batch id."""
    bid = str(uuid.uuid4())
    sha = "b" * 64
    sql = [f"INSERT INTO kernels (sha256, source) VALUES ({q(sha)}, 'x') ON CONFLICT DO NOTHING",
           f"INSERT INTO batches (id, name) VALUES ({q(bid)}, 'constructed')"]
    for op, rounds in jobs.items():
        jid = str(uuid.uuid4())
        sql.append("INSERT INTO jobs (id, name, state, backend, rounds, policy, proposer, spec, kernel_sha256,"
                   " batch_id, started_at, finished_at) VALUES "
                   f"({q(jid)}, {q('h-' + op)}, {q(state)}, 'interp', {len(rounds)}, 'hierarchy', 'rules',"
                   f" {q(json.dumps({'operator': op}))}::jsonb, {q(sha)}, {q(bid)}, now() - interval '1 hour', now())")
        for i, r in enumerate(rounds, 1):
            ev = {"l1": {"backend": r["backend"], "target": "cuda", "class": r["cls"], "symptoms": r["symptoms"],
                         "settled_by": r["settled_by"], "direction": "up"},
                  "seconds": {"diagnose": r["diagnose"]}}
            if r["sweep"]:
                ev["sweep"] = {"candidates": []}
            if r["credited"]:
                ev["credited_family"] = r["credited"]
            timing = {"speedup": r["speedup"]} if r["accepted"] else None
            sql.append("INSERT INTO rounds (job_id, round, level_reached, evidence, rewrite_family, accepted, timing)"
                       f" VALUES ({q(jid)}, {i}, {r['level']}, {q(json.dumps(ev))}::jsonb, {q(r['family'])},"
                       f" {str(r['accepted']).lower()}, {q(json.dumps(timing)) + '::jsonb' if timing else 'NULL'})")
    psql(db, ";\n".join(sql))
    return bid
