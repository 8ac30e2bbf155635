//! What can go wrong reading a reply: the parsers say what they found, not what to do.
//!
//! A [`ParseError`] names its [`ParseErrorKind`] (a stable code) and says, in one
//! sentence, what came back instead of the document expected. What a caller should
//! do about it (retry, ask for fewer ids, check a database name) is the core's to
//! say: it turns each kind, and NCBI's own words, into advice.

use std::fmt;

/// Why a reply could not be read as the document asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// Not the document expected: malformed, another root element, a value of the wrong type.
    Unreadable,
    /// The body was empty.
    Empty,
    /// An HTML page came back where XML was expected.
    Html,
    /// An HTML page came back where plain text was expected.
    HtmlForText,
    /// The body is not XML at all.
    NotXml,
    /// The document declares DTD entities, which are never expanded.
    EntitiesRefused,
    /// The document ends early: cut off in transit.
    Truncated,
    /// A document of another kind than the one asked for.
    UnexpectedDocument,
    /// More than a parser reads (the generic XML reader's element budget).
    TooLarge,
    /// The service put an error where the result should be: its own words.
    Reported(Said),
}

/// What NCBI said in an error body, as it said it (keys and addresses scrubbed).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Said {
    /// Its messages, in order.
    pub messages: Vec<String>,
    /// A 429 body's count of requests in the second, when it gave one.
    pub count: Option<u64>,
    /// A 429 body's limit per second, when it gave one.
    pub limit: Option<u64>,
}

impl ParseErrorKind {
    /// The stable code a caller sees.
    pub fn code(&self) -> &'static str {
        match self {
            ParseErrorKind::Unreadable => "unparseable_response",
            ParseErrorKind::Empty => "empty_response",
            ParseErrorKind::Html => "html_instead_of_xml",
            ParseErrorKind::HtmlForText => "html_instead_of_text",
            ParseErrorKind::NotXml => "not_xml",
            ParseErrorKind::EntitiesRefused => "xml_entities_refused",
            ParseErrorKind::Truncated => "truncated_response",
            ParseErrorKind::UnexpectedDocument => "unexpected_document",
            ParseErrorKind::TooLarge => "response_too_large",
            ParseErrorKind::Reported(_) => "ncbi_error",
        }
    }
}

/// A reply that could not be read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What kind of failure.
    pub kind: ParseErrorKind,
    /// One sentence naming what came back instead of what was expected.
    pub message: String,
}

impl ParseError {
    /// A reply that could not be read as `what` (e.g. "PubMed XML"), and the detail why.
    pub fn unexpected(what: &str, detail: impl Into<String>) -> ParseError {
        ParseError {
            kind: ParseErrorKind::Unreadable,
            message: format!(
                "NCBI's reply could not be read as {what}: {}",
                detail.into()
            ),
        }
    }

    /// The service's own error messages where a result should be.
    pub fn reported(message: impl Into<String>, said: Said) -> ParseError {
        ParseError {
            kind: ParseErrorKind::Reported(said),
            message: message.into(),
        }
    }

    /// The same failure, of another kind.
    pub fn of_kind(mut self, kind: ParseErrorKind) -> ParseError {
        self.kind = kind;
        self
    }

    /// The stable code a caller sees.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// A parser's result.
pub type Result<T, E = ParseError> = std::result::Result<T, E>;
