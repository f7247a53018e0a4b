"""Writes a tuning database whose one record holds synthetic CPU model
samples on the machine another database's first record names, each
measured as the model's terms predict them under the scales given, of
the model version FROM.json's record has unless VERSION is given:
synthetic_refit_db.py FROM.json TO.json COMPUTE MEMORY [VERSION]."""
import json
import sys

source, target, compute, memory = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
first = json.load(open(source))["records"][0]
version = int(sys.argv[5]) if len(sys.argv) > 5 else first["cpu_model"]["version"]
machine = first["machine"]
samples = []
for i in range(12):
    c, m, o, p = 100 + 10 * i, 10 + 20 * i, 1, 5 + i
    measured = max(compute * c, memory * m) + o + p
    samples.append([round(measured * 1000), [c * 1000, m * 1000, o * 1000, p * 1000]])
record = {"kernel_hash": "0", "kernel": "synthetic", "target": "cpu", "machine": machine,
          "sizes": {}, "schedule": {"programs": {}}, "measured_ns": 1, "baseline_ns": 1,
          "candidates": len(samples), "cpu_model": {"version": version, "samples": samples}}
json.dump({"version": 1, "records": [record]}, open(target, "w"))
