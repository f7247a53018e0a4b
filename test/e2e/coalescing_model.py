"""The GPU model's coalescing term against the emulator's profile: for
candidates of programs that each load one tensor (coalescing.tensor), the
32-byte sectors a warp load touches, as `--explain-candidates all` prints
the model's count (read from the program's layout), must equal the
emulator's (`nautc run --device emu --profile`: the load requests' sectors
over their number) when that schedule runs.

Each case's candidates are sampled evenly (every one where fewer than
SAMPLES), splits left out (their second program loads the partials).
The model's count is a mean over sampled instructions of the grid's kinds
of programs (inside the tensor, and cut by its edges).

usage: coalescing_model.py NAUTC COALESCING.tensor WORKDIR
"""
import json
import os
import re
import subprocess
import sys

# kernel, shape, tolerance. Where every tile lies inside the tensor the
# counts agree to 2%; where the tensor's edges cut tiles (ragged shapes),
# the model's sample (8 of a program's warps) weighs the warps the edge
# cuts only roughly, and they agree to 12%.
# Rows not a whole number of runs load element by element, a request an
# element (`a run in N loads`).
CASES = [
    ("narrow_f16", "R=1024,C=4", 0.02),   # rows of 8 bytes: across rows
    ("rows_f32", "R=256,C=100", 0.02),    # rows of 400 bytes: masked lanes
    ("rows_f32", "R=37,C=64", 0.12),      # ragged rows: the last tiles cut
    ("rows_f32", "R=37,C=37", 0.12),      # rows of 148 bytes: no vectors
    ("row_sum", "R=256,C=4096", 0.02),    # groups of threads along a row
    ("row_sum", "R=256,C=100", 0.02),     # a row shorter than a group's reach
    ("row_sum", "R=37,C=4096", 0.12),     # ragged rows, clamped
    ("row_sum", "R=37,C=1001", 0.12),     # misaligned rows
    ("column_sum", "R=512,C=256", 0.02),  # interleaved groups
    ("column_sum", "R=300,C=64", 0.12),   # ragged reduced columns
]
SAMPLES = 12

CANDIDATE = re.compile(
    r"^\s*(?:chosen|runner-up):\s+(.*?): .*, ([0-9.]+) sectors a warp load"
    r"(?: \(fewest [0-9.]+\))?(?:, a run in [0-9.]+ loads)?\) = "
    r"(#tile\.schedule<.*>)$")
PROFILE = re.compile(
    r"profile: (\S+): global loads (\d+) requests, (\d+) sectors")


def model_candidates(nautc, tensor, kernel, shape):
    out = subprocess.run(
        [nautc, "compile", tensor, "-k", kernel, "--target", "sm_80",
         "--shape", shape, "--schedule", "auto", "--explain",
         "--explain-candidates", "all", "-o", os.devnull],
        capture_output=True, text=True, check=True)
    found = []
    for line in out.stdout.splitlines():
        m = CANDIDATE.match(line)
        if m and "split" not in m.group(1):
            found.append((m.group(1), float(m.group(2)), m.group(3)))
    return found


def emulated_sectors(nautc, tensor, kernel, shape, program, schedule, path):
    with open(path, "w") as f:
        json.dump({"programs": {program: schedule}}, f)
    out = subprocess.run(
        [nautc, "run", tensor, "-k", kernel, "--device", "emu", "--target",
         "sm_80", "--shape", shape, "--schedule", path, "--profile"],
        capture_output=True, text=True)
    for line in (out.stdout + out.stderr).splitlines():
        m = PROFILE.search(line)
        if m and m.group(1) == program:
            return int(m.group(3)) / int(m.group(2))
    raise RuntimeError(f"no load profile of {program}:\n{out.stderr}")


def main():
    nautc, tensor, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    compared = failed = 0
    for kernel, shape, tolerance in CASES:
        candidates = model_candidates(nautc, tensor, kernel, shape)
        if not candidates:
            print(f"FAIL {kernel} {shape}: the model listed no candidate")
            failed += 1
            continue
        step = max(1, len(candidates) // SAMPLES)
        for described, model, schedule in candidates[::step][:SAMPLES]:
            program = kernel + ("_S" if "sum" in kernel else "_Y")
            path = os.path.join(work, f"{kernel}.{compared}.json")
            measured = emulated_sectors(nautc, tensor, kernel, shape,
                                        program, schedule, path)
            compared += 1
            if abs(measured - model) > 0.05 + tolerance * measured:
                failed += 1
                print(f"FAIL {kernel} {shape} {described}: model {model} "
                      f"sectors a warp load, emulator {measured:.2f}")
    print(f"{compared} compared, {failed} failed")


if __name__ == "__main__":
    main()
