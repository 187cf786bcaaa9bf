#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod diagnostic;
mod document;
mod options;
mod pretty;

pub use diagnostic::{Diagnostic, hint, render_diagnostic};
pub use document::{
    Comments, Document, EditError, Entries, Entry, Node, Span, Trivia, TriviaIter, TriviaKind,
};
pub use document::{format, format_slice};
pub use jtoo::{Error, ErrorKind, Item, Pair, Value};
pub use options::{Options, from_reader, from_slice, from_str};
pub use pretty::{
    MAX_INDENT_LEVEL, PrettyConfig, to_string_pretty, to_string_pretty_with, to_vec_pretty,
    to_writer_pretty,
};
