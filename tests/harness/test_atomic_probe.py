"""bench/gpu/atomic_probe.py without a GPU: under the interpreter every variant runs once and
the kernel, at both orderings and with ids spread or gathered on 64 rows, is checked against
index_add_; a kernel adding into the wrong row fails that check. What it measures needs the
GPU."""
import sys

import pytest
import torch
from conftest import GPU_DIR, run_probe

sys.path.insert(0, GPU_DIR)
import atomic_probe as ap


def test_interpreter_run_checks_every_launch():
    p = run_probe("atomic_probe.py")
    assert p.returncode == 0, p.stderr[-2000:]
    assert "interpreter: 8 variants ran, 4 launches checked against PyTorch" in p.stdout


def test_check_catches_a_wrong_sum():
    ids = torch.tensor([0, 1, 1])
    src = torch.ones(3, ap.D)
    wrong = torch.zeros(ap.V, ap.D).index_add_(0, torch.tensor([0, 1, 2]), src)
    with pytest.raises(AssertionError, match="wrong"):
        ap._check("wrong", wrong, ids, src)
