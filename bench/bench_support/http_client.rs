//! A plain keep-alive HTTP/1.1 client for MCP's Streamable HTTP: one TCP connection, JSON-RPC
//! POSTed to the endpoint with the session id, JSON or server-sent-event responses. A
//! [`HttpSession::stateless`] session speaks protocol 2026-07-28 instead: no session, and
//! every request carries the version header, the `Mcp-Method`/`Mcp-Name` headers and the
//! client context in `_meta`.
//!
//! Hand-written on `std::net` so the client adds no runtime threads of its own to a machine
//! the server shares (and no dependency): it reads `Content-Length` and chunked bodies only.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::rpc::{
    PROTOCOL_VERSION, STATELESS_PROTOCOL_VERSION, Session, is_response_to, notification_line,
    request_line,
};

/// One HTTP response: the headers the client needs and the body.
struct Response {
    status: u16,
    content_type: String,
    session_id: Option<String>,
    body: Vec<u8>,
}

/// A keep-alive connection to an MCP endpoint.
pub struct HttpSession {
    host: String,
    path: String,
    writer: TcpStream,
    reader: BufReader<TcpStream>,
    session_id: Option<String>,
    stateless: bool,
}

impl HttpSession {
    /// Connects to `http://127.0.0.1:{port}{path}`, retrying for up to `patience` while the
    /// server starts.
    pub fn connect(port: u16, path: &str, patience: Duration) -> Result<HttpSession, String> {
        let address = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + patience;
        let stream = loop {
            match TcpStream::connect(&address) {
                Ok(stream) => break stream,
                Err(e) if Instant::now() >= deadline => {
                    return Err(format!("cannot connect to {address}: {e}"));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        stream
            .set_nodelay(true)
            .and_then(|()| stream.set_read_timeout(Some(Duration::from_secs(30))))
            .map_err(|e| format!("cannot set up the connection: {e}"))?;
        let reader = stream
            .try_clone()
            .map_err(|e| format!("cannot clone the connection: {e}"))?;
        Ok(HttpSession {
            host: address,
            path: path.to_owned(),
            writer: stream,
            reader: BufReader::new(reader),
            session_id: None,
            stateless: false,
        })
    }

    /// This connection speaking protocol 2026-07-28 (stateless) instead of 2025-11-25.
    pub fn stateless(mut self) -> HttpSession {
        self.stateless = true;
        self
    }

    /// The protocol version this session speaks.
    pub fn protocol(&self) -> &'static str {
        if self.stateless {
            STATELESS_PROTOCOL_VERSION
        } else {
            PROTOCOL_VERSION
        }
    }

    /// The headers of a request for `method` (`name`: the tool of a `tools/call`).
    fn protocol_headers(&self, method: &str, name: Option<&str>) -> String {
        if self.stateless {
            let mut head = format!(
                "MCP-Protocol-Version: {STATELESS_PROTOCOL_VERSION}\r\nMcp-Method: {method}\r\n"
            );
            if let Some(name) = name {
                head.push_str(&format!("Mcp-Name: {name}\r\n"));
            }
            return head;
        }
        match &self.session_id {
            Some(id) => {
                format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: {PROTOCOL_VERSION}\r\n")
            }
            None => String::new(),
        }
    }

    fn post(&mut self, body: &str, headers: &str) -> Result<Response, String> {
        let mut head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            self.path,
            self.host,
            body.len()
        );
        head.push_str(headers);
        head.push_str("\r\n");
        head.push_str(body);
        self.writer
            .write_all(head.as_bytes())
            .map_err(|e| format!("cannot send the request: {e}"))?;
        self.read_response()
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        let read = self
            .reader
            .read_line(&mut line)
            .map_err(|e| format!("cannot read the response: {e}"))?;
        if read == 0 {
            return Err("the server closed the connection".to_owned());
        }
        Ok(line.trim_end_matches(['\r', '\n']).to_owned())
    }

    fn read_response(&mut self) -> Result<Response, String> {
        let status_line = self.read_line()?;
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| format!("not an HTTP status line: {status_line}"))?;
        let (mut length, mut chunked) = (0usize, false);
        let mut content_type = String::new();
        let mut session_id = None;
        loop {
            let line = self.read_line()?;
            if line.is_empty() {
                break;
            }
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => {
                    length = value
                        .parse()
                        .map_err(|_| format!("bad Content-Length: {value}"))?;
                }
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                "content-type" => content_type = value.to_owned(),
                "mcp-session-id" => session_id = Some(value.to_owned()),
                _ => {}
            }
        }
        let body = if chunked {
            self.read_chunked()?
        } else {
            self.read_exact(length)?
        };
        Ok(Response {
            status,
            content_type,
            session_id,
            body,
        })
    }

    fn read_exact(&mut self, length: usize) -> Result<Vec<u8>, String> {
        let mut body = vec![0; length];
        self.reader
            .read_exact(&mut body)
            .map_err(|e| format!("cannot read the body: {e}"))?;
        Ok(body)
    }

    fn read_chunked(&mut self) -> Result<Vec<u8>, String> {
        let mut body = Vec::new();
        loop {
            let size_line = self.read_line()?;
            let size_text = size_line.split(';').next().unwrap_or_default().trim();
            let size = usize::from_str_radix(size_text, 16)
                .map_err(|_| format!("bad chunk size: {size_line}"))?;
            if size == 0 {
                while !self.read_line()?.is_empty() {}
                return Ok(body);
            }
            body.extend(self.read_exact(size)?);
            self.read_line()?;
        }
    }
}

