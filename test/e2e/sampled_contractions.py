"""Tensor-core contractions compiled without their M and N under
`--schedule auto` (the schedule the contraction model ranks first over
sample shapes: docs/autoscheduler.md, "A contraction whose M or N is
unbound"), each compiled once for sm_80 and sm_90 through the Python
package and run on the SIMT emulator at several shapes (a single row, a
row short of a tile, ragged), against numpy; and a GEMM whose M the
model divides into launch ranges, each copy run. Integer-valued inputs:
the products are exact in f32.

usage: sampled_contractions.py (NAUTILUS_ROOT the build, PYTHONPATH the Python package)
"""
import sys

import numpy as np

import nautilus

SOURCE = """
kernel gemm(A: f16[M, K], B: f16[K, N]) -> (C: f32[M, N]) {
  C[m, n] = sum[k](A[m, k] * B[k, n])
}
kernel gemm_nt(A: f16[M, K], B: f16[N, K]) -> (C: f32[M, N]) {
  C[m, n] = sum[k](A[m, k] * B[n, k])
}
kernel bmm(A: f16[Z, M, K], B: f16[Z, K, N]) -> (C: f32[Z, M, N]) {
  C[z, m, n] = sum[k](A[z, m, k] * B[z, k, n])
}
"""
# kernel, its inputs' dims as sizes of the shape
KERNELS = [("gemm", {"A": ("M", "K"), "B": ("K", "N")}),
           ("gemm_nt", {"A": ("M", "K"), "B": ("N", "K")}),
           ("bmm", {"A": ("Z", "M", "K"), "B": ("Z", "K", "N")})]
SHAPES = [dict(Z=2, M=1, N=64, K=64), dict(Z=1, M=63, N=72, K=40),
          dict(Z=2, M=130, N=24, K=96), dict(Z=1, M=17, N=200, K=128)]


def reference(kernel, a, b):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if kernel == "gemm_nt":
        b64 = b64.T
    return np.matmul(a64, b64)


def check_launch_ranges():
    """A GEMM of bound N and K whose M the model divides into ranges (a
    copy a range, launched by M): each copy run, against numpy."""
    program = nautilus.compile(SOURCE, kernel="gemm", target="sm_90",
                               shapes={"N": 512, "K": 512}, schedule="auto",
                               kernel_ir=True, cache=False, explain=True)
    ranges = [line.split(":")[0].strip()
              for line in program.explain().splitlines()
              if line.startswith("    M ")]
    print(f"sm_90 gemm, N = K = 512: copies for {', '.join(ranges)}")
    rng = np.random.default_rng(11)
    failed = 0
    for m in (1, 100, 2048):
        a = rng.integers(-3, 4, (m, 512)).astype(np.float16)
        b = rng.integers(-3, 4, (512, 512)).astype(np.float16)
        c = program.run(device="emu", A=a, B=b)["C"]
        ok = np.array_equal(c.astype(np.float64), reference("gemm", a, b))
        failed += not ok
        print(f"  {'PASS' if ok else 'FAIL'} M={m}")
    return failed


def main():
    failed = 0
    for target in ("sm_80", "sm_90"):
        for kernel, dims in KERNELS:
            program = nautilus.compile(SOURCE, kernel=kernel, target=target,
                                       schedule="auto", kernel_ir=True,
                                       cache=False, explain=True)
            chosen = [line for line in program.explain().splitlines()
                      if line.startswith("  chosen:")]
            print(f"{target} {kernel}: {chosen[0].split(':')[1].strip()}")
            rng = np.random.default_rng(7)
            for shape in SHAPES:
                arrays = {name: rng.integers(-3, 4, tuple(shape[d] for d in
                                                          sizes))
                          .astype(np.float16)
                          for name, sizes in dims.items()}
                c = program.run(device="emu", **arrays)["C"]
                want = reference(kernel, arrays["A"], arrays["B"])
                ok = c.shape == want.shape and np.array_equal(
                    c.astype(np.float64), want)
                failed += not ok
                print(f"  {'PASS' if ok else 'FAIL'} {shape}")
    failed += check_launch_ranges()
    print(f"{'FAILED' if failed else 'all passed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
