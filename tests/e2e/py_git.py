"""The git tools end to end with the Python `mcp` client over stdio, on the release binary:

1. a vault that is a git repository with history: status, diff (unstaged and staged), log,
   one note's history and its text at a version, stage, a commit refused without a person's
   approval and made after `obsidian-tc elicit approve`;
2. a vault that is a folder of a larger repository: a commit that touched only files
   outside the vault is not in the log, outside changes are not in the status, and a commit
   is refused while a file outside the vault is staged;
3. the vault under a read whitelist (a config file with `readPaths`): the status shows no
   hidden path, the whole log is `acl_denied`, one note's history has no commit hashes.

The repositories are made with the `git` CLI (the server itself never runs it).

    .venv/bin/python tests/e2e/py_git.py     # OBSIDIAN_TC_BIN as in py_sdk.py

Exits 1 on the first failed check, naming it.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from py_sdk import BIN, StepFailed

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "Tester", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "Tester", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_CONFIG_NOSYSTEM": "1", "HOME": tempfile.gettempdir()}


def git(repo: Path, *args: str) -> str:
    """Runs the git CLI in `repo` (test set-up only)."""
    run = subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=repo, env=GIT_ENV,
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise StepFailed(f"git {' '.join(args)}: {run.stderr.strip()}")
    return run.stdout


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def repository(repo: Path, message: str, files: dict[str, str], then: dict[str, str]) -> None:
    """`git init` in `repo` with `files` (and a .gitignore of the server's cache) committed as
    `message`, then the changes `then` written to the working tree."""
    for rel, text in {".gitignore": ".obsidian-tc/\n", **files}.items():
        write(repo, rel, text)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    for rel, text in then.items():
        write(repo, rel, text)


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise StepFailed(what)


async def call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Calls `tool`; its structured result, or StepFailed with the error."""
    result = await client.call_tool(tool, args)
    if result.is_error:
        raise StepFailed(f"{tool} {args}: {result.structured_content}")
    return result.structured_content or {}


async def refused(client: Client, tool: str, args: dict[str, Any], code: str) -> dict[str, Any]:
    """Calls `tool` and expects the typed error `code`; returns the error."""
    result = await client.call_tool(tool, args)
    error = result.structured_content or {}
    expect(result.is_error and error.get("code") == code, f"{tool} {args}: expected {code}, got {error}")
    return error


def config_for(top: Path, vault: Path, name: str, acl: dict[str, Any] | None = None) -> Path:
    """A config file serving `vault` as `main`: every tool listed (so the SDK checks each
    result against its output schema), no throttle, lexical search, the cache in `top`."""
    config = top / f"config-{name}.json"
    body: dict[str, Any] = {
        "vaults": [{"id": "main", "path": str(vault), "companion": False}],
        "cacheDir": str(top / f"cache-{name}"),
        "toolFacade": {"mode": "flat"},
        "throttle": {"enabled": False},
        "embeddings": {"provider": "none"},
    }
    if acl is not None:
        body["acl"] = acl
    config.write_text(json.dumps(body), encoding="utf-8")
    return config


def server(config: Path) -> StdioServerParameters:
    return StdioServerParameters(command=BIN, args=[str(config)])


def approve(args_hash: str, target: Path) -> None:
    """`obsidian-tc elicit approve <args_hash> <vault or config>`: a person says yes."""
    run = subprocess.run([BIN, "elicit", "approve", args_hash, str(target)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise StepFailed(f"elicit approve failed: {run.stderr.strip()}")


async def vault_repository(top: Path) -> None:
    vault = top / "vault"
    repository(vault, "first", {"Notes/a.md": "one\ntwo\n"}, {"Notes/a.md": "one\ntwo\nthree\n"})
    git(vault, "commit", "-qam", "second")
    write(vault, "Notes/a.md", "one\nTWO\nthree\n")
    config = config_for(top, vault, "repository")
    async with Client(server(config), mode="auto") as client:
        status = await call(client, "git_status", {})
        expect(status["branch"] == "main", f"branch {status}")
        expect(status["changed"] == [{"path": "Notes/a.md", "change": "modified"}], f"status {status}")
        diff = await call(client, "git_diff", {"path": "Notes/a.md"})
        expect("-two\n+TWO\n" in diff["diff"], f"diff {diff}")
        log = await call(client, "git_log", {})
        expect([e["message"] for e in log["entries"]] == ["second", "first"], f"log {log}")
        history = await call(client, "git_log", {"path": "Notes/a.md"})
        first = history["entries"][1]["version"]
        shown = await call(client, "git_show", {"path": "Notes/a.md", "version": first})
        expect(shown["text"] == "one\ntwo\n", f"show {shown}")
        staged = await call(client, "git_stage", {"paths": ["Notes/a.md"]})
        expect(staged["staged"] == 1, f"stage {staged}")
        staged_diff = await call(client, "git_diff", {"path": "Notes/a.md", "staged": True})
        expect("+TWO\n" in staged_diff["diff"], f"staged diff {staged_diff}")
        args = {"message": "third, by the agent"}
        asked = await refused(client, "git_commit", args, "elicit_required")
        expect(git(vault, "log", "-1", "--format=%s").strip() == "second", "committed without approval")
        approve(asked["details"]["args_hash"], config)
        made = await call(client, "git_commit", args)
        expect(git(vault, "rev-parse", "HEAD").strip() == made["committed"], f"commit {made}")
        expect(git(vault, "log", "-1", "--format=%s").strip() == "third, by the agent", "message")


async def vault_in_a_larger_repository(top: Path) -> None:
    repo = top / "repo"
    repository(repo, "import", {"vault/Notes/a.md": "alpha\n", "elsewhere/plan.txt": "outside\n"},
               {"elsewhere/plan.txt": "outside, changed\n"})
    git(repo, "commit", "-qam", "outside only")
    write(repo, "elsewhere/plan.txt", "changed again\n")
    write(repo, "vault/Notes/a.md", "alpha\nbeta\n")
    vault = repo / "vault"
    async with Client(server(config_for(top, vault, "subfolder")), mode="legacy") as client:
        status = await call(client, "git_status", {})
        expect(status["changed"] == [{"path": "Notes/a.md", "change": "modified"}], f"status {status}")
        log = await call(client, "git_log", {})
        expect([e["message"] for e in log["entries"]] == ["import"], f"log {log}")
        git(repo, "add", "elsewhere/plan.txt")
        await call(client, "git_stage", {"paths": ["Notes/a.md"]})
        error = await refused(client, "git_commit", {"message": "vault only"}, "git_error")
        expect(error["details"]["reason"] == "staged_outside_vault", f"refusal {error}")
        expect("elsewhere" not in json.dumps(error), f"an outside path is named: {error}")


async def whitelist(top: Path) -> None:
    vault = top / "listed"
    repository(vault, "import Secret/s.md and Public/a.md",
               {"Public/a.md": "open\n", "Secret/s.md": "hidden\n"},
               {"Secret/s.md": "hidden, changed\n", "Public/a.md": "open, changed\n"})
    config = config_for(top, vault, "whitelist", {"readPaths": ["Public/**"]})
    async with Client(server(config), mode="auto") as client:
        status = await call(client, "git_status", {})
        expect("Secret" not in json.dumps(status), f"a hidden path in the status: {status}")
        expect(status["changed"] == [{"path": "Public/a.md", "change": "modified"}], f"status {status}")
        await refused(client, "git_log", {}, "acl_denied")
        history = await call(client, "git_log", {"path": "Public/a.md"})
        expect(all("hash" not in e for e in history["entries"]), f"hashes shown: {history}")
        await refused(client, "git_diff", {"path": "Secret/s.md"}, "acl_denied")


async def main() -> int:
    if shutil.which("git") is None:
        print("skip - py_git.py: the git CLI (used to set the repositories up) is not installed")
        return 0
    top = Path(tempfile.mkdtemp(prefix="obsidian-tc-e2e-git-"))
    steps = [("a vault that is a repository", vault_repository),
             ("a vault folder of a larger repository", vault_in_a_larger_repository),
             ("a read whitelist", whitelist)]
    try:
        for name, step in steps:
            try:
                await step(top)
            except Exception as error:  # noqa: BLE001 — one report, then fail
                while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
                    error = error.exceptions[0]
                print(f"not ok - git tools, {name}: {type(error).__name__}: {error}", flush=True)
                return 1
            print(f"ok - git tools, {name}", flush=True)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
