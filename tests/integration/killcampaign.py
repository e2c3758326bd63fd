"""A kill -9 campaign (issue 8, item 5): a stream of jobs on interp (examples/vector_add, small
sizes, rounds 0-2) while koptd, its workers and their harness processes are killed with
SIGKILL at random moments and PostgreSQL is restarted mid-job; koptd is started again after
each of its deaths. Then the invariants are checked in the database:

- every job submitted is there once (submissions carry an Idempotency-Key, so a POST whose
  answer was lost with koptd is sent again without making a second job), and final;
- no round recorded twice (per job, rounds 1..n with no repeat, and each committed once by
  the workers' logs), at most one baseline commit per job, one terminal state event per job;
- every accepted round's kernel is in `kernels`, and so is each succeeded job's best;
- attempts counted per item 11: the kills are faults outside the jobs, so every job is on
  its first attempt (at most one harness kill per job, below the two a step tolerates), and
  the takeovers show as infra retries, within the cap;
- every job succeeded (vector_add is a good kernel: a failure is a bug the campaign found).

Bounded in count and time. Run by hand for the long campaign:

    .venv/bin/python tests/integration/killcampaign.py --kills 110 --pg-restarts 3 \\
        --out bench/results/killcampaign-$(date +%F).txt

(a private PostgreSQL through scripts/pg.sh, var/pg by default, database made and dropped
here); tests/integration/test_killcampaign.py runs a short one in `make test`.

Processes are found only below the koptd this script started (never by name)."""
from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
AGENT = HERE.parents[1] / "tests" / "llm" / "agent_faster.py"

TERMINAL = ("succeeded", "failed", "cancelled")
HARNESS_TARGETS = ("harness-launcher", "harness-supervisor", "harness-worker")
# A step tolerates two harness deaths: one kill per claim of a job, plus at most one carried
# over from the worker's previous job (a harness killed after its last call dies unnoticed
# until the next job's first call).
HARNESS_KILLS_PER_CLAIM = 1
MAX_JOBS_FACTOR = 4         # the stream goes on until the kills are done, up to this x jobs


