//! Evaluating a checked expression for one file of the query.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::expr::{BinaryOp, Expr};
use super::value::{Val, compare, normalize_target, number_text};
use crate::calendar::Date;

/// What a query knows about one file.
#[derive(Debug, Clone, Default)]
pub struct FileFacts {
    /// Vault-relative path.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, Unix milliseconds.
    pub mtime_ms: i64,
    /// Frontmatter (empty for anything but an indexed note).
    pub frontmatter: Map<String, Value>,
    /// Tag keys (lowercase, no `#`).
    pub tags: Vec<String>,
    /// The paths this file links to (resolved notes).
    pub links: Vec<String>,
}

impl FileFacts {
    /// The file name with its extension.
    pub fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }

    /// The extension without the dot (`""` without one).
    pub fn ext(&self) -> &str {
        self.name().rsplit_once('.').map_or("", |(_, ext)| ext)
    }

    /// The file name without its extension.
    pub fn basename(&self) -> &str {
        let name = self.name();
        name.rsplit_once('.').map_or(name, |(base, _)| base)
    }

    /// The parent folder (`""` at the root).
    pub fn folder(&self) -> &str {
        self.path.rsplit_once('/').map_or("", |(folder, _)| folder)
    }
}

/// The files of a query and how links resolve among them.
pub struct Universe {
    /// Every file the caller may read.
    pub files: Vec<FileFacts>,
    by_path: HashMap<String, usize>,
    by_name: HashMap<String, usize>,
    /// The file `this` is.
    pub this: usize,
    /// The query's time, Unix milliseconds.
    pub now_ms: i64,
}

impl Universe {
    /// The universe of `files`, with `this` at index `this`.
    pub fn new(files: Vec<FileFacts>, this: usize, now_ms: i64) -> Universe {
        let mut by_path = HashMap::new();
        let mut by_name = HashMap::new();
        for (i, file) in files.iter().enumerate() {
            let lower = file.path.to_lowercase();
            if let Some(stem) = lower.strip_suffix(".md") {
                by_path.insert(stem.to_owned(), i);
                by_name
                    .entry(stem.rsplit('/').next().unwrap_or(stem).to_owned())
                    .or_insert(i);
            }
            by_name.entry(file.name().to_lowercase()).or_insert(i);
            by_path.insert(lower, i);
        }
        Universe {
            files,
            by_path,
            by_name,
            this,
            now_ms,
        }
    }

    /// The file a link target resolves to (by path, then by name, case-insensitively).
    pub fn resolve(&self, target: &str) -> Option<usize> {
        let target = normalize_target(target).to_lowercase();
        let target = target.trim_start_matches('/');
        self.by_path
            .get(target)
            .or_else(|| self.by_name.get(target))
            .copied()
    }

    /// The path of file `i`.
    pub fn path_of(&self, i: usize) -> String {
        self.files
            .get(i)
            .map_or_else(String::new, |f| f.path.clone())
    }
}

/// Evaluates expressions for one row, computing formulas on demand.
pub struct Row<'u> {
    /// The query's files.
    pub universe: &'u Universe,
    /// The row's file.
    pub file: usize,
    /// The parsed formulas.
    pub formulas: &'u HashMap<String, Expr>,
    /// Formula values computed so far.
    pub cache: HashMap<String, Val>,
    /// How deep formula evaluation is (a guard; cycles were refused by the check).
    depth: usize,
}

