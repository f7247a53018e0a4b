"""PTX helpers shared by the benchmarks: finding ptxas, reading its -v
report, and the instruction mix of a kernel's main loop."""
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile


def find_ptxas():
    """Every ptxas found, best first: the CUDA toolkit's, one on PATH, then
    Triton's bundled ones (located without importing Triton, so that the
    import can be timed). Triton may emit a PTX ISA newer than the toolkit's
    ptxas reads; ptxas_usage then falls through to Triton's own."""
    cands = [os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas"),
             "/usr/local/cuda/bin/ptxas", shutil.which("ptxas")]
    try:
        spec = importlib.util.find_spec("triton")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        tdir = os.path.join(list(spec.submodule_search_locations)[0], "backends", "nvidia", "bin")
        cands += [os.path.join(tdir, "ptxas-blackwell"), os.path.join(tdir, "ptxas")]
    found = []
    for c in cands:
        if c and os.access(c, os.X_OK) and os.path.realpath(c) not in map(os.path.realpath, found):
            found.append(c)
    return found


def assemble(ptxas_list, ptx_text, arch):
    """(ptxas -v's report, the ptxas that assembled the PTX, the cubin's
    bytes) with the first ptxas of the list that can, or (the errors, None,
    None)."""
    if not ptxas_list:
        return "no ptxas found", None, None
    errors = []
    for ptxas in ptxas_list:
        with tempfile.TemporaryDirectory(prefix="ptxas_") as d:
            src, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
            with open(src, "w") as f:
                f.write(ptx_text)
            p = subprocess.run([ptxas, "-v", f"--gpu-name={arch}", src, "-o", cubin],
                               capture_output=True, text=True)
            if p.returncode == 0:
                with open(cubin, "rb") as f:
                    return p.stdout + p.stderr, ptxas, f.read()
        lines = (p.stderr or p.stdout).strip().splitlines()
        errors.append(f"{ptxas}: {lines[0] if lines else 'failed'}")
    return "; ".join(errors), None, None


def run_ptxas(ptxas_list, ptx_text, arch):
    """(ptxas -v's report, the ptxas that assembled the PTX) with the first
    ptxas of the list that can, or (the errors, None)."""
    report, ptxas, _ = assemble(ptxas_list, ptx_text, arch)
    return report, ptxas


def parse_report(report):
    """{kernel: {"registers", "spill_stores", "spill_loads", "spill_bytes",
    "static_shared"}} from a ptxas -v report."""
    out, cur = {}, None
    for line in report.splitlines():
        m = re.search(r"Compiling entry function '(\S+)'|Function properties for (\S+)", line)
        if m:
            cur = m.group(1) or m.group(2)
            out.setdefault(cur, {"registers": 0, "spill_stores": 0, "spill_loads": 0,
                                 "static_shared": 0})
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur:
            out[cur]["spill_stores"], out[cur]["spill_loads"] = int(m.group(1)), int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            out[cur]["registers"] = int(m.group(1))
            m2 = re.search(r"(\d+) bytes smem", line)
            out[cur]["static_shared"] = int(m2.group(1)) if m2 else 0
    for k in out.values():
        k["spill_bytes"] = k["spill_stores"] + k["spill_loads"]
    return out


def ptxas_report(ptxas_list, ptx_text, arch):
    """parse_report of the PTX assembled for `arch`, or an error string."""
    report, ptxas = run_ptxas(ptxas_list, ptx_text, arch)
    return report if ptxas is None else parse_report(report)


def ptxas_usage(ptxas_list, ptx_text, arch="sm_90a"):
    """({kernel: (registers, spill_store_bytes, spill_load_bytes)}, ptxas used),
    or (error string, None)."""
    report, ptxas = run_ptxas(ptxas_list, ptx_text, arch)
    if ptxas is None:
        return report, None
    return {k: (v["registers"], v["spill_stores"], v["spill_loads"])
            for k, v in parse_report(report).items()}, ptxas


