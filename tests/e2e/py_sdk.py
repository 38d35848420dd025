"""The Python `mcp` client drives the release binary through the shared scenario
(tests/e2e/scenario.json): `mcp.Client` in its `auto` mode (probes the stateless 2026-07-28
protocol with `server/discover` first) and its `legacy` mode (the `initialize` handshake),
each over stdio and over Streamable HTTP.

    .venv/bin/python tests/e2e/py_sdk.py            # all four runs
    OBSIDIAN_TC_BIN=path/to/obsidian-tc ...          # another binary (default: release build)

Exits 1 on the first failed step, naming the client, the transport and the step.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("OBSIDIAN_TC_BIN", str(ROOT / "target" / "release" / "obsidian-tc"))
SCENARIO = json.loads((ROOT / "tests" / "e2e" / "scenario.json").read_text(encoding="utf-8"))
# The protocol each mode must end up speaking with obsidian-tc.
EXPECTED_PROTOCOL = {"auto": "2026-07-28", "legacy": "2025-11-25"}


class StepFailed(AssertionError):
    """A scenario step did not behave as expected."""


def fresh_vault() -> Path:
    """A fresh copy of the sample vault, without any cache a local run left in it."""
    if not Path(BIN).is_file():
        sys.exit(f"{BIN} is missing: run `cargo build --release -p obsidian-tc` first")
    target = Path(tempfile.mkdtemp(prefix="obsidian-tc-e2e-py-")) / "vault"
    shutil.copytree(ROOT / "tests" / "fixtures" / "sample-vault", target,
                    ignore=shutil.ignore_patterns(".obsidian-tc"))
    return target


def free_port() -> int:
    """A TCP port that was free a moment ago on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_http_server(vault: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Starts `obsidian-tc serve --http` on `vault` and waits until it listens."""
    return serve_http([str(vault)])


def serve_http(args: list[str], env: dict[str, str] | None = None
               ) -> tuple[subprocess.Popen[bytes], str]:
    """Starts `obsidian-tc serve --http` with `args` (and `env` added to this environment)
    and waits until it listens; returns the process and the MCP endpoint's URL."""
    port = free_port()
    server = subprocess.Popen([BIN, "serve", "--http", "--port", str(port), *args],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              env={**os.environ, **(env or {})})
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise StepFailed(f"obsidian-tc exited with {server.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.025)
    server.kill()
    raise StepFailed(f"obsidian-tc did not listen on {port} within 10 s")


def mint(root: Path, *args: str) -> str:
    """`obsidian-tc token mint ARGS` against `root`'s config.json: the bearer token."""
    run = subprocess.run([BIN, "token", "mint", *args, "--config", str(root / "config.json")],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise StepFailed(f"token mint failed: {run.stderr}")
    return run.stdout.strip()


async def answers(url: str, token: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """(is_error, structured answer) of each call, made over Streamable HTTP by one client
    holding `token`."""
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    out = []
    async with http, Client(streamable_http_client(url, http_client=http), mode="auto",
                            raise_exceptions=True) as client:
        for tool, args in calls:
            result = await client.call_tool(tool, args)
            out.append((bool(result.is_error), result.structured_content))
    return out


def stop_http_server(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM, and the server must shut down gracefully (exit 0). Not for the Windows build
    under Wine (tests/wine/run.sh), which ends the process on SIGTERM: Windows has no
    SIGTERM, so there the server is killed and its graceful stop is not tested."""
    if os.environ.get("OBSIDIAN_TC_TARGET_OS") == "windows":
        server.kill()
        server.wait(timeout=10)
        return
    server.send_signal(signal.SIGTERM)
    code = server.wait(timeout=10)
    if code != 0:
        raise StepFailed(f"obsidian-tc exited with {code} on SIGTERM, expected 0")


def approve(args_hash: str, vault: Path) -> None:
    """`obsidian-tc elicit approve <args_hash> <vault>`, which must succeed."""
    run = subprocess.run([BIN, "elicit", "approve", args_hash, str(vault)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise StepFailed(f"elicit approve failed: {run.stderr}")


def at(value: Any, dotted: str) -> Any:
    """The value at a dotted path of `value`."""
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def check_contains(actual: Any, expected: dict[str, Any], where: str) -> None:
    """Every key of `expected` is in `actual` with an equal value (objects the same way)."""
    for key, want in expected.items():
        got = actual.get(key) if isinstance(actual, dict) else None
        if isinstance(want, dict):
            check_contains(got, want, f"{where}.{key}")
        elif got != want:
            raise StepFailed(f"{where}.{key}: expected {want!r}, got {got!r}")


async def run_scenario(client: Client, vault: Path) -> None:
    """Runs every step of the scenario through `client` on `vault`."""
    saved: dict[str, Any] = {}
    for step in SCENARIO["steps"]:
        label = f'step "{step["name"]}"'
        if "call" in step:
            result = await client.call_tool(step["call"], step["args"])
            structured = result.structured_content
            expect = step.get("expect", {})
            if "error" in expect:
                if not result.is_error:
                    raise StepFailed(f"{label}: expected an error, got {structured}")
                check_contains(structured, {"code": expect["error"]}, label)
            else:
                if result.is_error:
                    raise StepFailed(f"{label}: {structured}")
                check_contains(structured, expect.get("structured", {}), label)
            for name, path in step.get("save", {}).items():
                saved[name] = at(structured, path)
                if not saved[name]:
                    raise StepFailed(f"{label}: nothing at {path}")
        elif "file" in step:
            file = vault / step["file"]
            if "content" in step:
                content = file.read_text(encoding="utf-8") if file.is_file() else None
                if content != step["content"]:
                    raise StepFailed(f"{label}: {file} holds {content!r}")
            elif file.exists() != step["exists"]:
                raise StepFailed(f"{label}: {file} exists={file.exists()}")
        elif "approve" in step:
            approve(saved[step["approve"]], vault)
        else:
            raise StepFailed(f"{label}: unknown step kind")


async def drive(mode: str, transport: str) -> None:
    """One client run: connect, check the server and its tools, run the scenario."""
    vault = fresh_vault()
    server = None
    if transport == "stdio":
        target: Any = StdioServerParameters(command=BIN, args=[str(vault)])
    else:
        server, target = start_http_server(vault)
    try:
        async with Client(target, mode=mode, raise_exceptions=True) as client:
            if client.protocol_version != EXPECTED_PROTOCOL[mode]:
                raise StepFailed(f"negotiated {client.protocol_version}, "
                                 f"expected {EXPECTED_PROTOCOL[mode]}")
            name = client.server_info.name if client.server_info else None
            if name != SCENARIO["serverName"]:
                raise StepFailed(f"server name {name!r}")
            listed = {tool.name for tool in (await client.list_tools()).tools}
            missing = set(SCENARIO["requiredTools"]) - listed
            if missing:
                raise StepFailed(f"tools/list lacks {sorted(missing)}")
            await run_scenario(client, vault)
    finally:
        if server is not None:
            stop_http_server(server)
        shutil.rmtree(vault.parent, ignore_errors=True)


def report_failure(label: str, error: BaseException) -> None:
    """Prints the `not ok` line of a run: the step that failed, not anyio's task group."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    print(f"not ok - {label}: {type(error).__name__}: {error}", flush=True)


async def main() -> int:
    failures = 0
    for mode in ("auto", "legacy"):
        for transport in ("stdio", "http"):
            label = f"Python mcp Client mode={mode} over {transport}"
            started = time.monotonic()
            try:
                await drive(mode, transport)
            except Exception as error:  # noqa: BLE001 — report every run, then fail
                failures += 1
                report_failure(label, error)
                continue
            print(f"ok - {label} ({len(SCENARIO['steps'])} steps, "
                  f"{(time.monotonic() - started) * 1000:.0f} ms)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
