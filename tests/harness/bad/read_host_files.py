"""Looks for secrets on the host: directories and files outside the sandbox's allowlist (the
tests plant world-readable files named kopt-test-secret-* in /srv and /etc), koptd's
configuration, the checkout the harness came from, and the environment of every process it
can name. It prints everything it found (the job's log) and puts the start of it in its
exception text (the job document). Under bubblewrap /srv, /home and the checkout are simply
not there (FileNotFoundError), /etc holds only the allowlisted entries, and the environments
it can read hold no secret."""
import os
import sys

import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask)
    b = tl.load(b_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, a + b, mask=mask)


def _try(path, n=48):
    try:
        with open(path, "rb") as f:
            return "read:" + f.read(n).decode("utf-8", "replace").replace("\0", " ")
    except OSError as e:
        return type(e).__name__


def _list(path):
    try:
        return ",".join(sorted(os.listdir(path)))
    except OSError as e:
        return type(e).__name__


def _ancestors():
    """Pids from this process up to what /proc lets it see."""
    pids, pid = [], os.getpid()
    while pid > 0 and len(pids) < 16:
        pids.append(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


class ModelNew(nn.Module):
    def forward(self, a, b):
        out = torch.empty_like(a)
        n = a.numel()
        add_kernel[(triton.cdiv(n, 1024),)](a, b, out, n, BLOCK_SIZE=1024)
        harness = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["kharness"].__file__)))
        found = [f"srv={_list('/srv')}", f"home={_list('/home')}",
                 f"repo={_try(os.path.join(os.path.dirname(harness), 'README.md'))}",
                 f"conf={_try('/etc/kopt/koptd.conf')}", f"env1={_try('/proc/1/environ', 8192)}",
                 f"etc={_list('/etc')}"]
        found += [f"env{p}={_try(f'/proc/{p}/environ', 8192)}" for p in _ancestors()]
        print("\n".join(found))
        raise ValueError(" ".join(found))
