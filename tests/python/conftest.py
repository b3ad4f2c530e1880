"""The test folders are grouped by area (ops/, static/, io/, ...); the helper modules they share
(harness.py, op_db.py, static_testing.py) live here, so this folder goes on sys.path for every
test file, whatever its depth."""
import os
import sys

HELPERS = os.path.dirname(os.path.abspath(__file__))
if HELPERS not in sys.path:
    sys.path.insert(0, HELPERS)
