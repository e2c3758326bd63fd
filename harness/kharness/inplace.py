"""Operators that update their inputs in place: an optimizer step, a cache written where it
lies. A reference whose forward changes some of its inputs defines them as results (DESIGN
section 7's contract is otherwise that inputs stay as they were): the candidate must change
those inputs as the reference does, judged as outputs are (the rounding budget of each
element, from the float64 reference's updated inputs), may return them, and must still leave
every other input as it was. Which inputs are updated is found once, at load, by running the
reference on a copy of the probe case's inputs.

Timing runs a kernel many times on the same inputs, so an in-place kernel is timed on
inputs it keeps updating, as it would be in a training loop."""
from __future__ import annotations

from typing import Any

from .correctness import flatten_outputs, input_change


def updated_inputs(after: list[Any], pristine: list[Any]) -> list[int]:
    """Indices of the inputs a run changed (same comparison as the mutated-input check)."""
    return [k for k, (a, p) in enumerate(zip(after, pristine)) if input_change(a, p) is not None]


def with_updated(out: Any, inputs: list[Any], updated: list[int]) -> Any:
    """What is judged of one run: its outputs, then each input it updates, as the run left it
    (the outputs alone when it updates none)."""
    return (out, *[inputs[k] for k in updated]) if updated else out


def result_names(out: Any, inputs: list[Any], updated: list[int]) -> list[str]:
    """A name for each leaf of ``with_updated(out, inputs, updated)``, for messages."""
    names = [f"output {k}" for k in range(len(flatten_outputs(out)))]
    for k in updated:
        names += [f"input {k} (updated in place)"] * len(flatten_outputs(inputs[k]))
    return names
