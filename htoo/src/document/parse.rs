//! The lossless walk: jtoo's list steps ([`Cursor`]: `begin_list`,
//! `pair_colon`, `after_item`, `end_list`) and its scalar productions
//! (`Cursor::skip_key`, the validator's), recording where each value starts
//! and ends. Everything between two recorded values (whitespace, comments,
//! `,`, `:`) is trivia, read back from the text when asked for; nothing of
//! the grammar is written here.

use jtoo::ErrorKind;
use jtoo::parse::cursor::Cursor;
use jtoo::parse::{ParseError, Syntax};

use super::{KEY, LIST, Raw};

/// A list being read: its node and the offset of its `[`; `first` is the
/// node of the current item's first value while that value (or what follows
/// it) is read, `None` once it turned out to be a pair key.
struct Open {
    node: usize,
    start: usize,
    first: Option<usize>,
}

/// Reads one whole HTOO document into nodes (pre-order). Errors are the
/// cursor's; the caller reports the fast parser's error instead (the same
/// by construction, and checked by the fuzz target).
pub(super) fn nodes(input: &[u8], max_depth: usize) -> Result<Vec<Raw>, ParseError> {
    let mut c = Cursor::new(input, Syntax::Lenient, max_depth);
    // About one node per 8 bytes of pretty text; grown if more.
    let mut nodes: Vec<Raw> = Vec::with_capacity(input.len() / 8 + 1);
    let mut open: Vec<Open> = Vec::new();
    c.skip_ws()?;
    if c.peek().is_none() {
        return Err(c.error_at(ErrorKind::ExpectedValue, c.pos));
    }
    let ambiguous = 'value: loop {
        // `c` is at the first byte of a value.
        let start = c.pos;
        let mut ambiguous = false;
        if c.peek() == Some(b'[') {
            let list = c.begin_list()?;
            nodes.push(Raw::new(start, start, LIST));
            let node = nodes.len() - 1;
            if !c.at_list_end(list)? {
                open.push(Open {
                    node,
                    start: list,
                    first: Some(nodes.len()),
                });
                continue 'value;
            }
            c.end_list(list)?;
            close(&mut nodes, node, c.pos);
        } else {
            ambiguous = c.skip_key()?;
            nodes.push(Raw::new(start, c.pos, 0));
        }
        // A value ended at `c.pos`: go on in the lists it ends.
        loop {
            let Some(frame) = open.last_mut() else {
                break 'value ambiguous;
            };
            if let Some(first) = frame.first.take()
                && c.pair_colon(frame.start, ambiguous)?
            {
                if let Some(n) = nodes.get_mut(first) {
                    n.flags |= KEY;
                }
                continue 'value;
            }
            c.after_item(frame.start)?;
            if !c.at_list_end(frame.start)? {
                frame.first = Some(nodes.len());
                continue 'value;
            }
            c.end_list(frame.start)?;
            let node = frame.node;
            open.pop();
            close(&mut nodes, node, c.pos);
            ambiguous = false;
        }
    };
    c.skip_ws()?;
    match c.peek() {
        None => {
            // The capacity was a guess; give back what it overshot.
            nodes.shrink_to_fit();
            Ok(nodes)
        }
        Some(b':') if ambiguous => Err(c.error_at(ErrorKind::AmbiguousKey, c.pos)),
        Some(_) => Err(c.error_at(ErrorKind::TrailingCharacters, c.pos)),
    }
}

/// Records the end of the list `node` and the size of its subtree.
fn close(nodes: &mut [Raw], node: usize, end: usize) {
    let size = nodes.len() - node;
    if let Some(n) = nodes.get_mut(node) {
        n.end = end as u32;
        n.size = size as u32;
    }
}
