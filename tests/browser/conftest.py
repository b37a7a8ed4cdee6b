"""Browser tests: a real ``hearts serve`` process and Debian's chromium driven by Playwright.

Skipped cleanly when chromium or Playwright is missing (Playwright's own browser download cannot work
here; CI installs Debian's ``chromium``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(folder: Path, *options: str) -> Iterator[str]:
    """A ``hearts serve`` process on a free loopback port with its database in ``folder``; its URL once it
    answers. ``options`` are more ``hearts serve`` flags. Its log is ``folder/server.log``."""
    # Compile (or load) the search players' kernels here first, into numba's disk cache: on a fresh
    # machine the server's warm-up and its hint process would otherwise compile them while a test
    # waits on its first hint (about a minute on a busy 2-core machine; a hint waits 30 s).
    from hearts.players.compiled import warm_up

    warm_up()
    port = free_port()
    log = open(folder / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "hearts", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", f"sqlite:///{folder / 'hearts.db'}", "--log-level", "warning", *options],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/options", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"hearts serve did not start: {(folder / 'server.log').read_text()}") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``hearts serve`` process on a free loopback port with its own database; computer pause 0."""
    with serving(tmp_path_factory.mktemp("browser-db"), "--pause", "0") as url:
        yield url


# Module scope, not session: Playwright's sync API keeps an event loop running in this thread
# while it is open, and every later test that calls asyncio.run() (Textual's pilot, the server
# process tests) would fail with "cannot be called from a running event loop".
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium"), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
