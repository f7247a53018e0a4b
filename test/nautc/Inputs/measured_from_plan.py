"""Writes a `nautc tune --measured` file from a `nautc tune --plan` file,
as if measured on MACHINE: the i-th planned assignment takes 100 - 10 i
microseconds (the last planned the fastest), its times 0.99, 1 and 1.02
of that, the plan's kernel, target and sizes stated; with --without-heuristics the first (the heuristics') is left
out: measured_from_plan.py PLAN OUT MACHINE [--without-heuristics]."""
import json
import sys

plan = json.load(open(sys.argv[1]))
skip = 1 if "--without-heuristics" in sys.argv[4:] else 0
measurements = [{"schedule": a["schedule"], "us": [us * 0.99, us, us * 1.02]}
                for i, a in enumerate(plan["assignments"]) if i >= skip
                for us in [100.0 - 10 * i]]
json.dump({"machine": sys.argv[3], "kernel": plan["kernel"], "target": plan["target"],
           "sizes": plan["sizes"], "measurements": measurements}, open(sys.argv[2], "w"))
