"""The README's commands and paths are true: every path it names exists, every C module it
names is a target, every `liftboard` subcommand it names answers `--help` with its own usage,
and every flag its "Serving" section names is one `liftboard serve --help` lists."""
import re
import subprocess

import pytest

from conftest import ROOT

README = (ROOT / "README.md").read_text()
TOP = ("scripts/", "Sources/", "Tests/", "docs/", "Examples/", "Public/")


def named_paths():
    """Paths in backticks or links that start with one of the repository's top folders."""
    found = set(re.findall(r"`([^`\s]+)`", README)) | set(re.findall(r"\]\(([^)\s#]+)", README))
    return sorted({p.rstrip(".,:;") for p in found if p.startswith(TOP)})


def test_every_path_the_readme_names_exists():
    paths = named_paths()
    assert len(paths) >= 10, paths
    missing = [p for p in paths if not (ROOT / p.replace("*.lbtest", "")).exists()]
    assert missing == [], f"README.md names paths that do not exist: {missing}"
    for p in paths:
        if "*" in p:
            assert list(ROOT.glob(p)), f"README.md's {p} matches nothing"


def test_every_script_the_readme_names_is_there_and_runs():
    row = next(line for line in README.splitlines() if line.startswith("| `scripts/` |"))
    names = re.findall(r"`([a-z-]+)`", row.split("|")[2])
    used = re.findall(r"^(scripts/[a-z-]+)", README, re.M) + re.findall(r"`(scripts/[a-z-]+)", README)
    assert len(names) >= 8, row
    for name in names + [u.removeprefix("scripts/") for u in used]:
        script = ROOT / "scripts" / name
        assert script.is_file() and script.stat().st_mode & 0o111, f"README.md names scripts/{name}: missing or not executable"


def test_every_c_module_the_readme_names_is_a_target():
    package = (ROOT / "Package.swift").read_text()
    modules = set(re.findall(r"`(C[A-Z][A-Za-z]+)`", README))
    assert "CLoadSockets" in modules and "CLibPQ" in modules, modules
    for m in sorted(modules):
        assert f'name: "{m}"' in package and (ROOT / "Sources" / m).is_dir(), f"README.md names a module {m} that is not a target"


def subcommands():
    """`serve`, `bench engine`, ...: the ones the `Sources/liftboard` row lists and those its
    commands run (`liftboard X`, `.build/debug/liftboard X`)."""
    row = next(line for line in README.splitlines() if line.startswith("| `Sources/liftboard` |"))
    named = set(re.findall(r"`([a-z]+(?: [a-z]+)?)`", row.split("|")[2]))
    run = set()
    for m in re.finditer(r"liftboard ([a-z]+)(?: ([a-z]+))?", README):
        first, second = m.group(1), m.group(2)
        run.add(f"{first} {second}" if first == "bench" and second else first)
    return sorted(named | {r for r in run if r in named or r.split()[0] in {n.split()[0] for n in named}})


@pytest.mark.parametrize("sub", subcommands())
def test_each_subcommand_the_readme_names_answers_help_with_its_own_usage(liftboard, sub):
    r = subprocess.run([liftboard, *sub.split(), "--help"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    # An unknown subcommand prints the top-level help: the usage line must be the subcommand's.
    assert f"USAGE: liftboard {sub}" in r.stdout, f"`liftboard {sub} --help` is not {sub}'s help:\n{r.stdout[:300]}"


def test_the_subcommands_include_those_the_readme_lists():
    assert {"serve", "replay", "test", "describe", "bench engine", "bench drop", "load"} <= set(subcommands())


def test_every_flag_of_the_serving_section_is_a_flag_of_serve(liftboard):
    section = README.split("## Serving", 1)[1].split("\n## ", 1)[0]
    flags = set(re.findall(r"(--[a-z][a-z-]+)", section))
    assert len(flags) >= 15, flags
    help_text = subprocess.run([liftboard, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout
    missing = sorted(f for f in flags if f not in help_text)
    assert missing == [], f"README.md's Serving section names flags `liftboard serve --help` does not list: {missing}"


def test_the_api_walkthrough_runs_as_written(tmp_path):
    """"Changing boards while people drag": its curl lines, as written, against `serve
    --admin-token` (port 8080 replaced by the test server's; a ~/.curlrc ends the SSE stream)."""
    import json
    import os
    from liftboard_server import RunningServer
    section = README.split("### Changing boards while people drag", 1)[1]
    body = section.split("```sh\n", 1)[1].split("```", 1)[0]
    lines = body.strip().splitlines()
    assert lines[0] == 'liftboard serve --admin-token "$ADMIN" &', lines[0]
    curls = [l for l in lines[2:] if l.startswith("curl ")]
    assert len(curls) == 6 and lines[1].startswith('A="Authorization: Bearer $ADMIN"; B=http://127.0.0.1:8080/')
    (tmp_path / ".curlrc").write_text("max-time = 3\n")
    server = RunningServer("--admin-token", "s3cret", data_dir=tmp_path / "data").start()
    try:
        def run(commands):
            script = "set -u\n" + lines[1].replace(":8080/", f":{server.port}/") + "\n" + "".join(
                f"{c}\necho\necho '--- end'\n" for c in commands)
            r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                               env={**os.environ, "ADMIN": "s3cret", "CURL_HOME": str(tmp_path)})
            return [out.strip() for out in r.stdout.split("--- end")[:-1]]
        outs = run(curls)
        assert [json.loads(o) for o in outs[:4]] == [{"version": v, "changed": True} for v in range(4)], outs
        events = outs[4]
        assert "id: 2\nevent: edit" in events and "id: 3\nevent: edit" in events and "id: 1\n" not in events, events
        history = json.loads(outs[5])
        assert [(v["version"], v["by"]) for v in history["versions"]] == [(1, "api"), (2, "api"), (3, "api")], history
        assert all("at" in v and "change" in v for v in history["versions"])
        # "a stale If-Match gets 409": the DELETE again.
        stale = json.loads(run([curls[3]])[0])
        assert stale["error"]["code"] == "version_mismatch" and stale["error"]["version"] == 3, stale
    finally:
        server.stop()


@pytest.mark.parametrize("line", [l for l in README.splitlines() if l.startswith(".build/debug/liftboard ")])
def test_each_headless_command_of_the_readme_runs(line):
    """`liftboard replay ...`, `liftboard test ...`: run from the repository's root as written."""
    r = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stdout[-500:] + r.stderr[-500:]
    assert r.stdout.strip(), f"{line} printed nothing"