/// The client context a 2026-07-28 request carries in `_meta` (SEP-2575).
fn client_context() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": STATELESS_PROTOCOL_VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "obsidian-tc-bench", "version": "0"}
    })
}

/// The JSON-RPC messages of a response body: the body itself, or each SSE `data:` event.
fn messages(response: &Response) -> Result<Vec<Value>, String> {
    let text = std::str::from_utf8(&response.body)
        .map_err(|e| format!("the response is not UTF-8: {e}"))?;
    if !response.content_type.starts_with("text/event-stream") {
        return serde_json::from_str(text)
            .map(|value| vec![value])
            .map_err(|e| format!("the response is not JSON ({e}): {text}"));
    }
    let mut out = Vec::new();
    for event in text.split("\n\n") {
        let data: Vec<&str> = event
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim_start)
            .collect();
        if data.iter().all(|line| line.is_empty()) {
            continue;
        }
        let value = serde_json::from_str(&data.join("\n"))
            .map_err(|e| format!("an event is not JSON ({e}): {event}"))?;
        out.push(value);
    }
    Ok(out)
}

impl Session for HttpSession {
    fn request(
        &mut self,
        id: u64,
        method: &str,
        mut params: Value,
    ) -> Result<(Duration, Value), String> {
        let name = (method == "tools/call")
            .then(|| {
                params
                    .get("name")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .flatten();
        let headers = self.protocol_headers(method, name.as_deref());
        if self.stateless
            && let Some(params) = params.as_object_mut()
        {
            params.insert("_meta".to_owned(), client_context());
        }
        let body = request_line(id, method, &params);
        let start = Instant::now();
        let response = self.post(&body, &headers)?;
        let elapsed = start.elapsed();
        if response.status != 200 {
            return Err(format!(
                "{method}: HTTP {} {}",
                response.status,
                String::from_utf8_lossy(&response.body)
            ));
        }
        if response.session_id.is_some() {
            self.session_id = response.session_id.clone();
        }
        messages(&response)?
            .into_iter()
            .find(|message| is_response_to(message, id))
            .map(|message| (elapsed, message))
            .ok_or_else(|| format!("{method}: no response to request {id} in the body"))
    }

    fn notify(&mut self, method: &str) -> Result<(), String> {
        let headers = self.protocol_headers(method, None);
        let response = self.post(&notification_line(method), &headers)?;
        match response.status {
            200 | 202 | 204 => Ok(()),
            status => Err(format!("{method}: HTTP {status}")),
        }
    }
}
