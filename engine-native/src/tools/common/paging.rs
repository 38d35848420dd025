//! Paging a list: the `limit` and `cursor` arguments every paging tool takes
//! ([`PageArgs`], with the tool's values in a [`Paging`]), the cursor it returns and takes
//! back (or one bound to the caller and the call, [`bound_cursor`]), and the page of a whole
//! list.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use engine_core::hash::{canonical_json, sha256_hex};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;

/// The offset a paging tool's `cursor` carries (0 without one).
pub(crate) fn cursor_offset(cursor: Option<&str>) -> Result<usize, ToolError> {
    let Some(cursor) = cursor else {
        return Ok(0);
    };
    cursor.parse().map_err(|_| {
        ToolError::new(
            ErrorCode::InvalidInput,
            "the cursor is not one this tool returned; start again without it",
        )
    })
}

/// A cursor bound to the call: the offset `next` with a tag of the caller, the vault, the
/// tool and `args` (the call's arguments but `cursor`), so it serves only the same call of
/// the same caller ([`bound_offset`] reads it back).
pub(crate) fn bound_cursor(ctx: &ToolContext<'_>, args: &Value, next: usize) -> String {
    format!("{next}.{}", binding(ctx, args))
}

/// The offset a cursor from [`bound_cursor`] carries (0 without one); a cursor made for
/// another call, caller or vault, or not made by it, is `invalid_input`.
pub(crate) fn bound_offset(
    ctx: &ToolContext<'_>,
    args: &Value,
    cursor: Option<&str>,
) -> Result<usize, ToolError> {
    let Some(cursor) = cursor else {
        return Ok(0);
    };
    cursor
        .split_once('.')
        .filter(|(_, tag)| *tag == binding(ctx, args))
        .and_then(|(offset, _)| offset.parse().ok())
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::InvalidInput,
                "the cursor is not one this call returned (each cursor serves the same \
                 arguments of the same caller); start again without it",
            )
        })
}

/// The tag binding a cursor: the start of the SHA-256 of the caller, vault, tool and the
/// arguments but `cursor`, in canonical JSON.
fn binding(ctx: &ToolContext<'_>, args: &Value) -> String {
    let mut args = args.clone();
    if let Value::Object(map) = &mut args {
        map.remove("cursor");
    }
    let canonical = canonical_json(&args).unwrap_or_else(|_| args.to_string());
    let bound = [
        ctx.caller().id.as_str(),
        ctx.vault_id(),
        ctx.tool().name(),
        &canonical,
    ]
    .join("\n");
    sha256_hex(bound.as_bytes())[..16].to_owned()
}

/// The page size when no `limit` is given.
pub(crate) const DEFAULT_LIMIT: usize = 100;

/// The most items one page of a list may hold.
pub(crate) const MAX_LIMIT: usize = 1000;

/// One tool's values of the shared paging arguments ([`PageArgs`]): its default and largest
/// page size, what a page holds (for the docs), and the cursor it returns.
pub(crate) trait Paging {
    /// What a page holds, as the argument docs name it (`notes`, `matching lines`).
    const ITEMS: &'static str;
    /// The page size when no `limit` is given.
    const DEFAULT: usize = DEFAULT_LIMIT;
    /// The largest `limit`.
    const MAX: usize = MAX_LIMIT;
    /// How long a `cursor` may be.
    const CURSOR: CursorLength = CursorLength::between(1, 1024);
    /// `limit` may also be `null`, as if left out (its schema then states no default).
    const NULLABLE_LIMIT: bool = false;
    /// The schema states `default: null` for the absent `cursor` (and a nullable `limit`).
    const NULL_DEFAULTS: bool = true;
}

/// The fewest and most characters of a `cursor` a tool takes, where it bounds them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CursorLength {
    min: Option<u64>,
    max: Option<u64>,
}

impl CursorLength {
    /// Any length.
    pub(crate) const ANY: CursorLength = CursorLength {
        min: None,
        max: None,
    };

    /// From `min` to `max` characters.
    pub(crate) const fn between(min: u64, max: u64) -> CursorLength {
        CursorLength {
            min: Some(min),
            max: Some(max),
        }
    }

    /// At most `max` characters.
    pub(crate) const fn at_most(max: u64) -> CursorLength {
        CursorLength {
            min: None,
            max: Some(max),
        }
    }
}

/// The paging arguments of a tool that pages a list, flattened into its argument struct
/// (`#[serde(flatten)] page: PageArgs<Tool>`): `limit`, 1 to `P::MAX` items (default
/// `P::DEFAULT`), and `cursor`, the one the previous page returned. The one definition of
/// both fields, their bounds, defaults and docs; `deny_unknown_fields` on the outer struct
/// still refuses other keys.
#[derive(Deserialize)]
#[serde(bound = "")]
pub(crate) struct PageArgs<P: Paging> {
    #[serde(default)]
    limit: Option<usize>,
    #[serde(default)]
    cursor: Option<String>,
    #[serde(skip)]
    tool: PhantomData<fn() -> P>,
}

impl<P: Paging> fmt::Debug for PageArgs<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PageArgs")
            .field("limit", &self.limit)
            .field("cursor", &self.cursor)
            .finish()
    }
}

impl<P: Paging> PageArgs<P> {
    /// The arguments of a page of `limit` items after `cursor`, for a tool that pages by
    /// another tool's search (`search_entities` over `search_vault`'s).
    pub(crate) fn given(limit: usize, cursor: Option<&str>) -> PageArgs<P> {
        PageArgs {
            limit: Some(limit),
            cursor: cursor.map(str::to_owned),
            tool: PhantomData,
        }
    }

