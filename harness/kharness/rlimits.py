"""The worker's rlimits (RLIMIT_AS, RLIMIT_CPU, ... chosen by the supervisor's options).

The supervisor passes them on the worker's command line (`--rlimit=NAME=VALUE`) and the
worker applies them to itself first thing in worker.main, before torch, Triton or any user
code is imported. (Not a preexec_fn in the supervisor: that runs Python in the forked child,
which is unsafe in a process with threads, and the supervisor has them.)"""
from __future__ import annotations

import argparse
import resource

ARG = "--rlimit"


def format_args(limits: dict[str, int | None]) -> list[str]:
    """Command-line arguments for the limits that are set (None: inherited)."""
    return [f"{ARG}={name}={val}" for name, val in limits.items() if val is not None]


def parse_arg(text: str) -> tuple[str, int]:
    """argparse type of --rlimit: NAME=VALUE with NAME a resource.RLIMIT_* and VALUE >= 0."""
    name, sep, value = text.partition("=")
    if not sep or not name.startswith("RLIMIT_") or not hasattr(resource, name):
        raise argparse.ArgumentTypeError(f"--rlimit must be RLIMIT_<NAME>=<value>, got {text!r}")
    try:
        v = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--rlimit {name}: value must be an integer, got {value!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"--rlimit {name}: value must be >= 0, got {v}")
    return name, v


def apply(limits: list[tuple[str, int]]) -> list[str]:
    """Set each limit in this process: soft = the value (at most the hard limit); the hard
    limit drops to the value too when it was unlimited. Returns one message per limit that
    could not be set (the caller logs them)."""
    failed = []
    for name, val in limits:
        rl = getattr(resource, name)
        try:
            _soft, hard = resource.getrlimit(rl)
            v = val if hard == resource.RLIM_INFINITY else min(val, hard)
            resource.setrlimit(rl, (v, v if hard == resource.RLIM_INFINITY else hard))
        except (ValueError, OSError) as e:
            failed.append(f"could not set {name} to {val}: {e}")
    return failed
