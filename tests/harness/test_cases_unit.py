"""Case building: NPUKernelBench case objects, seeds, sampling."""
import pytest
import torch

from kharness.cases import case_seed, inputs_from_case, sample_indices, seed_all
from kharness.protocol import HarnessError


def test_case_objects():
    case = {"inputs": [{"name": "x", "type": "tensor", "dtype": "float16", "shape": [2, 3]},
                       {"name": "idx", "type": "tensor", "dtype": "int32", "shape": [4], "range": [0, 2]},
                       {"name": "m", "type": "tensor", "dtype": "bool", "shape": [5]},
                       {"name": "xs", "type": "tensor_list", "dtype": "float32", "shapes": [[1], [2, 2]]},
                       {"name": "approximate", "type": "attr", "dtype": "str", "value": "none"}]}
    seed_all(1)
    x, idx, m, xs, approx = inputs_from_case(case)
    assert x.dtype == torch.float16 and x.shape == (2, 3)
    assert idx.dtype == torch.int32 and int(idx.max()) < 2
    assert m.dtype == torch.bool
    assert [t.shape for t in xs] == [(1,), (2, 2)]
    assert approx == "none"
    seed_all(1)
    x2 = inputs_from_case(case)[0]
    assert torch.equal(x, x2)                      # deterministic under the seed


def test_bad_case_objects():
    with pytest.raises(HarnessError):
        inputs_from_case({"inputs": [{"type": "tensor", "dtype": "float99", "shape": [1]}]})
    with pytest.raises(HarnessError):
        inputs_from_case({"inputs": [{"type": "tensor", "dtype": "float32", "shape": [-1]}]})
    with pytest.raises(HarnessError):
        inputs_from_case({"no": "inputs"})


def test_seeds_and_sampling():
    assert case_seed(0, 0) == 12345 and case_seed(0, 1) != case_seed(1, 0)
    s = sample_indices(50, 5, seed=7, salt=3)
    assert s == sorted(s) and len(set(s)) == 5 and s == sample_indices(50, 5, seed=7, salt=3)
    assert sample_indices(3, 5, 0, 0) == [0, 1, 2]
    assert sample_indices(10, "all", 0, 0) == list(range(10))