    /// The page size: `limit`, or `P::DEFAULT` without one (at least 1, at most `P::MAX`).
    pub(crate) fn limit(&self) -> usize {
        self.limit.unwrap_or(P::DEFAULT).clamp(1, P::MAX)
    }

    /// The `limit` given, if one was (for a tool that also takes another name for it).
    pub(crate) fn given_limit(&self) -> Option<usize> {
        self.limit
    }

    /// The `cursor` of the previous page, if any.
    pub(crate) fn cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
}

impl<P: Paging> JsonSchema for PageArgs<P> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "PageArgs".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let null_default = |schema: &mut Value| {
            if P::NULL_DEFAULTS {
                schema["default"] = Value::Null;
            }
        };
        let mut limit = json!({
            "description": format!(
                "The most {} in this page (1-{}, default {}).",
                P::ITEMS,
                P::MAX,
                P::DEFAULT
            ),
            "type": "integer",
            "minimum": 1,
            "maximum": P::MAX,
        });
        if P::NULLABLE_LIMIT {
            limit["type"] = json!(["integer", "null"]);
            null_default(&mut limit);
        } else {
            limit["default"] = json!(P::DEFAULT);
        }
        let mut cursor = json!({
            "description": "The `cursor` of the previous page, to get the next one.",
            "type": ["string", "null"],
        });
        if let Some(min) = P::CURSOR.min {
            cursor["minLength"] = json!(min);
        }
        if let Some(max) = P::CURSOR.max {
            cursor["maxLength"] = json!(max);
        }
        null_default(&mut cursor);
        json_schema!({
            "type": "object",
            "properties": {"limit": limit, "cursor": cursor},
        })
    }
}

/// A page of a list.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Page<T> {
    /// The items of this page.
    pub(crate) items: Vec<T>,
    /// How many items the whole list has (all pages).
    pub(crate) total_count: usize,
    /// Pass this as `cursor` to get the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cursor: Option<String>,
}

/// The page of `all` that starts at `cursor` (an offset this tool returned) and holds at
/// most `limit` items.
pub(crate) fn page<T>(
    all: Vec<T>,
    cursor: Option<&str>,
    limit: usize,
) -> Result<Page<T>, ToolError> {
    let total_count = all.len();
    let start = cursor_offset(cursor)?;
    if start > total_count {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "the cursor is past the end of the list; start again without it",
        ));
    }
    let end = start.saturating_add(limit).min(total_count);
    let items: Vec<T> = all.into_iter().skip(start).take(end - start).collect();
    Ok(Page {
        items,
        total_count,
        cursor: (end < total_count).then(|| end.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use schemars::JsonSchema;
    use serde::Deserialize;
    use serde_json::json;

    use super::{CursorLength, PageArgs, Paging};
    use crate::schema::schema_problems;
    use crate::tools::common::args::{input_schema, parse};

    struct Small;

    impl Paging for Small {
        const ITEMS: &'static str = "rows";
        const DEFAULT: usize = 20;
        const MAX: usize = 500;
        const CURSOR: CursorLength = CursorLength::at_most(32);
    }

    struct Nullable;

    impl Paging for Nullable {
        const ITEMS: &'static str = "notes";
        const NULLABLE_LIMIT: bool = true;
        const NULL_DEFAULTS: bool = false;
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Args {
        /// A field of the tool's own.
        query: String,
        #[serde(flatten)]
        page: PageArgs<Small>,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct NullableArgs {
        query: String,
        #[serde(flatten)]
        page: PageArgs<Nullable>,
    }

    #[test]
    fn the_flattened_block_is_inlined_with_the_tools_bounds_and_the_object_stays_closed() {
        let schema = input_schema::<Args>();
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(schema["required"], json!(["query"]));
        let props = &schema["properties"];
        assert_eq!(
            props["limit"],
            json!({
                "description": "The most rows in this page (1-500, default 20).",
                "type": "integer", "minimum": 1, "maximum": 500, "default": 20,
            })
        );
        assert_eq!(
            props["cursor"],
            json!({
                "description": "The `cursor` of the previous page, to get the next one.",
                "type": ["string", "null"], "maxLength": 32, "default": null,
            })
        );
        let nullable = input_schema::<NullableArgs>();
        assert_eq!(
            nullable["properties"]["limit"]["type"],
            json!(["integer", "null"])
        );
        assert!(nullable["properties"]["limit"].get("default").is_none());
        assert!(nullable["properties"]["cursor"].get("default").is_none());
        assert_eq!(nullable["properties"]["cursor"]["maxLength"], 1024);
    }

    #[test]
    fn the_schema_and_serde_refuse_the_same_unknown_key() {
        let args = json!({"query": "q", "limit": 5, "extra": 1});
        assert!(!schema_problems(&args, &input_schema::<Args>()).is_empty());
        assert!(parse::<Args>(args).is_err());
        let out_of_bounds = json!({"query": "q", "limit": 501});
        assert!(!schema_problems(&out_of_bounds, &input_schema::<Args>()).is_empty());
    }

    #[test]
    fn limit_and_cursor_read_back_with_the_tools_default() {
        let args: Args = parse(json!({"query": "q"})).expect("parses");
        assert_eq!((args.page.limit(), args.page.cursor()), (20, None));
        assert_eq!(args.query, "q");
        let args: Args = parse(json!({"query": "q", "limit": 7, "cursor": "40"})).expect("parses");
        assert_eq!((args.page.limit(), args.page.cursor()), (7, Some("40")));
        let args: NullableArgs =
            parse(json!({"query": "q", "limit": null, "cursor": null})).expect("parses");
        assert_eq!((args.page.limit(), args.page.cursor()), (100, None));
        assert_eq!(args.query, "q");
    }
}
