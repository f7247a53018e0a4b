"""A packed CPU GEMM compiled without its K under `--schedule auto`: the
model folds K in blocks (`reduce_block`, docs/autoscheduler.md, "Blocking
K") whatever K the bundle is launched at, and the kernel runs at K from
one to several blocks and a ragged last one, against numpy.
Integer-valued inputs: the products and sums are exact in f32.

usage: blocked_k_unbound.py GEMM_F32.tensor (bench/kernels/gemm_f32.tensor; NAUTILUS_ROOT
the build, PYTHONPATH the Python package)
"""
import re
import sys

import numpy as np

import nautilus


def main():
    kernel = nautilus.compile(sys.argv[1], kernel="gemm_f32",
                              shapes={"M": 1024, "N": 1024}, cache=False,
                              explain=True)
    blocks = re.findall(r"chosen: +[0-9x]+ packed in k blocks of (\d+)",
                        kernel.explain())
    if not blocks:
        print("FAIL: K unbound at M = N = 1024: no reduce_block chosen")
        return 1
    block = int(blocks[0])
    print(f"gemm_f32, M = N = 1024, K unbound: reduce_block = {block}")
    rng = np.random.default_rng(0)
    failed = 0
    for k in (1, 100, block, block + 1, 2 * block + 37):
        a = rng.integers(-3, 4, size=(1024, k)).astype(np.float32)
        b = rng.integers(-3, 4, size=(k, 1024)).astype(np.float32)
        got = kernel.run(A=a, B=b)["C"]
        ok = np.array_equal(got, a @ b)
        failed += not ok
        print(f"K = {k}: {'PASS' if ok else 'FAIL'}")
    print("all passed" if not failed else f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
