#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use stitch_derive::{Contract, Shape};
pub use stitch_runtime::*;

#[cfg(feature = "rmcp")]
pub mod mcp;
