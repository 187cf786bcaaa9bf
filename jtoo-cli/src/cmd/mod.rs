//! One module per subcommand. Each has an `Args` (clap) and `run(Args) -> u8`
//! returning the process exit code: 0 success, 1 invalid input, 2 usage or
//! I/O error.

pub mod check;
pub mod decode;
pub mod demo;
pub mod encode;
pub mod fmt;
pub mod frame;
pub mod from_json;
pub mod get;
pub mod jte;
pub mod lsp;
pub mod pretty;
pub mod rm;
pub mod set;
pub mod to_json;