# The instructions a GEMM main loop is made of.
MIX = [("mma", r"\bmma\.sync\."), ("wgmma", r"\bwgmma\.mma_async\."),
       ("ldmatrix", r"\bldmatrix\."), ("cp.async", r"\bcp\.async\.(?:ca|cg)\."),
       ("tma", r"\bcp\.async\.bulk\.tensor\."), ("mbarrier", r"\bmbarrier\."),
       ("ld.shared", r"\bld\.shared\."), ("st.shared", r"\bst\.shared\."),
       ("ld.global", r"\bld\.global\."), ("bar.sync", r"\bbar(?:rier)?\.sync\b"),
       ("all", r"^\s*(?:@%?!?\w+\s+)?[a-z]")]


def innermost_loop(lines, label_pattern, branch_pattern, holds):
    """The smallest span of `lines` from a label (`label_pattern`'s group 1)
    to a backward branch to it (`branch_pattern`'s group 1) with a line for
    which `holds` is true; None if there is none."""
    labels = {}
    for i, line in enumerate(lines):
        m = re.match(label_pattern, line.strip())
        if m:
            labels[m.group(1)] = i
    best = None
    for i, line in enumerate(lines):
        m = re.search(branch_pattern, line)
        if not m or m.group(1) not in labels or labels[m.group(1)] >= i:
            continue
        body = lines[labels[m.group(1)]:i + 1]
        if any(holds(l) for l in body) and (best is None or len(body) < len(best)):
            best = body
    return best


def main_loop_mix(ptx_text):
    """The instruction counts of the innermost loop that holds the tensor-core
    instructions: the text between a label and the last backward branch to
    it, the smallest such span containing an mma or wgmma."""
    best = innermost_loop(
        ptx_text.splitlines(), r"^(\$L__\w+):", r"\bbra(?:\.uni)?\s+(\$L__\w+);",
        lambda l: re.search(r"\b(?:mma\.sync|wgmma\.mma_async)\.", l))
    if best is None:
        return None
    counts = {}
    for name, pattern in MIX:
        counts[name] = sum(1 for l in best if re.search(pattern, l) and not l.strip().startswith("//"))
    return counts


# ---------------------------------------------------------------------------
# SASS: what ptxas made of the PTX, read with nvdisasm.

def find_nvdisasm():
    """nvdisasm from the CUDA toolkit, PATH, NVIDIA's wheel on PyPI
    (`pip install nvidia-cuda-nvdisasm`, which installs it under the
    `nvidia` namespace package) or Triton's bundled tools; None if none."""
    cands = [os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvdisasm"),
             shutil.which("nvdisasm")]
    for package, sub in (("nvidia", ("cu13", "bin")), ("nvidia", ("cuda_nvdisasm", "bin")),
                         ("triton", ("backends", "nvidia", "bin"))):
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.submodule_search_locations:
            for root in spec.submodule_search_locations:
                cands.append(os.path.join(root, *sub, "nvdisasm"))
    for c in cands:
        if c and os.access(c, os.X_OK):
            return c
    return None


def disassemble(nvdisasm, cubin):
    """The SASS of a cubin (bytes) as nvdisasm prints it."""
    with tempfile.TemporaryDirectory(prefix="nvdisasm_") as d:
        path = os.path.join(d, "k.cubin")
        with open(path, "wb") as f:
            f.write(cubin)
        return subprocess.run([nvdisasm, path], capture_output=True, text=True,
                              check=True).stdout


# The SASS a GEMM main loop is made of: tensor-core instructions (HMMA on
# sm_80, HGMMA on sm_90), operand loads from shared memory (LDSM), copies
# (LDGSTS is cp.async, UTMALDG a TMA load), mbarrier operations (SYNCS),
# plain shared and global memory, and the waits (BAR, DEPBAR, and
# WARPGROUP.* around wgmma).
SASS_MIX = ["HMMA", "HGMMA", "LDSM", "LDGSTS", "UTMALDG", "SYNCS", "LDS", "STS",
            "LDG", "STG", "BAR", "DEPBAR", "WARPGROUP", "all"]