impl<'u> Row<'u> {
    /// A row for file `file`.
    pub fn new(
        universe: &'u Universe,
        formulas: &'u HashMap<String, Expr>,
        file: usize,
    ) -> Row<'u> {
        Row {
            universe,
            file,
            formulas,
            cache: HashMap::new(),
            depth: 0,
        }
    }

    fn text(&self, value: &Val) -> String {
        value.text(&|i| self.universe.path_of(i))
    }

    /// The value of formula `name`.
    pub fn formula(&mut self, name: &str) -> Val {
        if let Some(value) = self.cache.get(name) {
            return value.clone();
        }
        let Some(expr) = self.formulas.get(name) else {
            return Val::Null;
        };
        if self.depth > 32 {
            return Val::Null;
        }
        self.depth += 1;
        let value = self.eval(expr);
        self.depth -= 1;
        self.cache.insert(name.to_owned(), value.clone());
        value
    }

    /// The note property `name` of file `file`.
    fn property(&self, file: usize, name: &str) -> Val {
        self.universe
            .files
            .get(file)
            .and_then(|f| f.frontmatter.get(name))
            .map_or(Val::Null, Val::from_json)
    }

    /// Evaluates `expr` (checked) for this row.
    pub fn eval(&mut self, expr: &Expr) -> Val {
        match expr {
            Expr::Null => Val::Null,
            Expr::Bool(b) => Val::Bool(*b),
            Expr::Number(n) => Val::Num(*n),
            Expr::Text(t) => Val::Text(t.clone()),
            Expr::List(items) => Val::List(items.iter().map(|i| self.eval(i)).collect()),
            Expr::Name(name) => match name.as_str() {
                "file" => Val::File(self.file),
                "this" => Val::File(self.universe.this),
                _ => self.property(self.file, name),
            },
            Expr::Member(object, field) => match object.as_ref() {
                Expr::Name(n) if n == "formula" => self.formula(field),
                Expr::Name(n) if n == "note" => self.property(self.file, field),
                Expr::Name(n) if n == "this" && field != "file" => {
                    self.property(self.universe.this, field)
                }
                _ => {
                    let object = self.eval(object);
                    self.member(&object, field)
                }
            },
            Expr::Index(object, index) => {
                let index = self.eval(index);
                match (object.as_ref(), index) {
                    (Expr::Name(n), Val::Text(key)) if n == "note" => {
                        self.property(self.file, &key)
                    }
                    (object, Val::Num(i)) => match self.eval(object) {
                        Val::List(items) if i >= 0.0 => {
                            items.get(i as usize).cloned().unwrap_or(Val::Null)
                        }
                        _ => Val::Null,
                    },
                    (object, Val::Text(key)) => match self.eval(object) {
                        Val::Object(map) => map.get(&key).map_or(Val::Null, Val::from_json),
                        _ => Val::Null,
                    },
                    _ => Val::Null,
                }
            }
            Expr::Unary('!', operand) => Val::Bool(!self.eval(operand).truthy()),
            Expr::Unary(_, operand) => match self.eval(operand) {
                Val::Num(n) => Val::Num(-n),
                _ => Val::Null,
            },
            Expr::Binary(BinaryOp::And, l, r) => {
                Val::Bool(self.eval(l).truthy() && self.eval(r).truthy())
            }
            Expr::Binary(BinaryOp::Or, l, r) => {
                Val::Bool(self.eval(l).truthy() || self.eval(r).truthy())
            }
            Expr::Binary(op, l, r) => {
                let (l, r) = (self.eval(l), self.eval(r));
                self.binary(*op, &l, &r)
            }
            Expr::Call(callee, args) => self.call(callee, args),
        }
    }

    fn member(&self, object: &Val, field: &str) -> Val {
        match (object, field) {
            (Val::File(i), _) => self.file_field(*i, field),
            (Val::Text(s), "length") => Val::Num(s.chars().count() as f64),
            (Val::List(items), "length") => Val::Num(items.len() as f64),
            _ => Val::Null,
        }
    }

    fn file_field(&self, i: usize, field: &str) -> Val {
        let Some(file) = self.universe.files.get(i) else {
            return Val::Null;
        };
        match field {
            "file" => Val::File(i),
            "name" => Val::Text(file.name().to_owned()),
            "basename" => Val::Text(file.basename().to_owned()),
            "path" => Val::Text(file.path.clone()),
            "folder" => Val::Text(file.folder().to_owned()),
            "ext" => Val::Text(file.ext().to_owned()),
            "size" => Val::Num(file.size as f64),
            "mtime" => Val::Date(file.mtime_ms),
            "tags" => Val::List(file.tags.iter().map(|t| Val::Text(t.clone())).collect()),
            "links" => Val::List(
                file.links
                    .iter()
                    .filter_map(|p| self.universe.resolve(p))
                    .map(Val::File)
                    .collect(),
            ),
            "properties" => Val::Object(file.frontmatter.clone()),
            _ => Val::Null,
        }
    }

    /// The file a value points at: a file, a link, or a path or name as text.
    fn file_of(&self, value: &Val) -> Option<usize> {
        match value {
            Val::File(i) => Some(*i),
            Val::Link(target) | Val::Text(target) => self.universe.resolve(target),
            _ => None,
        }
    }

    /// Loose equality: links and files are equal when they are the same file.
    pub fn equal(&self, a: &Val, b: &Val) -> bool {
        match (a, b) {
            (Val::Num(x), Val::Num(y)) => x == y,
            (Val::Link(x), Val::Link(y)) => {
                x.eq_ignore_ascii_case(y)
                    || matches!((self.file_of(a), self.file_of(b)), (Some(i), Some(j)) if i == j)
            }
            (Val::Link(_) | Val::File(_), Val::Link(_) | Val::File(_)) => {
                matches!((self.file_of(a), self.file_of(b)), (Some(i), Some(j)) if i == j)
            }
            (Val::Date(x), Val::Date(y)) => x == y,
            (Val::Date(_), Val::Text(t)) | (Val::Text(t), Val::Date(_)) => Date::parse_iso(t)
                .is_some_and(|d| {
                    let ms = d.days() * 86_400_000;
                    matches!((a, b), (Val::Date(x), _) | (_, Val::Date(x)) if *x == ms)
                }),
            _ => a == b,
        }
    }

    fn contains(&self, haystack: &Val, needle: &Val) -> bool {
        match haystack {
            Val::List(items) => items.iter().any(|item| self.equal(item, needle)),
            Val::Text(s) => s.contains(&self.text(needle)),
            _ => false,
        }
    }

    fn binary(&self, op: BinaryOp, l: &Val, r: &Val) -> Val {
        use std::cmp::Ordering;
        let num = |f: fn(f64, f64) -> f64| match (l, r) {
            (Val::Num(x), Val::Num(y)) => Val::Num(f(*x, *y)),
            _ => Val::Null,
        };
        let order = || -> Option<Ordering> {
            match (l, r) {
                (Val::Num(x), Val::Num(y)) => x.partial_cmp(y),
                (Val::Text(x), Val::Text(y)) => Some(x.cmp(y)),
                (Val::Date(x), Val::Date(y)) => Some(x.cmp(y)),
                (Val::Date(x), Val::Text(t)) => {
                    Date::parse_iso(t).map(|d| x.cmp(&(d.days() * 86_400_000)))
                }
                (Val::Text(t), Val::Date(y)) => {
                    Date::parse_iso(t).map(|d| (d.days() * 86_400_000).cmp(y))
                }
                _ => None,
            }
        };
        match op {
            BinaryOp::Eq => Val::Bool(self.equal(l, r)),
            BinaryOp::Ne => Val::Bool(!self.equal(l, r)),
            BinaryOp::Lt => Val::Bool(order() == Some(Ordering::Less)),
            BinaryOp::Le => Val::Bool(matches!(order(), Some(Ordering::Less | Ordering::Equal))),
            BinaryOp::Gt => Val::Bool(order() == Some(Ordering::Greater)),
            BinaryOp::Ge => Val::Bool(matches!(order(), Some(Ordering::Greater | Ordering::Equal))),
            BinaryOp::Add => match (l, r) {
                (Val::Num(x), Val::Num(y)) => Val::Num(x + y),
                (Val::Text(_), _) | (_, Val::Text(_)) => {
                    Val::Text(format!("{}{}", self.text(l), self.text(r)))
                }
                _ => Val::Null,
            },
            BinaryOp::Sub => match (l, r) {
                (Val::Date(x), Val::Date(y)) => Val::Num((x - y) as f64),
                _ => num(|x, y| x - y),
            },
            BinaryOp::Mul => num(|x, y| x * y),
            BinaryOp::Div => num(|x, y| x / y),
            BinaryOp::Rem => num(|x, y| x % y),
            BinaryOp::And | BinaryOp::Or => Val::Null,
        }
    }

    fn call(&mut self, callee: &Expr, args: &[Expr]) -> Val {
        match callee {
            Expr::Name(function) => self.function(function, args),
            Expr::Member(object, method) => {
                let object = self.eval(object);
                let args: Vec<Val> = args.iter().map(|a| self.eval(a)).collect();
                self.method(&object, method, &args)
            }
            _ => Val::Null,
        }
    }

    fn function(&mut self, function: &str, args: &[Expr]) -> Val {
        if function == "if" {
            let condition = args.first().map(|c| self.eval(c)).unwrap_or(Val::Null);
            let branch = if condition.truthy() {
                args.get(1)
            } else {
                args.get(2)
            };
            return branch.map_or(Val::Null, |b| self.eval(b));
        }
        let args: Vec<Val> = args.iter().map(|a| self.eval(a)).collect();
        let first = args.first().cloned().unwrap_or(Val::Null);
        let day_ms = self.universe.now_ms.div_euclid(86_400_000) * 86_400_000;
        match function {
            "link" => match first {
                Val::File(i) => Val::Link(self.universe.path_of(i)),
                other => Val::Link(normalize_target(&self.text(&other))),
            },
            "list" => match first {
                Val::List(_) => first,
                Val::Null => Val::List(Vec::new()),
                other => Val::List(vec![other]),
            },
            "now" => Val::Date(self.universe.now_ms),
            "today" => Val::Date(day_ms),
            "date" => match &first {
                Val::Date(_) => first,
                Val::Text(t) => Date::parse_iso(t.get(..10).unwrap_or(t))
                    .map_or(Val::Null, |d| Val::Date(d.days() * 86_400_000)),
                _ => Val::Null,
            },
            "number" => match first {
                Val::Num(_) => first,
                Val::Bool(b) => Val::Num(f64::from(u8::from(b))),
                Val::Date(ms) => Val::Num(ms as f64),
                Val::Text(t) => t.trim().parse().map_or(Val::Null, Val::Num),
                _ => Val::Null,
            },
            "min" | "max" => {
                let numbers = args.iter().filter_map(|a| match a {
                    Val::Num(n) => Some(*n),
                    _ => None,
                });
                let folded = if function == "min" {
                    numbers.fold(None, |m: Option<f64>, n| Some(m.map_or(n, |m| m.min(n))))
                } else {
                    numbers.fold(None, |m: Option<f64>, n| Some(m.map_or(n, |m| m.max(n))))
                };
                folded.map_or(Val::Null, Val::Num)
            }
            _ => Val::Null,
        }
    }

    fn method(&self, object: &Val, method: &str, args: &[Val]) -> Val {
        let first = args.first().cloned().unwrap_or(Val::Null);
        let text_arg = self.text(&first);
        match (method, object) {
            ("contains", _) => Val::Bool(self.contains(object, &first)),
            ("containsAny", _) => Val::Bool(args.iter().any(|a| self.contains(object, a))),
            ("containsAll", _) => Val::Bool(args.iter().all(|a| self.contains(object, a))),
            ("isEmpty", _) => Val::Bool(object.is_empty()),
            ("isTruthy", _) => Val::Bool(object.truthy()),
            ("toString", _) => Val::Text(self.text(object)),
            ("startsWith", Val::Text(s)) => Val::Bool(s.starts_with(&text_arg)),
            ("endsWith", Val::Text(s)) => Val::Bool(s.ends_with(&text_arg)),
            ("lower", Val::Text(s)) => Val::Text(s.to_lowercase()),
            ("upper", Val::Text(s)) => Val::Text(s.to_uppercase()),
            ("trim", Val::Text(s)) => Val::Text(s.trim().to_owned()),
            ("hasTag", Val::File(i)) => {
                let tags = self.universe.files.get(*i).map_or(&[][..], |f| &f.tags[..]);
                Val::Bool(args.iter().any(|wanted| {
                    let wanted = self.text(wanted).trim_start_matches('#').to_lowercase();
                    tags.iter().any(|t| {
                        *t == wanted || t.strip_prefix(&wanted).is_some_and(|r| r.starts_with('/'))
                    })
                }))
            }
            ("inFolder", Val::File(i)) => {
                let folder = text_arg.trim_matches('/').to_owned();
                let path = self.universe.path_of(*i);
                Val::Bool(folder.is_empty() || path.starts_with(&format!("{folder}/")))
            }
            ("hasLink", Val::File(i)) => {
                let target = self.file_of(&first);
                let links = self
                    .universe
                    .files
                    .get(*i)
                    .map_or(&[][..], |f| &f.links[..]);
                Val::Bool(
                    target
                        .is_some_and(|t| links.iter().any(|l| self.universe.resolve(l) == Some(t))),
                )
            }
            ("hasProperty", Val::File(i)) => Val::Bool(
                self.universe
                    .files
                    .get(*i)
                    .is_some_and(|f| f.frontmatter.contains_key(&text_arg)),
            ),
            ("round", Val::Num(n)) => Val::Num(match first {
                Val::Num(digits) => {
                    let scale = 10f64.powi(digits as i32);
                    (n * scale).round() / scale
                }
                _ => n.round(),
            }),
            ("floor", Val::Num(n)) => Val::Num(n.floor()),
            ("ceil", Val::Num(n)) => Val::Num(n.ceil()),
            ("abs", Val::Num(n)) => Val::Num(n.abs()),
            ("toFixed", Val::Num(n)) => match first {
                Val::Num(digits) if (0.0..=20.0).contains(&digits) => {
                    Val::Text(format!("{:.*}", digits as usize, n))
                }
                _ => Val::Text(number_text(*n)),
            },
            ("join", Val::List(items)) => Val::Text(
                items
                    .iter()
                    .map(|i| self.text(i))
                    .collect::<Vec<_>>()
                    .join(&text_arg),
            ),
            ("unique", Val::List(items)) => {
                let mut out: Vec<Val> = Vec::new();
                for item in items {
                    if !out.iter().any(|o| self.equal(o, item)) {
                        out.push(item.clone());
                    }
                }
                Val::List(out)
            }
            ("reverse", Val::List(items)) => Val::List(items.iter().rev().cloned().collect()),
            ("reverse", Val::Text(s)) => Val::Text(s.chars().rev().collect()),
            _ => Val::Null,
        }
    }

    /// Orders two values as a sort does.
    pub fn order(&self, a: &Val, b: &Val) -> std::cmp::Ordering {
        compare(a, b, &|i| self.universe.path_of(i))
    }
}
