"""The Python package (DESIGN.md's `python_stub/` folder, the complete
package) and the build, found from the checkout: what the e2e scripts
import instead of each finding them (`from checkout_nautilus import
nautilus, ROOT`). NAUTILUS_ROOT, when set, names the build."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python_stub"))
os.environ.setdefault("NAUTILUS_ROOT", os.path.join(ROOT, "build"))

import nautilus  # noqa: E402,F401
