// Lint of the TC Bridge plugin with the rules the community store's automated review runs:
// eslint-plugin-obsidianmd's recommended config (typescript-eslint type-checked rules included).
import tseslint from "typescript-eslint";
import obsidianmd from "eslint-plugin-obsidianmd";
import globals from "globals";
import { globalIgnores } from "eslint/config";

export default tseslint.config(
	{
		languageOptions: {
			globals: { ...globals.browser },
			parserOptions: {
				projectService: true,
				tsconfigRootDir: import.meta.dirname,
				extraFileExtensions: [".json"],
			},
		},
	},
	...obsidianmd.configs.recommended,
	// manifest.json is parsed as a JS expression so the store's manifest rule can read it.
	{
		files: ["manifest.json"],
		languageOptions: { parser: tseslint.parser, parserOptions: { projectService: false, project: null } },
		plugins: { obsidianmd },
		rules: { "obsidianmd/validate-manifest": "error" },
	},
	// Only the plugin's sources, manifest and package.json are the plugin; the rest of the
	// repository (Rust crates, generated wasm-bindgen glue, tests, scripts) is not linted here.
	globalIgnores([
		"**/*",
		"!plugin/",
		"!plugin/**",
		"!manifest.json",
		"!package.json",
	]),
);
