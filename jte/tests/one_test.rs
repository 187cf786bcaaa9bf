//! The harness of a test binary that holds one test and its own `main`
//! (`harness = false`): it answers libtest's `--list` as libtest does, so
//! `cargo test -- --list` and cargo-nextest (which lists every binary
//! first) name the test instead of running it, and it honours a filter.

/// Whether to run the test `name`: prints `name: test` and says no when
/// asked to list, says no when a filter names another test (`--exact`
/// compares whole names, as libtest does).
pub fn should_run(name: &str) -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    if flag("--list") {
        if !flag("--ignored") {
            println!("{name}: test");
        }
        return false;
    }
    match args.iter().find(|a| !a.starts_with('-')) {
        None => true,
        Some(filter) if flag("--exact") => filter == name,
        Some(filter) => name.contains(filter.as_str()),
    }
}
