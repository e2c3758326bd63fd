"""kopt device harness: a persistent JSON Lines process that loads, validates, times,
compiles and profiles Triton kernels for the kopt worker. See harness/PROTOCOL.md."""

HARNESS_VERSION = "0.1.0"
PROTOCOL_VERSION = 1
