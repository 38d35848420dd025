"""Agent memory end to end with the Python `mcp` client over stdio, in two server processes
on one vault (issue 23):

1. the first session starts a trace, creates entities, observations and relations, ends;
2. a person edits an entity note on disk (a fact and a relation of their own, and the note
   the relation points to);
3. a second server process: `get_entity` and `query_entity_graph` show the agent's and the
   person's facts and relations, every link of the memory notes resolves as Obsidian resolves
   it (the server's link index, engine-core resolution), and the first session's trace holds
   its calls in order.

    .venv/bin/python tests/e2e/py_memory.py     # OBSIDIAN_TC_BIN as in py_sdk.py

Exits 1 on the first failed check, naming it.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from py_sdk import BIN, StepFailed, fresh_vault


async def call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Calls `tool`; its structured result, or StepFailed with the error."""
    result = await client.call_tool(tool, args)
    if result.is_error:
        raise StepFailed(f"{tool} {args}: {result.structured_content}")
    return result.structured_content or {}


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise StepFailed(what)


async def first_session(vault: Path) -> str:
    """Process 1: records the memory in a traced session; returns the session id."""
    async with Client(StdioServerParameters(command=BIN, args=[str(vault)]), mode="auto") as client:
        session = (await call(client, "start_session", {"label": "memory e2e"}))["session_id"]
        await call(client, "create_entity", {"name": "Acme", "type": "other",
                                             "observations": ["A firm in Lisbon"]})
        await call(client, "create_entity", {"name": "Ann", "type": "person"})
        await call(client, "create_entity", {
            "name": "Jo Smith", "type": "person", "aliases": ["Jo"],
            "observations": ["Prefers tea"], "session": session,
            "relations": [{"relation": "works_at", "target": "Acme"}]})
        await call(client, "add_observation", {"name": "Jo Smith", "text": "Plays chess",
                                               "session": session})
        await call(client, "link_entities", {"from": "Jo Smith", "relation": "knows", "to": "Ann"})
        await call(client, "end_session", {"session_id": session})
        return session


def human_edit(vault: Path) -> None:
    """What a person does in Obsidian between the sessions."""
    note = vault / "Memory" / "Jo Smith.md"
    text = note.read_text(encoding="utf-8")
    expect(text.startswith("---\ntype: person\n"), f"unexpected entity note: {text!r}")
    text = text.replace("type: person\n", "type: person\nlives_in: \"[[Lisbon]]\"\n", 1)
    note.write_text(text + "- Moved to Lisbon\n", encoding="utf-8")
    (vault / "Places").mkdir(exist_ok=True)
    (vault / "Places" / "Lisbon.md").write_text("# Lisbon\n\nA city.\n", encoding="utf-8")


async def second_session(vault: Path, session: str) -> None:
    """Process 2: reads back the agent's and the person's memory, and the first trace."""
    async with Client(StdioServerParameters(command=BIN, args=[str(vault)]), mode="legacy") as client:
        # The index follows the person's edit on its own (the start-up scan): wait until
        # Lisbon's backlinks name Jo Smith, as a client waiting for fresh results would.
        for _ in range(100):
            backlinks = await call(client, "get_backlinks", {"path": "Places/Lisbon.md"})
            if "Memory/Jo Smith.md" in str(backlinks):
                break
            await asyncio.sleep(0.1)
        else:
            raise StepFailed(f"the person's link never reached the index: {backlinks}")
        jo = await call(client, "get_entity", {"name": "Jo Smith"})
        facts = [item["text"] for item in jo["observations"]]
        expect(facts == ["Prefers tea", "Plays chess", "Moved to Lisbon"], f"observations {facts}")
        relations = {(r["relation"], r["path"]) for r in jo["relations"]}
        want = {("works_at", "Memory/Acme.md"), ("knows", "Memory/Ann.md"),
                ("lives_in", "Places/Lisbon.md")}
        expect(relations == want, f"relations {relations}")

        graph = await call(client, "query_entity_graph", {"name": "Jo Smith", "depth": 1})
        nodes = {node["path"] for node in graph["nodes"]}
        expect(nodes == {"Memory/Jo Smith.md", "Memory/Acme.md", "Memory/Ann.md",
                         "Places/Lisbon.md"}, f"graph nodes {nodes}")

        for name in ("Jo Smith", "Acme", "Ann"):
            links = (await call(client, "get_outgoing_links",
                                {"path": f"Memory/{name}.md"}))["links"]
            unresolved = [link for link in links if not link.get("resolved_path")]
            expect(not unresolved, f"Memory/{name}.md has unresolved links: {unresolved}")

        trace = await call(client, "get_session_traces", {"session_id": session})
        kinds = [(item["kind"], item.get("tool")) for item in trace["items"]]
        expect(kinds == [("start", None), ("call", "create_entity"), ("call", "create_entity"),
                         ("call", "create_entity"), ("call", "add_observation"),
                         ("call", "link_entities"), ("end", None)], f"trace {kinds}")
        expect(trace["skipped_lines"] == 0, f"skipped lines {trace['skipped_lines']}")
        expect("Prefers tea" not in str(trace), "the trace holds note text")


async def main() -> int:
    vault = fresh_vault()
    try:
        session = await first_session(vault)
        human_edit(vault)
        await second_session(vault, session)
    except Exception as error:  # noqa: BLE001 — one report, then fail
        while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        print(f"not ok - agent memory across two processes: {type(error).__name__}: {error}",
              flush=True)
        return 1
    finally:
        shutil.rmtree(vault.parent, ignore_errors=True)
    print("ok - agent memory across two processes (Python mcp Client over stdio)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
