//! The expression language of Bases filters and formulas: a tokenizer and a precedence
//! parser into [`Expr`]. Anything the parser does not know is an [`Unsupported`] naming
//! the construct and its column, never a guess.

use std::fmt;

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number literal.
    Number(f64),
    /// A quoted text literal.
    Text(String),
    /// A bare name: a note property, `file`, `note`, `formula` or `this`.
    Name(String),
    /// `a.b`.
    Member(Box<Expr>, String),
    /// `a[i]` / `note["x"]`.
    Index(Box<Expr>, Box<Expr>),
    /// `f(x)` or `a.m(x)` (the callee is a `Name` or a `Member`).
    Call(Box<Expr>, Vec<Expr>),
    /// `!a` / `-a`.
    Unary(char, Box<Expr>),
    /// `a op b`.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `[a, b]`.
    List(Vec<Expr>),
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `||`.
    Or,
    /// `&&`.
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
}

impl BinaryOp {
    fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq | BinaryOp::Ne => 3,
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 4,
            BinaryOp::Add | BinaryOp::Sub => 5,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 6,
        }
    }
}

/// A construct outside the supported subset (or not an expression at all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    /// What it is, e.g. `` method `toFixed` `` or `` syntax `=>` ``.
    pub construct: String,
    /// 1-based character column in the expression, when known.
    pub column: Option<usize>,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "{} at column {column}", self.construct),
            None => f.write_str(&self.construct),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64),
    Text(String),
    Name(String),
    Punct(&'static str),
}

const PUNCTS: [&str; 20] = [
    "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[", "]",
    ".", ",",
];

fn unsupported(construct: impl Into<String>, column: usize) -> Unsupported {
    Unsupported {
        construct: construct.into(),
        column: Some(column),
    }
}

/// Tokens with their 1-based columns.
fn tokenize(source: &str) -> Result<Vec<(Token, usize)>, Unsupported> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c == '"' || c == '\'' {
            let mut text = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err(unsupported("unterminated text literal", column)),
                    Some(&q) if q == c => break,
                    Some('\\') => {
                        text.push(*chars.get(i + 1).unwrap_or(&'\\'));
                        i += 2;
                    }
                    Some(&other) => {
                        text.push(other);
                        i += 1;
                    }
                }
            }
            i += 1;
            tokens.push((Token::Text(text), column));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let number = text
                .parse()
                .map_err(|_| unsupported(format!("number `{text}`"), column))?;
            tokens.push((Token::Number(number), column));
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            tokens.push((Token::Name(chars[start..i].iter().collect()), column));
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let Some(punct) = PUNCTS.iter().find(|p| rest.starts_with(*p)) else {
                let end = chars[i..]
                    .iter()
                    .position(|c| c.is_whitespace() || c.is_alphanumeric())
                    .map_or(chars.len(), |n| i + n.max(1));
                let text: String = chars[i..end].iter().collect();
                return Err(unsupported(format!("syntax `{text}`"), column));
            };
            i += punct.chars().count();
            tokens.push((Token::Punct(punct), column));
        }
    }
    Ok(tokens)
}

/// Parses one expression.
pub fn parse(source: &str) -> Result<Expr, Unsupported> {
    let tokens = tokenize(source)?;
    let mut parser = Parser { tokens, at: 0 };
    let expr = parser.expression(0)?;
    match parser.tokens.get(parser.at) {
        None => Ok(expr),
        Some((token, column)) => Err(unsupported(
            format!("syntax `{}` after a complete expression", describe(token)),
            *column,
        )),
    }
}

fn describe(token: &Token) -> String {
    match token {
        Token::Number(n) => n.to_string(),
        Token::Text(t) => format!("\"{t}\""),
        Token::Name(n) => n.clone(),
        Token::Punct(p) => (*p).to_owned(),
    }
}

