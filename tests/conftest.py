"""Suite-wide settings: hypothesis without per-example deadlines.

The suite runs on shared, noisy 2-core machines; a property that is correct must not fail
because one example took longer than hypothesis' default 200 ms while the machine was busy.
"""

from hypothesis import HealthCheck, settings

settings.register_profile("ndcg-lab", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ndcg-lab")

# Loaded as a plugin, not collected: --doctest-modules would import this file a second
# time under the name "conftest", which tests/browser/conftest.py already holds.
collect_ignore = ["conftest.py"]

# Helpers shared by several test folders (first_exercises.py) live in tests/ itself.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# Progress and class answers go to a throwaway data folder, never the tester's own
# (~/.local/share/ndcg-lab); servers the browser tests start inherit it.
import os
import tempfile

os.environ.setdefault("NDCG_LAB_DATA_DIR", tempfile.mkdtemp(prefix="ndcg-lab-test-data-"))
