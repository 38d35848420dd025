//! An error's text with the texts of its causes, for the transport errors whose own text
//! leaves out why (reqwest's "error sending request" hides "connection refused").

/// `error` and each of its causes, joined by `": "`.
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
