"""Writes a tuning database whose one record holds synthetic GPU model
samples (autoscheduler/GpuTerms.h) of TARGET measured on MACHINE, each
measured as the terms predict them under the scales given, of the GPU
models' version VERSION (default: kGpuModelVersion, autoscheduler/GpuTerms.h,
read from it):
synthetic_gpu_refit_db.py TO.json TARGET MACHINE COMPUTE MEMORY LATENCY [VERSION]."""
import json
import sys

target_path, target, machine = sys.argv[1], sys.argv[2], sys.argv[3]
compute, memory, latency = (float(a) for a in sys.argv[4:7])
def current_version():
    """kGpuModelVersion as autoscheduler/GpuTerms.h defines it."""
    import os
    import re
    header = os.path.join(os.path.dirname(__file__), "..", "..", "..",
                          "autoscheduler", "GpuTerms.h")
    match = re.search(r"kGpuModelVersion = (\d+);", open(header).read())
    return int(match.group(1))


version = int(sys.argv[7]) if len(sys.argv) > 7 else current_version()
samples = []
for i in range(12):
    # Two kinds of wave a program: one bound by compute, one by memory
    # (the last, partial wave), a round trip's floor, and fixed latencies.
    waves = [[3 + i % 4, 40 + 5 * i, 10 + i, 2, 1], [1, 4 + i, 25 + 3 * i, 2, 0]]
    fixed = 6 + i
    us = sum(n * (max(compute * c, memory * m, latency * f) + latency * a)
             for n, c, m, f, a in waves) + latency * fixed
    program = [fixed * 1000] + [[n, c * 1000, m * 1000, f * 1000, a * 1000]
                                for n, c, m, f, a in waves]
    samples.append([round(us * 1000), program])
record = {"kernel_hash": "0", "kernel": "synthetic", "target": target, "machine": machine,
          "sizes": {}, "schedule": {"programs": {}}, "measured_ns": 1, "baseline_ns": 1,
          "candidates": len(samples), "gpu_model": {"version": version, "samples": samples}}
json.dump({"version": 1, "records": [record]}, open(target_path, "w"))
