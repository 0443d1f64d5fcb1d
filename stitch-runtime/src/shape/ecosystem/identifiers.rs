//! Identifiers: `uuid::Uuid` (a string of format `uuid`), `url::Url` (format `uri`), and
//! `semver`'s versions (a pattern) and requirements (a string).

use super::super::{Shape, text};
use super::respell::spelled_as;
use crate::ir::Node;

/// A semantic version: three numbers without leading zeros, then an optional pre-release and
/// build, as `semver::Version` writes it.
#[cfg(feature = "semver1")]
pub(crate) const VERSION: &str = "^(?:0|[1-9][0-9]*)\\.(?:0|[1-9][0-9]*)\\.(?:0|[1-9][0-9]*)(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?$";

/// Its hyphenated form, the one serde writes (the `uuid` format admits nothing serde refuses).
#[cfg(feature = "uuid1")]
impl Shape for uuid::Uuid {
    const SHAPE: &'static Node<'static> =
        &spelled_as::<uuid::Uuid>(&text(Some("uuid"), None, false));
}

/// An absolute URL, as `uri` says; serde refuses one the WHATWG parser refuses (converted).
#[cfg(feature = "url2")]
impl Shape for url::Url {
    const SHAPE: &'static Node<'static> = &spelled_as::<url::Url>(&text(Some("uri"), None, true));
}

#[cfg(feature = "semver1")]
impl Shape for semver::Version {
    const SHAPE: &'static Node<'static> =
        &spelled_as::<semver::Version>(&text(None, Some(VERSION), true));
}

/// A version requirement (`>=1.2, <2`): a string serde parses.
#[cfg(feature = "semver1")]
impl Shape for semver::VersionReq {
    const SHAPE: &'static Node<'static> = &text(None, None, true);
}
