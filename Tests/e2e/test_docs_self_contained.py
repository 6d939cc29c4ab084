"""The contract lives in the repository (issue 41 item 1): no sentence of README.md or docs/
points outside it. No mention of the contract's first home (`PROTOCOL.md`, `../shared`) or of
a path on the machine it was written on, and every relative link resolves to a file (and a
heading, for `file.md#anchor`) inside the repository."""
import re

from conftest import ROOT

FORBIDDEN = re.compile(r"PROTOCOL\.md|\.\./shared|shared/contract-examples|/work/")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def documents():
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]


def slug(heading):
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path):
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", path.read_text(), re.M)}


def problems(path):
    """Each line of `path` that points outside the repository, or a relative link that leads nowhere."""
    found = []
    text = path.read_text()
    for n, line in enumerate(text.splitlines(), 1):
        if FORBIDDEN.search(line):
            found.append(f"{path.relative_to(ROOT)}:{n}: points outside the repository: {line.strip()}")
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if ROOT.resolve() not in dest.parents and dest != ROOT.resolve():
                found.append(f"{path.relative_to(ROOT)}:{n}: {target} is outside the repository")
            elif not dest.exists():
                found.append(f"{path.relative_to(ROOT)}:{n}: {target} does not exist")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                found.append(f"{path.relative_to(ROOT)}:{n}: {target}: no heading makes #{anchor}")
    return found


def test_readme_and_docs_point_nowhere_outside_the_repository():
    found = [p for doc in documents() for p in problems(doc)]
    assert not found, "\n".join(found)


def test_the_check_finds_what_it_looks_for(tmp_path, monkeypatch):
    monkeypatch.setattr("test_docs_self_contained.ROOT", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Cards (ours)\n")
    bad = tmp_path / "docs" / "bad.md"
    bad.write_text("The project's `PROTOCOL.md`.\nSee ../shared/x.\n[a](a.md#cards-ours) [b](a.md#nope)\n"
                   "[c](../../outside.md) [d](missing.md) [e](https://example.com/PROTOCOL)\n")
    found = problems(bad)
    assert len(found) == 5, found
    assert [f.split(":")[1] for f in found] == ["1", "2", "3", "4", "4"]
