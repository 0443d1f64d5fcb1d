//! Writing JSON text: the schemas a contract's IR is rendered into (`render`, with each
//! dialect's ways of saying null, optional keys and several kinds in `dialect_forms`), written
//! into a byte `sink` in constant evaluation or at run time; how a `&'static str` comes out of
//! constant evaluation (`const_text`); what a schema text weighs (`measure`, its tokens estimated by `tokens`); and the digest
//! of what a client was listed (`digest`).

pub(crate) mod const_text;
pub(crate) mod dialect_forms;
pub(crate) mod digest;
pub(crate) mod measure;
pub(crate) mod render;
pub(crate) mod sink;
pub(crate) mod tokens;
