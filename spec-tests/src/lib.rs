//! The JTOO/HTOO conformance suite: language-agnostic cases under `cases/`
//! and a runner that checks any decoder, encoder, JSON-to-JTOO converter,
//! JTE packet checker, frame decoder or greeting checker given as a shell
//! command. See `README.md` for the protocol. The same checks are listed as
//! data in `cases/<rev>/manifest.json` (see `COMPARING.md`), which
//! `runners/jtoo_spec_tests.py` runs without Rust.
//!
//! ```no_run
//! use spec_tests::{cases, runner};
//! let rev_dir = cases::default_cases_dir().join("rev-3b9d492e");
//! let all = cases::load(&rev_dir).unwrap();
//! let config = runner::Config {
//!     rev_dir,
//!     decoder: Some("jtoo decode".into()),
//!     htoo: false,
//!     encoder: None,
//!     frame_decoder: None,
//!     greeting_checker: None,
//!     from_json: None,
//!     jte_packet: None,
//!     skips: vec![],
//!     only: vec![],
//!     timeout: std::time::Duration::from_secs(10),
//!     jobs: 2,
//! };
//! let results = runner::run(&config, &all);
//! println!("{}", runner::Summary::of(&results).line());
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod cases;
pub mod compare;
pub mod exec;
pub mod runner;
pub mod tagged;

/// The spec revision the runner uses when none is given: the newest folder
/// under `cases/` by name.
pub fn latest_revision(cases_dir: &std::path::Path) -> Option<String> {
    cases::revisions(cases_dir).ok()?.pop()
}
