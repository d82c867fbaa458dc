"""docs/service.md is executable: every curl example is sent to the real app (TestClient) and
must answer the JSON shown after it; the Python client example must print what the page says."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from rummy101.service.app import create_app

DOC = os.path.join(os.path.dirname(__file__), "..", "docs", "service.md")
BASE = "http://127.0.0.1:8101"


def _blocks() -> list[tuple[str, str]]:
    with open(DOC, encoding="utf-8") as fh:
        text = fh.read()
    return [(m.group(1), m.group(2)) for m in re.finditer(r"```(\w*)\n(.*?)```", text, re.DOTALL)]


def parse_curl(code: str) -> tuple[str, str, bytes | None, dict[str, str]]:
    """(method, path, raw body or None, headers) of a documented curl command, as curl sends
    them: ``--json`` sets the JSON content type, ``-d`` alone sends curl's form type."""
    words = shlex.split(code.replace("\\\n", " "))
    url = next(w for w in words if w.startswith(BASE))
    headers: dict[str, str] = {}
    body: bytes | None = None
    for i, w in enumerate(words):
        if w == "-H":
            name, value = words[i + 1].split(":", 1)
            headers[name.strip().lower()] = value.strip()
        elif w in ("-d", "--data"):
            body = words[i + 1].encode()
            headers.setdefault("content-type", "application/x-www-form-urlencoded")
        elif w == "--json":
            body = words[i + 1].encode()
            headers["content-type"] = "application/json"
            headers["accept"] = "application/json"
    method = words[words.index("-X") + 1] if "-X" in words else ("POST" if body else "GET")
    return method, url[len(BASE):], body, headers


def curl_examples() -> list[tuple[str, str, bytes | None, dict[str, str], str | None]]:
    """(method, path, body or None, headers, the JSON block that follows or None)."""
    blocks = _blocks()
    out = []
    for i, (lang, code) in enumerate(blocks):
        if lang != "bash" or not code.lstrip().startswith("curl "):
            continue
        method, path, body, headers = parse_curl(code)
        answer = blocks[i + 1][1] if i + 1 < len(blocks) and blocks[i + 1][0] == "json" else None
        out.append((method, path, body, headers, answer))
    return out


EXAMPLES = curl_examples()


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=BASE)


def test_the_page_has_curl_examples_for_every_endpoint() -> None:
    paths = {path for _, path, _, _, _ in EXAMPLES}
    assert {"/health", "/v1/solve/opening", "/v1/solve/penalty", "/v1/solve/tabla",
            "/v1/validate/meld", "/v1/hint"} <= paths
    assert all(answer is not None and "ANSWER" not in answer for *_, answer in EXAMPLES)
    # every POST example sends JSON as JSON (--json or the header), but the one showing the 415
    posts = [h for m, _, _, h, _ in EXAMPLES if m == "POST"]
    assert sum(h.get("content-type") != "application/json" for h in posts) == 1


@pytest.mark.parametrize("method,path,body,headers,answer", EXAMPLES,
                         ids=[f"{m} {p} {i}" for i, (m, p, _, _, _) in enumerate(EXAMPLES)])
def test_curl_example_answers_as_documented(client: TestClient, method: str, path: str,
                                             body: bytes | None, headers: dict[str, str],
                                             answer: str) -> None:
    r = client.request(method, path, content=body, headers=headers)
    expected = json.loads(answer)
    assert r.json() == expected
    if isinstance(expected, dict) and set(expected) == {"error"}:
        assert 400 <= r.status_code < 500
    else:
        assert r.status_code == 200


def test_python_client_example_prints_what_the_page_says(client: TestClient,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx

    blocks = _blocks()
    i = next(i for i, (lang, code) in enumerate(blocks) if lang == "python" and "httpx" in code)
    code, printed = blocks[i][1], blocks[i + 1][1]
    app = client.app
    monkeypatch.setattr(httpx, "Client", lambda **kw: TestClient(app, base_url=BASE))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/service.md", "exec"), {})  # noqa: S102 - the documented example
    assert out.getvalue() == printed


def _fmt(value: object, indent: int = 0) -> str:
    """JSON as the page shows it: compact, broken into lines only where a line would be long."""
    pad = " " * indent
    text = json.dumps(value, ensure_ascii=False)
    if len(text) + indent <= 98:
        return text
    if isinstance(value, dict):
        items = [f"{pad}  {json.dumps(k)}: {_fmt(v, indent + 2).lstrip()}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list):
        items = [pad + "  " + _fmt(v, indent + 2).lstrip() for v in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return text


def regenerate() -> None:
    """Rewrite the answer after every curl example of docs/service.md with the app's answer
    (run ``PYTHONPATH=python python tests/test_service_docs.py --write`` after a deliberate
    change of an answer, and review the diff)."""
    with open(DOC, encoding="utf-8") as fh:
        text = fh.read()
    parts = re.split(r"(```\w*\n.*?```)", text, flags=re.DOTALL)
    client = TestClient(create_app(), base_url=BASE)
    answer: object = None
    for i, part in enumerate(parts):
        m = re.match(r"```(\w*)\n(.*?)```", part, re.DOTALL)
        if not m:
            continue
        lang, code = m.groups()
        if lang == "bash" and code.lstrip().startswith("curl "):
            method, path, body, headers = parse_curl(code)
            answer = client.request(method, path, content=body, headers=headers).json()
        elif lang == "json" and answer is not None:
            parts[i] = f"```json\n{_fmt(answer)}\n```"
            answer = None
    with open(DOC, "w", encoding="utf-8") as fh:
        fh.write("".join(parts))


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--write"]:
        regenerate()
