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


def run_ptxas(ptxas_list, ptx_text, arch):
    """(ptxas -v's report, the ptxas that assembled the PTX) with the first
    ptxas of the list that can, or (the errors, None)."""
    if not ptxas_list:
        return "no ptxas found", None
    errors = []
    for ptxas in ptxas_list:
        with tempfile.TemporaryDirectory(prefix="ptxas_") as d:
            src = os.path.join(d, "k.ptx")
            with open(src, "w") as f:
                f.write(ptx_text)
            p = subprocess.run([ptxas, "-v", f"--gpu-name={arch}", src, "-o",
                                os.path.join(d, "k.cubin")], capture_output=True, text=True)
        if p.returncode == 0:
            return p.stdout + p.stderr, ptxas
        lines = (p.stderr or p.stdout).strip().splitlines()
        errors.append(f"{ptxas}: {lines[0] if lines else 'failed'}")
    return "; ".join(errors), None


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


def main_loop_mix(ptx_text):
    """The instruction counts of the innermost loop that holds the tensor-core
    instructions: the text between a label and the last backward branch to
    it, the smallest such span containing an mma or wgmma."""
    lines = ptx_text.splitlines()
    labels = {}
    for i, line in enumerate(lines):
        m = re.match(r"^(\$L__\w+):", line.strip())
        if m:
            labels[m.group(1)] = i
    best = None
    for i, line in enumerate(lines):
        m = re.search(r"\bbra(?:\.uni)?\s+(\$L__\w+);", line)
        if not m or m.group(1) not in labels or labels[m.group(1)] >= i:
            continue
        body = lines[labels[m.group(1)]:i + 1]
        if not any(re.search(r"\b(?:mma\.sync|wgmma\.mma_async)\.", l) for l in body):
            continue
        if best is None or len(body) < len(best):
            best = body
    if best is None:
        return None
    counts = {}
    for name, pattern in MIX:
        counts[name] = sum(1 for l in best if re.search(pattern, l) and not l.strip().startswith("//"))
    return counts
