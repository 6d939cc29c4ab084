"""Docker cannot run here: check that the Dockerfile names what exists and builds as CI builds."""
import re
import subprocess

from conftest import ROOT

DOCKERFILE = (ROOT / "Dockerfile").read_text()


def test_the_build_step_is_the_release_build_the_test_script_runs():
    cmd = "swift build -c release --static-swift-stdlib --product liftboard"
    assert cmd in DOCKERFILE
    assert cmd in (ROOT / "scripts" / "test").read_text()


def test_every_copied_path_exists():
    for src in re.findall(r"^COPY (?!--from)(\S+)", DOCKERFILE, re.M):
        assert (ROOT / src).exists(), src


def test_every_link_under_sources_points_into_what_the_build_step_copies():
    # A resource linked from its one copy elsewhere (the kanban board) must travel with Sources.
    copied = [ROOT / src for src in re.findall(r"^COPY (?!--from)(\S+)", DOCKERFILE, re.M)]
    links = [p for p in (ROOT / "Sources").rglob("*") if p.is_symlink()]
    assert links, "no link under Sources: this test checks nothing any more"
    for link in links:
        target = link.resolve()
        assert target.exists(), link
        assert any(target == c or c in target.parents for c in copied), f"{link} -> {target}: not copied by the Dockerfile"


def test_runtime_packages_exist_in_debian_bookworm():
    for pkg in ["libwebsockets17", "libwebsockets-evlib-uv", "libuv1", "libssl3", "libsqlite3-0", "libpq5"]:
        assert pkg in DOCKERFILE
        out = subprocess.run(["apt-cache", "policy", pkg], capture_output=True, text=True, timeout=30).stdout
        assert "Candidate:" in out and "(none)" not in out, pkg


def test_it_runs_as_a_non_root_user_with_a_volume_and_a_healthcheck():
    assert re.search(r"^USER (?!root)\w+", DOCKERFILE, re.M)
    assert "VOLUME" in DOCKERFILE and "HEALTHCHECK" in DOCKERFILE and "/healthz" in DOCKERFILE
    assert '"--host", "0.0.0.0"' in DOCKERFILE


def test_the_build_image_has_a_swift_at_least_as_new_as_the_package_needs():
    # Package.swift's tools version (6.2: the warning settings) must build in the image.
    tools = re.search(r"swift-tools-version:\s*(\d+)\.(\d+)", (ROOT / "Package.swift").read_text())
    image = re.search(r"^FROM swift:(\d+)\.(\d+)\S*-bookworm AS build", DOCKERFILE, re.M)
    assert tools and image, "no tools version or no swift:X.Y-bookworm build image"
    assert tuple(map(int, image.groups())) >= tuple(map(int, tools.groups())), (image.group(0), tools.group(0))
