//! A small real OpenAI-compatible chat endpoint for tests: a loopback HTTP server answering
//! every request from a fixed reply, handing each request's path, headers and JSON body to
//! the test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

/// How the server answers: status, body, and a wait before answering.
#[derive(Clone)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: String,
    /// The wait before answering.
    pub delay: Duration,
}

/// Serves `reply` to every request on a loopback port; each request's path, headers and
/// JSON body go to the receiver.
pub fn serve(reply: Reply) -> (String, mpsc::Receiver<(String, String, Value)>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/v1", listener.local_addr().expect("addr"));
    let (sent, seen) = mpsc::channel();
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut line = String::new();
            reader.read_line(&mut line).expect("request line");
            let path = line.split(' ').nth(1).unwrap_or_default().to_owned();
            let mut headers = String::new();
            let mut length = 0;
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).expect("header");
                if header.trim().is_empty() {
                    break;
                }
                if let Some(value) = header.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().expect("length");
                }
                headers.push_str(&header);
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).expect("body");
            let _ = sent.send((
                path,
                headers,
                serde_json::from_slice(&body).unwrap_or(Value::Null),
            ));
            thread::sleep(reply.delay);
            let _ = write!(
                stream,
                "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
                reply.status,
                reply.body.len(),
                reply.body
            );
        }
    });
    (url, seen)
}

/// A chat completion answering `text` (model `llama-test`, 42 tokens in, 7 out).
pub fn completion(text: &str) -> String {
    json!({
        "model": "llama-test",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 42, "completion_tokens": 7}
    })
    .to_string()
}

/// A 200 answer of `text`, at once.
pub fn ok(text: &str) -> Reply {
    Reply {
        status: 200,
        body: completion(text),
        delay: Duration::ZERO,
    }
}
