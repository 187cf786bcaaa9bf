//! The `detect` command's reply ([`Capabilities`]), the `*` globbing its
//! `include`/`exclude` lists use, and the [`Policy`] that decides which
//! commands a peer's handlers may run.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The command every [`Peer`](crate::Peer) answers unless a handler of the
/// same name is registered.
pub const DETECT: &str = "detect";

/// `true` when `text` matches `pattern`, where `*` matches any run of
/// characters (including none) and every other character matches itself.
///
/// ```
/// use jte::glob_match;
/// assert!(glob_match("term:*", "term:setstyle"));
/// assert!(glob_match("*:get*", "file:getsize"));
/// assert!(!glob_match("term:*", "file:read"));
/// assert!(glob_match("detect", "detect"));
/// ```
pub fn glob_match(pattern: &str, text: &str) -> bool {
    // Iterative with one backtrack point: linear in practice, never
    // recursive.
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some(b'*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if t.get(ti) == Some(&c) => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..)
        .is_some_and(|rest| rest.iter().all(|&c| c == b'*'))
}

/// What one system (the part of a command before its first `:`) supports.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct System {
    /// The level of the system's standard this side supports, if it has
    /// levels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u64>,
    /// The commands supported (`*` globs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<String>,
    /// The commands not supported, although `include` matches them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
}

/// The `detect` reply: per system, a level and the commands included and
/// excluded (spelled `capabilities`, seed erratum E10).
///
/// ```
/// use jte::Capabilities;
/// let caps = Capabilities::from_commands(["term:setstyle", "term:bell", "echo"]);
/// assert!(caps.supports("term:bell"));
/// assert!(!caps.supports("file:read"));
/// let text = jtoo_serde::to_string(&caps).unwrap();
/// assert_eq!(text, r#"["capabilities":["":["include":["echo"]],"term":["include":["term:bell","term:setstyle"]]]]"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// Per system name (commands without `:` are under `""`).
    #[serde(default)]
    pub capabilities: BTreeMap<String, System>,
}

impl Capabilities {
    /// The table listing exactly `commands`, each under its system.
    pub fn from_commands<I, S>(commands: I) -> Capabilities
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut caps = Capabilities::default();
        for command in commands {
            let command = command.as_ref();
            let system = caps
                .capabilities
                .entry(system_of(command).to_owned())
                .or_default();
            if !system.include.iter().any(|c| c == command) {
                system.include.push(command.to_owned());
            }
        }
        for system in caps.capabilities.values_mut() {
            system.include.sort();
        }
        caps
    }

    /// Adds (or replaces) a system's entry.
    #[must_use]
    pub fn with_system(mut self, name: impl Into<String>, system: System) -> Capabilities {
        self.capabilities.insert(name.into(), system);
        self
    }

    /// `true` when `command`'s system includes it and does not exclude it.
    pub fn supports(&self, command: &str) -> bool {
        self.capabilities.get(system_of(command)).is_some_and(|s| {
            s.include.iter().any(|p| glob_match(p, command))
                && !s.exclude.iter().any(|p| glob_match(p, command))
        })
    }
}

/// The system of a command: the part before its first `:` (`""` when it
/// has none).
fn system_of(command: &str) -> &str {
    command.split_once(':').map_or("", |(system, _)| system)
}

/// Which incoming commands a peer's handlers may run: `allow` and `deny`
/// lists of `*` globs. A command runs when an `allow` pattern matches it
/// and no `deny` pattern does; any other request is answered `ECDENIED`
/// and any other notification is dropped (and counted in
/// [`Stats::denied`](crate::Stats::denied)). `detect` is always answered.
///
/// The default depends on the transport: every command on sockets and
/// JSON lines (the peer chose to connect), and **none but `detect`** on
/// the terminal side of terminal escapes, because there the packets come
/// from whatever a program prints, and any file shown with `cat` can carry
/// an OSC 23198 sequence: a terminal allows, one by one, the commands that
/// are harmless whoever sends them.
///
/// ```
/// use jte::Policy;
/// let p = Policy::deny_all().allow("term:*").deny("term:exec*");
/// assert!(p.allows("term:setstyle"));
/// assert!(!p.allows("term:exec"));
/// assert!(!p.allows("file:write"));
/// assert!(Policy::allow_all().allows("anything"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    allow: Vec<String>,
    deny: Vec<String>,
}

impl Policy {
    /// Every command allowed.
    pub fn allow_all() -> Policy {
        Policy {
            allow: vec!["*".to_owned()],
            deny: Vec::new(),
        }
    }

    /// No command allowed (but `detect`); add some with [`Policy::allow`].
    pub fn deny_all() -> Policy {
        Policy {
            allow: Vec::new(),
            deny: Vec::new(),
        }
    }

    /// Allows the commands matching `pattern`.
    #[must_use]
    pub fn allow(mut self, pattern: impl Into<String>) -> Policy {
        self.allow.push(pattern.into());
        self
    }

    /// Denies the commands matching `pattern`, whatever `allow` says.
    #[must_use]
    pub fn deny(mut self, pattern: impl Into<String>) -> Policy {
        self.deny.push(pattern.into());
        self
    }

    /// `true` when handlers may run `command`.
    pub fn allows(&self, command: &str) -> bool {
        command == DETECT
            || (self.allow.iter().any(|p| glob_match(p, command))
                && !self.deny.iter().any(|p| glob_match(p, command)))
    }
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn glob_edges() {
        assert!(glob_match("*", ""));
        assert!(glob_match("", ""));
        assert!(!glob_match("", "a"));
        assert!(glob_match("a*b*c", "aXbYbZc"));
        assert!(!glob_match("a*b*c", "aXbYbZ"));
        assert!(glob_match("**", "abc"));
        assert!(!glob_match("abc", "ab"));
        assert!(!glob_match("ab", "abc"));
        // A long hostile pattern stays fast and never recurses.
        let text = "a".repeat(10_000);
        assert!(!glob_match(&format!("{}b", "*a".repeat(50)), &text));
    }
}
