//! Values built in code nest as deep as memory allows: a million lists deep
//! nothing in this crate may overflow the stack, even on a 2 MiB thread
//! (tokio's worker default) in an unoptimized build.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::{ErrorKind, Item, List, Pair, Value};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

const DEEP: usize = 1_000_000;

/// Runs `f` on a thread with a 2 MiB stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// `depth` lists, each the only item of the next.
fn plain(depth: usize) -> Value {
    let mut v = Value::List(List::new());
    for _ in 1..depth {
        v = Value::List(vec![Item::Value(v)].into());
    }
    v
}

/// `depth` lists, each the value of a pair in the next, with a list key
/// every other level: `["k":[[]:[…]]]`.
fn through_pairs(depth: usize) -> Value {
    let mut v = Value::List(List::new());
    for i in 1..depth {
        let key = if i % 2 == 0 {
            Value::List(vec![Item::Value(Value::from(i as i64))].into())
        } else {
            Value::from("k")
        };
        v = Value::List(vec![Item::Pair(Pair::new(key, v).unwrap())].into());
    }
    v
}

/// `depth` lists, each the key of a pair in the next: `[[[…]:1]:1]`.
fn through_keys(depth: usize) -> Value {
    let mut v = Value::List(List::new());
    for _ in 1..depth {
        v = Value::List(vec![Item::Pair(Pair::new(v, Value::from(1)).unwrap())].into());
    }
    v
}

fn hash_of(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

#[test]
fn a_million_levels_drop_clone_compare_hash_print() {
    on_small_stack(|| {
        for make in [plain, through_pairs, through_keys] {
            let v = make(DEEP);
            assert_eq!(v.depth(), DEEP);
            let copy = v.clone();
            assert_eq!(copy, v);
            assert_eq!(hash_of(&copy), hash_of(&v));
            // A difference at the very bottom is found.
            let other = make(DEEP - 1);
            assert_ne!(other, v);
            let debug = format!("{v:?}");
            assert!(debug.starts_with("List(["), "{}", &debug[..20]);
            assert!(debug.matches("List([").count() >= DEEP);
            // Display writes any depth; the writers refuse past the limit.
            let text = v.to_string();
            assert!(text.len() >= 2 * DEEP);
            assert_eq!(
                jtoo::to_vec(&v).unwrap_err().kind(),
                ErrorKind::TooDeep(128)
            );
            assert!(jtoo::to_writer(Vec::new(), &v).is_err());
            let mut out = b"x".to_vec();
            assert!(jtoo::encode::write_value(&mut out, &v).is_err());
            assert_eq!(out, b"x", "nothing appended on error");
            // Moving the value into the list of another and dropping that.
            drop(Value::List(vec![Item::Value(v), Item::Value(copy)].into()));
        }
    });
}

#[test]
fn wide_and_deep_mixed_values_compare_as_the_derived_impls_did() {
    let a = jtoo::from_str(r#"[1,"k":[],[["a":B4f,D2023:[2.5]],[]],S1.500,Y]"#).unwrap();
    let b = jtoo::from_str(r#"[1,"k":[],[["a":B4f,D2023:[2.5]],[]],S1.500,N]"#).unwrap();
    let c = jtoo::from_str(r#"[1,"k":[],[["a":B4f,D2023:[2.5]],[]],S1.500]"#).unwrap();
    let d = jtoo::from_str(r#"[1,"k":[],[["a":B4f,D2023:[2.5]],[]],S1.500,[]]"#).unwrap();
    let e = jtoo::from_str(r#"[1,"k":[],[["a":B4f,D2023:[2.5]],[]],S1.500,"x":Y]"#).unwrap();
    let all = [&a, &b, &c, &d, &e];
    for (i, x) in all.iter().enumerate() {
        for (j, y) in all.iter().enumerate() {
            assert_eq!(x == y, i == j, "{x} vs {y}");
        }
        assert_eq!(hash_of(x), hash_of(&(*x).clone()));
    }
    // A pair and a plain item holding the same values differ.
    let p = jtoo::from_str(r#"["a":1]"#).unwrap();
    let q = jtoo::from_str(r#"["a",1]"#).unwrap();
    assert_ne!(p, q);
}

#[test]
fn debug_output_is_what_the_derived_impls_printed() {
    // Recorded from the derived `Debug` before `List` got its own (the
    // scalars since print their named JTOO spelling: `DateTime(D2023)`).
    let v = jtoo::from_str(r#"[1,"k":[],[["a":B4f,D2023:[2.5]],[]],S1.500,Y,[T10Z:N]]"#).unwrap();
    assert_eq!(format!("{v:?}"), include_str!("data/debug_compact.txt"));
    assert_eq!(format!("{v:#?}"), include_str!("data/debug_pretty.txt"));
    let empty = Value::List(List::new());
    assert_eq!(format!("{empty:?}"), "List([])");
    assert_eq!(format!("{empty:#?}"), "List(\n    [],\n)");
}

#[test]
fn moving_out_of_values_and_lists_still_works() {
    let v = jtoo::from_str(r#"[[1,2],"k":3]"#).unwrap();
    let Value::List(items) = v else {
        panic!("a list")
    };
    let mut items: Vec<Item> = items.into();
    let Some(Item::Pair(p)) = items.pop() else {
        panic!("a pair")
    };
    let (k, v) = p.into_parts();
    assert_eq!((k.as_str(), v.as_i64()), (Some("k"), Some(3)));
    match items.pop() {
        Some(Item::Value(Value::List(inner))) => {
            let n: Vec<i64> = inner
                .into_iter()
                .filter_map(|i| i.as_value()?.as_i64())
                .collect();
            assert_eq!(n, [1, 2]);
        }
        other => panic!("{other:?}"),
    }
}
