"""The work memory over HTTP with two JWTs (issue 37): the Python `mcp` client, over
Streamable HTTP to the release binary under JWT auth, as `alice` (who may read `Secret/`)
and `bob` (who may not), and `admin` (admin:workspace, not `Secret/`). Each caller's
`work_episodes` holds only its own calls; `any_caller` is `forbidden` without
admin:workspace; the admin sees alice's episodes but never the `Secret/` path one of them
changed; `work_forget` removes an episode from `work_episodes`, `work_search`,
`work_episode_chain` and the admin's view, and the forget log verifies.

    .venv/bin/python tests/e2e/py_work_memory.py
    OBSIDIAN_TC_BIN=path/to/obsidian-tc ...          # another binary (default: release build)

Exits 1 on the first failed check.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from py_sdk import BIN, StepFailed, answers, mint, serve_http, stop_http_server

SECRET = "an-e2e-secret-of-at-least-32-characters"
AGENT = "read:notes,write:notes,read:workspace,write:workspace"


def set_up() -> Path:
    """Vault `main` whose `Secret/` needs `read:secret`, and `config.json` under JWT."""
    if not Path(BIN).is_file():
        sys.exit(f"{BIN} is missing: run `cargo build --release -p obsidian-tc` first")
    root = Path(tempfile.mkdtemp(prefix="obsidian-tc-e2e-work-"))
    (root / "main").mkdir()
    config = {
        "vaults": [{"id": "main", "path": "main"}],
        "auth": {"mode": "jwt", "jwtSecret": SECRET},
        "acl": {"rules": [{"glob": "Secret/**", "scopes": ["read:secret"]}]},
        "embeddings": {"provider": "none"},
        "throttle": {"enabled": False},
    }
    (root / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return root


def ok(label: str, answer: tuple[bool, Any]) -> Any:
    failed, structured = answer
    if failed:
        raise StepFailed(f"{label} failed: {structured}")
    return structured


def expect(label: str, condition: bool, shown: Any) -> None:
    if not condition:
        raise StepFailed(f"{label}: {json.dumps(shown)[:800]}")
    print(f"ok - {label}", flush=True)


async def run(root: Path) -> None:
    server, url = serve_http(["--config", str(root / "config.json")])
    try:
        alice = mint(root, "--sub", "alice", "--scope", f"{AGENT},read:secret,write:secret")
        bob = mint(root, "--sub", "bob", "--scope", AGENT)
        admin = mint(root, "--sub", "admin", "--scope", f"{AGENT},admin:workspace")
        wrote = await answers(url, alice, [
            ("write_note", {"path": "Secret/plan.md", "content": "# Plan\n"}),
            ("write_note", {"path": "Public/a.md", "content": "# A\n"}),
            ("work_episodes", {}),
        ])
        for answer in wrote[:2]:
            ok("alice writes", answer)
        mine = ok("alice work_episodes", wrote[2])["episodes"]
        expect("alice sees her two writes and the Secret/ path she may read",
               [e["tool"] for e in mine] == ["write_note", "write_note"]
               and mine[1]["changed_paths"] == ["Secret/plan.md"], mine)
        read, theirs, refused = await answers(url, bob, [
            ("note_exists", {"path": "Public/a.md"}),
            ("work_episodes", {}),
            ("work_episodes", {"any_caller": True}),
        ])
        ok("bob note_exists", read)
        theirs = ok("bob work_episodes", theirs)["episodes"]
        expect("bob sees only his own call",
               [e["tool"] for e in theirs] == ["note_exists"], theirs)
        expect("any_caller without admin:workspace is forbidden",
               refused[0] and refused[1]["code"] == "forbidden", refused)
        [every] = await answers(url, admin, [("work_episodes", {"any_caller": True, "k": 500})])
        every = ok("admin any_caller", every)
        callers = {e.get("caller") for e in every["episodes"]}
        expect("the admin sees every caller's episodes, never the Secret/ path",
               {"alice", "bob"} <= callers and "Secret" not in json.dumps(every), every)
        public_write = mine[0]["id"]
        chain_from = await answers(url, alice, [("note_exists", {"path": "x.md"}),
                                                ("work_episodes", {"k": 1})])
        newest = ok("alice newest", chain_from[1])["episodes"][0]["id"]
        forgot = await answers(url, alice, [
            ("work_episode_chain", {"id": newest}),
            ("work_forget", {"episode_id": public_write}),
            ("work_forget", {"episode_id": public_write}),
        ])
        before = ok("chain before", forgot[0])
        expect("the chain reaches the write before forgetting", public_write in json.dumps(before),
               before)
        first, again = ok("work_forget", forgot[1]), ok("work_forget again", forgot[2])
        expect("work_forget forgets once and the forget log verifies",
               first["forgotten"] and first["log_verified"] and not again["forgotten"]
               and again["log_verified"], [first, again])
        after = await answers(url, alice, [
            ("work_episodes", {"k": 500}),
            ("work_search", {"include_pending": True, "k": 200}),
            ("work_search", {"query": "write_note", "include_pending": True}),
            ("work_episode_chain", {"id": newest}),
        ])
        [seen] = await answers(url, admin, [("work_episodes", {"any_caller": True, "k": 500})])
        shown = [ok("after", answer) for answer in after] + [ok("admin after", seen)]
        expect("the forgotten episode is in no tool's answer nor in search",
               all(public_write not in json.dumps(answer) for answer in shown), shown)
    finally:
        stop_http_server(server)


async def main() -> int:
    root = set_up()
    try:
        await run(root)
    except Exception as error:  # noqa: BLE001 — report, then fail
        while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        print(f"not ok - work memory over HTTP: {type(error).__name__}: {error}", flush=True)
        return 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
