// Copying a setting's value to the clipboard, with a notice saying whether it worked.
import { Notice } from "obsidian";

/** Copies `text`; `what` names it in the notice ("Token", "MCP URL", ...). */
export async function copyText(text: string, what: string): Promise<void> {
	try {
		await navigator.clipboard.writeText(text);
		new Notice(`${what} copied to the clipboard.`);
	} catch {
		new Notice(`Could not copy the ${what}: focus the window and try again.`);
	}
}
