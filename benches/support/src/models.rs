//! Typed models of the three corpus files (after serde-rs/json-benchmark's),
//! for the typed serde benches. JSON `null`s are `Option`s (the JTOO
//! conversion leaves null members out, and a missing field reads as `None`),
//! and `None` is never written, so serde_json and jtoo-serde serialize the
//! same logical content.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

macro_rules! model {
    ($(#[$m:meta])* struct $name:ident { $($(#[$fm:meta])* $field:ident : $ty:ty,)* }) => {
        #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
        $(#[$m])*
        #[allow(missing_docs)]
        pub struct $name {
            $(
                $(#[$fm])*
                pub $field: $ty,
            )*
        }
    };
}

// ---------------------------------------------------------------- canada

model! {
    /// canada.json: one GeoJSON feature collection.
    struct Canada {
        #[serde(rename = "type")]
        kind: String,
        features: Vec<Feature>,
    }
}

model! {
    /// A country feature.
    struct Feature {
        #[serde(rename = "type")]
        kind: String,
        properties: BTreeMap<String, String>,
        geometry: Geometry,
    }
}

model! {
    /// Polygons as rings of (longitude, latitude).
    struct Geometry {
        #[serde(rename = "type")]
        kind: String,
        coordinates: Vec<Vec<(f64, f64)>>,
    }
}

// ---------------------------------------------------------------- citm

model! {
    /// citm_catalog.json: a ticketing catalog.
    #[serde(rename_all = "camelCase")]
    struct CitmCatalog {
        area_names: BTreeMap<String, String>,
        audience_sub_category_names: BTreeMap<String, String>,
        block_names: BTreeMap<String, String>,
        events: BTreeMap<String, Event>,
        performances: Vec<Performance>,
        seat_category_names: BTreeMap<String, String>,
        sub_topic_names: BTreeMap<String, String>,
        subject_names: BTreeMap<String, String>,
        topic_names: BTreeMap<String, String>,
        topic_sub_topics: BTreeMap<String, Vec<u32>>,
        venue_names: BTreeMap<String, String>,
    }
}

model! {
    /// An event.
    #[serde(rename_all = "camelCase")]
    struct Event {
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<()>,
        id: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        logo: Option<String>,
        name: String,
        sub_topic_ids: Vec<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subject_code: Option<()>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subtitle: Option<()>,
        topic_ids: Vec<u32>,
    }
}

model! {
    /// A performance of an event.
    #[serde(rename_all = "camelCase")]
    struct Performance {
        event_id: u64,
        id: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        logo: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<()>,
        prices: Vec<Price>,
        seat_categories: Vec<SeatCategory>,
        #[serde(skip_serializing_if = "Option::is_none")]
        seat_map_image: Option<()>,
        start: u64,
        venue_code: String,
    }
}

model! {
    /// A price.
    #[serde(rename_all = "camelCase")]
    struct Price {
        amount: u32,
        audience_sub_category_id: u64,
        seat_category_id: u64,
    }
}

model! {
    /// A seat category.
    #[serde(rename_all = "camelCase")]
    struct SeatCategory {
        areas: Vec<Area>,
        seat_category_id: u64,
    }
}

model! {
    /// An area.
    #[serde(rename_all = "camelCase")]
    struct Area {
        area_id: u64,
        block_ids: Vec<u32>,
    }
}

// ---------------------------------------------------------------- twitter

model! {
    /// twitter.json: a search result.
    struct Twitter {
        statuses: Vec<Status>,
        search_metadata: SearchMetadata,
    }
}

model! {
    /// A tweet.
    struct Status {
        metadata: Metadata,
        created_at: String,
        id: u64,
        id_str: String,
        text: String,
        source: String,
        truncated: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        in_reply_to_status_id: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        in_reply_to_status_id_str: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        in_reply_to_user_id: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        in_reply_to_user_id_str: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        in_reply_to_screen_name: Option<String>,
        user: User,
        #[serde(skip_serializing_if = "Option::is_none")]
        geo: Option<()>,
        #[serde(skip_serializing_if = "Option::is_none")]
        coordinates: Option<()>,
        #[serde(skip_serializing_if = "Option::is_none")]
        place: Option<()>,
        #[serde(skip_serializing_if = "Option::is_none")]
        contributors: Option<()>,
        #[serde(skip_serializing_if = "Option::is_none")]
        retweeted_status: Option<Box<Status>>,
        retweet_count: u32,
        favorite_count: u32,
        entities: StatusEntities,
        favorited: bool,
        retweeted: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        possibly_sensitive: Option<bool>,
        lang: String,
    }
}

model! {
    /// Search metadata of a tweet.
    struct Metadata {
        result_type: String,
        iso_language_code: String,
    }
}

model! {
    /// A user.
    struct User {
        id: u64,
        id_str: String,
        name: String,
        screen_name: String,
        location: String,
        description: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        entities: UserEntities,
        protected: bool,
        followers_count: u32,
        friends_count: u32,
        listed_count: u32,
        created_at: String,
        favourites_count: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        utc_offset: Option<i32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        time_zone: Option<String>,
        geo_enabled: bool,
        verified: bool,
        statuses_count: u32,
        lang: String,
        contributors_enabled: bool,
        is_translator: bool,
        is_translation_enabled: bool,
        profile_background_color: String,
        profile_background_image_url: String,
        profile_background_image_url_https: String,
        profile_background_tile: bool,
        profile_image_url: String,
        profile_image_url_https: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        profile_banner_url: Option<String>,
        profile_link_color: String,
        profile_sidebar_border_color: String,
        profile_sidebar_fill_color: String,
        profile_text_color: String,
        profile_use_background_image: bool,
        default_profile: bool,
        default_profile_image: bool,
        following: bool,
        follow_request_sent: bool,
        notifications: bool,
    }
}

model! {
    /// A user's entities.
    struct UserEntities {
        #[serde(skip_serializing_if = "Option::is_none")]
        url: Option<UserUrl>,
        description: UserUrl,
    }
}

model! {
    /// URLs in a user's profile.
    struct UserUrl {
        urls: Vec<Url>,
    }
}

model! {
    /// A URL entity.
    struct Url {
        url: String,
        expanded_url: String,
        display_url: String,
        indices: Vec<u16>,
    }
}

model! {
    /// A tweet's entities.
    struct StatusEntities {
        hashtags: Vec<Hashtag>,
        symbols: Vec<String>,
        urls: Vec<Url>,
        user_mentions: Vec<UserMention>,
        #[serde(skip_serializing_if = "Option::is_none")]
        media: Option<Vec<Media>>,
    }
}

model! {
    /// A hashtag.
    struct Hashtag {
        text: String,
        indices: Vec<u16>,
    }
}

model! {
    /// A mention.
    struct UserMention {
        screen_name: String,
        name: String,
        id: u64,
        id_str: String,
        indices: Vec<u16>,
    }
}

model! {
    /// A media entity.
    struct Media {
        id: u64,
        id_str: String,
        indices: Vec<u16>,
        media_url: String,
        media_url_https: String,
        url: String,
        display_url: String,
        expanded_url: String,
        #[serde(rename = "type")]
        kind: String,
        sizes: Sizes,
        #[serde(skip_serializing_if = "Option::is_none")]
        source_status_id: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        source_status_id_str: Option<String>,
    }
}

model! {
    /// Media sizes.
    struct Sizes {
        medium: Size,
        small: Size,
        thumb: Size,
        large: Size,
    }
}

model! {
    /// One media size.
    struct Size {
        w: u16,
        h: u16,
        resize: String,
    }
}

model! {
    /// The search metadata.
    struct SearchMetadata {
        completed_in: f64,
        max_id: u64,
        max_id_str: String,
        next_results: String,
        query: String,
        refresh_url: String,
        count: u8,
        since_id: u64,
        since_id_str: String,
    }
}
