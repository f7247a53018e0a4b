"""Row streams folded along their reduced lanes on the CPU, each against the
reference interpreter (`nautc run --check`): every stream of
reduction-chains.tensor that folds, its stream program's tile forced to 1,
4 and 8 rows, and split across programs (split-KV: each chunk of a row's
keys folded so, the chunks then combined) 2 ways at 8 rows and 3 ways at
4, at five shapes.

usage: reduced_lanes_streams.py NAUTC CHAINS.tensor WORKDIR
"""
import json
import os
import subprocess
import sys

# kernel, its stream program
STREAMS = [
    ("softmax", "softmax_L"), ("log_softmax", "log_softmax_L"),
    ("logsumexp", "logsumexp_Y"), ("cross_entropy", "cross_entropy_Loss"),
    ("min_leader", "min_leader_Y"), ("exp2_tempered", "exp2_tempered_Y"),
    ("two_softmaxes", "two_softmaxes_Y"), ("size_scaled", "size_scaled_Y"),
    ("variance", "variance_Var"), ("shifted_square", "shifted_square_Y"),
    ("mean_product", "mean_product_Y"),
    ("relative_variance", "relative_variance_Y"),
    ("variance_bf16", "variance_bf16_Var"),
]
# (rows of the stream's tile, the chunks its keys are split into)
SCHEDULES = [(1, 1), (4, 1), (8, 1), (8, 2), (4, 3)]
# fewer keys than a step (64), a whole step and one more key, ragged rows
SHAPES = ["R=3,C=5", "R=9,C=64", "R=13,C=65", "R=37,C=101", "R=5,C=1001"]


def main():
    nautc, chains, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    passed = 0
    for kernel, program in STREAMS:
        for rows, split in SCHEDULES:
            path = os.path.join(work, f"{program}.{rows}.{split}.json")
            split_text = f", reduce_split = {split}" if split > 1 else ""
            with open(path, "w") as f:
                json.dump({"programs": {program: "#tile.schedule<tile = "
                                        f"[{rows}], threads = 1"
                                        f"{split_text}>"}}, f)
            for shape in SHAPES:
                out = subprocess.run(
                    [nautc, "run", chains, "-k", kernel, "--shape", shape,
                     "--schedule", path, "--check"],
                    capture_output=True, text=True)
                lines = (out.stdout + out.stderr).splitlines()
                if out.returncode == 0 and "PASS" in lines:
                    passed += 1
                else:
                    print(f"FAIL {kernel} tile [{rows}] split {split} "
                          f"{shape}:")
                    print("\n".join(lines[-4:]))
    print(f"{passed} passed")


if __name__ == "__main__":
    main()
