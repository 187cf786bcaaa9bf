//! Merging a new value into a document: what is unchanged keeps its bytes
//! and comments, what changed is edited in place (see [`Document::update`]).

use std::collections::{HashMap, VecDeque};

use jtoo::{ItemRef, List, Value};

use super::edit::{EditError, Located};
use super::{At, Document};

/// What an old item of a list is, for matching.
struct Old {
    at: At,
    /// The key's value, for a pair.
    key: Option<Value>,
}

impl Document {
    /// Writes `value` into the document, changing only what differs:
    ///
    /// - a scalar that is equal to the new one keeps its spelling (`1000`
    ///   stays `1000` for `1_000`) and everything around it; a different
    ///   one is replaced in place, canonically;
    /// - in a list, **pairs are matched by key** (the k-th pair with a key
    ///   in the new list to the k-th with that key in the document): a
    ///   matched pair keeps its place, key and comments and its value is
    ///   merged in the same way; a pair whose key is not in the document is
    ///   inserted after the item that precedes it in the new list (as
    ///   [`Document::insert_pair`] does: the siblings' layout); a pair of the
    ///   document whose key is not in the new list is removed with its
    ///   comments (as [`Document::remove`] does);
    /// - **plain items are matched by position** among the plain items of
    ///   the list, after equal items are matched from both ends: removing
    ///   the second of `[1, 2, 3]` removes the `2` and its comments, and
    ///   items added at the end are appended; the others are merged in
    ///   place;
    /// - a scalar replaced by a list, or a list by a scalar, is replaced
    ///   whole (a list written pretty).
    ///
    /// Afterwards the document's value equals `value`, except that pairs
    /// matched by key stay in the document's order where `value` has them
    /// in another: for a config read into a struct and written back, the
    /// file keeps its order and the struct reads back the same.
    ///
    /// Each change is one edit of the text: an update costs the work of
    /// comparing the values plus, for each change, an edit (which moves
    /// the text after it).
    ///
    /// ```
    /// let text = "\
    /// // Service settings.
    /// [
    ///   \"name\": \"api\", // public name
    ///   \"port\": 8080,
    ///   // Old setting, to go.
    ///   \"legacy\": Y,
    /// ]";
    /// let mut doc = htoo::Document::parse(text)?;
    /// let mut v = doc.value();
    /// let list = v.as_list_mut().unwrap();
    /// list.remove(2);
    /// list.push(jtoo::Pair::with_str_key("debug", false.into()));
    /// *v.get_mut("port").unwrap() = 9090.into();
    /// doc.update(&v)?;
    /// assert_eq!(doc.as_str(), "\
    /// // Service settings.
    /// [
    ///   \"name\": \"api\", // public name
    ///   \"port\": 9_090,
    ///   \"debug\": N,
    /// ]");
    /// assert_eq!(doc.value(), v);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`EditError::Value`] when a new value nests deeper than the
    /// document's depth limit allows where it goes, or has an ambiguous key;
    /// the document is then left as it was.
    pub fn update(&mut self, value: &Value) -> Result<(), EditError> {
        if value.depth() > self.max_depth {
            return Err(EditError::Value(jtoo::Error::new(
                jtoo::ErrorKind::TooDeep(self.max_depth),
            )));
        }
        let saved = self.clone();
        let mut lists = Vec::new();
        match self.merge(0, None, &mut lists, value) {
            Ok(()) => Ok(()),
            Err(e) => {
                *self = saved;
                Err(e)
            }
        }
    }

    /// Merges `new` into node `id`, the value of item `at` (`None`: the
    /// document's value), inside `lists` (outermost first).
    ///
    /// Ids stay valid while this runs: an edit changes only the ids from
    /// the nodes it replaces on, and the items of a list are merged last
    /// first, each edit inside the item merged.
    fn merge(
        &mut self,
        id: usize,
        at: Option<At>,
        lists: &mut Vec<usize>,
        new: &Value,
    ) -> Result<(), EditError> {
        let is_list = self.raw(id).is_list();
        match new {
            Value::List(items) if is_list => {
                lists.push(id);
                let r = self.merge_list(id, lists, items);
                lists.pop();
                r
            }
            _ if !is_list && !matches!(new, Value::List(_)) && self.scalar_equals(id, new) => {
                Ok(())
            }
            _ => self.replace_value(
                Located {
                    lists: lists.clone(),
                    at,
                },
                new,
            ),
        }
    }

    /// `true` when the scalar node `id` reads as `new`.
    fn scalar_equals(&self, id: usize, new: &Value) -> bool {
        let node = super::Node {
            doc: self,
            id,
            item: None,
        };
        let text = node.as_str().as_bytes();
        jtoo::parse::list::scalar(text, jtoo::parse::Syntax::Lenient).is_ok_and(|(_, v)| v == *new)
    }

