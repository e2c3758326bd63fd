"""Hangs at import: the module sleeps for a day before it defines anything. Only the load's
time limit ends it (the harness is killed and replaced)."""
import time

time.sleep(24 * 3600)
