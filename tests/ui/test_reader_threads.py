"""The app runs its readers with OpenCV and the BLAS on one thread each (vision/threads.py):
set at the app's start, before numpy loads. Each case runs in a fresh interpreter, as the app
starts (numpy, once loaded, keeps the thread count it read)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from vision.threads import BLAS_THREAD_VARIABLES

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, **env: str) -> dict[str, object]:
    """The JSON the snippet prints last, run in a fresh interpreter without the BLAS
    variables (plus ``env``)."""
    clean = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_VARIABLES}
    clean.update(env, PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=clean, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    out: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


#: after the hold: what OpenCV and the environment say, and the process's threads after a
#: product large enough that OpenBLAS shares it among its threads when it has them
REPORT = f"""
    import json, os
    import cv2
    import numpy as np
    a = np.random.default_rng(0).random((600, 600))
    a @ a
    tasks = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None
    print(json.dumps({{"held": held, "opencv": cv2.getNumThreads(), "tasks": tasks,
                      "env": {{k: os.environ.get(k) for k in {BLAS_THREAD_VARIABLES!r}}}}}))
"""


def test_held_before_numpy_loads_opencv_and_the_blas_run_on_one_thread() -> None:
    out = _run("from vision.threads import hold_to_one_thread\nheld = hold_to_one_thread()\n"
               + textwrap.dedent(REPORT))
    assert out["held"] is True
    assert out["opencv"] == 1
    assert out["env"] == {k: "1" for k in BLAS_THREAD_VARIABLES}
    if out["tasks"] is not None:  # Linux: no BLAS or OpenCV thread beside the main one
        assert out["tasks"] == 1


def test_after_numpy_loaded_the_hold_says_the_blas_was_not_held() -> None:
    out = _run("import numpy\nfrom vision.threads import hold_to_one_thread\n"
               "held = hold_to_one_thread()\n" + textwrap.dedent(REPORT))
    assert out["held"] is False
    assert out["opencv"] == 1


def test_a_count_set_for_the_service_is_kept() -> None:
    out = _run("from vision.threads import hold_to_one_thread\nheld = hold_to_one_thread()\n"
               + textwrap.dedent(REPORT), OPENBLAS_NUM_THREADS="2")
    assert out["env"]["OPENBLAS_NUM_THREADS"] == "2"  # type: ignore[index]
    assert out["opencv"] == 1


def test_the_app_start_holds_the_readers_before_numpy_loads() -> None:
    # run_app as `companion app` runs it, stopped where it reads the config (before the
    # window): by then the hold is done, and numpy was first loaded after it
    out = _run(f"""
        import json, os, sys, argparse
        from ui import services, main
        import vision.threads

        held = []
        hold = vision.threads.hold_to_one_thread
        vision.threads.hold_to_one_thread = lambda: held.append(hold()) or held[-1]

        class Stop(Exception):
            pass

        def stop_here(path):
            import cv2
            names = {BLAS_THREAD_VARIABLES!r}
            raise Stop(json.dumps({{"held": held, "opencv": cv2.getNumThreads(),
                                    "env": {{k: os.environ.get(k) for k in names}}}}))

        services.load_app_config = stop_here
        try:
            main.run_app(argparse.Namespace(config=None, demo=True, size=None, db=None))
        except Stop as stop:
            print(stop.args[0])
        """)
    assert out["held"] == [True]  # once, and before numpy was loaded
    assert out["opencv"] == 1
    assert out["env"] == {k: "1" for k in BLAS_THREAD_VARIABLES}
