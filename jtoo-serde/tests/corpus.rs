//! The corpus (`testdata/corpus` at the workspace root): typed JSON → Rust →
//! JTOO → Rust round trips, and the protocol samples through
//! `serde_json::Value`.
//!
//! Workspace-only: the data is not shipped with the crate, so this file is
//! left out of the package (`exclude` in Cargo.toml).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

fn corpus(name: &str) -> String {
    let path = format!("{}/../testdata/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("corpus file {path} is missing ({e})"))
}

fn typed_round_trip<T>(name: &str) -> String
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let json = corpus(name);
    let from_json: T = serde_json::from_str(&json).unwrap();
    let jtoo = jtoo_serde::to_string(&from_json).unwrap();
    // The output is one canonical JTOO document.
    let value = jtoo::from_str(&jtoo).unwrap();
    assert_eq!(value.to_string(), jtoo);
    let back: T = jtoo_serde::from_str(&jtoo).unwrap();
    assert!(back == from_json, "{name}: round trip differs");
    let back: T = jtoo_serde::from_value(value).unwrap();
    assert!(back == from_json, "{name}: from_value differs");
    jtoo
}

// ------------------------------------------------------------- canada

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Canada {
    #[serde(rename = "type")]
    kind: String,
    features: Vec<Feature>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Feature {
    #[serde(rename = "type")]
    kind: String,
    properties: BTreeMap<String, String>,
    geometry: Geometry,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Geometry {
    #[serde(rename = "type")]
    kind: String,
    coordinates: Vec<Vec<(f64, f64)>>,
}

#[test]
fn canada_round_trips() {
    let text = typed_round_trip::<Canada>("canada.json");
    assert!(text.starts_with(r#"["type":"FeatureCollection","features":[["type":"Feature""#));
}

// ------------------------------------------------------------- citm_catalog

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Citm {
    area_names: BTreeMap<String, String>,
    audience_sub_category_names: BTreeMap<String, String>,
    block_names: BTreeMap<String, String>,
    events: BTreeMap<String, Event>,
    performances: Vec<Performance>,
    seat_category_names: BTreeMap<String, String>,
    sub_topic_names: BTreeMap<String, String>,
    subject_names: BTreeMap<String, String>,
    topic_names: BTreeMap<String, String>,
    topic_sub_topics: BTreeMap<String, Vec<u64>>,
    venue_names: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Event {
    description: Option<String>,
    id: u64,
    logo: Option<String>,
    name: String,
    sub_topic_ids: Vec<u64>,
    subject_code: Option<String>,
    subtitle: Option<String>,
    topic_ids: Vec<u64>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Performance {
    event_id: u64,
    id: u64,
    logo: Option<String>,
    name: Option<String>,
    prices: Vec<Price>,
    seat_categories: Vec<SeatCategory>,
    seat_map_image: Option<String>,
    start: u64,
    venue_code: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Price {
    amount: u64,
    audience_sub_category_id: u64,
    seat_category_id: u64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct SeatCategory {
    areas: Vec<Area>,
    seat_category_id: u64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Area {
    area_id: u64,
    block_ids: Vec<u64>,
}

#[test]
fn citm_catalog_round_trips() {
    typed_round_trip::<Citm>("citm_catalog.json");
}

// ------------------------------------------------------------- twitter

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Twitter<'a> {
    #[serde(borrow)]
    statuses: Vec<Status<'a>>,
    search_metadata: SearchMetadata,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct SearchMetadata {
    completed_in: f64,
    max_id: u64,
    max_id_str: String,
    next_results: String,
    query: String,
    refresh_url: String,
    count: u32,
    since_id: u64,
    since_id_str: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Status<'a> {
    metadata: BTreeMap<String, String>,
    created_at: &'a str,
    id: u64,
    id_str: String,
    text: String,
    source: String,
    truncated: bool,
    in_reply_to_status_id: Option<u64>,
    in_reply_to_status_id_str: Option<String>,
    in_reply_to_user_id: Option<u64>,
    in_reply_to_user_id_str: Option<String>,
    in_reply_to_screen_name: Option<String>,
    user: User,
    retweeted_status: Option<Box<Status<'a>>>,
    retweet_count: u32,
    favorite_count: u32,
    entities: Entities,
    favorited: bool,
    retweeted: bool,
    possibly_sensitive: Option<bool>,
    lang: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct User {
    id: u64,
    id_str: String,
    name: String,
    screen_name: String,
    location: String,
    description: String,
    url: Option<String>,
    protected: bool,
    followers_count: u32,
    friends_count: u32,
    listed_count: u32,
    created_at: String,
    favourites_count: u32,
    utc_offset: Option<i32>,
    time_zone: Option<String>,
    geo_enabled: bool,
    verified: bool,
    statuses_count: u32,
    lang: String,
    profile_background_color: String,
    profile_image_url_https: String,
    default_profile: bool,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Entities {
    hashtags: Vec<Hashtag>,
    urls: Vec<Url>,
    user_mentions: Vec<Mention>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Hashtag {
    text: String,
    indices: (u32, u32),
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Url {
    url: String,
    expanded_url: String,
    display_url: String,
    indices: (u32, u32),
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Mention {
    screen_name: String,
    name: String,
    id: u64,
    id_str: String,
    indices: (u32, u32),
}

#[test]
fn twitter_round_trips() {
    let json = corpus("twitter.json");
    let from_json: Twitter = serde_json::from_str(&json).unwrap();
    let jtoo = jtoo_serde::to_string(&from_json).unwrap();
    assert_eq!(jtoo::from_str(&jtoo).unwrap().to_string(), jtoo);
    let back: Twitter = jtoo_serde::from_str(&jtoo).unwrap();
    assert!(back == from_json, "twitter: round trip differs");
}

// ------------------------------------------------- through serde_json::Value

/// The documented differences: `null` members are left out, an empty
/// object comes back as `[]`, and numbers compare by value.
fn normalise(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        J::Object(m) if m.values().all(J::is_null) => J::Array(Vec::new()),
        J::Object(m) => J::Object(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, normalise(v)))
                .collect(),
        ),
        J::Array(a) => J::Array(a.into_iter().map(normalise).collect()),
        J::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => J::from(i),
            (_, Some(u), _) => J::from(u),
            (_, _, Some(f)) => J::from(f),
            _ => J::Number(n),
        },
        v => v,
    }
}

fn through_json_value(json: &str) -> (serde_json::Value, serde_json::Value, String) {
    let original: serde_json::Value = serde_json::from_str(json).unwrap();
    let text = jtoo_serde::to_string(&original).unwrap();
    let back: serde_json::Value = jtoo_serde::from_str(&text).unwrap();
    (normalise(original), normalise(back), text)
}

#[test]
fn protocol_samples_through_serde_json_value() {
    let dir = format!(
        "{}/../testdata/corpus/protocols",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir} is missing ({e})"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "expected the protocol samples in {dir}");
    let mut lines = 0;
    for f in files {
        let body = std::fs::read_to_string(&f).unwrap();
        for line in body.lines().filter(|l| !l.trim().is_empty()) {
            let (a, b, text) = through_json_value(line);
            assert_eq!(a, b, "{}: {line}\nJTOO: {text}", f.display());
            // And the JTOO is canonical.
            assert_eq!(jtoo::from_str(&text).unwrap().to_string(), text);
            lines += 1;
        }
    }
    assert!(lines > 20, "only {lines} protocol lines");
}

#[test]
fn corpus_files_through_serde_json_value() {
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let (a, b, _) = through_json_value(&corpus(name));
        assert!(a == b, "{name} differs through serde_json::Value");
    }
}
