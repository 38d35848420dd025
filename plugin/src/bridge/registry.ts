// The tools the bridge serves: a small registry that later pieces (search, Dataview, ...) fill.

/** One MCP content item, relayed to the client as is (seed 001). */
export interface ContentItem {
	type: string;
	text?: string;
	data?: string;
	mimeType?: string;
	[key: string]: unknown;
}

/** What a tool returns: MCP content, and `isError` for a tool-level failure (HTTP 200). */
export interface ToolResult {
	content: ContentItem[];
	/** The result as JSON (MCP `structuredContent`); the companion API's `result` or error body. */
	structuredContent?: unknown;
	isError?: boolean;
}

/** A JSON Schema object; `required` lists the argument names the bridge checks before `run`. */
export interface InputSchema {
	type: "object";
	properties?: Record<string, unknown>;
	required?: string[];
	[key: string]: unknown;
}

export interface BridgeTool {
	name: string;
	description: string;
	inputSchema: InputSchema;
	/** Changes notes or runs app actions (the status bar shows "writing" while it runs). */
	writes?: boolean;
	run(args: Record<string, unknown>): Promise<ToolResult> | ToolResult;
}

/** The public part of a tool, as listed by `GET /bridge/v1/tools` and hashed. */
export interface ToolListing {
	name: string;
	description: string;
	inputSchema: InputSchema;
}

/**
 * MCP tool names: 1 to 128 of `A-Z a-z 0-9 _ - .`. On this alphabet the engine's tool-list hash
 * orders names exactly as seed 001's `localeCompare` sort does, so the hash is the seed's for
 * every list the registry can hold.
 */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export class ToolRegistry {
	private readonly tools = new Map<string, BridgeTool>();

	/** Adds a tool; an invalid name or a second tool with the same name is refused. Returns an unregister function. */
	register(tool: BridgeTool): () => void {
		if (!TOOL_NAME.test(tool.name)) {
			throw new Error(`'${tool.name}' is not a valid tool name: use 1 to 128 of A-Z, a-z, 0-9, _, - and .`);
		}
		if (this.tools.has(tool.name)) throw new Error(`Tool '${tool.name}' is already registered`);
		this.tools.set(tool.name, tool);
		return () => {
			if (this.tools.get(tool.name) === tool) this.tools.delete(tool.name);
		};
	}

	/** Removes the tool called `name`; returns whether there was one. */
	unregister(name: string): boolean {
		return this.tools.delete(name);
	}

	get(name: string): BridgeTool | undefined {
		return this.tools.get(name);
	}

	/** Listings in registration order. */
	list(): ToolListing[] {
		return Array.from(this.tools.values(), (t) => ({
			name: t.name,
			description: t.description,
			inputSchema: t.inputSchema,
		}));
	}
}
