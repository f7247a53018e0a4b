"""Writes run_gemms.py's rows (.jsonl) for every bundle of a tuning plan
(bench/gpu/tuning.py prepare's), as if measured on an H200: each
assignment 1.5x its predicted time, less 10% for each place it comes
after the first in its case's plan (the last planned the fastest), as
three timings a row: synthetic_tuning_rows.py PLAN ROWS.jsonl."""
import json
import sys

plan = json.load(open(sys.argv[1]))
device = {"name": "NVIDIA H200", "capability": [9, 0], "multiprocessors": 132, "driver": "13.0"}
with open(sys.argv[2], "w") as out:
    for case in plan["cases"]:
        for i, a in enumerate(case["assignments"]):
            seconds = 1.5e-6 * a["predicted_us"] * (1 - 0.1 * i)
            row = {"bundle": a["bundle"], "ok": True, "seconds": {"nautc": seconds},
                   "samples": {"nautc": [seconds * 0.99, seconds, seconds * 1.02]},
                   "device": device}
            out.write(json.dumps(row) + "\n")
