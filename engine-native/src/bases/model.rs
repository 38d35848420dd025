//! A `.base` file read into [`Base`]: filters (a statement or `and` / `or` / `not` of
//! them), formulas, property display names and views, each filter statement with its
//! location (`filters.and[1]`, `views[2].filters.or[0]`) for error messages.

use serde_json::{Map, Value};

/// A construct outside the supported subset, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseError {
    /// What is not supported (or not valid).
    pub construct: String,
    /// Where in the base (`views[1].filters.and[0]`, `formulas.Age`).
    pub location: String,
}

impl BaseError {
    fn at(location: &str, construct: impl Into<String>) -> BaseError {
        BaseError {
            construct: construct.into(),
            location: location.to_owned(),
        }
    }
}

/// A filter tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    /// One expression, as written, with its location.
    Statement {
        /// The expression's source.
        source: String,
        /// Where it is.
        location: String,
    },
    /// Every one holds.
    And(Vec<Filter>),
    /// At least one holds.
    Or(Vec<Filter>),
    /// None holds.
    Not(Vec<Filter>),
}

/// One sort key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortKey {
    /// The property id (`file.name`, `note.year`, `formula.x`, `year`).
    pub property: String,
    /// Descending.
    pub descending: bool,
}

/// One view.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// `table`, `cards`, `map`, ...
    pub view_type: String,
    /// The display name.
    pub name: String,
    /// The view's own filters (ANDed with the base's).
    pub filters: Option<Filter>,
    /// The columns, in order.
    pub order: Vec<String>,
    /// Sort keys, most significant first.
    pub sort: Vec<SortKey>,
    /// The most rows shown.
    pub limit: Option<usize>,
    /// Rows grouped by this property.
    pub group_by: Option<SortKey>,
}

/// A parsed base.
#[derive(Debug, Clone, PartialEq)]
pub struct Base {
    /// The base's filters.
    pub filters: Option<Filter>,
    /// Formulas, name → source, in file order.
    pub formulas: Vec<(String, String)>,
    /// Display names, by canonical property id.
    pub display_names: Map<String, Value>,
    /// The views.
    pub views: Vec<View>,
}

/// The canonical id of a property: bare names are note properties (`year` → `note.year`).
pub fn canonical_property(id: &str) -> String {
    match id.split_once('.') {
        Some(("file" | "note" | "formula", _)) => id.to_owned(),
        _ => format!("note.{id}"),
    }
}

/// Reads the JSON form of a `.base` file.
pub fn read_base(root: &Value) -> Result<Base, BaseError> {
    let empty = Map::new();
    let Some(root) = root.as_object().or(root.is_null().then_some(&empty)) else {
        return Err(BaseError::at("(root)", "a base that is not a YAML mapping"));
    };
    let filters = root
        .get("filters")
        .filter(|v| !v.is_null())
        .map(|f| read_filter(f, "filters"))
        .transpose()?;
    let mut formulas = Vec::new();
    if let Some(map) = root.get("formulas").and_then(Value::as_object) {
        for (name, source) in map {
            let source = match source {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => {
                    return Err(BaseError::at(
                        &format!("formulas.{name}"),
                        "a formula that is not text",
                    ));
                }
            };
            formulas.push((name.clone(), source));
        }
    }
    let mut display_names = Map::new();
    if let Some(map) = root.get("properties").and_then(Value::as_object) {
        for (id, config) in map {
            if let Some(name) = config.get("displayName") {
                display_names.insert(canonical_property(id), name.clone());
            }
        }
    }
    let views = match root.get("views") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(views)) => views
            .iter()
            .enumerate()
            .map(|(i, v)| read_view(v, &format!("views[{i}]")))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(BaseError::at("views", "`views` that is not a list")),
    };
    Ok(Base {
        filters,
        formulas,
        display_names,
        views,
    })
}

fn read_filter(value: &Value, location: &str) -> Result<Filter, BaseError> {
    match value {
        Value::String(source) => Ok(Filter::Statement {
            source: source.clone(),
            location: location.to_owned(),
        }),
        Value::Bool(b) => Ok(Filter::Statement {
            source: b.to_string(),
            location: location.to_owned(),
        }),
        Value::Object(map) if map.len() == 1 => {
            let (key, items) = map
                .iter()
                .next()
                .ok_or_else(|| BaseError::at(location, "an empty filter object"))?;
            let here = format!("{location}.{key}");
            let list = match items {
                Value::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| read_filter(item, &format!("{here}[{i}]")))
                    .collect::<Result<Vec<_>, _>>()?,
                Value::Null => Vec::new(),
                single => vec![read_filter(single, &format!("{here}[0]"))?],
            };
            match key.as_str() {
                "and" => Ok(Filter::And(list)),
                "or" => Ok(Filter::Or(list)),
                "not" => Ok(Filter::Not(list)),
                other => Err(BaseError::at(
                    location,
                    format!("filter key `{other}` (only and, or, not)"),
                )),
            }
        }
        Value::Object(map) => Err(BaseError::at(
            location,
            format!(
                "a filter object with keys {:?} (exactly one of and, or, not)",
                map.keys().collect::<Vec<_>>()
            ),
        )),
        _ => Err(BaseError::at(
            location,
            "a filter that is neither text nor and/or/not",
        )),
    }
}

fn sort_key(value: &Value, location: &str) -> Result<SortKey, BaseError> {
    let property = value
        .get("property")
        .or_else(|| value.get("column"))
        .and_then(Value::as_str)
        .ok_or_else(|| BaseError::at(location, "a sort entry without `property`"))?;
    let descending = match value.get("direction").and_then(Value::as_str) {
        None => false,
        Some(d) if d.eq_ignore_ascii_case("asc") => false,
        Some(d) if d.eq_ignore_ascii_case("desc") => true,
        Some(d) => {
            return Err(BaseError::at(
                location,
                format!("sort direction `{d}` (ASC or DESC)"),
            ));
        }
    };
    Ok(SortKey {
        property: property.to_owned(),
        descending,
    })
}

fn read_view(value: &Value, location: &str) -> Result<View, BaseError> {
    let text = |key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let order = value
        .get("order")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let sort = match value.get("sort") {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| sort_key(item, &format!("{location}.sort[{i}]")))
            .collect::<Result<_, _>>()?,
        _ => Vec::new(),
    };
    let limit = match value.get("limit") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    BaseError::at(
                        &format!("{location}.limit"),
                        "a limit that is not a whole number",
                    )
                })?,
        ),
    };
    let group_by = value
        .get("groupBy")
        .filter(|g| !g.is_null())
        .map(|g| sort_key(g, &format!("{location}.groupBy")))
        .transpose()?;
    Ok(View {
        view_type: text("type"),
        name: text("name"),
        filters: value
            .get("filters")
            .filter(|v| !v.is_null())
            .map(|f| read_filter(f, &format!("{location}.filters")))
            .transpose()?,
        order,
        sort,
        limit,
        group_by,
    })
}
