"""Must-show 1 of issue 8, Python SDK side: the production main.js in its own Node process
(tests/e2e/plugin_host.mjs: fake Obsidian App over a copy of obsidian-help-en) +
`obsidian-tc bridge --port P --token T` + the Python `mcp.Client` over stdio, in its `auto`
mode (protocol 2026-07-28: tool-list changes through `subscriptions/listen`) and its `legacy`
mode (2025-11-25: `notifications/tools/list_changed` after `initialize`). Each run: list the
tools, call `search`, add a tool at runtime and see the list change within 6 s, stop the plugin
(calls answer a retryable error at once) and start it again on the same port (calls recover).

    .venv/bin/python tests/e2e/bridge_py.py
    OBSIDIAN_TC_BIN=path/to/obsidian-tc ...          # another binary (default: release build)

Exits 1 if a run fails, naming the mode and the step.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("OBSIDIAN_TC_BIN", str(ROOT / "target" / "release" / "obsidian-tc"))
HOST = ROOT / "tests" / "e2e" / "plugin_host.mjs"
SEARCH = {"query": "project", "limit": 5}


class StepFailed(AssertionError):
    """A step did not behave as expected."""


class PluginHost:
    """tests/e2e/plugin_host.mjs as a child process: its port and token, and its commands."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(["node", str(HOST)], cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        first = self._answer()
        self.port: int = first["port"]
        self.token: str = first["token"]

    def _answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise StepFailed("the plugin host exited")
        return json.loads(line)

    def command(self, name: str) -> None:
        """Sends `name` and waits for its answer, which must be ok."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{name}\n")
        self.process.stdin.flush()
        answer = self._answer()
        if not answer.get("ok"):
            raise StepFailed(f"plugin host {name}: {answer.get('error')}")

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)


def text_of(result: types.CallToolResult) -> str:
    first = result.content[0] if result.content else None
    return first.text if isinstance(first, types.TextContent) else ""


async def eventually(check: Any, seconds: float, what: str) -> float:
    """Awaits `check()` until it is truthy; returns the seconds it took, fails after `seconds`."""
    started = time.monotonic()
    while not await check():
        if time.monotonic() - started > seconds:
            raise StepFailed(f"timed out after {seconds} s waiting for {what}")
        await asyncio.sleep(0.02)
    return time.monotonic() - started


async def names(client: Client) -> list[str]:
    return [tool.name for tool in (await client.list_tools(cache_mode="refresh")).tools]


async def drive(mode: str) -> str:
    """One run against a fresh plugin host; returns what it measured."""
    host = PluginHost()
    changes: list[float] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changes.append(time.monotonic())

    params = StdioServerParameters(command=BIN, args=["bridge", "--port", str(host.port),
                                                      "--token", host.token])
    try:
        async with Client(params, mode=mode, raise_exceptions=True,
                          message_handler=on_message) as client:
            name = client.server_info.name if client.server_info else None
            if name != "obsidian-tc-bridge":
                raise StepFailed(f"server name {name!r}")
            listen = None
            if mode == "auto":
                listen = client.listen(tools_list_changed=True)
                subscription = await listen.__aenter__()

                async def follow() -> None:
                    async for _event in subscription:
                        changes.append(time.monotonic())

                following = asyncio.create_task(follow())
            try:
                if "search" not in await names(client):
                    raise StepFailed("search is not listed")

                async def indexed() -> bool:
                    result = await client.call_tool("search", {"query": "note", "limit": 1})
                    return not result.is_error and not json.loads(text_of(result))["coverage"]["scanning"]

                await eventually(indexed, 30, "the plugin's index")
                found = await client.call_tool("search", SEARCH)
                if found.is_error or not json.loads(text_of(found))["results"]:
                    raise StepFailed(f"search: {text_of(found)}")

                before = len(changes)
                added = time.monotonic()
                host.command("add-tool")

                async def changed() -> bool:
                    return len(changes) > before

                await eventually(changed, 6, "the tool list change")
                announced_ms = (changes[-1] - added) * 1000
                if "added_at_runtime" not in await names(client):
                    raise StepFailed("the added tool is not listed")
                echoed = await client.call_tool("added_at_runtime", {"text": "hi"})
                if text_of(echoed) != "echo: hi":
                    raise StepFailed(f"added tool answered {text_of(echoed)!r}")

                host.command("stop")
                started = time.monotonic()
                down = await client.call_tool("search", SEARCH)
                down_ms = (time.monotonic() - started) * 1000
                structured = down.structured_content or {}
                if not down.is_error or structured.get("code") != "plugin_unreachable" \
                        or structured.get("retryable") is not True:
                    raise StepFailed(f"call while stopped: {structured}")
                message = structured.get("message", "")
                if f"127.0.0.1:{host.port}" not in message \
                        or "is Obsidian running with TC Bridge enabled?" not in message:
                    raise StepFailed(f"unclear error: {message}")
                if down_ms > 1000:
                    raise StepFailed(f"the error took {down_ms:.0f} ms")

                host.command("start")

                async def recovered() -> bool:
                    return not (await client.call_tool("search", SEARCH)).is_error

                recovery = await eventually(recovered, 10, "a successful call after the restart")
                if "search" not in await names(client):
                    raise StepFailed("search is not listed after the restart")
            finally:
                if listen is not None:
                    following.cancel()
                    await listen.__aexit__(None, None, None)
        return (f"list_changed {announced_ms:.0f} ms after add-tool, error while stopped in "
                f"{down_ms:.0f} ms, recovered {recovery * 1000:.0f} ms after start")
    finally:
        host.close()


async def main() -> int:
    if not Path(BIN).is_file():
        sys.exit(f"{BIN} is missing: run `cargo build --release -p obsidian-tc` first")
    failures = 0
    for mode in ("auto", "legacy"):
        label = f"Python mcp Client mode={mode} through obsidian-tc bridge"
        try:
            measured = await drive(mode)
        except Exception as error:  # noqa: BLE001 — report every run, then fail
            failures += 1
            print(f"not ok - {label}: {type(error).__name__}: {error}", flush=True)
            continue
        print(f"ok - {label} ({measured})", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
