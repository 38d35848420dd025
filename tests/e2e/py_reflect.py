"""`reflect` end to end (issue 38): the Python `mcp` client drives the release binary.

- The client's own model: the client answers `sampling/createMessage` from a fixed table
  (`Client(..., sampling_callback=...)`), over stdio and Streamable HTTP, in `auto` mode
  (protocol 2026-07-28: the sampling request comes as an input request and the client calls
  again with the answer) and `legacy` mode (2025-11-25: a server-to-client request). What the
  client received must hold only readable, non-excluded, credential-free chunks, as
  numbered evidence; the answer cites them; `persist: true` writes a note whose links all
  resolve (`get_outgoing_links`).
- A local OpenAI-compatible chat endpoint (a small HTTP server this script starts, answering
  from a table): the same checks on the request it received, and the token usage; a slow one
  shows the timeout (`model_error`, reason `timeout`).
- Neither: `available: false`, with the sources.

    .venv/bin/python tests/e2e/py_reflect.py
    OBSIDIAN_TC_BIN=path/to/obsidian-tc ...   # another binary (default: release build)

Prints the model calls and tokens of each `reflect` (from the answer's `usage`). Exits 1 on
the first failed check.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters, types
from mcp.client.streamable_http import streamable_http_client

from py_sdk import BIN, StepFailed, serve_http, stop_http_server

AWS_KEY = "AKIAQ7RZ2KX94WNB5TJM"
ANSWER = "Zeppelins hold hydrogen or helium [1] and rest in a huge hangar [2]."
QUESTION = "What are zeppelins filled with?"
NOTES = {
    "Public/Zeppelin.md": "# Zeppelin\n\nZeppelins are filled with hydrogen or helium. See [[Hangar]].\n",
    "Public/Hangar.md": "# Hangar\n\nThe zeppelin hangar at Friedrichshafen is huge.\n",
    "Public/Keys.md": f"# Keys\n\nThe zeppelin fleet's AWS key is {AWS_KEY}\n",
    "Private/Diary.md": "# Diary\n\nI dreamt of a zeppelin filled with hydrogen.\n",
    "Secret/Plan.md": "# Plan\n\nThe secret zeppelin plan.\n",
}
LEAKS = ["secret zeppelin plan", "dreamt", AWS_KEY, "Secret/", "Private/"]


def expect(label: str, condition: bool, shown: Any) -> None:
    if not condition:
        raise StepFailed(f"{label}: {json.dumps(shown, default=str)[:1200]}")
    print(f"ok - {label}", flush=True)


def set_up(inference: dict[str, Any]) -> Path:
    """A vault with the notes above and a config hiding `Secret/`, excluding `Private/`
    from the model, with `inference` as given."""
    if not Path(BIN).is_file():
        sys.exit(f"{BIN} is missing: run `cargo build --release -p obsidian-tc` first")
    root = Path(tempfile.mkdtemp(prefix="obsidian-tc-e2e-reflect-"))
    for rel, text in NOTES.items():
        path = root / "main" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    config = {
        "vaults": [{"id": "main", "path": "main"}],
        "acl": {"readPaths": ["Public/**", "Private/**", "Memory/**"],
                "writePaths": ["Memory/**"]},
        "embeddings": {"provider": "none"},
        "throttle": {"enabled": False},
        "inference": {"excludePaths": ["Private"], **inference},
    }
    (root / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return root


def check_prompt(label: str, prompt: str) -> None:
    """The prompt the model got: numbered evidence of the two readable notes only."""
    expect(f"{label}: the prompt asks for [n] citations over numbered evidence",
           "Cite inline as [n]" in prompt and "[1] Public/" in prompt and "[2] Public/" in prompt
           and "[3]" not in prompt, prompt)
    leaked = [text for text in LEAKS if text in prompt]
    expect(f"{label}: no hidden, excluded or credential-holding chunk reached the model",
           not leaked, {"leaked": leaked, "prompt": prompt})


def check_answer(label: str, answer: dict[str, Any], provider: str) -> None:
    paths = sorted(source["path"] for source in answer["sources"])
    expect(f"{label}: the answer is the model's, citing the two readable notes",
           answer["available"] is True and answer["answer"] == ANSWER
           and answer["provider"] == provider
           and paths == ["Public/Hangar.md", "Public/Zeppelin.md"]
           and [source["n"] for source in answer["sources"]] == [1, 2], answer)
    expect(f"{label}: one excluded and one credential chunk withheld (counts only)",
           answer["withheld"] == {"unreadable": 0, "excluded": 1, "credential": 1}, answer)
    usage = answer["usage"]
    print(f"# cost {label}: {usage['model_calls']} model call(s), "
          f"{usage['tokens_in']} tokens in, {usage['tokens_out']} tokens out", flush=True)


async def call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, Any]:
    result = await client.call_tool(tool, args)
    return bool(result.is_error), result.structured_content


async def indexed(client: Client) -> None:
    """`index_vault`, once the scan at start (if still running) is done; the tools are
    listed first, so the client checks each structured result against its output schema."""
    await client.list_tools()
    for _ in range(100):
        failed, shown = await call(client, "index_vault", {})
        if not (failed and shown["code"] == "index_busy"):
            break
        await asyncio.sleep(0.1)
    expect("index_vault", not failed, shown)


def table_sampler(received: list[str]):
    async def sample(_context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        text = (params.system_prompt or "") + "\n" + "\n".join(
            message.content.text for message in params.messages
            if isinstance(message.content, types.TextContent))
        received.append(text)
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text=ANSWER),
            model="table-model", stop_reason="endTurn")
    return sample


def client_for(root: Path, transport: str, mode: str, **options: Any):
    """The client and, over HTTP, the server process to stop."""
    if transport == "stdio":
        target: Any = StdioServerParameters(command=BIN, args=[str(root / "config.json")])
        return Client(target, mode=mode, raise_exceptions=True, **options), None
    server, url = serve_http(["--config", str(root / "config.json")])
    return Client(streamable_http_client(url), mode=mode, raise_exceptions=True, **options), server


async def sampling_run(transport: str, mode: str) -> None:
    label = f"sampling {transport} {mode}"
    root = set_up({})
    received: list[str] = []
    client, server = client_for(root, transport, mode, sampling_callback=table_sampler(received))
    try:
        async with client:
            await indexed(client)
            failed, answer = await call(client, "reflect", {"query": QUESTION, "persist": True})
            expect(f"{label}: reflect answered", not failed, answer)
            check_answer(label, answer, "sampling")
            expect(f"{label}: the client's model was asked once", len(received) == 1, received)
            check_prompt(label, received[0])
            path = answer["persisted"]["path"]
            expect(f"{label}: persisted under the memory folder's reflections",
                   path.startswith("Memory/reflections/") and (root / "main" / path).is_file(), answer)
            failed, links = await call(client, "get_outgoing_links", {"path": path})
            resolved = sorted(link.get("resolved_path") or "" for link in links["links"])
            expect(f"{label}: the persisted note's links resolve to the sources",
                   not failed and resolved == ["Public/Hangar.md", "Public/Zeppelin.md"], links)
    finally:
        if server is not None:
            stop_http_server(server)
        shutil.rmtree(root, ignore_errors=True)


class ChatTable(BaseHTTPRequestHandler):
    """`POST /v1/chat/completions` answered from the table; `delay` seconds first."""
    delay = 0.0
    received: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).received.append({"path": self.path, "body": body})
        time.sleep(type(self).delay)
        answer = json.dumps({
            "model": "chat-table", "choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER}}],
            "usage": {"prompt_tokens": len(json.dumps(body)) // 4, "completion_tokens": len(ANSWER) // 4},
        }).encode()
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server gave up waiting (the timeout run)

    def log_message(self, *_args: Any) -> None:
        pass


def chat_server(delay: float) -> tuple[ThreadingHTTPServer, type[ChatTable]]:
    handler = type("Handler", (ChatTable,), {"delay": delay, "received": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, handler


async def endpoint_run(transport: str) -> None:
    label = f"endpoint {transport}"
    chat, handler = chat_server(0.0)
    url = f"http://127.0.0.1:{chat.server_address[1]}/v1"
    root = set_up({"endpoint": url, "model": "chat-table"})
    client, server = client_for(root, transport, "auto")
    try:
        async with client:
            await indexed(client)
            failed, answer = await call(client, "reflect", {"query": QUESTION})
            expect(f"{label}: reflect answered", not failed, answer)
            check_answer(label, answer, "endpoint")
            expect(f"{label}: one chat/completions request, tokens counted",
                   len(handler.received) == 1 and handler.received[0]["path"] == "/v1/chat/completions"
                   and answer["usage"]["tokens_in"] > 0 and answer["usage"]["tokens_out"] > 0,
                   {"received": len(handler.received), "usage": answer["usage"]})
            body = handler.received[0]["body"]
            check_prompt(label, "\n".join(message["content"] for message in body["messages"]))
    finally:
        if server is not None:
            stop_http_server(server)
        chat.shutdown()
        shutil.rmtree(root, ignore_errors=True)


async def timeout_run() -> None:
    chat, _handler = chat_server(3.0)
    url = f"http://127.0.0.1:{chat.server_address[1]}/v1"
    root = set_up({"endpoint": url, "model": "chat-table", "timeoutMs": 500})
    client, _ = client_for(root, "stdio", "auto")
    try:
        async with client:
            await indexed(client)
            started = time.monotonic()
            failed, error = await call(client, "reflect", {"query": QUESTION})
            took = time.monotonic() - started
            expect("slow endpoint: model_error timeout within the budget",
                   failed and error["code"] == "model_error" and error["details"]["reason"] == "timeout"
                   and took < 2.5, {"error": error, "seconds": took})
    finally:
        chat.shutdown()
        shutil.rmtree(root, ignore_errors=True)


async def neither_run() -> None:
    root = set_up({})
    client, _ = client_for(root, "stdio", "auto")
    try:
        async with client:
            await indexed(client)
            failed, answer = await call(client, "reflect", {"query": QUESTION})
            paths = sorted(source["path"] for source in answer["sources"])
            expect("no model: available false, a message, and the sources",
                   not failed and answer["available"] is False and answer["answer"] is None
                   and "inference.endpoint" in answer["message"]
                   and paths == ["Public/Hangar.md", "Public/Zeppelin.md"]
                   and answer["usage"]["model_calls"] == 0, answer)
    finally:
        shutil.rmtree(root, ignore_errors=True)


async def main() -> int:
    try:
        for transport in ("stdio", "http"):
            for mode in ("auto", "legacy"):
                await sampling_run(transport, mode)
            await endpoint_run(transport)
        await timeout_run()
        await neither_run()
    except (StepFailed, Exception) as error:  # noqa: BLE001 (report every failure the same way)
        while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        print(f"not ok - {type(error).__name__}: {error}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
