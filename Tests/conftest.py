"""Shared fixtures of the pytest suites (e2e/ and browser/): the built binary, the golden folder,
the protocol schema, a running server and a headless browser."""
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BINARY = ROOT / ".build" / "debug" / "liftboard"
GOLDEN = ROOT / "Tests" / "LiftboardWireTests" / "Golden"


@pytest.fixture(scope="session")
def liftboard():
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: run `swift build` first (scripts/test does)")
    return str(BINARY)


@pytest.fixture(scope="session")
def schema_validator():
    import jsonschema
    schema = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def make_driver(width=420, height=760):
    """Headless Chromium from Debian's chromium and chromium-driver, driven by Selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              f"--window-size={width},{height}", "--force-device-scale-factor=1", "--hide-scrollbars"]:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


@pytest.fixture
def live_server(tmp_path):
    from liftboard_server import RunningServer
    s = RunningServer(data_dir=tmp_path / "data").start()
    yield s
    s.stop()


@pytest.fixture
def browser():
    d = make_driver()
    yield d
    d.quit()


@pytest.fixture(scope="session")
def postgres():
    """A private PostgreSQL for the whole run (Tests/pg_fixture.py), stopped at the end."""
    from pg_fixture import PrivatePostgres
    pg = PrivatePostgres().start()
    yield pg
    pg.destroy()


ADMIN = "admin-secret"


@pytest.fixture
def admin_server(tmp_path):
    """A server whose API writes take `ADMIN` (`--admin-token`), on its own store."""
    from liftboard_server import RunningServer
    s = RunningServer("--admin-token", ADMIN, data_dir=tmp_path / "data").start()
    yield s
    s.stop()