_SASS_INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)(\S*)")


def _sass_opcode(line):
    """(opcode, modifiers) of an instruction line of nvdisasm's output, or None."""
    m = _SASS_INSTRUCTION.match(line)
    return (m.group(1), m.group(2)) if m else None


def sass_mix(lines):
    """Counts of SASS_MIX over instruction lines (NOPs and never-run
    `@!PT` instructions left out), and "work": the tensor-core products a
    warp issues, in m16n8k16 products (an HGMMA.64x256x16 is 32 of them a
    warp)."""
    counts = dict.fromkeys(SASS_MIX + ["work"], 0)
    for line in lines:
        op = _sass_opcode(line)
        # `@!PT` never runs: ptxas pads cp.async with such dummy loads.
        if op is None or op[0] == "NOP" or re.search(r"@!PT\s", line):
            continue
        counts["all"] += 1
        name = op[0]
        shape = re.match(r"\.(\d+)x(\d+)x(\d+)", op[1]) if name == "HGMMA" else None
        if name == "HMMA":
            # HMMA.16816 (m16n8k16), HMMA.1688 (m16n8k8): a warp's product.
            counts["work"] += 0.5 if op[1].startswith(".1688.") else 1
        elif shape:
            # HGMMA.64xNxK: a warpgroup's product, a quarter a warp.
            m, n, k = map(int, shape.groups())
            counts["work"] += m * n * k / 4 / (16 * 8 * 16)
        if name == "WARPGROUP" and op[1].startswith(".DEPBAR"):
            counts["DEPBAR"] += 1
        if name in counts and name != "all":
            counts[name] += 1
    return counts


def sass_main_loop(sass_text):
    """The instruction lines of the innermost SASS loop holding tensor-core
    instructions: the smallest span from a label to a backward branch to it
    that contains an HMMA or HGMMA; None if there is none."""
    return innermost_loop(
        sass_text.splitlines(), r"^(\.L_x_\d+):", r"\bBRA\S*\s+`\((\.L_x_\d+)\)",
        lambda l: (_sass_opcode(l) or ("",))[0] in ("HMMA", "HGMMA"))


def ptxas_advisories(report):
    """ptxas's performance advisories in a -v report (such as wgmma
    serialised, C7510/C7515), one string each."""
    return [line.split(":", 1)[-1].strip() for line in report.splitlines()
            if "Performance" in line or "serialized" in line]


def sass_straight_path(loop_lines):
    """The instructions a loop iteration runs when every predicated branch
    falls through and every unpredicated one is taken: on the interior tiles
    of these kernels, the path that skips the ragged-edge copies and the
    retries of an mbarrier wait. A static estimate of the instructions
    issued per iteration, exact only when the compiler lays the common
    case out as the fall-through (which ptxas does for these loops)."""
    labels = {}
    for i, line in enumerate(loop_lines):
        m = re.match(r"^(\.L_x_\d+):", line.strip())
        if m:
            labels[m.group(1)] = i
    path, i, steps = [], 1, 0
    while 0 < i < len(loop_lines) and steps < 10 * len(loop_lines):
        steps += 1
        line = loop_lines[i]
        op = _sass_opcode(line)
        if op is not None:
            predicated = re.match(r"^\s*/\*[0-9a-f]+\*/\s+@", line) is not None
            if op[0] == "BRA" and not predicated:
                m = re.search(r"`\((\.L_x_\d+)\)", line)
                target = labels.get(m.group(1)) if m else None
                if target is None or target <= 0:
                    break  # the back edge: the iteration is done
                i = target
                continue
            if op[0] not in ("BRA", "CALL"):
                path.append(line)
        i += 1
    return path