def proc_start(pid: int) -> str:
    """The process's start time (field 22 of /proc/PID/stat), "" when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            st = f.read()
    except OSError:
        return ""
    return st[st.rindex(")") + 2:].split()[19]


@dataclass
class Config:
    db_url: str
    pg_dir: Path
    logdir: Path
    jobs: int = 8                  # at least this many jobs
    kills: int = 20                # SIGKILLs to deliver
    pg_restarts: int = 1
    max_s: float = 300.0           # the whole campaign, drain included
    seed: int = 1
    devices: str = "interp:0,interp:1"
    lease_s: int = 5
    rounds: tuple[int, ...] = (0, 0, 1, 2)
    kill_every: tuple[float, float] = (1.5, 5.0)   # seconds between kills, uniform
    weights: dict[str, float] = field(default_factory=lambda: {
        "koptd": 0.2, "worker": 0.3, "harness-launcher": 0.15, "harness-supervisor": 0.15,
        "harness-worker": 0.2})
    max_active: int = 4            # jobs queued or running at once
    max_infra_retries: int = 200   # KOPT_MAX_INFRA_RETRIES for the campaign's koptd


@dataclass
class Kill:
    at: float
    target: str
    pid: int
    job: str | None


@dataclass
class Report:
    duration_s: float = 0.0
    jobs: dict[str, str] = field(default_factory=dict)          # id -> final state
    rounds_of: dict[str, int] = field(default_factory=dict)     # id -> rounds asked
    kills: list[Kill] = field(default_factory=list)
    koptd_starts: int = 0
    koptd_unexpected_exits: list[str] = field(default_factory=list)
    pg_restarts: list[float] = field(default_factory=list)      # seconds down
    attempts: dict[str, tuple[int, int]] = field(default_factory=dict)  # id -> (attempts, infra)
    rounds_recorded: int = 0
    accepted_rounds: int = 0
    seen: dict[str, int] = field(default_factory=dict)           # log event -> count
    load: list[float] = field(default_factory=list)              # 1-min load, sampled
    checks: list[tuple[str, bool, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(ok for _, ok, _ in self.checks)

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        self.checks.append((name, ok, detail))

    def text(self) -> str:
        by_target: dict[str, int] = {}
        for k in self.kills:
            by_target[k.target] = by_target.get(k.target, 0) + 1
        states: dict[str, int] = {}
        for s in self.jobs.values():
            states[s] = states.get(s, 0) + 1
        infra = [i for _, i in self.attempts.values()]
        att = [a for a, _ in self.attempts.values()]
        asked = ", ".join(f"{r}: {sum(1 for x in self.rounds_of.values() if x == r)}"
                          for r in sorted(set(self.rounds_of.values())))
        killed = ", ".join(f"{t} {n}" for t, n in sorted(by_target.items()))
        unexpected = "; ".join(self.koptd_unexpected_exits)
        down = ", ".join(f"{d:.1f}" for d in self.pg_restarts)
        ld = sorted(self.load) or [0.0]
        seen = ", ".join(f"{e} {n}" for e, n in sorted(self.seen.items()))
        lines = [
            (f"duration: {self.duration_s:.0f} s; host load (1 min) during it: min {ld[0]:.1f}, "
             f"median {ld[len(ld) // 2]:.1f}, max {ld[-1]:.1f}"),
            (f"jobs: {len(self.jobs)} ({', '.join(f'{n} {s}' for s, n in sorted(states.items()))}); "
             f"rounds asked: {asked}"),
            f"rounds recorded: {self.rounds_recorded} ({self.accepted_rounds} accepted)",
            f"kills (SIGKILL): {len(self.kills)}: {killed}",
            f"kills that hit a job in flight: {sum(1 for k in self.kills if k.job)}",
            (f"koptd starts: {self.koptd_starts} (restarts after its deaths: "
             f"{max(0, self.koptd_starts - 1)}); exits not caused by the campaign: "
             f"{len(self.koptd_unexpected_exits)}" + (f" ({unexpected})" if unexpected else "")),
            f"PostgreSQL restarts mid-job: {len(self.pg_restarts)} (down {down} s)",
            (f"attempts per job: max {max(att, default=0)}; infra retries: total {sum(infra)}, "
             f"max per job {max(infra, default=0)}, jobs taken over at least once "
             f"{sum(1 for i in infra if i)}"),
            f"what the logs saw: {seen}",
            "invariants:",
        ]
        for name, ok, detail in self.checks:
            lines.append(f"  [{'ok' if ok else 'FAIL'}] {name}" + (f": {detail}" if detail else ""))
        lines.append(f"result: {'PASS' if self.ok else 'FAIL'}")
        return "\n".join(lines)


class Campaign:
    """One campaign; run() returns its Report. Owns the koptd processes it starts."""

    def __init__(self, cfg: Config) -> None:
        import kopt_helpers
        import worker_fixtures as wf
        self.cfg = cfg
        self.kh = kopt_helpers
        self.wf = wf
        self.rng = random.Random(cfg.seed)
        self.report = Report()
        self.koptd: kopt_helpers.Koptd | None = None
        self.all_koptd: list[kopt_helpers.Koptd] = []
        self.trees: dict[int, str] = {}         # every process seen below our koptd: start time
        self.restart_at: float | None = None  # when to start koptd again
        self.killed_koptd = False
        self.token = ""
        self.specs: list[tuple[str, dict]] = []   # (idempotency key, spec) in order
        self.ids: dict[str, str] = {}             # key -> job id
        self.states: dict[str, str] = {}          # job id -> last state seen
        self.harness_kills: dict[str, int] = {}   # lease owner (one claim) -> harness kills
        self.work_dir = wf.make_work_dir()

    # ------------------------------------------------------------------ koptd
    def _env(self) -> dict[str, str]:
        env = self.wf.worker_env(self.work_dir, devices=self.cfg.devices, lease_s=self.cfg.lease_s,
                                 eval_timeout_s=300)
        env.update({"KOPT_HOST_ID": f"kc{self.cfg.seed}", "KOPT_VECTOR_ADD_N": "4096",
                    "KOPT_MAX_INFRA_RETRIES": str(self.cfg.max_infra_retries),
                    "KOPT_LOG_LEVEL": "info",
                    # rounds by a stand-in coding agent: a faster kernel in round 1
                    "KOPT_AGENT_CMD": f"{sys.executable} {AGENT} {{dir}}",
                    "KOPT_AGENT_TIMEOUT_S": "60"})
        return env

    def _start_koptd(self) -> None:
        k = self.kh.Koptd(self.cfg.db_url, self.cfg.logdir, env=self._env(), name="koptd-kc")
        self.all_koptd.append(k)
        self.koptd = k
        self.killed_koptd = False
        self.report.koptd_starts += 1
        try:
            k.start(wait=True)
        except AssertionError as e:  # e.g. the database restarting under its start-up
            self.report.koptd_unexpected_exits.append(f"start failed: {str(e).splitlines()[0][:120]}")
            self._reap(k)
            self.koptd = None
            self.restart_at = time.monotonic() + 1.0

    def _reap(self, k) -> None:
        if k.proc is not None and k.proc.poll() is None:
            k.proc.kill()
            k.proc.wait()
        k.checked = True
        if not k.logf.closed:
            k.logf.close()

    def _remember_tree(self) -> None:
        if self.koptd is not None and self.koptd.alive():
            for p in self.wf.descendants(self.koptd.proc.pid):
                self.trees.setdefault(p, proc_start(p))

    def _leftovers(self) -> list[int]:
        """Processes seen below our koptd that are still alive: the same pid with the same
        start time (a pid reused since by someone else's process is not ours)."""
        return [p for p, st in self.trees.items()
                if st and self.wf.alive(p) and proc_start(p) == st]

    def _watch_koptd(self, now: float) -> None:
        k = self.koptd
        if k is not None and not k.alive():
            if not self.killed_koptd:
                self.report.koptd_unexpected_exits.append(
                    f"exit {k.proc.returncode} at {now - self.t0:.0f} s")
            self._reap(k)
            k.check_sanitizer()
            self.koptd = None
            if self.restart_at is None:
                self.restart_at = now + self.rng.uniform(0.3, 2.0)
        if self.koptd is None and self.restart_at is not None and now >= self.restart_at:
            self.restart_at = None
            self._start_koptd()

    def _api(self):
        return self.koptd.api(self.token) if self.koptd is not None else None

    # ------------------------------------------------------------------- jobs
    def _new_spec(self, i: int) -> None:
        rounds = self.rng.choice(self.cfg.rounds)
        spec = self.wf.va_spec(rounds=rounds, name=f"kc-{i}-r{rounds}")
        if rounds:
            spec["proposer"] = "agent"
        self.specs.append((f"kc-{self.cfg.seed}-{i}", spec))

    def _submit(self) -> None:
        api = self._api()
        if api is None:
            return
        active = sum(1 for j in self.ids.values() if self.states.get(j) not in TERMINAL)
        for key, spec in self.specs:
            if key in self.ids:
                continue
            if active >= self.cfg.max_active:
                return
            try:
                r = api.post("/v1/jobs", spec, headers={"Idempotency-Key": key}, timeout=5)
            except self.kh.requests.RequestException:
                return  # koptd went away: the same key is sent again later
            if r.status_code in (200, 201):
                jid = r.json()["id"]
                self.ids[key] = jid
                self.states[jid] = "queued"
                self.report.rounds_of[jid] = spec["rounds"]
                active += 1
            elif r.status_code >= 500:
                return
            else:
                raise AssertionError(f"submission refused: {r.status_code} {r.text[:300]}")

    def _poll_states(self) -> None:
        if not self.ids:
            return
        ids = ",".join(f"'{j}'" for j in self.ids.values())
        try:
            rows = self.kh.psql(self.cfg.db_url, f"SELECT id, state FROM jobs WHERE id IN ({ids})")
        except (RuntimeError, subprocess.TimeoutExpired):
            return  # PostgreSQL restarting
        for jid, st in rows:
            self.states[jid] = st

    def _running_jobs(self) -> dict[str, tuple[str, str]]:
        """device -> (job id, lease owner) of the jobs our workers hold a live lease on."""
        try:
            rows = self.kh.psql(self.cfg.db_url,
                                "SELECT worker, id, lease_owner FROM jobs WHERE state = 'running'"
                                " AND lease_expires_at > now() AND lease_owner IS NOT NULL")
        except (RuntimeError, subprocess.TimeoutExpired):
            return {}
        return {w.split("/", 1)[-1]: (j, o) for w, j, o in rows}

    # ------------------------------------------------------------------ kills
    def _targets(self) -> dict[str, list[tuple[int, str | None]]]:
        """target kind -> [(pid, job in flight or None)] below our live koptd."""
        out: dict[str, list[tuple[int, str | None]]] = {t: [] for t in self.cfg.weights}
        k = self.koptd
        if k is None or not k.alive():
            return out
        running = self._running_jobs()
        out["koptd"].append((k.proc.pid, next(iter(running.values()), (None, ""))[0]))
        for w in self.wf.worker_pids(k.proc.pid):
            cl = self.wf.cmdline(w)
            dev = cl[cl.index("--device") + 1] if "--device" in cl else ""
            job, owner = running.get(dev, (None, ""))
            out["worker"].append((w, job))
            if job is None or self.harness_kills.get(owner, 0) >= HARNESS_KILLS_PER_CLAIM:
                continue  # a harness is killed only under a job, once per claim
            launcher = self.wf.harness_pid(w)
            if launcher:
                out["harness-launcher"].append((launcher, owner))
            for p in self.wf.harness_python_pids(w):
                kind = "harness-worker" if "--worker" in self.wf.cmdline(p) else "harness-supervisor"
                out[kind].append((p, owner))
        return out

    def _kill_one(self, now: float) -> bool:
        targets = {t: v for t, v in self._targets().items() if v}
        if not targets:
            return False
        kinds = list(targets)
        kind = self.rng.choices(kinds, weights=[self.cfg.weights[t] for t in kinds])[0]
        pid, job = self.rng.choice(targets[kind])
        self._remember_tree()
        if kind == "koptd":
            self.killed_koptd = True
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return False
        if kind in HARNESS_TARGETS and job:
            # for a harness, job is the claim's lease owner "<koptd>/<device>/<n>"
            self.harness_kills[job] = self.harness_kills.get(job, 0) + 1
        self.report.kills.append(Kill(now - self.t0, kind, pid, job))
        return True

    def _restart_pg(self) -> None:
        self._remember_tree()
        down = self.rng.uniform(0.0, 1.5)
        self.report.pg_restarts.append(self.wf.restart_pg(self.cfg.pg_dir, down_s=down))

    # -------------------------------------------------------------------- run
    def run(self) -> Report:
        cfg = self.cfg
        self.t0 = time.monotonic()
        self.last_load = 0.0
        try:
            self._start_koptd()
            if self.koptd is None:
                raise AssertionError("koptd did not start")
            self.token = self.kh.create_token(cfg.db_url, "submitter", "killcampaign")
            for i in range(cfg.jobs):
                self._new_spec(i)
            self._loop()
            self._drain()
            self._stop()
            self._check()
        finally:
            for k in self.all_koptd:
                if k.alive():
                    self._remember_tree()
                    self._reap(k)
            time.sleep(1.0)   # what died with koptd has a moment to go
            left = self._leftovers()
            for p in left:
                self.wf.kill9(p)  # ours: seen below our koptd, same start time
            self.report.duration_s = time.monotonic() - self.t0
        self.report.check("no process outlived its koptd", not left, str(left[:5]) if left else "")
        return self.report

    def _loop(self) -> None:
        cfg = self.cfg
        span = cfg.kills * sum(cfg.kill_every) / 2          # the planned kill timeline
        pg_at = [span * (i + 0.5) / max(1, cfg.pg_restarts) for i in range(cfg.pg_restarts)]
        next_kill = self.t0 + self.rng.uniform(*cfg.kill_every)
        last_poll = 0.0
        while True:
            now = time.monotonic()
            if now - self.t0 > cfg.max_s:
                return
            self._watch_koptd(now)
            if now - last_poll > 1.0:
                self._poll_states()
                last_poll = now
            self._submit()
            done_killing = (len(self.report.kills) >= cfg.kills and
                            len(self.report.pg_restarts) >= cfg.pg_restarts)
            if done_killing:
                return
            if pg_at and now - self.t0 >= pg_at[0] and self._running_jobs():
                pg_at.pop(0)
                self._restart_pg()
                continue
            if len(self.report.kills) < cfg.kills and now >= next_kill and self._kill_one(now):
                next_kill = now + self.rng.uniform(*cfg.kill_every)
            active = sum(1 for j in self.ids.values() if self.states.get(j) not in TERMINAL)
            if len(self.ids) == len(self.specs) and active < cfg.max_active:
                if len(self.specs) >= cfg.jobs * MAX_JOBS_FACTOR:
                    return                             # the stream's bound
                self._new_spec(len(self.specs))        # it goes on while kills remain
            self._remember_tree()
            self._sample_load(now)
            time.sleep(0.2)

    def _sample_load(self, now: float) -> None:
        if now - self.last_load >= 10.0:
            self.last_load = now
            self.report.load.append(os.getloadavg()[0])

    def _drain(self) -> None:
        """No more kills: koptd up, every job submitted and final, or the time is up."""
        while time.monotonic() - self.t0 < self.cfg.max_s:
            now = time.monotonic()
            self._watch_koptd(now)
            self._submit()
            self._poll_states()
            if len(self.ids) == len(self.specs) and \
                    all(self.states.get(j) in TERMINAL for j in self.ids.values()):
                return
            self._remember_tree()
            time.sleep(0.5)

    def _stop(self) -> None:
        k = self.koptd
        if k is not None and k.alive():
            self._remember_tree()
            k.stop()   # SIGTERM: exit 0 within 10 s, no sanitizer report

    # ---------------------------------------------------------------- checks
    def _q(self, sql: str) -> list[list[str]]:
        return self.kh.psql(self.cfg.db_url, sql)

    def _check(self) -> None:
        r = self.report
        ids = list(self.ids.values())
        keys_left = [k for k, _ in self.specs if k not in self.ids]
        r.check("every job submitted", not keys_left, f"not accepted: {keys_left}" if keys_left else
                f"{len(ids)} jobs")
        rows = self._q("SELECT id, state, attempts, infra_retries, coalesce(error, '') FROM jobs")
        db = {row[0]: row for row in rows}
        lost = [j for j in ids if j not in db]
        r.check("none lost (each in the database, once)", not lost and len(db) == len(ids),
                f"lost {lost}, {len(db)} rows for {len(ids)} submissions")
        for j in ids:
            if j in db:
                r.jobs[j] = db[j][1]
                r.attempts[j] = (int(db[j][2]), int(db[j][3]))
        not_final = {j: s for j, s in r.jobs.items() if s not in TERMINAL}
        r.check("every job final", not not_final, str(not_final) if not_final else "")
        failed = {j: db[j][4][:200] for j, s in r.jobs.items() if s != "succeeded"}
        r.check("every job succeeded", not failed, str(failed)[:1500] if failed else "")
        dup = self._q("SELECT job_id, round, count(*) FROM rounds GROUP BY 1, 2 HAVING count(*) > 1")
        gaps = self._q("SELECT job_id FROM rounds GROUP BY job_id HAVING max(round) <> count(*)")
        logs = "\n".join(k.log() for k in self.all_koptd)
        commits: dict[tuple[str, str], int] = {}
        for e in self.wf.log_events(logs, "round.committed"):
            commits[(e["job"], e["round"])] = commits.get((e["job"], e["round"]), 0) + 1
        twice = {k: n for k, n in commits.items() if n > 1}
        r.check("no round recorded twice", not dup and not gaps and not twice,
                f"rows {dup}, gaps {gaps}, committed twice {twice}" if dup or gaps or twice else "")
        base: dict[str, int] = {}
        for e in self.wf.log_events(logs, "job.baseline_committed"):
            base[e["job"]] = base.get(e["job"], 0) + 1
        r.check("at most one baseline commit per job", all(n <= 1 for n in base.values()),
                str({j: n for j, n in base.items() if n > 1}))
        multi = self._q("SELECT job_id, count(*) FROM job_events WHERE kind = 'state' AND "
                        "data->>'state' IN ('succeeded', 'failed', 'cancelled') "
                        "GROUP BY 1 HAVING count(*) <> 1")
        r.check("one terminal state event per job", not multi, str(multi))
        for ev in ("harness.killed", "pool.worker_exited", "job.requeued", "job.db_lost",
                   "job.update_failed", "job.resumed", "sched.lease_lost"):
            r.seen[ev] = len(self.wf.log_events(logs, ev))
        r.rounds_recorded = int(self._q("SELECT count(*) FROM rounds")[0][0])
        r.accepted_rounds = int(self._q("SELECT count(*) FROM rounds WHERE accepted")[0][0])
        missing = self._q("SELECT r.job_id, r.round FROM rounds r LEFT JOIN kernels k "
                          "ON k.sha256 = r.kernel_sha256 WHERE r.accepted AND k.sha256 IS NULL")
        best = self._q("SELECT j.id FROM jobs j LEFT JOIN kernels k ON k.sha256 = j.best->>"
                       "'kernel_sha256' WHERE j.state = 'succeeded' AND k.sha256 IS NULL")
        r.check("every accepted round's kernel present", not missing and not best,
                f"rounds {missing}, bests {best}" if missing or best else "")
        spent = {j: a for j, a in r.attempts.items() if a[0] != 1}
        r.check("attempts: infra faults spent none (every job on attempt 1)", not spent, str(spent))
        over = {j: a for j, a in r.attempts.items() if a[1] > self.cfg.max_infra_retries}
        hit = sum(1 for k in r.kills if k.job and k.target in ("koptd", "worker"))
        took = sum(a[1] for a in r.attempts.values())
        r.check("takeovers counted as infra retries, within the cap",
                not over and (took > 0 or hit == 0),
                f"{took} infra retries for {hit} kills of koptd/workers under a job")
        r.check("PostgreSQL restarted mid-job as planned", len(r.pg_restarts) >= self.cfg.pg_restarts,
                f"{len(r.pg_restarts)} of {self.cfg.pg_restarts}")
        r.check("kills delivered as planned", len(r.kills) >= self.cfg.kills,
                f"{len(r.kills)} of {self.cfg.kills}")
        r.check("koptd never died of itself", not r.koptd_unexpected_exits,
                "; ".join(r.koptd_unexpected_exits))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=30)
    ap.add_argument("--kills", type=int, default=110)
    ap.add_argument("--pg-restarts", type=int, default=3)
    ap.add_argument("--max-s", type=float, default=2400)
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    ap.add_argument("--devices", default="interp:0,interp:1")
    ap.add_argument("--pg-dir", default=str(HERE.parents[1] / "var" / "pg"))
    ap.add_argument("--bin-dir", default="bin", help="koptd and kopt-worker (bin/asan: sanitizers)")
    ap.add_argument("--out", help="also write the report to this file")
    a = ap.parse_args(argv)
    os.environ["KOPT_BIN_DIR"] = a.bin_dir
    import kopt_helpers as kh
    pg = ["bash", str(kh.ROOT / "scripts" / "pg.sh")]
    was_running = subprocess.run(pg + ["status", a.pg_dir], capture_output=True,
                                 check=False).returncode == 0
    subprocess.run(pg + ["--fast", "start", a.pg_dir], check=True, capture_output=True)
    admin = subprocess.run(pg + ["url", a.pg_dir], check=True, capture_output=True,
                           text=True).stdout.strip().splitlines()[-1]
    name = f"kopt_killcampaign_{os.getpid()}"
    kh.psql(admin, f"CREATE DATABASE {name}")
    db_url = admin.replace("postgresql:///kopt?", f"postgresql:///{name}?", 1)
    logdir = kh.ROOT / "var" / "killcampaign"
    logdir.mkdir(parents=True, exist_ok=True)
    cfg = Config(db_url=db_url, pg_dir=Path(a.pg_dir), logdir=logdir, jobs=a.jobs, kills=a.kills,
                 pg_restarts=a.pg_restarts, max_s=a.max_s, seed=a.seed, devices=a.devices)
    started, load0 = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()[0]
    try:
        rep = Campaign(cfg).run()
    finally:
        try:
            kh.psql(admin, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        except RuntimeError as e:
            print(f"warning: could not drop {name}: {e}", file=sys.stderr)
        if not was_running:  # leave the cluster as it was found
            subprocess.run(pg + ["stop", a.pg_dir], check=False, capture_output=True)
    head = (f"kill -9 campaign started {started} (seed {a.seed}, devices {a.devices}, lease "
            f"{cfg.lease_s} s, kills every {cfg.kill_every[0]}-{cfg.kill_every[1]} s, bin "
            f"{a.bin_dir}, koptd logs in {logdir})\n"
            f"host: {os.cpu_count()} cores, load (1 min) at the start: {load0:.2f}\n"
            f"command: {' '.join(sys.argv)}\n")
    text = head + rep.text() + "\n"
    print(text)
    if a.out:
        Path(a.out).write_text(text)
    return 0 if rep.ok else 1


if __name__ == "__main__":
    sys.exit(main())