    /// Merges the items `new` into the list node `id`; `lists` ends with
    /// `id`.
    fn merge_list(
        &mut self,
        id: usize,
        lists: &mut Vec<usize>,
        new: &List,
    ) -> Result<(), EditError> {
        let old: Vec<Old> = self
            .items_of(id)
            .map(|e| Old {
                at: e.at(),
                key: e.key().map(|k| k.value()),
            })
            .collect();
        let new: Vec<ItemRef<'_>> = new.iter().collect();
        // `matched[j]`: the old item new item `j` is matched to.
        let mut matched: Vec<Option<usize>> = vec![None; new.len()];
        // `partner[i]`: the new item old item `i` is matched to, and whether
        // the two are known to be equal.
        let mut partner: Vec<Option<(usize, bool)>> = vec![None; old.len()];
        // Pairs by key, in order.
        let mut by_key: HashMap<&Value, VecDeque<usize>> = HashMap::new();
        for (i, o) in old.iter().enumerate() {
            if let Some(k) = &o.key {
                by_key.entry(k).or_default().push_back(i);
            }
        }
        for (j, item) in new.iter().enumerate() {
            if let ItemRef::Pair(p) = item
                && let Some(i) = by_key.get_mut(p.key()).and_then(|q| q.pop_front())
            {
                matched[j] = Some(i);
                partner[i] = Some((j, false));
            }
        }
        // Plain items by position, equal ones first matched from both ends.
        let old_plain: Vec<usize> = (0..old.len()).filter(|&i| old[i].key.is_none()).collect();
        let new_plain: Vec<usize> = (0..new.len()).filter(|&j| !new[j].is_pair()).collect();
        let same = |doc: &Document, i: usize, j: usize| -> bool {
            let node = super::Node {
                doc,
                id: old[i].at.value,
                item: None,
            };
            if node.is_list() {
                matches!(new[j].value(), Value::List(_)) && node.value() == *new[j].value()
            } else {
                doc.scalar_equals(old[i].at.value, new[j].value())
            }
        };
        let (no, nn) = (old_plain.len(), new_plain.len());
        let mut head = 0;
        while head < no.min(nn) && same(self, old_plain[head], new_plain[head]) {
            head += 1;
        }
        let mut tail = 0;
        while tail < no.min(nn) - head
            && same(self, old_plain[no - 1 - tail], new_plain[nn - 1 - tail])
        {
            tail += 1;
        }
        let middle = (no - head - tail).min(nn - head - tail);
        for k in 0..head + middle {
            matched[new_plain[k]] = Some(old_plain[k]);
            partner[old_plain[k]] = Some((new_plain[k], k < head));
        }
        for k in 0..tail {
            let (i, j) = (old_plain[no - tail + k], new_plain[nn - tail + k]);
            matched[j] = Some(i);
            partner[i] = Some((j, true));
        }
        // Last item first: merge what is matched, remove the rest. Each
        // edit is inside (or right after) the item it concerns, so the
        // items before it keep their nodes' ids.
        for i in (0..old.len()).rev() {
            match partner[i] {
                Some((_, true)) => {}
                Some((j, false)) => {
                    let at = old[i].at;
                    self.merge(at.value, Some(at), lists, new[j].value())?;
                }
                None => {
                    let at = self
                        .items_of(id)
                        .nth(i)
                        .map(|e| e.at())
                        .ok_or(EditError::Missing { step: lists.len() })?;
                    self.remove_at(at, lists)?;
                }
            }
        }
        // Positions after the removals.
        let mut removed_before = vec![0usize; old.len() + 1];
        for i in 0..old.len() {
            removed_before[i + 1] = removed_before[i] + usize::from(partner[i].is_none());
        }
        let mut pos: Vec<Option<usize>> = matched
            .iter()
            .map(|m| m.map(|i| i - removed_before[i]))
            .collect();
        // Insert new items after their predecessor in the new list.
        for j in 0..new.len() {
            if pos[j].is_some() {
                continue;
            }
            let mut at = j.checked_sub(1).and_then(|k| pos[k]).map_or(0, |p| p + 1);
            if !new[j].is_pair() {
                // Plain items keep the new list's order even where matched
                // pairs stay in the document's: after the plain item before
                // it, before the next one already placed.
                let plain_pos = |k: usize| pos[k].filter(|_| !new[k].is_pair());
                let lo = (0..j).rev().find_map(plain_pos).map_or(0, |p| p + 1);
                let hi = (j + 1..new.len()).find_map(plain_pos).unwrap_or(usize::MAX);
                at = at.max(lo).min(hi);
            }
            match new[j] {
                ItemRef::Pair(p) => self.insert_entry(id, lists, at, Some(p.key()), p.value())?,
                ItemRef::Value(v) => self.insert_entry(id, lists, at, None, v)?,
            }
            for q in pos.iter_mut().flatten() {
                if *q >= at {
                    *q += 1;
                }
            }
            pos[j] = Some(at);
        }
        Ok(())
    }
}
