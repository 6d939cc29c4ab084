"""Shared fixtures of the pytest suites (e2e/ and browser/): the built binary, the golden folder,
the protocol schema, a running server and a headless browser; and the rule that, in CI
(`CI=true`), a skip is a failure unless the test names why it cannot run on any CI machine."""
import json
import os
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


ENGINES = ("chromium", "webkit", "firefox")
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
_xvfb = None


def pytest_configure(config):
    config.addinivalue_line("markers", "engines(*names): the browser engines a browser test runs in "
                            "(chromium, webkit, firefox); without it, Chromium only")
    config.addinivalue_line("markers", "ci_skip_allowed(reason): the test may skip in CI, only with this very "
                            "reason, which says why it cannot run on any CI machine")


# Skips in CI. A skip shown only as a count hides a test that did not run: with CI=true a
# skipped test (or module) fails, unless the test carries `@pytest.mark.ci_skip_allowed(REASON)`
# and skipped with that same REASON. A hook, not a fixture: any way of running pytest obeys it.

def in_ci():
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def skip_reason(report):
    """What a skipped (or xfailed) report says."""
    if hasattr(report, "wasxfail"):
        return f"xfail {report.wasxfail}".strip()
    if isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    return str(report.longrepr)


def ci_skip_refusal(reason, allowed):
    return (f"skipped with CI=true: {reason}\n"
            f"A skip in CI is a failure unless the test is marked ci_skip_allowed(REASON) with this very reason "
            f"(allowed here: {allowed!r}); install what it needs (scripts/setup) or make it run.")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.skipped or not in_ci():
        return
    reason = skip_reason(report)
    allowed = [m.args[0] for m in item.iter_markers("ci_skip_allowed") if m.args and str(m.args[0]).strip()]
    if reason in allowed:
        return
    report.outcome = "failed"
    report.longrepr = ci_skip_refusal(reason, allowed)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """A whole module skipped (`pytest.skip(allow_module_level=True)`, `importorskip`) fails in CI."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and in_ci():
        report.outcome = "failed"
        report.longrepr = ci_skip_refusal(skip_reason(report), [])


def pytest_generate_tests(metafunc):
    """A test that takes `engine` (or `browser`) runs once per engine its `engines` mark names."""
    if "engine" in metafunc.fixturenames:
        mark = metafunc.definition.get_closest_marker("engines")
        engines = mark.args if mark else ("chromium",)
        assert set(engines) <= set(ENGINES), engines
        metafunc.parametrize("engine", engines, ids=list(engines))


def _ensure_display():
    """WebKitGTK needs an X display: scripts/test runs pytest under `xvfb-run`; run alone,
    without one, the first WebKit test starts a private Xvfb for the session."""
    global _xvfb
    if os.environ.get("DISPLAY") or _xvfb:
        return
    import subprocess
    r, w = os.pipe()
    _xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                             pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    if not number:
        raise RuntimeError("Xvfb did not start (scripts/setup installs xvfb)")
    os.environ["DISPLAY"] = f":{number}"
    import atexit
    atexit.register(_xvfb.terminate)


_firefoxes = {}  # dark -> the run's bidi.Firefox for that color scheme


def firefox_page(width=420, height=760, dpr=1, dark=False):
    """A tab (bidi.Page) of the run's headless Firefox ESR, driven over WebDriver BiDi by
    Tests/bidi.py: one browser process per color scheme (a profile preference makes it dark),
    started on first use and killed when the run ends; each page has a user context of its own."""
    from bidi import DARK, Firefox
    ff = _firefoxes.get(dark)
    if ff is None or ff.proc.poll() is not None:  # none yet, or it died: a test's failure, not the run's
        if ff is not None:
            ff.close()
        ff = _firefoxes[dark] = Firefox(prefs=DARK if dark else None)
    return ff.page(width, height, dpr)


@pytest.fixture(scope="session", autouse=True)
def _firefox_processes():
    yield
    while _firefoxes:
        _firefoxes.popitem()[1].close()


def make_driver(width=420, height=760, engine="chromium", env=None):
    """A browser driven by Selenium: headless Chromium from Debian's chromium and
    chromium-driver, or WebKitGTK's MiniBrowser through webkit2gtk-driver (WebKitWebDriver)
    on an X display (Xvfb); or a tab of Firefox ESR (`firefox_page`), which answers the same
    calls the tests make. `env`: WebKitGTK only, variables for the browser's process (such as
    GDK_SCALE=2 for a devicePixelRatio of 2, GTK_THEME=Adwaita:dark for a dark system)."""
    if engine == "firefox":
        assert env is None, "firefox_page takes dpr and dark instead of an environment"
        return firefox_page(width, height)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    if engine == "webkit":
        from selenium.webdriver.webkitgtk.options import Options as WebKitOptions
        from selenium.webdriver.webkitgtk.service import Service as WebKitService
        _ensure_display()
        opts = WebKitOptions()
        opts.binary_location = MINIBROWSER
        opts.add_argument("--automation")
        import warnings
        with warnings.catch_warnings():  # Selenium's own WebKitGTK class uses its deprecated remote_server_addr
            warnings.simplefilter("ignore", DeprecationWarning)
            service = WebKitService("/usr/bin/WebKitWebDriver", env={**os.environ, **env} if env else None)
            driver = webdriver.WebKitGTK(options=opts, service=service)
        driver.set_window_size(width, height)
        return driver
    assert engine == "chromium", engine
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
def browser(engine):
    d = make_driver(engine=engine)
    yield d
    d.quit()


@pytest.fixture(scope="session")
def postgres():
    """A private PostgreSQL for the whole run (Tests/pg_fixture.py), stopped at the end."""
    from pg_fixture import PrivatePostgres
    pg = PrivatePostgres().start()
    yield pg
    pg.destroy()


@pytest.fixture
def two_pg_servers(postgres, tmp_path):
    """Two `liftboard serve` processes on one fresh database of the private PostgreSQL (issue
    44, holds across processes)."""
    from liftboard_server import RunningServer
    url = postgres.create_database()
    a = RunningServer("--store", url, data_dir=tmp_path / "a").start()
    b = RunningServer("--store", url, data_dir=tmp_path / "b").start()
    yield a, b
    a.stop(), b.stop()


ADMIN = "admin-secret"


@pytest.fixture
def admin_server(tmp_path):
    """A server whose API writes take `ADMIN` (`--admin-token`), on its own store."""
    from liftboard_server import RunningServer
    s = RunningServer("--admin-token", ADMIN, data_dir=tmp_path / "data").start()
    yield s
    s.stop()
