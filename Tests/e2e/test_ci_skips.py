"""With CI=true a pytest skip is a failure unless the test names why it cannot run on any CI
machine (`ci_skip_allowed`, Tests/conftest.py): checked on small suites of their own, run by a
pytest that loads the project's conftest as a plugin."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT

SUITE = '''
import pytest

def test_runs():
    pass

def test_skips_for_no_named_reason():
    pytest.skip("a tool is missing")

@pytest.mark.ci_skip_allowed("cannot run anywhere in CI")
def test_skips_for_the_allowed_reason():
    pytest.skip("cannot run anywhere in CI")

@pytest.mark.ci_skip_allowed("cannot run anywhere in CI")
def test_skips_for_another_reason_than_the_allowed_one():
    pytest.skip("something else")

@pytest.mark.skipif(True, reason="never here")
def test_skipif():
    pass

@pytest.fixture
def needs_a_service():
    pytest.skip("no service")

def test_skipped_by_its_fixture(needs_a_service):
    pass

@pytest.mark.xfail(reason="known bug")
def test_xfails():
    assert False
'''

MODULE_SKIPPED = '''
import pytest
pytest.skip("the whole module", allow_module_level=True)

def test_never_collected():
    pass
'''


def run_suite(tmp_path, ci, source=SUITE):
    (tmp_path / "test_suite.py").write_text(source)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = str(ROOT / "Tests")
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider", "-rA", "-q",
                        "--rootdir", str(tmp_path), str(tmp_path / "test_suite.py")],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    return r.returncode, r.stdout + r.stderr


def outcomes(out):
    """test name -> PASSED, FAILED, ERROR (a failure in setup), SKIPPED or XFAIL, from -rA's summary."""
    got = {}
    for line in out.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASSED", "FAILED", "SKIPPED", "XFAIL", "ERROR") and "::" in rest:
            got[rest.split("::")[1].split(" ")[0]] = word
    return got


def test_without_ci_a_skip_is_a_skip(tmp_path):
    code, out = run_suite(tmp_path, None)
    assert code == 0, out
    assert "1 passed, 5 skipped, 1 xfailed" in out, out


def test_in_ci_only_a_skip_for_its_allowed_reason_stays_a_skip(tmp_path):
    code, out = run_suite(tmp_path, "true")
    assert code == 1, out
    got = outcomes(out)
    assert got.get("test_runs") == "PASSED", out
    assert "1 skipped" in out, out  # test_skips_for_the_allowed_reason: -rA names a skip by its file and line
    for name in ["test_skips_for_no_named_reason", "test_skips_for_another_reason_than_the_allowed_one", "test_xfails"]:
        assert got.get(name) == "FAILED", (name, out)
    # A skipif and a fixture's skip happen in setup: pytest counts a failed setup as an error.
    for name in ["test_skipif", "test_skipped_by_its_fixture"]:
        assert got.get(name) == "ERROR", (name, out)
    assert "3 failed, 1 passed, 1 skipped, 2 errors" in out, out
    assert "skipped with CI=true: a tool is missing" in out, out
    assert "skipped with CI=true: something else" in out and "allowed here: ['cannot run anywhere in CI']" in out, out


@pytest.mark.parametrize("ci", ["true", "1"])
def test_in_ci_a_module_skipped_whole_fails(tmp_path, ci):
    code, out = run_suite(tmp_path, ci, MODULE_SKIPPED)
    assert code != 0 and "skipped with CI=true: the whole module" in out, out


def test_ci_false_is_not_ci(tmp_path):
    code, out = run_suite(tmp_path, "false", MODULE_SKIPPED)
    assert code == 5 and "1 skipped" in out, out  # 5: no test ran


# Swift: the skips a Swift test may make in CI, by file, with why it cannot run on any CI machine.
# None: with CI=true every Swift test runs (a condition it needs is `|| CI.on`, and what is
# missing fails it with a message).
ALLOWED_SWIFT_SKIPS = {}
SWIFT_SKIPS = ("XCTSkip", ".disabled(", "withKnownIssue", ".enabled(if:")


def test_no_swift_test_skips_in_ci_unless_allowed():
    found = []
    for path in sorted((ROOT / "Tests").rglob("*.swift")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for word in SWIFT_SKIPS:
                if word in line and not (word == ".enabled(if:" and "|| CI.on" in line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    unexplained = [f for f in found if f.split(":")[0] not in ALLOWED_SWIFT_SKIPS]
    assert unexplained == [], ("a Swift test that may skip in CI: make its condition `|| CI.on` "
                               "(it then fails saying what is missing) or name it in ALLOWED_SWIFT_SKIPS", unexplained)


def test_the_swift_ci_switch_reads_what_the_python_hook_reads():
    source = (ROOT / "Tests" / "LiftboardStoreTests" / "StoreConformanceTests.swift").read_text()
    assert 'static let on = ["true", "1", "yes"].contains(' in source
    assert 'in ("true", "1", "yes")' in (ROOT / "Tests" / "conftest.py").read_text()
