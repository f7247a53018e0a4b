"""State shared by the fake torch, the fake triton and the fake libcuda in one
process: the bundle this child runs (from --one), the faults asked for in
MOCK_FAULTS ("kind:substring,..."), a fake GPU clock, and a registry of live
fake device allocations."""
import os
import sys
import time
import weakref

def bundle():
    if "--one" in sys.argv:
        return os.path.splitext(os.path.basename(sys.argv[sys.argv.index("--one") + 1]))[0]
    return os.environ.get("MOCK_BUNDLE", "")

def fault(kind):
    for item in filter(None, os.environ.get("MOCK_FAULTS", "").split(",")):
        k, _, pattern = item.partition(":")
        if k == kind and pattern in bundle():
            return True
    return False

clock = [0.0]          # seconds of fake GPU work queued so far
sticky = [None]        # a sticky context error, once one happened

def gpu_work(seconds):
    if sticky[0]:
        raise RuntimeError(f"CUDA error: {sticky[0]}")
    clock[0] += seconds

def hang():
    sys.stdout.write("  [mock] hanging\n"); sys.stdout.flush()
    time.sleep(3600)

live = weakref.WeakValueDictionary()   # data_ptr -> live fake tensor

_bundle = []
def bundle_json():
    """The bundle the child runs (None when unknown)."""
    if not _bundle:
        import json
        path = sys.argv[sys.argv.index("--one") + 1] if "--one" in sys.argv else os.environ.get("MOCK_BUNDLE_PATH")
        bundle = json.load(open(path)) if path else None
        # A bundle compiled without some sizes runs at those its
        # NAME.sizes.json gives (run_gemms.py's bind_at_launch).
        sizes = os.path.splitext(path)[0] + ".sizes.json" if path else ""
        if bundle and os.path.exists(sizes):
            bundle["bindings"] = {**bundle["bindings"], **json.load(open(sizes))}
        _bundle.append(bundle)
    return _bundle[0]
