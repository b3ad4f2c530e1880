"""What `import paddle` sets for libgomp before the core library loads it."""
import os
import subprocess
import sys

import pytest

READ_SPIN_SETTINGS = ("import os, paddle; print(os.environ.get('GOMP_SPINCOUNT'), "
                      "os.environ.get('OMP_WAIT_POLICY'))")


def settings_after_import(**env_overrides):
    env = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    env.update(env_overrides)
    out = subprocess.run([sys.executable, "-c", READ_SPIN_SETTINGS], env=env, check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def test_spin_count_is_bounded_by_default():
    assert settings_after_import() == ["5000", "None"]


@pytest.mark.parametrize("overrides, expected", [
    ({"GOMP_SPINCOUNT": "123"}, ["123", "None"]),
    ({"OMP_WAIT_POLICY": "active"}, ["None", "active"]),
])
def test_user_setting_wins(overrides, expected):
    assert settings_after_import(**overrides) == expected
