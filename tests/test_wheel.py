"""The package installs: the wheel holds everything the service reads at run time
(templates, static files, migrations, game data), and a service installed from it,
not editable and away from the checkout, serves a game page and composes a decision
email with its picture."""
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Read at run time from inside the package: each file of these folders must be in the wheel.
RUN_TIME_FOLDERS = {"templates": "service/templates", "service/static": "service/static",
                    "service/migrations": "service/migrations"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # A copy of the project's files (not those git ignores): a build in the checkout would leave build/ there.
    source = out / "source"
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=ROOT, check=True, capture_output=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(source)],
                   check=True, capture_output=True)
    (built,) = out.glob("turnpost-*.whl")
    return built


def test_the_wheel_holds_every_file_read_at_run_time(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, packaged in RUN_TIME_FOLDERS.items():
        files = [p for p in (ROOT / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        assert files
        missing = [str(p) for p in files if f"{packaged}/{p.relative_to(ROOT / folder).as_posix()}" not in names]
        assert not missing, f"not in the wheel: {missing}"
    data = [p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").rglob("*.json")]
    assert data and set(data) <= names
    assert "service/migrations/script.py.mako" in names and "service/migrations/env.py" in names


def test_a_service_installed_from_the_wheel_serves_a_page_and_an_email(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)],
                               capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    script = tmp_path / "serve_from_wheel.py"
    shutil.copy(ROOT / "tests" / "wheel" / "serve_from_wheel.py", script)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TURNPOST_INSTANCE")}
    run = subprocess.run([str(python), str(script), str(tmp_path)], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.splitlines()[-1])
    assert all(str(venv) in path and str(ROOT) not in path for path in seen["modules"]), seen["modules"]
    assert seen["page_status"] == 200 and "<svg" in seen["page"] and "Tigris &amp; Euphrates" in seen["page"]
    assert seen["script_status"] == 200
    assert seen["subject"] == "Wheel: your decision"
    assert "tile COLOR SQUARE" in seen["text"] and "cid:" in seen["html"]
    assert seen["pictures"] and seen["pictures"][0] > 1000
