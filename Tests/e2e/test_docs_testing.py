"""docs/testing.md runs: its sample output is what the command it shows prints, its tutorial
does what it says, and its CI recipe names the Swift Package.swift needs and every package
scripts/setup installs to build."""
import re
import subprocess
import sys

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "testing.md"


def blocks(text):
    """The doc's fenced blocks: (language, body, the text before the fence)."""
    out = []
    for m in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.S | re.M):
        out.append((m.group(1), m.group(2), text[:m.start()]))
    return out


def block_after(text, marker, language=None):
    """The first block whose fence follows `marker` in the text."""
    at = text.index(marker)
    for lang, body, before in blocks(text):
        if len(before) > at and (language is None or lang == language):
            return body
    raise AssertionError(f"no {language or ''} block after {marker!r} in {DOC.name}")


def normalized(output):
    """Output with durations written as `N ms` / `N s`, in case a line ever says how long it took."""
    return re.sub(r"\b\d+(\.\d+)? ?(ms|s)\b", "N \\2", output)


def run_liftboard(liftboard, args, cwd):
    return subprocess.run([liftboard, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_the_sample_output_is_what_its_command_prints(liftboard):
    text = DOC.read_text()
    sample = next(body for lang, body, _ in blocks(text) if body.startswith("$ liftboard test "))
    command, *expected = sample.rstrip("\n").split("\n")
    assert "..." not in expected, "the sample shows the whole output"
    args = command.removeprefix("$ liftboard ").split()
    files = []
    for a in args:
        files += sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(a)) if "*" in a else [a]
    assert len(files) >= 2, files
    r = run_liftboard(liftboard, files, ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert normalized(r.stdout).splitlines() == [normalized(line) for line in expected], (
        "docs/testing.md's sample output differs from what the command prints now:\n" + r.stdout)
    scripts = sorted(ROOT.glob("Examples/tests/*.lbtest"))
    assert expected[-1] == f"{len(scripts)} passed, 0 failed"


def test_the_tutorial_runs_as_written(tmp_path, liftboard):
    text = DOC.read_text()
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "board.json").write_text(block_after(text, "Save this as\n`tests/board.json`", "json"))
    script = block_after(text, "`tests/chores.lbtest`, beside it")
    (tests / "chores.lbtest").write_text(script)

    # 3. It passes, and says so.
    r = run_liftboard(liftboard, ["test", "tests/chores.lbtest"], tmp_path)
    assert r.returncode == 0 and r.stdout.splitlines() == ["ok tests/chores.lbtest", "1 passed, 0 failed"], r.stdout + r.stderr
    assert "prints `ok tests/chores.lbtest` and, last,\n`1 passed, 0 failed`; it exits 0" in text

    # 4. The changed expectation fails with the report the doc shows, and exits 1.
    changed = re.search(r"Change the expectation to `(expect order [^`]+)`", text).group(1)
    (tests / "chores.lbtest").write_text(script.replace("expect order todo: mum plants note milk", changed))
    r = run_liftboard(liftboard, ["test", "tests/chores.lbtest"], tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    shown = block_after(text, "**4. Watch it fail.**")
    assert (r.stdout + r.stderr).splitlines() == shown.rstrip("\n").split("\n"), r.stdout + r.stderr

    # A misspelt item: exit 2 and the line the doc quotes.
    quoted = re.search(r"exits 2 and says where:\n`([^`]+)`", text).group(1)
    (tests / "chores.lbtest").write_text(script.replace("drag milk after", "drag milkk after"))
    r = run_liftboard(liftboard, ["test", "tests/chores.lbtest"], tmp_path)
    assert r.returncode == 2 and quoted in (r.stdout + r.stderr).splitlines(), r.stdout + r.stderr


def version(text):
    return tuple(int(n) for n in text.split("."))


def setup_build_packages():
    """The packages scripts/setup installs for building and serving (its first `need=(...)`;
    `--serve` installs only these)."""
    setup = (ROOT / "scripts" / "setup").read_text()
    m = re.search(r"^need=\(([^)]*)\)", setup, re.M)
    assert m, "scripts/setup has no need=(...) line"
    return set(m.group(1).split())


def ci_recipe():
    text = DOC.read_text()
    recipe = block_after(text, "**5. Into CI.**", "yaml")
    swift = re.search(r"container:\s*swift:(\d+(?:\.\d+)*)", recipe)
    assert swift, "the recipe names no swift:X container"
    installs = re.findall(r"apt-get install ([^\n&|;]*)", recipe)
    assert installs, "the recipe installs no packages"
    packages = {w for line in installs for w in line.split() if not w.startswith("-")}
    return version(swift.group(1)), packages, recipe


def test_the_ci_recipe_uses_the_swift_package_swift_needs():
    tools = re.match(r"// swift-tools-version:\s*(\d+(?:\.\d+)*)", (ROOT / "Package.swift").read_text())
    assert tools, "Package.swift names no tools version"
    swift, _, recipe = ci_recipe()
    needed = version(tools.group(1))
    assert swift[:len(needed)] >= needed, f"the recipe's swift:{'.'.join(map(str, swift))} is older than Package.swift's tools {tools.group(1)}"
    assert "swift build" in recipe and "liftboard test --junit" in recipe


def test_the_ci_recipe_installs_every_package_setup_installs_to_build():
    _, packages, _ = ci_recipe()
    missing = setup_build_packages() - packages
    assert not missing, f"docs/testing.md's CI recipe misses {sorted(missing)}, which scripts/setup installs to build"
    assert "libuv1-dev" in packages


@pytest.mark.parametrize("doc,old,problem", [
    ("container: swift:6.2-bookworm", "container: swift:6.0", "older than"),
    ("libuv1-dev ", "", "misses ['libuv1-dev']"),
])
def test_the_recipe_checks_fail_on_the_mistakes_they_guard_against(monkeypatch, tmp_path, doc, old, problem):
    """The two checks above, on a copy of the doc with the mistake issue 41 found put back."""
    bad = tmp_path / "testing.md"
    bad.write_text(DOC.read_text().replace(doc, old, 1))
    monkeypatch.setattr(sys.modules[__name__], "DOC", bad)
    with pytest.raises(AssertionError, match=re.escape(problem)):
        test_the_ci_recipe_uses_the_swift_package_swift_needs()
        test_the_ci_recipe_installs_every_package_setup_installs_to_build()
