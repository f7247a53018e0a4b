"""Tests of the nautilus package: run with the package on PYTHONPATH and
NAUTILUS_ROOT naming a build or install of Nautilus:

    NAUTILUS_ROOT=build PYTHONPATH=python_stub python3 -m unittest discover -s python_stub/tests

NAUTILUS_EXAMPLES may name the examples folder (default: ../../examples).
"""
import os
import tempfile
import unittest

import numpy as np

import nautilus

EXAMPLES = os.environ.get("NAUTILUS_EXAMPLES", os.path.join(
    os.path.dirname(__file__), "..", "..", "examples"))

SOFTMAX = """
kernel softmax(X: f32[R, C]) -> (Y: f32[R, C]) {
  Mx[r] = max[c](X[r, c])
  E[r, c] = exp(X[r, c] - Mx[r])
  L[r] = sum[c](E[r, c])
  Y[r, c] = E[r, c] / L[r]
}
"""


class CompileAndRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cache = tempfile.TemporaryDirectory()

    def test_source_text(self):
        program = nautilus.compile(SOFTMAX, cache_dir=self.cache.name)
        self.assertEqual(program.kernel, "softmax")
        self.assertEqual([(p.name, p.role) for p in program.params],
                         [("X", "input"), ("Y", "output")])
        x = np.random.default_rng(0).standard_normal((9, 33)).astype(np.float32)
        y = program.run(X=x)["Y"]
        e = np.exp(x - x.max(axis=1, keepdims=True))
        np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True),
                                   rtol=1e-5, atol=1e-7)

    def test_path_and_conversion(self):
        program = nautilus.compile(os.path.join(EXAMPLES, "gemm.tensor"),
                                   kernel="gemm", cache_dir=self.cache.name)
        rng = np.random.default_rng(1)
        a = rng.integers(-4, 5, (13, 21)).astype(np.float64)  # converted
        b = rng.integers(-4, 5, (21, 6)).astype(np.float16)
        c = program.run(A=a, B=b)["C"]
        self.assertEqual(c.dtype, np.float32)
        np.testing.assert_array_equal(c, a @ b.astype(np.float64))

    def test_second_compile_is_a_cache_hit(self):
        first = nautilus.compile(SOFTMAX.replace("softmax", "sm2"),
                                 cache_dir=self.cache.name)
        second = nautilus.compile(SOFTMAX.replace("softmax", "sm2"),
                                  cache_dir=self.cache.name)
        self.assertEqual(first.cache_hit, 0)
        self.assertEqual(second.cache_hit, 1)

    def test_ptx_and_explain(self):
        program = nautilus.compile(os.path.join(EXAMPLES, "attention.tensor"),
                                   kernel="attention", target="sm_90",
                                   shapes={"D": 64}, explain=True,
                                   cache_dir=self.cache.name)
        self.assertIn(".entry", program.ptx)
        self.assertIn("exp becomes exp2", program.explain())
        self.assertIsNone(nautilus.compile(SOFTMAX, cache=False).ptx)


    def test_emulator(self):
        program = nautilus.compile(os.path.join(EXAMPLES, "gemm.tensor"),
                                   kernel="gemm", target="sm_80",
                                   kernel_ir=True, cache=False)
        rng = np.random.default_rng(2)
        a = rng.integers(-4, 5, (24, 40)).astype(np.float16)
        b = rng.integers(-4, 5, (40, 16)).astype(np.float16)
        c = program.run(device="emu", A=a, B=b)["C"]
        np.testing.assert_array_equal(c, a.astype(np.float64) @ b)


class Errors(unittest.TestCase):
    def test_compile_error_is_the_diagnostic(self):
        with self.assertRaises(nautilus.CompileError) as raised:
            nautilus.compile("kernel k(X: f32[N]) -> (Y: f32[N]) {\n"
                             "  Y[n] = Z[n]\n}\n", cache=False)
        message = str(raised.exception)
        self.assertRegex(message, r"^<source>:2:\d+: error: ")

    def test_launch_errors_name_the_problem(self):
        program = nautilus.compile(SOFTMAX, cache=False)
        with self.assertRaises(nautilus.Error) as raised:
            program.run(Z=np.zeros((2, 2), np.float32))
        self.assertIn("no input Z", str(raised.exception))
        with self.assertRaises(nautilus.Error) as raised:
            program.run()
        self.assertIn("missing input 'X'", str(raised.exception))

    def test_scalars_as_numbers(self):
        program = nautilus.compile(
            "kernel axpy(X: f32[N], alpha: f32) -> (Y: f32[N]) {\n"
            "  Y[n] = alpha * X[n] + 1.0\n}\n", cache=False)
        x = np.arange(5, dtype=np.float32)
        np.testing.assert_allclose(program.run(X=x, alpha=2.5)["Y"],
                                   2.5 * x + 1)
        np.testing.assert_allclose(
            program.run(X=x, alpha=np.float64(-1))["Y"], 1 - x)

    def test_an_input_named_device(self):
        program = nautilus.compile(
            "kernel k(device: f32[N]) -> (Y: f32[N]) {\n"
            "  Y[n] = device[n] * 2.0\n}\n", cache=False)
        x = np.arange(4, dtype=np.float32)
        np.testing.assert_allclose(program.run_with({"device": x})["Y"], 2 * x)
        with self.assertRaises(nautilus.Error) as raised:
            program.run(device=x)
        self.assertIn("run_with", str(raised.exception))

    def test_a_diagnostic_that_is_not_utf8(self):
        # A file in Latin-1: the diagnostic quotes its line as it is.
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "latin1.tensor")
            with open(path, "wb") as f:
                f.write(b"kernel k(X: f32[N]) -> (Y: f32[N]) {\n"
                        b"  Y[n] = X[n] + \xe9\n}\n")
            with self.assertRaises(nautilus.CompileError) as raised:
                nautilus.compile(path, cache=False)
        self.assertIn("latin1.tensor:2:", str(raised.exception))

    def test_missing_file(self):
        with self.assertRaises(FileNotFoundError):
            nautilus.compile("no/such/file.tensor")

    def test_cuda_without_a_driver(self):
        program = nautilus.compile(SOFTMAX, target="sm_80", cache=False)
        try:
            program.run(device="cuda", X=np.zeros((2, 2), np.float32))
        except nautilus.Error as e:  # no GPU driver on this machine
            self.assertIn("libcuda.so.1", str(e))


if __name__ == "__main__":
    unittest.main()
