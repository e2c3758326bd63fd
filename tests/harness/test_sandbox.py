"""The sandboxed start (harness/launch.py): own user, no network, read-only filesystem
except the work directory, rlimits. Needs root and a working bubblewrap (checked, else
skipped with the reason); the fallbacks are exercised with --isolation."""
import os
import secrets
import shutil
import subprocess
import sys
import tempfile

import pytest

from conftest import HARNESS_DIR, bad, vector_add

from kharness.client import HarnessClient

LAUNCH = os.path.join(HARNESS_DIR, "run-sandboxed")
TEST_USER = "kopt-sbx-test"


def bwrap_works():
    if os.geteuid() != 0:
        return False, "not root: cannot create the sandbox user"
    if not shutil.which("bwrap"):
        return False, "bubblewrap not installed"
    r = subprocess.run(["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "true"],
                       capture_output=True, text=True)
    return r.returncode == 0, r.stderr.strip()


OK, WHY = bwrap_works()
pytestmark = pytest.mark.skipif(not OK, reason=f"sandbox test needs root and bwrap: {WHY}")


def sandboxed(workdir, *extra):
    env = dict(os.environ)
    env["KOPT_VECTOR_ADD_N"] = "4096"
    # its own user: RLIMIT_NPROC counts every process and thread of the user, and other
    # harnesses on this machine may run as the default kopt-sandbox
    return HarnessClient(cmd=[LAUNCH, "--backend", "interp", "--workdir", workdir, "--nproc", "64",
                              "--user", TEST_USER,
                              "--python", os.path.join(os.path.dirname(HARNESS_DIR), ".venv", "bin", "python"),
                              *extra],
                         env=env, stderr_path=os.path.join(tempfile.gettempdir(), "kopt-sandbox-test.log"))


@pytest.fixture(scope="module")
def sbx():
    wd = tempfile.mkdtemp(prefix="kopt-sbx-", dir="/tmp")
    h = sandboxed(wd)
    yield h, wd
    h.close()
    shutil.rmtree(wd, ignore_errors=True)


def test_sandbox_identity_network_limits(sbx):
    h, wd = sbx
    r = h.request("hello", timeout_s=300)
    assert r["ok"], r
    s = r["result"]["sandbox"]
    assert s["user"] == TEST_USER and s["uid"] != 0
    assert s["launcher"] == "bwrap+user"
    assert s["network"] == "isolated" and s["network_interfaces"] == ["lo"]
    assert s["no_new_privs"] is True
    assert s["rlimits"]["RLIMIT_NPROC"] == 64
    assert s["rlimits"]["RLIMIT_NOFILE"] == 4096
    assert s["rlimits"]["RLIMIT_FSIZE"] == 4096 << 20
    assert s["rlimits"]["RLIMIT_CPU"] > 0
    assert r["result"]["workdir"] == os.path.realpath(wd)


def test_sandbox_validates_and_blocks_libc_escapes(sbx):
    h, wd = sbx
    ref, ker = vector_add()
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir="va", correctness_cases=1)
    assert r["ok"], r
    assert h.request("validate")["result"]["passed"]
    # bypasses the in-process guard: only the read-only filesystem stops it
    r = h.request("validate", candidate_source=bad("write_outside_libc.py"))
    f = r["result"]["failure"]
    assert f["kind"] == "exception" and "Read-only file system" in f["message"], f
    assert not os.path.exists("/tmp/outside_libc")
    # files the harness writes are in the work directory, readable from outside by root
    r = h.request("compile")
    assert r["ok"], r
    ptx = r["result"]["kernels"][0]["files"]["ptx"]["path"]
    assert ptx.startswith(os.path.realpath(wd)) and "ld.global" in open(ptx).read()


def test_sandbox_bounds_a_libc_fork_bomb(sbx):
    h, _ = sbx
    r = h.request("validate", candidate_source=bad("forkbomb_libc.py"), timeout_s=10)
    assert r["ok"] is False and r["error"]["kind"] == "timeout"
    assert "did not finish within 10 s" in r["error"]["message"]
    # the harness survives, restarts its worker, replays the load
    r = h.request("validate", timeout_s=120)
    assert r["ok"] and r["result"]["passed"], r


def test_fallback_isolation_unshare():
    wd = tempfile.mkdtemp(prefix="kopt-sbx-", dir="/tmp")
    try:
        with sandboxed(wd, "--isolation", "unshare") as h:
            r = h.request("hello", timeout_s=300)
            assert r["ok"], r
            s = r["result"]["sandbox"]
            assert s["network"] == "isolated"
            assert s["launcher"].startswith("unshare")
    finally:
        shutil.rmtree(wd, ignore_errors=True)


def test_isolation_none_is_logged_loudly():
    wd = tempfile.mkdtemp(prefix="kopt-sbx-", dir="/tmp")
    try:
        r = subprocess.run([sys.executable, os.path.join(HARNESS_DIR, "launch.py"), "--workdir", wd, "--isolation",
                            "none", "--dry-run"], capture_output=True, text=True)
        assert r.returncode == 0
        assert "WARNING: isolation: none" in r.stderr
        assert "--stage2" in r.stdout
    finally:
        shutil.rmtree(wd, ignore_errors=True)


def test_workdir_must_be_reachable():
    d = tempfile.mkdtemp(prefix="kopt-private-")        # mode 0700, owned by root
    try:
        r = subprocess.run([sys.executable, os.path.join(HARNESS_DIR, "launch.py"), "--workdir",
                            os.path.join(d, "work"), "--dry-run"], capture_output=True, text=True)
        assert r.returncode != 0 and "not world-traversable" in r.stderr
    finally:
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def host_secret_files():
    """World-readable files outside the sandbox's allowlist, holding a random secret:
    (their names, the secret)."""
    secret = "kopt-host-secret-" + secrets.token_hex(8)
    made = [f"/srv/kopt-test-secret-{secrets.token_hex(4)}", f"/etc/kopt-test-secret-{secrets.token_hex(4)}"]
    for p in made:
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(secret + "\n")
        os.chmod(p, 0o644)
    yield [os.path.basename(p) for p in made], secret
    for p in made:
        os.unlink(p)


# What a sandboxed kernel finds in /etc: the allowlist and the generated passwd and group.
SANDBOX_ETC = "etc=alternatives,group,ld.so.cache,ld.so.conf,ld.so.conf.d,localtime,passwd"


def test_host_files_outside_the_allowlist_are_not_there(sbx, host_secret_files):
    """A kernel that looks at host files outside the allowlist (readable by any user on the
    host) finds nothing: no /srv or /home, no checkout beside the harness, no koptd
    configuration, and in /etc only what the allowlist names."""
    h, _ = sbx
    names, secret = host_secret_files
    r = h.request("load", reference_source=vector_add()[0], kernel_source=vector_add()[1], workdir="files",
                  correctness_cases=1)
    assert r["ok"], r
    r = h.request("validate", candidate_source=bad("read_host_files.py"))
    f = r["result"]["failure"]
    assert f["kind"] == "exception", f
    msg = f["message"]
    for key in ("srv", "home", "repo", "conf"):
        assert f"{key}=FileNotFoundError" in msg, msg
    out = r["kernel_output"]["text"]
    assert SANDBOX_ETC + "\n" in out, out[:2000]
    assert secret not in msg + out and not any(n in msg + out for n in names)
    # pid 1 of the sandbox's PID namespace is bwrap (root): its environment is not readable
    assert "env1=PermissionError" in msg, msg