struct Parser {
    tokens: Vec<(Token, usize)>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at).map(|(t, _)| t)
    }

    fn column(&self) -> usize {
        self.tokens
            .get(self.at)
            .or(self.tokens.last())
            .map_or(1, |(_, c)| *c)
    }

    fn eat(&mut self, punct: &str) -> bool {
        if self.peek()
            == Some(&Token::Punct(match PUNCTS.iter().find(|p| **p == punct) {
                Some(p) => p,
                None => return false,
            }))
        {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, punct: &str) -> Result<(), Unsupported> {
        if self.eat(punct) {
            Ok(())
        } else {
            let found = self.peek().map_or("the end".to_owned(), describe);
            Err(unsupported(
                format!("syntax: expected `{punct}`, found `{found}`"),
                self.column(),
            ))
        }
    }

    fn binary_op(&self) -> Option<BinaryOp> {
        let Some(Token::Punct(p)) = self.peek() else {
            return None;
        };
        Some(match *p {
            "||" => BinaryOp::Or,
            "&&" => BinaryOp::And,
            "==" => BinaryOp::Eq,
            "!=" => BinaryOp::Ne,
            "<" => BinaryOp::Lt,
            "<=" => BinaryOp::Le,
            ">" => BinaryOp::Gt,
            ">=" => BinaryOp::Ge,
            "+" => BinaryOp::Add,
            "-" => BinaryOp::Sub,
            "*" => BinaryOp::Mul,
            "/" => BinaryOp::Div,
            "%" => BinaryOp::Rem,
            _ => return None,
        })
    }

    fn expression(&mut self, min: u8) -> Result<Expr, Unsupported> {
        let mut left = self.unary()?;
        while let Some(op) = self.binary_op().filter(|op| op.precedence() > min) {
            self.at += 1;
            let right = self.expression(op.precedence())?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, Unsupported> {
        if self.eat("!") {
            return Ok(Expr::Unary('!', Box::new(self.unary()?)));
        }
        if self.eat("-") {
            return Ok(Expr::Unary('-', Box::new(self.unary()?)));
        }
        let mut expr = self.primary()?;
        loop {
            if self.eat(".") {
                let column = self.column();
                match self.peek().cloned() {
                    Some(Token::Name(name)) => {
                        self.at += 1;
                        expr = Expr::Member(Box::new(expr), name);
                    }
                    _ => return Err(unsupported("syntax: a name must follow `.`", column)),
                }
            } else if self.eat("(") {
                let args = self.arguments()?;
                expr = Expr::Call(Box::new(expr), args);
            } else if self.eat("[") {
                let index = self.expression(0)?;
                self.expect("]")?;
                expr = Expr::Index(Box::new(expr), Box::new(index));
            } else {
                return Ok(expr);
            }
        }
    }

    fn arguments(&mut self) -> Result<Vec<Expr>, Unsupported> {
        let mut args = Vec::new();
        if self.eat(")") {
            return Ok(args);
        }
        loop {
            args.push(self.expression(0)?);
            if self.eat(")") {
                return Ok(args);
            }
            self.expect(",")?;
        }
    }

    fn primary(&mut self) -> Result<Expr, Unsupported> {
        let column = self.column();
        let Some((token, _)) = self.tokens.get(self.at).cloned() else {
            return Err(unsupported("syntax: the expression ends early", column));
        };
        self.at += 1;
        match token {
            Token::Number(n) => Ok(Expr::Number(n)),
            Token::Text(t) => Ok(Expr::Text(t)),
            Token::Name(name) => Ok(match name.as_str() {
                "true" => Expr::Bool(true),
                "false" => Expr::Bool(false),
                "null" => Expr::Null,
                _ => Expr::Name(name),
            }),
            Token::Punct("(") => {
                let inner = self.expression(0)?;
                self.expect(")")?;
                Ok(inner)
            }
            Token::Punct("[") => {
                let mut items = Vec::new();
                if !self.eat("]") {
                    loop {
                        items.push(self.expression(0)?);
                        if self.eat("]") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Ok(Expr::List(items))
            }
            Token::Punct(p) => Err(unsupported(format!("syntax `{p}`"), column)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_calls_members_and_precedence() {
        let expr = parse("!file.name.contains(\"Template\") && note.rating > 6").expect("parse");
        let Expr::Binary(BinaryOp::And, left, right) = expr else {
            panic!("not an and");
        };
        assert!(matches!(*left, Expr::Unary('!', _)));
        assert_eq!(
            *right,
            Expr::Binary(
                BinaryOp::Gt,
                Box::new(Expr::Member(
                    Box::new(Expr::Name("note".into())),
                    "rating".into()
                )),
                Box::new(Expr::Number(6.0))
            )
        );
        assert!(parse("file.embeds[0]").is_ok());
        assert_eq!(parse("1 + 2 * 3").ok(), parse("1 + (2 * 3)").ok());
    }

    #[test]
    fn names_what_it_cannot_read() {
        let error = parse("list(x).filter(v => v)").expect_err("arrow");
        assert_eq!(error.construct, "syntax `=>`");
        assert_eq!(error.column, Some(18));
        assert!(parse("a b").is_err());
    }
}
