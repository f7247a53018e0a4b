"""exp2 and exp on a device, over their whole f32 range, against numpy.

exp2 (the CPU's polynomial, an emulated GPU's instruction) must be within 2
units in the last place wherever the result is a normal number, 0 below
2^-126 (flushed, as math's exp approximation does), and inf from 128 on.
exp, which alg-exp-to-exp2 evaluates as exp2(x log2 e), is allowed what
rounding the argument x log2 e costs besides: |x| 2^-23 relative.

usage: exp2_accuracy.py NAUTC TENSOR_FILE WORK_DIR [nautc run options...]
"""
import os
import subprocess
import sys

import numpy as np

nautc, source, work = sys.argv[1:4]
device = sys.argv[4:]
os.makedirs(work, exist_ok=True)

xs = np.concatenate([
    np.linspace(-130.0, 130.0, 20001),
    np.linspace(-1.0, 1.0, 2001),
    [0.0, -0.0, 127.99, 128.0, 200.0, -126.0, -125.9, -126.5, -127.0,
     -150.0, np.inf, -np.inf, np.nan],
]).astype(np.float32)
np.save(os.path.join(work, "x.npy"), xs)
failures = 0
for kernel in ("exp2_f32", "exp_f32"):
    out = os.path.join(work, kernel)
    subprocess.run([nautc, "run", source, "-k", kernel, "--shape",
                    f"N={xs.size}", "--input", f"X={os.path.join(work, 'x.npy')}",
                    "--save", out] + device, check=True, stdout=subprocess.DEVNULL)
    y = np.load(os.path.join(out, "Y.npy")).astype(np.float64)
    x = xs.astype(np.float64)
    base = x if kernel == "exp2_f32" else x * np.log2(np.e)
    exact = np.exp2(base)
    normal = np.isfinite(base) & (exact >= 2.0**-126) & (exact < 2.0**128)
    ulp = np.spacing(exact[normal].astype(np.float32)).astype(np.float64)
    error = np.abs(y[normal] - exact[normal]) / ulp
    allowed = 2.0 if kernel == "exp2_f32" else 2.0 + np.abs(x[normal]) * 2.0**-23 * exact[normal] / ulp
    bad = error > allowed
    tiny = np.isfinite(base) & (exact < 2.0**-126)
    bad_tiny = np.abs(y[tiny]) > 2.0**-126
    huge = (base >= 128) & ~np.isnan(base)
    bad_huge = ~np.isposinf(y[huge])
    bad_nan = ~np.isnan(y[np.isnan(base)])
    bad_inf = y[np.isneginf(base)] != 0
    count = bad.sum() + bad_tiny.sum() + bad_huge.sum() + bad_nan.sum() + bad_inf.sum()
    print(f"{kernel}: worst {error.max():.2f} ulp over {normal.sum()} normal results, "
          f"{count} out of bounds")
    if count:
        failures += 1
        for i in np.flatnonzero(normal)[bad][:5]:
            print(f"  x = {x[i]!r}: {y[i]!r}, expected {exact[i]!r}")
print("PASS" if not failures else "FAIL")
