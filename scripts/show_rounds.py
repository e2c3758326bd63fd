"""Prints a job's round records (GET /v1/jobs/{id}/rounds JSON on stdin) one per line."""
import json
import sys

for r in json.load(sys.stdin)["rounds"]:
    t = r.get("timing") or {}
    verdict = "accepted" if r["accepted"] else "rejected: " + (r.get("reject_reason") or "")
    speed = " (%.2fx vs incumbent)" % t["speedup"] if t.get("speedup") else ""
    print("round %d: reached L%s, %s, %s%s" % (r["round"], r["level_reached"], r["rewrite_family"],
                                               verdict, speed))
    print("   " + (r.get("hypothesis") or "")[:200])
