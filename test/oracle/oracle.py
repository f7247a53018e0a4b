#!/usr/bin/env python3
"""Evaluates a kernel of a .tensor file with numpy, independently of nautc.

usage: oracle.py FILE.tensor [-k KERNEL] [--shape M=5,N=7]
                 [--input NAME=PATH.npy ...] [--seed N] [--save DIR]
                 [--save-inputs DIR] [--arithmetic typed|f64]

Every input must be given with --input, unless --seed is given: then the
missing ones are drawn at random (see tensorlang/inputs.py). Sizes come
from --shape and the shapes of the given inputs. --save DIR writes each
output as DIR/NAME.npy (float64 for float dtypes, int64 for integer and
bool dtypes), and for an output with undefined elements (out-of-range
reads) the mask of those as DIR/NAME.undefined.npy. Without --save, a line
per output is printed.

Exit status: 0 success, 1 an error in the file, its sizes or its inputs
(FILE:LINE:COL: error: ... or oracle: error: ...), 2 bad usage, 3 a bug of
the oracle.
"""
import argparse
import os
import sys
import traceback

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tensorlang import (OracleError, bind_sizes, evaluate, load,  # noqa: E402
                        random_inputs, to_dtype)
from tensorlang.dtypes import FLOATS  # noqa: E402
from tensorlang.program import UsageError  # noqa: E402


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def parse_shape(text):
    sizes = {}
    for item in filter(None, text.split(",")):
        name, eq, value = item.partition("=")
        try:
            sizes[name.strip()] = int(value)
        except ValueError:
            eq = ""
        if not eq or not name.strip():
            raise UsageError(f"--shape: expected NAME=INTEGER, found '{item}'")
        if not 1 <= sizes[name.strip()] <= 2 ** 63 - 1:
            raise UsageError(f"--shape: {item} is out of range [1, 2^63-1]")
    return sizes


def parse_inputs(items):
    paths = {}
    for item in items:
        name, eq, path = item.partition("=")
        if not eq or not name or not path:
            raise UsageError(f"--input: expected NAME=PATH.npy, found '{item}'")
        paths[name] = path
    return paths


def read_inputs(kernel, paths):
    names = {t.name for t in kernel.inputs}
    arrays = {}
    for name, path in paths.items():
        if name not in names:
            raise OracleError(f"--input names '{name}', which is not an input of kernel "
                              f"'{kernel.name}' (its inputs: {', '.join(sorted(names)) or 'none'})")
        try:
            arrays[name] = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as error:
            raise OracleError(f"cannot read {path}: {error}")
    return arrays


def stored(data, dtype):
    """An output as saved: float64 for floats, int64 for integers and bools."""
    return np.asarray(data, dtype=np.float64 if dtype in FLOATS else np.int64)


def run(argv):
    parser = ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("file")
    parser.add_argument("-k", "--kernel")
    parser.add_argument("--shape", default="")
    parser.add_argument("--input", action="append", default=[], metavar="NAME=PATH.npy")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--save")
    parser.add_argument("--save-inputs")
    parser.add_argument("--arithmetic", choices=("typed", "f64"), default="typed",
                        help="typed: each operation rounded to its dtype (default); "
                             "f64: floats rounded only by casts, inputs and outputs")
    args = parser.parse_args(argv)
    shape = parse_shape(args.shape)
    paths = parse_inputs(args.input)

    kernel = load(args.file).kernel(args.kernel)
    arrays = read_inputs(kernel, paths)
    sizes = bind_sizes(kernel, shape, arrays)
    inputs = {t.name: to_dtype(t.name, arrays[t.name], t.dtype)
              for t in kernel.inputs if t.name in arrays}
    missing = [t.name for t in kernel.inputs if t.name not in inputs]
    if missing and args.seed is None:
        raise OracleError(f"input '{missing[0]}' is not given: pass --input {missing[0]}=PATH.npy, "
                          f"or --seed N to draw the missing inputs at random")
    if missing:
        inputs.update(random_inputs(kernel, sizes, args.seed, given=inputs))
    if args.save_inputs:
        os.makedirs(args.save_inputs, exist_ok=True)
        for tensor in kernel.inputs:
            np.save(os.path.join(args.save_inputs, tensor.name + ".npy"),
                    stored(inputs[tensor.name], tensor.dtype))

    outputs = evaluate(kernel, sizes, inputs, args.arithmetic)

    if args.save:
        os.makedirs(args.save, exist_ok=True)
    for tensor in kernel.outputs:
        result = outputs[tensor.name]
        if args.save:
            np.save(os.path.join(args.save, tensor.name + ".npy"), stored(result.data, tensor.dtype))
        else:
            print(f"{tensor.name}: {tensor.dtype}{list(result.data.shape)}")
        if result.undefined is not None:
            first = [int(i) for i in np.argwhere(result.undefined)[0]]
            print(f"oracle: warning: {int(result.undefined.sum())} elements of output "
                  f"'{tensor.name}' are undefined (they read out of range or convert a float "
                  f"out of an integer's range), the first at {first}", file=sys.stderr)
            if args.save:
                np.save(os.path.join(args.save, tensor.name + ".undefined.npy"), result.undefined)
    return 0


def main(argv=None):
    sys.setrecursionlimit(20000)
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except UsageError as error:
        print(f"oracle: {error}", file=sys.stderr)
        return 2
    except OracleError as error:
        print(error.render(), file=sys.stderr)
        return 1
    except Exception:
        print("oracle: internal error (a bug of the oracle, not of the input):", file=sys.stderr)
        traceback.print_exc()
        return 3


if __name__ == "__main__":
    sys.exit(main())
